"""The truncated discrete Gaussian mechanism: exact law, exact privacy profile and privacy maps.

The noise is the discrete Gaussian of parameter σ (Canonne, Kamath & Steinke
2020, Def. 1) *conditioned* on ``|k| <= B`` — what a sampler that rejects draws
outside ``[−B, B]`` releases, and the bounded noise CKS 2020 §6 discuss for
finite-precision deployments (OpenDP's discrete Gaussian is untruncated):

.. math:: P[k] = e^{-k^2/(2σ^2)} / Z_B \\quad (|k| <= B), \\qquad
          Z_B = \\sum_{|j| <= B} e^{-j^2/(2σ^2)}.

The mechanism adds it to an integer-valued query ``f`` whose values on
neighbouring datasets (any relation: the guarantee holds for the relation under
which ``|f(x) − f(x')| <= Δ``) differ by at most the integer sensitivity Δ.

**Privacy.** For a shift d the pair ``(P, P(· − d))`` has loss
``(d² − 2kd)/(2σ²)`` on the common support and ``+∞`` on the d outputs
``k ∈ [−B, −B + d − 1]`` that the shifted law cannot produce: the truncated
mechanism is **not** pure DP, and not zCDP; its exact profile

.. math:: δ(ε) = \\sum_{k=-B}^{-B+Δ-1} P[k]
          + \\sum_{k >= Δ-B} \\big(P[k] − e^{ε} P[k − Δ]\\big)_+

counts the infinite-loss mass ``δ(∞) = P[k < Δ − B]`` in full. The shift d = Δ
is the worst: the pmf is log-concave, so ``P(k − d)/P(k)`` increases in k
(monotone likelihood ratio), Neyman–Pearson tests are thresholds, and a
threshold test's power ``P[X > t − d]`` grows with d — the pairs are ordered
for every d <= Δ, in both orders by the law's symmetry. For ``Δ > 2B`` the
supports are disjoint and δ = 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from dpverify._deprecation import renamed_parameters, renamed_property
from dpverify._numeric import round_up, working_precision
from dpverify._validation import check_epsilon, check_mp_real, check_positive, check_positive_int, value_error
from dpverify.guarantees import ApproxDP, PrivacyProfile
from dpverify.mechanisms._discrete_series import _integer_or_none
from dpverify.mechanisms.discrete import _SymmetricIntegerNoise
from dpverify.mechanisms.privacy_maps import register_privacy_map
from dpverify.neighbouring import Neighbouring

__all__ = ["TruncatedDiscreteGaussian", "truncated_discrete_gaussian_delta", "MAX_BOUND"]

#: Largest truncation bound B (the exact sums have 2B + 1 terms).
MAX_BOUND = 100_000


def _weights(sigma: float, bound: int) -> list[mpmath.mpf]:
    """``[e^{−k²/(2σ²)} for k = 0..B]`` at the working precision."""
    a = 1 / (2 * mpmath.mpf(sigma) ** 2)
    return [mpmath.exp(-a * k * k) for k in range(bound + 1)]


@renamed_parameters(bound="support_bound")
@dataclass(frozen=True, slots=True)
class TruncatedDiscreteGaussian(_SymmetricIntegerNoise):
    """Discrete Gaussian noise of parameter ``sigma`` conditioned on ``|k| <= support_bound`` (module docstring).

    Parameters
    ----------
    sigma
        The discrete Gaussian's σ (not its standard deviation), > 0.
    support_bound
        The truncation B (the support is {−B, ..., B}), an integer in ``[1, MAX_BOUND]``.
        ``bound`` is its deprecated spelling (one release).

    >>> law = TruncatedDiscreteGaussian(sigma=1.0, support_bound=2)
    >>> law.support(), round(float(law.pmf(0)), 6), float(law.pmf(3))
    ((-2, 2), 0.40262, 0.0)
    """

    sigma: float
    support_bound: int

    bound = renamed_property("bound", "support_bound")  # the old spelling, for one release

    def __post_init__(self) -> None:
        object.__setattr__(self, "sigma", check_positive(self.sigma, "sigma"))
        object.__setattr__(self, "support_bound", check_positive_int(self.support_bound, "support_bound",
                                                                       maximum=MAX_BOUND))

    def _normaliser(self) -> mpmath.mpf:
        weights = _weights(self.sigma, self.support_bound)
        return 2 * mpmath.fsum(weights) - weights[0]

    @renamed_parameters(k="outcome")
    def pmf(self, outcome: Any) -> mpmath.mpf:
        """Exact ``P[X = k]`` (mpmath)."""
        point = _integer_or_none(outcome)
        with working_precision():
            if point is None or abs(point) > self.support_bound:
                return mpmath.mpf(0)
            a = 1 / (2 * mpmath.mpf(self.sigma) ** 2)
            return mpmath.exp(-a * point * point) / self._normaliser()

    def _upper_tail(self, a: int) -> mpmath.mpf:
        """``P[X >= a]`` for a >= 1 (a finite sum)."""
        with working_precision():
            if a > self.support_bound:
                return mpmath.mpf(0)
            weights = _weights(self.sigma, self.support_bound)
            return mpmath.fsum(weights[a:]) / (2 * mpmath.fsum(weights) - weights[0])

    def support(self) -> tuple[int, int]:
        return (-self.support_bound, self.support_bound)

    def mean(self) -> Fraction:
        return Fraction(0)

    def variance(self) -> mpmath.mpf:
        """Exact ``Σ k² P[k]`` (a finite sum)."""
        with working_precision():
            weights = _weights(self.sigma, self.support_bound)
            return 2 * mpmath.fsum(k * k * w for k, w in enumerate(weights)) / (
                2 * mpmath.fsum(weights) - weights[0])

    @renamed_parameters(ks="outcomes")
    def pmf_array(self, outcomes: np.ndarray) -> np.ndarray:
        """Float pmf at ``outcomes`` (0 off the integers and outside ``[−B, B]``)."""
        outcomes = np.asarray(outcomes, dtype=float)
        inside = (outcomes == np.round(outcomes)) & (np.abs(outcomes) <= self.support_bound)
        values = np.exp(-outcomes ** 2 / (2 * self.sigma ** 2)) / float(self._normaliser())
        return np.where(inside, values, 0.0)


def _shift(sensitivity: Any) -> int:
    if not float(sensitivity).is_integer():
        raise value_error("sensitivity", sensitivity, "an integer for integer-valued noise",
                          "an integer-valued query has integer sensitivity; round it up")
    return check_positive_int(sensitivity, "sensitivity")


@renamed_parameters(bound="support_bound")
def truncated_discrete_gaussian_delta(sigma: float, support_bound: int, epsilon: Any, *,
                                      sensitivity: int = 1) -> mpmath.mpf:
    """Exact ``δ(ε)`` (mpmath, 50 digits, then inflated by 10⁻⁴⁰ relative) of the truncated mechanism.

    The module docstring's formula: the infinite-loss mass plus the finite part.
    ``epsilon = inf`` gives ``δ(∞)``, the mass no ε can buy.

    >>> import math
    >>> round(float(truncated_discrete_gaussian_delta(1.0, 2, math.inf)), 6)   # P[X = −2]
    0.054489
    """
    law = TruncatedDiscreteGaussian(sigma, support_bound)
    shift = _shift(check_positive(sensitivity, "sensitivity"))
    epsilon = check_mp_real(epsilon, "epsilon", low=0.0, allow_inf=True)
    if shift > 2 * law.support_bound:
        return mpmath.mpf(1)
    with working_precision():
        half = _weights(law.sigma, law.support_bound)
        weights = half[:0:-1] + half                     # k = −B..B
        total = mpmath.fsum(weights)
        infinite = mpmath.fsum(weights[:shift])          # k < Δ − B: the shifted law is 0 there
        finite = mpmath.mpf(0)
        if not mpmath.isinf(epsilon):
            factor = mpmath.exp(epsilon)
            for index in range(shift, len(weights)):      # the loss decreases in k
                gap = weights[index] - factor * weights[index - shift]
                if gap <= 0:
                    break
                finite += gap
        return min(mpmath.mpf(1), (infinite + finite) / total * (1 + mpmath.mpf(10) ** -40))


@register_privacy_map(TruncatedDiscreteGaussian, PrivacyProfile)
def _truncated_profile(mechanism: TruncatedDiscreteGaussian, *, sensitivity: float,
                       neighbouring: Neighbouring) -> PrivacyProfile:
    """Exact profile (:func:`truncated_discrete_gaussian_delta`); integer Δ; any relation."""
    shift = _shift(sensitivity)
    sigma, support_bound = mechanism.sigma, mechanism.support_bound
    return PrivacyProfile(lambda e: truncated_discrete_gaussian_delta(sigma, support_bound, e, sensitivity=shift),
                          description=f"{mechanism!r}, sensitivity={shift}", relative_error=1e-30)


@register_privacy_map(TruncatedDiscreteGaussian, ApproxDP)
def _truncated_approx(mechanism: TruncatedDiscreteGaussian, *, sensitivity: float,
                      neighbouring: Neighbouring) -> ApproxDP:
    """The corner ``(ε*, δ(ε*))``: ε* = ``Δ(2B − Δ)/(2σ²)`` is the largest finite loss (at k = Δ − B).

    For ε >= ε* the profile is the constant ``δ(∞)``, so this is the least δ any
    ε buys. Soundness: ε* exact in rationals, rounded up; δ(ε*) rounded up;
    integer ``Δ <= 2B`` (beyond, δ = 1: refused).
    """
    shift = _shift(sensitivity)
    if shift > 2 * mechanism.support_bound:
        raise value_error("sensitivity", sensitivity, f"at most 2·support_bound = {2 * mechanism.support_bound}",
                          "larger shifts separate the supports: delta = 1")
    corner = Fraction(shift * (2 * mechanism.support_bound - shift)) / (2 * Fraction(mechanism.sigma) ** 2)
    epsilon = check_epsilon(round_up(corner), "epsilon")
    profile = _truncated_profile(mechanism, sensitivity=shift, neighbouring=neighbouring)
    return ApproxDP(epsilon=epsilon, delta=profile.delta_for_epsilon(epsilon))
