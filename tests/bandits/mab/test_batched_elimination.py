"""Chowdhury & Zhou 2023, Alg. 1: batch schedule base^b, forgetting, Lemma 2 radius, guarantees per instantiation."""

from __future__ import annotations

import numpy as np
import pytest

from dpverify import ZCDP, PureDP, RDPCurve
from dpverify.bandits._policy import Batch, RewardBatch
from dpverify.bandits.mab import (
    cdp_se,
    dist_cdp_se,
    dist_dp_se,
    dist_rdp_se,
    ldp_se,
    shuffle_dp_se,
    successive_elimination,
)
from dpverify.bandits.mab._elimination import chowdhury_radius

RNG = np.random.default_rng(0)


def _feed(policy, totals: dict[int, float]) -> list[Batch]:
    """Play one full batch round (the first next_batch() may eliminate and open it)."""
    played = [policy.next_batch()]
    for index in range(len(policy.active)):
        batch = played[-1] if index == 0 else policy.next_batch()
        if index:
            played.append(batch)
        total = int(round(totals[batch.arm] * batch.size))
        policy.update(batch, RewardBatch(size=batch.size, total=total, binary=True), rng=RNG)
    return played


@pytest.mark.parametrize("base", [2, 4])
def test_batches_are_base_to_the_b_in_arm_order(base) -> None:
    policy = successive_elimination(batch_base=base).start(n_arms=3, horizon=10 ** 6)
    for b in (1, 2, 3):
        played = _feed(policy, {0: 0.5, 1: 0.5, 2: 0.5})
        assert played == [Batch(a, base ** b) for a in (0, 1, 2)]


def test_estimates_forget_previous_batches() -> None:
    policy = successive_elimination().start(n_arms=2, horizon=10 ** 6)
    _feed(policy, {0: 1.0, 1: 1.0})
    _feed(policy, {0: 0.25, 1: 0.25})
    assert policy.estimates == {0: 0.25, 1: 0.25}


def test_elimination_uses_lemma2_with_the_active_count_before() -> None:
    algorithm = dist_dp_se(1.0, failure_probability=0.1, batch_base=4)
    policy = algorithm.start(n_arms=3, horizon=10 ** 6)
    _feed(policy, {0: 1.0, 1: 0.0, 2: 1.0})
    for _ in range(5):  # complete batches until the next one starts
        _feed(policy, {0: 1.0, 1: 0.0, 2: 1.0})
        if len(policy.active) < 3:
            break
    b = len(policy.radii)
    size = 4 ** b
    law = policy.privatizer.estimate_error_law(size)
    assert policy.radii[-1] == chowdhury_radius(size, active_arms=3, batch_index=b,
                                                 failure_probability=0.1,
                                                error_law=law)
    assert 1 not in policy.active and {0, 2} <= set(policy.active)


def test_update_refuses_a_batch_it_did_not_ask_for() -> None:
    policy = successive_elimination().start(n_arms=2, horizon=100)
    batch = policy.next_batch()
    with pytest.raises(ValueError, match="batch"):
        policy.update(Batch(1, batch.size), RewardBatch(size=batch.size, total=0, binary=True), rng=RNG)


def test_guarantees_per_instantiation() -> None:
    horizon = 10 ** 6
    g = dist_dp_se(0.5).guarantee(n_arms=10, horizon=horizon)
    assert g.per_batch == g.total == PureDP(0.5) and g.approx_dp.delta == 0
    assert g.model == "distributed (secure aggregation)"
    rdp = dist_rdp_se(0.5, delta=1e-5, batch_base=4).guarantee(n_arms=10, horizon=horizon)
    assert isinstance(rdp.per_batch, RDPCurve) and rdp.approx_dp.delta == 1e-5
    privatizer = dist_rdp_se(0.5, batch_base=4).privatizer.for_horizon(horizon)
    for size in (4, 64, 4 ** 9):  # per batch = the worst batch size of the schedule
        assert rdp.per_batch.epsilon_at(2) >= privatizer.guarantee(size).epsilon_at(2)
    assert 0.5 < rdp.approx_dp.epsilon < 5
    cdp = dist_cdp_se(0.5).guarantee(n_arms=10, horizon=horizon)
    assert isinstance(cdp.per_batch, ZCDP) and cdp.per_batch.rho >= 0.125
    assert shuffle_dp_se(0.5).guarantee(n_arms=10, horizon=horizon).model.startswith("shuffle")
    assert cdp_se(0.5).guarantee(n_arms=10, horizon=horizon).model == "central"
    assert ldp_se(0.5).guarantee(n_arms=10, horizon=horizon).model == "local"
    assert successive_elimination().guarantee(n_arms=10, horizon=horizon).per_batch is None
