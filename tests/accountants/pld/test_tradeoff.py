"""Trade-off curves from PLDs (conservative), and δ at negative ε."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import norm

from dpverify.accountants.pld import PrivacyLossDistribution as PLD
from dpverify.accountants.pld.tradeoff import tradeoff_curve, true_positive_rate
from dpverify.mechanisms.continuous import gaussian_delta


@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(st.floats(0.5, 3.0), st.integers(1, 20))
def test_gaussian_tradeoff_is_below_the_exact_curve_and_close(sigma, count):
    """k Gaussians of σ: exact trade-off G_μ(α) = Φ(Φ⁻¹(1 − α) − μ), μ = √k/σ (Dong–Roth–Su)."""
    alphas = np.array([1e-4, 1e-3, 0.01, 0.05, 0.2, 0.5, 0.9])
    mu = math.sqrt(count) / sigma
    exact = norm.cdf(norm.ppf(1 - alphas) - mu)
    ours = tradeoff_curve(PLD.from_gaussian(sigma).self_compose(count), alphas)
    assert np.all(ours <= exact)
    assert np.all(ours >= exact - 1e-3)


def test_randomized_response_tradeoff_is_exact_where_linear():
    """Binary RR with ε0: T(α) = max(0, 1 − e^ε0 α, e^{−ε0}(1 − α)) exactly."""
    epsilon = 1.0
    alphas = np.linspace(0, 1, 11)
    exact = np.maximum.reduce([np.zeros_like(alphas), 1 - math.e * alphas, (1 - alphas) / math.e])
    ours = tradeoff_curve(PLD.from_randomized_response(epsilon), alphas)
    assert np.all(ours <= exact + 1e-15) and np.all(ours >= exact - 1e-9)
    assert true_positive_rate(PLD.from_randomized_response(epsilon), 0.1) >= 1 - exact[1]


@pytest.mark.parametrize("epsilon", [-3.0, -1.0, -0.1])
def test_delta_at_negative_epsilon_bounds_the_exact_value(epsilon):
    composed = PLD.from_gaussian(2.0).self_compose(5)
    exact = float(gaussian_delta(math.sqrt(5) / 2.0, epsilon))
    assert exact <= composed.hockey_stick_divergence(epsilon) <= exact + 1e-4
    with pytest.raises(ValueError, match="epsilon"):
        composed.delta_for_epsilon(epsilon)   # δ(ε) proper stays for ε >= 0
