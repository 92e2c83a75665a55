"""Continuous noise mechanisms: exact privacy profiles of Laplace and Gaussian noise.

These are the closed-form hockey-stick divergences that every numerical
accountant in dpverify is tested against. They are evaluated in mpmath; the
profile objects round them up when they become floats.

Sampling from these laws with floating point is for simulation only (see
``dpverify.mechanisms.samplers`` for deployable integer samplers).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from dpverify._deprecation import renamed_parameters
from dpverify._numeric import working_precision
from dpverify._validation import check_finite, check_mp_real, check_positive, value_error
from dpverify.guarantees import PrivacyProfile

__all__ = [
    "Laplace",
    "Gaussian",
    "ShiftedDensity",
    "gaussian_delta",
    "gaussian_privacy_profile",
    "laplace_delta",
    "laplace_privacy_profile",
]

def _mp(x: Any, name: str = "x") -> mpmath.mpf:
    if isinstance(x, Fraction):
        return mpmath.mpf(x.numerator) / x.denominator
    if isinstance(x, mpmath.mpf):
        return x
    return mpmath.mpf(check_finite(x, name))


@dataclass(frozen=True, slots=True)
class ShiftedDensity:
    """The law of ``shift + noise``: the output law of an additive mechanism on input ``shift``.

    >>> law = Laplace(scale=1.0).law_on(2.0)
    >>> float(law.cdf(2.0))
    0.5
    """

    noise: Any
    shift: float

    @renamed_parameters(x="outcome")
    def pdf(self, outcome: Any) -> mpmath.mpf:
        return self.noise.pdf(_mp(outcome, "outcome") - self.shift)

    @renamed_parameters(x="outcome")
    def logpdf(self, outcome: Any) -> mpmath.mpf:
        return self.noise.logpdf(_mp(outcome, "outcome") - self.shift)

    @renamed_parameters(x="outcome")
    def cdf(self, outcome: Any) -> mpmath.mpf:
        return self.noise.cdf(_mp(outcome, "outcome") - self.shift)

    @renamed_parameters(x="outcome")
    def sf(self, outcome: Any) -> mpmath.mpf:
        return self.noise.sf(_mp(outcome, "outcome") - self.shift)

    def mean(self) -> Fraction:
        return self.noise.mean() + Fraction(self.shift)

    def variance(self) -> Fraction:
        return self.noise.variance()

    @renamed_parameters(xs="outcomes")
    def pdf_array(self, outcomes: np.ndarray) -> np.ndarray:
        return self.noise.pdf_array(np.asarray(outcomes, dtype=float) - self.shift)


class _ContinuousNoise:
    """Shared methods of the additive continuous noise laws."""

    __slots__ = ()

    def law_on(self, x: Any) -> ShiftedDensity:
        """Output law ``x + noise`` of the mechanism on the (finite, real) query value ``x``."""
        return ShiftedDensity(self, check_finite(x, "x"))

    def mean(self) -> Fraction:
        return Fraction(0)


@dataclass(frozen=True, slots=True)
class Laplace(_ContinuousNoise):
    """Laplace noise with density ``exp(−|z|/scale) / (2 scale)``.

    Continuous: sampling it with floating point is for simulation only. The
    law methods (``pdf``, ``logpdf``, ``cdf``, ``sf = 1 − cdf``) are exact in
    mpmath at the working precision; ``variance()`` is the exact rational
    ``2 scale²``.

    >>> law = Laplace(scale=2.0)
    >>> float(law.pdf(0.0)), float(law.cdf(0.0)), law.variance()
    (0.25, 0.5, Fraction(8, 1))
    """

    scale: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "scale", check_positive(self.scale, "scale"))

    @renamed_parameters(x="outcome")
    def pdf(self, outcome: Any) -> mpmath.mpf:
        with working_precision():
            return mpmath.exp(self.logpdf(outcome))

    @renamed_parameters(x="outcome")
    def logpdf(self, outcome: Any) -> mpmath.mpf:
        with working_precision():
            scale = mpmath.mpf(self.scale)
            return -abs(_mp(outcome, "outcome")) / scale - mpmath.log(2 * scale)

    @renamed_parameters(x="outcome")
    def cdf(self, outcome: Any) -> mpmath.mpf:
        with working_precision():
            z = _mp(outcome, "outcome") / self.scale
            return mpmath.exp(z) / 2 if z < 0 else 1 - mpmath.exp(-z) / 2

    @renamed_parameters(x="outcome")
    def sf(self, outcome: Any) -> mpmath.mpf:
        with working_precision():
            return self.cdf(-_mp(outcome, "outcome"))

    def variance(self) -> Fraction:
        return 2 * Fraction(self.scale) ** 2

    @renamed_parameters(xs="outcomes")
    def pdf_array(self, outcomes: np.ndarray) -> np.ndarray:
        from scipy import stats  # deferred: scipy.stats takes a second to load; only density arrays need it

        return stats.laplace.pdf(np.asarray(outcomes, dtype=float), scale=self.scale)


@dataclass(frozen=True, slots=True)
class Gaussian(_ContinuousNoise):
    """Gaussian noise N(0, sigma²).

    Continuous: sampling it with floating point is for simulation only. The
    law methods are exact in mpmath (``mpmath.ncdf`` for the tails, so ``sf``
    keeps its relative precision far out); ``variance()`` is ``sigma²``.

    >>> law = Gaussian(sigma=1.0)
    >>> round(float(law.pdf(0.0)), 12), float(law.cdf(0.0)), law.variance()
    (0.398942280401, 0.5, Fraction(1, 1))
    """

    sigma: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "sigma", check_positive(self.sigma, "sigma"))

    @renamed_parameters(x="outcome")
    def pdf(self, outcome: Any) -> mpmath.mpf:
        with working_precision():
            return mpmath.npdf(_mp(outcome, "outcome"), 0, self.sigma)

    @renamed_parameters(x="outcome")
    def logpdf(self, outcome: Any) -> mpmath.mpf:
        with working_precision():
            sigma = mpmath.mpf(self.sigma)
            return (-_mp(outcome, "outcome") ** 2 / (2 * sigma ** 2)
                    - mpmath.log(sigma * mpmath.sqrt(2 * mpmath.pi)))

    @renamed_parameters(x="outcome")
    def cdf(self, outcome: Any) -> mpmath.mpf:
        with working_precision():
            return mpmath.ncdf(_mp(outcome, "outcome"), 0, self.sigma)

    @renamed_parameters(x="outcome")
    def sf(self, outcome: Any) -> mpmath.mpf:
        with working_precision():
            return mpmath.ncdf(-_mp(outcome, "outcome"), 0, self.sigma)

    def variance(self) -> Fraction:
        return Fraction(self.sigma) ** 2

    @renamed_parameters(xs="outcomes")
    def pdf_array(self, outcomes: np.ndarray) -> np.ndarray:
        from scipy import stats  # deferred: scipy.stats takes a second to load; only density arrays need it

        return stats.norm.pdf(np.asarray(outcomes, dtype=float), scale=self.sigma)


#: Significant digits that must survive the cancellation in the Gaussian profile.
_KEPT_DIGITS = 25


MAX_GAUSSIAN_DELTA_DPS = 20_000
"""Precision cap (decimal digits) of :func:`gaussian_delta`'s cancellation-free evaluation."""
_MAX_NORMAL_ARGUMENT = 1e100  # mpmath's erfc overflows a float exponent estimate near 1e154


def gaussian_delta(mu: mpmath.mpf | float, epsilon: mpmath.mpf | float) -> mpmath.mpf:
    """Exact δ(ε) of the Gaussian mechanism with ``mu = sensitivity / sigma``.

    .. math::

        δ(ε) = Φ\\left(\\frac{μ}{2} - \\frac{ε}{μ}\\right)
              - e^{ε}\\, Φ\\left(-\\frac{μ}{2} - \\frac{ε}{μ}\\right)

    (Balle & Wang 2018, Thm. 8; the privacy loss is N(μ²/2, μ²)). The
    difference is evaluated in mpmath, raising the precision until at least 25
    significant digits survive the cancellation, so the result has relative
    error below 1e-20.

    ``mu`` must be in (0, inf) and ``epsilon`` real or +inf (δ(inf) = 0). The
    precision doubles at most until :data:`MAX_GAUSSIAN_DELTA_DPS` digits; a
    pair whose δ cannot be resolved there is refused naming both parameters.

    >>> float(gaussian_delta(1.0, 0.0))  # 2Φ(1/2) − 1
    0.3829249225480262
    """
    mu = check_mp_real(mu, "mu", low=0, low_closed=False)
    epsilon = check_mp_real(epsilon, "epsilon", allow_inf=True)
    if mpmath.isinf(epsilon):
        return mpmath.mpf(0)
    if mu > _MAX_NORMAL_ARGUMENT:
        raise value_error("mu", mu, f"at most {_MAX_NORMAL_ARGUMENT:g}",
                          "beyond it δ(ε) = 1 to any float precision for ε < mu²/2")
    if abs(epsilon) / mu > _MAX_NORMAL_ARGUMENT:
        raise value_error("epsilon", epsilon, f"at most {_MAX_NORMAL_ARGUMENT:g}·mu in absolute value (mu={mu})",
                          "beyond it δ(ε) < 1e-10^199, far below any float")
    with working_precision():
        dps = mpmath.mp.dps
        while dps <= MAX_GAUSSIAN_DELTA_DPS:
            with mpmath.workdps(dps):
                first = mpmath.ncdf(mu / 2 - epsilon / mu)
                value = first - mpmath.exp(epsilon) * mpmath.ncdf(-mu / 2 - epsilon / mu)
                if value > first * mpmath.mpf(10) ** (_KEPT_DIGITS - dps):
                    return +value
            dps *= 2
    raise value_error("epsilon", epsilon, f"small enough that δ(ε) of mu={mu} survives the "
                      f"cancellation within {MAX_GAUSSIAN_DELTA_DPS} digits",
                      "δ is below 1e-10000 here; use a smaller epsilon or a larger mu")


def gaussian_privacy_profile(sigma: float, *, sensitivity: float = 1.0) -> PrivacyProfile:
    """Exact privacy profile of ``f(x) + N(0, sigma²)`` for an ℓ2-sensitivity-``sensitivity`` f.

    Soundness: exact (δ rounded up when converted to a float); holds for any
    neighbouring relation under which ``f`` has ℓ2 sensitivity ``sensitivity``.

    >>> round(gaussian_privacy_profile(1.0).epsilon_for_delta(1e-5), 6)
    4.377178
    """
    sigma = check_positive(sigma, "sigma")
    sensitivity = check_positive(sensitivity, "sensitivity")
    mu = sensitivity / sigma
    return PrivacyProfile(
        lambda epsilon: gaussian_delta(mu, epsilon),
        description=f"Gaussian(sigma={sigma!r}, sensitivity={sensitivity!r})",
        relative_error=1e-18,
    )


@renamed_parameters(epsilon_0="pure_epsilon")
def laplace_delta(pure_epsilon: mpmath.mpf | float, epsilon: mpmath.mpf | float) -> mpmath.mpf:
    """Exact δ(ε) of the Laplace mechanism with pure ε0 = ``pure_epsilon = sensitivity / scale``.

    .. math:: δ(ε) = \\max\\left(0,\\; 1 - e^{(ε - ε_0)/2}\\right)

    Derivation: under x ~ Lap(0, b) versus Lap(Δ, b) the privacy loss has an
    atom ½ at ε0, an atom e^{−ε0}/2 at −ε0 and density e^{(l−ε0)/2}/4 on
    (−ε0, ε0); integrating (1 − e^{ε−l})₊ gives the formula.

    ``pure_epsilon`` must be in (0, inf) and ``epsilon`` real or +inf.

    >>> float(laplace_delta(1.0, 1.0))
    0.0
    """
    epsilon_0 = check_mp_real(pure_epsilon, "pure_epsilon", low=0, low_closed=False)
    epsilon = check_mp_real(epsilon, "epsilon", allow_inf=True)
    with working_precision():
        if epsilon >= epsilon_0:
            return mpmath.mpf(0)
        return -mpmath.expm1((epsilon - epsilon_0) / 2)


def laplace_privacy_profile(scale: float, *, sensitivity: float = 1.0) -> PrivacyProfile:
    """Exact privacy profile of ``f(x) + Lap(scale)`` for an ℓ1-sensitivity-``sensitivity`` f.

    Soundness: exact for scalar ``f``; δ rounded up when converted to a float.

    >>> laplace_privacy_profile(1.0).delta_for_epsilon(1.0)
    0.0
    """
    scale = check_positive(scale, "scale")
    sensitivity = check_positive(sensitivity, "sensitivity")
    epsilon_0 = sensitivity / scale
    return PrivacyProfile(
        lambda epsilon: laplace_delta(epsilon_0, epsilon),
        description=f"Laplace(scale={scale!r}, sensitivity={sensitivity!r})",
        relative_error=1e-40,
    )
