"""Bandit instances: exact means, batch sums with the law of the individual rewards, generators."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats

from dpverify.bandits.environments import (
    BernoulliBandit,
    CategoricalBandit,
    ClippedGaussianBandit,
    InstanceFamily,
    clipped_normal_mean,
    easy_instance,
    hard_instance,
    instance_family,
    mslr_synthetic_instance,
)

from _stats import P_MIN, two_sample_chisquare


def test_clipped_normal_mean_matches_monte_carlo() -> None:
    rng = np.random.default_rng(0)
    for mu in (0.02, 0.25, 0.5, 0.97):
        draws = np.clip(rng.normal(mu, 0.1, 400_000), 0, 1)
        assert clipped_normal_mean(mu, 0.1) == pytest.approx(draws.mean(), abs=6 * draws.std() / 632)
    assert clipped_normal_mean(0.5, 0.1) == 0.5


def test_gaps_and_best_arm_use_the_clipped_means() -> None:
    env = ClippedGaussianBandit((0.02, 0.01))
    assert env.best_arm == 0 and env.gaps[1] > 0
    assert env.reward_means[0] > 0.02  # clipping at 0 raises the mean


def test_bernoulli_sum_has_the_law_of_the_individual_rewards() -> None:
    """Two-sample chi-square (false failure 1e-3 with a fresh seed)."""
    env, rng = BernoulliBandit((0.3,)), np.random.default_rng(1)
    sums = np.array([env.reward_sum(0, 40, rng=rng) for _ in range(4000)])
    direct = np.array([env.rewards(0, 40, rng=rng).sum() for _ in range(4000)])
    assert two_sample_chisquare(sums, direct) > P_MIN


def test_categorical_sum_has_the_law_of_the_individual_rewards() -> None:
    env = mslr_synthetic_instance(5, rng=np.random.default_rng(2))
    rng = np.random.default_rng(3)
    sums = np.array([env.reward_sum(1, 30, rng=rng) for _ in range(4000)])
    direct = np.array([env.rewards(1, 30, rng=rng).sum() for _ in range(4000)])
    assert two_sample_chisquare(np.round(sums * 4), np.round(direct * 4)) > P_MIN
    assert direct.mean() / 30 == pytest.approx(env.reward_means[1], abs=0.02)


def test_clipped_rewards_are_in_unit_interval_with_the_right_law() -> None:
    env, rng = ClippedGaussianBandit((0.05,)), np.random.default_rng(4)
    values = env.rewards(0, 20_000, rng=rng)
    assert values.min() == 0.0 and values.max() <= 1.0
    assert (values == 0).mean() == pytest.approx(scipy.stats.norm.cdf(-0.5), abs=0.015)


def test_generators_follow_the_papers_ranges() -> None:
    rng = np.random.default_rng(5)
    easy, hard = easy_instance(rng=rng), hard_instance(rng=rng, rewards="bernoulli")
    assert easy.n_arms == hard.n_arms == 10
    assert 0.25 <= min(easy.means) and max(easy.means) <= 0.75
    assert 0.45 <= min(hard.means) and max(hard.means) <= 0.55
    assert isinstance(hard, BernoulliBandit) and isinstance(easy, ClippedGaussianBandit)
    mslr = mslr_synthetic_instance(rng=rng)
    assert isinstance(mslr, CategoricalBandit) and mslr.n_arms == 50


def test_instance_family_is_deterministic_and_picklable() -> None:
    import pickle

    family = instance_family("hard", rewards="bernoulli")
    assert family == InstanceFamily("hard", 10, "bernoulli")
    again = pickle.loads(pickle.dumps(family))
    assert again(np.random.default_rng(9)) == family(np.random.default_rng(9))
    assert instance_family("mslr-synthetic").k == 50


@pytest.mark.parametrize("call", [
    lambda: BernoulliBandit((0.5, 1.5)),
    lambda: BernoulliBandit(()),
    lambda: ClippedGaussianBandit((0.5,), sigma=0.0),
    lambda: CategoricalBandit(((0.5, 0.5, 0, 0),)),
    lambda: BernoulliBandit((0.5,)).rewards(1, 3, rng=np.random.default_rng(0)),
    lambda: BernoulliBandit((0.5,)).reward_sum(0, 0, rng=np.random.default_rng(0)),
    lambda: InstanceFamily("medium", 10),
])
def test_bad_arguments_are_refused(call) -> None:
    with pytest.raises((ValueError, TypeError)):
        call()
