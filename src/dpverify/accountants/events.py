"""Privacy events: frozen values describing what a computation released, to be accounted.

An *event* says what happened, not how to account it (dp_accounting's
``DpEvent`` idea): a :class:`PrivacyAccountant` turns a tree of events into a
guarantee by PLD, RDP or zCDP. Any mechanism value of
:mod:`dpverify.mechanisms` (``Gaussian(sigma=1.0)``, ``Laplace(scale=2.0)``,
``RandomizedResponse(k, ε)``, ...) and any guarantee value (``PureDP``,
``ApproxDP``, ``ZCDP``) is an event; :func:`as_event` wraps it, with the
sensitivity of the query it privatises, in a :class:`MechanismEvent`. The
combinators are

* :class:`ComposedEvent` — several events one after the other (adaptively);
* :class:`SelfComposedEvent` — one event ``count`` times;
* :class:`PoissonSampledEvent` — the event run on a Poisson sample (rate q);
* :class:`SampledWithoutReplacementEvent` — run on a uniform batch of m of n records;
* :class:`TruncatedPoissonSampledEvent` — run on a Poisson sample capped at B records
  (dp_accounting's ``TruncatedSubsampledGaussianDpEvent``);
* :class:`TreeAggregationEvent` — DP-FTRL's tree aggregation with restarts
  (Kairouz et al. 2021, App. D): equivalent to one Gaussian release with
  sensitivity ``√depth``, ``depth = ⌈log₂(max steps + 1)⌉``;
* :class:`RepeatAndSelectEvent` — repeat a run a random number of times and
  keep the best (Papernot & Steinke 2022);
* :class:`ExponentialMechanismEvent` — one exponential mechanism, analysed as
  ε-bounded-range (Durfee & Rogers 2019).

Events are hashable frozen dataclasses; :func:`event_to_dict` /
:func:`event_from_dict` serialise them to plain JSON-able dicts.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

import dpverify.mechanisms as mechanisms
from dpverify._validation import (
    check_in_range,
    check_int_at_least,
    check_nonnegative,
    check_positive,
    check_positive_int,
    check_probability,
    shown,
    value_error,
)
from dpverify.errors import DpverifyTypeError
from dpverify.guarantees import ZCDP, ApproxDP, PureDP

__all__ = [
    "Event",
    "MechanismEvent",
    "ComposedEvent",
    "SelfComposedEvent",
    "PoissonSampledEvent",
    "SampledWithoutReplacementEvent",
    "TruncatedPoissonSampledEvent",
    "TreeAggregationEvent",
    "RepeatAndSelectEvent",
    "ExponentialMechanismEvent",
    "as_event",
    "event_to_dict",
    "event_from_dict",
]


class Event:
    """Base class of the event values (an event is what a computation released)."""

    __slots__ = ()


def _mechanism_types() -> dict[str, type]:
    """Mechanism and guarantee classes an event may wrap, by name (for serialisation)."""
    types = {name: getattr(mechanisms, name) for name in mechanisms.__all__
             if isinstance(getattr(mechanisms, name), type)
             and dataclasses.is_dataclass(getattr(mechanisms, name))}
    types.update({"PureDP": PureDP, "ApproxDP": ApproxDP, "ZCDP": ZCDP})
    return types


@dataclass(frozen=True, slots=True)
class MechanismEvent(Event):
    """One release by ``mechanism`` (a mechanism or guarantee value) of a query of ``sensitivity``.

    >>> from dpverify.mechanisms import Gaussian
    >>> MechanismEvent(Gaussian(sigma=2.0)).sensitivity
    1.0
    """

    mechanism: Any
    sensitivity: float = 1.0

    def __post_init__(self) -> None:
        if isinstance(self.mechanism, Event) or not dataclasses.is_dataclass(self.mechanism):
            raise DpverifyTypeError(f"mechanism={self.mechanism!r} must be a dpverify mechanism "
                                    "or guarantee value")
        object.__setattr__(self, "sensitivity", check_positive(self.sensitivity, "sensitivity"))


def as_event(value: Any, name: str = "event") -> Event:
    """``value`` as an event: events unchanged, mechanism/guarantee values wrapped (sensitivity 1).

    ``name`` is the parameter the caller received ``value`` as (named in the refusal).
    """
    if isinstance(value, Event):
        return value
    if not dataclasses.is_dataclass(value) or isinstance(value, type):
        raise DpverifyTypeError(f"{name}={shown(value)} must be an event, or a dpverify "
                                "mechanism or guarantee value")
    return MechanismEvent(value)


def _events(values: Any, name: str) -> tuple[Event, ...]:
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise DpverifyTypeError(f"{name}={values!r} must be a sequence of events")
    events = tuple(as_event(value, name) for value in values)
    if not events:
        raise value_error(name, values, "non-empty")
    return events


@dataclass(frozen=True, slots=True)
class ComposedEvent(Event):
    """The events one after the other (adaptive composition).

    >>> from dpverify.mechanisms import Gaussian, Laplace
    >>> len(ComposedEvent((Gaussian(sigma=1.0), Laplace(scale=1.0))).events)
    2
    """

    events: tuple

    def __post_init__(self) -> None:
        object.__setattr__(self, "events", _events(self.events, "events"))


@dataclass(frozen=True, slots=True)
class SelfComposedEvent(Event):
    """``event`` repeated ``count`` times (adaptively)."""

    event: Any
    count: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "event", as_event(self.event))
        object.__setattr__(self, "count", check_positive_int(self.count, "count"))


@dataclass(frozen=True, slots=True)
class PoissonSampledEvent(Event):
    """``event`` run on a Poisson sample: each record kept independently w.p. ``sampling_probability``."""

    event: Any
    sampling_probability: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "event", as_event(self.event))
        object.__setattr__(self, "sampling_probability", check_probability(
            self.sampling_probability, "sampling_probability", open_low=True))


@dataclass(frozen=True, slots=True)
class SampledWithoutReplacementEvent(Event):
    """``event`` run on a uniformly random batch of ``sample_size`` of ``population_size`` records."""

    event: Any
    sample_size: int
    population_size: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "event", as_event(self.event))
        object.__setattr__(self, "population_size",
                           check_positive_int(self.population_size, "population_size"))
        object.__setattr__(self, "sample_size", check_int_at_least(self.sample_size, "sample_size", 1))
        if self.sample_size > self.population_size:
            raise value_error("sample_size", self.sample_size,
                              f"at most population_size ({self.population_size})")

    @property
    def sampling_probability(self) -> float:
        return self.sample_size / self.population_size


@dataclass(frozen=True, slots=True)
class TruncatedPoissonSampledEvent(Event):
    """``event`` run on a Poisson sample (rate ``sampling_probability``) capped at ``max_sample_size``.

    Each of the ``population_size`` records is kept independently with probability
    q; when more than B = ``max_sample_size`` are kept, a uniformly random B of them
    are used (a fixed-memory batch). dp_accounting's ``TruncatedSubsampledGaussianDpEvent``
    (``dataset_size`` is ``population_size``, ``truncated_batch_size`` is B). The
    inner event is a Gaussian release; its guarantee holds under add/remove for the
    neighbours (n − 1 and n + 1 records) of a dataset of n = ``population_size``
    records, the size being public (:mod:`dpverify.accountants._truncated_poisson`).

    >>> from dpverify.mechanisms import Gaussian
    >>> TruncatedPoissonSampledEvent(Gaussian(sigma=1.0), 0.01, 120, 10_000).max_sample_size
    120
    """

    event: Any
    sampling_probability: float
    max_sample_size: int
    population_size: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "event", as_event(self.event))
        object.__setattr__(self, "sampling_probability", check_probability(
            self.sampling_probability, "sampling_probability", open_low=True))
        object.__setattr__(self, "max_sample_size",
                           check_int_at_least(self.max_sample_size, "max_sample_size", 1))
        object.__setattr__(self, "population_size",
                           check_positive_int(self.population_size, "population_size"))


@dataclass(frozen=True, slots=True)
class TreeAggregationEvent(Event):
    """DP-FTRL tree aggregation with Gaussian noise per node, restarted after each entry of ``step_counts``.

    Each record enters at most one tree (wrap in :class:`SelfComposedEvent` for
    several epochs). A record touches at most ``depth = ⌈log₂(max(steps) + 1)⌉``
    nodes of its tree, so the release is one Gaussian mechanism with ℓ2
    sensitivity ``√depth`` (Kairouz et al., ICML 2021, App. D).

    >>> TreeAggregationEvent(noise_multiplier=1.0, step_counts=(7, 3)).depth
    3
    """

    noise_multiplier: float
    step_counts: tuple = (1,)

    def __post_init__(self) -> None:
        object.__setattr__(self, "noise_multiplier",
                           check_positive(self.noise_multiplier, "noise_multiplier"))
        counts = self.step_counts
        counts = (counts,) if not hasattr(counts, "__iter__") or isinstance(
            counts, (str, bytes)) else tuple(counts)
        counts = tuple(check_positive_int(c, "step_counts") for c in counts)
        if not counts:
            raise value_error("step_counts", self.step_counts, "non-empty")
        object.__setattr__(self, "step_counts", counts)

    @property
    def depth(self) -> int:
        return math.ceil(math.log2(max(self.step_counts) + 1))


@dataclass(frozen=True, slots=True)
class RepeatAndSelectEvent(Event):
    """Run ``event`` a random number of times (mean ``mean``, truncated negative binomial ``shape``) and select.

    ``shape = 1`` is the geometric and ``shape = 0`` the logarithmic distribution;
    ``shape = inf`` stands for a Poisson number of repetitions (Papernot & Steinke,
    ICLR 2022).
    """

    event: Any
    mean: float
    shape: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "event", as_event(self.event))
        object.__setattr__(self, "mean", check_in_range(self.mean, "mean", 1.0, 1e12))
        object.__setattr__(self, "shape", check_nonnegative(self.shape, "shape", allow_inf=True))


@dataclass(frozen=True, slots=True)
class ExponentialMechanismEvent(Event):
    """One exponential mechanism with its usual ``epsilon = 2 η Δu`` (weights ``e^{η u(x, o)}``,
    utility sensitivity Δu).

    It is ε-DP and ε-bounded-range (the ratio of likelihood ratios of two outputs
    is at most ``e^{2ηΔu}``; Durfee & Rogers, NeurIPS 2019), hence ``ε²/8``-zCDP
    (Cesar & Rogers, ALT 2021, Lemma 3.2) instead of the ``ε²/2`` of pure DP. The
    PLD accountant uses the pair dominating every ε-bounded-range mechanism
    (:meth:`~dpverify.accountants.pld.distribution.PrivacyLossDistribution.from_bounded_range`,
    after Dong, Durfee & Rogers, ICML 2020).

    >>> ExponentialMechanismEvent(1.0).epsilon
    1.0
    """

    epsilon: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "epsilon", check_positive(self.epsilon, "epsilon"))


_COMBINATORS: dict[str, type] = {cls.__name__: cls for cls in (
    MechanismEvent, ComposedEvent, SelfComposedEvent, PoissonSampledEvent,
    SampledWithoutReplacementEvent, TruncatedPoissonSampledEvent, TreeAggregationEvent,
    RepeatAndSelectEvent, ExponentialMechanismEvent)}


def _plain(value: Any) -> Any:
    if isinstance(value, Event):
        return event_to_dict(value)
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    return value


def event_to_dict(event: Any) -> dict:
    """A JSON-able dict ``{"type": name, field: value, ...}`` describing ``event``.

    >>> from dpverify.mechanisms import Gaussian
    >>> event_to_dict(SelfComposedEvent(Gaussian(sigma=1.0), 3))["event"]["mechanism"]
    {'type': 'Gaussian', 'sigma': 1.0}
    """
    event = as_event(event, "event")
    out: dict[str, Any] = {"type": type(event).__name__}
    for item in dataclasses.fields(event):
        value = getattr(event, item.name)
        if item.name == "mechanism":
            value = {"type": type(value).__name__,
                     **{f.name: getattr(value, f.name) for f in dataclasses.fields(value)}}
        out[item.name] = _plain(value)
    return out


def event_from_dict(data: Any) -> Event:
    """Inverse of :func:`event_to_dict` (mechanisms by class name from :mod:`dpverify.mechanisms`).

    >>> from dpverify.mechanisms import Laplace
    >>> event = PoissonSampledEvent(Laplace(scale=1.0), 0.1)
    >>> event_from_dict(event_to_dict(event)) == event
    True
    """
    if not isinstance(data, dict) or data.get("type") not in _COMBINATORS:
        raise value_error("data", data,
                          f"an event's dict, with 'type' one of {sorted(_COMBINATORS)}")
    fields = {key: value for key, value in data.items() if key != "type"}
    if data["type"] == "MechanismEvent":
        spec = fields.get("mechanism")
        types = _mechanism_types()
        if not isinstance(spec, dict) or spec.get("type") not in types:
            raise value_error("mechanism", spec, f"a dict with 'type' one of {sorted(types)}")
        fields["mechanism"] = types[spec["type"]](**{k: v for k, v in spec.items() if k != "type"})
    for key, value in fields.items():
        if isinstance(value, dict) and "type" in value:
            fields[key] = event_from_dict(value)
        elif key == "events":
            fields[key] = tuple(event_from_dict(item) for item in value)
        elif isinstance(value, list):
            fields[key] = tuple(value)
    try:
        return _COMBINATORS[data["type"]](**fields)
    except TypeError as error:
        raise value_error("event", data, f"the fields of {data['type']}", str(error)) from None
