"""Integer-valued noise mechanisms: exact laws.

Each class is a frozen value holding the parameters of a noise law on the
integers; the mechanism adds a draw of it to an integer query. The classes
hold no RNG (samplers live in :mod:`dpverify.mechanisms.samplers`) and know no
accountant (maps live in :mod:`dpverify.mechanisms._noise_maps`).

Laws are laws **of the noise**; ``law_on(x)`` returns the output law
``x + noise`` of the mechanism on the integer query value ``x``
(:class:`ShiftedLaw`). Every law follows the ``DiscreteLaw`` protocol:

* ``pmf(k)``, ``logpmf(k)``, ``cdf(k) = P[X <= k]``, ``sf(k) = P[X > k]``
  (scipy's convention), exact: :class:`fractions.Fraction` where the law is
  rational (``BinomialNoise``), otherwise mpmath numbers at the working
  precision (:func:`dpverify._numeric.working_precision`, 50 digits). Any real
  ``k`` is accepted (the pmf of a non-integer is 0; the cdf steps at integers).
* Infinite series (normalising constants, tails, the Pólya-difference pmf) are
  summed until a **rigorous** bound on the remainder is below
  ``TAIL_TOLERANCE`` times the partial sum; with the mpmath rounding this makes
  every value correct to :data:`SERIES_RELATIVE_ERROR` relative.
* ``mean()``/``variance()`` exact, ``support()`` as ``(low, high)`` with
  ``None`` for an unbounded side, and ``pmf_array(ks)`` in floats (numpy/scipy)
  for goodness-of-fit tests.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np
from scipy import special

from dpverify._deprecation import renamed_parameters
from dpverify._numeric import working_precision
from dpverify._validation import (
    check_positive,
    check_positive_int,
    check_probability,
    value_error,
)
from dpverify.mechanisms._discrete_series import (
    TAIL_TOLERANCE,
    _as_rational,
    _gaussian_series,
    _integer_or_none,
    _log,
    _polya_difference_pmf,
    _skellam_weights,
    _symmetric_cdf,
    _symmetric_sf,
    discrete_gaussian_normaliser,
)

__all__ = [
    "DiscreteLaplace",
    "DiscreteGaussian",
    "Skellam",
    "PolyaDifference",
    "BinomialNoise",
    "ShiftedLaw",
    "SERIES_RELATIVE_ERROR",
    "discrete_gaussian_normaliser",
]

#: Relative error of every series-based value (truncation plus 50-digit rounding, with margin).
SERIES_RELATIVE_ERROR = 1e-30


def _integer_query(x: Any) -> int:
    point = _as_rational(x, "x")
    if point.denominator != 1:
        raise _not_integer("x", x)
    return int(point)


def _not_integer(name: str, value: Any) -> ValueError:
    return value_error(name, value, "an integer", "integer noise is added to integer-valued queries")


@dataclass(frozen=True, slots=True)
class ShiftedLaw:
    """The law of ``shift + noise``: the output law of an additive mechanism on input ``shift``.

    >>> law = DiscreteLaplace(scale=1.0).law_on(3)
    >>> law.pmf(3) == DiscreteLaplace(scale=1.0).pmf(0)
    True
    """

    noise: Any
    shift: int

    @renamed_parameters(k="outcome")
    def pmf(self, outcome: Any) -> Any:
        return self.noise.pmf(_as_rational(outcome) - self.shift)

    @renamed_parameters(k="outcome")
    def logpmf(self, outcome: Any) -> Any:
        return self.noise.logpmf(_as_rational(outcome) - self.shift)

    @renamed_parameters(k="outcome")
    def cdf(self, outcome: Any) -> Any:
        return self.noise.cdf(_as_rational(outcome) - self.shift)

    @renamed_parameters(k="outcome")
    def sf(self, outcome: Any) -> Any:
        return self.noise.sf(_as_rational(outcome) - self.shift)

    def support(self) -> tuple[Any, Any]:
        low, high = self.noise.support()
        return (None if low is None else low + self.shift, None if high is None else high + self.shift)

    def mean(self) -> Any:
        return self.noise.mean() + self.shift

    def variance(self) -> Any:
        return self.noise.variance()

    @renamed_parameters(ks="outcomes")
    def pmf_array(self, outcomes: np.ndarray) -> np.ndarray:
        return self.noise.pmf_array(np.asarray(outcomes, dtype=float) - self.shift)


class _IntegerNoise:
    """Shared methods of the additive integer-noise laws (``law_on``, ``logpmf``)."""

    __slots__ = ()

    def law_on(self, x: Any) -> ShiftedLaw:
        """Output law ``x + noise`` of the mechanism on the integer query value ``x``."""
        return ShiftedLaw(self, _integer_query(x))

    @renamed_parameters(k="outcome")
    def logpmf(self, outcome: Any) -> mpmath.mpf:
        """``log pmf(k)`` (``-inf`` off the support)."""
        return _log(self.pmf(outcome))


class _SymmetricIntegerNoise(_IntegerNoise):
    """Shared methods of the laws symmetric about 0 (on all of Z unless ``support`` says otherwise).

    Subclasses provide ``_upper_tail(k) = P[X > k]`` for ``k >= 0`` (exact);
    the cdf and sf of negative points follow by symmetry.
    """

    __slots__ = ()

    @renamed_parameters(k="outcome")
    def cdf(self, outcome: Any) -> mpmath.mpf:
        """``P[X <= k]`` (exact, mpmath)."""
        with working_precision():
            return _symmetric_cdf(self._upper_tail, outcome)

    @renamed_parameters(k="outcome")
    def sf(self, outcome: Any) -> mpmath.mpf:
        """``P[X > k] = 1 − cdf(k)`` (exact, mpmath)."""
        with working_precision():
            return _symmetric_sf(self._upper_tail, outcome)

    def support(self) -> tuple[None, None]:
        return (None, None)

    def mean(self) -> Fraction:
        return Fraction(0)


# --------------------------------------------------------------------------- discrete Laplace


@dataclass(frozen=True, slots=True)
class DiscreteLaplace(_SymmetricIntegerNoise):
    """Discrete Laplace noise: ``P[k] ∝ exp(−|k| / scale)`` on the integers.

    Canonne, Kamath & Steinke 2020, Def. 29 (parameter t = ``scale``); the
    difference of two i.i.d. geometric variables with ratio ``exp(−1/scale)``.

    .. math:: P[k] = \\frac{1-β}{1+β} β^{|k|}, \\qquad β = e^{-1/t}

    >>> law = DiscreteLaplace(scale=2.0)
    >>> float(law.pmf(0)) == float(mpmath.tanh(0.25))
    True
    >>> float(law.cdf(-1) + law.sf(-1))
    1.0
    """

    scale: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "scale", check_positive(self.scale, "scale"))

    def _beta(self) -> mpmath.mpf:
        return mpmath.exp(-1 / mpmath.mpf(self.scale))

    @renamed_parameters(k="outcome")
    def pmf(self, outcome: Any) -> mpmath.mpf:
        """Exact ``P[X = k] = tanh(1/(2t)) e^{−|k|/t}``."""
        point = _integer_or_none(outcome)
        with working_precision():
            if point is None:
                return mpmath.mpf(0)
            return mpmath.tanh(1 / (2 * mpmath.mpf(self.scale))) * self._beta() ** abs(point)

    @renamed_parameters(k="outcome")
    def logpmf(self, outcome: Any) -> mpmath.mpf:
        point = _integer_or_none(outcome)
        with working_precision():
            if point is None:
                return mpmath.ninf
            scale = mpmath.mpf(self.scale)
            return mpmath.log(mpmath.tanh(1 / (2 * scale))) - abs(point) / scale

    def _upper_tail(self, a: int) -> mpmath.mpf:
        with working_precision():
            beta = self._beta()
            return beta ** a / (1 + beta)

    def variance(self) -> mpmath.mpf:
        """Exact ``2β / (1 − β)²``."""
        with working_precision():
            beta = self._beta()
            return 2 * beta / mpmath.expm1(-1 / mpmath.mpf(self.scale)) ** 2

    @renamed_parameters(ks="outcomes")
    def pmf_array(self, outcomes: np.ndarray) -> np.ndarray:
        """Float pmf at ``outcomes`` (``scipy.stats.dlaplace``; 0 at non-integers)."""
        from scipy import stats  # deferred: scipy.stats takes a second to load; only float pmfs need it

        outcomes = np.asarray(outcomes, dtype=float)
        return np.where(outcomes == np.round(outcomes),
                        stats.dlaplace.pmf(np.round(outcomes), 1 / self.scale), 0.0)


# --------------------------------------------------------------------------- discrete Gaussian


@dataclass(frozen=True, slots=True)
class DiscreteGaussian(_SymmetricIntegerNoise):
    """Discrete Gaussian noise: ``P[k] ∝ exp(−k² / (2 sigma²))`` on the integers.

    Canonne, Kamath & Steinke 2020, Def. 1 (``sigma`` is the parameter σ, not
    the standard deviation, which is slightly smaller).

    .. math:: P[k] = e^{-k^2/(2σ^2)} / Z, \\qquad Z = \\sum_{j ∈ ℤ} e^{-j^2/(2σ^2)}

    Series values are correct to :data:`SERIES_RELATIVE_ERROR` relative.

    >>> law = DiscreteGaussian(sigma=1.0)
    >>> round(float(law.pmf(0)), 12)  # 1/Z, Z = √(2π)(1 + 2e^{−2π²} + …)
    0.398942278267
    >>> float(law.variance()) < 1.0
    True
    """

    sigma: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "sigma", check_positive(self.sigma, "sigma"))

    def _a(self) -> mpmath.mpf:
        return 1 / (2 * mpmath.mpf(self.sigma) ** 2)

    @renamed_parameters(k="outcome")
    def pmf(self, outcome: Any) -> mpmath.mpf:
        point = _integer_or_none(outcome)
        with working_precision():
            if point is None:
                return mpmath.mpf(0)
            return mpmath.exp(-self._a() * point * point) / discrete_gaussian_normaliser(self.sigma)

    @renamed_parameters(k="outcome")
    def logpmf(self, outcome: Any) -> mpmath.mpf:
        point = _integer_or_none(outcome)
        with working_precision():
            if point is None:
                return mpmath.ninf
            return -self._a() * point * point - mpmath.log(discrete_gaussian_normaliser(self.sigma))

    def _upper_tail(self, a: int) -> mpmath.mpf:
        return _gaussian_series(self._a(), a) / discrete_gaussian_normaliser(self.sigma)

    def variance(self) -> mpmath.mpf:
        """``Σ k² e^{−k²/(2σ²)} / Z`` (< σ², CKS 2020 Prop. 19).

        Remainder after ``K >= 1/√a``: ``∫_K^∞ x² e^{−a x²} dx
        = K e^{−aK²}/(2a) + √π erfc(K√a)/(4 a^{3/2})`` (decreasing summand).
        """
        with working_precision():
            a, total, k = self._a(), mpmath.mpf(0), 1
            while True:
                total += k * k * mpmath.exp(-a * k * k)
                if k * k * a >= 1 and k % 8 == 0:
                    remainder = (k * mpmath.exp(-a * k * k) / (2 * a)
                                 + mpmath.sqrt(mpmath.pi) * mpmath.erfc(k * mpmath.sqrt(a)) / (4 * a ** 1.5))
                    if remainder <= TAIL_TOLERANCE * total:
                        return 2 * total / discrete_gaussian_normaliser(self.sigma)
                k += 1

    @renamed_parameters(ks="outcomes")
    def pmf_array(self, outcomes: np.ndarray) -> np.ndarray:
        outcomes = np.asarray(outcomes, dtype=float)
        values = (np.exp(-outcomes ** 2 / (2 * self.sigma ** 2))
                  / float(discrete_gaussian_normaliser(self.sigma)))
        return np.where(outcomes == np.round(outcomes), values, 0.0)


# --------------------------------------------------------------------------- Skellam


@dataclass(frozen=True, slots=True)
class Skellam(_SymmetricIntegerNoise):
    """Skellam noise: the difference of two i.i.d. Poisson(``mu``) variables (variance 2·mu).

    Agarwal, Kairouz & Liu 2021 (the Skellam mechanism); Chowdhury & Zhou 2023, Thm 2.

    .. math:: P[k] = e^{-2μ} I_{|k|}(2μ)

    (``I`` the modified Bessel function of the first kind, in mpmath).

    >>> law = Skellam(mu=2.0)
    >>> abs(law.pmf(1) - mpmath.exp(-4) * mpmath.besseli(1, 4)) < 1e-15
    True
    >>> law.variance()
    Fraction(4, 1)
    """

    mu: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "mu", check_positive(self.mu, "mu"))

    @renamed_parameters(k="outcome")
    def pmf(self, outcome: Any) -> mpmath.mpf:
        point = _integer_or_none(outcome)
        with working_precision():
            if point is None:
                return mpmath.mpf(0)
            x = 2 * mpmath.mpf(self.mu)
            return mpmath.exp(-x) * mpmath.besseli(abs(point), x)

    def _upper_tail(self, a: int) -> mpmath.mpf:
        """``P[X >= a]`` for a >= 1; remainder after K (K + 1 > 2μ): pmf(K)·r/(1 − r), r = μ/(K+1).

        The ratio bound ``I_{ν+1}(x)/I_ν(x) <= x/(2(ν+1))`` follows termwise from
        the power series of ``I``.
        """
        mu = mpmath.mpf(self.mu)
        high = max(a, math.ceil(2 * self.mu)) + math.ceil(12 * math.sqrt(2 * self.mu + 1)) + 40
        while True:
            weights = _skellam_weights(mu, a, high)
            total, ratio = mpmath.fsum(weights), mu / (high + 1)
            if weights[-1] * ratio / (1 - ratio) <= TAIL_TOLERANCE * total:
                return total
            high *= 2

    def variance(self) -> Fraction:
        """Exact ``2 mu``."""
        return 2 * _as_rational(self.mu)

    @renamed_parameters(ks="outcomes")
    def pmf_array(self, outcomes: np.ndarray) -> np.ndarray:
        """Float pmf ``scipy.special.ive(|k|, 2μ)`` (0 at non-integers)."""
        outcomes = np.asarray(outcomes, dtype=float)
        return np.where(outcomes == np.round(outcomes),
                        special.ive(np.abs(np.round(outcomes)), 2 * self.mu), 0.0)


# --------------------------------------------------------------------------- Pólya difference


@dataclass(frozen=True, slots=True)
class PolyaDifference(_SymmetricIntegerNoise):
    """One user's share of distributed discrete Laplace noise (Chowdhury & Zhou 2023, Thm 1).

    The law of ``γ⁺ − γ⁻`` with ``γ±`` i.i.d. Pólya(r = 1/``shares``,
    β = exp(−1/``scale``)); the sum of ``shares`` i.i.d. copies is exactly
    ``DiscreteLaplace(scale)`` (Goryczka & Xiong 2015, Thm 5.1). Pólya(r, β)
    is the Poisson–Gamma mixture with Gamma shape r and **scale β/(1 − β)**
    (Chowdhury & Zhou, footnote 3; the authors' public code inverts this scale),
    i.e. the negative binomial ``p(j) = (r)_j/j! β^j (1 − β)^r``.

    >>> share = PolyaDifference(shares=4, scale=2.0)
    >>> mpmath.almosteq(4 * share.variance(), DiscreteLaplace(2.0).variance(), 1e-14)
    True
    """

    shares: int
    scale: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "shares", check_positive_int(self.shares, "shares"))
        object.__setattr__(self, "scale", check_positive(self.scale, "scale"))

    def _parameters(self) -> tuple[mpmath.mpf, mpmath.mpf]:
        return mpmath.mpf(1) / self.shares, mpmath.exp(-1 / mpmath.mpf(self.scale))

    @renamed_parameters(k="outcome")
    def pmf(self, outcome: Any) -> mpmath.mpf:
        """Exact series (see :func:`_polya_difference_pmf`), correct to ``SERIES_RELATIVE_ERROR``."""
        point = _integer_or_none(outcome)
        with working_precision():
            if point is None:
                return mpmath.mpf(0)
            return _polya_difference_pmf(*self._parameters(), abs(point))

    def _upper_tail(self, a: int) -> mpmath.mpf:
        """``P[D >= a]``, a >= 1; remainder ``P[D > K] <= P[γ⁺ > K] <= p(K) β/(1 − β)``."""
        r, beta = self._parameters()
        polya = (1 - beta) ** r * mpmath.rf(r, a) / mpmath.factorial(a) * beta ** a  # p(a)
        total, k = mpmath.mpf(0), a
        while True:
            total += _polya_difference_pmf(r, beta, k)
            if polya * beta / (1 - beta) <= TAIL_TOLERANCE * total:
                return total
            polya *= beta * (k + r) / (k + 1)
            k += 1

    def variance(self) -> mpmath.mpf:
        """Exact ``2 r β / (1 − β)²`` (twice the Pólya variance)."""
        with working_precision():
            r, beta = self._parameters()
            return 2 * r * beta / mpmath.expm1(-1 / mpmath.mpf(self.scale)) ** 2

    @renamed_parameters(ks="outcomes")
    def pmf_array(self, outcomes: np.ndarray) -> np.ndarray:
        """Float pmf: autocorrelation of the negative-binomial pmf (scipy), truncated at 1e-18."""
        from scipy import stats  # deferred: scipy.stats takes a second to load; only float pmfs need it

        outcomes = np.asarray(outcomes, dtype=float)
        beta = math.exp(-1 / self.scale)
        high = int(stats.nbinom.isf(1e-18, 1 / self.shares, 1 - beta)) + 2
        polya = stats.nbinom.pmf(np.arange(high + 1), 1 / self.shares, 1 - beta)
        lags = np.correlate(polya, polya, mode="full")[high:]  # lags[k] = Σ_j p(j+k) p(j)
        index = np.abs(np.round(outcomes)).astype(np.int64)
        inside = (outcomes == np.round(outcomes)) & (index <= high)
        return np.where(inside, lags[np.minimum(index, high)], 0.0)


# --------------------------------------------------------------------------- binomial


@dataclass(frozen=True, slots=True)
class BinomialNoise(_IntegerNoise):
    """Centred binomial noise: ``Bin(trials, probability) − trials·probability``.

    Integer-valued when ``trials·probability`` is an integer (``probability``
    = 1/2 with even ``trials``: the binomial mechanism of Agarwal et al. 2018
    and Dwork et al. 2006's "our data, ourselves"). The law is exact in
    rationals (the float ``probability`` is taken as the dyadic rational it
    is); its atoms sit at ``j − trials·probability``, j = 0..trials.

    >>> law = BinomialNoise(trials=4)
    >>> law.pmf(0), law.cdf(0), law.support()
    (Fraction(3, 8), Fraction(11, 16), (-2, 2))
    """

    trials: int
    probability: float = 0.5

    def __post_init__(self) -> None:
        object.__setattr__(self, "trials", check_positive_int(self.trials, "trials"))
        object.__setattr__(self, "probability",
                           check_probability(self.probability, "probability", open_low=True,
                                             open_high=True))

    def _offset(self) -> Fraction:
        return self.trials * Fraction(self.probability)

    def _count_pmf(self, j: int) -> Fraction:
        if not 0 <= j <= self.trials:
            return Fraction(0)
        p = Fraction(self.probability)
        return math.comb(self.trials, j) * p ** j * (1 - p) ** (self.trials - j)

    @renamed_parameters(k="outcome")
    def pmf(self, outcome: Any) -> Fraction:
        count = _as_rational(outcome) + self._offset()
        return self._count_pmf(int(count)) if count.denominator == 1 else Fraction(0)

    @renamed_parameters(k="outcome")
    def cdf(self, outcome: Any) -> Fraction:
        top = min(math.floor(_as_rational(outcome) + self._offset()), self.trials)
        return sum((self._count_pmf(j) for j in range(top + 1)), Fraction(0))

    @renamed_parameters(k="outcome")
    def sf(self, outcome: Any) -> Fraction:
        return 1 - self.cdf(outcome)

    def support(self) -> tuple[Any, Any]:
        low = -self._offset()
        low = int(low) if low.denominator == 1 else low
        return (low, low + self.trials)

    def mean(self) -> Fraction:
        return Fraction(0)

    def variance(self) -> Fraction:
        p = Fraction(self.probability)
        return self.trials * p * (1 - p)

    @renamed_parameters(ks="outcomes")
    def pmf_array(self, outcomes: np.ndarray) -> np.ndarray:
        from scipy import stats  # deferred: scipy.stats takes a second to load; only float pmfs need it

        counts = np.asarray(outcomes, dtype=float) + float(self._offset())
        values = stats.binom.pmf(np.round(counts), self.trials, self.probability)
        return np.where(np.isclose(counts, np.round(counts), rtol=0, atol=1e-9), values, 0.0)
