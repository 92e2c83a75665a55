"""Amplification by Poisson subsampling of finite dominating pairs (PLD), against exact values."""

from __future__ import annotations

import math

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.accountants.accountant import PrivacyAccountant
from dpverify.accountants.dominating_pairs import dominating_pair
from dpverify.accountants.events import PoissonSampledEvent
from dpverify.accountants.pld.subsampling import poisson_subsampled_pld
from dpverify.errors import UnsupportedError
from dpverify.guarantees import ApproxDP, PureDP
from dpverify.mechanisms import Gaussian, Laplace, RandomizedResponse


def _exact_delta(p, q, epsilon):
    """max over both orders of Σ (a − e^ε b)_+ for finite pmfs (mpmath, 50 digits)."""
    with mpmath.workdps(50):
        factor = mpmath.exp(epsilon)
        forward = mpmath.fsum(max(mpmath.mpf(0), a - factor * b) for a, b in zip(p, q))
        backward = mpmath.fsum(max(mpmath.mpf(0), b - factor * a) for a, b in zip(p, q))
        return float(max(forward, backward))


def _mixture(value, rate):
    p, q = dominating_pair(value)
    with mpmath.workdps(50):
        return [rate * a + (1 - rate) * b for a, b in zip(p, q)], q


@settings(max_examples=20, deadline=None)
@given(st.floats(0.1, 4.0), st.floats(0.001, 1.0), st.floats(0.0, 2.0))
def test_single_step_bounds_the_exact_mixture_pair(epsilon_0, rate, epsilon):
    for value in (PureDP(epsilon_0), ApproxDP(epsilon_0, 1e-4), RandomizedResponse(3, epsilon_0)):
        mixture, q = _mixture(value, rate)
        exact = _exact_delta(mixture, q, epsilon)
        pld = poisson_subsampled_pld(value, rate)
        ours = pld.delta_for_epsilon(epsilon)
        # connect-the-dots moves each loss by less than one grid step h
        shifted = _exact_delta(mixture, q, epsilon - 2 * pld.value_discretization_interval)
        assert exact * (1 - 1e-12) <= ours <= shifted + 1e-9


def test_pure_dp_amplification_matches_the_closed_form():
    """ε-DP Poisson-sampled at rate q is ln(1 + q(e^ε − 1))-DP, tightly (Balle et al. 2018)."""
    pld = poisson_subsampled_pld(PureDP(1.0), 0.01)
    closed_form = math.log1p(0.01 * math.expm1(1.0))
    assert pld.delta_for_epsilon(closed_form * (1 + 1e-9) + 1e-9) <= 1e-12
    assert pld.delta_for_epsilon(closed_form * 0.99) > 1e-6


def test_composition_matches_the_binomial_sum():
    """k steps of the subsampled ε-DP pair: the losses are a sum of two-valued variables."""
    rate, epsilon_0, count = 0.05, 1.0, 30
    mixture, q = _mixture(PureDP(epsilon_0), rate)
    with mpmath.workdps(50):
        # outcome 0 w.p. mixture[0] under P', q[0] under Q: composed pmfs over the count of 0s
        p_pmf = [mpmath.binomial(count, j) * mixture[0] ** j * mixture[1] ** (count - j)
                 for j in range(count + 1)]
        q_pmf = [mpmath.binomial(count, j) * q[0] ** j * q[1] ** (count - j) for j in range(count + 1)]
    composed = poisson_subsampled_pld(PureDP(epsilon_0), rate).self_compose(count)
    for epsilon in (0.0, 0.1, 0.3, 0.6):
        exact = _exact_delta(p_pmf, q_pmf, epsilon)
        assert exact * (1 - 1e-12) <= composed.delta_for_epsilon(epsilon) <= exact + 2e-3


@pytest.mark.slow
def test_accountant_accounts_subsampled_laplace_and_rr():
    accountant = PrivacyAccountant("pld")
    accountant.compose(PoissonSampledEvent(Laplace(scale=1.0), 0.1), 10)
    accountant.compose(PoissonSampledEvent(RandomizedResponse(4, 2.0), 0.05), 10)
    assert 0 < accountant.get_epsilon(1e-6) < 10 * math.log1p(0.1 * math.expm1(1.0)) + 10 * 0.4
    with pytest.raises(UnsupportedError):
        PrivacyAccountant("pld", neighbouring="replace-one").compose(
            PoissonSampledEvent(Laplace(scale=1.0), 0.1))


def test_no_pair_for_a_gaussian():
    with pytest.raises(UnsupportedError, match="dominating pair"):
        dominating_pair(Gaussian(sigma=1.0))


@pytest.mark.parametrize("k, epsilon, alpha", [(3, 1.0, 2.0), (5, 0.3, 7.5), (10, 2.0, 1.5)])
def test_kary_randomized_response_rdp_is_the_exact_renyi_divergence(k, epsilon, alpha):
    from dpverify.accountants.rdp import randomized_response_rdp

    p, q = dominating_pair(RandomizedResponse(k, epsilon))
    with mpmath.workdps(50):
        exact = mpmath.log(mpmath.fsum(a ** alpha * b ** (1 - alpha) for a, b in zip(p, q))) / (alpha - 1)
    value = randomized_response_rdp(epsilon, orders=[alpha], categories=k).epsilons[0]
    assert float(exact) <= value <= float(exact) * (1 + 1e-12)
    assert value < randomized_response_rdp(epsilon, orders=[alpha]).epsilons[0]  # k-ary: more outputs


# --------------------------------------------------------------------------- discrete Laplace PLD
def _exact_discrete_laplace_delta(scale, sensitivity, epsilon):
    from dpverify.mechanisms import DiscreteLaplace

    law = DiscreteLaplace(scale=scale)
    with mpmath.workdps(50):
        t, factor = mpmath.mpf(scale), mpmath.exp(epsilon)
        beta = mpmath.exp(-1 / t)
        # k <= 0: ratio e^{Δ/t}, mass 1/(1+β); 0 < k < Δ: finite; k >= Δ: ratio e^{−Δ/t} (no excess)
        total = max(mpmath.mpf(0), 1 - factor * mpmath.exp(-sensitivity / t)) / (1 + beta)
        for k in range(1, sensitivity):
            total += max(mpmath.mpf(0), law.pmf(k) - factor * law.pmf(k - sensitivity))
        return float(total)


@pytest.mark.parametrize("scale, sensitivity", [(1.0, 1), (2.0, 3), (0.7, 2)])
def test_discrete_laplace_pld_bounds_the_exact_profile(scale, sensitivity):
    from dpverify.accountants.pld import PrivacyLossDistribution

    pld = PrivacyLossDistribution.from_discrete_laplace(scale, sensitivity=sensitivity)
    for epsilon in (0.0, 0.2, 0.5, 1.0):
        exact = _exact_discrete_laplace_delta(scale, sensitivity, epsilon)
        assert exact * (1 - 1e-12) <= pld.delta_for_epsilon(epsilon) <= exact + 5e-3


def test_discrete_laplace_matches_dp_accounting_test():
    """google/differential-privacy:python/dp_accounting/dp_accounting/pld/pld_privacy_accountant_test.py
    (test_discrete_laplace_basic): 3 × DLap(a = 1) + 2 × DLap(a = 0.5) is exactly 4-DP."""
    pytest.importorskip("dp_accounting")
    from dp_accounting import dp_event

    from dpverify.accountants.accountant import from_dp_accounting

    accountant = PrivacyAccountant("pld")
    accountant.compose(from_dp_accounting(dp_event.DiscreteLaplaceDpEvent(1, 1)), 3)
    accountant.compose(from_dp_accounting(dp_event.DiscreteLaplaceDpEvent(0.5, 1)), 2)
    assert accountant.get_delta(4.0) <= 1e-12
    assert accountant.get_epsilon(1e-12) == pytest.approx(4.0, abs=1e-6)
    assert accountant.get_epsilon(0.0) == pytest.approx(4.0, abs=1e-6)


def test_max_step_epsilon_inverts_optimal_composition():
    from dpverify.accountants.composition import max_step_epsilon, optimal_composition

    step = max_step_epsilon(1.0, 1e-6, 50, step_delta=1e-9)
    assert optimal_composition(step, 1e-9, 50, target_delta=1e-6).epsilon <= 1.0
    assert optimal_composition(step * (1 + 1e-8), 1e-9, 50, target_delta=1e-6).epsilon > 1.0
    with pytest.raises(ValueError, match="total_delta"):
        max_step_epsilon(1.0, 1e-9, 50, step_delta=1e-9)


# --------------------------------------------------------------------------- Laplace, discrete Laplace
def _laplace_mixture_delta(scale, rate, epsilon):
    """max over both orders of H_{e^ε}(q Lap(1, b) + (1 − q) Lap(0, b) ‖ Lap(0, b)), by quadrature."""
    with mpmath.workdps(30):
        b, factor = mpmath.mpf(scale), mpmath.exp(epsilon)

        def lap(y, mean):
            return mpmath.exp(-abs(y - mean) / b) / (2 * b)

        def mix(y):
            return rate * lap(y, 1) + (1 - rate) * lap(y, 0)

        # mix/lap0 = q e^{(2y − 1)/b} + 1 − q on [0, 1]: split the integrals at the integrands' kinks
        cuts = [-mpmath.inf, -20 * b, 0, 1, 1 + 20 * b, mpmath.inf]
        for target in (factor, 1 / factor):
            ratio = (target - 1 + rate) / rate
            if ratio > 0 and 0 < (b * mpmath.log(ratio) + 1) / 2 < 1:
                cuts.append((b * mpmath.log(ratio) + 1) / 2)
        cuts.sort()
        forward = mpmath.quad(lambda y: max(mpmath.mpf(0), mix(y) - factor * lap(y, 0)), cuts)
        backward = mpmath.quad(lambda y: max(mpmath.mpf(0), lap(y, 0) - factor * mix(y)), cuts)
        return float(max(forward, backward))


@pytest.mark.slow
@pytest.mark.parametrize("scale, rate", [(1.0, 0.01), (0.5, 0.2), (3.0, 1.0)])
def test_poisson_laplace_bounds_the_exact_continuous_mixture(scale, rate):
    pld = poisson_subsampled_pld(Laplace(scale=scale), rate)
    looser = poisson_subsampled_pld(PureDP(1.0 / scale), rate)     # the ε-DP stand-in of before
    for epsilon in (0.0, 0.3 * rate / scale, 0.1, 0.5):
        exact = _laplace_mixture_delta(scale, rate, epsilon)
        ours = pld.delta_for_epsilon(epsilon)
        assert exact * (1 - 1e-9) <= ours <= looser.delta_for_epsilon(epsilon) + 1e-12
        assert ours <= exact + 0.02 * rate + 1e-9     # 1024 bins: close to exact


@pytest.mark.slow
def test_poisson_laplace_composition_is_tighter_than_the_pure_dp_pair():
    ours = poisson_subsampled_pld(Laplace(scale=1.0), 0.01).self_compose(1000).epsilon_for_delta(1e-6)
    pure = poisson_subsampled_pld(PureDP(1.0), 0.01).self_compose(1000).epsilon_for_delta(1e-6)
    assert ours < 0.95 * pure


@pytest.mark.parametrize("scale, sensitivity, rate", [(1.0, 1, 0.05), (2.0, 3, 0.3)])
def test_poisson_discrete_laplace_bounds_the_exact_mixture(scale, sensitivity, rate):
    from dpverify.mechanisms import DiscreteLaplace

    law = DiscreteLaplace(scale=scale)
    support = range(-60 * int(scale) - 60, 60 * int(scale) + 60 + sensitivity)
    with mpmath.workdps(50):
        q_pmf = [law.pmf(k) for k in support]
        p_pmf = [rate * law.pmf(k - sensitivity) + (1 - rate) * law.pmf(k) for k in support]
    pld = poisson_subsampled_pld(DiscreteLaplace(scale=scale), rate, sensitivity=sensitivity)
    for epsilon in (0.0, 0.05, 0.3):
        exact = _exact_delta(p_pmf, q_pmf, epsilon)
        shifted = _exact_delta(p_pmf, q_pmf, max(0.0, epsilon - 2 * pld.value_discretization_interval))
        assert exact * (1 - 1e-12) <= pld.delta_for_epsilon(epsilon) <= shifted * (1 + 1e-6) + 1e-9


def test_accountant_accounts_subsampled_discrete_laplace():
    from dpverify.mechanisms import DiscreteLaplace

    accountant = PrivacyAccountant("pld")
    accountant.compose(PoissonSampledEvent(DiscreteLaplace(scale=2.0), 0.1), 10)
    direct = poisson_subsampled_pld(DiscreteLaplace(scale=2.0), 0.1).self_compose(10)
    assert accountant.get_epsilon(1e-6) == pytest.approx(direct.epsilon_for_delta(1e-6), rel=1e-9)


@pytest.mark.parametrize("sigma, sensitivity, rate", [(1.0, 1, 0.05), (2.5, 2, 0.3), (0.6, 1, 1.0)])
def test_poisson_discrete_gaussian_bounds_the_exact_mixture(sigma, sensitivity, rate):
    from dpverify.mechanisms import DiscreteGaussian

    law = DiscreteGaussian(sigma=sigma)
    support = range(-int(40 * sigma) - 5, int(40 * sigma) + 5 + sensitivity)
    with mpmath.workdps(50):
        q_pmf = [law.pmf(k) for k in support]
        p_pmf = [rate * law.pmf(k - sensitivity) + (1 - rate) * law.pmf(k) for k in support]
    pld = poisson_subsampled_pld(law, rate, sensitivity=sensitivity)
    for epsilon in (0.0, 0.05, 0.3, 1.0):
        exact = _exact_delta(p_pmf, q_pmf, epsilon)
        shifted = _exact_delta(p_pmf, q_pmf, max(0.0, epsilon - 2 * pld.value_discretization_interval))
        assert exact * (1 - 1e-12) <= pld.delta_for_epsilon(epsilon) <= shifted * (1 + 1e-6) + 1e-9


def test_accountant_accounts_subsampled_discrete_gaussian_both_samplings():
    from dpverify.accountants.events import SampledWithoutReplacementEvent
    from dpverify.accountants.pld.subsampling_wor import without_replacement_pld
    from dpverify.mechanisms import DiscreteGaussian

    law = DiscreteGaussian(sigma=3.0)
    accountant = PrivacyAccountant("pld").compose(PoissonSampledEvent(law, 0.1), 50)
    direct = poisson_subsampled_pld(law, 0.1).self_compose(50)
    assert accountant.get_epsilon(1e-6) == pytest.approx(direct.epsilon_for_delta(1e-6), rel=1e-9)
    replace = PrivacyAccountant("pld", neighbouring="replace-one")
    replace.compose(SampledWithoutReplacementEvent(law, 10, 100), 50)
    direct = without_replacement_pld(law, 10, 100).self_compose(50)
    assert replace.get_epsilon(1e-6) == pytest.approx(direct.epsilon_for_delta(1e-6), rel=1e-9)
    with pytest.raises(UnsupportedError, match="outcomes"):
        dominating_pair(DiscreteGaussian(sigma=1e4))
