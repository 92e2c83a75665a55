"""min_discrete_gaussian_sigma: every larger σ meets the budget, against a dense scan of the exact δ."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.accountants.calibrate.discrete import _interval_delta_bound, min_discrete_gaussian_sigma
from dpverify.mechanisms import discrete_gaussian_delta


def _exact(sigma, epsilon, sensitivity=1):
    return float(discrete_gaussian_delta(float(sigma), epsilon, sensitivity=sensitivity))


def _scan(sigma, epsilon, delta, sensitivity=1, points=120, span=3.0):
    """Exact δ on a grid from σ/1.5 to span·σ: (largest failing σ, all σ >= sigma pass)."""
    grid = np.geomspace(sigma / 1.5, span * sigma, points)
    values = np.array([_exact(s, epsilon, sensitivity) for s in grid])
    failing = grid[values > delta]
    return (failing.max() if failing.size else 0.0), bool(np.all(values[grid >= sigma] <= delta))


@pytest.mark.parametrize("epsilon, delta, sensitivity", [
    (1.0, 1e-5, 1), (0.3, 1e-6, 2), (5.0, 1e-6, 1), (10.0, 1e-4, 1), (3.0, 1e-9, 3)])
@pytest.mark.slow
def test_every_larger_sigma_passes_and_the_answer_is_tight(epsilon, delta, sensitivity):
    sigma = min_discrete_gaussian_sigma(epsilon, delta, sensitivity=sensitivity)
    largest_failing, all_pass = _scan(sigma, epsilon, delta, sensitivity)
    assert all_pass
    assert largest_failing < sigma <= 1.02 * largest_failing


@pytest.mark.slow
def test_non_monotone_profile_is_handled():
    """At ε = 10, δ = 1e-4: δ(σ) rises with σ on part of the range, so a σ below the answer passes
    while a larger one fails; the answer is past the last failing σ (a bisection could stop below)."""
    sigma = min_discrete_gaussian_sigma(10.0, 1e-4)
    grid = np.linspace(0.15, sigma, 200)
    values = np.array([_exact(s, 10.0) for s in grid])
    passing_below = grid[values <= 1e-4]
    failing = grid[values > 1e-4]
    assert passing_below.size and failing.size and passing_below.min() < failing.max() < sigma


@settings(max_examples=20, deadline=None)
@given(st.floats(0.3, 20.0), st.floats(1.0, 1.05), st.floats(0.0, 12.0), st.integers(1, 3),
       st.floats(0.0, 1.0))
def test_interval_bound_holds_inside_the_interval(low, ratio, epsilon, sensitivity, where):
    high = low * ratio
    inside = low + where * (high - low)
    bound = _interval_delta_bound(low, high, epsilon, sensitivity)
    assert bound >= _exact(inside, epsilon, sensitivity) * (1 - 1e-12)


def test_refuses_bad_arguments():
    with pytest.raises(ValueError, match="epsilon"):
        min_discrete_gaussian_sigma(0.0, 1e-5)
    with pytest.raises(ValueError, match="delta"):
        min_discrete_gaussian_sigma(1.0, 0.0)
    with pytest.raises(ValueError, match="sensitivity"):
        min_discrete_gaussian_sigma(1.0, 1e-5, sensitivity=1.5)
    with pytest.raises(ValueError, match="rtol"):
        min_discrete_gaussian_sigma(1.0, 1e-5, rtol=0.0)
