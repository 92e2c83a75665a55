"""dpverify.testing.strategies: every strategy's invariants, eager validation, and shrinking."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

from dpverify import ZCDP, ApproxDP, EpsilonBounds, PrivacyProfile, PureDP, RDPCurve
from dpverify import mechanisms as mech
from dpverify.neighbouring import are_neighbours
from dpverify.testing import strategies as dst


@given(dst.epsilons(min_value=0.5, max_value=2.0))
def test_epsilons_lie_in_their_range(epsilon: float) -> None:
    assert 0.5 <= epsilon <= 2.0 and math.isfinite(epsilon)


@given(dst.deltas())
def test_deltas_lie_in_zero_to_a_tenth(delta: float) -> None:
    assert delta == 0.0 or dst.SMALLEST_POSITIVE_DELTA <= delta <= 0.1


@given(dst.deltas(min_value=1e-9, max_value=1e-3))
def test_positive_deltas_lie_in_their_range(delta: float) -> None:
    assert 1e-9 <= delta <= 1e-3


def test_deltas_cover_many_orders_of_magnitude() -> None:
    """Log-uniform: both a δ below 1e-9 and one above 1e-3 are found (1e-12 .. 1e-1)."""
    assert find(dst.deltas(min_value=1e-12), lambda d: d < 1e-9) == pytest.approx(1e-12)
    assert find(dst.deltas(min_value=1e-12), lambda d: d > 1e-3) == pytest.approx(1e-2)


@given(dst.orders(max_value=64.0))
def test_orders_exceed_one(order: float) -> None:
    assert 1.0 < order <= 64.0


@given(dst.orders(min_value=1.5, max_value=10.0, integers=True))
def test_integer_orders_are_integral(order: float) -> None:
    assert order == int(order) and 2 <= order <= 10


@given(dst.sensitivities(max_value=4.0), dst.sensitivities(max_value=7.5, integers=True))
def test_sensitivities_are_positive(real: float, integral: int) -> None:
    assert 0.0 < real <= 4.0
    assert isinstance(integral, int) and 1 <= integral <= 7


@given(dst.guarantees())
def test_guarantees_are_valid_values_of_the_five_types(guarantee) -> None:
    assert isinstance(guarantee, dst.GUARANTEE_TYPES)
    if isinstance(guarantee, RDPCurve):
        assert list(guarantee.epsilons) == sorted(guarantee.epsilons)
    if isinstance(guarantee, PrivacyProfile):
        assert 0.0 <= guarantee.delta_for_epsilon(1.0) <= 1.0


@given(dst.guarantees(types=(ApproxDP,), max_epsilon=1.0, max_delta=1e-5))
def test_guarantee_bounds_are_respected(guarantee: ApproxDP) -> None:
    assert guarantee.epsilon <= 1.0 and 0.0 < guarantee.delta <= 1e-5


@pytest.mark.slow
@pytest.mark.parametrize("kind", [PureDP, ApproxDP, ZCDP, RDPCurve, PrivacyProfile, EpsilonBounds])
def test_from_type_draws_every_guarantee_type(kind: type) -> None:
    value = find(st.from_type(kind), lambda v: True)
    assert isinstance(value, kind)


def test_guarantees_shrink_to_the_simplest_pure_dp() -> None:
    assert find(dst.guarantees(), lambda g: True) == PureDP(0.0)


@pytest.mark.slow
@pytest.mark.parametrize("relation", ["replace-one", "replace-special", "add-remove"])
@given(data=st.data())
def test_neighbouring_datasets_are_neighbours(relation: str, data: st.DataObject) -> None:
    x, x_prime = data.draw(dst.neighbouring_datasets(st.integers(0, 3), min_size=2, max_size=6,
                                                     neighbouring=relation))
    assert are_neighbours(x, x_prime, relation)
    assert all(2 <= len(d) <= 6 for d in (x, x_prime))
    if relation == "add-remove":
        assert abs(len(x) - len(x_prime)) == 1


def test_add_remove_pairs_shrink_to_a_record_added_to_nothing() -> None:
    pair = find(dst.neighbouring_datasets(st.integers(0, 9), min_size=0, neighbouring="add-remove"),
                lambda p: True)
    assert pair == ([0], [])


def test_replace_pairs_shrink_to_the_first_position() -> None:
    pair = find(dst.neighbouring_datasets(st.integers(0, 9), min_size=3),
                lambda p: p[0] != p[1])
    assert sorted(pair) == [[0, 0, 0], [1, 0, 0]]  # the simplest records, changed at position 0


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["bernoulli", "unit-interval"])
@given(data=st.data())
def test_reward_streams_differ_in_exactly_one_user(kind: str, data: st.DataObject) -> None:
    rewards, changed = data.draw(dst.neighbouring_reward_streams(12, kind=kind))
    assert rewards.shape == changed.shape == (12,)
    assert np.count_nonzero(rewards != changed) == 1
    assert are_neighbours(list(rewards), list(changed))
    for stream in (rewards, changed):
        assert ((stream >= 0) & (stream <= 1)).all()
        if kind == "bernoulli":
            assert set(np.unique(stream)) <= {0.0, 1.0}


@pytest.mark.slow
@pytest.mark.parametrize("norm, order", [("l1", 1), ("l2", 2)])
@given(data=st.data(), bound=st.floats(0.01, 100.0))
def test_bounded_vectors_respect_the_norm_bound(norm: str, order: int, bound: float,
                                                data: st.DataObject) -> None:
    vector = data.draw(dst.bounded_vectors(5, norm=norm, norm_bound=bound))
    assert vector.shape == (5,) and np.isfinite(vector).all()
    assert np.linalg.norm(vector, ord=order) <= bound


def test_bounded_vectors_reach_the_boundary() -> None:
    """The edge of the ball is drawn: a vector with norm above 0.999·bound is found."""
    vector = find(dst.bounded_vectors(3, norm_bound=2.0), lambda v: np.linalg.norm(v) > 1.998)
    assert 1.998 < np.linalg.norm(vector) <= 2.0


def test_bounded_vectors_shrink_to_zero() -> None:
    assert not find(dst.bounded_vectors(4), lambda v: True).any()


@pytest.mark.slow
@given(dst.neighbouring_bounded_vectors(3, norm="l1", norm_bound=1.5, max_users=5))
def test_neighbouring_vectors_differ_in_one_row(pair) -> None:
    data, changed = pair
    assert data.shape == changed.shape and data.shape[1] == 3 and 1 <= data.shape[0] <= 5
    assert np.count_nonzero((data != changed).any(axis=1)) <= 1
    assert are_neighbours(data, changed)
    assert (np.abs(data).sum(axis=1) <= 1.5).all() and (np.abs(changed).sum(axis=1) <= 1.5).all()


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=40)
@given(dst.mechanisms())
def test_mechanisms_have_valid_parameters_and_a_privacy_map(mechanism) -> None:
    assert type(mechanism).__name__ in dst.MECHANISM_TYPES
    assert mech.supported_guarantees(mechanism)


def test_mechanisms_can_be_restricted_to_some_types() -> None:
    found = find(dst.mechanisms(types=(mech.Gaussian, mech.Skellam)),
                 lambda m: isinstance(m, mech.Skellam))
    assert isinstance(found, mech.Skellam)
    assert find(dst.mechanisms(types=(mech.Gaussian,)), lambda m: True) == mech.Gaussian(1.0)


BAD_CALLS = [
    (dst.epsilons, {"min_value": -1.0}, "min_value"),
    (dst.epsilons, {"max_value": math.nan}, "max_value"),
    (dst.epsilons, {"min_value": 2.0, "max_value": 1.0}, "max_value"),
    (dst.deltas, {"max_value": 1.0}, "max_value"),
    (dst.deltas, {"min_value": 0.5, "max_value": 0.1}, "max_value"),
    (dst.orders, {"min_value": 0.5}, "min_value"),
    (dst.orders, {"min_value": 2.0, "max_value": 2.5, "integers": True}, "max_value"),
    (dst.sensitivities, {"max_value": 0.0}, "max_value"),
    (dst.guarantees, {"types": PureDP}, "types"),
    (dst.guarantees, {"types": (float,)}, "types"),
    (dst.guarantees, {"max_delta": 0.0}, "max_delta"),
    (dst.neighbouring_datasets, {"elements": [0, 1]}, "elements"),
    (dst.neighbouring_datasets, {"elements": st.just(0), "neighbouring": "swap"}, "neighbouring"),
    (dst.neighbouring_datasets, {"elements": st.just(0), "min_size": 0}, "min_size"),
    (dst.neighbouring_datasets, {"elements": st.just(0), "min_size": 3, "max_size": 2},
     "max_size"),
    (dst.neighbouring_datasets, {"elements": st.just(0), "min_size": 3, "max_size": 3,
                                 "neighbouring": "add-remove"}, "max_size"),
    (dst.neighbouring_reward_streams, {"horizon": 0}, "horizon"),
    (dst.neighbouring_reward_streams, {"horizon": 5, "kind": "gaussian"}, "kind"),
    (dst.bounded_vectors, {"dimension": 3, "norm": "linf"}, "norm"),
    (dst.bounded_vectors, {"dimension": 3, "bound": -1.0}, "bound"),
    (dst.bounded_vectors, {"dimension": 0}, "dimension"),
    (dst.neighbouring_bounded_vectors, {"dimension": 2, "min_users": 3, "max_users": 2},
     "max_users"),
    (dst.mechanisms, {"types": (PureDP,)}, "types"),
]


@pytest.mark.parametrize("function, kwargs, name", BAD_CALLS,
                         ids=[f"{f.__name__}-{n}-{i}" for i, (f, _, n) in enumerate(BAD_CALLS)])
def test_bad_bounds_are_refused_eagerly_by_name(function, kwargs, name) -> None:
    """The error comes from the call itself, before anything is drawn."""
    with pytest.raises((ValueError, TypeError), match=name):
        function(**kwargs)


@pytest.mark.parametrize("direction", [[1e-300, -5e-310, 0.0], [5e-324, 0.0, 0.0], [1.0, 1.0, 1.0],
                                       [-0.0, 0.0, 0.0]])
@pytest.mark.parametrize("order", [1, 2])
def test_scaling_a_tiny_direction_neither_overflows_nor_loops(direction, order) -> None:
    """Regression: a subnormal direction scaled to the radius overflowed to inf (and looped)."""
    from dpverify.testing._neighbouring_strategies import _within

    vector = _within(np.array(direction), 2.0, order, 2.0)
    assert np.isfinite(vector).all() and np.linalg.norm(vector, ord=order) <= 2.0
    if any(direction):
        assert np.linalg.norm(vector, ord=order) > 1.999
