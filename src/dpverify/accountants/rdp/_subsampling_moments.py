"""Log-moment upper bounds of subsampled mechanisms from the base mechanism's RDP curve.

Private helper of :mod:`dpverify.accountants.rdp.subsampling`. For an integer
order ``α ≥ 2`` each function returns, as an mpmath number, an *upper bound*
on ``log A_α`` where ``A_α = exp((α − 1) D_α)`` is the Rényi moment of the
subsampled mechanism; ``epsilons[ℓ]`` is the base mechanism's RDP ε at order
``ℓ`` (indices ``2..α`` are read; floats already rounded up).

Every sum is written as ``A_α − 1`` with non-negative terms only (the binomial
weights sum to one, so subtracting 1 term by term leaves ``expm1`` factors),
so no cancellation occurs at small sampling rates. The terms are evaluated in
mpmath; their rounding error (a few ulps per operation, and ``|x|`` ulps for an
``exp(x)``) is bounded by an explicit slack added before the logarithm, so the
result bounds the exact value. The Pearson–Vajda moments of the Gaussian
(:func:`gaussian_chi_moment_upper`) are alternating sums; their absolute error
is bounded the same way and the precision raised until it is small.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence

import mpmath

__all__ = ["TermFactors", "poisson_factors", "poisson_log_moment_upper", "without_replacement_factors",
           "without_replacement_log_moment_upper", "gaussian_chi_moment_upper"]

#: Units in the last place charged per arithmetic operation in the slack term.
_ULPS_PER_OPERATION = 8


def _ulp() -> mpmath.mpf:
    """Relative size of one unit in the last place at the working precision (generously rounded)."""
    return mpmath.mpf(10) ** (3 - mpmath.mp.dps)


def _log1p_upper(excess: mpmath.mpf, largest_exponent: mpmath.mpf, alpha: int) -> mpmath.mpf:
    """``log(1 + excess + slack)``: ``excess`` is a sum of non-negative computed terms.

    Each term carries a relative error of at most ``(|x| + α + 20)`` operations'
    worth of ulps, ``|x| <= largest_exponent`` the largest exponent taken; the
    slack covers the sum of those errors.
    """
    if excess == mpmath.inf:
        return mpmath.inf
    slack = excess * _ULPS_PER_OPERATION * (abs(largest_exponent) + alpha + 20) * _ulp()
    return mpmath.log1p(excess + slack)


def _binomial_weights(gamma: mpmath.mpf, alpha: int) -> list[mpmath.mpf]:
    """``w_ℓ = C(α, ℓ) (1 − γ)^{α−ℓ} γ^ℓ`` for ``ℓ = 0..α`` (``0 < γ < 1``)."""
    weights = [(1 - gamma) ** alpha]
    ratio = gamma / (1 - gamma)
    for ell in range(1, alpha + 1):
        weights.append(weights[-1] * ratio * (alpha - ell + 1) / ell)
    return weights


def _binomial_powers(gamma: mpmath.mpf, alpha: int) -> list[mpmath.mpf]:
    """``C(α, j) γ^j`` for ``j = 0..α``."""
    values = [mpmath.mpf(1)]
    for j in range(1, alpha + 1):
        values.append(values[-1] * gamma * (alpha - j + 1) / j)
    return values


class TermFactors:
    """Per-index factors ``f_ℓ`` of a moment bound ``A_α − 1 <= Σ_ℓ c_{α,ℓ} f_ℓ`` (computed once).

    ``factors[ℓ]`` is ``inf`` where the bound is infinite; ``largest`` is the
    largest exponent met (for the rounding slack).
    """

    __slots__ = ("factors", "largest")

    def __init__(self, factors: list[mpmath.mpf], largest: mpmath.mpf) -> None:
        self.factors, self.largest = factors, largest

    def log_moment_upper(self, coefficients: list[mpmath.mpf], alpha: int) -> mpmath.mpf:
        """``log(1 + Σ_{ℓ=2}^{α} c_ℓ f_ℓ + slack)``, an upper bound on ``log A_α``."""
        factors = self.factors[2:alpha + 1]
        if mpmath.inf in factors:
            return mpmath.inf
        excess = mpmath.fsum(c * f for c, f in zip(coefficients[2:alpha + 1], factors))
        return _log1p_upper(excess, self.largest, alpha)


def poisson_factors(epsilons: Sequence[float], top: int, *, general: bool) -> TermFactors:
    r"""Factors of the Poisson bound (Zhu & Wang, ICML 2019), for orders up to ``top``.

    ``general=True`` is the bound for any mechanism (Zhu & Wang 2019, Thm 6):

    .. math:: A_α \le (1-γ)^{α-1}(1 + (α-1)γ) + \binom{α}{2}γ^2(1-γ)^{α-2}e^{ε(2)}
              + 3\sum_{ℓ=3}^{α}\binom{α}{ℓ}γ^ℓ(1-γ)^{α-ℓ}e^{(ℓ-1)ε(ℓ)};

    ``general=False`` drops the factor 3 (their tight bound, exact for the
    Gaussian and Laplace mechanisms; for every mechanism it bounds the
    direction ``D_α((1−γ)μ0 + γμ1 ‖ μ0)``, by the binomial expansion of
    ``E_{μ0}[(1 − γ + γ μ1/μ0)^α]``). As the weights ``w_ℓ`` sum to one, both
    are ``1 + Σ_{ℓ≥2} w_ℓ f_ℓ`` with ``f_ℓ = expm1((ℓ−1)ε(ℓ))`` (plus
    ``2e^{(ℓ−1)ε(ℓ)}`` for ``ℓ ≥ 3`` in the general bound): no cancellation.
    """
    factors, largest = [mpmath.mpf(0)] * 2, mpmath.mpf(0)
    for ell in range(2, top + 1):
        exponent = (ell - 1) * mpmath.mpf(epsilons[ell])
        if exponent == mpmath.inf:
            factors.extend([mpmath.inf] * (top + 1 - ell))
            break
        largest = max(largest, exponent)
        factor = mpmath.expm1(exponent)
        if general and ell >= 3:
            factor += 2 * mpmath.exp(exponent)
        factors.append(factor)
    return TermFactors(factors, largest)


def poisson_log_moment_upper(factors: TermFactors, gamma: float, alpha: int) -> mpmath.mpf:
    """Upper bound on ``log A_α`` of the Poisson-subsampled mechanism (weights ``w_ℓ``)."""
    return factors.log_moment_upper(_binomial_weights(mpmath.mpf(gamma), alpha), alpha)


def without_replacement_factors(epsilons: Sequence[float], pure_epsilon: float, top: int, *,
                                chi_upper: Callable[[int], mpmath.mpf] | None = None,
                                chi_top: int = 0) -> TermFactors:
    r"""Factors of the without-replacement bound, for orders up to ``top`` (γ = m/n).

    Wang, Balle & Kasiviswanathan (AISTATS 2019), Thm 9, under replace-one:

    .. math:: A_α \le 1 + γ^2\binom{α}{2}\min\{4(e^{ε(2)}-1),\,
              e^{ε(2)}\min\{2, (e^{ε(∞)}-1)^2\}\}
              + \sum_{j=3}^{α} γ^j\binom{α}{j} e^{(j-1)ε(j)}\min\{2, (e^{ε(∞)}-1)^j\}.

    With ``chi_upper`` (an upper bound on the Pearson–Vajda moment
    ``E_q[(p/q − 1)^k]`` of the base's worst pair at even ``k``), the ``j``-th
    term for ``3 <= j <= chi_top`` is also bounded by
    ``4 √(χ_{2⌊j/2⌋} χ_{2⌈j/2⌉})`` (their Thm 27, for mechanisms such as the
    Gaussian whose one pair is worst for every Rényi and Pearson–Vajda divergence).
    """
    pure = mpmath.mpf(pure_epsilon)
    pure_excess = mpmath.expm1(pure) if pure != mpmath.inf else mpmath.inf
    e2 = mpmath.mpf(epsilons[2])
    if e2 == mpmath.inf:
        return TermFactors([mpmath.mpf(0)] * 2 + [mpmath.inf] * (top - 1), e2)
    factors = [mpmath.mpf(0), mpmath.mpf(0),
               min(4 * mpmath.expm1(e2), mpmath.exp(e2) * min(2, pure_excess ** 2))]
    largest = max(e2, mpmath.mpf(top))
    for j in range(3, top + 1):
        exponent = (j - 1) * mpmath.mpf(epsilons[j])
        term = mpmath.exp(exponent) * min(2, pure_excess ** j) if exponent != mpmath.inf else mpmath.inf
        if chi_upper is not None and j <= chi_top:
            term = min(term, 4 * mpmath.sqrt(chi_upper(2 * (j // 2)) * chi_upper(2 * ((j + 1) // 2))))
        if exponent != mpmath.inf:
            largest = max(largest, exponent)
        factors.append(term)
    return TermFactors(factors, largest)


def without_replacement_log_moment_upper(factors: TermFactors, gamma: float,
                                         alpha: int) -> mpmath.mpf:
    """Upper bound on ``log A_α`` of the subsampled mechanism (coefficients ``C(α, j) γ^j``)."""
    return factors.log_moment_upper(_binomial_powers(mpmath.mpf(gamma), alpha), alpha)


def gaussian_chi_moment_upper(inverse_variance: float, k_max: int) -> Callable[[int], mpmath.mpf]:
    """``k ↦`` upper bound on ``E_q[(p/q − 1)^k]``, ``p = N(1, σ²)``, ``q = N(0, σ²)``, even ``k ≤ k_max``.

    ``E_q[(p/q)^i] = e^{i(i−1)/(2σ²)}``, so the moment is the alternating sum
    ``χ_k = Σ_i C(k,i) (−1)^{k−i} e^{i(i−1)/(2σ²)}`` (the k-th forward
    difference of WBK 2019, Thm 27). ``inverse_variance = 1/σ²`` (an exact
    float; rounding it up only increases every ``χ_k``, an f-divergence that
    grows with the shift).
    """
    moments = _gaussian_chi_moments(inverse_variance, k_max + k_max % 2)
    return lambda k: moments[k]


@functools.lru_cache(maxsize=64)
def _gaussian_chi_moments(inverse_variance: float, k_max: int) -> tuple[mpmath.mpf, ...]:
    """Upper bounds on ``χ_k`` for ``k = 0..k_max`` (odd entries unused), with a bounded error.

    The exponentials come from one recurrence shared by all k
    (``e^{i(i−1)v/2} = e^{(i−1)(i−2)v/2} e^{(i−1)v}``), each with a relative
    error of at most ``4i + 10`` ulps, the binomials with at most ``2k`` more;
    the absolute error of ``χ_k`` is bounded by ``Σ|terms|`` times the total,
    and added. The precision is raised until that error is below 1e-12 of each
    even ``χ_k`` (or 20000 digits, where the
    rigorous but looser value is kept).
    """
    v = inverse_variance
    # digits lost to cancellation: log10(Σ|terms| / χ_k) ≲ k log10(2) + (k/2) log10(1/v) at small v
    dps = 30 + int(k_max * math.log10(2) + k_max / 2 * max(0.0, -math.log10(v)))
    while True:
        with mpmath.workdps(dps):
            powers, step, growth = [], mpmath.exp(mpmath.mpf(v)), mpmath.mpf(1)
            value = mpmath.mpf(1)
            for i in range(k_max + 1):          # value = e^{i(i−1)v/2}, growth = e^{iv}
                powers.append(value)
                value *= growth
                growth *= step
            moments, precise = [mpmath.mpf(1)], True
            for k in range(1, k_max + 1):
                if k % 2:
                    moments.append(mpmath.inf)       # odd moments are not used
                    continue
                binomials = [math.comb(k, i) for i in range(k + 1)]    # exact integers
                positive = mpmath.fsum(binomials[i] * powers[i] for i in range(0, k + 1, 2))
                negative = mpmath.fsum(binomials[i] * powers[i] for i in range(1, k + 1, 2))
                total = positive - negative
                error = (positive + negative) * _ULPS_PER_OPERATION * (6 * k + 20) * _ulp()
                precise = precise and total > 0 and error <= mpmath.mpf("1e-12") * total
                moments.append(max(total, 0) + error)
            if precise or dps > 20000:
                return tuple(+m for m in moments)
        dps *= 2
