"""Tenenbaum et al. 2021's SDP-AE / VB-SDP-AE: batch sizes, no forgetting, widths, strict elimination."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpverify import ApproxDP
from dpverify.accountants.shuffle_papers import tenenbaum_batch_size, tenenbaum_msum_sigma
from dpverify.bandits._policy import RewardBatch
from dpverify.bandits.mab import ShuffleArmElimination, arm_elimination, sdp_ae, vb_sdp_ae

RNG = np.random.default_rng(0)


def _phase(policy, rate: dict[int, float]) -> list[int]:
    """Play one phase (the first next_batch() may eliminate and open it); return its batch sizes."""
    batches = [policy.next_batch()]
    for index in range(len(policy.active)):
        batch = batches[-1] if index == 0 else policy.next_batch()
        if index:
            batches.append(batch)
        total = int(round(rate[batch.arm] * batch.size))
        policy.update(batch, RewardBatch(size=batch.size, total=total, binary=True), rng=RNG)
    return [b.size for b in batches]


def test_vb_batches_double_from_two_and_keep_all_data() -> None:
    policy = vb_sdp_ae(1.0, 1e-6).start(n_arms=2, horizon=10 ** 6)
    for t in (1, 2, 3, 4):
        assert _phase(policy, {0: 0.5, 1: 0.5}) == [2 ** t, 2 ** t]  # m^t = 2^t, t from 1 (Alg. 2 l. 5–6)
        assert policy.pulls == {0: 2 ** (t + 1) - 2, 1: 2 ** (t + 1) - 2}  # N^t = 2^{t+1} − 2


def test_width_is_the_papers_with_the_msum_sigma() -> None:
    algorithm = vb_sdp_ae(1.0, 1e-6)
    policy = algorithm.start(n_arms=2, horizon=10 ** 6)
    for _ in range(3):
        _phase(policy, {0: 0.5, 1: 0.5})
    sigma, t, pulls = tenenbaum_msum_sigma(1.0, 1e-6), 3, 14
    expected = (2 * math.sqrt(t) * sigma / pulls + 1 / math.sqrt(pulls)) * math.sqrt(2 * math.log(10 ** 6))
    assert policy.widths()[0] == pytest.approx(expected, rel=1e-12)


@pytest.mark.slow
def test_sdp_ae_batch_size_is_corollary_3_2() -> None:
    sigma = tenenbaum_msum_sigma(0.5, 1e-6)
    assert sdp_ae(0.5, 1e-6).batch_size == tenenbaum_batch_size(sigma) == math.ceil(sigma ** 2 - 1e-9)
    assert sdp_ae(0.5, 1e-6, batch_reading="printed").batch_size == tenenbaum_batch_size(
        sigma, reading="printed")
    policy = sdp_ae(0.5, 1e-6, batch_size=7).start(n_arms=3, horizon=1000)
    assert _phase(policy, {0: 0.5, 1: 0.5, 2: 0.5}) == [7, 7, 7]
    with pytest.raises(ValueError, match="batch_size"):
        sdp_ae(0.5, 1e-6, protocol="randomized-response")


def test_elimination_happens_at_phase_end_and_is_strict() -> None:
    policy = arm_elimination(batch_size=1000).start(n_arms=2, horizon=10 ** 6)
    _phase(policy, {0: 0.9, 1: 0.1})
    assert policy.active == [0, 1]  # statistics updated, elimination only when the next phase starts
    policy.next_batch()
    assert policy.active == [0]


def test_guarantee_is_the_msum_per_batch() -> None:
    g = vb_sdp_ae(0.5, 1e-6).guarantee(n_arms=10, horizon=10 ** 6)
    assert isinstance(g.per_batch, ApproxDP) and g.per_batch.epsilon == 0.5
    assert g.per_batch.delta <= 1e-6 and g.model == "shuffle" and g.total == g.per_batch


def test_pure_privatizer_requests_its_epsilon_with_zero_delta() -> None:
    """A pure privatizer has no ``delta`` field: the default request used to raise AttributeError."""
    from dpverify.bandits.privatizers import CentralLaplace

    algorithm = ShuffleArmElimination(CentralLaplace(epsilon=1.0), batch_size=10, mode="sound")
    assert algorithm.requested == ApproxDP(1.0, 0.0)
    plan = algorithm.plan(horizon=1000, n_arms=3)
    assert plan.claim_met and plan.guarantee.epsilon <= 1.0 and plan.guarantee.delta == 0.0


@pytest.mark.parametrize("bad", [float("nan"), 1.0, 1j, "1", object()])
def test_requested_must_be_a_guarantee(bad) -> None:
    from dpverify.bandits.mab import DPSE, BatchedSuccessiveElimination
    from dpverify.bandits.privatizers import CentralLaplace

    with pytest.raises(TypeError, match="requested"):
        ShuffleArmElimination(CentralLaplace(epsilon=1.0), batch_size=10, requested=bad)
    with pytest.raises(TypeError, match="requested"):
        BatchedSuccessiveElimination(CentralLaplace(epsilon=1.0), requested=bad)
    with pytest.raises(TypeError, match="requested"):
        DPSE(epsilon=1.0, requested=bad)


def test_pure_request_is_its_approx_form() -> None:
    from dpverify import PureDP
    from dpverify.bandits.mab import DPSE

    assert DPSE(epsilon=1.0, requested=PureDP(0.5)).requested == ApproxDP(0.5, 0.0)


def test_secure_aggregation_privatizers_request_their_own_delta() -> None:
    """An RDP / zCDP per-batch guarantee (Skellam, discrete Gaussian) is (ε, δ)-DP only at δ > 0:
    the default request is (ε, ``delta``), the δ the guarantee is reported at, not an
    unmeetable (ε, 0); a pure one (Pólya) still requests (ε, 0). With p = 1/T from the horizon."""
    from dpverify.bandits.privatizers import (
        DiscreteGaussianSecureAggregation,
        PolyaSecureAggregation,
        SkellamSecureAggregation,
    )

    skellam = ShuffleArmElimination(SkellamSecureAggregation(0.05, scale_factor=1.0),
                                    batch_size=100, requested=None)
    assert skellam.requested == ApproxDP(0.05, 1e-6)
    guarantee = skellam.guarantee(n_arms=3, horizon=10 ** 4)
    assert guarantee.approx_dp.delta == 1e-6 and guarantee.requested == ApproxDP(0.05, 1e-6)
    assert ShuffleArmElimination(DiscreteGaussianSecureAggregation(0.5), batch_size=100,
                                 delta=1e-8).requested == ApproxDP(0.5, 1e-8)
    assert ShuffleArmElimination(PolyaSecureAggregation(0.5), batch_size=100).requested == \
        ApproxDP(0.5, 0.0)
    loose = ShuffleArmElimination(SkellamSecureAggregation(0.05, scale_factor=1.0),
                                  batch_size=100, requested=ApproxDP(100.0, 1e-6))
    assert loose.guarantee(n_arms=3, horizon=10 ** 4).claim_met


def test_a_zero_delta_request_of_an_rdp_privatizer_says_it_cannot_be_met() -> None:
    from dpverify.bandits.privatizers import SkellamSecureAggregation

    algorithm = ShuffleArmElimination(SkellamSecureAggregation(0.05, scale_factor=1.0),
                                      batch_size=100, requested=ApproxDP(100.0, 0.0))
    guarantee = algorithm.guarantee(n_arms=3, horizon=10 ** 4)
    assert not guarantee.claim_met and "delta = 0 cannot be met" in guarantee.notes
    with pytest.raises(ValueError, match="delta"):
        ShuffleArmElimination(SkellamSecureAggregation(1.0), batch_size=10, delta=0.0)


def test_a_privatizer_without_sub_gaussian_error_is_refused_at_start() -> None:
    """Tenenbaum et al.'s widths need the M_sum's variance proxy: Chowdhury & Zhou's privatizers have none
    (the run used to crash adding None to a float)."""
    from dpverify.bandits.privatizers import SkellamSecureAggregation

    algorithm = ShuffleArmElimination(SkellamSecureAggregation(1.0), batch_size=10)
    with pytest.raises(ValueError, match="privatizer.*sub-Gaussian"):
        algorithm.start(n_arms=2, horizon=100)
