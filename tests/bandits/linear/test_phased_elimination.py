"""Hanna et al. 2022 phased elimination: schedule, widths, pulls, runs (dpverify.bandits.linear.phased_elimination)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpverify.bandits.linear import PhasedElimination, make_linear_algorithm
from dpverify.bandits.linear.environments import LinearBandit, LinearInstanceFamily
from dpverify.bandits.linear.phased_elimination import (
    PhasedEliminationPolicy,
    batch_base,
    batch_count,
    batch_pulls,
    hanna_width,
)
from dpverify.bandits.simulate import simulate


def test_schedule_constants():
    assert math.e <= batch_base(10 ** 6) <= math.e ** 2
    assert math.isclose(batch_base(10 ** 6), (2e6) ** (1 / math.log(1e6)))
    # the paper's "ln T − 1" batches, rounded down; batches 1..12 at T = 1e6 fit in T
    assert batch_count(10 ** 6) == 12
    q = batch_base(10 ** 6)
    assert sum(q ** i for i in range(1, 13)) < 10 ** 6


def test_batch_pulls_ceil_and_at_least_one():
    assert batch_pulls([0.999, 0.001], 2.0, 1).tolist() == [2, 1]


def test_widths_paper_and_sound():
    common = dict(dimension=2, batch_base=3.0, batch_index=4, active=10, horizon=10 ** 5)
    L = math.log(4 * 10 * 10 ** 10)
    stat = math.sqrt(4 * 2 * L / 81)
    assert math.isclose(hanna_width("none", "paper", action_sizes=[5, 5], epsilon=None, **common),
                        stat)
    central = hanna_width("central", "paper", action_sizes=[40, 41], epsilon=0.5, **common)
    assert math.isclose(central, stat + (2 * 2 * 2 + 2 * 2 * L) / (0.5 * 81))
    local = hanna_width("local", "paper", action_sizes=[40, 41], epsilon=0.5, **common)
    assert math.isclose(local, stat + (4 / (81 * 0.5)) * math.sqrt(81 * L))
    # the sound widths are wider (twice the noise and a correct tail bound)
    for model in ("central", "local"):
        assert hanna_width(model, "sound", action_sizes=[40, 41], epsilon=0.5, **common) > \
            hanna_width(model, "paper", action_sizes=[40, 41], epsilon=0.5, **common)


def test_run_uses_exactly_the_horizon_and_finds_the_best_action():
    env = LinearBandit([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.6, 0.6]], [1.0, 0.0])
    for name in ("hanna-nonprivate", "hanna-central"):
        result = simulate(make_linear_algorithm(name, epsilon=1.0, mode="sound") if
                          name != "hanna-nonprivate" else make_linear_algorithm(name),
                          env, 200_000, runs=3, seed=0)
        assert np.all(result.pulls.sum(axis=1) == 200_000)
        assert np.all(result.pulls[:, 0] > 0.9 * 200_000)  # gap 0.4: committed to action 0


@pytest.mark.slow
def test_same_seed_same_result_and_n_jobs_independent():
    family = LinearInstanceFamily("sphere", dimension=2, n_arms=10)
    algorithm = make_linear_algorithm("hanna-shuffled", epsilon=1.0)
    first = simulate(algorithm, family, 50_000, runs=2, seed=5)
    second = simulate(algorithm, family, 50_000, runs=2, seed=5, n_jobs=2)
    assert np.array_equal(first.pseudo_regret, second.pseudo_regret)


def test_per_user_path_runs():
    family = LinearInstanceFamily("sphere", dimension=2, n_arms=5)
    result = simulate(make_linear_algorithm("hanna-local", epsilon=1.0), family, 20_000,
                      seed=1, per_user=True)
    assert result.per_user and result.final_regret().shape == (1,)


def test_shuffled_guarantee_paper_vs_sound():
    paper = PhasedElimination("shuffle", 1.0, 1e-6).guarantee(n_arms=10, horizon=10 ** 6)
    sound = PhasedElimination("shuffle", 1.0, 1e-6, mode="sound").guarantee(n_arms=10,
                                                                             horizon=10 ** 6)
    assert sound.approx_dp.epsilon <= 1.0 and paper.approx_dp.epsilon > 1.0
    assert sound.model == "shuffle"


def test_start_needs_a_linear_environment():
    with pytest.raises(ValueError, match="environment"):
        PhasedElimination("none").start(n_arms=3, horizon=10)


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["paper", "sound"])
def test_shuffled_guarantee_covers_the_batches_actually_played(mode, monkeypatch):
    """Every batch's true bound (its real n_i, the ε0 it was given) is within the reported one."""
    from dpverify.bandits.linear import privatizers

    epsilon, delta, horizon, k = 0.3, 1e-6, 10 ** 6, 10
    algorithm = PhasedElimination("shuffle", epsilon, delta, mode=mode)
    reported = algorithm.guarantee(n_arms=k, horizon=horizon).approx_dp
    chosen = []  # (clients in the batch, the ε0 it was given)
    original = PhasedEliminationPolicy._plan

    def spy(self, phase, design):
        counts = original(self, phase, design)
        if counts is not None:
            chosen.append((int(counts.sum()), math.ceil(self.base ** phase),
                           self.batch_privatizer.epsilon))
        return counts

    monkeypatch.setattr(PhasedEliminationPolicy, "_plan", spy)
    simulate(algorithm, LinearInstanceFamily("sphere", dimension=2, n_arms=k), horizon, runs=2, seed=5)
    assert len(chosen) >= 10
    shuffled = privatizers.ShuffledLaplaceSum(epsilon, delta, mode)
    for users, nominal, local in chosen:
        size = users if mode == "paper" else nominal  # what ε0 is chosen for (printed / sound)
        assert local == shuffled.local_epsilon(size)
        truth = shuffled.guarantee(users, local_users=size)  # the batch as it was played
        assert truth.epsilon <= reported.epsilon
    if mode == "sound":
        assert reported.epsilon <= epsilon
