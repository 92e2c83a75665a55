"""Repeat-and-select RDP (Papernot & Steinke 2022) vs exact Rényi divergences and dp_accounting's tests."""

from __future__ import annotations

import math

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.accountants.accountant import PrivacyAccountant
from dpverify.accountants.events import RepeatAndSelectEvent
from dpverify.accountants.rdp import gaussian_rdp, randomized_response_rdp
from dpverify.accountants.rdp.repeat_select import repeat_and_select_rdp, truncated_negative_binomial_gamma
from dpverify.errors import UnsupportedError
from dpverify.mechanisms import BinaryRandomizedResponse, Gaussian, Laplace


def _tnb_pgf(x, gamma, shape):
    """E[x^K], K ~ TNB(shape, γ): P[K = k] ∝ C(k + η − 1, k)(1 − γ)^k, k >= 1 (η = 0: logarithmic)."""
    with mpmath.workdps(50):
        b = 1 - gamma
        if b == 0:      # mean 1: exactly one run
            return x
        if shape == 0:
            return mpmath.log(1 - b * x) / mpmath.log(1 - b)
        return ((1 - b * x) ** -shape - 1) / ((1 - b) ** -shape - 1)


@settings(max_examples=20, deadline=None)
@given(st.floats(0.1, 2.0), st.floats(1.0, 50.0), st.sampled_from([0.0, 0.5, 1.0, 2.0]),
       st.sampled_from([1.5, 2.0, 4.0, 16.0]))
@pytest.mark.slow
def test_bounds_the_exact_divergence_of_the_best_of_k_randomized_responses(epsilon, mean, shape, order):
    """Each run reports a bit by ε-randomized response; the best (max) of K runs is released:
    P[max = 0] = E[p₀^K] (the PGF), so the released bit's Rényi divergence is exact."""
    gamma = truncated_negative_binomial_gamma(mean, shape)
    with mpmath.workdps(50):
        keep = mpmath.exp(epsilon) / (1 + mpmath.exp(epsilon))
        zero_x, zero_y = _tnb_pgf(1 - keep, gamma, shape), _tnb_pgf(keep, gamma, shape)   # bit 1 vs bit 0
        p, q = [zero_x, 1 - zero_x], [zero_y, 1 - zero_y]
        exact = max(mpmath.log(mpmath.fsum(a ** order * b ** (1 - order) for a, b in zip(u, v))) / (order - 1)
                    for u, v in ((p, q), (q, p)))
    single = randomized_response_rdp(epsilon, orders=[1.5, 2.0, 4.0, 8.0, 16.0, 64.0])
    ours = repeat_and_select_rdp(single, mean=mean, shape=shape)
    assert ours.epsilons[list(ours.orders).index(order)] >= float(exact) * (1 - 1e-12)


@pytest.mark.parametrize("rho, gamma, shape", [
    (0.01, 0.01, 0), (1, 0.1, 0), (0.01, 0.01, 0.5), (1, 0.1, 0.5), (0.01, 0.01, 1), (1, 0.1, 1),
    (0.01, 0.01, 5), (1, 0.1, 5)])
def test_gaussian_matches_corollary_4(rho, gamma, shape):
    """The values asserted in google/differential-privacy:
    python/dp_accounting/dp_accounting/rdp/rdp_privacy_accountant_test.py
    (test_repeat_select_gaussian_negative_binomial; Papernot & Steinke Cor. 4)."""
    if shape == 0:
        mean = (1 / gamma - 1) / math.log(1 / gamma)
    else:
        mean = shape * (1 / gamma - 1) / (1 - gamma ** shape)
    rho = min(rho, -math.log(gamma))
    orders = sorted({1.1, 2.0, math.sqrt(-math.log(gamma) / rho), 1 + math.sqrt(math.log(mean) / rho),
                     3.0, 5.0, 10.0, 100.0, 1000.0, 10000.0} - {1.0})
    orders = [o for o in orders if o > 1]
    curve = repeat_and_select_rdp(gaussian_rdp(math.sqrt(0.5 / rho), orders=orders), mean=mean, shape=shape)
    for order, value in zip(curve.orders, curve.epsilons):
        if order <= 1 + math.sqrt(math.log(mean) / rho):
            expected = (2 * math.sqrt(rho * math.log(mean))
                        + 2 * (1 + shape) * math.sqrt(-rho * math.log(gamma)) - shape * rho)
        else:
            expected = (rho * (order - 1) + math.log(mean) / (order - 1)
                        + 2 * (1 + shape) * math.sqrt(-rho * math.log(gamma)) - shape * rho)
        assert expected * (1 - 1e-9) <= value <= expected * (1 + 1e-6) + 1e-12


@pytest.mark.parametrize("epsilon, mean", [(1, 1), (0.1, 2), (10, 10), (0.001, 100), (2, 1000)])
def test_pure_poisson_matches_dp_accounting(epsilon, mean):
    """google/differential-privacy:python/dp_accounting/dp_accounting/rdp/rdp_privacy_accountant_test.py
    (test_repeat_and_select_pure_poisson): at most their closed form (Thm 6) + 0.1%, and equal to it
    where order α's bound is below order 1e10's (we also use that RDP is monotone in the order)."""
    from dpverify.accountants.rdp import laplace_rdp

    alpha = 1 + 1 / math.expm1(epsilon)
    answer = (epsilon + math.log1p(math.expm1((1 - 2 * alpha) * epsilon) * (alpha - 1) / (2 * alpha - 1))
              / (alpha - 1) + math.log(mean) * math.expm1(epsilon))
    both = repeat_and_select_rdp(laplace_rdp(1 / epsilon, orders=[alpha, 1e10]), mean=mean, shape=math.inf)
    assert both.epsilons[0] <= answer * 1.001
    if answer < both.epsilons[1]:      # order α is the better one: their closed form, to 0.1%
        assert both.epsilons[0] == pytest.approx(answer, rel=1e-3)


def test_mean_one_is_the_single_run():
    """As google/differential-privacy:python/dp_accounting/dp_accounting/rdp/rdp_privacy_accountant_test.py
    (test_repeat_select_trivial): with an order near 1 available, mean 1 costs nothing."""
    single = gaussian_rdp(1.0, orders=[1 + 1e-6, 2.0, 8.0, 32.0])
    for shape in (0.0, 0.5, 1.0, 2.0):
        assert repeat_and_select_rdp(single, mean=1, shape=shape).epsilons == pytest.approx(single.epsilons,
                                                                                          rel=1e-5)


def test_accountant_accounts_repeat_and_select_in_rdp_only():
    event = RepeatAndSelectEvent(Gaussian(sigma=5.0), 10.0, 1.0)
    accountant = PrivacyAccountant("rdp")
    accountant.compose(event)
    direct = repeat_and_select_rdp(gaussian_rdp(5.0, orders=accountant.orders), mean=10.0, shape=1.0)
    from dpverify.accountants.rdp import rdp_to_dp
    assert accountant.get_epsilon(1e-6) == pytest.approx(rdp_to_dp(direct, delta=1e-6).epsilon, rel=1e-9)
    for method in ("pld", "zcdp"):
        with pytest.raises(UnsupportedError, match="rdp"):
            PrivacyAccountant(method).compose(event)
    PrivacyAccountant("rdp").compose(RepeatAndSelectEvent(BinaryRandomizedResponse(0.5), 5.0, math.inf))
    PrivacyAccountant("rdp").compose(RepeatAndSelectEvent(Laplace(scale=1.0), 5.0, 0.0))


def test_refuses_bad_arguments():
    single = gaussian_rdp(1.0, orders=[2.0])
    with pytest.raises(ValueError, match="mean"):
        repeat_and_select_rdp(single, mean=0.5, shape=1.0)
    with pytest.raises(ValueError, match="shape"):
        repeat_and_select_rdp(single, mean=2.0, shape=-1.0)
    with pytest.raises(TypeError, match="curve"):
        repeat_and_select_rdp([0.1], mean=2.0, shape=1.0)


@settings(max_examples=15, deadline=None)
@given(st.floats(0.1, 2.0), st.floats(1.0, 30.0), st.sampled_from([1.5, 2.0, 4.0, 16.0]))
def test_poisson_bounds_the_exact_divergence(epsilon, mean, order):
    """K ~ Poisson(μ), nothing released when K = 0 (Papernot & Steinke, Thm 6): outputs ⊥, 0, 1 with
    P[⊥] = e^{−μ}, P[max <= 0] = e^{μ(p₀ − 1)} (the PGF)."""
    with mpmath.workdps(50):
        keep = mpmath.exp(epsilon) / (1 + mpmath.exp(epsilon))
        none = mpmath.exp(-mean)

        def law(zero):
            at_most_zero = mpmath.exp(mean * (zero - 1))
            return [none, at_most_zero - none, 1 - at_most_zero]

        p, q = law(1 - keep), law(keep)
        exact = max(mpmath.log(mpmath.fsum(a ** order * b ** (1 - order) for a, b in zip(u, v))) / (order - 1)
                    for u, v in ((p, q), (q, p)))
    single = randomized_response_rdp(epsilon, orders=[1.5, 2.0, 4.0, 8.0, 16.0, 64.0, 1e6])
    ours = repeat_and_select_rdp(single, mean=mean, shape=math.inf)
    assert ours.epsilons[list(ours.orders).index(order)] >= float(exact) * (1 - 1e-12)
