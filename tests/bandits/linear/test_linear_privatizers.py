"""Linear privatizers: noise levels, fast paths vs per-user paths, the Laplace-sum widths."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.stats

from dpverify.accountants.calibrate import analytic_gaussian_sigma, classical_gaussian_sigma
from dpverify.accountants.shuffle import amplified_epsilon
from dpverify.bandits._policy import RewardBatch
from dpverify.bandits.linear.privatizers import (
    CentralGaussianAverage,
    ExactAverage,
    LaplaceSum,
    LocalGaussianAverage,
    LocalLaplaceSum,
    ShuffledLaplaceSum,
    ShuffleVectorAverage,
    laplace_sum_width,
    paper_laplace_sum_width,
)
from dpverify.mechanisms.continuous import gaussian_privacy_profile

P_MIN = 1e-3  # same-law tests fail falsely with probability 1e-3 (fixed seeds)


def _laplace_sum_tail(width, n, draws, rng):
    sums = rng.laplace(0.0, 1.0, (draws, n)).sum(axis=1)
    return float(np.mean(sums >= width))


@pytest.mark.slow
def test_paper_width_is_too_narrow_and_sound_width_holds():
    # Hanna et al. 2022, Lemma 4/5 (the MGF step is false): n = 200 Laplace(1), L = ln 50, target e^{-L} = 0.02
    rng = np.random.default_rng(0)
    n, L, draws = 200, math.log(50), 40_000
    paper = _laplace_sum_tail(paper_laplace_sum_width(n, 1.0, 1.0, L), n, draws, rng)
    sound = _laplace_sum_tail(laplace_sum_width(n, 1.0, 1.0, L), n, draws, rng)
    assert 0.07 < paper < 0.095  # expected ≈ 0.082 (Monte Carlo); binomial sd 0.0014
    assert sound <= 0.02


@pytest.mark.slow
@pytest.mark.parametrize("n, L", [(3, 10.0), (50, 2.0), (1, 30.0)])
def test_sound_width_holds_in_both_regimes(n, L):
    rng = np.random.default_rng(n)
    assert laplace_sum_width(n, 1.0, 1.0, L) >= paper_laplace_sum_width(n, 1.0, 1.0, L)
    # Chernoff bound: the tail is below e^{-L}; check e^{-min(L, 6)} with 200k draws
    L_check = min(L, 6.0)
    width = laplace_sum_width(n, 1.0, 1.0, L_check)
    assert _laplace_sum_tail(width, n, 200_000, rng) <= math.exp(-L_check)


def test_laplace_scales_and_guarantees():
    assert LaplaceSum(0.5).scale == 2.0 and LaplaceSum(0.5, "sound").scale == 4.0
    assert LocalLaplaceSum(2.0).guarantee(1).epsilon == 4.0
    assert LocalLaplaceSum(2.0, "sound").guarantee(1).epsilon == 2.0


@pytest.mark.slow
def test_local_laplace_sum_fast_path_has_the_per_user_law():
    privatizer = LocalLaplaceSum(1.0)
    values = np.where(np.arange(30) % 3 == 0, 1.0, -1.0)
    batch = RewardBatch(size=30, total=float(values.sum()), values=values)
    rng = np.random.default_rng(4)
    fast = privatizer.sample_estimates(batch, size=20_000, rng=rng)
    slow = np.array([privatizer.privatize_sum(batch, rng=rng, per_user=True) for _ in range(20_000)])
    assert scipy.stats.ks_2samp(fast, slow).pvalue > P_MIN


def test_shuffled_local_epsilon_inverts_fmt_or_falls_back():
    privatizer = ShuffledLaplaceSum(0.5, 1e-6, "sound")
    big = privatizer.local_epsilon(10 ** 5)
    assert big > 0.5 and amplified_epsilon(big, 10 ** 5, 1e-6) <= 0.5
    assert privatizer.local_epsilon(5) == 0.5  # FMT invalid: the ε-LDP fallback
    assert privatizer.guarantee(5).epsilon == 0.5 and privatizer.guarantee(5).delta == 0.0


def test_gaussian_noise_levels():
    s, users, B = 60, 2353, 1.0
    central = CentralGaussianAverage(10.0, 0.25, B)
    assert math.isclose(central.noise_sd(users, s),
                        2 * B * math.sqrt(2 * s * math.log(1.25 / 0.25)) / (10.0 * users))
    assert math.isclose(central.noise_sd(users, s),
                        classical_gaussian_sigma(10.0, 0.25, sensitivity=2 * B * math.sqrt(s) / users))
    thm6 = LocalGaussianAverage(1.0, 1e-5, B).noise_sd(1, s)
    thm2 = LocalGaussianAverage(1.0, 1e-5, B, local_constant="thm2").noise_sd(1, s)
    assert math.isclose(thm6 / thm2, math.sqrt(2))  # Li, Zhou & Ji 2022: Thm 2 lacks Thm 6's √2
    sound = CentralGaussianAverage(10.0, 0.25, B, "sound")
    assert math.isclose(sound.noise_sd(users, s),
                        analytic_gaussian_sigma(10.0, 0.25, sensitivity=2 * B * math.sqrt(s) / users),
                        rel_tol=1e-9)
    assert central.width_sigma(users, s, 20) == 2 * central.noise_sd(users, s) * math.sqrt(20)
    local = LocalGaussianAverage(1.0, 1e-5, B)
    assert math.isclose(local.width_sigma(users, s, 20),
                        2 * local.noise_sd(users, s) * math.sqrt(20 / users))


@pytest.mark.parametrize("epsilon, delta", [(0.5, 1e-5), (10.0, 0.25)])
def test_gaussian_guarantee_is_the_exact_profile(epsilon, delta):
    for mode in ("paper", "sound"):
        privatizer = CentralGaussianAverage(epsilon, delta, mode=mode)
        exact = gaussian_privacy_profile(privatizer.sigma_ratio).delta_for_epsilon(epsilon)
        assert math.isclose(privatizer.guarantee().delta, exact, rel_tol=1e-9)
    assert CentralGaussianAverage(epsilon, delta, mode="sound").guarantee().delta <= delta


def test_classical_calibration_holds_below_one_and_fails_at_ten():
    assert CentralGaussianAverage(0.5, 1e-5).guarantee().delta <= 1e-5
    assert CentralGaussianAverage(10.0, 0.25).guarantee().delta > 0.7


@pytest.mark.slow
def test_shuffle_vector_average_fast_path_matches_per_user():
    privatizer = ShuffleVectorAverage(5.0, 0.1, 1.0)
    values = np.random.default_rng(5).uniform(-1, 1, size=(40, 3))
    rng = np.random.default_rng(6)
    fast = np.array([privatizer.privatize_average(values, rng=rng) for _ in range(1500)])
    slow = np.array([privatizer.privatize_average(values, rng=rng, per_user=True)
                     for _ in range(1500)])
    for j in range(3):
        assert scipy.stats.ks_2samp(fast[:, j], slow[:, j]).pvalue > P_MIN / 3
    # unbiased: the mean of 1500 draws is within 5 standard errors of the average
    sd = privatizer.noise_sd(40, 3)
    assert np.all(np.abs(fast.mean(axis=0) - values.mean(axis=0)) < 5 * sd / math.sqrt(1500))
    protocol = privatizer.protocol(40, 3)
    assert privatizer.communication(40, 3) == 40 * 3 * (protocol.precision + protocol.trials)


def test_exact_average_and_bound_check():
    assert ExactAverage().privatize_average([[1.0, -1.0]], rng=np.random.default_rng(0)).tolist() \
        == [1.0, -1.0]
    with pytest.raises(ValueError, match="values"):
        CentralGaussianAverage(1.0, 1e-5).privatize_average([[2.0]], rng=np.random.default_rng(0))
