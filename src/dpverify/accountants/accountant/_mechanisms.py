"""Translators of single releases: a :class:`MechanismEvent` by its mechanism's type, tree aggregation.

Per method, one translator per mechanism (or guarantee) type with a dedicated
accounting, and one for ``object``: any other mechanism through its privacy map
(:func:`~dpverify.mechanisms.privacy_maps.privacy_map`: its ε-DP for a PLD, its ε-DP
or zCDP for RDP and zCDP). DP-FTRL's tree aggregation is one Gaussian release of
sensitivity ``√depth`` (Kairouz et al., ICML 2021, App. D). Soundness of each value
is stated where it is computed (the PLD constructors, the RDP curves, the zCDP maps).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from dpverify._numeric import round_up
from dpverify.accountants.accountant._common import (
    binary_rr_epsilon,
    gaussian_noise,
    mechanism_zcdp,
    mixture_components,
    pure_epsilon,
)
from dpverify.accountants.accountant._registry import Request, supported_kinds, translates, unsupported
from dpverify.accountants.dominating_pairs import dominating_pair
from dpverify.accountants.events import Event, MechanismEvent, TreeAggregationEvent
from dpverify.accountants.pld import (
    PrivacyLossDistribution,
    mixture_gaussian_pld,
    poisson_subsampled_pld,
)
from dpverify.accountants.rdp import gaussian_rdp, laplace_rdp, pure_dp_rdp, randomized_response_rdp
from dpverify.accountants.zcdp import pure_to_zcdp, zcdp_to_rdp
from dpverify.guarantees import ZCDP, ApproxDP
from dpverify.mechanisms import (
    BinaryRandomizedResponse,
    DiscreteLaplace,
    Gaussian,
    Laplace,
    MixtureOfGaussians,
    RandomizedResponse,
    TruncatedDiscreteGaussian,
    mixture_gaussian_rdp,
    privacy_map,
)

__all__ = ["mixture_pld", "mixture_rdp"]

_MIXTURE_RELATIONS = "a mixture of Gaussians is accounted under add-remove or replace-special"


def _no_map(event: MechanismEvent, method: str, maps: str) -> Exception:
    return unsupported(event, method, f"{type(event.mechanism).__name__} has no {method} translator "
                                      f"and no {maps} privacy map; {supported_kinds(method)}")


# ---------------------------------------------------------------- PLD
@translates(Gaussian, "pld")
@translates(TreeAggregationEvent, "pld")
def _gaussian_pld(event: Event, request: Request) -> Any:
    sigma, sensitivity = gaussian_noise(event)
    return None if request.probe else PrivacyLossDistribution.from_gaussian(sigma,
                                                                             sensitivity=sensitivity)


@translates(Laplace, "pld")
def _laplace_pld(event: MechanismEvent, request: Request) -> Any:
    return None if request.probe else PrivacyLossDistribution.from_laplace(
        event.mechanism.scale, sensitivity=event.sensitivity)


@translates(RandomizedResponse, "pld")
def _randomized_response_pld(event: MechanismEvent, request: Request) -> Any:
    if event.sensitivity != 1.0:
        return _pure_pld(event, request)
    mechanism = event.mechanism
    return None if request.probe else PrivacyLossDistribution.from_randomized_response(
        mechanism.epsilon, categories=mechanism.categories)


@translates(TruncatedDiscreteGaussian, "pld")
def _truncated_discrete_gaussian_pld(event: MechanismEvent, request: Request) -> Any:
    """Its exact finite pair, unsampled (q = 1)."""
    dominating_pair(event.mechanism, sensitivity=event.sensitivity)     # raises if none
    return None if request.probe else poisson_subsampled_pld(event.mechanism, 1.0,
                                                             sensitivity=event.sensitivity)


@translates(DiscreteLaplace, "pld")
def _discrete_laplace_pld(event: MechanismEvent, request: Request) -> Any:
    if not float(event.sensitivity).is_integer():
        return _pure_pld(event, request)
    return None if request.probe else PrivacyLossDistribution.from_discrete_laplace(
        event.mechanism.scale, sensitivity=int(event.sensitivity))


@translates(ApproxDP, "pld")
def _approx_dp_pld(event: MechanismEvent, request: Request) -> Any:
    guarantee = event.mechanism
    return None if request.probe else PrivacyLossDistribution.from_approx_dp(guarantee.epsilon,
                                                                             guarantee.delta)


@translates(MixtureOfGaussians, "pld")
def mixture_pld(event: Event, request: Request) -> Any:
    """A (Poisson-sampled) mixture of Gaussians: Poisson sampling folds in as ``c = 0`` w.p. ``1 − q``."""
    if request.neighbouring == "replace-one":
        raise unsupported(event, "pld", _MIXTURE_RELATIONS + " (its pair adds or removes a record)")
    if request.probe:
        return None
    sigma, cs, ps = mixture_components(event)
    return mixture_gaussian_pld(sigma, cs, ps)


@translates(object, "pld")
def _pure_pld(event: MechanismEvent, request: Request) -> Any:
    """Any other mechanism with an ε-DP privacy map: the ε-DP dominating pair."""
    epsilon = pure_epsilon(event)
    if epsilon is None:
        raise _no_map(event, "pld", "ε-DP")
    return None if request.probe else PrivacyLossDistribution.from_approx_dp(epsilon, 0.0)


# ---------------------------------------------------------------- RDP
@translates(Gaussian, "rdp")
@translates(TreeAggregationEvent, "rdp")
def _gaussian_rdp(event: Event, request: Request) -> Any:
    sigma, sensitivity = gaussian_noise(event)
    return None if request.probe else gaussian_rdp(sigma, sensitivity=sensitivity,
                                                   orders=request.orders)


@translates(ZCDP, "rdp")
def _zcdp_rdp(event: MechanismEvent, request: Request) -> Any:
    return None if request.probe else zcdp_to_rdp(event.mechanism, orders=request.orders)


@translates(Laplace, "rdp")
def _laplace_rdp(event: MechanismEvent, request: Request) -> Any:
    return None if request.probe else laplace_rdp(event.mechanism.scale,
                                                  sensitivity=event.sensitivity,
                                                  orders=request.orders)


@translates(BinaryRandomizedResponse, "rdp")
def _binary_randomized_response_rdp(event: MechanismEvent, request: Request) -> Any:
    return None if request.probe else randomized_response_rdp(binary_rr_epsilon(event.mechanism),
                                                              orders=request.orders)


@translates(RandomizedResponse, "rdp")
def _randomized_response_rdp(event: MechanismEvent, request: Request) -> Any:
    if event.sensitivity != 1.0:
        return _generic_rdp(event, request)
    mechanism = event.mechanism
    return None if request.probe else randomized_response_rdp(
        mechanism.epsilon, orders=request.orders, categories=mechanism.categories)


@translates(MixtureOfGaussians, "rdp")
def mixture_rdp(event: Event, request: Request) -> Any:
    """A (Poisson-sampled) mixture of Gaussians: the convexity bound of
    :func:`~dpverify.mechanisms.mixture_gaussian_rdp`, the Poisson rate folded in."""
    if request.neighbouring == "replace-one":
        raise unsupported(event, "rdp", _MIXTURE_RELATIONS)
    if request.probe:
        return None
    sigma, cs, ps = mixture_components(event)
    return mixture_gaussian_rdp(MixtureOfGaussians(sigma, tuple(cs), tuple(ps)), request.orders)


@translates(object, "rdp")
def _generic_rdp(event: MechanismEvent, request: Request) -> Any:
    """Any other mechanism: its ε-DP curve, else the curve of its zCDP map (e.g. the discrete Gaussian)."""
    epsilon = pure_epsilon(event)
    if epsilon is not None:
        return None if request.probe else pure_dp_rdp(epsilon, orders=request.orders)
    rho = mechanism_zcdp(event)
    if rho is None:
        raise _no_map(event, "rdp", "ε-DP or zCDP")
    return None if request.probe else zcdp_to_rdp(rho, orders=request.orders)


# ---------------------------------------------------------------- zCDP
@translates(Gaussian, "zcdp")
@translates(TreeAggregationEvent, "zcdp")
def _gaussian_zcdp(event: Event, request: Request) -> Any:
    """ρ = Δ²/(2σ²) (Bun & Steinke 2016, Prop. 1.6), rounded up."""
    sigma, sensitivity = gaussian_noise(event)
    return None if request.probe else ZCDP(round_up(Fraction(sensitivity) ** 2
                                                    / (2 * Fraction(sigma) ** 2)))


@translates(ZCDP, "zcdp")
def _zcdp_zcdp(event: MechanismEvent, request: Request) -> Any:
    return None if request.probe else event.mechanism


@translates(MixtureOfGaussians, "zcdp")
def _mixture_zcdp(event: MechanismEvent, request: Request) -> Any:
    if request.neighbouring == "replace-one":
        raise unsupported(event, "zcdp", _MIXTURE_RELATIONS)
    return None if request.probe else privacy_map(event.mechanism, sensitivity=event.sensitivity,
                                                  neighbouring="add-remove", target=ZCDP)


@translates(object, "zcdp")
def _generic_zcdp(event: MechanismEvent, request: Request) -> Any:
    """Any other mechanism: ε-DP ⇒ (ε²/2)-zCDP, else its zCDP map (e.g. the discrete Gaussian)."""
    epsilon = pure_epsilon(event)
    if epsilon is not None:
        return None if request.probe else pure_to_zcdp(epsilon)
    rho = mechanism_zcdp(event)
    if rho is None:
        raise _no_map(event, "zcdp", "ε-DP or zCDP")
    return None if request.probe else rho
