"""Privacy amplification by shuffling: bounds registry, forward bounds and inverse problems.

``n`` users each run an ε0-LDP local randomizer; a trusted shuffler permutes
the ``n`` reports. The shuffled output is (ε, δ)-DP for the replace-one
neighbouring relation (one user's input changed) with ε given by one of the
registered bounds:

=======================  =================================================  =================
name                     source                                             randomizers
=======================  =================================================  =================
``"fmt2021"``            Feldman–McMillan–Talwar 2021 Thm 3.1               any ε0-LDP
``"fmt2021-tight"``      FMT's code (apple/ml-shuffling-amplification)      any ε0-LDP
``"erlingsson2019"``     Erlingsson et al. 2019, ε0 < 1/2 corollary [R]     any ε0-LDP
``"balle2019"``          Balle–Bell–Gascón–Nissim 2019, k-RR blanket [R]    binary / k-ary RR
``"cheu2019"``           Cheu et al. 2019, binary RR sum [R]                binary RR
``"fmt2021-numerical"``  FMT 2021 Thm 3.2 ("clones"), rigorous numerics     any ε0-LDP
``"variation-ratio"``    Wang et al. (p, β, q) analysis, rigorous numerics  binary / k-ary RR
=======================  =================================================  =================

Other modules add bounds with :func:`register_shuffle_bound`; ``bound="best"``
takes the smallest bound that is valid for the randomizer (generic ε0-LDP
bounds only when ``randomizer`` is None). Every bound checks its validity
condition and raises :class:`ValueError` naming it outside its regime.

The inverse problems :func:`max_local_epsilon`, :func:`max_local_epsilons`
and :func:`min_batch_size` and the δ-inversion in :func:`amplified_delta` go
through :func:`dpverify._numeric.bisect_passing` with an mpmath predicate:
the returned value has been evaluated and meets the budget.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import dpverify.accountants.shuffle._closed_forms as closed
from dpverify._deprecation import renamed_attributes, renamed_parameters
from dpverify._numeric import bisect_passing, round_up
from dpverify._validation import check_delta, check_epsilon, check_positive_int, value_error
from dpverify.accountants.shuffle._bounds import (
    SHUFFLE_BOUNDS,
    Randomizer,
    ShuffleBound,
    bound_value,
    check_bound_name,
    check_randomizer,
    checked_forward,
    passes_budget,
    register_shuffle_bound,
)
from dpverify.accountants.shuffle._exact import (
    MAX_EXACT_SHUFFLE_USERS,
    max_local_epsilon_by_candidates,
    min_randomization_probability,
    shuffled_binary_rr_delta,
    shuffled_binary_rr_epsilon,
)
from dpverify.errors import CalibrationError, DpverifyTypeError
from dpverify.mechanisms.randomized_response import (
    BinaryRandomizedResponse,
    binary_randomization_probability,
)

__all__ = [
    "ShuffleBound",
    "SHUFFLE_BOUNDS",
    "register_shuffle_bound",
    "amplified_epsilon",
    "amplified_delta",
    "max_local_epsilon",
    "max_local_epsilons",
    "min_batch_size",
    "shuffled_binary_rr_delta",
    "shuffled_binary_rr_epsilon",
    "min_randomization_probability",
]

#: Relative gap of the verified bracket around a float root located with numpy.
_ROOT_BRACKET = 3e-13
#: Relative tolerance of the inverse searches (a 1e-9 relative step always crosses the root).
_SEARCH_RTOL = 1e-12
#: Batch searches: failing end ``guess · (1 + 2e-11)``, decided in floats above this margin.
_BATCH_FAIL_GAP = 2e-11
_FLOAT_FAIL_MARGIN = 1e-13
_MAX_LOCAL_EPSILON = 4096.0
_MAX_BATCH_SIZE = 1 << 62
_TINY_DELTA = 1e-300
#: Top of the candidate search of binary RR's ε0 (p = 2/(e^64 + 1) ≈ 3e-28); above, the full search.
_BINARY_RR_HIGH = 64.0


@renamed_parameters(n="users")
def amplified_epsilon(local_epsilon: float, users: int, delta: float, *, bound: str = "fmt2021",
                      randomizer: Randomizer = None) -> float:
    """Upper bound on ε of ``users`` = n shuffled ε0-LDP reports at ``delta`` (rounded up).

    With ``bound="fmt2021"`` (Feldman–McMillan–Talwar 2021 Thm 3.1, as in Hanna et al. 2022, eq. (10)):

    .. math::

        ε \\le \\ln\\Big(1 + \\frac{e^{ε_0} - 1}{e^{ε_0} + 1}\\Big(
            \\frac{8\\sqrt{e^{ε_0}\\ln(4/δ)}}{\\sqrt n} + \\frac{8 e^{ε_0}}{n}\\Big)\\Big),
        \\qquad ε_0 \\le \\ln\\frac{n}{16\\ln(2/δ)};

    the other bounds are listed in the module docstring.

    Parameters
    ----------
    local_epsilon
        ε0 of each user's randomizer (at least ``randomizer``'s own ε0 if given).
    users
        Number n of users whose reports are shuffled.
    delta
        The δ of the central guarantee, in (0, 1).
    bound
        A registered bound name or ``"best"``.
    randomizer
        ``None`` (a generic ε0-LDP randomizer), a
        :class:`~dpverify.mechanisms.randomized_response.BinaryRandomizedResponse`
        or a :class:`~dpverify.mechanisms.randomized_response.RandomizedResponse`.

    Notes
    -----
    **Soundness:** an upper bound on ε for the replace-one relation, computed
    in mpmath and rounded up; validity conditions are checked (ValueError
    naming the condition otherwise); bounds restricted to some randomizers
    raise :class:`~dpverify.errors.UnsupportedError` for others.

    Examples
    --------
    >>> amplified_epsilon(1.0, 10**6, 1e-6)
    0.023496774905355632
    """
    eps0, n, delta, name = checked_forward(local_epsilon, users, delta, bound)
    eps0 = check_randomizer(randomizer, eps0)
    value = bound_value(name, eps0, n, delta, randomizer)
    return round_up(value, relative_error=closed.FORMULA_RELATIVE_ERROR)


@renamed_parameters(n="users")
def amplified_delta(local_epsilon: float, users: int, epsilon: float, *, bound: str = "fmt2021",
                    randomizer: Randomizer = None) -> float:
    """Smallest δ (to ``1e-12`` relative, rounded up) at which the bound gives ε <= ``epsilon``.

    Inverts :func:`amplified_epsilon` in δ by bisection on ``ln δ`` over
    ``[1e-300, δ_max]`` (``δ_max`` the first of 0.999, 0.5, 0.1, 0.0099 where
    the bound is valid and meets ``epsilon``).

    **Soundness:** the returned δ is the passing end of a verified bracket:
    the mpmath bound at exactly that δ is valid and ``<= epsilon``, so the
    shuffled output is (``epsilon``, δ)-DP (replace-one). ``1e-300`` is
    returned when even that δ meets the budget.

    Raises
    ------
    CalibrationError
        When no δ < 1 gives ``epsilon``.

    >>> amplified_delta(1.0, 10**6, 0.05) <= 1e-6
    True
    """
    eps0, n, epsilon_checked, name = checked_forward(local_epsilon, users, 0.5, bound)
    epsilon = check_epsilon(epsilon, "epsilon", allow_zero=False)
    eps0 = check_randomizer(randomizer, eps0)

    def meets(log_delta: float) -> bool:
        return passes_budget(name, eps0, n, math.exp(log_delta), randomizer, epsilon)

    high = next((math.log(d) for d in (0.999, 0.5, 0.1, 0.0099) if meets(math.log(d))), None)
    if high is None:
        raise CalibrationError(f"no delta < 1 makes bound={name!r} give epsilon <= {epsilon!r} "
                               f"for local_epsilon={local_epsilon!r}, users={n}")
    low = math.log(_TINY_DELTA)
    if meets(low):
        return _TINY_DELTA
    return math.exp(bisect_passing(meets, low, high, rtol=1e-13))


# --- inverse problems ---------------------------------------------------------------------------

def _check_family(family: Any) -> Callable[[float], Randomizer] | None:
    if family is not None and not callable(family):
        raise DpverifyTypeError(f"randomizer_family={family!r} must be None or a callable "
                                "local_epsilon -> randomizer, e.g. "
                                "BinaryRandomizedResponse.from_epsilon")
    return family


def _local_epsilon_predicate(name: str, epsilon: float, n: int, delta: float,
                             family: Callable[[float], Randomizer] | None
                             ) -> Callable[[float], bool]:
    def meets(eps0: float) -> bool:
        randomizer = None if family is None else family(eps0)
        return passes_budget(name, check_randomizer(randomizer, eps0), n, delta, randomizer, epsilon)
    return meets


def _full_local_epsilon_search(meets: Callable[[float], bool], epsilon: float, n: int,
                               delta: float, name: str) -> float:
    if not meets(0.0):
        raise CalibrationError(
            f"no local_epsilon >= 0 meets epsilon={epsilon!r} with bound={name!r} for users={n}, "
            f"delta={delta!r}: the bound is invalid or above the target even at local_epsilon=0 "
            "(increase users or epsilon)")
    high = 1.0
    while meets(high):
        if high >= _MAX_LOCAL_EPSILON:
            raise CalibrationError(f"every local epsilon up to the search limit {high!r} meets "
                                   f"epsilon={epsilon!r}: no finite largest local epsilon below it")
        high *= 2
    return bisect_passing(meets, 0.0, high, rtol=_SEARCH_RTOL)


def _approximate(name: str) -> Callable[[np.ndarray, np.ndarray, float], np.ndarray] | None:
    """The float twin of a bound for generic randomizers (the minimum for ``"best"``)."""
    if name != "best":
        return SHUFFLE_BOUNDS[name].approximate
    generic = [b for b in SHUFFLE_BOUNDS.values() if b.randomizers is None]
    if any(b.approximate is None for b in generic):
        return None
    return lambda e, n, d: np.min([b.approximate(e, n, d) for b in generic], axis=0)


def _approximate_roots(approx: Callable[..., np.ndarray], epsilon: float, ns: np.ndarray,
                       delta: float) -> np.ndarray:
    """Vectorised float bisection: for each n, the largest ε0 with ``approx <= epsilon``."""
    passing = np.zeros(ns.shape)
    failing = np.full(ns.shape, _MAX_LOCAL_EPSILON)
    for _ in range(110):
        middle = (passing + failing) / 2
        ok = approx(middle, ns, delta) <= epsilon
        passing = np.where(ok, middle, passing)
        failing = np.where(ok, failing, middle)
    return passing


def _verified_root(meets: Callable[[float], bool], guess: float) -> float | None:
    """Verify a tight bracket around ``guess`` in mpmath; None when it does not verify."""
    if not guess > 0:
        return None
    try:
        return bisect_passing(meets, guess * (1 - _ROOT_BRACKET), guess * (1 + _ROOT_BRACKET),
                              rtol=_SEARCH_RTOL)
    except CalibrationError:
        return None


def _lean_meets(lean: Callable[..., bool], n: int, delta: float, epsilon: float,
                eps0: float) -> bool:
    return lean(eps0, n, delta, epsilon)


def _known_failing(meets: Callable[[float], bool], failing: float) -> Callable[[float], bool]:
    """``meets``, answering False without mpmath at ``failing`` (known from the float twin).

    Only that "fails" answer comes from floats (a wrong one could cost
    tightness, never soundness); every "passes" is decided in mpmath.
    """
    return lambda eps0: False if eps0 == failing else meets(eps0)


@renamed_parameters(n="users")
def max_local_epsilon(epsilon: float, users: int, delta: float, *, bound: str = "fmt2021",
                      randomizer_family: Callable[[float], Randomizer] | None = None) -> float:
    """Largest ε0 whose amplified ε is at most ``epsilon`` (the f⁻¹ of Hanna et al. 2022, Alg. 3 line 8).

    Bisection (:func:`~dpverify._numeric.bisect_passing`) of the budget
    predicate "the bound is valid at ε0 and ``amplified ε <= epsilon``" over
    ε0; the predicate is monotone because every bound increases in ε0 and
    every validity region is down-closed in ε0. For generic randomizers and
    bounds with a float twin, the root is first located with numpy and then
    bracketed to ``3e-13`` relative and verified in mpmath.

    Parameters
    ----------
    epsilon
        The central budget, > 0.
    users, delta
        The number n of users whose reports are shuffled together, and the δ of the
        central guarantee.
    bound
        A registered bound name or ``"best"``.
    randomizer_family
        ``None`` (generic ε0-LDP) or a callable ``ε0 -> randomizer`` whose
        result is at most ε0-LDP, e.g.
        :meth:`BinaryRandomizedResponse.from_epsilon
        <dpverify.mechanisms.randomized_response.BinaryRandomizedResponse.from_epsilon>`.

    Notes
    -----
    For ``bound="best"`` with ``BinaryRandomizedResponse.from_epsilon`` (the exact shuffled
    binary-RR analysis) ε0 is found by a candidate search
    (:func:`~dpverify.accountants.shuffle._exact.max_local_epsilon_by_candidates`): tight to
    ``1e-12`` where the exact decision at the root is cheap; where it is not (ε ≈ 0, where δ_k is
    flat in k), ε0 steps inward until it is, by up to 3% below the largest.

    **Soundness:** the returned ε0 is the passing end of a verified bracket:
    ``amplified_epsilon(ε0, n, delta, bound=bound) <= epsilon`` (replace-one,
    validity condition included); ``ε0 · (1 + 1e-12)`` is outside the budget
    or the validity region (the inverse is tight).

    Raises
    ------
    CalibrationError
        When no ε0 >= 0 meets the budget (the bound is invalid or too large
        even at ε0 = 0).

    Examples
    --------
    >>> eps0 = max_local_epsilon(0.1, 10**5, 1e-6)
    >>> amplified_epsilon(eps0, 10**5, 1e-6) <= 0.1 < amplified_epsilon(eps0 * (1 + 1e-9), 10**5, 1e-6)
    True
    """
    epsilon = check_epsilon(epsilon, "epsilon", allow_zero=False)
    _, n, delta, name = checked_forward(0.0, users, delta, bound)
    family = _check_family(randomizer_family)
    meets = _local_epsilon_predicate(name, epsilon, n, delta, family)
    if name == "best" and family == BinaryRandomizedResponse.from_epsilon \
            and n <= MAX_EXACT_SHUFFLE_USERS:
        found = max_local_epsilon_by_candidates(n, epsilon, delta, binary_randomization_probability,
                                                _BINARY_RR_HIGH, rtol=_SEARCH_RTOL)
        if found is not None:
            return found
    approx = _approximate(name) if family is None else None
    if approx is not None:
        guess = float(_approximate_roots(approx, epsilon, np.array([float(n)]), delta)[0])
        verified = _verified_root(meets, guess)
        if verified is not None:
            return verified
    return _full_local_epsilon_search(meets, epsilon, n, delta, name)


def max_local_epsilons(epsilon: float, batch_sizes: Sequence[int], delta: float, *,
                       bound: str = "fmt2021") -> np.ndarray:
    """:func:`max_local_epsilon` for many batch sizes at once (generic randomizers).

    Hanna et al. 2022, Alg. 3, compute ``ε0^{(i)} = f⁻¹_{n_i,δ}(ε)`` for every batch size
    ``n_i`` of a run. The roots are located together by a vectorised float
    bisection of the bound's float twin; each is then settled by
    :func:`~dpverify._numeric.bisect_passing` on the bracket
    ``[guess·(1 − 3e-13), guess·(1 + 2e-11)]``, whose passing end is evaluated
    in mpmath (one lean evaluation per batch size) and whose failing end is
    decided from the float twin when it is clearly above the target (falling
    back to the full scalar search when the bracket does not verify).

    **Soundness:** as :func:`max_local_epsilon`, element by element: every
    returned ε0 passed the mpmath predicate (validity included). Tightness is
    ``4e-11`` relative here instead of ``1e-12``.

    >>> out = max_local_epsilons(0.1, [10**4, 10**5], 1e-6)
    >>> [amplified_epsilon(e, n, 1e-6) <= 0.1 for e, n in zip(out, [10**4, 10**5])]
    [True, True]
    """
    epsilon = check_epsilon(epsilon, "epsilon", allow_zero=False)
    delta = check_delta(delta, "delta", allow_zero=False)
    name = check_bound_name(bound)
    if isinstance(batch_sizes, (str, bytes)) or not isinstance(batch_sizes, (Sequence, np.ndarray)):
        raise DpverifyTypeError(f"batch_sizes={batch_sizes!r} must be a sequence of integers")
    ns = [check_positive_int(v, f"batch_sizes[{i}]") for i, v in enumerate(batch_sizes)]
    if not ns:
        raise value_error("batch_sizes", batch_sizes, "non-empty")
    approx = _approximate(name)
    guesses = _approximate_roots(approx, epsilon, np.array(ns, dtype=float), delta) \
        if approx is not None else np.zeros(len(ns))
    uppers = guesses * (1 + _BATCH_FAIL_GAP)
    clearly_failing = approx(uppers, np.array(ns, dtype=float), delta) > \
        epsilon * (1 + _FLOAT_FAIL_MARGIN) if approx is not None else np.zeros(len(ns), bool)
    out = np.empty(len(ns))
    lean = SHUFFLE_BOUNDS[name].meets if name != "best" else None
    for i, n in enumerate(ns):
        meets = _local_epsilon_predicate(name, epsilon, n, delta, None) if lean is None else \
            functools.partial(_lean_meets, lean, n, delta, epsilon)
        verified = None
        if clearly_failing[i] and guesses[i] > 0:
            try:
                verified = bisect_passing(_known_failing(meets, float(uppers[i])),
                                          float(guesses[i] * (1 - _ROOT_BRACKET)),
                                          float(uppers[i]), rtol=2 * _BATCH_FAIL_GAP)
            except CalibrationError:
                verified = None
        out[i] = verified if verified is not None else \
            _batch_search(meets, epsilon, n, delta, name, i)
    return out


def _batch_search(meets: Callable[[float], bool], epsilon: float, n: int, delta: float,
                  name: str, index: int) -> float:
    """The full search for ``batch_sizes[index]``, its refusal in the caller's words."""
    try:
        return _full_local_epsilon_search(meets, epsilon, n, delta, name)
    except CalibrationError as error:
        raise CalibrationError(
            f"batch_sizes[{index}]={n}: no local_epsilon >= 0 meets epsilon={epsilon!r} with "
            f"bound={name!r} at delta={delta!r}: the bound is invalid or above the target even "
            "at local_epsilon=0 (increase the batch size or epsilon)") from error


def min_batch_size(local_epsilon: float, epsilon: float, delta: float, *,
                   bound: str = "fmt2021", randomizer: Randomizer = None) -> int:
    """Smallest ``n`` whose shuffled ε0-LDP reports are (``epsilon``, ``delta``)-DP by ``bound``.

    Doubling from n = 1 until "the bound is valid at n and ``amplified ε <=
    epsilon``" holds, then integer bisection
    (:func:`~dpverify._numeric.bisect_passing`) on the last doubling step;
    monotone because the bounds decrease in n and their validity regions are
    up-closed in n up to the numerical bounds' cap on n
    (:data:`~dpverify.accountants.shuffle._numerical.MAX_USERS`), which the
    doubling reaches from below.

    **Soundness:** the returned n passes the mpmath predicate (validity
    condition included) and n − 1 does not: ``amplified_epsilon(local_epsilon,
    n, delta, bound=bound) <= epsilon`` (replace-one).

    Raises
    ------
    CalibrationError
        When no n up to 2^62 (or the bound's cap on n) meets the budget.

    >>> n = min_batch_size(1.0, 0.1, 1e-6)
    >>> amplified_epsilon(1.0, n, 1e-6) <= 0.1 < amplified_epsilon(1.0, n - 1, 1e-6)
    True
    """
    eps0, _, delta, name = checked_forward(local_epsilon, 1, delta, bound)
    epsilon = check_epsilon(epsilon, "epsilon", allow_zero=False)
    eps0 = check_randomizer(randomizer, eps0)

    approx = _approximate(name) if randomizer is None else None

    def meets(n: int) -> bool:
        # a clear "fails" of the float twin is taken as it is (it could cost tightness, never
        # soundness: every "passes" is decided in mpmath); 62 doublings of bound="best" in
        # mpmath took 30 s when no n passes (epsilon=1e-300)
        if approx is not None and float(approx(np.array([eps0]), np.array([float(n)]), delta)[0]) \
                > epsilon * (1 + _FLOAT_FAIL_MARGIN):
            return False
        return passes_budget(name, eps0, n, delta, randomizer, epsilon)

    exact = name == "best" and isinstance(randomizer, BinaryRandomizedResponse)
    cap = MAX_EXACT_SHUFFLE_USERS if exact else _MAX_BATCH_SIZE
    if meets(1):
        return 1
    high = 2
    while not meets(high):
        if high >= cap:
            limit = "10^7 (the exact shuffled binary-RR analysis's limit; for a generic " \
                    "randomizer the closed-form bounds go up to 2^62)" if exact else "2^62"
            raise CalibrationError(
                f"no batch size up to {limit} makes bound={name!r} give epsilon <= {epsilon!r} "
                f"for local_epsilon={local_epsilon!r}, delta={delta!r} (the target is below what "
                "any n in range gives, or the validity region excludes them all)")
        high = min(high * 2, cap)
    return bisect_passing(meets, max(high // 2, 1), high, integer=True)

# 0.1 names, deprecated for one release (a misnomer: p is not the flip probability p/2).
__getattr__ = renamed_attributes(__name__, {
    "min_flip_probability": ("min_randomization_probability", min_randomization_probability)})
