"""Subsampled RDP for any mechanism (Poisson: Zhu & Wang 2019; without replacement: WBK 2019).

Soundness references are brute force: the Rényi divergence of the subsampled
output laws of a concrete neighbouring instance, in *both* orders, computed by
exact finite sums (randomized response), truncated sums far past a negligible
tail (discrete Laplace and Gaussian) or mpmath quadrature split at the kinks
(Laplace, Gaussian). An instance's divergence is a lower bound on the
mechanism's RDP, so a sound bound must be at or above it at every order.

Instances. Poisson, add/remove: with ``(μ0, μ1)`` the base's laws on
neighbours, the subsampled laws are ``(1 − γ)μ0 + γμ1`` and ``μ0``. Without
replacement, replace-one: x = (a, 0, …, 0), x' = (b, 0, …, 0); the batch holds
record 1 w.p. γ = m/n, so the laws are ``(1 − γ)μ0 + γμa`` and ``(1 − γ)μ0 + γμb``
with ``|a − b|`` the base's replace-one sensitivity.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify._numeric import round_up
from dpverify.accountants.accountant import PrivacyAccountant
from dpverify.accountants.events import ComposedEvent, PoissonSampledEvent, SampledWithoutReplacementEvent
from dpverify.accountants.rdp import (
    DEFAULT_ORDERS,
    gaussian_rdp,
    laplace_rdp,
    pure_dp_rdp,
    randomized_response_rdp,
    rdp_to_dp,
    scale_rdp,
    subsampled_gaussian_rdp,
)
from dpverify.accountants.rdp.subsampling import (
    integer_orders_needed,
    poisson_subsampled_laplace_rdp,
    poisson_subsampled_rdp,
    without_replacement_gaussian_rdp,
    without_replacement_rdp,
)
from dpverify.accountants.rdp.subsampling_pairs import poisson_subsampled_pair_rdp
from dpverify.accountants.zcdp import zcdp_to_rdp
from dpverify.errors import UnsupportedError
from dpverify.guarantees import ZCDP, RDPCurve
from dpverify.mechanisms import DiscreteGaussian, DiscreteLaplace, Gaussian, Laplace, RandomizedResponse

ORDERS = (1.5, 2.0, 2.5, 3.0, 4.0, 6.0, 8.0)


@pytest.fixture(autouse=True)
def _restore_mpmath_precision():
    """The references set mpmath's precision; give the rest of the suite its own back."""
    dps = mpmath.mp.dps
    yield
    mpmath.mp.dps = dps


# --------------------------------------------------------------------------- references
def _renyi_sum(p, q, alpha):
    """``D_α(p ‖ q)`` of two pmfs (mpmath lists), by the exact sum."""
    total = mpmath.fsum(a ** alpha * b ** (1 - alpha) for a, b in zip(p, q) if a > 0)
    return mpmath.log(total) / (alpha - 1)


def _both_orders_sum(p, q, alpha):
    return max(_renyi_sum(p, q, alpha), _renyi_sum(q, p, alpha))


def _renyi_quad(p, q, alpha, points):
    """``D_α(p ‖ q)`` of two densities, integrated with mpmath between the kinks."""
    value = mpmath.quad(lambda x: p(x) ** alpha / q(x) ** (alpha - 1), points)
    return mpmath.log(value) / (alpha - 1)


def _laplace(mu, b):
    return lambda x: mpmath.exp(-abs(x - mu) / b) / (2 * b)


def _mix(gamma, first, second):
    return lambda x: (1 - gamma) * first(x) + gamma * second(x)


def _rr_laws(k, epsilon):
    """k-ary RR's laws on inputs 0, 1 and 2 (mpmath lists over the k outputs)."""
    e = mpmath.exp(mpmath.mpf(epsilon))
    laws = []
    for x in range(3):
        laws.append([(e if o == x else 1) / (e + k - 1) for o in range(k)])
    return laws


def _discrete_laws(logpmf, shifts, span):
    """Pmfs on ``[-span, span]`` of a discrete additive noise shifted by ``shifts``, each normalised.

    The callers' spans leave out tails below 1e-26, which moves the divergence by less than 1e-24.
    """
    support = range(-span, span + 1)
    laws = []
    for shift in shifts:
        law = [mpmath.exp(logpmf(z - shift)) for z in support]
        total = mpmath.fsum(law)
        laws.append([x / total for x in law])
    return laws


def _mixed(gamma, first, second):
    return [(1 - gamma) * a + gamma * b for a, b in zip(first, second)]


# --------------------------------------------------------------------------- Poisson, general
@settings(max_examples=12, deadline=None)
@given(st.integers(2, 5), st.floats(0.05, 4.0), st.floats(0.001, 1.0))
def test_poisson_bounds_k_ary_rr_exactly_summed(k, epsilon, gamma):
    mpmath.mp.dps = 40
    mu0, mu1, _ = _rr_laws(k, epsilon)
    mixture = _mixed(mpmath.mpf(gamma), mu0, mu1)
    base = randomized_response_rdp(epsilon, orders=integer_orders_needed(ORDERS), categories=k)
    ours = poisson_subsampled_rdp(base, gamma, orders=ORDERS, pure_epsilon=epsilon)
    for alpha, bound in zip(ORDERS, ours.epsilons):
        exact = _both_orders_sum(mixture, mu0, mpmath.mpf(alpha))
        assert bound >= exact, (alpha, bound, exact)


@pytest.mark.slow
@settings(max_examples=5, deadline=None)
@given(st.floats(0.2, 3.0), st.floats(0.01, 0.9))
def test_poisson_bounds_laplace_by_quadrature_in_both_orders(scale, gamma):
    mpmath.mp.dps = 30
    mu0, mu1 = _laplace(0, scale), _laplace(1, scale)
    mixture = _mix(mpmath.mpf(gamma), mu0, mu1)
    points = [-mpmath.inf, 0, 1, mpmath.inf]
    general = poisson_subsampled_rdp(laplace_rdp(scale, orders=integer_orders_needed(ORDERS)),
                                     gamma, orders=ORDERS)
    tight = poisson_subsampled_laplace_rdp(scale, gamma, orders=ORDERS)
    for alpha, bound, exactish in zip(ORDERS, general.epsilons, tight.epsilons):
        a = mpmath.mpf(alpha)
        exact = max(_renyi_quad(mixture, mu0, a, points), _renyi_quad(mu0, mixture, a, points))
        # quadrature error is far below 1e-20 here; the tight bound is exact at integer orders
        assert exactish >= exact - 1e-20 and bound >= exactish
        if float(alpha).is_integer():
            assert exactish <= exact * (1 + 1e-12) + 1e-300


@pytest.mark.slow
@settings(max_examples=5, deadline=None)
@given(st.floats(0.5, 3.0), st.floats(0.01, 0.9), st.integers(1, 2))
def test_poisson_bounds_discrete_laplace_and_gaussian(scale, gamma, sensitivity):
    mpmath.mp.dps = 30
    gamma_mp = mpmath.mpf(gamma)
    orders = integer_orders_needed(ORDERS)
    pure = round_up(Fraction(sensitivity) / Fraction(scale))
    a = 1 / mpmath.mpf(scale)     # discrete Laplace pmf ∝ e^{−|z|/scale}
    dl = _discrete_laws(lambda z: -abs(z) * a, (0, sensitivity), math.ceil(62 * scale))
    s2 = mpmath.mpf(scale) ** 2   # discrete Gaussian pmf ∝ e^{−z²/(2σ²)}: ρ = Δ²/(2σ²)
    dg = _discrete_laws(lambda z: -mpmath.mpf(z) ** 2 / (2 * s2), (0, sensitivity),
                        math.ceil(12 * scale) + 2)
    rho = round_up(Fraction(sensitivity) ** 2 / (2 * Fraction(scale) ** 2))
    cases = [(dl, pure_dp_rdp(pure, orders=orders), pure),
             (dg, zcdp_to_rdp(ZCDP(rho), orders=orders), None)]
    for (mu0, mu1), base, pure_epsilon in cases:
        mixture = _mixed(gamma_mp, mu0, mu1)
        ours = poisson_subsampled_rdp(base, gamma, orders=ORDERS, pure_epsilon=pure_epsilon)
        for alpha, bound in zip(ORDERS, ours.epsilons):
            assert bound >= _both_orders_sum(mixture, mu0, mpmath.mpf(alpha)) - 1e-24


@pytest.mark.slow
@settings(max_examples=6, deadline=None)
@given(st.integers(2, 5), st.floats(0.2, 4.0), st.floats(1e-4, 1.0), st.integers(1, 3))
def test_pair_curve_is_exact_for_rr_and_discrete_laplace_at_every_order(k, epsilon, gamma, shift):
    """The pair's curve equals the brute-force divergence (fractional orders too), ≤ the general bound."""
    mpmath.mp.dps = 40
    g = mpmath.mpf(gamma)
    orders = (1.25, 1.5, 2.0, 3.5, 6.0, 9.75)
    mu0, mu1, _ = _rr_laws(k, epsilon)
    a = 1 / mpmath.mpf(1 / epsilon)   # discrete Laplace of the float scale 1/ε: pmf ∝ e^{−|z|/scale}
    dl = _discrete_laws(lambda z: -abs(z) * a, (0, shift), math.ceil(62 / epsilon) + shift)
    cases = [(RandomizedResponse(k, epsilon), 1, (mu0, mu1)),
             (DiscreteLaplace(scale=1 / epsilon), shift, dl)]
    for mechanism, sensitivity, (low, high) in cases:
        mixture = _mixed(g, low, high)
        curve = poisson_subsampled_pair_rdp(mechanism, gamma, sensitivity=sensitivity, orders=orders)
        for alpha, bound in zip(orders, curve.epsilons):
            exact = _both_orders_sum(mixture, low, mpmath.mpf(alpha))
            assert exact - 1e-24 <= bound <= exact * (1 + 1e-9) + 1e-24, (mechanism, alpha)
    general = poisson_subsampled_rdp(randomized_response_rdp(epsilon, orders=(2.0, 3.0, 4.0), categories=k),
                                     gamma, pure_epsilon=epsilon)
    exact = poisson_subsampled_pair_rdp(RandomizedResponse(k, epsilon), gamma, orders=(2.0, 3.0, 4.0))
    assert all(e <= b for e, b in zip(exact.epsilons, general.epsilons))


def test_pair_curve_refusals():
    with pytest.raises(UnsupportedError, match="dominating pair"):
        poisson_subsampled_pair_rdp(Gaussian(sigma=1.0), 0.1)
    with pytest.raises(ValueError, match="orders"):
        poisson_subsampled_pair_rdp(Laplace(scale=1.0), 0.1, orders=range(2, 1000))
    assert poisson_subsampled_pair_rdp(DiscreteGaussian(sigma=2.0), 0.1,
                                       orders=[2.0]).epsilons == (math.inf,)


def test_poisson_tight_form_is_the_exact_subsampled_gaussian_and_general_is_above():
    orders = tuple(float(a) for a in range(2, 33))
    for sigma, gamma in [(0.8, 0.01), (1.1, 0.004), (3.0, 0.3)]:
        exact = subsampled_gaussian_rdp(sigma, gamma, orders=orders)
        from dpverify.accountants.rdp.subsampling import _poisson
        base = [0.0, 0.0, *gaussian_rdp(sigma, orders=orders).epsilons]
        tight = _poisson(orders, base, gamma, math.inf, general=False)
        general = poisson_subsampled_rdp(gaussian_rdp(sigma, orders=orders), gamma)
        for e, t, g in zip(exact.epsilons, tight.epsilons, general.epsilons):
            assert t == pytest.approx(e, rel=1e-12) and g >= t


# Poisson-subsampled Gaussian RDP at integer orders from tensorflow-privacy, as asserted in
# yuxiangw/autodp:test/unit_test_dp_sgd_poisson_sampling_add_remove.py (values exact to ~1e-14).
_TFP_POISSON_GAUSSIAN = [(2.0, 0.01, 0.25, 6.790784234628705), (4.0, 0.01, 0.25, 25.859773085349214),
                         (10.0, 0.01, 0.25, 74.883144237791), (25.0, 0.01, 0.25, 195.20294772292905),
                         (64.0, 0.01, 0.1, 3195.321731874551), (10.0, 0.01, 0.1, 494.8831442377909)]


@pytest.mark.parametrize("order, q, sigma, expected", _TFP_POISSON_GAUSSIAN)
def test_poisson_general_bound_against_tensorflow_privacy_values(order, q, sigma, expected):
    base = gaussian_rdp(sigma, orders=integer_orders_needed([order]))
    general = poisson_subsampled_rdp(base, q, orders=[order]).epsilons[0]
    # the general bound pays at most log(3)/(α − 1) over the exact value (Zhu & Wang 2019)
    assert expected * (1 - 1e-12) <= general <= expected + math.log(3) / (order - 1) + 1e-9


def test_poisson_laplace_matches_autodp():
    """autodp's ``AmplificationBySampling(PoissonSampling=True)`` with ``improved_bound_flag=True``.

    yuxiangw/autodp:autodp/rdp_acct.py (``compose_poisson_subsampled_mechanisms``) evaluates the
    same tight Zhu–Wang bound in floats; ours is rounded up, so it must agree within 1e-9 and
    never be more than 0.5% above it. (autodp's "general" flag evaluates a different
    expression, with ``jε(j+1)`` in place of Thm 6's ``3(j−1)ε(j)``, so it is not compared.)
    """
    mechanism_zoo = pytest.importorskip("autodp.mechanism_zoo")
    transformer_zoo = pytest.importorskip("autodp.transformer_zoo")
    orders = [2.0, 3.0, 5.0, 8.0, 16.0, 32.0]
    for scale, rate in [(1.0, 0.01), (0.5, 0.1), (2.0, 0.3)]:
        theirs = transformer_zoo.AmplificationBySampling(PoissonSampling=True)(
            mechanism_zoo.LaplaceMechanism(b=scale), rate, improved_bound_flag=True)
        ours = poisson_subsampled_laplace_rdp(scale, rate, orders=orders)
        for order, value in zip(orders, ours.epsilons):
            peer = theirs.RenyiDP(order)
            assert peer * (1 - 1e-9) <= value <= peer * 1.005


# --------------------------------------------------------------------------- without replacement
@settings(max_examples=12, deadline=None)
@given(st.integers(3, 5), st.floats(0.05, 4.0), st.integers(1, 20), st.integers(0, 40))
def test_without_replacement_bounds_k_ary_rr_exactly_summed(k, epsilon, m, extra):
    mpmath.mp.dps = 40
    n = m + extra
    gamma = mpmath.mpf(m) / n
    mu0, mu_a, mu_b = _rr_laws(k, epsilon)
    first, second = _mixed(gamma, mu0, mu_a), _mixed(gamma, mu0, mu_b)
    base = randomized_response_rdp(epsilon, orders=integer_orders_needed(ORDERS), categories=k)
    ours = without_replacement_rdp(base, m, n, orders=ORDERS, pure_epsilon=epsilon)
    for alpha, bound in zip(ORDERS, ours.epsilons):
        assert bound >= _both_orders_sum(first, second, mpmath.mpf(alpha))


@pytest.mark.slow
@settings(max_examples=3, deadline=None)
@given(st.floats(0.3, 3.0), st.integers(1, 10), st.integers(1, 30))
def test_without_replacement_bounds_laplace_and_gaussian_by_quadrature(noise, m, extra):
    """Few examples: each quadrature costs ~0.3 s; the RR test sweeps the same bound widely."""
    mpmath.mp.dps = 25
    n = m + extra
    gamma = mpmath.mpf(m) / n
    reach = 70 * noise + 2        # the tails beyond it hold < e^{-70} of the integrals (Laplace)
    points = [-reach, -1, 0, 1, reach]
    laplace = [_laplace(mu, noise) for mu in (0, 1, -1)]
    gauss = [lambda x, mu=mu: mpmath.npdf(x, mu, noise) for mu in (0, 1, -1)]
    orders = integer_orders_needed(ORDERS)
    curves = [without_replacement_rdp(laplace_rdp(noise, sensitivity=2, orders=orders), m, n,
                                      orders=ORDERS, pure_epsilon=2 / noise),
              without_replacement_gaussian_rdp(noise, m, n, sensitivity=2, orders=ORDERS)]
    for (mu0, mu_a, mu_b), curve in zip((laplace, gauss), curves):
        first, second = _mix(gamma, mu0, mu_a), _mix(gamma, mu0, mu_b)
        for alpha, bound in list(zip(ORDERS, curve.epsilons))[::2]:
            a = mpmath.mpf(alpha)
            assert bound >= max(_renyi_quad(first, second, a, points),
                                _renyi_quad(second, first, a, points)) - 1e-20


def test_without_replacement_gaussian_is_at_most_the_general_bound():
    orders = tuple(float(a) for a in range(2, 40))
    for sigma, m, n in [(0.7, 3, 10), (2.0, 10, 1000), (20.0, 1, 100)]:
        strong = without_replacement_gaussian_rdp(sigma, m, n, orders=orders)
        general = without_replacement_rdp(gaussian_rdp(sigma, orders=orders), m, n)
        assert all(s <= g for s, g in zip(strong.epsilons, general.epsilons))


@pytest.mark.slow
def test_without_replacement_gaussian_matches_dp_accounting():
    """dp_accounting's ``_compute_rdp_sample_wor_gaussian`` (WBK 2019, Thm 27) when installed.

    Its float evaluation is not rigorous; ours is the same bound rounded up,
    so it must agree within 1e-9 and never be more than 0.5% above it.
    """
    rdp_module = pytest.importorskip("dp_accounting.rdp.rdp_privacy_accountant")
    for sigma, m, n in [(0.7, 3, 10), (1.1, 256, 60000), (5.0, 1, 100)]:
        ours = without_replacement_gaussian_rdp(sigma, m, n, orders=DEFAULT_ORDERS[:150])
        theirs = rdp_module._compute_rdp_sample_wor_gaussian(m / n, sigma, DEFAULT_ORDERS[:150])
        for value, peer in zip(ours.epsilons, theirs):
            assert value <= peer * 1.005 and value >= peer * (1 - 1e-9)


# --------------------------------------------------------------------------- structure
@settings(max_examples=15, deadline=None)
@given(st.floats(0.05, 3.0), st.floats(0.0, 1.0), st.floats(0.0, 1.0))
def test_poisson_is_monotone_in_the_rate_and_below_the_base(epsilon, low, high):
    low, high = sorted((low, high))
    orders = integer_orders_needed(ORDERS)
    base = randomized_response_rdp(epsilon, orders=orders)
    small = poisson_subsampled_rdp(base, low, orders=ORDERS)
    large = poisson_subsampled_rdp(base, high, orders=ORDERS)
    direct = dict(zip(base.orders, base.epsilons))
    for alpha, s, b in zip(ORDERS, small.epsilons, large.epsilons):
        assert s <= b
        if alpha in direct:
            assert b <= direct[alpha]


def test_rate_zero_and_one():
    base = laplace_rdp(1.0, orders=[2.0, 3.0])
    assert poisson_subsampled_rdp(base, 0.0).epsilons == (0.0, 0.0)
    assert poisson_subsampled_rdp(base, 1.0).epsilons == base.epsilons
    assert without_replacement_rdp(base, 5, 5).epsilons == base.epsilons


def test_fractional_orders_interpolate_the_cumulant():
    base = laplace_rdp(0.5, orders=[2.0, 3.0])
    curve = poisson_subsampled_rdp(base, 0.1, orders=[2.0, 2.5, 3.0])
    k2, k3 = curve.epsilons[0], 2 * curve.epsilons[2]
    assert curve.epsilons[1] == pytest.approx((0.5 * k2 + 0.5 * k3) / 1.5, rel=1e-12)
    assert poisson_subsampled_rdp(base, 0.1, orders=[1.5]).epsilons[0] == curve.epsilons[0]


def test_refusals_name_the_parameter():
    base = laplace_rdp(1.0, orders=[2.0, 4.0])
    with pytest.raises(ValueError, match="base"):
        poisson_subsampled_rdp(base, 0.1, orders=[4.0])
    with pytest.raises(TypeError, match="base"):
        poisson_subsampled_rdp("curve", 0.1)
    with pytest.raises(ValueError, match="sampling_probability"):
        poisson_subsampled_rdp(base, 1.5)
    with pytest.raises(ValueError, match="orders"):
        poisson_subsampled_laplace_rdp(1.0, 0.1, orders=[2.0, 1e6])
    with pytest.raises(ValueError, match="orders.*terms"):      # refused before any work
        poisson_subsampled_laplace_rdp(1.0, 0.1, orders=range(2, 4000))
    with pytest.raises(ValueError, match="sample_size"):
        without_replacement_rdp(base, 11, 10)
    with pytest.raises(ValueError, match="pure_epsilon"):
        without_replacement_rdp(base, 1, 10, pure_epsilon=-1.0)
    with pytest.raises(ValueError, match="sigma"):
        without_replacement_gaussian_rdp(float("nan"), 1, 10)


# --------------------------------------------------------------------------- accountant
@pytest.mark.parametrize("mechanism", [Laplace(scale=1.0), RandomizedResponse(3, 1.0),
                                       DiscreteGaussian(sigma=2.0), DiscreteLaplace(scale=2.0)])
@pytest.mark.slow
def test_accountant_supports_sampled_mechanisms_with_rdp_curves(mechanism):
    orders = tuple(float(a) for a in range(2, 33))
    poisson = PoissonSampledEvent(mechanism, 0.01)
    wor = SampledWithoutReplacementEvent(mechanism, 10, 1000)
    add_remove = PrivacyAccountant("rdp", orders=orders)
    replace = PrivacyAccountant("rdp", neighbouring="replace-one", orders=orders)
    assert add_remove.supports(poisson) and not add_remove.supports(wor)
    assert replace.supports(wor) and not replace.supports(poisson)
    add_remove.compose(poisson, 100)
    replace.compose(wor, 100)
    for accountant in (add_remove, replace):
        epsilon = accountant.get_epsilon(1e-5)
        assert 0 < epsilon < math.inf
        again = PrivacyAccountant.from_state_dict(accountant.state_dict())
        assert again.get_epsilon(1e-5) == epsilon


def test_accountant_gives_the_functions_numbers():
    orders = tuple(float(a) for a in range(2, 17))
    event = PoissonSampledEvent(RandomizedResponse(2, 1.0), 0.02)
    accountant = PrivacyAccountant("rdp", orders=orders).compose(event, 50)
    base = randomized_response_rdp(1.0, orders=orders)
    general = poisson_subsampled_rdp(base, 0.02, pure_epsilon=1.0)
    exact = poisson_subsampled_pair_rdp(RandomizedResponse(2, 1.0), 0.02, orders=orders)
    smaller = RDPCurve(orders, tuple(map(min, general.epsilons, exact.epsilons)))
    assert accountant.get_epsilon(1e-6) == rdp_to_dp(scale_rdp(smaller, 50), delta=1e-6).epsilon
    laplace = PrivacyAccountant("rdp", orders=orders).compose(PoissonSampledEvent(Laplace(scale=2.0), 0.1))
    assert laplace._total() == poisson_subsampled_laplace_rdp(2.0, 0.1, orders=orders)
    gauss = PrivacyAccountant("rdp", neighbouring="replace-one", orders=orders).compose(
        SampledWithoutReplacementEvent(Gaussian(sigma=2.0), 10, 100))
    assert gauss._total() == without_replacement_gaussian_rdp(2.0, 10, 100, orders=orders)


def test_accountant_accounts_a_sampled_composition():
    orders = tuple(float(a) for a in range(2, 17))
    inner = ComposedEvent((Laplace(scale=1.0), RandomizedResponse(2, 0.5)))
    accountant = PrivacyAccountant("rdp", orders=orders).compose(PoissonSampledEvent(inner, 0.05), 10)
    assert 0 < accountant.get_epsilon(1e-5) < math.inf


def test_accountant_refuses_a_relation_the_theorems_do_not_cover():
    accountant = PrivacyAccountant("rdp", neighbouring="replace-one")
    assert not accountant.supports(PoissonSampledEvent(Laplace(scale=1.0), 0.1))
    with pytest.raises(UnsupportedError, match="cannot account"):
        accountant.compose(PoissonSampledEvent(Laplace(scale=1.0), 0.1))
    with pytest.raises(UnsupportedError, match="cannot account"):
        PrivacyAccountant("rdp").compose(SampledWithoutReplacementEvent(Laplace(scale=1.0), 1, 10))


@pytest.mark.slow
@settings(max_examples=6, deadline=None)
@given(st.floats(0.3, 2.0), st.floats(0.01, 0.5), st.integers(1, 30), st.floats(0.1, 2.0))
def test_rdp_epsilon_is_never_below_the_exact_composed_rr_epsilon(epsilon_0, gamma, count, epsilon):
    """δ from RDP ≥ the exact δ(ε) of ``count`` Poisson-subsampled binary RR runs (binomial sums)."""
    mpmath.mp.dps = 40
    e = mpmath.exp(mpmath.mpf(epsilon_0))
    keep = e / (1 + e)
    one_x = gamma * keep + (1 - gamma) * (1 - keep)
    one_y = 1 - keep
    p = [mpmath.binomial(count, j) * one_x ** j * (1 - one_x) ** (count - j) for j in range(count + 1)]
    q = [mpmath.binomial(count, j) * one_y ** j * (1 - one_y) ** (count - j) for j in range(count + 1)]
    factor = mpmath.exp(epsilon)
    exact = max(mpmath.fsum(max(0, a - factor * b) for a, b in zip(p, q)),
                mpmath.fsum(max(0, b - factor * a) for a, b in zip(p, q)))
    accountant = PrivacyAccountant("rdp", orders=tuple(float(a) for a in range(2, 65)))
    accountant.compose(PoissonSampledEvent(RandomizedResponse(2, epsilon_0), gamma), count)
    assert accountant.get_delta(epsilon) >= exact


@settings(max_examples=6, deadline=None)
@given(st.floats(0.3, 2.0), st.integers(1, 20), st.integers(1, 60), st.integers(1, 30),
       st.floats(0.1, 2.0))
@pytest.mark.slow
def test_rdp_epsilon_is_never_below_the_exact_composed_rr_epsilon_without_replacement(
        epsilon_0, m, extra, count, epsilon):
    """δ from RDP ≥ the exact δ(ε) of ``count`` runs of binary RR of [the batch holds record 1].

    Replace-one neighbours x = (1, 0, …, 0), x' = (0, …, 0): the batch holds record 1
    w.p. m/n, so one run reports 1 w.p. ``(m/n)·p + (1 − m/n)(1 − p)`` on x and ``1 − p`` on x'.
    """
    mpmath.mp.dps = 40
    n = m + extra
    gamma = mpmath.mpf(m) / n
    e = mpmath.exp(mpmath.mpf(epsilon_0))
    keep = e / (1 + e)
    one_x = gamma * keep + (1 - gamma) * (1 - keep)
    one_y = 1 - keep
    p = [mpmath.binomial(count, j) * one_x ** j * (1 - one_x) ** (count - j) for j in range(count + 1)]
    q = [mpmath.binomial(count, j) * one_y ** j * (1 - one_y) ** (count - j) for j in range(count + 1)]
    factor = mpmath.exp(epsilon)
    exact = max(mpmath.fsum(max(0, a - factor * b) for a, b in zip(p, q)),
                mpmath.fsum(max(0, b - factor * a) for a, b in zip(p, q)))
    accountant = PrivacyAccountant("rdp", neighbouring="replace-one",
                                   orders=tuple(float(a) for a in range(2, 65)))
    accountant.compose(SampledWithoutReplacementEvent(RandomizedResponse(2, epsilon_0), m, n), count)
    assert accountant.get_delta(epsilon) >= exact


def test_discrete_gaussian_is_an_rdp_and_zcdp_event():
    """Its zCDP map ρ = Δ²/(2σ²) (Canonne, Kamath, Steinke 2020, Prop. 5) feeds RDP and zCDP."""
    rdp = PrivacyAccountant("rdp", orders=(2.0, 3.0)).compose(DiscreteGaussian(sigma=2.0))
    assert rdp._total() == zcdp_to_rdp(ZCDP(0.125), orders=(2.0, 3.0))
    assert PrivacyAccountant("zcdp").compose(DiscreteGaussian(sigma=2.0))._total() == ZCDP(0.125)
