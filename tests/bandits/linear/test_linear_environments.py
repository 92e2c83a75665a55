"""Linear environments: the reward laws documented in dpverify.bandits.linear.environments."""

from __future__ import annotations

import numpy as np
import scipy.stats

from dpverify.bandits.linear.environments import (
    DistributedLinearBandit,
    LinearBandit,
    LinearInstanceFamily,
    dpdpe_instance,
    sphere_instance,
)

P_MIN = 1e-3  # a same-law test fails falsely with probability 1e-3 (fixed seeds)


def test_sphere_instance_is_on_the_unit_sphere_and_consistent():
    env = sphere_instance(1000, 2, rng=np.random.default_rng(0))
    assert np.allclose(np.linalg.norm(env.actions, axis=1), 1) and np.isclose(
        np.linalg.norm(env.theta), 1)
    means = env.actions @ env.theta
    assert env.best_arm == int(np.argmax(means)) and np.allclose(env.gaps, means.max() - means)


def test_linear_rewards_are_pm1_with_mean_inner_product():
    env = LinearBandit([[0.6, 0.0], [0.0, -0.3]], [1.0, 0.0])
    rng = np.random.default_rng(1)
    values = env.rewards(0, 200_000, rng=rng)
    assert set(np.unique(values)) == {-1.0, 1.0}
    # mean 0.6, sd <= 1: 6 standard errors
    assert abs(values.mean() - 0.6) < 6 / np.sqrt(200_000)
    sums = np.array([env.reward_sum(1, 50, rng=rng) for _ in range(4000)])
    individual = np.array([env.rewards(1, 50, rng=rng).sum() for _ in range(4000)])
    assert scipy.stats.ks_2samp(sums, individual).pvalue > P_MIN
    assert abs(sums.mean() / 50 - 0.0) < 0.02


def test_client_averages_have_their_exact_law():
    env = DistributedLinearBandit([[1.0, 0.0], [0.0, 1.0]], [0.6, 0.8], heterogeneity=0.1)
    rng = np.random.default_rng(2)
    averages = env.client_averages([0, 1], [4, 16], 100_000, rng=rng)
    # Var = σ² x_j² + 1/T_j ; covariance between the two coordinates is σ² ⟨x_0, x_1⟩ = 0
    assert np.allclose(averages.mean(axis=0), [0.6, 0.8], atol=0.01)
    assert np.allclose(averages.var(axis=0), [0.01 + 0.25, 0.01 + 1 / 16], rtol=0.03)


def test_client_heterogeneity_is_shared_across_actions():
    env = DistributedLinearBandit([[1.0, 0.0], [1.0, 0.0]], [0.5, 0.0], heterogeneity=0.5)
    averages = env.client_averages([0, 1], [10 ** 6, 10 ** 6], 20_000,
                                   rng=np.random.default_rng(3))
    # both coordinates see the same ⟨θ_u, x⟩: correlation ≈ 1
    assert np.corrcoef(averages.T)[0, 1] > 0.99


def test_families_draw_instances():
    family = LinearInstanceFamily("dpdpe", dimension=4, n_arms=30)
    env = family(np.random.default_rng(0))
    assert env.actions.shape == (30, 4) and family.describe() == "dpdpe (k=30, d=4)"
    assert dpdpe_instance(rng=np.random.default_rng(0)).population_size == 10 ** 5
