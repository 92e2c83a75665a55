"""Clopper–Pearson bounds and the ε / δ lower bounds they certify."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from dpverify.auditing.estimators import (
    ConfidenceInterval,
    clopper_pearson,
    clopper_pearson_lower,
    clopper_pearson_upper,
    conditional_ratio_lower,
    delta_lower_bound,
    epsilon_lower_bound,
    ratio_epsilon,
)

TRIALS = st.integers(min_value=1, max_value=10**7)
ALPHAS = st.floats(min_value=1e-9, max_value=0.5)


@st.composite
def counts(draw: st.DrawFn) -> tuple[int, int]:
    n = draw(TRIALS)
    return draw(st.integers(min_value=0, max_value=n)), n


@given(counts(), st.floats(min_value=0.5, max_value=0.999999))
def test_interval_contains_the_estimate(kn: tuple[int, int], confidence: float) -> None:
    k, n = kn
    interval = clopper_pearson(k, n, confidence=confidence)
    assert interval.lower <= k / n <= interval.upper
    assert 0.0 <= interval.lower <= interval.upper <= 1.0


@given(counts(), ALPHAS)
def test_bounds_are_monotone_in_the_count(kn: tuple[int, int], alpha: float) -> None:
    k, n = kn
    if k < n:
        assert (clopper_pearson_lower(k, n, failure_probability=alpha)
                <= clopper_pearson_lower(k + 1, n, failure_probability=alpha))
        assert (clopper_pearson_upper(k, n, failure_probability=alpha)
                <= clopper_pearson_upper(k + 1, n, failure_probability=alpha))


@given(counts(), ALPHAS, ALPHAS)
def test_smaller_alpha_gives_wider_bounds(kn: tuple[int, int], a: float, b: float) -> None:
    k, n = kn
    small, large = min(a, b), max(a, b)
    # scipy's beta quantiles are monotone in alpha only up to a few ulps (seen for alphas
    # a few ulps apart): compare with that slack, far below the 1e-9 widening of the bounds
    slack = 1e-13
    assert clopper_pearson_lower(k, n, failure_probability=small) <= clopper_pearson_lower(k, n, failure_probability=large) * (1 + slack)
    assert clopper_pearson_upper(k, n, failure_probability=small) >= clopper_pearson_upper(k, n, failure_probability=large) * (1 - slack)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=1, max_value=60), st.floats(min_value=1e-9, max_value=1.0),
       st.sampled_from([0.01, 0.05, 0.2]))
def test_one_sided_coverage_is_exact(n: int, p: float, alpha: float) -> None:
    """P_p[lower(K) > p] <= alpha and P_p[upper(K) < p] <= alpha, summed exactly over K."""
    k = np.arange(n + 1)
    pmf = stats.binom.pmf(k, n, p)
    lower = clopper_pearson_lower(k, n, failure_probability=alpha)
    upper = clopper_pearson_upper(k, n, failure_probability=alpha)
    assert pmf[lower > p].sum() <= alpha * (1 + 1e-9)
    assert pmf[upper < p].sum() <= alpha * (1 + 1e-9)


def test_closed_forms_at_the_edges() -> None:
    # k = 0: upper = 1 - alpha^(1/n); k = n: lower = alpha^(1/n)  (beta(1, n) and beta(n, 1))
    assert clopper_pearson_upper(0, 100, failure_probability=0.05) == pytest.approx(1 - 0.05 ** 0.01, rel=1e-8)
    assert clopper_pearson_lower(100, 100, failure_probability=0.05) == pytest.approx(0.05 ** 0.01, rel=1e-8)
    assert clopper_pearson_lower(0, 100, failure_probability=0.05) == 0.0
    assert clopper_pearson_upper(100, 100, failure_probability=0.05) == 1.0
    # scipy's own exact binomtest interval agrees (two-sided, alpha/2 per side)
    reference = stats.binomtest(37, 120).proportion_ci(0.95, method="exact")
    interval = clopper_pearson(37, 120, confidence=0.95)
    assert interval.lower == pytest.approx(reference.low, rel=1e-8) and interval.lower < reference.low
    assert interval.upper == pytest.approx(reference.high, rel=1e-8) and interval.upper > reference.high


def test_vectorised_matches_scalar() -> None:
    ks = np.array([0, 3, 50, 99, 100])
    lows = clopper_pearson_lower(ks, 100, failure_probability=0.01)
    assert [clopper_pearson_lower(int(k), 100, failure_probability=0.01) for k in ks] == lows.tolist()


@given(st.floats(min_value=1e-12, max_value=1.0), st.floats(min_value=1e-12, max_value=1.0),
       st.floats(min_value=0.0, max_value=0.5))
def test_epsilon_lower_bound_is_rounded_down(p: float, q: float, delta: float) -> None:
    value = epsilon_lower_bound(p, q, delta=delta)
    with mpmath.workdps(80):
        if p > delta:
            exact = mpmath.log((mpmath.mpf(p) - mpmath.mpf(delta)) / mpmath.mpf(q))
            assert value <= max(exact, 0)
            assert value >= float(exact) - 1e-12 * abs(float(exact)) - 1e-300 or exact < 0
        else:
            assert value == 0.0


@given(counts(), counts(), st.sampled_from([0.0, 1e-6, 1e-3]))
def test_epsilon_lower_bound_monotone_in_counts(a: tuple[int, int], b: tuple[int, int],
                                                delta: float) -> None:
    """More hits on x's side, or fewer on x''s, never lowers the certified ε."""
    (k, n), (j, _) = a, b
    j = min(j, n)
    alpha = 1e-3

    def bound(k: int, j: int) -> float:
        return epsilon_lower_bound(clopper_pearson_lower(k, n, failure_probability=alpha),
                                   clopper_pearson_upper(j, n, failure_probability=alpha), delta=delta)

    if k < n:
        assert bound(k, j) <= bound(k + 1, j)
    if j > 0:
        assert bound(k, j) <= bound(k, j - 1)


@given(st.floats(min_value=0.0, max_value=1.0), st.floats(min_value=0.0, max_value=1.0),
       st.floats(min_value=0.0, max_value=20.0))
def test_delta_lower_bound_is_rounded_down(p: float, q: float, epsilon: float) -> None:
    value = delta_lower_bound(p, q, epsilon=epsilon)
    with mpmath.workdps(80):
        exact = mpmath.mpf(p) - mpmath.exp(epsilon) * mpmath.mpf(q)
    assert 0.0 <= value and (value == 0.0 or value <= exact)


def test_infinite_and_zero_cases() -> None:
    assert epsilon_lower_bound(0.5, 0.0) == math.inf
    assert epsilon_lower_bound(0.5, 0.0, delta=0.5) == 0.0
    assert epsilon_lower_bound(0.2, 0.4) == 0.0


def test_confidence_interval_validates() -> None:
    assert 0.3 in ConfidenceInterval(0.2, 0.4)
    with pytest.raises(ValueError, match="lower"):
        ConfidenceInterval(0.5, 0.4)


# ----------------------------------------------------------------- conditional ratio bound


@settings(max_examples=15, deadline=None)
@given(st.floats(min_value=0.5, max_value=60.0), st.floats(min_value=0.5, max_value=60.0),
       st.sampled_from([0.01, 0.05, 0.2]))
@pytest.mark.slow
def test_conditional_ratio_coverage_is_exact(lam: float, mu: float, alpha: float) -> None:
    """P[bound(X, Y) > λ/μ] <= α for X ~ Poisson(λ), Y ~ Poisson(μ), summed exactly over (X, Y)."""
    top = int(stats.poisson.isf(1e-12, lam + mu)) + 1
    x = np.arange(top + 1)
    px, py = stats.poisson.pmf(x, lam), stats.poisson.pmf(x, mu)
    failure = 0.0
    for i in range(top + 1):
        for j in range(top + 1 - i):
            if conditional_ratio_lower(i, j, failure_probability=alpha) > lam / mu:
                failure += px[i] * py[j]
    assert failure <= alpha * (1 + 1e-9) + 1e-11  # 1e-11: the pmf mass beyond `top`


def test_conditional_ratio_against_clopper_pearson() -> None:
    # given K = 1000 trials of which 600 are x's: r >= B^-1(0.05; 600, 401), ratio r/(1 - r)
    r = stats.beta.ppf(0.05, 600, 401)
    assert conditional_ratio_lower(600, 400, failure_probability=0.05) == pytest.approx(r / (1 - r), rel=1e-8)
    assert conditional_ratio_lower(600, 400, failure_probability=0.05) <= r / (1 - r)
    # Y = 0: r_low = alpha^(1/K)
    r = 0.05 ** (1 / 30)
    assert conditional_ratio_lower(30, 0, failure_probability=0.05) == pytest.approx(r / (1 - r), rel=1e-7)
    assert conditional_ratio_lower(0, 0, failure_probability=0.05) == 0.0


@settings(max_examples=80, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), st.integers(min_value=0, max_value=10**6),
       st.integers(min_value=1, max_value=1000), ALPHAS)
def test_conditional_ratio_is_monotone_and_rounded_down(a: int, b: int, step: int,
                                                        alpha: float) -> None:
    bound = conditional_ratio_lower(a, b, failure_probability=alpha)
    assert conditional_ratio_lower(a + step, b, failure_probability=alpha) >= bound
    assert conditional_ratio_lower(a, b + step, failure_probability=alpha) <= bound
    if a:  # never above the plug-in ratio a/b (a CP lower bound is below a/(a + b))
        assert bound <= (a / b if b else math.inf)
    epsilon = ratio_epsilon(bound)
    assert epsilon == 0.0 if bound <= 1 else epsilon <= float(mpmath.log(bound))


def test_conditional_ratio_validates() -> None:
    with pytest.raises(ValueError, match="successes"):
        conditional_ratio_lower(-1, 3, failure_probability=0.05)
    with pytest.raises(ValueError, match="failure_probability"):
        conditional_ratio_lower(1, 3, failure_probability=1.5)
