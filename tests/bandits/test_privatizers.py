"""Privatizers: protocol parameters, guarantees, error laws, and fast path = per-user path in law.

Statistical tests use fixed seeds; each same-law test would fail falsely with
probability ``_stats.P_MIN = 1e-3`` under a fresh seed (about 1.5% for the
whole module).
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
import scipy.stats

from dpverify import ZCDP, ApproxDP, PureDP, RDPCurve
from dpverify.bandits._policy import RewardBatch
from dpverify.bandits.privatizers import (
    CentralDiscreteLaplace,
    CentralLaplace,
    DiscreteGaussianSecureAggregation,
    ErrorLaw,
    LocalDiscreteLaplace,
    NonPrivate,
    PolyaSecureAggregation,
    PolyaShuffle,
    ShuffledNoisyBits,
    ShuffledRandomizedResponse,
    SkellamSecureAggregation,
    as_approx_dp,
    distributed_cdp_parameters,
    distributed_dp_parameters,
    distributed_rdp_parameters,
    worst_case_guarantee,
)
from dpverify.bandits.privatizers._aggregate_laws import (
    discrete_laplace_subexponential,
    distributed_discrete_gaussian_epsilon,
)
from dpverify.mechanisms import NoisyBitSummation

from _stats import P_MIN, two_sample_chisquare

T = 10 ** 6


# ----------------------------------------------------------------------------- parameters


@pytest.mark.parametrize("epsilon, users, expected", [
    (1.0, 64, (8, 117, 747, 10)),        # worked values of Chowdhury & Zhou's Thm 1 (p = 1/T, T = 10^6)
    (1.0, 1024, (32, 465, 33699, 16)),
    (0.1, 4, (1, 146, 297, 9)),
])
def test_thm1_parameters_match_worked_values(epsilon, users, expected) -> None:
    p = distributed_dp_parameters(epsilon, users, 1 / T)
    assert (p.precision, p.tau, p.modulus, p.bits_per_user) == expected
    assert p.precision == math.ceil(epsilon * math.sqrt(users))
    assert p.tau == math.ceil(p.precision / epsilon * math.log(2 * T))
    assert p.modulus == users * p.precision + 2 * p.tau + 1


def test_thm2_parameters_match_worked_values_and_code_rule_is_larger() -> None:
    p = distributed_rdp_parameters(1.0, 1024, 1 / T, scale_factor=10)
    assert (p.precision, p.tau, p.modulus) == (320, 2459, 332599)
    privatizer = SkellamSecureAggregation(1.0, 10, 1 / T)
    assert 2 * privatizer.user_noise(p).mu == pytest.approx(100.0)  # per-user variance s² (Thm 2)
    code = distributed_rdp_parameters(1.0, 1024, 1 / T, scale_factor=10, tau_rule="code")
    assert code.precision == p.precision and code.tau > p.tau


def test_thm4_parameters() -> None:
    p = distributed_cdp_parameters(0.5, 400, 1 / T, scale_factor=10)
    assert p.precision == 100
    assert p.tau == math.ceil(100 / 0.5 * math.sqrt(2 * math.log(2 * T)))


def test_theorem_failure_probability_is_one_over_horizon() -> None:
    assert PolyaSecureAggregation(1.0).for_horizon(T).failure_probability == 1 / T
    assert PolyaShuffle(1.0).for_horizon(T).failure_probability == 1 / (2 * T)  # Thm 3: p′ = 1/(2T)
    assert PolyaSecureAggregation(1.0, 0.1).for_horizon(T).failure_probability == 0.1
    with pytest.raises(ValueError, match="failure_probability"):
        PolyaSecureAggregation(1.0).parameters(4)


def test_shuffle_uses_half_epsilon_in_noise_g_and_tau() -> None:
    """Thm 3 (Chowdhury & Zhou 2023): ε′ = ε/2 in the Pólya parameter, g and τ; total 2ε̂ + ε′ = ε."""
    shuffle, plain = PolyaShuffle(1.0, 1e-6), PolyaSecureAggregation(0.5, 1e-6)
    assert shuffle.parameters(256) == plain.parameters(256)
    assert shuffle.user_noise(shuffle.parameters(256)) == plain.user_noise(plain.parameters(256))
    assert shuffle.guarantee(256).epsilon == pytest.approx(1.0, rel=1e-12)
    assert shuffle.guarantee(256).epsilon >= 1.0


# ----------------------------------------------------------------------------- guarantees


@pytest.mark.parametrize("privatizer", [
    PolyaSecureAggregation(0.7, 1e-6), CentralDiscreteLaplace(0.7, 1e-6),
    LocalDiscreteLaplace(0.7, 1e-6), CentralLaplace(0.7),
], ids=lambda p: type(p).__name__)
def test_pure_dp_guarantees_are_epsilon(privatizer) -> None:
    for users in (2, 64, 4096):
        g = privatizer.guarantee(users)
        assert isinstance(g, PureDP) and 0.7 <= g.epsilon <= 0.7 * (1 + 1e-12)


def _uniform_rdp(alpha: int, epsilon: float, s: float) -> float:
    """Chowdhury & Zhou 2023, Thm 2's bound over all n."""
    return alpha * epsilon ** 2 / 2 + min((2 * alpha - 1) * epsilon ** 2 / (4 * s ** 2)
                                          + 3 * epsilon / (2 * s ** 3), 3 * epsilon / (2 * s))


def test_skellam_guarantee_below_uniform_bound_and_near_worked_values() -> None:
    privatizer = SkellamSecureAggregation(1.0, 10, 1 / T)
    for users in (2, 64, 1024):
        curve = privatizer.guarantee(users)
        assert isinstance(curve, RDPCurve)
        for alpha in (2, 3, 10):
            assert curve.epsilon_at(alpha) <= _uniform_rdp(alpha, 1.0, 10) * (1 + 1e-12)
    curve = privatizer.guarantee(1024)  # exact at n = 1024: 1.000007, 1.500012, 5.000046
    for alpha, value in ((2, 1.000007), (3, 1.500012), (10, 5.000046)):
        assert curve.epsilon_at(alpha) == pytest.approx(value, abs=2e-6)


def test_discrete_gaussian_lemma4_against_direct_sum() -> None:
    """ε̂ with ξ bounded above: >= the value from the full sum, and within 1e-6 of it."""
    users, sigma = 490_000, 1.0
    ks = np.arange(1, users, dtype=float)
    xi = 10 * math.fsum(np.exp(-2 * math.pi ** 2 * sigma ** 2 * ks / (ks + 1)))
    exact = min(math.sqrt(1 + 2 * xi), 1 + xi)
    bound = distributed_discrete_gaussian_epsilon(sigma, users, sensitivity=700)
    assert exact <= bound <= exact * (1 + 1e-6)
    assert bound == pytest.approx(1.0135, abs=2e-4)  # Lemma 4's ξ ≈ 0.0139 at n = T/2


def test_discrete_gaussian_privatizer_guarantee_is_zcdp_near_half_epsilon_squared() -> None:
    g = DiscreteGaussianSecureAggregation(0.5, 10, 1 / T).guarantee(256)
    assert isinstance(g, ZCDP) and 0.125 <= g.rho <= 0.125 * (1 + 1e-9)
    with pytest.raises(ValueError, match="epsilon"):
        DiscreteGaussianSecureAggregation(0.0)


def test_cdp_se_ldp_se_and_dist_cdp_se_accept_epsilon_one_with_a_note() -> None:
    """Chowdhury & Zhou 2023, Fig. 4 runs ε = 1: Thms 4–6 assume ε < 1 for the regret bound only, alike."""
    from dpverify.bandits.environments import InstanceFamily
    from dpverify.bandits.mab import make_algorithm
    from dpverify.bandits.simulate import simulate

    for name, theorem in (("dist-cdp-se", "Thm 4"), ("cdp-se", "Thm 5"), ("ldp-se", "Thm 6")):
        algorithm = make_algorithm(name, epsilon=1.0, batch_base=2)
        guarantee = algorithm.guarantee(n_arms=10, horizon=10 ** 6)
        assert f"Chowdhury & Zhou 2023, {theorem}'s regret bound assumes epsilon < 1" in guarantee.notes
        assert "assumes" not in make_algorithm(name, epsilon=0.5).guarantee(
            n_arms=10, horizon=10 ** 6).notes
    result = simulate(make_algorithm("dist-cdp-se", epsilon=1.0, batch_base=2),
                      InstanceFamily("easy", 10), 20_000, runs=2, seed=0)
    assert result.guarantee.approx_dp.epsilon > 1.0 and result.final_regret().shape == (2,)
    # at ε = 1 the zCDP ρ is still ε²/2 up to the ξ correction (Lemma 4 needs no ε < 1)
    rho = DiscreteGaussianSecureAggregation(1.0, 10, 1 / T).guarantee(256).rho
    assert 0.5 <= rho <= 0.5 * (1 + 1e-6)


def test_subexponential_constant_bounds_the_mgf() -> None:
    for scale in (0.7, 3.0, 40.0):
        nu2, alpha = discrete_laplace_subexponential(scale)
        beta = mpmath.exp(-1 / mpmath.mpf(scale))
        for lam in np.linspace(1e-3, 1 / alpha, 25):
            lam = mpmath.mpf(lam)
            log_mgf = (2 * mpmath.log1p(-beta) - mpmath.log1p(-beta * mpmath.exp(lam))
                       - mpmath.log1p(-beta * mpmath.exp(-lam)))
            assert log_mgf <= lam ** 2 * nu2 / 2 * (1 + 1e-12)


def test_noise_bits_guarantee_and_coins() -> None:
    privatizer = ShuffledNoisyBits(1.0, 1e-6)
    n = privatizer.total_noise_bits
    g = privatizer.guarantee(16)
    assert isinstance(g, ApproxDP) and g.epsilon == 1.0 and 0 < g.delta <= 1e-6
    rng = np.random.default_rng(3)
    for users in (1, 3, n - 1, n, n + 1, 10 * n):
        coins = NoisyBitSummation(users=users, noise_bits=n).coins_per_user()
        assert coins.sum() == n and coins.max() - coins.min() <= 1  # N coins, evenly
        bits = np.zeros(users, dtype=int)
        assert 0 <= privatizer.privatize_sum(RewardBatch(users, 0, bits, binary=True), rng=rng,
                                             per_user=True) + n / 2 <= n
        assert privatizer.estimate_error_law(users).sub_gaussian_variance == n / 4
    assert privatizer.sigma == pytest.approx(math.sqrt(n) / 2)


@pytest.mark.slow
def test_randomized_response_msum_small_batches_gain_nothing() -> None:
    """Local RR (p = 2/(e^ε + 1)) is always feasible; tiny batches stay near it (no amplification)."""
    local = 2 / (math.exp(0.5) + 1)
    assert 0.9 * local <= ShuffledRandomizedResponse(0.5, 1e-6).randomization_probability(2) <= local
    privatizer = ShuffledRandomizedResponse(1.0, 1e-3)
    p = privatizer.randomization_probability(100)
    assert 0 < p < 1
    g = privatizer.guarantee(100)
    assert g.epsilon == 1.0 and g.delta <= 1e-3
    law = privatizer.estimate_error_law(100)
    assert law.sub_gaussian_variance == pytest.approx(100 / (4 * (1 - p) ** 2))


def test_worst_case_and_conversion() -> None:
    assert worst_case_guarantee([ApproxDP(0.5, 1e-7), ApproxDP(0.4, 1e-6)]) == ApproxDP(0.5, 1e-6)
    assert worst_case_guarantee([ZCDP(0.1), ZCDP(0.3)]).rho == 0.3
    curve = worst_case_guarantee([RDPCurve((2.0, 3.0), (1.0, 0.5)), RDPCurve((2.0, 3.0), (0.5, 1.0))])
    assert curve.epsilons == (1.0, 1.0)
    with pytest.raises(TypeError):
        worst_case_guarantee([PureDP(1.0), ZCDP(0.5)])
    converted = as_approx_dp(ZCDP(0.125), delta=1e-6)
    assert converted.delta == 1e-6 and 0.5 < converted.epsilon < 0.5 + 2 * math.sqrt(0.125 * 14)


def test_error_law_radius_formula() -> None:
    law = ErrorLaw(sigma=3.0, sub_exponential_scale=0.5)
    q = 1e-4
    assert law.radius(q) == pytest.approx(3 * math.sqrt(math.log(2 / q)) + 0.5 * math.log(2 / q))
    assert NonPrivate().estimate_error_law(10).radius(q) == 0.0


# ----------------------------------------------------------------------------- paths have one law


VALUES = np.array([0.0, 0.3, 1.0, 0.55, 0.9, 0.0, 0.12, 1.0])
MIXED = RewardBatch(size=8, total=float(VALUES.sum()), values=VALUES)
BINARY = RewardBatch(size=8, total=5, binary=True)

SAME_LAW = [
    (PolyaSecureAggregation(1.0, 1e-3), MIXED),
    (PolyaSecureAggregation(0.5, 1e-3), BINARY),
    (SkellamSecureAggregation(1.0, 2.0, 1e-3), MIXED),
    (DiscreteGaussianSecureAggregation(0.8, 2.0, 1e-3), MIXED),
    (CentralDiscreteLaplace(1.0, 1e-3), MIXED),
    (LocalDiscreteLaplace(1.0, 1e-3), MIXED),
    (PolyaShuffle(1.0, 0.01), BINARY),
    (ShuffledNoisyBits(1.0, 1e-6), BINARY),
    (ShuffledRandomizedResponse(2.0, 0.2), BINARY),
]


@pytest.mark.parametrize("privatizer, rewards", SAME_LAW,
                         ids=[f"{type(p).__name__}-{'bin' if r.binary else 'real'}" for p, r in SAME_LAW])
@pytest.mark.slow
def test_fast_path_has_the_per_user_law(privatizer, rewards) -> None:
    """Two-sample chi-square of the analyser's estimates (false failure 1e-3 with a fresh seed)."""
    rng = np.random.default_rng(20240601)
    draws = 2000
    fast = np.array([privatizer.privatize_sum(rewards, rng=rng) for _ in range(draws)])
    slow = np.array([privatizer.privatize_sum(rewards, rng=rng, per_user=True) for _ in range(draws)])
    _, codes = np.unique(np.concatenate([fast, slow]), return_inverse=True)
    assert two_sample_chisquare(codes[:draws], codes[draws:]) > P_MIN
    assert abs(fast.mean() - rewards.total) < 5 * fast.std() / math.sqrt(draws)  # unbiased


@pytest.mark.parametrize("privatizer, rewards", SAME_LAW,
                         ids=[f"{type(p).__name__}-{'bin' if r.binary else 'real'}" for p, r in SAME_LAW])
@pytest.mark.slow
def test_vectorised_estimates_have_the_fast_path_law(privatizer, rewards) -> None:
    """Two-sample chi-square, ``sample_estimates`` vs ``privatize_sum`` (false failure 1e-3)."""
    rng = np.random.default_rng(99)
    loop = np.array([privatizer.privatize_sum(rewards, rng=rng) for _ in range(2000)])
    vector = privatizer.sample_estimates(rewards, size=2000, rng=rng)
    _, codes = np.unique(np.round(np.concatenate([loop, vector]), 9), return_inverse=True)
    assert two_sample_chisquare(codes[:2000], codes[2000:]) > P_MIN


def test_central_laplace_paths_and_independent_draws() -> None:
    """DP-SE noise: same law on both paths, and a fresh draw per call (not the public code's shared one)."""
    rng = np.random.default_rng(7)
    privatizer = CentralLaplace(0.5)
    fast = np.array([privatizer.privatize_sum(BINARY, rng=rng) for _ in range(3000)])
    slow = np.array([privatizer.privatize_sum(BINARY, rng=rng, per_user=True) for _ in range(3000)])
    assert scipy.stats.ks_2samp(fast, slow).pvalue > P_MIN
    noise = fast - BINARY.total
    assert abs(np.corrcoef(noise[::2], noise[1::2])[0, 1]) < 0.1  # |ρ| < 0.1: 5.5 SE at ρ = 0


@pytest.mark.slow
def test_underflow_correction_recovers_negative_noisy_totals() -> None:
    """All-zero rewards: half the noisy totals are negative and come back negative, unbiased."""
    rng = np.random.default_rng(3)
    privatizer = PolyaSecureAggregation(0.5, 1e-6)
    zeros = RewardBatch(size=16, total=0, binary=True)
    estimates = np.array([privatizer.privatize_sum(zeros, rng=rng) for _ in range(4000)])
    params = privatizer.parameters(16)
    assert (estimates < 0).mean() == pytest.approx(0.45, abs=0.05)
    assert np.all(np.abs(estimates) <= (params.tau + 1) / params.precision)
    assert abs(estimates.mean()) < 5 * estimates.std() / math.sqrt(4000)


def test_noise_bits_needs_binary_rewards() -> None:
    with pytest.raises(ValueError, match="rewards"):
        ShuffledNoisyBits(1.0, 1e-6).privatize_sum(MIXED, rng=np.random.default_rng(0))
