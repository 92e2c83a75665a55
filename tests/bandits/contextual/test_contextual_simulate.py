"""simulate_contextual: seeded runs independent of where they run, log-spaced checkpoints, bad
input named."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from dpverify.bandits.contextual import ContextualInstanceFamily, LinUCB
from dpverify.bandits.contextual.simulate import simulate_contextual
from dpverify.bandits.environments import BernoulliBandit

FAMILY = ContextualInstanceFamily(dimension=2, n_arms=4)


def test_the_seed_fixes_the_runs_wherever_they_run() -> None:
    first = simulate_contextual(LinUCB(), FAMILY, 500, runs=3, seed=7, checkpoints=10)
    with ThreadPoolExecutor(2) as executor:
        elsewhere = simulate_contextual(LinUCB(), FAMILY, 500, runs=3, seed=7, checkpoints=10,
                                        executor=executor)
    assert np.array_equal(first.pseudo_regret, elsewhere.pseudo_regret)
    assert np.array_equal(first.pulls, elsewhere.pulls)
    other = simulate_contextual(LinUCB(), FAMILY, 500, runs=3, seed=8, checkpoints=10)
    assert not np.array_equal(first.pseudo_regret, other.pseudo_regret)
    assert len({float(r) for r in first.pseudo_regret[:, -1]}) == 3  # each run its own instance


def test_checkpoints_are_log_spaced_up_to_the_horizon_and_pulls_add_up() -> None:
    result = simulate_contextual(LinUCB(), FAMILY(np.random.default_rng(0)), 500, runs=2, seed=1,
                                 checkpoints=10)
    assert result.checkpoints[0] == 1 and result.checkpoints[-1] == 500
    assert result.pseudo_regret.shape == (2, len(result.checkpoints))
    assert np.all(np.diff(result.pseudo_regret, axis=1) >= 0)
    assert result.pulls.shape == (2, 4) and np.all(result.pulls.sum(axis=1) == 500)
    assert result.environment.startswith("ContextualLinearBandit(d=2, K=4")


def test_a_multi_armed_environment_or_a_bad_horizon_is_refused() -> None:
    with pytest.raises(ValueError, match="environment"):
        simulate_contextual(LinUCB(), BernoulliBandit((0.2, 0.8)), 100)
    with pytest.raises(ValueError, match="horizon"):
        simulate_contextual(LinUCB(), FAMILY, 0)
