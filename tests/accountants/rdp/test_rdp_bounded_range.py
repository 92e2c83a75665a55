"""Tests of :mod:`dpverify.accountants.rdp.bounded_range` (RDP of ε-bounded-range mechanisms)."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.accountants.accountant import PrivacyAccountant
from dpverify.accountants.events import ExponentialMechanismEvent, RepeatAndSelectEvent
from dpverify.accountants.rdp import bounded_range_kl, bounded_range_rdp, pure_dp_rdp
from dpverify.accountants.zcdp import zcdp_to_rdp
from dpverify.guarantees import ZCDP


def _two_point_divergence(epsilon: float, alpha: float, t: mpmath.mpf) -> mpmath.mpf:
    """D_α(RR_t): loss (1 − t)ε w.p. p_t under P, −tε otherwise (Cesar & Rogers 2021, §3)."""
    e = mpmath.mpf(epsilon)
    q = mpmath.expm1(t * e) / mpmath.expm1(e)  # Q's mass on the high-loss outcome
    moment = q * mpmath.exp(alpha * (1 - t) * e) + (1 - q) * mpmath.exp(-alpha * t * e)
    return mpmath.log(moment) / (alpha - 1)


def _exponential_mechanism_divergence(utility, neighbour, eta, alpha) -> mpmath.mpf:
    """Exact D_α(P‖Q) of the softmaxes ``P ∝ e^{η u}``, ``Q ∝ e^{η u'}`` (mpmath, 40 digits)."""
    with mpmath.workdps(40):
        p = [mpmath.exp(eta * mpmath.mpf(x)) for x in utility]
        q = [mpmath.exp(eta * mpmath.mpf(x)) for x in neighbour]
        total_p, total_q = mpmath.fsum(p), mpmath.fsum(q)
        a = mpmath.mpf(alpha)
        moment = mpmath.fsum((pi / total_p) ** a * (qi / total_q) ** (1 - a) for pi, qi in zip(p, q))
        return mpmath.log(moment) / (a - 1)


def _golden_section_max(function, low, high, steps: int = 150) -> mpmath.mpf:
    """max of a unimodal ``function`` on [low, high] by golden-section search (mpmath)."""
    low, high = mpmath.mpf(low), mpmath.mpf(high)
    ratio = (mpmath.sqrt(5) - 1) / 2
    for _ in range(steps):
        left, right = high - ratio * (high - low), low + ratio * (high - low)
        low, high = (left, high) if function(left) < function(right) else (low, right)
    return function((low + high) / 2)


def test_order_one_is_cesar_rogers_optimal_kl():
    # Cesar & Rogers (ALT 2021, arXiv:2004.07223, §3): the optimal KL bound of ε-BR mechanisms,
    # ε/(e^ε − 1) − 1 + ln((e^ε − 1)/ε) = 0.12330156... at ε = 1 (mpmath, 40 digits), against ε²/8 = 0.125.
    assert bounded_range_kl(1.0) == pytest.approx(0.1233015614822445, rel=1e-14)
    assert bounded_range_kl(1.0) >= 0.12330156148224453  # rounded up
    near_one = bounded_range_rdp(1.0, orders=[1 + 1e-7]).epsilons[0]
    assert bounded_range_kl(1.0) <= near_one <= bounded_range_kl(1.0) + 1e-7


@pytest.mark.parametrize("epsilon", [0.01, 0.3, 1.0, 4.0])
@pytest.mark.parametrize("alpha", [1.5, 2.0, 8.0, 64.0])
def test_closed_form_is_the_supremum_over_t(epsilon, alpha):
    """Second method: a 401-point grid in t (each point a lower bound on the sup) and a golden-section
    refinement around the grid's best t stay below the closed form, the refinement within 1e-12."""
    value = bounded_range_rdp(epsilon, orders=[alpha]).epsilons[0]
    with mpmath.workdps(40):
        grid = [_two_point_divergence(epsilon, alpha, mpmath.mpf(t)) for t in np.linspace(0, 1, 401)[1:-1]]
        best = int(np.argmax([float(g) for g in grid]))
        t_best = (best + 1) / 400
        fine = _golden_section_max(
            lambda t: _two_point_divergence(epsilon, alpha, t), max(t_best - 1 / 400, 1e-12), min(t_best + 1 / 400, 1)
        )
    assert max(grid) <= value and fine <= value
    assert value - fine <= 1e-12 * value


@pytest.mark.parametrize("epsilon", [0.1, 1.0, 3.0])
def test_below_zcdp_and_pure_dp_curves(epsilon):
    curve = bounded_range_rdp(epsilon)
    zcdp = zcdp_to_rdp(ZCDP(epsilon**2 / 8), orders=curve.orders)
    pure = pure_dp_rdp(epsilon, orders=curve.orders)
    for mine, via_zcdp, via_pure in zip(curve.epsilons, zcdp.epsilons, pure.epsilons):
        assert mine <= via_zcdp and mine <= via_pure and mine <= epsilon
    # strictly better somewhere than ε²α/8 (the former curve): at order 2, ε = 1: 0.2402 < 0.25
    assert bounded_range_rdp(1.0, orders=[2.0]).epsilons[0] < 0.2403 < 0.25


@settings(max_examples=40, deadline=None)
@given(
    epsilon=st.floats(0.01, 6.0),
    seed=st.integers(0, 2**32 - 1),
    size=st.integers(2, 6),
    orders=st.lists(st.floats(1.01, 200.0), min_size=1, max_size=4, unique=True).map(sorted),
)
def test_bounds_concrete_exponential_mechanisms(epsilon, seed, size, orders):
    """Random utilities u ∈ [0, 5]^k and neighbours u' = u + d, |d_i| <= 1 (sensitivity 1), η = ε/2:
    the exact Rényi divergence of the two softmaxes, both ways, is at most the curve, itself <= ε²α/8."""
    rng = np.random.default_rng(seed)
    utility = [float(x) for x in rng.uniform(0, 5, size)]
    shifts = rng.choice([-1.0, 1.0], size) * rng.uniform(0, 1, size) ** 0.2
    neighbour = [x + float(d) for x, d in zip(utility, shifts)]
    curve = bounded_range_rdp(epsilon, orders=orders)
    for alpha, bound in zip(curve.orders, curve.epsilons):
        assert bound <= epsilon**2 * alpha / 8 * (1 + 1e-15)
        for first, second in ((utility, neighbour), (neighbour, utility)):
            assert _exponential_mechanism_divergence(first, second, epsilon / 2, alpha) <= bound


def test_a_two_output_exponential_mechanism_attains_the_curve():
    """Tightness: utilities u = (0, s) and u' = u + (−1, 1) (sensitivity 1, η = ε/2) give a two-point
    loss of width ε, i.e. some RR_t; maximising the exact divergence over s reaches the curve."""
    epsilon, alpha = 1.0, 3.0
    value = bounded_range_rdp(epsilon, orders=[alpha]).epsilons[0]

    def divergence(s):
        return _exponential_mechanism_divergence([0, s], [-1, s + 1], epsilon / 2, alpha)

    with mpmath.workdps(40):
        attained = _golden_section_max(divergence, -3, 4)  # D is unimodal in s
    assert attained <= value
    assert float(attained) == pytest.approx(value, rel=1e-12)


@settings(max_examples=30, deadline=None)
@given(epsilon=st.floats(1e-6, 30.0), orders=st.lists(st.floats(1.0001, 1e5), min_size=2, max_size=8, unique=True))
def test_monotone_in_the_order(epsilon, orders):
    curve = bounded_range_rdp(epsilon, orders=sorted(orders))
    assert all(a <= b for a, b in zip(curve.epsilons, curve.epsilons[1:]))


def test_tiny_and_large_epsilon():
    # ε → 0: D_α ~ αε²/8 (the zCDP bound is tight to first order); ε large: D_α -> ε as α grows
    assert bounded_range_rdp(1e-6, orders=[2.0]).epsilons[0] == pytest.approx(2 * 1e-12 / 8, rel=1e-5)
    assert bounded_range_rdp(40.0, orders=[1e6]).epsilons[0] == pytest.approx(40.0, rel=1e-5)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"epsilon": -1.0}, "epsilon"),
        ({"epsilon": math.nan}, "epsilon"),
        ({"epsilon": 0.0}, "epsilon"),
        ({"epsilon": math.inf}, "epsilon"),
        ({"epsilon": 1.0, "orders": [0.5]}, "orders"),
        ({"epsilon": 1.0, "orders": [3.0, 2.0]}, "orders"),
    ],
)
def test_invalid_arguments(kwargs, name):
    with pytest.raises(ValueError, match=name):
        bounded_range_rdp(**kwargs)


def test_accountant_uses_the_bounded_range_curve():
    orders = (1.5, 2.0, 8.0, 32.0)
    event = ExponentialMechanismEvent(1.0)
    accountant = PrivacyAccountant("rdp", orders=orders).compose(event, 10)
    expected = bounded_range_rdp(1.0, orders=orders)
    total = accountant._total()
    for got, one in zip(total.epsilons, expected.epsilons):
        assert got == pytest.approx(10 * one, rel=1e-12)
    former = PrivacyAccountant("zcdp").compose(event, 10).get_epsilon(1e-6)
    assert PrivacyAccountant("rdp").compose(event, 10).get_epsilon(1e-6) < former * 1.05
    # repeat-and-select reads the inner event's curve: the new curve flows through
    selected = PrivacyAccountant("rdp").compose(RepeatAndSelectEvent(event, mean=5.0, shape=1.0))
    assert math.isfinite(selected.get_epsilon(1e-6))
