"""Exact shuffled binary RR: brute force, known exact values, closed-form bounds, monotonicity."""

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.accountants.shuffle import _exact_pair as _shuffle_pair
from dpverify.accountants.shuffle._exact import (
    min_randomization_probability,
    shuffled_binary_rr_delta,
    shuffled_binary_rr_epsilon,
)
from dpverify.accountants.shuffle._exact_pair import _window_half_width


def _brute_delta(p: Fraction, n: int, growth: Fraction) -> Fraction:
    """max over k, both orders, of the hockey-stick, by exact convolution in Fractions."""
    a, b = p / 2, 1 - p / 2
    best = Fraction(0)
    for k in range(n):
        rest = [Fraction(1)]
        for q in [b] * k + [a] * (n - 1 - k):
            rest = [(rest[y] if y < len(rest) else 0) * (1 - q) + (rest[y - 1] * q if y else 0)
                    for y in range(len(rest) + 1)]
        one = [b * (rest[y - 1] if y else 0) + a * (rest[y] if y < len(rest) else 0) for y in range(n + 1)]
        zero = [a * (rest[y - 1] if y else 0) + b * (rest[y] if y < len(rest) else 0) for y in range(n + 1)]
        for x, z in ((one, zero), (zero, one)):
            best = max(best, sum(max(u - growth * v, 0) for u, v in zip(x, z)))
    return best


@pytest.mark.parametrize("p, n, eps", [(0.5, 1, 0.2), (0.5, 4, 0.3), (0.25, 6, 0.5), (0.75, 7, 0.1)])
def test_matches_brute_force(p, n, eps):
    growth = Fraction(math.exp(eps))  # the float e^eps the code also uses, up to 1 ulp
    exact = float(_brute_delta(Fraction(p), n, growth))
    value = shuffled_binary_rr_delta(p, n, eps)
    assert value >= exact * (1 - 1e-12) - 1e-300
    assert value <= exact * (1 + 1e-9) + 1e-15


@pytest.mark.slow
@pytest.mark.parametrize("p, n, expected", [(0.487, 1000, 0.148), (0.1, 5000, 0.243)])
def test_exact_values_of_shuffled_binary_rr(p, n, expected):
    assert round(shuffled_binary_rr_epsilon(p, n, 1e-6), 3) == expected


def _hanna_eq10(eps0, n, delta):
    e = math.exp(eps0)
    return math.log1p((e - 1) / (e + 1) * (8 * math.sqrt(e * math.log(4 / delta)) / math.sqrt(n) + 8 * e / n))


@pytest.mark.slow
@pytest.mark.parametrize("p, n", [(0.05, 10**4), (0.1, 5000), (0.3, 2000)])
def test_fmt_closed_form_is_above_exact(p, n):
    eps0 = math.log((2 - p) / p)
    assert eps0 <= math.log(n / (16 * math.log(2 / 1e-6)))
    assert shuffled_binary_rr_epsilon(p, n, 1e-6) <= _hanna_eq10(eps0, n, 1e-6)


@pytest.mark.slow
@settings(max_examples=8, deadline=None)
@given(st.floats(0.2, 0.9), st.integers(20, 200))
def test_monotone_in_n_and_p(p, n):
    eps = shuffled_binary_rr_epsilon(p, n, 1e-4, rtol=1e-7)
    assert shuffled_binary_rr_epsilon(p, 2 * n, 1e-4, rtol=1e-7) <= eps * (1 + 1e-6)
    assert shuffled_binary_rr_epsilon(p * 0.9, n, 1e-4, rtol=1e-7) >= eps * (1 - 1e-6)


@pytest.mark.slow
def test_min_randomization_probability_round_trip():
    p = min_randomization_probability(500, 0.5, 1e-5)
    assert shuffled_binary_rr_delta(p, 500, 0.5) <= 1e-5
    assert shuffled_binary_rr_delta(p * (1 - 1e-6), 500, 0.5) > 1e-5


@pytest.mark.parametrize("kwargs, name", [
    (dict(randomization_probability=0.0, users=10, epsilon=0.1), "randomization_probability"),
    (dict(randomization_probability=0.5, users=0, epsilon=0.1), "users"),
    (dict(randomization_probability=0.5, users=10, epsilon=-1.0), "epsilon"),
    (dict(randomization_probability=float("nan"), users=10, epsilon=0.1), "randomization_probability"),
])
def test_bad_input(kwargs, name):
    with pytest.raises(ValueError, match=name):
        shuffled_binary_rr_delta(**kwargs)


@pytest.mark.parametrize("m", [1, 7, 50, 1000, 10**5])
@pytest.mark.parametrize("q", [1e-3, 0.12, 0.5, 0.88])
def test_window_tail_bounds_the_mass_outside_the_window(m, q):
    from scipy.stats import binom

    half, tail = _window_half_width(m, q)
    lo, hi = math.floor(m * q) - half, math.ceil(m * q) + half
    outside = binom.cdf(lo - 1, m, q) + binom.sf(hi, m, q)
    assert 0 < tail < 1e-29 and outside <= tail


def test_window_is_narrower_than_hoeffding_away_from_one_half():
    assert _window_half_width(10**6, 0.12)[0] < 0.7 * math.sqrt(35 * 10**6)
    assert _window_half_width(10**6, 0.5)[0] == math.ceil(math.sqrt(35 * 10**6)) + 1


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 300), st.integers(0, 300), st.floats(0.05, 0.95), st.floats(0.0, 2.0))
def test_float_preselection_keeps_the_exact_maximiser(ones, zeros, p, eps):
    """The mpmath maximum over the preselected t* equals that over all candidates."""
    import mpmath

    calls = []
    original = _shuffle_pair._float_preselection

    def spy(candidates, pmf, tails, c1, c2, eta, tail):
        chosen = original(candidates, pmf, tails, c1, c2, eta, tail)
        exact = [c1 * (mpmath.mpf(pmf[t - 1]) * (1 + 2 * eta) + tail) - c2 * tails[i] * (1 - 3 * eta)
                 for i, t in enumerate(candidates)]
        calls.append(max(exact[i] for i, _ in chosen) == max(exact))
        return chosen

    _shuffle_pair._float_preselection = spy
    try:
        _shuffle_pair._pair_delta_bound(ones, zeros, p, eps)
    finally:
        _shuffle_pair._float_preselection = original
    assert all(calls)
