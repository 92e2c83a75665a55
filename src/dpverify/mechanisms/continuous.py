"""Continuous noise mechanisms: exact privacy profiles of Laplace and Gaussian noise.

These are the closed-form hockey-stick divergences that every numerical
accountant in dpverify is tested against. They are evaluated in mpmath; the
profile objects round them up when they become floats.

Sampling from these laws with floating point is for simulation only (see
``dpverify.mechanisms.samplers`` for deployable integer samplers).
"""

from __future__ import annotations

from dataclasses import dataclass

import mpmath

from dpverify._numeric import working_precision
from dpverify._validation import check_positive
from dpverify.guarantees import PrivacyProfile

__all__ = [
    "Laplace",
    "Gaussian",
    "gaussian_delta",
    "gaussian_privacy_profile",
    "laplace_delta",
    "laplace_privacy_profile",
]

@dataclass(frozen=True, slots=True)
class Laplace:
    """Laplace noise with density ``exp(−|z|/scale) / (2 scale)``.

    Continuous: sampling it with floating point is for simulation only.
    """

    scale: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "scale", check_positive(self.scale, "scale"))


@dataclass(frozen=True, slots=True)
class Gaussian:
    """Gaussian noise N(0, sigma²).

    Continuous: sampling it with floating point is for simulation only.
    """

    sigma: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "sigma", check_positive(self.sigma, "sigma"))


#: Significant digits that must survive the cancellation in the Gaussian profile.
_KEPT_DIGITS = 25


def gaussian_delta(mu: mpmath.mpf | float, epsilon: mpmath.mpf | float) -> mpmath.mpf:
    """Exact δ(ε) of the Gaussian mechanism with ``mu = sensitivity / sigma``.

    .. math::

        δ(ε) = Φ\\left(\\frac{μ}{2} - \\frac{ε}{μ}\\right)
              - e^{ε}\\, Φ\\left(-\\frac{μ}{2} - \\frac{ε}{μ}\\right)

    (Balle & Wang 2018, Thm. 8; the privacy loss is N(μ²/2, μ²)). The
    difference is evaluated in mpmath, raising the precision until at least 25
    significant digits survive the cancellation, so the result has relative
    error below 1e-20.

    >>> float(gaussian_delta(1.0, 0.0))  # 2Φ(1/2) − 1
    0.3829249225480262
    """
    with working_precision():
        mu, epsilon = mpmath.mpf(mu), mpmath.mpf(epsilon)
        dps = mpmath.mp.dps
        while True:
            with mpmath.workdps(dps):
                first = mpmath.ncdf(mu / 2 - epsilon / mu)
                value = first - mpmath.exp(epsilon) * mpmath.ncdf(-mu / 2 - epsilon / mu)
                if value > first * mpmath.mpf(10) ** (_KEPT_DIGITS - dps):
                    return +value
            dps *= 2


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


def laplace_delta(epsilon_0: mpmath.mpf | float, epsilon: mpmath.mpf | float) -> mpmath.mpf:
    """Exact δ(ε) of the Laplace mechanism with ``epsilon_0 = sensitivity / scale``.

    .. math:: δ(ε) = \\max\\left(0,\\; 1 - e^{(ε - ε_0)/2}\\right)

    Derivation: under x ~ Lap(0, b) versus Lap(Δ, b) the privacy loss has an
    atom ½ at ε0, an atom e^{−ε0}/2 at −ε0 and density e^{(l−ε0)/2}/4 on
    (−ε0, ε0); integrating (1 − e^{ε−l})₊ gives the formula.

    >>> float(laplace_delta(1.0, 1.0))
    0.0
    """
    with working_precision():
        epsilon_0, epsilon = mpmath.mpf(epsilon_0), mpmath.mpf(epsilon)
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
