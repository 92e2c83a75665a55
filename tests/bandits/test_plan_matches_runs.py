"""A plan's parameters are the ones a simulation of the same algorithm actually uses.

Each algorithm runs through :func:`dpverify.bandits.simulate.simulate` behind a
recorder that keeps the policies it starts; the policies' own records
(``deployments``: the privatizer parameters of every batch / phase started,
or a contextual learner's ``params``) are compared with the plan.
"""

from __future__ import annotations

from typing import Any

import pytest

from dpverify.bandits import ALGORITHM_FAMILIES, ALL_ALGORITHM_NAMES, NON_PRIVATE_ALGORITHMS, make_algorithm
from dpverify.bandits.contextual import ContextualInstanceFamily
from dpverify.bandits.environments import BernoulliBandit
from dpverify.bandits.linear.environments import LinearInstanceFamily
from dpverify.bandits.simulate import simulate

HORIZON = 3000


class Recorder:
    """Forwards everything to ``algorithm`` and keeps every policy / learner it starts."""

    def __init__(self, algorithm: Any) -> None:
        self.algorithm = algorithm
        self.policies: list[Any] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.algorithm, name)

    def start(self, **kwargs: Any) -> Any:
        policy = self.algorithm.start(**kwargs)
        self.policies.append(policy)
        return policy


def _setup(name: str) -> tuple[Any, Any, dict[str, int]]:
    family = ALGORITHM_FAMILIES[name]
    epsilon = None if name in NON_PRIVATE_ALGORITHMS else (10.0 if name.startswith("dpdpe")
                                                           else 1.0)
    options = {"horizon": HORIZON, "dimension": 3} if name == "dpe-fixedu" else {}
    algorithm = make_algorithm(name, epsilon=epsilon, **options)
    if family == "multi-armed":
        return algorithm, BernoulliBandit((0.3, 0.5, 0.7)), {"n_arms": 3}
    if family == "linear":
        kind = "sphere" if name.startswith("hanna") else "dpdpe"
        return algorithm, LinearInstanceFamily(kind, dimension=3, n_arms=20), {"dimension": 3,
                                                                                "n_arms": 20}
    return algorithm, ContextualInstanceFamily(n_arms=3, dimension=2), {"n_arms": 3, "dimension": 2}


def _compare(name: str, plan: Any, policy: Any) -> None:
    family = ALGORITHM_FAMILIES[name]
    if family == "contextual":
        if name == "linucb":
            return
        q = policy.params
        assert q.randomization_probability == plan.parameters["randomization_probability_p"] == policy.p
        assert q.local_epsilon == plan.parameters["local_epsilon_0"]
        if name.startswith("sblb"):
            assert q.batch_length == plan.parameters["shuffler_batch_length_l"] == policy.unit
            assert q.epsilon == plan.parameters["internal_epsilon_target"]
            assert q.shuffle_delta == plan.parameters["shuffle_delta_0"]
            assert q.regularization == plan.parameters["regularization_lambda"]
        return
    assert policy.deployments, name
    if name == "dp-se":
        first = policy.deployments[0]
        assert first["batch_size"] == plan.schedule[0]["batch_size"]
        assert first["analyser_laplace_b"] == plan.parameters["analyser_laplace_b"]
        return
    if family == "multi-armed":
        by_size = {record["batch_size"]: record for record in plan.schedule}
        for record in policy.deployments:
            planned = by_size[record["users_n"]]
            assert {key: planned[key] for key in record} == record, name
        return
    for record in policy.deployments:
        key = "batch" if "batch" in record else "phase"
        planned = plan.schedule[record[key] - 1]
        if key == "batch":  # hanna
            assert planned["users_at_least"] <= record["users"] <= planned["users_at_most"]
            assert record["core_set_size"] <= plan.parameters["core_set_size_at_most"]
            if record["epsilon"] is not None:
                assert record["laplace_b"] == planned["laplace_b"]
                assert record["epsilon"] == planned.get("local_epsilon_0", planned.get("epsilon"))
        else:  # DP-DPE
            assert record["users_U"] == planned["users_U"]
            assert record["coordinates_s"] <= planned["coordinates_s_at_most"]
            privatizer = policy.privatizer
            if hasattr(privatizer, "sigma_ratio"):
                assert privatizer.sigma_ratio == \
                    plan.parameters["noise_multiplier_sigma_over_sensitivity"]


@pytest.mark.slow
@pytest.mark.parametrize("name", ALL_ALGORITHM_NAMES)
def test_plan_parameters_are_the_runs_parameters(name) -> None:
    algorithm, environment, sizes = _setup(name)
    plan = algorithm.plan(horizon=HORIZON, **sizes)
    recorder = Recorder(algorithm)
    result = simulate(recorder, environment, HORIZON, runs=1, seed=3)
    assert len(recorder.policies) == 1
    _compare(name, plan, recorder.policies[0])
    # the run reports the plan's guarantee and verdict
    approx = None if result.guarantee is None else result.guarantee.approx_dp
    assert approx == plan.guarantee and result.claim_met == (plan.claim_met or
                                                             plan.infeasible is not None)
