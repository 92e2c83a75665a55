"""Rényi moments of the Poisson-subsampled Gaussian mechanism, as rigorous upper bounds.

Private helper of :mod:`dpverify.accountants.rdp`. Everything here works on
mpmath numbers and returns an *upper bound* on

.. math:: \\log A_α, \\qquad A_α = \\mathbb{E}_{z \\sim μ_0}\\left[\\left(\\frac{μ(z)}{μ_0(z)}\\right)^α\\right],
          \\quad μ_0 = N(0, σ^2),\\ μ = (1-q) μ_0 + q N(1, σ^2)

(Mironov, Talwar & Zhang 2019, Sec. 3). Integer orders use the exact binomial
expansion (Sec. 3.3, integer α); fractional orders use the two-series
expansion of Sec. 3.3 split at :math:`z_0 = σ^2 \\ln(1/q - 1) + 1/2`, truncated
with a remainder bound whose sign and size are certified by Taylor's theorem
(see ``docs/proofs/rdp_conversions.md``, Sec. 3). Floating-point work is
covered by an explicit slack term, so the returned value bounds the exact one.
"""

from __future__ import annotations

import functools
import math

import mpmath

from dpverify._numeric import DEFAULT_DPS

__all__ = ["log_moment_upper"]

#: Stop the fractional-order series once the certified remainder is this small
#: relative to ``A - 1`` (so the RDP value is within ~1e-9 relative of the truth).
_SERIES_RTOL = 1e-9
#: Terms of the fractional series evaluated at most beyond ``ceil(alpha)``; past
#: this the (still rigorous) remainder bound is used as it stands.
_MAX_EXTRA_TERMS = 2000
#: Starting precision (decimal digits) of the fractional series, before the
#: digits that the cancellation in ``A - 1`` will cost are added.
_SERIES_DPS = 30
#: Units in the last place charged per arithmetic operation in the slack term.
_ULPS_PER_TERM = 8


def _ulp(dps: int) -> mpmath.mpf:
    """Relative size of one unit in the last place at ``dps`` digits (generously rounded)."""
    return mpmath.mpf(10) ** (3 - dps)


def _extra_digits(q: float, sigma: float, alpha: float) -> int:
    """Digits lost to cancellation in ``A - 1`` (estimate: ``C(α,2) q² (e^{1/σ²} - 1)``)."""
    log10_estimate = (math.log10(alpha * (alpha - 1) / 2) + 2 * math.log10(q)
                      + math.log10(math.expm1(min(1 / sigma**2, 700.0))))
    return min(2000, max(0, math.ceil(-log10_estimate)))


def _log_moment_integer(q: mpmath.mpf, sigma: mpmath.mpf, alpha: int) -> mpmath.mpf:
    """Upper bound on ``log A_α`` for an integer ``α >= 2`` (exact binomial expansion).

    ``A_α - 1 = Σ_{k>=2} C(α,k) (1-q)^{α-k} q^k (e^{(k²-k)/(2σ²)} - 1)``: since the
    binomial weights sum to one, subtracting 1 term by term leaves only
    positive terms, so there is no cancellation at any q.
    """
    weight = (1 - q) ** alpha  # C(α, k) (1-q)^{α-k} q^k, updated by recurrence
    ratio = q / (1 - q)
    excess = mpmath.mpf(0)
    for k in range(1, alpha + 1):
        weight *= ratio * (alpha - k + 1) / k
        if k >= 2:
            excess += weight * mpmath.expm1((k * k - k) / (2 * sigma**2))
    slack = excess * (_ULPS_PER_TERM * (alpha + 10)) * _ulp(mpmath.mp.dps)
    return mpmath.log1p(excess + slack)


def _series_terms(q: mpmath.mpf, sigma: mpmath.mpf, alpha: mpmath.mpf, z0: mpmath.mpf):
    """Yield ``(i, s0_i, s1_i)``: the i-th terms of the two series of MTZ 2019, Sec. 3.3.

    ``s0_i = C(α,i) (1-q)^{α-i} q^i e^{(i²-i)/(2σ²)} Φ((z0-i)/σ)`` integrates the
    expansion in powers of ``r = q e^{(2z-1)/(2σ²)}/(1-q) <= 1`` over ``z <= z0``;
    ``s1_i`` is its mirror image (``j = α - i``) over ``z >= z0``. The factors are
    updated by recurrences (one multiplication each); their accumulated rounding
    error, at most a few ulps per step, is covered by the caller's slack.
    """
    root2_sigma, inverse_variance = mpmath.sqrt(2) * sigma, 1 / sigma**2
    step = mpmath.exp(inverse_variance)                   # e^{1/σ²}
    coefficient = mpmath.mpf(1)                           # C(α, i)
    lower_weight = (1 - q) ** alpha                       # (1-q)^{α-i} q^i
    upper_weight = q**alpha                               # q^{α-i} (1-q)^i
    lower_growth = mpmath.mpf(1)                          # e^{(i²-i)/(2σ²)}
    upper_growth = mpmath.exp((alpha**2 - alpha) * inverse_variance / 2)  # e^{(j²-j)/(2σ²)}
    power = mpmath.mpf(1)                                 # e^{i/σ²}
    upper_step = mpmath.exp(-(alpha - 1) * inverse_variance)
    i = 0
    while True:
        j = alpha - i
        s0 = (coefficient * lower_weight * lower_growth
              * mpmath.erfc((i - z0) / root2_sigma) / 2)
        s1 = (coefficient * upper_weight * upper_growth
              * mpmath.erfc((z0 - j) / root2_sigma) / 2)
        yield i, s0, s1
        coefficient *= (alpha - i) / (i + 1)
        lower_weight *= q / (1 - q)
        upper_weight *= (1 - q) / q
        lower_growth *= power
        upper_growth *= upper_step * power
        power *= step
        i += 1


def _log_moment_fractional(q: mpmath.mpf, sigma: mpmath.mpf,
                           alpha: mpmath.mpf) -> tuple[mpmath.mpf, mpmath.mpf]:
    """Return ``(upper bound on A_α - 1, absolute arithmetic slack)`` for a fractional α.

    Both series are truncated after index ``N - 1`` with ``N > α``. By Taylor's
    theorem with the Lagrange remainder, ``(1+r)^α`` minus its degree-(N-1)
    polynomial equals ``C(α,N) (1+ξ)^{α-N} r^N`` for some ``ξ ∈ (0, r)``; as
    ``N > α`` this lies between 0 and ``C(α,N) r^N``, so each integrated tail
    lies between 0 and the series' N-th term. Adding ``max(0, s_N)`` of both
    series therefore gives an upper bound.
    """
    z0 = sigma**2 * mpmath.log(1 / q - 1) + mpmath.mpf(1) / 2
    first_after = math.floor(alpha) + 1  # the smallest integer N > α
    partial, magnitude = mpmath.mpf(-1), mpmath.mpf(1)  # partial = Σ terms - 1
    for i, s0, s1 in _series_terms(q, sigma, alpha, z0):
        if i >= first_after:
            remainder = max(s0, 0) + max(s1, 0)
            small = abs(s0) + abs(s1) <= _SERIES_RTOL * partial
            if small or i >= first_after + _MAX_EXTRA_TERMS:
                slack = magnitude * (_ULPS_PER_TERM * (i + 10)) * _ulp(mpmath.mp.dps)
                return partial + remainder, slack
        partial += s0 + s1
        magnitude += abs(s0) + abs(s1)


@functools.lru_cache(maxsize=4096)
def log_moment_upper(q: float, sigma: float, alpha: float) -> mpmath.mpf:
    """Return an upper bound on ``log A_α`` of the sampled Gaussian (an mpmath number).

    ``q`` must lie in (0, 1), ``sigma > 0`` and ``alpha > 1``; the caller
    handles ``q = 0`` and ``q = 1``. The precision is raised until the
    arithmetic slack is below 1e-15 of ``A_α - 1``, so the bound is also tight.
    """
    if float(alpha).is_integer():
        with mpmath.workdps(DEFAULT_DPS):
            return +_log_moment_integer(mpmath.mpf(q), mpmath.mpf(sigma), int(alpha))
    dps = _SERIES_DPS + _extra_digits(q, sigma, alpha)
    while True:
        with mpmath.workdps(dps):
            q_mp, sigma_mp = mpmath.mpf(q), mpmath.mpf(sigma)
            excess, slack = _log_moment_fractional(q_mp, sigma_mp, mpmath.mpf(alpha))
            if slack <= mpmath.mpf("1e-15") * excess or dps > 4000:
                return +mpmath.log1p(max(excess, 0) + slack)
        dps *= 2
