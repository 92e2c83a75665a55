"""How ``PrivacyAccountant(method="rdp" | "zcdp")`` accounts an event tree.

RDP: each event becomes an :class:`~dpverify.guarantees.RDPCurve` at the
accountant's orders (composition adds curves); zCDP: a
:class:`~dpverify.guarantees.ZCDP` value (composition adds ρ and ξ).
``probe=True`` only checks that every leaf is supported.
"""

from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace
from typing import Any

from dpverify._numeric import round_up
from dpverify.accountants._account_common import (
    REPEAT_AND_SELECT,
    binary_rr_epsilon,
    gaussian_noise,
    mixture_components,
    poisson_gaussian,
    pure_epsilon,
    unsupported,
)
from dpverify.accountants._subsampled_event_rdp import mechanism_zcdp, sampled_event_rdp
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
from dpverify.accountants.rdp import (
    compose_rdp,
    gaussian_rdp,
    laplace_rdp,
    pure_dp_rdp,
    randomized_response_rdp,
    scale_rdp,
    subsampled_gaussian_rdp,
)
from dpverify.accountants.zcdp import compose_zcdp, pure_to_zcdp, zcdp_to_rdp
from dpverify.guarantees import ZCDP, RDPCurve
from dpverify.mechanisms import (
    BinaryRandomizedResponse,
    Laplace,
    MixtureOfGaussians,
    RandomizedResponse,
    mixture_gaussian_rdp,
    privacy_map,
)

__all__ = ["rdp_of", "zcdp_of", "bounded_range_zcdp"]


def rdp_of(accountant: Any, event: Event, *, probe: bool) -> Any:
    """The RDP curve of ``event`` at ``accountant.orders`` (None when ``probe``)."""
    orders = accountant.orders
    if isinstance(event, ComposedEvent):
        parts = [rdp_of(accountant, e, probe=probe) for e in event.events]
        return None if probe else compose_rdp(parts)
    if isinstance(event, SelfComposedEvent):
        inner = rdp_of(accountant, event.event, probe=probe)
        return None if probe else scale_rdp(inner, event.count)
    if _is_mixture(event):   # convexity bound (mechanisms.mixture), Poisson rate folded in
        if accountant.neighbouring == "replace-one":
            raise unsupported(event, "rdp", "a mixture of Gaussians is accounted under add-remove "
                                            "or replace-special")
        if probe:
            return None
        sigma, cs, ps = mixture_components(event)
        return mixture_gaussian_rdp(MixtureOfGaussians(sigma, tuple(cs), tuple(ps)), orders)
    if isinstance(event, PoissonSampledEvent) and gaussian_noise(event.event) is not None:
        sigma, q = poisson_gaussian(accountant, event, "rdp")
        return None if probe else subsampled_gaussian_rdp(sigma, q, orders=orders)
    if isinstance(event, (PoissonSampledEvent, SampledWithoutReplacementEvent)):
        neighbouring = accountant.neighbouring
        return sampled_event_rdp(   # any inner event with an RDP curve (rdp_subsampling)
            event, orders=orders, neighbouring=neighbouring, probe=probe,
            inner_curve=lambda inner, at: rdp_of(SimpleNamespace(
                neighbouring=neighbouring, orders=at), inner, probe=probe),
            gaussian_noise=gaussian_noise, pure_epsilon=pure_epsilon)
    if isinstance(event, RepeatAndSelectEvent):   # Papernot & Steinke 2022, Thm 2 / Thm 6
        inner = rdp_of(accountant, event.event, probe=probe)
        if probe:
            return None
        from dpverify.accountants.repeat_select import repeat_and_select_rdp
        return repeat_and_select_rdp(inner, mean=event.mean, shape=event.shape)
    if isinstance(event, ExponentialMechanismEvent):   # min of ε-DP and ε²/8-zCDP (bounded range)
        if probe:
            return None
        pure = pure_dp_rdp(event.epsilon, orders=orders)
        bounded = zcdp_to_rdp(bounded_range_zcdp(event.epsilon), orders=orders)
        return RDPCurve(pure.orders, tuple(min(a, b) for a, b in zip(pure.epsilons, bounded.epsilons)))
    noise = gaussian_noise(event)
    if noise is not None:
        return None if probe else gaussian_rdp(noise[0], sensitivity=noise[1], orders=orders)
    if isinstance(event, MechanismEvent):
        mechanism = event.mechanism
        if isinstance(mechanism, ZCDP):
            return None if probe else zcdp_to_rdp(mechanism, orders=orders)
        if isinstance(mechanism, Laplace):
            return None if probe else laplace_rdp(mechanism.scale, sensitivity=event.sensitivity,
                                                  orders=orders)
        if isinstance(mechanism, BinaryRandomizedResponse):
            return None if probe else randomized_response_rdp(binary_rr_epsilon(mechanism),
                                                              orders=orders)
        if isinstance(mechanism, RandomizedResponse) and event.sensitivity == 1.0:
            return None if probe else randomized_response_rdp(mechanism.epsilon, orders=orders,
                                                              categories=mechanism.categories)
        epsilon = pure_epsilon(event)
        if epsilon is not None:
            return None if probe else pure_dp_rdp(epsilon, orders=orders)
        rho = mechanism_zcdp(event)   # e.g. the discrete Gaussian
        if rho is not None:
            return None if probe else zcdp_to_rdp(rho, orders=orders)
    raise unsupported(event, "rdp")


def zcdp_of(accountant: Any, event: Event, *, probe: bool) -> Any:
    """The zCDP guarantee of ``event`` (None when ``probe``)."""
    if isinstance(event, ComposedEvent):
        parts = [zcdp_of(accountant, e, probe=probe) for e in event.events]
        return None if probe else compose_zcdp(parts)
    if isinstance(event, SelfComposedEvent):
        inner = zcdp_of(accountant, event.event, probe=probe)
        if probe:
            return None
        return ZCDP(round_up(Fraction(inner.rho) * event.count),
                    round_up(Fraction(inner.xi) * event.count))
    if isinstance(event, RepeatAndSelectEvent):
        raise unsupported(event, "zcdp", REPEAT_AND_SELECT)
    if isinstance(event, MechanismEvent) and isinstance(event.mechanism, MixtureOfGaussians):
        if accountant.neighbouring == "replace-one":
            raise unsupported(event, "zcdp", "a mixture of Gaussians is accounted under add-remove "
                                             "or replace-special")
        return None if probe else privacy_map(event.mechanism, sensitivity=event.sensitivity,
                                              neighbouring="add-remove", target=ZCDP)
    if isinstance(event, ExponentialMechanismEvent):
        return None if probe else bounded_range_zcdp(event.epsilon)
    noise = gaussian_noise(event)
    if noise is not None:   # ρ = Δ²/(2σ²) (Bun & Steinke 2016, Prop. 1.6)
        sigma, sensitivity = noise
        return None if probe else ZCDP(round_up(Fraction(sensitivity) ** 2 / (2 * Fraction(sigma) ** 2)))
    if isinstance(event, MechanismEvent):
        if isinstance(event.mechanism, ZCDP):
            return None if probe else event.mechanism
        epsilon = pure_epsilon(event)
        if epsilon is not None:
            return None if probe else pure_to_zcdp(epsilon)
        rho = mechanism_zcdp(event)   # e.g. the discrete Gaussian
        if rho is not None:
            return None if probe else rho
    raise unsupported(event, "zcdp")


def bounded_range_zcdp(epsilon: float) -> ZCDP:
    """ε-bounded-range ⇒ (ε²/8)-zCDP (Cesar & Rogers, ALT 2021, Lemma 3.2), rounded up."""
    return ZCDP(round_up(Fraction(epsilon) ** 2 / 8))


def _is_mixture(event: Event) -> bool:
    """A mixture-of-Gaussians event, possibly Poisson-sampled."""
    if isinstance(event, PoissonSampledEvent):
        event = event.event
    return isinstance(event, MechanismEvent) and isinstance(event.mechanism, MixtureOfGaussians)
