"""Tests of dpverify.accountants.events: frozen values, validation, serialisation round-trips."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dpverify.accountants.events import (
    ComposedEvent,
    ExponentialMechanismEvent,
    MechanismEvent,
    PoissonSampledEvent,
    RepeatAndSelectEvent,
    SampledWithoutReplacementEvent,
    SelfComposedEvent,
    TreeAggregationEvent,
    as_event,
    event_from_dict,
    event_to_dict,
)
from dpverify.guarantees import ZCDP, ApproxDP, PureDP
from dpverify.mechanisms import Gaussian, Laplace, RandomizedResponse

_BASE = st.one_of(
    st.floats(0.1, 10).map(lambda s: Gaussian(sigma=s)),
    st.floats(0.1, 10).map(lambda b: Laplace(scale=b)),
    st.tuples(st.integers(2, 6), st.floats(0.1, 3)).map(lambda a: RandomizedResponse(*a)),
    st.floats(0.1, 3).map(PureDP),
    st.tuples(st.floats(0.1, 3), st.floats(0, 0.5)).map(lambda a: ApproxDP(*a)),
    st.floats(0.01, 3).map(ZCDP),
)
_EVENTS = st.recursive(
    st.one_of(_BASE.map(as_event), st.floats(0.1, 3).map(ExponentialMechanismEvent)),
    lambda inner: st.one_of(
        st.lists(inner, min_size=1, max_size=3).map(lambda e: ComposedEvent(tuple(e))),
        st.tuples(inner, st.integers(1, 10 ** 6)).map(lambda a: SelfComposedEvent(*a)),
        st.tuples(inner, st.floats(0.001, 1)).map(lambda a: PoissonSampledEvent(*a)),
        st.tuples(inner, st.integers(1, 10), st.integers(10, 100)).map(
            lambda a: SampledWithoutReplacementEvent(*a)),
        st.tuples(st.floats(0.5, 5), st.lists(st.integers(1, 100), min_size=1, max_size=3)).map(
            lambda a: TreeAggregationEvent(a[0], tuple(a[1]))),
        st.tuples(inner, st.floats(1, 10), st.floats(0, 3)).map(
            lambda a: RepeatAndSelectEvent(*a)),
    ),
    max_leaves=6,
)


@given(_EVENTS)
def test_events_round_trip_through_json(event):
    data = json.loads(json.dumps(event_to_dict(event)))
    assert event_from_dict(data) == event
    assert hash(event_from_dict(data)) == hash(event)


def test_events_are_frozen_and_wrap_mechanisms():
    event = SelfComposedEvent(Gaussian(sigma=1.0), 3)
    assert event.event == MechanismEvent(Gaussian(sigma=1.0), 1.0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.count = 4  # type: ignore[misc]


def test_tree_aggregation_depth_is_that_of_the_largest_tree():
    assert TreeAggregationEvent(1.0, (1,)).depth == 1
    assert TreeAggregationEvent(1.0, 7).depth == 3
    assert TreeAggregationEvent(1.0, (8, 2)).depth == 4


@pytest.mark.parametrize("build, name", [
    (lambda: SelfComposedEvent(Gaussian(sigma=1.0), 0), "count"),
    (lambda: PoissonSampledEvent(Gaussian(sigma=1.0), 1.5), "sampling_probability"),
    (lambda: SampledWithoutReplacementEvent(Gaussian(sigma=1.0), 11, 10), "sample_size"),
    (lambda: TreeAggregationEvent(-1.0, 3), "noise_multiplier"),
    (lambda: ComposedEvent(()), "events"),
    (lambda: MechanismEvent(Gaussian(sigma=1.0), sensitivity=0.0), "sensitivity"),
    (lambda: RepeatAndSelectEvent(Gaussian(sigma=1.0), 0.5, 1.0), "mean"),
    (lambda: event_from_dict({"type": "Nope"}), "event"),
])
def test_bad_events_name_the_parameter(build, name):
    with pytest.raises(ValueError, match=name):
        build()


def test_mechanism_event_refuses_non_mechanisms():
    with pytest.raises(TypeError, match="mechanism"):
        MechanismEvent(3.0)
