"""Interop: dp_accounting's ``DpEvent`` trees as dpverify events (duck-typed: no import needed)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import mpmath

from dpverify._numeric import round_up, working_precision
from dpverify.accountants.accountant._common import round_down_ratio
from dpverify.accountants.events import (
    ComposedEvent,
    Event,
    MechanismEvent,
    PoissonSampledEvent,
    RepeatAndSelectEvent,
    SampledWithoutReplacementEvent,
    SelfComposedEvent,
    TreeAggregationEvent,
    TruncatedPoissonSampledEvent,
)
from dpverify.errors import UnsupportedError
from dpverify.guarantees import ZCDP, ApproxDP, PureDP
from dpverify.mechanisms import DiscreteLaplace, Gaussian, Laplace, MixtureOfGaussians, RandomizedResponse

__all__ = ["from_dp_accounting"]


def from_dp_accounting(event: Any) -> Event:
    """Convert a dp_accounting ``DpEvent`` tree to dpverify events (duck-typed: no import needed).

    Supported: Gaussian, Laplace, DiscreteLaplace, RandomizedResponse, EpsilonDelta, ZCDp,
    MixtureOfGaussians (add/remove), SelfComposed, Composed, PoissonSampled,
    SampledWithoutReplacement, TruncatedSubsampledGaussian (dpverify also covers the
    neighbour with one record more, so it may be slightly more conservative),
    SingleEpochTreeAggregation and RepeatAndSelect events.

    Raises
    ------
    UnsupportedError
        For any other event (named in the message), e.g. ``NonPrivateDpEvent``.
    """
    name = type(event).__name__
    convert = _FROM_DP_ACCOUNTING.get(name)
    if convert is None:
        raise UnsupportedError(f"no dpverify event for dp_accounting's {name}; supported: "
                               f"{', '.join(sorted(_FROM_DP_ACCOUNTING))}")
    return convert(event)


def _rr_from_dp_accounting(event: Any) -> Event:
    # dp_accounting's noise_parameter p: report truthfully w.p. 1 − p, else uniformly at random
    # (so the kept bucket has mass 1 − p + p/k and each other p/k): ε = ln(1 + k(1 − p)/p).
    p, k = float(event.noise_parameter), int(event.num_buckets)
    with working_precision():
        epsilon = math.inf if p == 0 else round_up(mpmath.log(1 + k * (1 - mpmath.mpf(p)) / p))
    return MechanismEvent(RandomizedResponse(k, epsilon))


def _mixture_from_dp_accounting(event: Any) -> Event:
    # given D: N(0, σ²); given D': Σ p_i N(c_i, σ²) (add/remove); all c_i = 0 releases nothing
    sensitivities = tuple(float(c) for c in event.sensitivities)
    probabilities = tuple(float(p) for p in event.sampling_probs)
    if sensitivities and max(sensitivities) == 0 and min(sensitivities) == 0:
        return MechanismEvent(PureDP(0.0))
    return MechanismEvent(MixtureOfGaussians(float(event.standard_deviation), sensitivities,
                                             probabilities))


_FROM_DP_ACCOUNTING: dict[str, Callable[[Any], Event]] = {
    "GaussianDpEvent": lambda e: MechanismEvent(Gaussian(sigma=float(e.noise_multiplier))),
    "LaplaceDpEvent": lambda e: MechanismEvent(Laplace(scale=float(e.noise_multiplier))),
    "RandomizedResponseDpEvent": _rr_from_dp_accounting,
    "DiscreteLaplaceDpEvent": lambda e: MechanismEvent(  # pmf ∝ e^{−a|k|}: scale 1/a, rounded down
        DiscreteLaplace(scale=round_down_ratio(1.0, float(e.noise_parameter))), float(e.sensitivity)),
    "EpsilonDeltaDpEvent": lambda e: MechanismEvent(ApproxDP(float(e.epsilon), float(e.delta))),
    "ZCDpEvent": lambda e: MechanismEvent(ZCDP(float(e.rho), float(getattr(e, "xi", 0.0)))),
    "SelfComposedDpEvent": lambda e: SelfComposedEvent(from_dp_accounting(e.event), int(e.count)),
    "ComposedDpEvent": lambda e: ComposedEvent(tuple(from_dp_accounting(x) for x in e.events)),
    "PoissonSampledDpEvent": lambda e: PoissonSampledEvent(from_dp_accounting(e.event),
                                                           float(e.sampling_probability)),
    "SampledWithoutReplacementDpEvent": lambda e: SampledWithoutReplacementEvent(
        from_dp_accounting(e.event), int(e.sample_size), int(e.source_dataset_size)),
    "SingleEpochTreeAggregationDpEvent": lambda e: TreeAggregationEvent(
        float(e.noise_multiplier), e.step_counts),
    "MixtureOfGaussiansDpEvent": _mixture_from_dp_accounting,
    "TruncatedSubsampledGaussianDpEvent": lambda e: TruncatedPoissonSampledEvent(
        Gaussian(sigma=float(e.noise_multiplier)), float(e.sampling_probability),
        int(e.truncated_batch_size), int(e.dataset_size)),
    "RepeatAndSelectDpEvent": lambda e: RepeatAndSelectEvent(from_dp_accounting(e.event),
                                                             float(e.mean), float(e.shape)),
}
