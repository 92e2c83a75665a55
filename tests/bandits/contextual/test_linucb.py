"""Baselines: LinUCB (OFUL) learns, sublinearly; LDP LinUCB is ε-LDP and runs on SBLB's learner with l = 1."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpverify.bandits.contextual import ContextualInstanceFamily, LDPLinUCB, LinUCB, _engine, simulate_contextual
from dpverify.bandits.contextual.linucb import oful_radius

FAMILY = ContextualInstanceFamily(n_arms=10, dimension=3)


def test_oful_radius_formula() -> None:
    value = oful_radius(100, failure_probability=0.05, sigma=0.5, dimension=3, context_bound=2.0,
                        theta_bound=0.7, regularization=2.0)
    expected = 0.5 * math.sqrt(2 * math.log(20) + 3 * math.log(1 + 100 * 4 / 6)) + math.sqrt(2) * 0.7
    assert value == pytest.approx(expected, rel=1e-14)


@pytest.mark.slow
def test_linucb_estimates_theta_and_has_sublinear_regret() -> None:
    env = FAMILY(np.random.default_rng(0))
    learner = LinUCB().start(horizon=50_000, dimension=3)
    pseudo, _, _ = _engine.run(learner, env, 50_000, np.array([5_000, 50_000]),
                               np.random.default_rng(1))
    assert np.linalg.norm(learner.theta - env.theta_star) < 0.1
    assert learner.samples == 50_000  # every round released once: discarded rounds were redrawn
    assert pseudo[1] < 10 ** 0.8 * pseudo[0]  # growth over a 10x horizon well below linear
    assert pseudo[1] / 50_000 < 0.01


def test_ldp_linucb_guarantee_and_learner() -> None:
    algo = LDPLinUCB(2.0)
    g = algo.guarantee(horizon=1000, dimension=2)
    assert (g.model, g.approx_dp.epsilon, g.approx_dp.delta) == ("local", 2.0, 0.0)
    learner = algo.start(horizon=1000, dimension=2)
    assert learner.unit == 1 and learner.params.local_epsilon == 2.0
    result = simulate_contextual(algo, FAMILY, 2000, runs=2, seed=0)
    assert result.pseudo_regret.shape[0] == 2


@pytest.mark.slow
def test_results_do_not_depend_on_n_jobs() -> None:
    one = simulate_contextual(LDPLinUCB(1.0), FAMILY, 3000, runs=3, seed=9, n_jobs=1)
    two = simulate_contextual(LDPLinUCB(1.0), FAMILY, 3000, runs=3, seed=9, n_jobs=2)
    np.testing.assert_array_equal(one.pseudo_regret, two.pseudo_regret)
    np.testing.assert_array_equal(one.realised_regret, two.realised_regret)
