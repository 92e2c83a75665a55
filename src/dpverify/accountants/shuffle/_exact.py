"""Exact privacy of the shuffled binary randomized response (the count of ones).

Each of n users holds a bit x and reports it with probability 1 − p, otherwise a
fair coin (:class:`dpverify.mechanisms.randomized_response.BinaryRandomizedResponse`);
the shuffled reports are equivalent to their count Y. With a = p/2, b = 1 − p/2
and k ones among the other n − 1 users,

.. math::

    Y \\mid x_1 = 1 \\sim R_k * \\mathrm{Ber}(b), \\quad
    Y \\mid x_1 = 0 \\sim R_k * \\mathrm{Ber}(a), \\quad
    R_k = \\mathrm{Bin}(k, b) * \\mathrm{Bin}(n - 1 - k, a).

Structure used (proved in the docstrings of the functions that rely on it):

1. R_k is a Poisson-binomial law, hence log-concave, so the likelihood ratio
   of the pair is increasing in y and the hockey-stick divergence is one tail
   expression at the crossing point t*: only a few pmf values are needed.
2. Flipping every bit (y ↦ n − y) maps the order (x_1 = 0 ‖ x_1 = 1) with k
   ones to the order (1 ‖ 0) with n − 1 − k ones: one order over all k suffices.
3. Data processing: for every k in [k1, k2], the pair is the pair of the
   smaller population with k1 ones and n − 1 − k2 zeros plus an *independent*
   count (the k2 − k1 middle users), so that smaller pair's divergence bounds
   every δ_k of the block. A branch-and-bound over blocks of k therefore bounds
   max_k δ_k rigorously, and ends on a single k whose value is exact.

Floats are used for pmf windows, with a rigorous relative error bound that is
added on; all final arithmetic is in mpmath and rounded up. One pair's divergence
(points 1 and the windows) is in :mod:`dpverify.accountants.shuffle._exact_pair`;
this module maximises it over k (points 2 and 3) and solves the inverse problems.
"""

from __future__ import annotations

import functools
import heapq
from collections.abc import Callable, Iterable

import mpmath
import numpy as np

from dpverify._deprecation import renamed_parameters
from dpverify._numeric import bisect_passing, round_up, working_precision
from dpverify._validation import (
    check_delta,
    check_epsilon,
    check_in_range,
    check_positive_int,
    check_probability,
)
from dpverify.accountants.shuffle._exact_pair import _pair_delta_bound
from dpverify.errors import CalibrationError

__all__ = [
    "shuffled_binary_rr_delta",
    "shuffled_binary_rr_epsilon",
    "min_randomization_probability",
]

def _worst_case_delta(randomization_probability: float, n: int, epsilon: float, *,
                      rtol: float) -> tuple[mpmath.mpf, int]:
    """Branch-and-bound over the number k of ones among the other users.

    A block [k1, k2] is bounded by the pair of the population with k1 ones and
    n − 1 − k2 zeros (data processing, module docstring point 3); blocks are
    split, largest bound first, until the largest bound belongs to a single k
    or is within ``rtol`` of the best single-k bound. The returned value is the
    largest bound over a cover of [0, n − 1], hence ≥ max_k δ_k.
    """
    others = n - 1

    def bound(k1: int, k2: int) -> mpmath.mpf:
        return _pair_delta_bound(k1, others - k2, randomization_probability, epsilon)

    blocks = min(others + 1, 16)
    edges = np.linspace(0, others + 1, blocks + 1).astype(int)
    heap = [(-bound(int(s), int(e) - 1), int(s), int(e) - 1) for s, e in zip(edges, edges[1:])]
    heapq.heapify(heap)
    best_point, best_k = mpmath.mpf(-1), 0
    while True:
        value, k1, k2 = heap[0]
        if k1 == k2 or -value <= best_point * (1 + rtol):
            return -value, (k1 if k1 == k2 else best_k)
        heapq.heappop(heap)
        middle = (k1 + k2) // 2
        for lo, hi in ((k1, middle), (middle + 1, k2)):
            piece = bound(lo, hi)
            if lo == hi and piece > best_point:
                best_point, best_k = piece, lo
            heapq.heappush(heap, (-piece, lo, hi))



def delta_at_most(randomization_probability: float, n: int, epsilon: float, delta: float,
                  probes: Iterable[int] = (), max_blocks: int | None = None
                  ) -> tuple[bool | None, int]:
    """Decide ``max_k δ_k(ε) <= delta`` by the branch-and-bound of :func:`_worst_case_delta`.

    The budget predicate of the inverse searches needs only this yes/no, which is settled
    long before the maximum is known to ``rtol``: "yes" as soon as every block's bound
    (a cover of [0, n − 1]) is <= ``delta``, "no" as soon as one single k's bound exceeds
    it. (Computing the maximum to 1e-9 at ε ≈ 0, where δ_k is flat in k, took ~10 s per
    call at n = 1000 and made ``plan shuffle --epsilon 1e-300`` run for minutes.)

    Single k's are probed first (``probes``, a few users from either end and the middle of
    each starting block), so a "no" usually costs a few evaluations instead of a descent of
    the whole tree, which visited ~2n blocks at ε ≈ 0 (200 s at n = 16384).

    Returns (decision, k): on "no" the k whose bound exceeds ``delta``, on "yes" the k of
    the largest bound seen among single k's (a candidate for the searches' relaxations);
    the decision is None ("undecided") when more than ``max_blocks`` blocks were split.
    **Soundness**: "yes" only when an upper bound of every δ_k is <= ``delta``.
    """
    p, others = randomization_probability, n - 1
    if n == 1:
        with working_precision():
            return bool(max(1 - p / 2 - mpmath.exp(epsilon) * p / 2, 0) <= delta), 0
    blocks = min(others + 1, 16)
    edges = np.linspace(0, others + 1, blocks + 1).astype(int)
    heap = [(-_pair_delta_bound(int(s), others - (int(e) - 1), p, epsilon), int(s), int(e) - 1)
            for s, e in zip(edges, edges[1:])]
    heapq.heapify(heap)
    best_point, best_k = mpmath.mpf(-1), 0
    middles = {(int(s) + int(e) - 1) // 2 for s, e in zip(edges, edges[1:])}
    for k in sorted({k for k in (*probes, *_initial_candidates(n), *middles) if 0 <= k <= others}):
        piece = _pair_delta_bound(k, others - k, p, epsilon)
        if piece > delta:
            return False, k
        if piece > best_point:
            best_point, best_k = piece, k
    while True:
        value, k1, k2 = heap[0]
        if -value <= delta:
            return True, best_k
        if k1 == k2:
            return False, k1
        if max_blocks is not None:
            if max_blocks <= 0:
                return None, best_k
            max_blocks -= 1
        heapq.heappop(heap)
        middle = (k1 + k2) // 2
        for lo, hi in ((k1, middle), (middle + 1, k2)):
            piece = _pair_delta_bound(lo, others - hi, p, epsilon)
            if lo == hi:
                if piece > delta:
                    return False, lo
                if piece > best_point:
                    best_point, best_k = piece, lo
            heapq.heappush(heap, (-piece, lo, hi))

MAX_EXACT_SHUFFLE_USERS = 10**7
"""Largest n of the exact shuffled-RR accountant (its time and memory grow with n)."""
_LARGE_N = ("for more users use the closed-form upper bounds amplified_epsilon / "
            "amplified_delta (bound='fmt2021')")


def _check_common(randomization_probability: float, n: int) -> tuple[float, int]:
    p = check_probability(randomization_probability, "randomization_probability", open_low=True)
    return p, check_positive_int(n, "users", maximum=MAX_EXACT_SHUFFLE_USERS, instead=_LARGE_N)


def _check_rtol(rtol: float) -> float:
    return check_in_range(rtol, "rtol", 0.0, 1.0, low_closed=False, high_closed=False)


@renamed_parameters(n="users", flip_probability="randomization_probability")
def shuffled_binary_rr_delta(randomization_probability: float, users: int, epsilon: float, *,
                             rtol: float = 1e-9) -> float:
    """Exact δ(ε) of the shuffled binary randomized response, worst case over the other users.

    Parameters
    ----------
    randomization_probability
        p in (0, 1]: each user keeps its bit with probability 1 − p, otherwise
        reports a fair coin (local ε0 = ln((2 − p)/p)).
    users
        Number n of users in the shuffled batch (>= 1).
    epsilon
        ε >= 0.
    rtol
        Relative gap allowed between the reported bound and the largest
        single-k bound when the branch-and-bound stops (default 1e-9).

    Returns
    -------
    float
        max over k and both orders of H_{e^ε}(Y | x_1 = 1 ‖ Y | x_1 = 0),
        rounded up.

    Notes
    -----
    .. math::

        δ(ε) = \\max_{0 ≤ k ≤ n-1} \\sum_y \\bigl(P_k(y) - e^{ε} Q_k(y)\\bigr)_+ ,\\quad
        P_k = R_k * \\mathrm{Ber}(1 - p/2),\\ Q_k = R_k * \\mathrm{Ber}(p/2)

    (Cheu et al. 2019's protocol; this exact analysis is ours). **Why every k is covered**:
    the other order with k ones equals this order with n − 1 − k ones (flip all
    bits); for a block of k's, the middle users' count is independent of x_1,
    so by data processing one evaluation bounds the whole block; the
    branch-and-bound refines blocks until the maximum is attained by one k
    (exact value) or is within ``rtol`` of one. Each evaluation needs only a
    few pmf values because the likelihood ratio is monotone (R_k log-concave).

    **Soundness**: upper bound on δ for the replace-one relation (one user's
    bit changes); float pmf windows carry a rigorous relative error bound and
    Hoeffding or Bernstein tail bounds that are added on; the result is rounded up. It is
    also a lower bound up to those error terms (and ``rtol``): it is exact.

    Examples
    --------
    >>> d = shuffled_binary_rr_delta(0.487, 1000, 0.148)
    >>> 5e-7 < d <= 1e-6
    True
    """
    p, n = _check_common(randomization_probability, users)
    epsilon = check_epsilon(epsilon)
    rtol = _check_rtol(rtol)
    if n == 1:
        with working_precision():
            value = max(1 - p / 2 - mpmath.exp(epsilon) * p / 2, 0)
        return round_up(value)
    value, _ = _worst_case_delta(p, n, epsilon, rtol=rtol)
    return min(round_up(value, relative_error=1e-30), 1.0)


@renamed_parameters(n="users", flip_probability="randomization_probability")
def shuffled_binary_rr_epsilon(randomization_probability: float, users: int, delta: float, *,
                               rtol: float = 1e-9) -> float:
    """Smallest ε with exact δ(ε) <= delta for the shuffled binary randomized response.

    Parameters
    ----------
    randomization_probability, users
        As in :func:`shuffled_binary_rr_delta`.
    delta
        Target δ in [0, 1).
    rtol
        Relative tolerance of the bisection on ε.

    Returns
    -------
    float
        The passing end of :func:`dpverify._numeric.bisect_passing` on
        ``shuffled_binary_rr_delta(p, n, ε) <= delta`` over [0, ε0], with
        ε0 = ln((2 − p)/p) (where δ = 0): an upper bound, within ``rtol`` of the
        exact ε.

    Notes
    -----
    δ(ε) is non-increasing in ε (hockey-stick divergences are), so the
    predicate is monotone. **Soundness**: upper bound (replace-one); the
    returned ε has been evaluated and passes; rounded up.

    Examples
    --------
    >>> round(shuffled_binary_rr_epsilon(0.487, 1000, 1e-6), 3)
    0.148
    """
    p, n = _check_common(randomization_probability, users)
    delta = check_delta(delta)
    rtol = _check_rtol(rtol)
    with working_precision():
        local = round_up(mpmath.log((2 - mpmath.mpf(p)) / mpmath.mpf(p)), relative_error=1e-30)

    if local == 0 or (n == 1 and shuffled_binary_rr_delta(p, n, 0.0) <= delta):
        return 0.0
    if n == 1:
        return round_up(bisect_passing(lambda e: shuffled_binary_rr_delta(p, n, e) <= delta,
                                       0.0, local, rtol=rtol))
    return _epsilon_by_candidates(p, n, delta, local, rtol=rtol)


def _initial_candidates(n: int) -> set[int]:
    """The k's that every worst case computed so far lay near: a few users from either end."""
    return {k for j in range(8) for k in (min(j, n - 1), max(n - 1 - j, 0))}


def _epsilon_by_candidates(p: float, n: int, delta: float, local: float, *,
                           rtol: float) -> float:
    """Bisect ε on the worst k's found so far; accept only after a full branch-and-bound.

    The bisection predicate uses a set K of k's (a relaxation: max over K <= max
    over all k), so its passing end is <= the exact ε; the full computation at
    that end must pass, otherwise its worst k joins K and the search repeats.
    """
    candidates = _initial_candidates(n)
    while True:
        def passes(eps: float) -> bool:
            return all(_pair_delta_bound(k, n - 1 - k, p, eps) <= delta for k in candidates)

        eps = 0.0 if passes(0.0) else bisect_passing(passes, 0.0, local, rtol=rtol)
        full, worst = _worst_case_delta(p, n, eps, rtol=rtol)
        if full <= delta:
            return round_up(eps)
        candidates.add(worst)


def _flip_probability_by_candidates(n: int, epsilon: float, delta: float, *,
                                    rtol: float) -> float:
    """:func:`min_flip_probability`'s search, as :func:`_epsilon_by_candidates` does for ε.

    The predicate on a set K of k's is a relaxation, so its passing end is <= the
    exact answer; the full branch-and-bound at that end must pass, otherwise its
    worst k joins K and the search repeats. (A full evaluation per bisection step
    took minutes at ε = 0, where the worst k lies inside the range.)
    """
    candidates = _initial_candidates(n)
    while True:
        def passes(p: float) -> bool:
            return all(_pair_delta_bound(k, n - 1 - k, p, epsilon) <= delta for k in candidates)

        p = _SMALLEST_FLIP if passes(_SMALLEST_FLIP) else bisect_passing(
            passes, _SMALLEST_FLIP, 1.0, rtol=rtol)
        full, worst = _worst_case_delta(p, n, epsilon, rtol=rtol)
        if full <= delta:
            if p == _SMALLEST_FLIP:
                raise CalibrationError(f"even flip_probability={_SMALLEST_FLIP!r} meets the "
                                       "budget (it is vacuous)")
            return p
        candidates.add(worst)



#: Blocks :func:`max_local_epsilon_by_candidates` lets one decision split before it steps inward.
_DECISION_BLOCKS = 120
#: Relative steps inward from the relaxed root when a decision there is too costly.
_INWARD_STEPS = (0.0, 1e-6, 1e-3, 1e-2, 0.03, 0.3, 1.0)


def max_local_epsilon_by_candidates(n: int, epsilon: float, delta: float,
                                    probability_of: Callable[[float], float], high: float, *,
                                    rtol: float) -> float | None:
    """Largest ε0 in [0, ``high``] whose binary RR, p = ``probability_of(ε0)``, meets (ε, δ) exactly.

    As :func:`_flip_probability_by_candidates` does for p: ε0 is bisected on the relaxation
    "δ_k(ε) <= δ for the k's of a set K" (a necessary condition, monotone in ε0 because p
    decreases in ε0 and δ_k increases as p decreases), then decided at the relaxed root by
    :func:`delta_at_most`; a k that fails joins K and the search repeats. Where the decision
    at the root would split more than ``_DECISION_BLOCKS`` blocks (δ is flat in k at ε ≈ 0,
    so proving "yes" right at the root is costly), ε0 steps inward by ``_INWARD_STEPS``
    (relative) until a decision is cheap: the answer is then that much below the tight one.
    Returns None when even ``high`` passes (the caller's search decides then).
    **Soundness**: the returned ε0 passed :func:`delta_at_most` ("yes": an upper bound on
    every δ_k is <= δ), exactly the budget predicate of ``bound="best"`` for binary RR.
    """
    candidates = _initial_candidates(n)
    while True:
        def relaxed(e0: float) -> bool:
            p = probability_of(e0)
            return all(_pair_delta_bound(k, n - 1 - k, p, epsilon) <= delta for k in candidates)

        root = high if relaxed(high) else bisect_passing(relaxed, 0.0, high, rtol=rtol)
        for step in _INWARD_STEPS:
            e0 = root * (1 - step)
            blocks = None if step == 1.0 else _DECISION_BLOCKS
            decision, worst = delta_at_most(probability_of(e0), n, epsilon, delta, candidates,
                                            max_blocks=blocks)
            if decision is None:
                continue
            if decision:
                return None if e0 == high else e0
            candidates.add(worst)
            break

#: The smallest flip probability :func:`min_flip_probability` searches.
_SMALLEST_FLIP = 1e-12


@renamed_parameters(n="users")
def min_randomization_probability(users: int, epsilon: float, delta: float, *,
                                  rtol: float = 1e-9) -> float:
    """Smallest randomization probability p (least noise) whose exact shuffled guarantee is (ε, δ).

    ``p`` is the probability that each user's bit is replaced by a fair coin, so the bit
    flips with probability ``p/2``. (``min_flip_probability`` in 0.1, which misnamed
    what it returns; the old name still works for one release.)

    Parameters
    ----------
    users
        Number n of users in the shuffled batch (>= 1).
    epsilon, delta
        Target ε >= 0 and δ in [0, 1).
    rtol
        Relative tolerance of the bisection on p.

    Returns
    -------
    float
        The passing end of the bisection of ``shuffled_binary_rr_delta(p, n, ε)
        <= δ`` over p ∈ [1e-12, 1]: δ is non-increasing in p because binary RR
        with p' = p + (1 − p) q is RR with q applied after RR with p
        (post-processing), so the predicate is monotone.

    Notes
    -----
    **Soundness**: the returned p has been evaluated and meets (ε, δ) exactly
    (replace-one); it is at most ``rtol`` (relative) above the smallest such p.

    Raises
    ------
    CalibrationError
        If even p = 1e-12 meets the budget (the budget is vacuous).

    Examples
    --------
    >>> p = min_randomization_probability(1000, 0.5, 1e-6)
    >>> shuffled_binary_rr_delta(p, 1000, 0.5) <= 1e-6
    True
    """
    n = check_positive_int(users, "users", maximum=MAX_EXACT_SHUFFLE_USERS, instead=_LARGE_N)
    epsilon, delta = check_epsilon(epsilon), check_delta(delta)
    rtol = _check_rtol(rtol)
    if n == 1:  # one report: δ(ε) = max(1 − p/2 − e^ε p/2, 0), monotone in p, no worst k
        search = functools.partial(bisect_passing, lambda p: shuffled_binary_rr_delta(
            p, n, epsilon) <= delta, _SMALLEST_FLIP, 1.0, rtol=rtol)
    else:
        search = functools.partial(_flip_probability_by_candidates, n, epsilon, delta, rtol=rtol)
    try:
        return search()
    except CalibrationError as error:
        raise CalibrationError(f"no randomization probability in [1e-12, 1] is needed for "
                               f"users={n}, epsilon={epsilon!r}, delta={delta!r}: {error}") from error


