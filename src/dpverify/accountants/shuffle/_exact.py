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
added on; all final arithmetic is in mpmath and rounded up.
"""

from __future__ import annotations

import functools
import heapq
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

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
from dpverify.errors import CalibrationError

__all__ = [
    "shuffled_binary_rr_delta",
    "shuffled_binary_rr_epsilon",
    "min_randomization_probability",
]

_UNIT = 2.0 ** -53
#: Window tails are at most 2 e^{-_TAIL_EXPONENT} < 1e-30 (Hoeffding or Bernstein).
_TAIL_EXPONENT = 70.0
#: Window values below this are dropped (counted in the tail) to avoid subnormals.
_FLOOR = 1e-280


@dataclass(frozen=True, eq=False)
class _Window:
    """pmf values of a binomial on ``[lo, lo + len(values))`` with error bounds.

    ``values[i]`` is within relative ``eta`` of the true pmf; the true mass
    outside the stored (non-zero) values is at most ``tail``.
    """

    lo: int
    values: np.ndarray
    eta: float
    tail: float
    mean: float = 0.0
    variance: float = 0.0

    @functools.cached_property
    def suffix(self) -> np.ndarray:
        return np.cumsum(self.values[::-1])[::-1]


def _window_half_width(m: int, q: float) -> tuple[int, float]:
    """Half-width h of a window around mq and a bound on P(|Bin(m, q) − mq| >= h).

    The narrower of Hoeffding, P(|X − mq| >= h) <= 2 exp(−2h²/m), and
    Bernstein, P(|X − mq| >= h) <= 2 exp(−h²/(2(v + h/3))) with v = mq(1 − q)
    (summands in [0, 1]), each at the width where its exponent reaches 70.
    Bernstein is narrower away from q = 1/2 (by about 35% at q = 0.12). v is
    inflated by 1e-9 against rounding, which only enlarges the bound.
    """
    variance = m * q * (1 - q) * (1 + 1e-9)
    hoeffding = math.ceil(math.sqrt(_TAIL_EXPONENT * m / 2)) + 1
    third = _TAIL_EXPONENT / 3
    bernstein = math.ceil(third + math.sqrt(third * third + 2 * _TAIL_EXPONENT * variance)) + 1
    if bernstein < hoeffding:
        return bernstein, 2 * math.exp(-bernstein * bernstein / (2 * (variance + bernstein / 3)))
    return hoeffding, 2 * math.exp(-2 * hoeffding * hoeffding / m)


@functools.lru_cache(maxsize=1024)
def _binomial_window(m: int, q: mpmath.mpf) -> _Window:
    """pmf of Bin(m, q) on a concentration window (:func:`_window_half_width`), via a float ratio product from an mpmath anchor.

    Each ratio pmf(j ± 1)/pmf(j) costs at most 3 roundings (integer parts are
    exact below 2^53), the anchor 1, so an entry d steps from the anchor is
    within relative (3d + 2)·u·(1 + 1e-6) of the truth (standard γ_n bound).
    """
    if m == 0 or q == 0:
        return _Window(0, np.ones(1), 0.0, 0.0)
    if q == 1:
        return _Window(m, np.ones(1), 0.0, 0.0, mean=float(m))
    half, window_tail = _window_half_width(m, float(q))
    mean = float(m * q)
    lo, hi = max(0, math.floor(mean) - half), min(m, math.ceil(mean) + half)
    mode = min(max(int(mpmath.floor((m + 1) * q)), lo), hi)
    log_anchor = (mpmath.loggamma(m + 1) - mpmath.loggamma(mode + 1)
                  - mpmath.loggamma(m - mode + 1) + mode * mpmath.log(q)
                  + (m - mode) * mpmath.log1p(-q))
    anchor = float(mpmath.exp(log_anchor))
    odds = float(q / (1 - q))
    up_j = np.arange(mode, hi, dtype=np.float64)
    up = anchor * np.cumprod((m - up_j) / (up_j + 1) * odds)
    down_j = np.arange(mode, lo, -1, dtype=np.float64)
    down = anchor * np.cumprod(down_j / (m - down_j + 1) / odds)
    values = np.concatenate([down[::-1], [anchor], up])
    kept = np.flatnonzero(values >= _FLOOR)
    dropped = len(values) - len(kept)
    width = hi - lo + 1
    eta = (3 * width + 2) * _UNIT * (1 + 1e-6)
    # concentration tails, dropped tiny values, and underflow of products in later sums
    tail = window_tail + _FLOOR * (dropped + 1) + 1e-300 * width
    return _Window(lo + int(kept[0]), values[kept[0]:kept[-1] + 1].copy(), eta, tail,
                   mean=mean, variance=mean * float(1 - q))


def _sum_of_products(x: np.ndarray, y: np.ndarray) -> float:
    """Σ x_i y_i of non-negative floats, without BLAS.

    ``np.dot`` hands a long dot to OpenBLAS, which splits it over threads that spin-wait
    when the cores are busy: at a load of 8 on 2 cores the exact binary-RR decisions at
    n = 10^7 took 8x their idle CPU time (``plan shuffle --randomizer binary-rr --users 1e7
    --epsilon 1e-300``: 158 s). Products and a pairwise sum err by at most the recursive
    sum's ``length·2^-53`` relative for non-negative terms, which :attr:`_RestLaw.eta`
    allows for.
    """
    return float(np.multiply(x, y).sum())


@dataclass(frozen=True)
class _RestLaw:
    """Windows of Bin(ones, b) and Bin(zeros, a) and sums of their convolution."""

    ones: _Window
    zeros: _Window

    @property
    def span(self) -> tuple[int, int]:
        lo = self.ones.lo + self.zeros.lo
        return lo, lo + len(self.ones.values) + len(self.zeros.values) - 2

    @property
    def eta(self) -> float:
        """Relative error of :meth:`pmf` and :meth:`tail_at_least` (products, sums)."""
        length = len(self.ones.values) + len(self.zeros.values)
        gamma = 2 * length * _UNIT * (1 + 1e-6)
        return (1 + self.ones.eta) * (1 + self.zeros.eta) * (1 + gamma) ** 2 - 1

    @property
    def tail(self) -> float:
        return self.ones.tail + self.zeros.tail

    def pmf(self, y: int) -> float:
        """Σ_i A(i) B(y − i) over the windows (float, relative error ≤ eta)."""
        a, b = self.ones, self.zeros
        i_lo = max(a.lo, y - (b.lo + len(b.values) - 1))
        i_hi = min(a.lo + len(a.values) - 1, y - b.lo)
        if i_hi < i_lo:
            return 0.0
        left = a.values[i_lo - a.lo:i_hi - a.lo + 1]
        right = b.values[y - i_hi - b.lo:y - i_lo - b.lo + 1][::-1]
        return _sum_of_products(left, right)

    @functools.cached_property
    def trusted_span(self) -> tuple[int, int]:
        """Where to search for t*: the mean ± 8 standard deviations of R, inside the windows.

        Only a guide; every value used in a bound is recomputed by a direct,
        error-bounded sum, and a t* outside the span is handled by the
        callers' tail branches.
        """
        mean = self.ones.mean + self.zeros.mean
        lo, hi = self.span
        half = 8 * math.sqrt(self.ones.variance + self.zeros.variance) + 2
        return max(lo, math.floor(mean - half)), min(hi, math.ceil(mean + half))

    def tail_at_least(self, t: int) -> float:
        """Window part of P(R ≥ t) (a lower bound up to relative eta)."""
        a, b = self.ones, self.zeros
        suffix = self.zeros.suffix  # suffix[j] = Σ_{i ≥ j} B(lo + i)
        index = np.clip(t - np.arange(a.lo, a.lo + len(a.values)) - b.lo, 0, None)
        inside = index < len(b.values)
        return _sum_of_products(a.values[inside], suffix[index[inside]])


@functools.lru_cache(maxsize=256)
def _rest_law(ones: int, zeros: int, p: float) -> _RestLaw:
    """Cached: the ε bisection evaluates the same few populations at many ε."""
    a = mpmath.mpf(p) / 2
    return _RestLaw(_binomial_window(ones, 1 - a), _binomial_window(zeros, a))


def _pair_delta_bound(ones: int, zeros: int, p: float, epsilon: float) -> mpmath.mpf:
    """Upper bound on H_{e^ε}(R * Ber(b) ‖ R * Ber(a)), R = Bin(ones, b) * Bin(zeros, a).

    With c1 = b − e^ε a, c2 = e^ε − 1, c3 = e^ε b − a, the pointwise difference is
    d(y) = c1 R(y−1) − c3 R(y), and the divergence is
    g(t*) = c1 R(t* − 1) − c2 P(R ≥ t*) for t* the first y with d(y) > 0
    (monotone likelihood ratio: R is log-concave, so R(y−1)/R(y) increases in
    y, and (b r + a)/(a r + b) increases in r as b > a). t* is bracketed by a
    float bisection and then *verified*: a certified d(t̂ + 3) > 0 and
    d(t̂ − 3) < 0 place t* in the candidate set, where g is bounded from above.
    """
    with working_precision():
        a = mpmath.mpf(p) / 2
        b, growth = 1 - a, mpmath.exp(epsilon)
        c1, c2, c3 = b - growth * a, growth - 1, growth * b - a
        if c1 <= 0:
            return mpmath.mpf(0)
        law = _rest_law(ones, zeros, p)
        eta, tail = mpmath.mpf(law.eta), mpmath.mpf(law.tail)

        def upper(y: int) -> mpmath.mpf:
            return mpmath.mpf(law.pmf(y)) * (1 + 2 * eta) + tail

        def lower(y: int) -> mpmath.mpf:
            return mpmath.mpf(law.pmf(y)) * (1 - 2 * eta)

        lo, hi = law.trusted_span

        c1_f, c3_f = float(c1), float(c3)

        def positive(y: int) -> bool:
            return c1_f * law.pmf(y - 1) > c3_f * law.pmf(y)

        if not positive(hi):  # t* beyond the trusted span: g(t*) <= c1 P(R >= hi)
            return c1 * (mpmath.mpf(law.tail_at_least(hi)) * (1 + 2 * eta) + tail)
        if positive(lo):  # t* below it: g(t*) <= g(lo) + P(Y < lo)
            below = 1 - mpmath.mpf(law.tail_at_least(lo)) * (1 - 2 * eta)
            first, last, extra = lo, lo, below
        else:
            t_hat = bisect_passing(positive, lo, hi, integer=True)
            first, last, extra = t_hat - 3, t_hat + 3, mpmath.mpf(0)
            certified_high = c1 * lower(last - 1) - c3 * upper(last) > 0
            certified_low = c1 * upper(first - 1) - c3 * lower(first) < 0
            if not (certified_high and certified_low):  # pragma: no cover - float bisection is ±1 off
                first, last = lo - 1, hi + 1
        candidates = range(last, first - 1, -1)
        pmf = {y: law.pmf(y) for y in range(first - 1, last + 1)}
        tails = [mpmath.mpf(law.tail_at_least(last))]  # P(R >= t) = P(R >= t + 1) + R(t)
        for t in candidates[1:]:
            tails.append(tails[-1] + mpmath.mpf(pmf[t]))
        chosen = _float_preselection(candidates, pmf, tails, c1, c2, eta, tail)
        best = max(c1 * (mpmath.mpf(pmf[t - 1]) * (1 + 2 * eta) + tail)
                   - c2 * tails[i] * (1 - 3 * eta) for i, t in chosen)
        return max(best + extra + tail, mpmath.mpf(0))


def _float_preselection(candidates: range, pmf: dict[int, float], tails: list[mpmath.mpf],
                        c1: mpmath.mpf, c2: mpmath.mpf, eta: mpmath.mpf,
                        tail: mpmath.mpf) -> list[tuple[int, int]]:
    """The candidates t* whose bound can be the largest, found in floats.

    The bound at t is g(t) = c1 (R(t−1)(1 + 2η) + tail) − c2 P(R >= t)(1 − 3η),
    a difference of two terms of size at most S = c1 (max R + tail) + c2 max P.
    Its float evaluation errs by a few units of 2^-53 · S (a handful of
    roundings of non-negative terms, with floats' relative error well below
    1e-15), so every t whose float value is more than ``1e-9 · S`` below the
    float maximum has a smaller exact value than the float maximiser: dropping
    it leaves the exact maximum unchanged. Only the rest is evaluated in mpmath.
    """
    c1_f, c2_f, eta_f, tail_f = float(c1), float(c2), float(eta), float(tail)
    tails_f = [float(value) for value in tails]
    values = [c1_f * (pmf[t - 1] * (1 + 2 * eta_f) + tail_f) - c2_f * tails_f[i] * (1 - 3 * eta_f)
              for i, t in enumerate(candidates)]
    scale = c1_f * (max(pmf.values()) + tail_f) + c2_f * max(tails_f)
    cut = max(values) - 1e-9 * scale - 1e-300
    return [(i, t) for i, t in enumerate(candidates) if values[i] >= cut]


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


