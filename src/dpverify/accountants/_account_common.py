"""Helpers shared by the per-method event translators of :class:`~dpverify.accountants.PrivacyAccountant`.

A *translator* (:mod:`._account_pld`, :mod:`._account_rdp`) turns an event tree
into the guarantee its method composes (a PLD, an RDP curve, a zCDP value);
``probe=True`` only checks that it can, without computing. The helpers here
read the noise of Gaussian-type events and the ε of pure-DP events.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import mpmath

from dpverify._numeric import round_down, round_up, working_precision
from dpverify.accountants.events import Event, MechanismEvent, PoissonSampledEvent, TreeAggregationEvent
from dpverify.errors import UnsupportedError
from dpverify.guarantees import PureDP
from dpverify.mechanisms import BinaryRandomizedResponse, Gaussian, Laplace, RandomizedResponse, privacy_map

__all__ = ["unsupported", "gaussian_noise", "binary_rr_epsilon", "pure_epsilon", "poisson_gaussian",
           "round_down_ratio", "mixture_components", "REPEAT_AND_SELECT"]

REPEAT_AND_SELECT = ("repeat-and-select is accounted in RDP only (Papernot & Steinke 2022, Thm 2 and 6); "
                     "use method='rdp'")


def unsupported(event: Any, method: str, why: str = "") -> UnsupportedError:
    """The refusal of ``method`` for ``event`` (with the reason, if any)."""
    return UnsupportedError(f"{method} cannot account {event!r}" + (f": {why}" if why else ""))


def gaussian_noise(event: Event) -> tuple[float, float] | None:
    """(σ, sensitivity) when ``event`` is one Gaussian release (tree aggregation included)."""
    if isinstance(event, MechanismEvent) and isinstance(event.mechanism, Gaussian):
        return event.mechanism.sigma, event.sensitivity
    if isinstance(event, TreeAggregationEvent):
        return event.noise_multiplier, math.sqrt(event.depth)
    return None


def binary_rr_epsilon(mechanism: BinaryRandomizedResponse) -> float:
    """ε = ln((2 − p)/p) of binary randomized response with flip probability p, rounded up."""
    p = mechanism.flip_probability
    with working_precision():
        return round_up(mpmath.log((2 - mpmath.mpf(p)) / mpmath.mpf(p)))


def pure_epsilon(event: MechanismEvent) -> float | None:
    """The ε of a pure-DP mechanism event (rounded up), or None if it has none."""
    mechanism = event.mechanism
    if isinstance(mechanism, PureDP):
        return mechanism.epsilon
    if isinstance(mechanism, RandomizedResponse):
        return mechanism.epsilon
    if isinstance(mechanism, BinaryRandomizedResponse):
        return binary_rr_epsilon(mechanism)
    if isinstance(mechanism, Laplace):
        return round_up(Fraction(event.sensitivity) / Fraction(mechanism.scale))
    try:
        guarantee = privacy_map(mechanism, sensitivity=event.sensitivity, target=PureDP)
    except (UnsupportedError, TypeError, ValueError):
        return None
    return guarantee.epsilon


def poisson_gaussian(accountant: Any, event: PoissonSampledEvent,
                     method: str) -> tuple[float, float]:
    """(σ/Δ rounded down, q) of a Poisson-sampled Gaussian event, or the refusal of ``method``."""
    noise = gaussian_noise(event.event)
    if noise is None:
        raise unsupported(event, method, "Poisson sampling of a Gaussian only (so far)")
    if accountant.neighbouring == "replace-one" and method != "pld":
        raise unsupported(event, method, "under replace-one the subsampled Gaussian is "
                                         "accounted by PLD only (so far)")
    sigma, sensitivity = noise
    return round_down_ratio(sigma, sensitivity), event.sampling_probability


def round_down_ratio(sigma: float, sensitivity: float) -> float:
    """``σ/Δ`` rounded down (a smaller noise multiplier dominates)."""
    return round_down(Fraction(sigma) / Fraction(sensitivity))


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
