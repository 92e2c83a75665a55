"""Integer noise families of the model-based audit: exact bounds from the collision rate of pairs.

Under the model "outputs on ``data`` are an integer ``f(data)`` plus i.i.d.
noise ``Z`` of a stated family", two outputs of the same side are equal
exactly when their noises are, whatever ``f(data)`` is. So pairing each
side's outputs ``(y_1, y_2), (y_3, y_4), …`` gives independent ties with
probability the noise's **collision probability**

.. math:: τ = P[Z = Z'] = \\sum_k P[Z = k]^2,

and the number of ties over both sides is ``Bin(pairs, τ)``: a
Clopper–Pearson lower bound ``τ_low`` holds with probability ``>= 1 − α``
with no need to know or estimate ``f``. ``τ`` falls as the noise spreads —

=====================  ===========================================  ==========================
family                 τ(parameter)                                 interval ends
=====================  ===========================================  ==========================
discrete Laplace t     ``(1 − β)(1 + β²)/(1 + β)³``, β = e^{−1/t}   τ(t_low/high) = τ_high/low
discrete Gaussian σ    ``Z(σ/√2)/Z(σ)²``, Z(s) = Σ_k e^{−k²/(2s²)}  τ(σ_low/high) = τ_high/low
binomial p (n stated)  ``Σ_j b(j; n, p)²``                          the same, in (0, 1/2]
=====================  ===========================================  ==========================

— strictly, in t, in σ and in p on (0, 1/2] (closed form for the discrete
Laplace; checked on grids for the other two in
``tests/auditing/test_model_discrete.py``) — so a two-sided Clopper–Pearson
interval ``[τ_low, τ_high]`` (α/2 each) inverts to an interval
``[θ_low, θ_high]`` for the parameter (for the binomial, for
``min(p, 1 − p)``: its law and privacy are symmetric under p ↔ 1 − p), each
end verified on the conservative side (τ moved by :data:`TAU_MARGIN`).

**From the interval to ε, without monotonicity of δ.** The exact δ(ε) of
these families is *not* monotone in their parameter (lattice effects: the
discrete Gaussian's δ(3) at Δ = 1 rises between σ = 2.93 and 2.99; the
binomial's in p — ``tests/auditing/test_model_discrete.py`` shows it), so
evaluating the exact profile at one end of the interval is not a bound.
Instead :func:`interval_delta_lower` bounds δ from below *uniformly* over the
interval with tail events: for every θ, every threshold T and the pair
``(Y + Δ, Y)``,

.. math:: δ_θ(ε) >= P_θ[Y >= T − Δ] − e^{ε} P_θ[Y >= T],

and each tail is monotone in θ — the families have a monotone likelihood
ratio in ``|Y|`` (discrete Laplace, Gaussian: ``p_θ'(k)/p_θ(k)`` grows with
``|k|`` for θ' > θ) or in ``Y`` (binomial in p) — so the first tail is
bounded below and the second above by their values at the interval's ends
(the other order, ``P[Y <= T] − e^ε P[Y <= T − Δ]``, for the binomial). The
largest of these bounds over all T, in floats with a relative margin
:data:`TAIL_MARGIN`, is at most ``δ_θ(ε)`` for every θ in the interval; for
a point interval it is the exact profile (tails are the optimal events of
these log-concave laws; tests compare it with the exact accountants of
:mod:`dpverify.mechanisms._noise_maps`). The ε reported is the largest
verified ε whose bound exceeds the claimed δ, rounded down.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import mpmath
import numpy as np
from scipy import stats

from dpverify._numeric import bisect_passing, regula_falsi_passing, round_down, working_precision
from dpverify.auditing.estimators import clopper_pearson_lower, clopper_pearson_upper
from dpverify.errors import AuditError

__all__ = ["DISCRETE_FAMILIES", "count_ties", "collision_probability", "parameter_bound",
           "parameter_interval", "interval_delta_lower", "interval_epsilon_lower",
           "delta_function", "largest_epsilon_at_delta", "MAX_BINOMIAL_TRIALS"]

DISCRETE_FAMILIES = ("discrete_laplace", "discrete_gaussian", "binomial")
#: Relative error allowed for a computed collision probability (inflated by it: conservative).
TAU_MARGIN = 1e-9
#: Relative error allowed for a computed δ(ε) (deflated by it: conservative).
DELTA_MARGIN = 1e-20
#: Largest ε the search certifies (a bound above it is reported as this value: still a lower bound).
EPSILON_CAP = 2.0 ** 20
#: Most trials of the binomial model (its tails are arrays of trials + 1 floats).
MAX_BINOMIAL_TRIALS = 10 ** 6
#: Relative error allowed for a float tail probability (lower tails deflated, upper inflated).
TAIL_MARGIN = 1e-8
#: Most thresholds the symmetric families' tails are evaluated at (beyond: no bound, ε >= 0).
MAX_THRESHOLDS = 1 << 22


def count_ties(sides: list[np.ndarray]) -> tuple[int, int]:
    """Equal consecutive pairs ``(y_{2i}, y_{2i+1})`` within each side, and the number of pairs.

    Raises :class:`~dpverify.errors.AuditError` when an output is not an
    integer (the integer families' model says it is) or the outputs are vectors.
    """
    ties, pairs = 0, 0
    for name, side in zip(("x", "x'"), sides):
        if side.ndim != 1 and side.shape[1] != 1:
            raise AuditError(f"the integer noise families take scalar outputs; the sampler "
                             f"returned {side.shape[1]} coordinates on {name}")
        values = side.reshape(-1)
        if not np.all(values == np.round(values)):
            raise AuditError(f"the sampler returned non-integer outputs on {name}: the stated "
                             f"model (an integer f(data) plus integer noise) does not hold")
        half = len(values) // 2
        ties += int(np.count_nonzero(values[0:2 * half:2] == values[1:2 * half:2]))
        pairs += half
    return ties, pairs


def collision_probability(family: str, parameter: Any, trials: int | None = None) -> float:
    """τ = Σ_k P[Z = k]² of the family at ``parameter`` (scale t, σ, or p), as a float.

    Accurate to far better than :data:`TAU_MARGIN` (mpmath at 50 digits for
    the two symmetric families; the float binomial pmf, summed, for the
    binomial). The discrete Laplace value is
    ``(1−β)²/(1+β)² · (1 + 2β²/(1−β²))``.

    >>> round(collision_probability("discrete_laplace", 1.0), 12)
    0.280401661914
    >>> round(collision_probability("binomial", 0.5, trials=2), 12)  # (1/4)² + (1/2)² + (1/4)²
    0.375
    """
    if family == "binomial":
        pmf = stats.binom.pmf(np.arange(trials + 1), trials, float(parameter))
        return float(np.sum(pmf * pmf))
    from dpverify.mechanisms._discrete_series import _discrete_gaussian_normaliser

    with working_precision():
        if family == "discrete_laplace":
            beta = mpmath.exp(-1 / mpmath.mpf(parameter))
            return float((1 - beta) * (1 + beta ** 2) / (1 + beta) ** 3)
        sigma = mpmath.mpf(parameter)
        return float(_discrete_gaussian_normaliser(sigma / mpmath.sqrt(2))
                     / _discrete_gaussian_normaliser(sigma) ** 2)


def parameter_bound(family: str, ties: int, pairs: int, alpha: float,
                    trials: int | None = None) -> tuple[float, float]:
    """The point estimate and the one-sided ``1 − α`` upper bound on the noise parameter.

    The bound is a verified point ``θ`` with ``τ(θ)·(1 + TAU_MARGIN) < τ_low``
    (so ``θ`` lies beyond every parameter whose τ reaches the Clopper–Pearson
    lower bound ``τ_low``); ``inf`` (1/2 for the binomial's p) when ``τ_low``
    excludes nothing. The estimate solves ``τ(θ) = ties/pairs`` (or is the
    bound's no-information value).
    """
    tau_low = float(clopper_pearson_lower(ties, pairs, failure_probability=alpha))

    def tau(value: float) -> float:
        return collision_probability(family, value, trials)

    return _invert(family, tau, ties / pairs, trials, conservative=False), \
        _invert(family, tau, tau_low, trials, conservative=True)


def parameter_interval(family: str, ties: int, pairs: int, alpha: float,
                       trials: int | None = None) -> tuple[float, float, float]:
    """Point estimate and a two-sided ``1 − α`` interval ``[θ_low, θ_high]`` for the parameter.

    Clopper–Pearson at α/2 on each side of τ; ``θ_high`` is verified beyond
    every θ with ``τ(θ) >= τ_low``, ``θ_low`` verified below every θ with
    ``τ(θ) <= τ_high`` (τ inflated/deflated by :data:`TAU_MARGIN`).
    """
    estimate, high = parameter_bound(family, ties, pairs, alpha / 2, trials)
    tau_high = float(clopper_pearson_upper(ties, pairs, failure_probability=alpha / 2))

    def below(value: float) -> bool:  # τ(value) certainly above tau_high
        return collision_probability(family, value, trials) * (1 - TAU_MARGIN) > tau_high

    floor = 1e-12 if family == "binomial" else 1e-6
    if tau_high >= 1 or not below(floor):
        return estimate, floor * 0.5, high
    if family == "binomial":
        top = 0.5
        if below(top):  # fewer ties than the most spread Bin(trials, 1/2) can give
            raise AuditError(f"the outputs are more spread than any Bin({trials}, p) allows (tie "
                             f"rate {ties / pairs:.4g} < {tau_high:.4g}, the upper confidence "
                             f"bound, while Bin({trials}, 1/2) has "
                             f"{collision_probability(family, 0.5, trials):.4g}): the stated model "
                             f"does not hold (more trials than stated?)")
    else:
        top = high if math.isfinite(high) else 1.0
        while below(top):
            top *= 2
    return estimate, bisect_passing(below, floor, top, rtol=1e-10), high


def _invert(family: str, tau: Callable[[float], float], target: float, trials: int | None, *,
            conservative: bool) -> float:
    """The parameter where τ falls to ``target`` (beyond it, verified, when ``conservative``)."""
    margin = 1 + TAU_MARGIN if conservative else 1.0

    def beyond(value: float) -> bool:
        return tau(value) * margin < target

    if family == "binomial":
        low, high = 1e-300, 0.5
        if not beyond(high):
            return 0.5
        if beyond(low):
            return low
        return bisect_passing(beyond, low, high, rtol=1e-10) if conservative else \
            bisect_passing(lambda p: not beyond(p), low, high, rtol=1e-6)
    if target <= 0:
        return math.inf
    low, high = 1e-3, 1.0
    while beyond(low) and low > 1e-90:
        low /= 2
    if beyond(low):
        return low
    while not beyond(high):
        high *= 2
        if high > 1e90:
            return math.inf
    return bisect_passing(beyond, low, high, rtol=1e-10) if conservative else \
        bisect_passing(lambda v: not beyond(v), low, high, rtol=1e-6)


def delta_function(family: str, parameter: float, sensitivity: int,
                   trials: int | None = None) -> Callable[[float], Any]:
    """``ε ↦ δ(ε)``, the exact profile of the family at ``parameter`` and integer ``sensitivity``."""
    from dpverify.mechanisms._noise_maps import (
        binomial_noise_delta,
        discrete_gaussian_delta,
        discrete_laplace_delta,
    )

    if family == "discrete_laplace":
        return lambda epsilon: discrete_laplace_delta(parameter, epsilon, sensitivity=sensitivity)
    if family == "discrete_gaussian":
        return lambda epsilon: discrete_gaussian_delta(parameter, epsilon,
                                                       sensitivity=sensitivity)
    return lambda epsilon: binomial_noise_delta(trials, epsilon, probability=parameter,
                                                sensitivity=sensitivity)


def largest_epsilon_at_delta(delta_of: Callable[[float], Any], delta: float) -> float:
    """The largest verified ε <= :data:`EPSILON_CAP` with ``δ(ε) > δ``, rounded down (0 if none).

    ``δ(ε)`` is non-increasing, so every ε' below the returned value also
    has ``δ(ε') > δ``: the pair is not (ε', δ)-DP and ε(δ) >= the value
    (with δ = 0: the largest privacy loss of positive probability). For
    δ > 0 the end found by regula falsi on ``log δ(ε)`` has ``δ(ε) >= δ``
    (equality only at the exact ε(δ) of a strictly decreasing profile).
    ``δ(ε)`` is deflated by :data:`DELTA_MARGIN` before the comparison.
    """
    def above(epsilon: float) -> bool:
        return delta_of(mpmath.mpf(epsilon)) * (1 - DELTA_MARGIN) > delta

    with working_precision():
        if not above(0.0):
            return 0.0
        if above(EPSILON_CAP):
            return EPSILON_CAP
        high = 1.0
        while above(high):
            high *= 2
        if delta == 0:
            return round_down(bisect_passing(above, 0.0, high, rtol=1e-10))

        def excess(epsilon: float) -> float:  # <= 0: δ(ε) >= δ (regula falsi on log δ)
            value = delta_of(mpmath.mpf(epsilon)) * (1 - DELTA_MARGIN)
            return math.inf if value <= 0 else float(mpmath.log(delta) - mpmath.log(value))

        return round_down(regula_falsi_passing(excess, 0.0, high, rtol=1e-10))


def _symmetric_tails(family: str, theta: float, thresholds: np.ndarray) -> np.ndarray:
    """``P_θ[Y >= T]`` for integer ``thresholds`` (floats; Y discrete Laplace/Gaussian)."""
    if family == "discrete_laplace":
        beta = math.exp(-1 / theta)
        upper = np.exp(-np.maximum(thresholds, 1 - thresholds) / theta) / (1 + beta)
        return np.where(thresholds >= 1, upper, 1 - upper)
    reach = int(np.max(np.abs(thresholds))) + 1
    support = np.arange(-reach, reach + 1)
    weights = np.exp(-support.astype(np.float64) ** 2 / (2 * theta * theta))
    tail = np.cumsum(weights[::-1])[::-1] / np.sum(weights)  # tail[i] = P[Y >= support[i]]
    return tail[thresholds + reach]


def _piece_tails(family: str, ends: np.ndarray, sensitivity: int, trials: int | None
                 ) -> tuple[np.ndarray, np.ndarray, float] | None:
    """Per piece ``[ends[j], ends[j+1]]`` and threshold: the bounded tails (rows: pieces).

    ``first[j, i] − e^ε second[j, i] − slack <= δ_θ(ε)`` for every θ in piece j
    (module docstring). ``None`` when a row would need more than
    :data:`MAX_THRESHOLDS` thresholds (a huge scale).
    """
    down, up = 1 - TAIL_MARGIN, 1 + TAIL_MARGIN
    lows, highs = ends[:-1, None], ends[1:, None]
    if family == "binomial":
        thresholds = np.arange(0, trials + sensitivity + 1)[None, :]
        # order (B + Δ, B): P[B >= T − Δ] (smallest at p_low) − e^ε P[B >= T] (largest at p_high)
        first = stats.binom.sf(thresholds - sensitivity - 1, trials, lows) * down
        second = stats.binom.sf(thresholds - 1, trials, highs) * up
        # order (B, B + Δ): P[B <= T] (smallest at p_high) − e^ε P[B <= T − Δ] (largest at p_low)
        third = stats.binom.cdf(thresholds, trials, highs) * down
        fourth = stats.binom.cdf(thresholds - sensitivity, trials, lows) * up
        return np.concatenate([first, third], axis=1), np.concatenate([second, fourth], axis=1), 0.0
    top = float(ends[-1])
    reach = math.ceil((60 if family == "discrete_laplace" else 40) * top) + 2 * sensitivity
    if not math.isfinite(top) or 2 * reach + 1 > MAX_THRESHOLDS:
        return None
    thresholds = np.arange(-reach, reach + 1)
    tails = np.stack([_symmetric_tails(family, float(theta), thresholds) for theta in ends])
    # P[Y >= T] grows with θ for T >= 1 and falls for T <= 0 (MLR in |Y|)
    smallest = np.where(thresholds >= 1, tails[:-1], tails[1:])
    largest = np.where(thresholds >= 1, tails[1:], tails[:-1])
    slack = 1e-300 if family == "discrete_gaussian" else 0.0  # mass beyond the window
    return smallest[:, :-sensitivity] * down, largest[:, sensitivity:] * up, slack


def interval_delta_lower(family: str, low: float, high: float, sensitivity: int,
                         trials: int | None = None, pieces: int = 1
                         ) -> Callable[[float], float] | None:
    """``ε ↦`` a lower bound on δ_θ(ε) valid for every θ in ``[low, high]`` (module docstring).

    With ``pieces > 1`` the interval is cut (geometrically; linearly for the
    binomial's p) and the bound is the least of the pieces' bounds: tighter,
    since within a narrow piece the tails barely move. ``None`` when the
    tails would need more than :data:`MAX_THRESHOLDS` thresholds (a huge
    scale: then only ε >= 0 is claimed).
    """
    if family == "binomial" or high <= low:
        ends = np.linspace(low, high, pieces + 1)
    else:
        ends = np.geomspace(low, high, pieces + 1)
    ends[0], ends[-1] = low, high
    tails = _piece_tails(family, ends, sensitivity, trials)
    if tails is None:
        return None
    first, second, slack = tails

    def delta_lower(epsilon: float) -> float:
        per_piece = np.max(first - math.exp(epsilon) * second, axis=1)
        return max(0.0, float(np.min(per_piece)) - slack)

    return delta_lower


def interval_epsilon_lower(family: str, low: float, high: float, sensitivity: int,
                           delta: float, trials: int | None = None) -> float:
    """A lower bound on ε(δ) valid for every parameter in ``[low, high]``, rounded down.

    The largest verified ε (<= :data:`EPSILON_CAP`) with
    :func:`interval_delta_lower` ``> δ`` on every piece of the interval: the
    true parameter lies in one piece, where the pair is then not
    (ε', δ)-DP for any ε' up to the value. :data:`PIECES` geometric pieces;
    for the binomial's p, linear ones narrow enough that a piece moves the
    mean ``trials·p`` by at most 1/40 (a tail's log moves like ``T²/σ²``
    times a piece's relative width, and the binomial's with its mean), within
    :data:`TAIL_WORK` tail terms. δ = 0 for the discrete Gaussian and the
    binomial: ``inf`` (unbounded privacy loss; a support not shared by the
    two sides).
    """
    if delta == 0 and family != "discrete_laplace":
        return math.inf
    width = (trials + sensitivity + 1) if family == "binomial" else \
        2 * math.ceil(60 * min(high, 1e12)) + 4 * sensitivity + 1
    budget = max(1, TAIL_WORK // width)
    wanted = math.ceil((high - low) * trials * 40) if family == "binomial" else PIECES
    delta_lower = interval_delta_lower(family, low, high, sensitivity, trials,
                                       pieces=int(max(1, min(max(PIECES, wanted), budget))))
    if delta_lower is None:
        return 0.0

    def above(epsilon: float) -> bool:
        return delta_lower(epsilon) > delta

    if not above(0.0):
        return 0.0
    cap = min(EPSILON_CAP, 700.0)  # e^ε stays finite in floats
    if above(cap):
        return round_down(cap)
    high_epsilon = 1.0
    while above(high_epsilon):
        high_epsilon *= 2
    return round_down(bisect_passing(above, 0.0, min(high_epsilon, cap), rtol=1e-10))


#: Pieces the parameter interval is cut into by :func:`interval_epsilon_lower` (at least).
PIECES = 24
#: Most tail terms (pieces × thresholds) one bound holds in memory.
TAIL_WORK = 1 << 22
