"""Exact Gaussian and Laplace privacy profiles, cross-checked by a second method."""

from __future__ import annotations

import math

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.mechanisms.continuous import (
    gaussian_delta,
    gaussian_privacy_profile,
    laplace_delta,
    laplace_privacy_profile,
)


def _hockey_stick_by_quadrature(logp, logq, epsilon: float, points: list[float]) -> mpmath.mpf:
    """∫ (p − e^ε q) over the region where it is positive, (−∞, points[-1]], by mpmath quadrature.

    ``points`` are the kinks of the integrand, so each piece is smooth (an
    independent second method next to the closed forms).
    """
    with mpmath.workdps(30):
        integrand = lambda x: mpmath.exp(logp(x)) - mpmath.exp(epsilon + logq(x))
        return mpmath.quad(integrand, [-mpmath.inf, *points])


@pytest.mark.parametrize("mu, epsilon", [(1.0, 0.0), (1.0, 1.0), (0.5, 0.3), (2.0, 3.0)])
def test_gaussian_delta_matches_quadrature(mu: float, epsilon: float) -> None:
    logp = lambda x: -x * x / 2 - mpmath.log(mpmath.sqrt(2 * mpmath.pi))
    logq = lambda x: -(x - mu) ** 2 / 2 - mpmath.log(mpmath.sqrt(2 * mpmath.pi))
    expected = _hockey_stick_by_quadrature(logp, logq, epsilon, [(mu * mu / 2 - epsilon) / mu])
    assert float(gaussian_delta(mu, epsilon)) == pytest.approx(float(expected), rel=1e-9)


@pytest.mark.parametrize("epsilon_0, epsilon", [(1.0, 0.0), (1.0, 0.5), (0.1, 0.05), (3.0, 2.0)])
def test_laplace_delta_matches_quadrature(epsilon_0: float, epsilon: float) -> None:
    logp = lambda x: -abs(x) - mpmath.log(2)
    logq = lambda x: -abs(x - epsilon_0) - mpmath.log(2)
    expected = _hockey_stick_by_quadrature(logp, logq, epsilon, [0.0, (epsilon_0 - epsilon) / 2])
    assert float(laplace_delta(epsilon_0, epsilon)) == pytest.approx(float(expected), rel=1e-9)


def test_gaussian_delta_survives_huge_epsilon() -> None:
    """k = 10^4 compositions of σ = 1: μ = 100, ε ≈ 5425 (no overflow, no cancellation loss)."""
    profile = gaussian_privacy_profile(0.01)
    epsilon = profile.epsilon_for_delta(1e-5)
    assert 5425 < epsilon < 5426
    assert profile.delta_for_epsilon(epsilon) <= 1e-5


def test_gaussian_profile_reference_value() -> None:
    """ε(δ=1e-5) for σ = 1; dp-accounting's PLD reports 4.3772 (σ = 1, k = 1)."""
    assert gaussian_privacy_profile(1.0).epsilon_for_delta(1e-5) == pytest.approx(4.377178, abs=1e-6)


@settings(max_examples=40)
@given(st.floats(0.2, 20.0), st.floats(1.0, 4.0), st.floats(0.0, 10.0))
def test_gaussian_delta_decreases_as_noise_grows(sigma: float, factor: float, epsilon: float) -> None:
    small = gaussian_privacy_profile(sigma).delta_for_epsilon(epsilon)
    large = gaussian_privacy_profile(sigma * factor).delta_for_epsilon(epsilon)
    assert large <= small


@given(st.floats(0.01, 10.0), st.floats(0.0, 12.0))
def test_laplace_profile_is_zero_beyond_epsilon_0(epsilon_0: float, epsilon: float) -> None:
    delta = laplace_privacy_profile(1.0 / epsilon_0).delta_for_epsilon(epsilon)
    if epsilon >= epsilon_0 * (1 + 1e-12):
        assert delta == 0.0
    else:
        assert delta >= -math.expm1((epsilon - epsilon_0) / 2) * (1 - 1e-12)


@pytest.mark.parametrize("call, name", [
    (lambda: gaussian_privacy_profile(0.0), "sigma"),
    (lambda: gaussian_privacy_profile(math.nan), "sigma"),
    (lambda: gaussian_privacy_profile(1.0, sensitivity=-1), "sensitivity"),
    (lambda: laplace_privacy_profile(math.inf), "scale"),
    (lambda: gaussian_privacy_profile(1.0).epsilon_for_delta(0.0), "delta"),
    (lambda: gaussian_privacy_profile(1.0).delta_for_epsilon(-1.0), "epsilon"),
])
def test_invalid_arguments(call, name: str) -> None:
    with pytest.raises(ValueError, match=name):
        call()
