"""DP-DPE: schedule, width, communication, guarantees (dpverify.bandits.linear.distributed_phased_elimination)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpverify.bandits.linear import DistributedPhasedElimination, make_linear_algorithm
from dpverify.bandits.linear.distributed_phased_elimination import (
    dpdpe_width,
    fixed_users_for_equal_communication,
    phase_schedule,
)
from dpverify.bandits.linear.environments import DistributedLinearBandit, LinearInstanceFamily
from dpverify.bandits.simulate import simulate


def test_phase_schedule_at_the_papers_setting():
    # Li, Zhou & Ji 2022, §7 (T = 10^6, d = 20, α = 0.8): 14 phases, |U_l| = 2, 4, 6, 10, …, 2353
    # (5532 clients), h_1 = 103.78 (natural log)
    phases = phase_schedule(10 ** 6, 20, 0.8)
    assert [u for _, _, u in phases] == [2, 4, 6, 10, 16, 28, 49, 85, 148, 256, 446, 777, 1352,
                                         2353]
    assert sum(u for _, _, u in phases) == 5532
    assert math.isclose(phases[0][1], 4 * 20 * math.log(math.log(20)) + 16)


def test_width_formula():
    w = dpdpe_width(dimension=20, users=16, plays=1660.0, heterogeneity=0.1, width_sigma=0.05,
                    failure_probability=1e-9)
    expected = (math.sqrt(40 / (16 * 1660)) + 0.1 / 4 + 0.05) * math.sqrt(2 * math.log(1e9))
    assert math.isclose(w, expected)


def test_fixed_users_equal_client_count():
    phases = phase_schedule(10 ** 6, 20, 0.8)
    assert fixed_users_for_equal_communication(10 ** 6, 20, 0.8) == round(
        sum(u for _, _, u in phases[:13]) / 13)


def test_communication_cost_counts_reals_and_bits():
    env = DistributedLinearBandit(np.eye(3), [0.6, 0.8, 0.0])
    dpe = simulate(make_linear_algorithm("dpe"), env, 5000, seed=0)
    sdp = simulate(make_linear_algorithm("dpdpe-shuffle", epsilon=10.0), env, 5000, seed=0)
    assert dpe.communication_cost is not None and dpe.communication_cost[0] > 0
    assert float(dpe.communication_cost[0]).is_integer()
    assert sdp.communication_cost[0] > 100 * dpe.communication_cost[0]  # bits, g + b per real
    assert "communication_cost" in dpe.summary()


def test_dpe_finds_the_best_action_and_never_exceeds_the_horizon():
    env = DistributedLinearBandit(np.array([[1.0, 0.0], [0.0, 1.0], [0.7, 0.7]]), [1.0, 0.0])
    result = simulate(make_linear_algorithm("dpe"), env, 100_000, runs=3, seed=2)
    assert np.all(result.pulls.sum(axis=1) == 100_000)
    assert np.all(result.pulls[:, 0] > 0.8 * 100_000)


def test_per_user_shuffle_path_runs():
    family = LinearInstanceFamily("dpdpe", dimension=3, n_arms=20)
    result = simulate(make_linear_algorithm("dpdpe-shuffle", epsilon=10.0), family, 20_000,
                      seed=1, per_user=True)
    assert result.final_regret().shape == (1,)


def test_population_is_finite():
    env = DistributedLinearBandit(np.eye(2), [1.0, 0.0], population_size=5)
    with pytest.raises(ValueError, match="population"):
        simulate(make_linear_algorithm("dpe"), env, 10_000, seed=0)


def test_guarantees():
    local = DistributedPhasedElimination("local", 10.0, 0.25, local_constant="thm2")
    assert local.guarantee(n_arms=10, horizon=100).approx_dp.delta > 0.25
    assert DistributedPhasedElimination("local", 0.5, 1e-5, mode="sound").guarantee(
        n_arms=10, horizon=100).approx_dp.delta <= 1e-5
    shuffle = DistributedPhasedElimination("shuffle", 10.0, 0.25).guarantee(n_arms=1, horizon=1)
    assert shuffle.model == "shuffle" and "[R]" in shuffle.notes
    assert DistributedPhasedElimination("none").guarantee(n_arms=1, horizon=1).model == "none"
