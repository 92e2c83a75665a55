"""tenenbaum's footnotes: randomized rounding for real rewards (fn. 12) and the doubling trick (fn. 10)."""

from __future__ import annotations

import numpy as np
import pytest

from dpverify.bandits._policy import Batch, RewardBatch
from dpverify.bandits.environments import BernoulliBandit, ClippedGaussianBandit
from dpverify.bandits.mab import make_algorithm
from dpverify.bandits.mab.tenenbaum_extensions import DoublingTrick, RandomizedRoundingSum, real_valued
from dpverify.bandits.privatizers import NonPrivate, ShuffledNoisyBits
from dpverify.bandits.simulate import simulate


@pytest.mark.slow
def test_rounding_is_unbiased_and_binary() -> None:
    """E[Σ Ber(r_i)] = Σ r_i: 20000 rounded batches, mean within 5 standard errors (p_fail < 1e-6)."""
    values = np.array([0.1, 0.5, 0.9, 0.33])
    privatizer = RandomizedRoundingSum(NonPrivate())
    rng = np.random.default_rng(3)
    batch = RewardBatch(size=4, total=float(values.sum()), values=values)
    totals = np.array([privatizer.privatize_sum(batch, rng=rng) for _ in range(20_000)])
    se = np.sqrt(np.sum(values * (1 - values)) / totals.size)
    assert abs(totals.mean() - values.sum()) < 5 * se
    assert set(np.unique(totals)) <= {0.0, 1.0, 2.0, 3.0, 4.0}


def test_rounding_keeps_the_guarantee_and_refuses_out_of_range() -> None:
    inner = ShuffledNoisyBits(1.0, 1e-6)
    wrapped = RandomizedRoundingSum(inner)
    assert wrapped.guarantee(50) == inner.guarantee(50) and wrapped.name == inner.name
    bad = RewardBatch(size=2, total=1.5, values=np.array([1.2, 0.3]))
    with pytest.raises(ValueError, match="rewards"):
        wrapped.privatize_sum(bad, rng=np.random.default_rng(0))


@pytest.mark.slow
def test_real_rewards_run_with_the_regret_of_the_bernoulli_twin() -> None:
    means = (0.25, 0.75)
    real = simulate(real_valued(make_algorithm("sdp-ae", epsilon=1.0)), ClippedGaussianBandit(means),
                    10 ** 5, runs=4, seed=5)
    twin = simulate(make_algorithm("sdp-ae", epsilon=1.0),
                    BernoulliBandit(ClippedGaussianBandit(means).reward_means), 10 ** 5, runs=4, seed=5)
    assert real.final_regret().mean() == pytest.approx(twin.final_regret().mean(), rel=0.2)


def test_doubling_restarts_and_never_aggregates_a_cut_batch() -> None:
    trick = DoublingTrick(make_algorithm("sdp-ae", epsilon=1.0, batch_size=3), first_horizon=4)
    policy = trick.start(n_arms=2, horizon=100)
    sizes, guesses = [], []
    for _ in range(6):
        batch = policy.next_batch()
        sizes.append(batch.size)
        guesses.append(policy.guess)
        policy.update(batch, RewardBatch(size=batch.size, total=0, binary=True),
                      rng=np.random.default_rng(0))
    assert guesses == [4, 4, 8, 8, 8, 16] and sizes == [3, 1, 3, 3, 2, 3]
    assert trick.guarantee(n_arms=2, horizon=100) == trick.algorithm.guarantee(n_arms=2, horizon=128)


@pytest.mark.slow
def test_doubling_costs_a_log_factor_for_log_regret() -> None:
    env = BernoulliBandit((0.25, 0.75))
    ratios = []
    for horizon in (10 ** 4, 10 ** 6):
        known = simulate(make_algorithm("vb-sdp-ae", epsilon=1.0), env, horizon, runs=3, seed=6)
        doubling = simulate(DoublingTrick(make_algorithm("vb-sdp-ae", epsilon=1.0)), env, horizon, runs=3,
                            seed=6)
        ratios.append(doubling.final_regret().mean() / known.final_regret().mean())
    assert 1 < ratios[0] < ratios[1]


def test_first_horizon_is_validated() -> None:
    with pytest.raises(ValueError, match="first_horizon"):
        DoublingTrick(make_algorithm("ae"), first_horizon=1)
    assert Batch(0, 1).size == 1
