"""The policy protocol's value types."""

from __future__ import annotations

import numpy as np
import pytest

from dpverify.bandits import BanditAlgorithm, Batch, RewardBatch
from dpverify.bandits.mab import make_algorithm


def test_batch_validates() -> None:
    assert Batch(0, 1) == Batch(arm=0, size=1)
    for arm, size in ((-1, 1), (0, 0), (0.5, 2), (True, 2)):
        with pytest.raises((ValueError, TypeError)):
            Batch(arm, size)


def test_reward_batch_rebuilds_binary_rewards_only() -> None:
    assert RewardBatch(size=3, total=0, binary=True).individual().tolist() == [0, 0, 0]
    values = np.array([0.5, 0.25])
    assert RewardBatch(size=2, total=0.75, values=values).individual() is values
    with pytest.raises(ValueError, match="values"):
        RewardBatch(size=2, total=0.75).individual()
    with pytest.raises(ValueError, match="total"):
        RewardBatch(size=2, total=3, binary=True)
    with pytest.raises(ValueError, match="values"):
        RewardBatch(size=3, total=0.75, values=values)


def test_every_registered_algorithm_is_a_bandit_algorithm() -> None:
    from dpverify.bandits.mab import ALGORITHM_NAMES

    for name in ALGORITHM_NAMES:
        algorithm = make_algorithm(name, epsilon=0.5, delta=1e-6)
        assert isinstance(algorithm, BanditAlgorithm)
        policy = algorithm.start(n_arms=3, horizon=1000)
        assert isinstance(policy.next_batch(), Batch)
