"""FMT's numerical clone bound and the variation-ratio bound for binary RR."""

from __future__ import annotations

import math

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.accountants.shuffle._clone_kernel import clone_delta_reference
from dpverify.accountants.shuffle._numerical import (
    fmt_numerical_delta,
    fmt_numerical_epsilon,
    variation_ratio_delta,
    variation_ratio_epsilon,
)


def hanna_eq10(local_epsilon: float, n: int, delta: float) -> float:
    """FMT's closed form f_{n,δ}(ε0), Hanna et al. 2022, eq. (10), in mpmath."""
    e0 = mpmath.exp(local_epsilon)
    inner = 8 * mpmath.sqrt(e0 * mpmath.log(4 / mpmath.mpf(delta)) / n) + 8 * e0 / n
    return float(mpmath.log(1 + (e0 - 1) / (e0 + 1) * inner))


def closed_form_valid(local_epsilon: float, n: int, delta: float) -> bool:
    return local_epsilon <= math.log(n / (16 * math.log(2 / delta)))


CASES = [(n, e0, e) for n in (1, 2, 7, 20, 50) for e0, e in ((0.5, 0.05), (1.0, 0.2), (2.0, 0.6))]


@pytest.mark.slow
@pytest.mark.parametrize(("n", "local_epsilon", "epsilon"), CASES)
def test_fmt_delta_matches_brute_force(n, local_epsilon, epsilon):
    exact = clone_delta_reference(local_epsilon, n, epsilon, mpmath.exp(-local_epsilon))
    bound = fmt_numerical_delta(local_epsilon, n, epsilon)
    assert bound >= exact
    assert bound <= exact * (1 + 1e-9) + 1e-300


@pytest.mark.slow
@pytest.mark.parametrize(("n", "local_epsilon", "epsilon"), CASES)
def test_variation_ratio_delta_matches_brute_force(n, local_epsilon, epsilon):
    rho = 2 / (mpmath.exp(local_epsilon) + 1)
    exact = clone_delta_reference(local_epsilon, n, epsilon, rho)
    bound = variation_ratio_delta(local_epsilon, n, epsilon)
    assert bound >= exact
    assert bound <= exact * (1 + 1e-9) + 1e-300


@pytest.mark.slow
def test_epsilon_meets_delta_and_is_tight():
    eps = fmt_numerical_epsilon(1.0, 40, 1e-3)
    exact_at = clone_delta_reference(1.0, 40, eps, mpmath.exp(-1))
    assert exact_at <= 1e-3
    assert clone_delta_reference(1.0, 40, eps * (1 - 1e-4), mpmath.exp(-1)) > 1e-3


def test_delta_vanishes_beyond_local_epsilon():
    assert fmt_numerical_delta(1.0, 100, 1.0) == 0
    assert fmt_numerical_epsilon(1.0, 2, 1e-9) <= 1.0


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(st.floats(0.1, 3.0), st.integers(2, 60), st.floats(1e-8, 1e-2))
def test_monotone_in_local_epsilon_and_n(local_epsilon, n, delta):
    base = fmt_numerical_epsilon(local_epsilon, n, delta)
    assert fmt_numerical_epsilon(local_epsilon + 0.1, n, delta) >= base * (1 - 2e-5)
    assert fmt_numerical_epsilon(local_epsilon, n + 5, delta) <= base * (1 + 2e-5)
    vr = variation_ratio_epsilon(local_epsilon, n, delta)
    assert variation_ratio_epsilon(local_epsilon + 0.1, n, delta) >= vr * (1 - 2e-5)
    assert variation_ratio_epsilon(local_epsilon, n + 5, delta) <= vr * (1 + 2e-5)


@pytest.mark.parametrize(("local_epsilon", "n", "delta"),
                         [(0.5, 10**4, 1e-6), (1.0, 10**5, 1e-6), (2.0, 10**5, 1e-8)])
def test_below_the_closed_form(local_epsilon, n, delta):
    assert closed_form_valid(local_epsilon, n, delta)
    assert fmt_numerical_epsilon(local_epsilon, n, delta) <= hanna_eq10(local_epsilon, n, delta)


@pytest.mark.parametrize(("local_epsilon", "n"), [(0.5, 100), (1.0, 1000), (2.0, 10**4), (4.0, 10**4)])
def test_variation_ratio_below_fmt_for_binary_rr(local_epsilon, n):
    assert variation_ratio_epsilon(local_epsilon, n, 1e-6) <= fmt_numerical_epsilon(local_epsilon, n, 1e-6)


@pytest.mark.slow
def test_reference_values_at_a_million():
    # FMT's public code reports ≈ 0.01367 (it is conservative: coarse c-steps);
    # the exact value of its formula is ≈ 0.01296 (checked in mpmath at n <= 50).
    fmt = fmt_numerical_epsilon(2.0, 10**6, 1e-6)
    assert 0.0129 < fmt <= 0.01367
    assert variation_ratio_epsilon(2.0, 10**6, 1e-6) == pytest.approx(0.00953, rel=0.01)


def _shuffled_k_rr_delta(k: int, eps0: float, others: tuple[int, ...], epsilon: float) -> float:
    """Exact δ(ε) of shuffled k-ary RR for one dataset (victim 0 vs 1), by enumerating histograms."""
    keep = math.exp(eps0) / (math.exp(eps0) + k - 1)
    other = 1 / (math.exp(eps0) + k - 1)

    def law(victim: int) -> dict[tuple[int, ...], float]:
        histograms = {(0,) * k: 1.0}
        for x in (victim, *others):
            step: dict[tuple[int, ...], float] = {}
            for h, mass in histograms.items():
                for v in range(k):
                    key = tuple(c + (i == v) for i, c in enumerate(h))
                    step[key] = step.get(key, 0.0) + mass * (keep if v == x else other)
            histograms = step
        return histograms

    p, q = law(0), law(1)
    forward = sum(max(0.0, p[h] - math.exp(epsilon) * q.get(h, 0.0)) for h in p)
    backward = sum(max(0.0, q[h] - math.exp(epsilon) * p.get(h, 0.0)) for h in q)
    return max(forward, backward)


@pytest.mark.parametrize("k", [3, 4])
@pytest.mark.parametrize("others", [(0,) * 6, (1,) * 6, (2,) * 6, (0, 1, 2, 0, 1, 2), (2, 2, 2, 0, 0, 1)])
def test_k_ary_variation_ratio_bounds_exact_datasets(k, others):
    """Every dataset's exact δ (a lower bound on the worst case) is below the k-RR bound."""
    for eps0, epsilon in ((1.0, 0.2), (2.0, 0.5), (0.5, 0.05)):
        exact = _shuffled_k_rr_delta(k, eps0, others, epsilon)
        assert exact <= variation_ratio_delta(eps0, len(others) + 1, epsilon, k=k) + 1e-15


def test_k_ary_variation_ratio_reduces_to_binary_and_grows_with_k():
    assert variation_ratio_delta(1.0, 500, 0.1, k=2) == variation_ratio_delta(1.0, 500, 0.1)
    values = [variation_ratio_epsilon(2.0, 10**4, 1e-6, k=k) for k in (2, 3, 8, 64)]
    assert values == sorted(values)  # fewer clones of the two informative values as k grows
    # tighter than the generic anchor for small k; for large k the generic bound wins
    assert values[1] <= fmt_numerical_epsilon(2.0, 10**4, 1e-6) <= values[-1]


def test_refuses_bad_input():
    with pytest.raises(ValueError, match="k"):
        variation_ratio_epsilon(1.0, 100, 1e-6, k=1)
    with pytest.raises(ValueError, match="local_epsilon"):
        fmt_numerical_epsilon(-1.0, 100, 1e-6)
    with pytest.raises(ValueError, match="users="):
        fmt_numerical_delta(1.0, 0, 0.1)
    with pytest.raises(ValueError, match="delta"):
        variation_ratio_epsilon(1.0, 100, 0.0)
