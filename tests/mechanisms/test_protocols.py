"""Protocols: shuffler, secure aggregation mod m, binary and vector summation."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from dpverify.mechanisms.protocols import (
    BinarySummation,
    NoisyBitSummation,
    SecureAggregation,
    Shuffler,
    VectorSummation,
    secure_aggregation_modulus,
    vector_summation_parameters,
)
from dpverify.mechanisms.randomized_response import BinaryRandomizedResponse


def test_shuffler_is_uniform_over_permutations_and_keeps_the_multiset() -> None:
    """Chi-square GOF over the 6 orders at p > 1e-4 (fixed seed; false failure 1e-4)."""
    rng = np.random.default_rng(5)
    orders = [tuple(Shuffler().shuffle([0, 1, 2], rng=rng).tolist()) for _ in range(12_000)]
    counts = [orders.count(p) for p in itertools.permutations(range(3))]
    assert stats.chisquare(counts).pvalue > 1e-4
    assert Shuffler().view([[1, 2], [0, 0], [1, 2]]) == {(1, 2): 2, (0, 0): 1}
    assert Shuffler().view_law([2, 1, 2]) == {(1, 2, 2): 1}


@pytest.mark.slow
def test_secure_aggregation_recovers_negative_totals_beyond_two_to_the_53() -> None:
    """n = 10^6 users, g = 10^7: Σ y_i ≈ 6·10^18 (> 2^53); noisy total −2·10^5 wraps around."""
    users, precision, tau = 10**6, 10**7, 10**6
    modulus = secure_aggregation_modulus(users, precision, tau)
    aggregation = SecureAggregation(modulus)
    codes = np.array([0] * 600_000 + [1] * 400_000, dtype=np.int64)
    noise = np.array([-1] * 600_000 + [0] * 400_000, dtype=np.int64)
    messages = aggregation.randomize(codes, noise)
    assert sum(messages) > 2**62  # the float path could not be exact
    total = aggregation.aggregate(np.array(messages, dtype=np.int64))
    assert aggregation.analyse(total, users=users, precision=precision, tau=tau) == \
        Fraction(-200_000, precision)
    assert int(np.sum(np.array(messages, dtype=float))) % modulus != total  # floats get it wrong


@settings(max_examples=50)
@given(st.integers(1, 50), st.integers(1, 10**9), st.integers(0, 10**6), st.data())
def test_analyse_inverts_every_total_within_tau(users, precision, tau, data) -> None:
    modulus = secure_aggregation_modulus(users, precision, tau)
    noisy_total = data.draw(st.integers(-tau, users * precision + tau))
    analysed = SecureAggregation(modulus).analyse(noisy_total % modulus, users=users,
                                                  precision=precision, tau=tau)
    assert analysed == Fraction(noisy_total, precision)


def test_secure_aggregation_estimator_moments_exact_and_wraparound_bias() -> None:
    users, precision, tau, codes_total = 3, 4, 2, 1
    aggregation = SecureAggregation(secure_aggregation_modulus(users, precision, tau))
    noise = {-2: Fraction(1, 8), -1: Fraction(1, 4), 0: Fraction(1, 4), 1: Fraction(1, 4),
             2: Fraction(1, 8)}
    law = {codes_total + k: q for k, q in noise.items()}
    assert sum(aggregation.view_law(law).values()) == 1
    mean, variance = aggregation.estimator_moments(law, users=users, precision=precision, tau=tau)
    noise_variance = sum(q * k * k for k, q in noise.items())
    assert mean == Fraction(codes_total, precision)
    assert variance == noise_variance / precision**2
    wide = {codes_total + 3 * k: q for k, q in noise.items()}  # mass beyond tau wraps
    biased_mean, _ = aggregation.estimator_moments(wide, users=users, precision=precision, tau=tau)
    assert biased_mean != Fraction(codes_total, precision)


@pytest.mark.parametrize("users, ones, p", [(1, 0, 0.5), (5, 2, 0.25), (12, 12, 0.75),
                                            (30, 7, 0.1)])
def test_binary_summation_law_is_exact_and_estimator_unbiased(users, ones, p) -> None:
    protocol = BinarySummation(users, p)
    law = protocol.count_law(ones)
    assert sum(law.probabilities) == 1
    estimates = [protocol.estimate(y) for y in range(users + 1)]
    mean = sum(q * e for q, e in zip(law.probabilities, estimates))
    variance = sum(q * (e - mean) ** 2 for q, e in zip(law.probabilities, estimates))
    assert mean == ones
    assert variance == protocol.estimator_variance()
    approximate = protocol.count_law(ones, exact=False)
    with mpmath.workdps(50):
        assert max(abs(mpmath.mpf(a.numerator) / a.denominator - b)
                   for a, b in zip(law.probabilities, approximate.probabilities)) < 1e-40


def test_binary_summation_law_matches_brute_force_over_outputs() -> None:
    protocol, bits = BinarySummation(3, 0.375), [1, 0, 1]
    per_user = [BinaryRandomizedResponse(0.375).law_on(b).probabilities for b in bits]
    brute = [Fraction(0)] * 4
    for outputs in itertools.product((0, 1), repeat=3):
        brute[sum(outputs)] += math.prod(per_user[i][o] for i, o in enumerate(outputs))
    assert list(protocol.count_law(2).probabilities) == brute


@pytest.mark.slow
def test_binary_summation_sampler_matches_the_count_law() -> None:
    """Chi-square GOF at p > 1e-4 with a fixed seed (false failure 1e-4)."""
    protocol, bits = BinarySummation(8, 0.4), np.array([1, 1, 1, 0, 0, 0, 0, 0])
    rng = np.random.default_rng(17)
    counts = np.bincount([protocol.simulate(bits, rng=rng) for _ in range(20_000)], minlength=9)
    expected = np.array([float(q) for q in protocol.count_law(3).probabilities]) * 20_000
    keep = expected > 5
    observed = np.append(counts[keep], counts[~keep].sum())
    expected = np.append(expected[keep], expected[~keep].sum())
    assert stats.chisquare(observed, expected).pvalue > 1e-4


def test_vector_summation_parameters_follow_eq_22() -> None:
    epsilon, delta, users, dimension = 2.0, 1e-5, 10**6, 9
    parameters = vector_summation_parameters(epsilon, delta, users=users, dimension=dimension)
    epsilon_hat = epsilon / (18 * math.sqrt(math.log(2 / delta)))
    log_term = math.log(4 * dimension / delta)
    g = math.ceil(max(epsilon_hat * math.sqrt(users) / (6 * math.sqrt(5 * log_term)), 3, 10))
    b = math.ceil(180 * g * g * log_term / (epsilon_hat**2 * users))
    assert parameters.epsilon_hat == pytest.approx(epsilon_hat, rel=1e-14)
    assert (parameters.precision, parameters.trials) == (g, b)
    assert parameters.probability == pytest.approx(90 * g * g * log_term /
                                                   (b * epsilon_hat**2 * users), rel=1e-13)
    assert 0 < parameters.probability <= 0.5


def test_vector_summation_is_unbiased_with_the_stated_variance() -> None:
    """Mean within 5 standard errors; variance ratio inside the chi-square 1e-4 quantiles.

    Fixed seed; false-failure probability below 1e-3 over the 3 coordinates.
    """
    protocol = VectorSummation(users=20, dimension=3, norm_bound=2.0, precision=10, trials=16,
                               probability=0.25)
    rng = np.random.default_rng(123)
    vectors = rng.uniform(-1.0, 1.0, size=(20, 3))
    outputs = np.array([protocol.analyse(protocol.shuffle_view(
        protocol.simulate_reports(vectors, rng=rng))) for _ in range(4000)])
    variance = protocol.estimator_variance(vectors)
    assert np.all(np.abs(outputs.mean(axis=0) - vectors.mean(axis=0))
                  < 5 * np.sqrt(variance / len(outputs)))
    dof = len(outputs) - 1
    low, high = stats.chi2.ppf([1e-4, 1 - 1e-4], dof) / dof
    ratios = outputs.var(axis=0, ddof=1) / variance
    assert np.all((low < ratios) & (ratios < high))
    assert np.all(variance <= protocol.variance_proxy())


@pytest.mark.slow
def test_vector_summation_totals_have_the_law_of_the_shuffled_reports() -> None:
    """The aggregate fast path and the user-by-user path: same law per coordinate (KS, 2-sample)."""
    protocol = VectorSummation(users=30, dimension=2, norm_bound=1.0, precision=10, trials=16,
                               probability=0.25)
    rng = np.random.default_rng(7)
    vectors = rng.uniform(-0.7, 0.7, size=(30, 2))
    fast = np.array([protocol.simulate_totals(vectors, rng=rng) for _ in range(3000)])
    slow = np.array([protocol.shuffle_view(protocol.simulate_reports(vectors, rng=rng))
                     for _ in range(3000)])
    for j in range(2):  # false failure <= 2e-4 with a fresh seed
        assert stats.ks_2samp(fast[:, j], slow[:, j]).pvalue > 1e-4


@pytest.mark.parametrize("call, name", [
    (lambda: Shuffler().shuffle(3, rng=np.random.default_rng(0)), "messages"),
    (lambda: secure_aggregation_modulus(0, 10, 1), "users"),
    (lambda: secure_aggregation_modulus(1, 10, -1), "tau"),
    (lambda: SecureAggregation(1), "modulus"),
    (lambda: SecureAggregation(10).aggregate([3, 10]), "messages"),
    (lambda: SecureAggregation(10).aggregate([3.5]), "messages"),
    (lambda: SecureAggregation(10).analyse(3, users=2, precision=4, tau=1), "modulus"),
    (lambda: SecureAggregation(100).analyse(100, users=2, precision=4, tau=1), "aggregate"),
    (lambda: SecureAggregation(100).analyse(5, users=2, precision=0, tau=1), "precision"),
    (lambda: SecureAggregation(100).randomize([1, 2], [1]), "noise"),
    (lambda: BinarySummation(0, 0.5), "users"),
    (lambda: BinarySummation(3, 1.0), "randomization_probability"),
    (lambda: BinarySummation(3, 0.5).count_law(4), "ones"),
    (lambda: BinarySummation(3, 0.5).estimate(-1), "count"),
    (lambda: BinarySummation(3, 0.5).simulate([1, 0], rng=np.random.default_rng(0)), "bits"),
    (lambda: vector_summation_parameters(15.0, 1e-6, users=10, dimension=2), "epsilon"),
    (lambda: vector_summation_parameters(1.0, 0.5, users=10, dimension=2), "delta"),
    (lambda: vector_summation_parameters(1.0, 1e-6, users=0, dimension=2), "users"),
    (lambda: VectorSummation(2, 1, 1.0, 10, 4, 0.0), "probability"),
    (lambda: VectorSummation(2, 1, -1.0, 10, 4, 0.5), "norm_bound"),
    (lambda: VectorSummation(2, 1, 1.0, 10, 4, 0.5).simulate_reports(
        [[2.0], [0.0]], rng=np.random.default_rng(0)), "vectors"),
    (lambda: VectorSummation(2, 1, 1.0, 10, 4, 0.5).shuffle_view([[15], [0]]), "reports"),
    (lambda: VectorSummation(2, 1, 1.0, 10, 4, 0.5).analyse([1, 2]), "totals"),
])
def test_bad_input_names_the_parameter(call, name: str) -> None:
    with pytest.raises((ValueError, TypeError), match=name):
        call()


@pytest.mark.slow
def test_noisy_bit_summation_paths_have_the_same_law() -> None:
    """Per-user (coins + shuffle) and aggregate draws of the count: two-sample chi-square.

    False-failure probability 1e-4 (the test's level) with a fixed seed.
    """
    protocol = NoisyBitSummation(users=5, noise_bits=20)
    bits = [1, 0, 1, 1, 0]
    rng = np.random.default_rng(11)
    fast = np.array([protocol.simulate(bits, rng=rng) for _ in range(4000)])
    slow = np.array([protocol.simulate(bits, rng=rng, per_user=True) for _ in range(4000)])
    values = np.arange(fast.min(), fast.max() + 1)
    table = np.array([[np.sum(fast == v) for v in values], [np.sum(slow == v) for v in values]])
    table = table[:, table.sum(axis=0) >= 10]
    assert stats.chi2_contingency(table).pvalue > 1e-4
    expected = 3 + protocol.noise_bits / 2
    assert abs(fast.mean() - expected) < 5 * math.sqrt(protocol.estimator_variance() / 4000)


@given(st.integers(1, 20), st.integers(1, 60), st.data())
@settings(max_examples=30, deadline=None)
def test_noisy_bit_summation_estimate_is_unbiased(users: int, noise_bits: int, data) -> None:
    protocol = NoisyBitSummation(users=users, noise_bits=noise_bits)
    coins = protocol.coins_per_user()
    assert coins.sum() == noise_bits and coins.max() - coins.min() <= 1  # N in all, evenly
    ones = data.draw(st.integers(0, users))
    law = protocol.error_law
    mean = sum(protocol.estimate(ones + j) * law.pmf(j - Fraction(protocol.noise_bits, 2))
               for j in range(protocol.noise_bits + 1))
    assert mean == ones
    assert law.variance() == protocol.estimator_variance()


def test_noisy_bit_summation_rejects_bad_bits() -> None:
    protocol = NoisyBitSummation(users=2, noise_bits=2)
    rng = np.random.default_rng(0)
    for bad in ([1, 2], [1], [[1, 0]]):
        with pytest.raises(ValueError, match="bits"):
            protocol.simulate(bad, rng=rng)
    with pytest.raises(ValueError, match="count"):
        protocol.estimate(5)


def test_vector_summation_with_a_huge_dimension_names_the_dimension() -> None:
    """Issue 28: no ε in Thm 3's range (0, 15) fits s = 2^62 coordinates, so the refusal names
    the dimension (it asked for epsilon >= 157); a tiny ε still names epsilon."""
    from dpverify.mechanisms import vector_summation_parameters

    with pytest.raises(ValueError, match=r"^dimension=4611686018427387904 must be smaller"):
        vector_summation_parameters(1.0, 1e-6, users=1000, dimension=2**62)
    with pytest.raises(ValueError, match=r"^epsilon=1e-09 must be >= "):
        vector_summation_parameters(1e-9, 1e-6, users=1000, dimension=4)
