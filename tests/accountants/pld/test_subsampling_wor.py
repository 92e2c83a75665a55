"""Sampling without replacement (batch m of n, replace-one) of finite dominating pairs, against exact values.

The exact references are brute-force: the mechanism "binary randomized
response of [the batch contains a 1]" on x = (1, 0, …, 0) and x' = (0, …, 0)
(replace-one neighbours) has output laws ``q·RR(1) + (1 − q)·RR(0)`` and
``RR(0)`` with q = m/n (the batch contains record 1 w.p. m/n); k runs are a
product whose hockey-stick divergence is an exact binomial sum. A sound
accountant must be ≥ this instance in both orders, and at most the
Balle–Barthe–Gaboardi (2018) bound where that is tight.
"""

from __future__ import annotations

import math

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.accountants.accountant import PrivacyAccountant
from dpverify.accountants.dominating_pairs import dominating_pair
from dpverify.accountants.events import SampledWithoutReplacementEvent
from dpverify.accountants.pld.subsampling_wor import (
    _symmetric_profile_pair,
    without_replacement_gaussian_pld,
    without_replacement_pld,
)
from dpverify.errors import UnsupportedError
from dpverify.guarantees import ApproxDP, PureDP
from dpverify.mechanisms import Gaussian, Laplace, RandomizedResponse


def _hockey(p, q, epsilon):
    with mpmath.workdps(50):
        factor = mpmath.exp(epsilon)
        return mpmath.fsum(max(mpmath.mpf(0), a - factor * b) for a, b in zip(p, q))


def _instance(epsilon_0, m, n, count):
    """Exact output pmfs (over the number of 'ones' reported) of ``count`` runs on x and x'."""
    with mpmath.workdps(50):
        keep = mpmath.exp(mpmath.mpf(epsilon_0)) / (1 + mpmath.exp(mpmath.mpf(epsilon_0)))
        rate = mpmath.mpf(m) / n
        one_x = rate * keep + (1 - rate) * (1 - keep)     # P(report 1) on x
        one_y = 1 - keep                                    # P(report 1) on x'
        p = [mpmath.binomial(count, j) * one_x ** j * (1 - one_x) ** (count - j) for j in range(count + 1)]
        q = [mpmath.binomial(count, j) * one_y ** j * (1 - one_y) ** (count - j) for j in range(count + 1)]
        return p, q


@settings(max_examples=15, deadline=None)
@given(st.floats(0.1, 3.0), st.integers(1, 50), st.integers(0, 3), st.floats(0.0, 1.5))
def test_bounds_the_exact_instance_in_both_orders(epsilon_0, m, extra, epsilon):
    n = m * (1 + extra) + extra
    count = 8
    p, q = _instance(epsilon_0, m, n, count)
    exact = float(max(_hockey(p, q, epsilon), _hockey(q, p, epsilon)))
    ours = without_replacement_pld(PureDP(epsilon_0), m, n).self_compose(count).delta_for_epsilon(epsilon)
    assert ours >= exact * (1 - 1e-12)


@settings(max_examples=15, deadline=None)
@given(st.floats(0.1, 3.0), st.integers(1, 100), st.floats(0.0, 2.0))
def test_single_step_is_the_balle_barthe_gaboardi_profile(epsilon_0, m, epsilon):
    """δ'(ε') = q·δ(ln(1 + (e^ε' − 1)/q)) (BBG 2018 Thm 10), up to the grid's step."""
    n = 4 * m
    for value in (PureDP(epsilon_0), ApproxDP(epsilon_0, 1e-3), RandomizedResponse(3, epsilon_0)):
        base_p, base_q = dominating_pair(value)
        rate = m / n
        with mpmath.workdps(50):
            def bbg(e):
                return rate * _hockey(base_p, base_q, mpmath.log(1 + mpmath.expm1(e) / rate)) if e >= 0 \
                    else mpmath.mpf(1)
        pld = without_replacement_pld(value, m, n)
        ours = pld.delta_for_epsilon(epsilon)
        h = pld.value_discretization_interval
        assert float(bbg(epsilon)) * (1 - 1e-12) <= ours <= float(bbg(max(0.0, epsilon - 2 * h))) + 1e-9


def test_pure_dp_amplification_matches_the_closed_form():
    """ε-DP on a batch of m of n is ln(1 + (m/n)(e^ε − 1))-DP under replace-one (BBG 2018, Thm 9)."""
    closed_form = math.log1p(0.02 * math.expm1(2.0))
    pld = without_replacement_pld(PureDP(2.0), 20, 1000)
    assert pld.delta_for_epsilon(closed_form * (1 + 1e-9) + 2e-3) <= 1e-12
    assert pld.delta_for_epsilon(closed_form * 0.98) > 1e-5


def test_approx_dp_amplification():
    """(ε, δ) → (ln(1 + q(e^ε − 1)), qδ) (BBG 2018, Thm 10)."""
    pld = without_replacement_pld(ApproxDP(1.0, 1e-3), 100, 1000)
    closed_form = math.log1p(0.1 * math.expm1(1.0))
    assert 1e-4 <= pld.delta_for_epsilon(closed_form + 2e-3) <= 1e-4 * (1 + 1e-9)


def test_symmetric_pair_is_a_pair_and_splits_when_needed():
    with mpmath.workdps(50):
        # positive-loss atoms carry p + q = 0.7 + 0.7 > 1: the second atom is split
        first = [mpmath.mpf("0.5"), mpmath.mpf("0.4"), mpmath.mpf("0.1")]
        second = [mpmath.mpf("0.2"), mpmath.mpf("0.3"), mpmath.mpf("0.5")]
        losses, masses = _symmetric_profile_pair(first, second)
        assert abs(mpmath.fsum(masses) - 1) < mpmath.mpf(10) ** -40
        # Q* is P* mirrored: Σ e^{−L} P*(L) = 1 as well
        assert abs(mpmath.fsum(m * mpmath.exp(-loss) for loss, m in zip(losses, masses)) - 1) < 1e-40
        # the symmetric pair's profile never exceeds the original's at ε >= 0
        for epsilon in (0.0, 0.3, 0.9):
            sym = mpmath.fsum(m * max(0, 1 - mpmath.exp(epsilon - loss)) for loss, m in zip(losses, masses))
            assert sym <= _hockey(first, second, epsilon) + 1e-40


@pytest.mark.slow
def test_accountant_accounts_sampling_without_replacement():
    accountant = PrivacyAccountant("pld", neighbouring="replace-one")
    event = SampledWithoutReplacementEvent(Laplace(scale=1.0), 50, 1000)
    assert accountant.supports(event)
    accountant.compose(event, 20)
    direct = without_replacement_pld(Laplace(scale=1.0), 50, 1000).self_compose(20)
    assert accountant.get_epsilon(1e-6) == pytest.approx(direct.epsilon_for_delta(1e-6), rel=1e-9)
    # Laplace's own (continuous) pair is tighter than its ε-DP pair
    pure = without_replacement_pld(PureDP(1.0), 50, 1000).self_compose(20)
    assert accountant.get_epsilon(1e-6) < pure.epsilon_for_delta(1e-6)
    with pytest.raises(UnsupportedError, match="add-remove"):
        PrivacyAccountant("pld").compose(event)
    with pytest.raises(UnsupportedError):
        PrivacyAccountant("pld", neighbouring="replace-one").compose(
            SampledWithoutReplacementEvent(SampledWithoutReplacementEvent(Laplace(scale=1.0), 5, 10), 1, 2))


def test_refuses_bad_sizes():
    with pytest.raises(ValueError, match="sample_size"):
        without_replacement_pld(PureDP(1.0), 11, 10)
    with pytest.raises(ValueError, match="population_size"):
        without_replacement_pld(PureDP(1.0), 1, 0)


# --------------------------------------------------------------------------- the Gaussian
def _gaussian_hockey(first, second, epsilon):
    """H_{e^ε}(first ‖ second) for densities on the line, by mpmath quadrature."""
    with mpmath.workdps(30):
        factor = mpmath.exp(epsilon)
        return float(mpmath.quad(lambda y: max(mpmath.mpf(0), first(y) - factor * second(y)),
                                 [-mpmath.inf, -5, 0, 5, 15, mpmath.inf]))


def _normal(mean, sigma):
    return lambda y: mpmath.npdf(y, mean, sigma)


@pytest.mark.slow
@pytest.mark.parametrize("sigma, m, n", [(1.0, 10, 1000), (0.8, 1, 4), (2.0, 50, 100)])
def test_gaussian_between_the_exact_instance_and_the_bbg_profile(sigma, m, n):
    """Instance: contributions +Δ / −Δ for the replaced record, 0 elsewhere (exact, both orders alike)."""
    q = m / n
    pld = without_replacement_gaussian_pld(sigma, m, n)
    h = pld.value_discretization_interval

    def on_x(y):
        return (1 - q) * mpmath.npdf(y, 0, sigma) + q * mpmath.npdf(y, 1, sigma)

    def on_y(y):
        return (1 - q) * mpmath.npdf(y, 0, sigma) + q * mpmath.npdf(y, -1, sigma)

    def bbg(y):
        return (1 - q) * mpmath.npdf(y, 0, sigma) + q * mpmath.npdf(y, 2, sigma)

    for epsilon in (0.0, 0.05, 0.3, 1.0):
        ours = pld.delta_for_epsilon(epsilon)
        assert ours >= _gaussian_hockey(on_x, on_y, epsilon) * (1 - 1e-9)
        assert ours <= _gaussian_hockey(bbg, _normal(0, sigma), max(0.0, epsilon - 2 * h)) * (1 + 1e-5) + 1e-9


def test_gaussian_composition_is_between_poisson_replace_and_twice_the_sensitivity():
    """Composed: at least the exact instance's (lower-bounded by its PLD at a coarse look: the tight
    Poisson replace-one pair is that instance), and within the symmetrisation cost of add/remove at 2Δ."""
    from dpverify.accountants.pld import PrivacyLossDistribution

    ours = without_replacement_gaussian_pld(1.0, 10, 1000).self_compose(200).epsilon_for_delta(1e-5)
    instance = PrivacyLossDistribution.from_subsampled_gaussian(1.0, 0.01, neighbouring="replace-one")
    remove_2 = PrivacyLossDistribution.from_subsampled_gaussian(1.0, 0.01, sensitivity=2.0)
    assert instance.self_compose(200).epsilon_for_delta(1e-5) <= ours
    assert remove_2.self_compose(200).epsilon_for_delta(1e-5) <= ours
    assert ours <= 1.2 * remove_2.self_compose(200).epsilon_for_delta(1e-5)


def test_accountant_accounts_gaussian_without_replacement():
    accountant = PrivacyAccountant("pld", neighbouring="replace-one")
    accountant.compose(SampledWithoutReplacementEvent(Gaussian(sigma=1.5), 64, 6400), 100)
    direct = without_replacement_gaussian_pld(1.5, 64, 6400).self_compose(100)
    assert accountant.get_epsilon(1e-5) == pytest.approx(direct.epsilon_for_delta(1e-5), rel=1e-9)


@pytest.mark.slow
@pytest.mark.parametrize("scale, m, n", [(1.0, 10, 1000), (0.5, 1, 5)])
def test_laplace_without_replacement_bounds_the_exact_instance(scale, m, n):
    """Counting query (values in [0, 1], replace-one sensitivity 1): x holds a 1 that x' replaces by 0,
    so the outputs are q·Lap(1) + (1 − q)·Lap(0) and Lap(0) exactly (mpmath quadrature)."""
    from accountants.pld.test_subsampling import _laplace_mixture_delta

    pld = without_replacement_pld(Laplace(scale=scale), m, n)
    for epsilon in (0.0, 0.01, 0.2, 0.7):
        assert pld.delta_for_epsilon(epsilon) >= _laplace_mixture_delta(scale, m / n, epsilon) * (1 - 1e-9)
