"""Series and small exact helpers behind :mod:`dpverify.mechanisms.discrete` (private).

Infinite series (discrete Gaussian normaliser and tails, Skellam weights, the
Pólya-difference pmf) are summed until a rigorous remainder bound is below
``TAIL_TOLERANCE`` times the partial sum; see the module docstring of
:mod:`dpverify.mechanisms.discrete` for the accuracy contract.
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction
from functools import lru_cache
from typing import Any

import mpmath

from dpverify._numeric import working_precision
from dpverify._validation import check_finite, check_mp_real

#: Truncation rule of every series: stop when a rigorous remainder bound is below this × partial sum.
TAIL_TOLERANCE = 1e-35


def _as_rational(value: Any, name: str = "outcome") -> Fraction:
    """A real argument as an exact rational (floats are exact dyadic rationals)."""
    if isinstance(value, numbers.Rational) and not isinstance(value, bool):
        return Fraction(int(value.numerator), int(value.denominator))
    return Fraction(check_finite(value, name))


def _integer_or_none(value: Any) -> int | None:
    point = _as_rational(value)
    return int(point) if point.denominator == 1 else None


def _floor(value: Any) -> int:
    return math.floor(_as_rational(value))


def _symmetric_cdf(upper_tail: Any, k: Any) -> Any:
    """``P[X <= k]`` of a law symmetric about 0, from ``upper_tail(a) = P[X >= a]`` (a >= 1)."""
    m = _floor(k)
    return upper_tail(-m) if m < 0 else 1 - upper_tail(m + 1)


def _symmetric_sf(upper_tail: Any, k: Any) -> Any:
    """``P[X > k]`` of a law symmetric about 0."""
    m = _floor(k)
    return upper_tail(m + 1) if m >= 0 else 1 - upper_tail(-m)


def _log(value: Any) -> mpmath.mpf:
    with working_precision():
        if isinstance(value, Fraction):
            value = mpmath.mpf(value.numerator) / value.denominator
        return mpmath.log(value) if value > 0 else mpmath.ninf


def _gaussian_series(a: mpmath.mpf, start: int, *, loss_start: mpmath.mpf | None = None,
                     loss_step: mpmath.mpf | None = None) -> mpmath.mpf:
    """``Σ_{k >= start} e^{−a k²} · f_k`` with a rigorous remainder bound.

    ``f_k = 1`` by default, or ``f_k = 1 − e^{loss_start − (k − start)·loss_step}``
    (the hockey-stick factor of the discrete Gaussian profile, in [0, 1]).
    Remainder after ``K >= 0``: ``Σ_{k > K} e^{−a k²} <= ∫_K^∞ e^{−a x²} dx
    = ½ √(π/a) erfc(K √a)`` (the summand decreases on [0, ∞)).
    """
    term = mpmath.exp(-a * start * start)
    step = mpmath.exp(-a * (2 * start + 1))
    shrink = mpmath.exp(-2 * a)
    total, k = mpmath.mpf(0), start
    while True:
        if loss_start is None:
            total += term
        else:
            exponent = loss_start - (k - start) * loss_step
            total += term * (1 if exponent < -200 else -mpmath.expm1(exponent))
        if k >= 0 and term <= TAIL_TOLERANCE * total and (k - start) % 8 == 0:
            remainder = mpmath.sqrt(mpmath.pi / a) / 2 * mpmath.erfc(k * mpmath.sqrt(a))
            if remainder <= TAIL_TOLERANCE * total:
                return total
        term, step, k = term * step, step * shrink, k + 1


def discrete_gaussian_normaliser(sigma: Any) -> mpmath.mpf:
    """``Z = Σ_k e^{−k²/(2σ²)}`` (CKS 2020, Def. 1), at 50 digits; σ > 0 (a float or mpf).

    Summed directly for σ < 1, else through the Poisson summation identity
    ``Z = σ√(2π) Σ_m e^{−2π²σ²m²}`` (CKS 2020, Fact 18), whose series converges
    in a handful of terms; both with the rigorous remainder of
    :func:`_gaussian_series`.

    >>> round(float(discrete_gaussian_normaliser(1.0)), 6)
    2.506628
    """
    return _normaliser(check_mp_real(sigma, "sigma", low=0.0, low_closed=False))


@lru_cache(maxsize=256)
def _normaliser(sigma: mpmath.mpf) -> mpmath.mpf:
    with working_precision():
        a = 1 / (2 * mpmath.mpf(sigma) ** 2)
        rate = a if sigma < 1 else mpmath.pi ** 2 / a
        # Σ_{k>=1} e^{−rate·k²} lies in [e^{−rate}, 2e^{−rate}]: beyond rate 10^4 that is far
        # below the working precision (and the series' erfc remainder would overflow)
        series = 1 + 2 * mpmath.exp(-rate) if rate > 1e4 else 2 * _gaussian_series(rate, 0) - 1
        return series if sigma < 1 else mpmath.sqrt(mpmath.pi / a) * series


def _skellam_weights(mu: mpmath.mpf, low: int, high: int) -> list[mpmath.mpf]:
    """``[e^{−2μ} I_j(2μ) for j in low..high]`` (0 <= low <= high) by downward recurrence.

    ``I_{ν−1}(x) = I_{ν+1}(x) + (2ν/x) I_ν(x)`` is stable downwards (I is the
    dominant solution as ν decreases); the two seeds are exact Bessel values.
    """
    x = 2 * mu
    upper, current = mpmath.besseli(high + 1, x), mpmath.besseli(high, x)
    values = [current]
    for nu in range(high, low, -1):
        upper, current = current, upper + (2 * nu / x) * current
        values.append(current)
    scale = mpmath.exp(-x)
    return [v * scale for v in reversed(values)]


def _polya_difference_pmf(r: mpmath.mpf, beta: mpmath.mpf, k: int) -> mpmath.mpf:
    """``P[γ⁺ − γ⁻ = k]`` for i.i.d. Pólya(r, β), r <= 1, k >= 0.

    .. math::

        \\sum_{j>=0} p(j+k) p(j) = (1-β)^{2r} β^k \\frac{(r)_k}{k!}\\,
        {}_2F_1(r, k+r; k+1; β^2)

    summed term by term: the term ratio ``(r+j)(k+r+j)/((k+1+j)(j+1)) β²`` is
    at most β² for r <= 1, so the remainder after term j is at most
    ``t_j β²/(1 − β²)``.
    """
    square = beta * beta
    term, total, j = mpmath.mpf(1), mpmath.mpf(0), 0
    while True:
        total += term
        if term * square / (1 - square) <= TAIL_TOLERANCE * total:
            break
        term *= (r + j) * (k + r + j) / ((k + 1 + j) * (j + 1)) * square
        j += 1
    lead = (1 - beta) ** (2 * r) * beta ** k * mpmath.rf(r, k) / mpmath.factorial(k)
    return lead * total
