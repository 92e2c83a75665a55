"""How ``PrivacyAccountant(method="pld")`` accounts an event tree: as a pessimistic PLD.

Each event becomes a :class:`~dpverify.accountants.pld.PrivacyLossDistribution`
(compositions by FFT, self-compositions by repeated squaring); ``probe=True``
only checks that every leaf has a PLD. Soundness of each constructor is stated
where it is defined.
"""

from __future__ import annotations

from typing import Any

from dpverify.accountants._account_common import (
    REPEAT_AND_SELECT,
    gaussian_noise,
    mixture_components,
    poisson_gaussian,
    pure_epsilon,
    unsupported,
)
from dpverify.accountants.events import (
    ComposedEvent,
    Event,
    ExponentialMechanismEvent,
    MechanismEvent,
    PoissonSampledEvent,
    RepeatAndSelectEvent,
    SampledWithoutReplacementEvent,
    SelfComposedEvent,
)
from dpverify.accountants.pld import PrivacyLossDistribution
from dpverify.guarantees import ApproxDP
from dpverify.mechanisms import (
    DiscreteLaplace,
    Laplace,
    MixtureOfGaussians,
    RandomizedResponse,
    TruncatedDiscreteGaussian,
)

__all__ = ["pld_of"]


def pld_of(accountant: Any, event: Event, *, probe: bool) -> Any:
    """The PLD of ``event`` under ``accountant.neighbouring`` (None when ``probe``)."""
    if isinstance(event, ComposedEvent):
        parts = [pld_of(accountant, e, probe=probe) for e in event.events]
        if probe:
            return None
        from dpverify.accountants.pld import compose_plds
        return compose_plds(parts)
    if isinstance(event, SelfComposedEvent):
        inner = pld_of(accountant, event.event, probe=probe)
        return None if probe else inner.self_compose(event.count)
    if isinstance(event, PoissonSampledEvent) and _mixture(event.event) is not None:
        return _mixture_pld(accountant, event, probe)
    if isinstance(event, MechanismEvent) and _mixture(event) is not None:
        return _mixture_pld(accountant, event, probe)
    if isinstance(event, PoissonSampledEvent) and gaussian_noise(event.event) is None:
        return _poisson_finite_pair(accountant, event, probe)
    if isinstance(event, PoissonSampledEvent):
        sigma, q = poisson_gaussian(accountant, event, "pld")
        return None if probe else PrivacyLossDistribution.from_subsampled_gaussian(
            sigma, q, neighbouring=accountant.neighbouring)
    if isinstance(event, SampledWithoutReplacementEvent):
        return _without_replacement(accountant, event, probe)
    if isinstance(event, RepeatAndSelectEvent):
        raise unsupported(event, "pld", REPEAT_AND_SELECT)
    if isinstance(event, ExponentialMechanismEvent):   # the ε-bounded-range envelope pair
        return None if probe else PrivacyLossDistribution.from_bounded_range(event.epsilon)
    noise = gaussian_noise(event)
    if noise is not None:
        return None if probe else PrivacyLossDistribution.from_gaussian(noise[0], sensitivity=noise[1])
    if isinstance(event, MechanismEvent):
        mechanism = event.mechanism
        if isinstance(mechanism, Laplace):
            return None if probe else PrivacyLossDistribution.from_laplace(
                mechanism.scale, sensitivity=event.sensitivity)
        if isinstance(mechanism, RandomizedResponse) and event.sensitivity == 1.0:
            return None if probe else PrivacyLossDistribution.from_randomized_response(
                mechanism.epsilon, categories=mechanism.categories)
        if isinstance(mechanism, TruncatedDiscreteGaussian):   # its exact finite pair (q = 1)
            from dpverify.accountants.subsampling import dominating_pair, poisson_subsampled_pld
            dominating_pair(mechanism, sensitivity=event.sensitivity)     # raises if none
            return None if probe else poisson_subsampled_pld(mechanism, 1.0,
                                                             sensitivity=event.sensitivity)
        if isinstance(mechanism, DiscreteLaplace) and float(event.sensitivity).is_integer():
            return None if probe else PrivacyLossDistribution.from_discrete_laplace(
                mechanism.scale, sensitivity=int(event.sensitivity))
        if isinstance(mechanism, ApproxDP):
            return None if probe else PrivacyLossDistribution.from_approx_dp(
                mechanism.epsilon, mechanism.delta)
        epsilon = pure_epsilon(event)
        if epsilon is not None:
            return None if probe else PrivacyLossDistribution.from_approx_dp(epsilon, 0.0)
    raise unsupported(event, "pld")


def _poisson_finite_pair(accountant: Any, event: PoissonSampledEvent,
                         probe: bool) -> Any:
    """Poisson subsampling of a mechanism with a finite dominating pair (add/remove, replace-special)."""
    from dpverify.accountants.subsampling import dominating_pair, poisson_subsampled_pld

    inner = event.event
    if not isinstance(inner, MechanismEvent) or accountant.neighbouring == "replace-one":
        raise unsupported(event, "pld", "Poisson sampling of a single mechanism with a finite "
                                         "dominating pair, under add-remove or replace-special")
    dominating_pair(inner.mechanism, sensitivity=inner.sensitivity)   # raises if none
    if probe:
        return None
    return poisson_subsampled_pld(inner.mechanism, event.sampling_probability,
                                  sensitivity=inner.sensitivity)


def _without_replacement(accountant: Any, event: SampledWithoutReplacementEvent,
                         probe: bool) -> Any:
    """A batch of m of n records (replace-one): a Gaussian or a mechanism with a finite dominating pair."""
    from dpverify.accountants.subsampling import dominating_pair
    from dpverify.accountants import subsampling_wor

    inner = event.event
    if accountant.neighbouring != "replace-one":
        raise unsupported(event, "pld", "sampling without replacement is accounted under "
                                         "replace-one only (neighbouring='replace-one')")
    noise = gaussian_noise(inner)
    if noise is not None:
        return None if probe else subsampling_wor.without_replacement_gaussian_pld(
            noise[0], event.sample_size, event.population_size, sensitivity=noise[1])
    if not isinstance(inner, MechanismEvent):
        raise unsupported(event, "pld", "sampling without replacement of a single mechanism with "
                                         "a finite dominating pair only (so far)")
    dominating_pair(inner.mechanism, sensitivity=inner.sensitivity)   # raises if none
    if probe:
        return None
    return subsampling_wor.without_replacement_pld(inner.mechanism, event.sample_size,
                                                   event.population_size, sensitivity=inner.sensitivity)


def _mixture(event: Event) -> MixtureOfGaussians | None:
    """The mixture of Gaussians ``event`` releases, if it is one."""
    if isinstance(event, MechanismEvent) and isinstance(event.mechanism, MixtureOfGaussians):
        return event.mechanism
    return None


def _mixture_pld(accountant: Any, event: Event, probe: bool) -> Any:
    """A (Poisson-sampled) mixture of Gaussians: Poisson sampling folds in as ``c = 0`` w.p. ``1 − q``."""
    if accountant.neighbouring == "replace-one":
        raise unsupported(event, "pld", "a mixture of Gaussians is accounted under add-remove or "
                                        "replace-special (its pair adds or removes a record)")
    if probe:
        return None
    from dpverify.accountants.mixture_gaussian import mixture_gaussian_pld

    sigma, cs, ps = mixture_components(event)
    return mixture_gaussian_pld(sigma, cs, ps)
