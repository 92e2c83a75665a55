"""Exact Gaussian and Laplace privacy profiles, cross-checked by a second method."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.mechanisms.continuous import (
    Gaussian,
    Laplace,
    ShiftedDensity,
    gaussian_delta,
    gaussian_privacy_profile,
    laplace_delta,
    laplace_privacy_profile,
)
from dpverify.testing import strategies as dst


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
@given(st.floats(0.2, 20.0), st.floats(1.0, 4.0), dst.epsilons(max_value=10.0))
def test_gaussian_delta_decreases_as_noise_grows(sigma: float, factor: float, epsilon: float) -> None:
    small = gaussian_privacy_profile(sigma).delta_for_epsilon(epsilon)
    large = gaussian_privacy_profile(sigma * factor).delta_for_epsilon(epsilon)
    assert large <= small


@given(dst.epsilons(min_value=0.01, max_value=10.0), dst.epsilons(max_value=12.0))
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


@pytest.mark.slow
@pytest.mark.parametrize("law", [Laplace(0.5), Laplace(3.0), Gaussian(0.7), Gaussian(4.0)])
def test_density_cdf_sf_and_variance_agree_by_quadrature(law) -> None:
    with mpmath.workdps(30):
        assert abs(mpmath.quad(law.pdf, [-mpmath.inf, 0, mpmath.inf]) - 1) < 1e-20
        for x in (-2.0, 0.0, 1.3):
            assert abs(mpmath.quad(law.pdf, [-mpmath.inf, min(x, 0), x]) - law.cdf(x)) < 1e-20
            assert abs(law.cdf(x) + law.sf(x) - 1) < 1e-25
            assert abs(mpmath.exp(law.logpdf(x)) - law.pdf(x)) < 1e-25
        second = mpmath.quad(lambda x: x * x * law.pdf(x), [-mpmath.inf, 0, mpmath.inf])
        assert abs(second - mpmath.mpf(law.variance().numerator) / law.variance().denominator) < 1e-18
    xs = np.array([-1.5, 0.0, 0.25, 3.0])
    np.testing.assert_allclose(law.pdf_array(xs), [float(law.pdf(x)) for x in xs], rtol=1e-12)


def test_gaussian_sf_keeps_relative_precision_far_out() -> None:
    """sf(40) ≈ 3.66e-351 is far below the float range; it must not be 1 − cdf rounded to 0."""
    with mpmath.workdps(50):
        expected = mpmath.erfc(40 / mpmath.sqrt(2)) / 2
        assert abs(Gaussian(1.0).sf(40.0) / expected - 1) < 1e-30
        assert abs(Laplace(1.0).sf(800.0) / (mpmath.exp(-800) / 2) - 1) < 1e-30


@pytest.mark.parametrize("law", [Laplace(1.0), Gaussian(2.0)])
def test_law_on_shifts_the_density(law) -> None:
    output = law.law_on(2.5)
    assert isinstance(output, ShiftedDensity)
    assert output.pdf(3.0) == law.pdf(0.5) and output.cdf(2.5) == law.cdf(0.0) == 0.5
    assert output.sf(1.0) == law.sf(-1.5) and output.mean() == 2.5
    assert output.variance() == law.variance()
    with pytest.raises(ValueError, match="x"):
        law.law_on(math.inf)
