"""Exact hockey-stick divergence of k-fold binary randomized response (private helper).

Kairouz, Oh and Viswanath (2015, Thm. 3.3 and its proof) show that the
k-fold (adaptive) composition of (ε, δ)-DP mechanisms is dominated by the
k-fold product of the pair

.. math::

    P = (δ,\\ (1-δ)p,\\ (1-δ)q,\\ 0), \\qquad Q = (0,\\ (1-δ)q,\\ (1-δ)p,\\ δ),
    \\qquad p = \\frac{e^ε}{1+e^ε},\\ q = \\frac{1}{1+e^ε},

whose hockey-stick divergence at ``x`` is

.. math::

    δ_{total}(x) = 1 - (1-δ)^k\\,(1 - δ_{RR}(x)), \\qquad
    δ_{RR}(x) = \\sum_{l=0}^{k} \\binom{k}{l} \\left[p^{k-l} q^l - e^{x} p^l q^{k-l}\\right]_+ .

Write ``t_l = C(k, l) p^{k-l} q^l`` and ``g_l = (k - 2l) ε``; the ``l``-th
bracket equals ``t_l (1 - e^{x - g_l})`` and is positive exactly when
``g_l > x``. Every sum below is evaluated as a sum of *positive* terms
``t_l (1 - e^{-offset} e^{-2(top-l)ε})``, with the factors from the recurrence
``f_{m+1} = f_m e^{-2ε} + (1 - e^{-2ε})``, so no cancellation occurs. The
terms are generated downwards from ``l = top`` with the ratio
``t_{l-1}/t_l = e^ε l/(k-l+1)`` (one ``loggamma`` evaluation per sum, none per
term) and the sum stops once a geometric bound on the remaining terms is below
``10^{-(dps+10)}`` of the partial sum; that bound is added, so the result is an
upper bound. See ``docs/proofs/optimal_composition.md``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import mpmath
import numpy as np
from scipy.special import gammaln

from dpverify._numeric import bisect_passing, round_up, working_precision
from dpverify._validation import value_error

__all__ = [
    "RELATIVE_ERROR",
    "HockeySums",
    "budget_for_randomized_response",
    "grid_point",
    "hockey_sums",
    "largest_index",
    "locate_grid_index",
    "optimal_delta",
    "optimal_epsilon",
    "passes_budget",
    "randomized_response_delta_upper",
    "solve_on_segment",
    "total_delta_upper",
]

#: Relative error bound of the upper bounds computed here (mpmath rounding at
#: >= 50 digits and the truncation bound contribute far less than this).
RELATIVE_ERROR = 1e-30

#: Precision cap of the adaptive-precision loops.
MAX_DPS = 1600


@dataclass(frozen=True)
class HockeySums:
    """Sums over ``l = top, ..., 0`` of ``t_l = C(k, l) p^{k-l} q^l``.

    ``hockey`` bounds ``Σ t_l (1 - e^{-offset - 2(top-l)ε})`` from above,
    ``mass`` bounds ``Σ t_l`` from above and ``shifted`` bounds
    ``Σ t_l e^{-2(top-l)ε}`` from below.
    """

    hockey: mpmath.mpf
    mass: mpmath.mpf
    shifted: mpmath.mpf


def largest_index(k: int) -> int:
    """Largest ``l`` with ``g_l = (k - 2l)ε > 0``: ``ceil(k/2) - 1``."""
    return (k + 1) // 2 - 1


def grid_point(epsilon: float, k: int, index: int) -> mpmath.mpf:
    """Return ``(k - 2 index) ε`` exactly (a 53-bit float times a small integer)."""
    return mpmath.mpf(epsilon) * (k - 2 * index)


def _log_term(epsilon: mpmath.mpf, k: int, index: int) -> mpmath.mpf:
    """``log t_index = log C(k, index) + (k - index) log p + index log q``."""
    log_p = -mpmath.log1p(mpmath.exp(-epsilon))
    log_q = log_p - epsilon
    log_binomial = mpmath.loggamma(k + 1) - mpmath.loggamma(index + 1) - mpmath.loggamma(k - index + 1)
    return log_binomial + (k - index) * log_p + index * log_q


def hockey_sums(epsilon: float, k: int, *, top: int, offset: mpmath.mpf) -> HockeySums:
    """Truncated sums of the ``t_l`` with a rigorous tail bound, at the current precision.

    ``offset >= 0`` is ``g_top - x``: the sums evaluate ``δ_RR(x)`` when
    ``top`` is the largest index with ``g_top > x`` (``offset = 0`` at the
    grid point ``x = g_top``, whose own term vanishes).
    """
    zero = mpmath.mpf(0)
    if top < 0:
        return HockeySums(zero, zero, zero)
    eps = mpmath.mpf(epsilon)
    growth, decay, gap = mpmath.exp(eps), mpmath.exp(-2 * eps), -mpmath.expm1(-2 * eps)
    term = mpmath.exp(_log_term(eps, k, top))
    shift, factor = mpmath.exp(-offset), -mpmath.expm1(-offset)
    tolerance = mpmath.mpf(10) ** (-(mpmath.mp.dps + 10))
    hockey = mass = shifted = tail = zero
    for index in range(top, -1, -1):
        hockey += term * factor
        mass += term
        shifted += term * shift
        if index == 0:
            break
        ratio = growth * index / (k - index + 1)  # t_{index-1} / t_index, decreasing downwards
        term *= ratio
        shift *= decay
        factor = factor * decay + gap
        if ratio < 1 and index % 8 == 1:  # test the tail now and then: it costs a division
            tail = term / (1 - ratio)  # >= Σ_{l < index} t_l, since later ratios are smaller
            if tail <= tolerance * hockey:
                break
            tail = zero
    # factors are <= 1, so the tail bound covers both the hockey and the mass sums
    return HockeySums(hockey + tail, mass + tail, shifted)


def randomized_response_delta_upper(epsilon: float, k: int, x: mpmath.mpf) -> mpmath.mpf:
    """Upper bound on ``δ_RR(x)`` for ``x >= 0`` (relative error below RELATIVE_ERROR)."""
    x = mpmath.mpf(x)
    if epsilon == 0:
        return mpmath.mpf(0)
    i_max = largest_index(k)
    estimate = mpmath.ceil((k - x / mpmath.mpf(epsilon)) / 2) - 1
    top = int(min(max(estimate, -1), i_max))
    while top >= 0 and grid_point(epsilon, k, top) <= x:
        top -= 1
    while top < i_max and grid_point(epsilon, k, top + 1) > x:
        top += 1
    if top < 0:
        return mpmath.mpf(0)
    return hockey_sums(epsilon, k, top=top, offset=grid_point(epsilon, k, top) - x).hockey


def total_delta_upper(delta: float, k: int, randomized_response_delta: mpmath.mpf) -> mpmath.mpf:
    """``1 - (1-δ)^k (1 - δ_RR)`` without cancellation, times ``1 + RELATIVE_ERROR``.

    A hockey-stick divergence is at most 1, so an upper bound ``δ_RR >= 1``
    (rounding and tail bounds can push it past 1 when ε is huge and δ_RR is
    1 − e^{-hundreds}) means the trivial total δ = 1.
    """
    if randomized_response_delta >= 1:
        return mpmath.mpf(1)
    exponent = k * mpmath.log1p(-mpmath.mpf(delta)) + mpmath.log1p(-randomized_response_delta)
    return -mpmath.expm1(exponent) * (1 + mpmath.mpf(RELATIVE_ERROR))


def _exact_budget_sign(delta: float, k: int, target_delta: float) -> int:
    """Sign of ``(1-δ)^k - (1 - target)`` in exact rational arithmetic."""
    difference = (1 - Fraction(delta)) ** k - (1 - Fraction(target_delta))
    return (difference > 0) - (difference < 0)


def budget_for_randomized_response(delta: float, k: int, target_delta: float) -> mpmath.mpf | None:
    """Return ``R = 1 - (1 - target)/(1 - δ)^k`` at the current precision, or None if ``R < 0``.

    ``δ_total(x) <= target`` is equivalent to ``δ_RR(x) <= R``. The sign of
    ``R`` is decided exactly: the precision is raised while rounding could flip
    it, and rational arithmetic settles the (degenerate) remaining cases, in
    which 0 is returned (sound: ``δ_RR(x) <= 0`` is stricter than ``<= R``).
    """
    dps = mpmath.mp.dps
    while dps <= MAX_DPS:
        with mpmath.workdps(dps):
            first = mpmath.log1p(-mpmath.mpf(target_delta))
            second = k * mpmath.log1p(-mpmath.mpf(delta))
            exponent = first - second
            scale = abs(first) + abs(second)
            if abs(exponent) > scale * mpmath.mpf(10) ** (10 - dps):
                return -mpmath.expm1(exponent) if exponent < 0 else None
        dps *= 2
    sign = _exact_budget_sign(delta, k, target_delta)
    return None if sign < 0 else mpmath.mpf(0)


def locate_grid_index(epsilon: float, k: int, log_budget: float) -> int:
    """Float estimate of the largest grid index ``i`` with ``δ_RR(max(g_i, 0)) <= R``.

    Vectorised in numpy log-space (``gammaln`` once over all indices); only a
    starting point for the verified mpmath search, never a reported value.
    """
    i_max = largest_index(k)
    index = np.arange(i_max + 1, dtype=float)
    log_p = -math.log1p(math.exp(-epsilon))
    log_q = log_p - epsilon
    log_terms = (gammaln(k + 1.0) - gammaln(index + 1) - gammaln(k - index + 1)
                 + (k - index) * log_p + index * log_q)
    grid = (k - 2 * index) * epsilon
    log_mass = np.logaddexp.accumulate(log_terms)
    log_shifted = np.logaddexp.accumulate(log_terms - grid)
    # δ_RR at x_i = max(g_i, 0), i = 1..i_max+1, uses the terms l <= i - 1
    points = np.maximum(np.append(grid[1:], (k - 2.0 * (i_max + 1)) * epsilon), 0.0)
    with np.errstate(all="ignore"):
        log_ratio = np.minimum(points + log_shifted - log_mass, 0.0)
        log_delta = log_mass + np.log(-np.expm1(log_ratio))
        failing = ~(log_delta <= log_budget)
    if not failing.any():
        return i_max
    return int(np.argmax(failing))


def passes_budget(delta: float, k: int, target_delta: float,
                  randomized_response_delta: mpmath.mpf) -> bool:
    """True if ``δ_total <= target`` is certain (assuming ``target >= 1 - (1-δ)^k``)."""
    if randomized_response_delta == 0:
        return True
    return bool(total_delta_upper(delta, k, randomized_response_delta) <= target_delta)


def solve_on_segment(epsilon: float, delta: float, k: int, target_delta: float,
                     index: int, sums: HockeySums | None = None) -> mpmath.mpf:
    """Smallest ``x`` in ``[max(g_{index+1}, 0), g_index]`` with ``δ_RR(x) <= R``, in closed form.

    On that segment ``δ_RR(x) = A - e^{x - g_index} C`` with ``A = Σ_{l<=index} t_l``
    and ``C = Σ_{l<=index} t_l e^{g_index - g_l}``, hence
    ``x = g_index + log((A - R)/C)``. With ``A`` rounded up and ``C`` down the
    root is an upper bound. Precision is raised while ``A - R`` cancels; if it
    never stops cancelling, the grid point ``g_index`` (verified) is returned.
    ``sums`` may hold ``hockey_sums(top=index, offset=0)`` at the current precision.
    """
    upper = grid_point(epsilon, k, index)
    dps = start_dps = mpmath.mp.dps
    while dps <= MAX_DPS:
        with mpmath.workdps(dps):
            budget = budget_for_randomized_response(delta, k, target_delta)
            if budget is None:  # excluded by the caller; stay sound regardless
                return upper
            if sums is None or dps > start_dps:
                sums = hockey_sums(epsilon, k, top=index, offset=mpmath.mpf(0))
            room = sums.mass - budget
            if room > sums.mass * mpmath.mpf(10) ** (20 - dps) and sums.shifted > 0:
                root = upper + mpmath.log(room / sums.shifted)
                lower = max(grid_point(epsilon, k, index + 1), mpmath.mpf(0))
                return +min(max(root, lower), upper)
        dps *= 2
    return upper


def _verified_index(passes, guess: int, i_max: int) -> int:
    """Largest grid index in ``[0, i_max + 1]`` that passes, found from a float ``guess``.

    ``passes`` is monotone (true up to some index, false after it) and
    ``passes(0)`` holds (the caller checked the budget). A galloping search from
    the guess finds a bracket, which :func:`bisect_passing` verifies and
    narrows; index ``i_max + 1`` (the point ``x = 0``) is returned if it passes.
    """
    low, high, step = guess, guess + 1, 1
    while passes(high):  # the answer lies at or above high
        if high == i_max + 1:
            return high
        low, high, step = high, min(i_max + 1, high + 2 * step), 2 * step
    while not passes(low):  # the answer lies below low
        low, high, step = max(0, low - 2 * step), low, 2 * step
    return bisect_passing(passes, low, high, integer=True)


def _verified_round_up(root: mpmath.mpf, epsilon: float, delta: float, k: int,
                       target_delta: float, index: int) -> float:
    """Round ``root`` up to a float and check ``δ_total <= target`` there (nudging if needed)."""
    upper = grid_point(epsilon, k, index)

    def passes_at(x: float) -> bool:
        if mpmath.mpf(x) >= upper:  # δ_RR is non-increasing and the grid point passed
            return True
        sums = hockey_sums(epsilon, k, top=index, offset=upper - x)
        return passes_budget(delta, k, target_delta, sums.hockey)

    candidate = round_up(root)
    for _ in range(4):
        if passes_at(candidate):
            return candidate
        candidate = math.nextafter(candidate, math.inf)
    return bisect_passing(passes_at, candidate, round_up(upper))


def optimal_epsilon(epsilon: float, delta: float, k: int, target_delta: float) -> float:
    """Smallest ``x >= 0`` with ``δ_total(x) <= target_delta``, rounded up and verified.

    Arguments are assumed validated. Raises :class:`DpverifyValueError` when
    ``target_delta < 1 - (1 - δ)^k`` (no finite ``x``).
    """
    with working_precision():
        budget = budget_for_randomized_response(delta, k, target_delta)
        if budget is None:
            floor = -mpmath.expm1(k * mpmath.log1p(-mpmath.mpf(delta)))
            raise value_error(
                "target_delta", target_delta, f">= 1 - (1 - delta)**k = {mpmath.nstr(floor, 8)}",
                f"with delta={delta!r} and k={k}, every epsilon leaves at least that failure "
                "probability; pass a larger target_delta")
        if epsilon == 0:
            return 0.0
        i_max = largest_index(k)
        cache: dict[int, HockeySums] = {}

        def passes(index: int) -> bool:  # δ_total(max(g_index, 0)) <= target
            if index not in cache:
                top = min(index, i_max)
                offset = grid_point(epsilon, k, i_max) if index > i_max else mpmath.mpf(0)
                cache[index] = hockey_sums(epsilon, k, top=top, offset=offset)
            return passes_budget(delta, k, target_delta, cache[index].hockey)

        log_budget = float(mpmath.log(budget)) if budget > 0 else -math.inf
        index = _verified_index(passes, locate_grid_index(epsilon, k, log_budget), i_max)
        if index > i_max:  # x = 0 already meets the budget
            return 0.0
        root = solve_on_segment(epsilon, delta, k, target_delta, index, cache.get(index))
        return _verified_round_up(root, epsilon, delta, k, target_delta, index)


def optimal_delta(epsilon: float, delta: float, k: int, target_epsilon: float) -> float:
    """``δ_total(target_epsilon)``, rounded up (arguments assumed validated)."""
    with working_precision():
        randomized_response = randomized_response_delta_upper(epsilon, k, mpmath.mpf(target_epsilon))
        return min(1.0, round_up(total_delta_upper(delta, k, randomized_response)))
