"""Helpers shared by the event translators of :class:`~dpverify.accountants.accountant.ledger.PrivacyAccountant`.

A *translator* (registered in :mod:`._registry`) turns an event into the guarantee
its method composes (a PLD, an RDP curve, a zCDP value); a probing request only
checks that it can, without computing. The helpers here read the noise of
Gaussian-type events, the ε of pure-DP events, the zCDP of a mechanism's privacy
map and the components of a mixture of Gaussians.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import mpmath

from dpverify._numeric import round_down, round_up, working_precision
from dpverify.accountants.accountant._registry import Request, along_mro, unsupported
from dpverify.accountants.events import Event, MechanismEvent, PoissonSampledEvent, TreeAggregationEvent
from dpverify.errors import UnsupportedError
from dpverify.guarantees import ZCDP, PureDP
from dpverify.mechanisms import (
    BinaryRandomizedResponse,
    Gaussian,
    Laplace,
    MixtureOfGaussians,
    RandomizedResponse,
    privacy_map,
)

__all__ = ["gaussian_noise", "binary_rr_epsilon", "pure_epsilon", "mechanism_zcdp", "poisson_gaussian",
           "round_down_ratio", "releases_mixture", "mixture_components"]


def gaussian_noise(event: Event) -> tuple[float, float] | None:
    """(σ, sensitivity) when ``event`` is one Gaussian release (tree aggregation included)."""
    if isinstance(event, MechanismEvent) and isinstance(event.mechanism, Gaussian):
        return event.mechanism.sigma, event.sensitivity
    if isinstance(event, TreeAggregationEvent):
        return event.noise_multiplier, math.sqrt(event.depth)
    return None


def binary_rr_epsilon(mechanism: BinaryRandomizedResponse) -> float:
    """ε = ln((2 − p)/p) of binary randomized response with randomization probability p, rounded up."""
    p = mechanism.randomization_probability
    with working_precision():
        return round_up(mpmath.log((2 - mpmath.mpf(p)) / mpmath.mpf(p)))


#: The ε of the pure-DP values the accountant reads directly, by type (any other mechanism:
#: its privacy map to PureDP): ``function(mechanism, sensitivity)``, rounded up.
_PURE_EPSILON: dict[type, Callable[[Any, float], float]] = {
    PureDP: lambda guarantee, sensitivity: guarantee.epsilon,
    RandomizedResponse: lambda mechanism, sensitivity: mechanism.epsilon,
    BinaryRandomizedResponse: lambda mechanism, sensitivity: binary_rr_epsilon(mechanism),
    Laplace: lambda mechanism, sensitivity: round_up(Fraction(sensitivity) / Fraction(mechanism.scale)),
}


def pure_epsilon(event: MechanismEvent) -> float | None:
    """The ε of a pure-DP mechanism event (rounded up), or None if it has none."""
    mechanism = event.mechanism
    direct = along_mro(_PURE_EPSILON, type(mechanism))
    if direct is not None:
        return direct(mechanism, event.sensitivity)
    try:
        guarantee = privacy_map(mechanism, sensitivity=event.sensitivity, target=PureDP)
    except (UnsupportedError, TypeError, ValueError):
        return None
    return guarantee.epsilon


def mechanism_zcdp(event: MechanismEvent) -> ZCDP | None:
    """The zCDP guarantee of a mechanism event's privacy map (e.g. the discrete Gaussian), or ``None``.

    Used for mechanisms the accountant has no dedicated RDP curve for; the
    map's own conversions along the guarantee lattice are sound.
    """
    try:
        guarantee = privacy_map(event.mechanism, sensitivity=event.sensitivity, target=ZCDP)
    except (UnsupportedError, TypeError, ValueError):
        return None
    return guarantee if isinstance(guarantee, ZCDP) else None


def poisson_gaussian(event: PoissonSampledEvent, request: Request) -> tuple[float, float]:
    """(σ/Δ rounded down, q) of a Poisson-sampled Gaussian event, or the refusal of the method."""
    method = request.method
    noise = gaussian_noise(event.event)
    if noise is None:
        raise unsupported(event, method, "Poisson sampling of a Gaussian only (so far)")
    if request.neighbouring == "replace-one" and method != "pld":
        raise unsupported(event, method, "under replace-one the subsampled Gaussian is "
                                         "accounted by PLD only (so far)")
    sigma, sensitivity = noise
    return round_down_ratio(sigma, sensitivity), event.sampling_probability


def round_down_ratio(sigma: float, sensitivity: float) -> float:
    """``σ/Δ`` rounded down (a smaller noise multiplier dominates)."""
    return round_down(Fraction(sigma) / Fraction(sensitivity))


def releases_mixture(event: Event) -> bool:
    """True when ``event`` is one release of a mixture of Gaussians."""
    return isinstance(event, MechanismEvent) and isinstance(event.mechanism, MixtureOfGaussians)


def mixture_components(event: Event) -> tuple[float, list[float], list[float]]:
    """``(σ, [c_i Δ], [p_i])`` of a mixture-of-Gaussians event, Poisson sampling at q folded in
    (every ``p_i`` times q, plus ``c = 0`` w.p. ``1 − q``: ZDW 2022, Thm 11's ``qP + (1 − q)Q``)."""
    rate = 1.0
    if isinstance(event, PoissonSampledEvent):
        rate, event = event.sampling_probability, event.event
    mechanism = event.mechanism
    cs, ps = mechanism.components(event.sensitivity)
    if rate < 1.0:   # q raised by 4 ulps: a larger rate dominates (joint convexity), float products
        rate = min(1.0, rate * (1 + 2.0 ** -50))
        cs, ps = [0.0, *cs], [1.0 - rate, *(p * rate for p in ps)]
    return mechanism.sigma, cs, ps
