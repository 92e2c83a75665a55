"""A failure probability is in (0, 1/2], and a confidence level passed by mistake is named as one.

Every bandit entry point that takes ``failure_probability`` (the radii's p or β, the
privatizers' noise-tail p, LinUCB's δ) refuses 0.95 with a message that says what the
parameter means; 1/2 and tiny values are accepted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from dpverify._validation import check_failure_probability
from dpverify.bandits.contextual import LinUCB
from dpverify.bandits.contextual.linucb import oful_radius
from dpverify.bandits.contextual.parameters import confidence_radius, regularizer
from dpverify.bandits.linear import DistributedPhasedElimination
from dpverify.bandits.linear.distributed_phased_elimination import dpdpe_width
from dpverify.bandits.mab import DPSE, BatchedSuccessiveElimination, secure_aggregation_plans
from dpverify.bandits.mab.dp_se import dp_se_epoch_length
from dpverify.bandits.privatizers import (
    CentralDiscreteLaplace,
    DiscreteGaussianSecureAggregation,
    LocalDiscreteLaplace,
    NonPrivate,
    PolyaSecureAggregation,
    PolyaShuffle,
    SkellamSecureAggregation,
    distributed_dp_parameters,
)

HINT = r"must be in \(0, 0\.5\]; it is the probability that the high-probability statement fails"

#: name -> a call taking the failure probability.
TAKERS: dict[str, Callable[[float], Any]] = {
    "DPSE": lambda p: DPSE(0.5, failure_probability=p).epoch_lengths(n_arms=2, horizon=100),
    "BatchedSuccessiveElimination": lambda p: BatchedSuccessiveElimination(
        NonPrivate(), failure_probability=p).start(n_arms=2, horizon=100),
    "dp_se_epoch_length": lambda p: dp_se_epoch_length(1, active_arms=2, epsilon=0.5,
                                                       failure_probability=p),
    "DistributedPhasedElimination": lambda p: DistributedPhasedElimination(
        "none", failure_probability=p),
    "dpdpe_width": lambda p: dpdpe_width(dimension=2, users=2, plays=20.0, heterogeneity=0.1,
                                         width_sigma=0.0, failure_probability=p),
    "LinUCB": lambda p: LinUCB(failure_probability=p),
    "oful_radius": lambda p: oful_radius(10, failure_probability=p, sigma=0.5, dimension=2,
                                         context_bound=1.0, theta_bound=1.0, regularization=1.0),
    "regularizer": lambda p: regularizer(10, failure_probability=p, bits=1,
                                         randomization_probability=0.5, regularization=1.0),
    "confidence_radius": lambda p: confidence_radius(
        10, failure_probability=p, sigma=0.5, dimension=2, context_bound=1.0, theta_bound=1.0,
        bits=1, randomization_probability=0.5, regularization=1.0),
    **{cls.__name__: (lambda p, cls=cls: cls(0.5, failure_probability=p))
       for cls in (PolyaSecureAggregation, PolyaShuffle, SkellamSecureAggregation,
                   DiscreteGaussianSecureAggregation, CentralDiscreteLaplace,
                   LocalDiscreteLaplace)},
    "distributed_dp_parameters": lambda p: distributed_dp_parameters(1.0, 16, p),
    "secure_aggregation_plans": lambda p: secure_aggregation_plans(
        1.0, 1e-6, users=100, failure_probability=p),
}


@pytest.mark.parametrize("name", sorted(TAKERS))
def test_a_confidence_level_is_refused_with_the_meaning(name: str) -> None:
    with pytest.raises(ValueError, match="failure_probability=0.95 " + HINT):
        TAKERS[name](0.95)


@pytest.mark.parametrize("name", sorted(TAKERS))
@pytest.mark.parametrize("value", [0.0, -0.1, 1.0, float("nan")])
def test_values_outside_the_open_interval_are_refused(name: str, value: float) -> None:
    with pytest.raises(ValueError, match="failure_probability="):
        TAKERS[name](value)


@pytest.mark.parametrize("name", sorted(TAKERS))
@pytest.mark.parametrize("value", [0.5, 0.1, 1e-9])
def test_failure_probabilities_up_to_one_half_are_accepted(name: str, value: float) -> None:
    TAKERS[name](value)


def test_the_check_returns_the_value_and_refuses_non_numbers() -> None:
    assert check_failure_probability(0.5) == 0.5
    assert check_failure_probability(1e-300, "p") == 1e-300
    with pytest.raises(TypeError, match="p="):
        check_failure_probability("0.1", "p")
    with pytest.raises(TypeError):
        check_failure_probability(True)


def test_the_default_at_horizon_one_is_one_half() -> None:
    """p = 1/T by default; at T = 1 that would be 1, a vacuous statement: 1/2 is used."""
    assert PolyaSecureAggregation(0.5).for_horizon(1).failure_probability == 0.5
    assert PolyaSecureAggregation(0.5).for_horizon(4).failure_probability == 0.25
    policy = DPSE(0.5).start(n_arms=2, horizon=1)
    assert policy.failure_probability == 0.5
