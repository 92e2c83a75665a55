"""DP-SE (Sajed & Sheffet): epoch lengths, radius, elimination rule, guarantee."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpverify import PureDP
from dpverify.bandits._policy import RewardBatch
from dpverify.bandits.mab import DPSE
from dpverify.bandits.mab.dp_se import dp_se_epoch_length, dp_se_radius


def test_epoch_length_and_radius_formulas() -> None:
    e, k, eps, p = 3, 6, 0.2, 0.1
    gap = 2.0 ** -3
    expected = 1 + math.floor(max(32 * math.log(8 * k * e * e / p) / gap ** 2,
                                  8 * math.log(4 * k * e * e / p) / (eps * gap)))
    assert dp_se_epoch_length(e, active_arms=k, epsilon=eps, failure_probability=p) == expected
    r = expected
    radius = math.sqrt(math.log(8 * k * e * e / p) / (2 * r)) + math.log(4 * k * e * e / p) / (r * eps)
    assert dp_se_radius(e, r, active_arms=k, epsilon=eps, failure_probability=p) == pytest.approx(radius, rel=1e-14)


def test_epochs_and_elimination() -> None:
    rng = np.random.default_rng(0)
    policy = DPSE(1.0, failure_probability=0.1).start(n_arms=2, horizon=10 ** 7)
    sizes = []
    for _ in range(2):
        batch = policy.next_batch()
        sizes.append(batch.size)
        rate = 0.9 if batch.arm == 0 else 0.1
        policy.update(batch, RewardBatch(size=batch.size, total=int(rate * batch.size), binary=True),
                      rng=rng)
    assert sizes == [dp_se_epoch_length(1, active_arms=2, epsilon=1.0, failure_probability=0.1)] * 2
    batch = policy.next_batch()  # the gap 0.8 exceeds 2 c_1: arm 1 is gone before epoch 2
    assert policy.active == [0] and policy.epoch == 2
    assert batch.size == dp_se_epoch_length(2, active_arms=1, epsilon=1.0, failure_probability=0.1)


def test_guarantee() -> None:
    g = DPSE(0.3).guarantee(n_arms=10, horizon=10 ** 6)
    assert g.per_batch == PureDP(0.3) and g.model == "central"
