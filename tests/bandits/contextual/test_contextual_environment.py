"""Linear contextual instances: shapes, ‖x‖ = L, Assumption 3 (mean rewards in [0, 1]), generators."""

from __future__ import annotations

import numpy as np
import pytest

from dpverify.bandits.contextual.environment import (
    ContextualInstanceFamily,
    ContextualLinearBandit,
)


@pytest.mark.parametrize("generator", ["sphere", "correlated"])
def test_contexts_lie_on_the_sphere_of_radius_L_and_rewards_in_unit_interval(generator) -> None:
    family = ContextualInstanceFamily(n_arms=7, dimension=4, generator=generator, context_bound=2.0,
                                        theta_bound=0.5)
    rng = np.random.default_rng(0)
    env = family(rng)
    contexts = env.contexts(1000, rng=rng)
    assert contexts.shape == (1000, 7, 4)
    np.testing.assert_allclose(np.linalg.norm(contexts, axis=-1), 2.0, rtol=1e-12)
    assert np.all(contexts >= 0)
    means = env.mean_rewards(contexts)
    assert np.all((means >= 0) & (means <= 1))
    rewards = env.draw_rewards(means[:, 0], rng=rng)
    assert set(np.unique(rewards)) <= {0.0, 1.0}
    assert abs(rewards.mean() - means[:, 0].mean()) < 5 * 0.5 / np.sqrt(1000)  # false failure < 1e-6


def test_correlated_generator_has_smaller_gaps_than_sphere() -> None:
    theta = np.full(3, 1 / np.sqrt(3))
    rng = np.random.default_rng(1)
    gaps = {}
    for generator in ("sphere", "correlated"):
        env = ContextualLinearBandit(theta=theta, n_arms=10, generator=generator)
        means = env.mean_rewards(env.contexts(5000, rng=rng))
        gaps[generator] = float((means.max(axis=1) - means.mean(axis=1)).mean())
    assert gaps["correlated"] < 0.5 * gaps["sphere"]


def test_instance_family_is_reproducible_and_theta_has_norm_S() -> None:
    family = ContextualInstanceFamily(n_arms=3, dimension=5, theta_bound=0.8)
    first, second = family(np.random.default_rng(3)), family(np.random.default_rng(3))
    np.testing.assert_array_equal(first.theta_star, second.theta_star)
    assert first.theta_bound == pytest.approx(0.8)


@pytest.mark.parametrize("kwargs, name", [
    ({"theta": (1.0, 1.0), "n_arms": 2}, "theta"),          # L‖θ‖ > 1: means leave [0, 1]
    ({"theta": (-0.1, 0.5), "n_arms": 2}, "theta"),
    ({"theta": (0.5,), "n_arms": 0}, "n_arms"),
    ({"theta": (0.5,), "n_arms": 2, "generator": "x"}, "generator"),
    ({"theta": (0.5,), "n_arms": 2, "correlation": 1.0}, "correlation"),
])
def test_bad_instances_are_refused(kwargs, name) -> None:
    with pytest.raises((ValueError, TypeError), match=name):
        ContextualLinearBandit(**kwargs)
