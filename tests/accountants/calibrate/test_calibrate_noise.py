"""Calibration: calibrate-then-evaluate lands on the passing side, and is tight."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.accountants.calibrate import (
    analytic_gaussian_sigma,
    gaussian_epsilon,
    laplace_epsilon,
    min_binomial_trials,
    min_gaussian_sigma,
    min_laplace_scale,
    min_noise_multiplier,
)
from dpverify.accountants.pld import PrivacyLossDistribution
from dpverify.mechanisms import BinomialNoise, privacy_map
from dpverify.mechanisms._noise_maps import binomial_noise_delta
from dpverify.mechanisms.continuous import gaussian_privacy_profile


@pytest.mark.parametrize("epsilon, delta", [(1.0, 1e-5), (0.1, 1e-6), (5.0, 1e-3), (20.0, 1e-10)])
def test_analytic_sigma_is_the_exact_threshold(epsilon: float, delta: float) -> None:
    sigma = analytic_gaussian_sigma(epsilon, delta)
    assert gaussian_privacy_profile(sigma).delta_for_epsilon(epsilon) <= delta
    assert gaussian_privacy_profile(sigma * (1 - 1e-9)).delta_for_epsilon(epsilon) > delta


def test_analytic_sigma_matches_a_float_root_finder() -> None:
    """Second method: scipy's brentq on Balle & Wang's Thm. 8 condition in float64.

    (ε, δ) = (1, 1e-5) needs σ ≈ 3.7306, well below the classical
    √(2 ln(1.25/δ))/ε ≈ 4.84; the verified value may only sit above the root.
    """
    from scipy.optimize import brentq
    from scipy.stats import norm

    def excess(sigma: float, epsilon: float = 1.0, delta: float = 1e-5) -> float:
        return (norm.cdf(1 / (2 * sigma) - epsilon * sigma)
                - math.exp(epsilon) * norm.cdf(-1 / (2 * sigma) - epsilon * sigma) - delta)

    root = brentq(excess, 1.0, 10.0, xtol=1e-14)
    sigma = analytic_gaussian_sigma(1.0, 1e-5)
    assert root * (1 - 1e-9) <= sigma <= root * (1 + 1e-9)
    assert sigma == pytest.approx(3.73063, abs=1e-5)
    assert analytic_gaussian_sigma(1.0, 1e-5, sensitivity=2.0) == pytest.approx(2 * sigma, rel=1e-11)


@pytest.mark.slow
@pytest.mark.parametrize("method", ["pld", "rdp", "analytic"])
def test_min_gaussian_sigma_round_trip(method: str) -> None:
    sigma = min_gaussian_sigma(1.0, 1e-5, count=100, method=method)
    assert gaussian_epsilon(sigma, delta=1e-5, count=100, method=method) <= 1.0
    exact = 10 * analytic_gaussian_sigma(1.0, 1e-5)
    assert sigma >= exact * (1 - 1e-12)  # no sound accountant needs less noise than the truth
    assert sigma <= exact * {"pld": 1.0001, "rdp": 1.15, "analytic": 1 + 1e-12}[method]


@pytest.mark.slow
@settings(max_examples=8, deadline=None)
@given(st.floats(0.2, 8.0), st.sampled_from([1e-3, 1e-6, 1e-9]), st.integers(1, 300))
def test_calibrate_then_evaluate_passes_rdp(epsilon: float, delta: float, k: int) -> None:
    sigma = min_gaussian_sigma(epsilon, delta, count=k, method="rdp")
    assert gaussian_epsilon(sigma, delta=delta, count=k, method="rdp") <= epsilon
    assert gaussian_epsilon(sigma * (1 - 1e-6), delta=delta, count=k, method="rdp") > epsilon


def test_laplace_pure_and_pld() -> None:
    assert min_laplace_scale(1.0, count=10) == 10.0
    assert laplace_epsilon(10.0, count=10, method="pure") == 1.0
    scale = min_laplace_scale(1.0, 1e-6, count=100, method="pld")
    assert laplace_epsilon(scale, delta=1e-6, count=100, method="pld") <= 1.0
    assert scale < 100.0  # approximate DP beats the pure answer kΔ/ε at k = 100


@pytest.mark.slow
def test_min_noise_multiplier_rdp_and_pld() -> None:
    rdp = min_noise_multiplier(epsilon=1.0, delta=1e-5, sampling_probability=0.01, steps=300, method="rdp")
    pld = min_noise_multiplier(epsilon=1.0, delta=1e-5, sampling_probability=0.01, steps=300, method="pld")
    assert 0.4 < pld <= rdp < 2.0
    assert PrivacyLossDistribution.from_subsampled_gaussian(
        pld, 0.01, value_discretization_interval=1e-4).self_compose(300).epsilon_for_delta(1e-5) <= 1.0


@pytest.mark.parametrize("call, name", [
    (lambda: analytic_gaussian_sigma(0.0, 1e-5), "epsilon"),
    (lambda: analytic_gaussian_sigma(1.0, 0.0), "delta"),
    (lambda: min_gaussian_sigma(1.0, 1e-5, count=0), "count"),
    (lambda: min_gaussian_sigma(1.0, 1e-5, method="fft"), "method"),
    (lambda: gaussian_epsilon(-1.0, delta=1e-5), "sigma"),
    (lambda: min_laplace_scale(math.nan), "epsilon"),
    (lambda: min_noise_multiplier(epsilon=1.0, delta=1e-5, sampling_probability=1.5, steps=10), "sampling_probability"),
])
def test_invalid_arguments(call, name: str) -> None:
    with pytest.raises(ValueError, match=name):
        call()


@pytest.mark.slow
@given(st.floats(0.05, 3.0), st.sampled_from([1e-3, 1e-6, 1e-9]), st.sampled_from([1, 2]))
@settings(max_examples=15, deadline=None)
def test_min_binomial_trials_is_the_exact_threshold(epsilon: float, delta: float,
                                                    sensitivity: int) -> None:
    """N passes and N − 1 fails, both by the exact mpmath δ."""
    trials = min_binomial_trials(epsilon, delta, sensitivity=sensitivity)
    assert binomial_noise_delta(trials, epsilon, sensitivity=sensitivity) <= delta
    if trials > sensitivity:
        assert binomial_noise_delta(trials - 1, epsilon, sensitivity=sensitivity) > delta


def test_min_binomial_trials_against_the_pmf_pair_for_small_n() -> None:
    """At ε = 1, δ = 1e-2 the threshold is small enough to enumerate with Fractions."""
    trials = min_binomial_trials(1.0, 1e-2)
    for n, passes in ((trials, True), (trials - 1, False)):
        exact = privacy_map(BinomialNoise(n), sensitivity=1)
        assert (exact.delta_for_epsilon(1.0) <= 1e-2) is passes


def test_min_binomial_trials_grows_like_the_gaussian() -> None:
    """N/4 is the variance: close to the analytic Gaussian σ² for small ε (CLT)."""
    trials = min_binomial_trials(0.05, 1e-6)
    assert trials / 4 == pytest.approx(analytic_gaussian_sigma(0.05, 1e-6) ** 2, rel=0.02)

