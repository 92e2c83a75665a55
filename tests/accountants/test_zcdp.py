"""Tests of dpverify.accountants.zcdp: composition, pure DP → zCDP, zCDP → RDP and → (ε, δ).

The Gaussian mechanism with σ is exactly (1/(2σ²))-zCDP and attains the
curve ``D_α = α/(2σ²)``, so every sound zCDP → (ε, δ) conversion must be at
least the exact Gaussian ε (analytic Gaussian profile, Balle & Wang 2018).
"""

from __future__ import annotations

import math
import re

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize_scalar

from dpverify.accountants.rdp import gaussian_rdp, rdp_to_dp
from dpverify.accountants.zcdp import (
    compose_zcdp,
    pure_to_zcdp,
    zcdp_to_dp,
    zcdp_to_dp_delta,
    zcdp_to_rdp,
)
from dpverify.errors import UnsupportedError
from dpverify.guarantees import ZCDP, ApproxDP, PureDP
from dpverify.mechanisms.continuous import gaussian_privacy_profile
from dpverify.testing import assert_conservative
from dpverify.testing import strategies as dst


def exact_gaussian_epsilon(sigma, delta):
    return gaussian_privacy_profile(sigma).epsilon_for_delta(delta)


def scipy_tight_epsilon(rho, delta, xi=0.0):
    """Independent float reference: minimise the CKS ε(α) with scipy over log(α - 1)."""
    def objective(t):
        alpha = 1 + math.exp(t)
        return (xi + rho * alpha + math.log1p(-1 / alpha)
                - (math.log(delta) + math.log(alpha)) / (alpha - 1))
    centre = 0.5 * math.log(-math.log(delta) / rho)
    return minimize_scalar(objective, bounds=(centre - 8, centre + 8), method="bounded",
                           options={"xatol": 1e-12}).fun


# --------------------------------------------------------------------------- basics


def test_compose_zcdp_sums_rho_and_xi_rounding_up():
    total = compose_zcdp([ZCDP(0.1), ZCDP(0.2, xi=0.05), ZCDP(0.3)])
    assert total.rho >= mpmath.mpf(0.1) + mpmath.mpf(0.2) + mpmath.mpf(0.3)
    assert total.rho == pytest.approx(0.6) and total.xi == 0.05


def test_pure_to_zcdp_is_half_epsilon_squared():
    assert pure_to_zcdp(PureDP(2.0)) == ZCDP(2.0)
    assert pure_to_zcdp(0.1).rho >= mpmath.mpf(0.1) ** 2 / 2
    assert pure_to_zcdp(0.1).rho == pytest.approx(0.005)


def test_zcdp_to_rdp_is_linear_in_the_order():
    curve = zcdp_to_rdp(ZCDP(0.5, xi=0.1), orders=(1.5, 2.0, 10.0))
    assert curve.epsilons == pytest.approx((0.85, 1.1, 5.1))
    assert all(e >= 0.1 + 0.5 * a for a, e in zip(curve.orders, curve.epsilons))
    assert zcdp_to_rdp(ZCDP(0.5)) == gaussian_rdp(1.0)


# --------------------------------------------------------------------------- conversions


@pytest.mark.parametrize("k", [1, 10, 100, 1000, 10_000])
def test_zcdp_conversion_of_k_gaussians_is_conservative_and_tighter_than_bun_steinke(k):
    delta = 1e-5
    exact = exact_gaussian_epsilon(1 / math.sqrt(k), delta)
    tight = zcdp_to_dp(ZCDP(k / 2), delta=delta).epsilon
    bun_steinke = zcdp_to_dp(ZCDP(k / 2), delta=delta, method="bun-steinke").epsilon
    assert exact <= tight <= bun_steinke
    # continuous α beats (or ties) the finite RDP grid
    assert tight <= rdp_to_dp(gaussian_rdp(1 / math.sqrt(k)), delta=delta).epsilon * (1 + 1e-12)


@pytest.mark.parametrize("rho, delta", [(0.5, 1e-5), (1e-4, 1e-8), (30.0, 1e-3), (1e4, 1e-10)])
def test_tight_conversion_matches_an_independent_optimiser(rho, delta):
    ours = zcdp_to_dp(ZCDP(rho), delta=delta).epsilon
    reference = scipy_tight_epsilon(rho, delta)
    assert ours == pytest.approx(reference, rel=1e-9)


def test_bun_steinke_closed_form():
    rho, xi, delta = 0.3, 0.05, 1e-6
    expected = xi + rho + 2 * math.sqrt(rho * math.log(1 / delta))
    value = zcdp_to_dp(ZCDP(rho, xi=xi), delta=delta, method="bun-steinke").epsilon
    assert value == pytest.approx(expected, rel=1e-14) and value >= expected * (1 - 1e-15)


def test_pure_xi_only_guarantee():
    # ρ = 0: D_α <= ξ for all α, the bound is ξ + log(1 - δ) (at α = 1/δ)
    value = zcdp_to_dp(ZCDP(0.0, xi=1.0), delta=1e-3).epsilon
    assert value == pytest.approx(1.0 + math.log1p(-1e-3), rel=1e-12) and value <= 1.0
    assert zcdp_to_dp_delta(ZCDP(0.0, xi=1.0), epsilon=1.0) == 0.0
    assert 0 < zcdp_to_dp_delta(ZCDP(0.0, xi=1.0), epsilon=0.5) < 1


def test_zero_zcdp_gives_zero_epsilon():
    assert zcdp_to_dp(ZCDP(0.0), delta=1e-6) == ApproxDP(0.0, 1e-6)


def test_total_variation_bound_for_tiny_rho():
    assert zcdp_to_dp(ZCDP(1e-12), delta=1e-3).epsilon == 0.0  # sqrt(1 - e^{-1e-12}) ≈ 1e-6


def test_delta_side_inverts_epsilon_side():
    for rho in (1e-3, 0.5, 20.0):
        for delta in (1e-2, 1e-6, 1e-12):
            epsilon = zcdp_to_dp(ZCDP(rho), delta=delta).epsilon
            assert zcdp_to_dp_delta(ZCDP(rho), epsilon=epsilon) <= delta * (1 + 1e-9)


def test_delta_side_is_conservative_against_exact_gaussian():
    for sigma in (0.5, 1.0, 3.0):
        profile = gaussian_privacy_profile(sigma)
        for epsilon in (0.0, 0.5, 2.0, 8.0):
            delta = zcdp_to_dp_delta(ZCDP(1 / (2 * sigma**2)), epsilon=epsilon)
            assert delta >= profile.delta_for_epsilon(epsilon) * (1 - 1e-12)
            assert delta <= 1.0


def test_extreme_parameters_stay_finite():
    assert math.isfinite(zcdp_to_dp(ZCDP(1e12), delta=1e-300).epsilon)
    assert zcdp_to_dp(ZCDP(1e-300), delta=0.5).epsilon == 0.0
    assert zcdp_to_dp_delta(ZCDP(1e-300), epsilon=50.0) >= 0.0
    assert zcdp_to_dp_delta(ZCDP(1e8), epsilon=0.0) == 1.0


# --------------------------------------------------------------------------- properties


@settings(max_examples=40, deadline=None)
@given(rho=st.floats(1e-6, 1e4), delta=dst.deltas(min_value=1e-12, max_value=0.5),
       xi=dst.epsilons(max_value=2.0))
def test_tight_is_never_worse_than_bun_steinke(rho, delta, xi):
    guarantee = ZCDP(rho, xi=xi)
    tight = zcdp_to_dp(guarantee, delta=delta).epsilon
    assert tight <= zcdp_to_dp(guarantee, delta=delta, method="bun-steinke").epsilon


@settings(max_examples=20, deadline=None)
@given(sigma=st.floats(0.3, 10.0), delta=dst.deltas(min_value=1e-10, max_value=0.1))
def test_conversion_is_conservative_against_exact_gaussian(sigma, delta):
    exact = exact_gaussian_epsilon(sigma, delta)
    assert_conservative(zcdp_to_dp(ZCDP(1 / (2 * sigma**2)), delta=delta).epsilon, exact,
                        name=f"zcdp_to_dp epsilon of Gaussian(sigma={sigma!r})")


@settings(max_examples=30, deadline=None)
@given(rho=st.floats(1e-4, 100.0), factor=st.floats(1.0, 4.0),
       delta=dst.deltas(min_value=1e-10, max_value=0.1))
def test_epsilon_grows_with_rho(rho, factor, delta):
    assert (zcdp_to_dp(ZCDP(rho), delta=delta).epsilon
            <= zcdp_to_dp(ZCDP(rho * factor), delta=delta).epsilon)


@settings(max_examples=30, deadline=None)
@given(first=st.from_type(ZCDP), second=st.from_type(ZCDP))
def test_composition_costs_at_least_each_part(first, second):
    total = compose_zcdp([first, second])
    assert total.rho >= max(first.rho, second.rho) and total.xi >= max(first.xi, second.xi)
    epsilon = zcdp_to_dp(total, delta=1e-6).epsilon
    assert epsilon >= zcdp_to_dp(first, delta=1e-6).epsilon


# --------------------------------------------------------------------------- invalid arguments

INVALID = [
    (compose_zcdp, ([],), {}, ValueError, "guarantees"),
    (compose_zcdp, (ZCDP(1.0),), {}, TypeError, "guarantees"),
    (compose_zcdp, ([ZCDP(1.0), PureDP(1.0)],), {}, (TypeError, UnsupportedError), "ZCDP"),
    (compose_zcdp, ([ZCDP(1.0), ApproxDP(1.0, 1e-6)],), {}, TypeError, "guarantees[1]"),
    (pure_to_zcdp, (ApproxDP(1.0, 1e-6),), {}, TypeError, "PureDP"),
    (pure_to_zcdp, (-1.0,), {}, ValueError, "guarantee"),
    (pure_to_zcdp, (math.nan,), {}, ValueError, "guarantee"),
    (pure_to_zcdp, ("1",), {}, TypeError, "guarantee"),
    (zcdp_to_rdp, (PureDP(1.0),), {}, TypeError, "zcdp"),
    (zcdp_to_rdp, (ZCDP(1.0),), {"orders": (2.0, 1.5)}, ValueError, "orders"),
    (zcdp_to_rdp, (ZCDP(1.0),), {"orders": (1.0,)}, ValueError, "orders"),
    (zcdp_to_dp, (ZCDP(1.0),), {"delta": 0.0}, ValueError, "delta"),
    (zcdp_to_dp, (ZCDP(1.0),), {"delta": 1.0}, ValueError, "delta"),
    (zcdp_to_dp, (ZCDP(1.0),), {"delta": -1e-5}, ValueError, "delta"),
    (zcdp_to_dp, (ZCDP(1.0),), {"delta": 1e-5, "method": "cks"}, ValueError, "method"),
    (zcdp_to_dp, (0.5,), {"delta": 1e-5}, TypeError, "zcdp"),
    (zcdp_to_dp_delta, (ZCDP(1.0),), {"epsilon": -0.1}, ValueError, "epsilon"),
    (zcdp_to_dp_delta, (ZCDP(1.0),), {"epsilon": math.nan}, ValueError, "epsilon"),
    (zcdp_to_dp_delta, (PureDP(1.0),), {"epsilon": 1.0}, TypeError, "zcdp"),
]


@pytest.mark.parametrize("function, args, kwargs, error, name", INVALID,
                         ids=[f"{f.__name__}-{n}-{i}" for i, (f, _, _, _, n) in enumerate(INVALID)])
def test_invalid_arguments_are_rejected_by_name(function, args, kwargs, error, name):
    with pytest.raises(error, match=re.escape(name)):
        function(*args, **kwargs)


# --------------------------------------------------------------------------- peers


@pytest.mark.peer
@pytest.mark.parametrize("k", [1, 100, 10_000])
def test_peer_gaussian_rdp_accountant(k):
    """Continuous-order zCDP conversion is at most dp-accounting's grid-based RDP ε."""
    dp_accounting = pytest.importorskip("dp_accounting")
    module = pytest.importorskip("dp_accounting.rdp.rdp_privacy_accountant")
    accountant = module.RdpAccountant()
    accountant.compose(dp_accounting.SelfComposedDpEvent(dp_accounting.GaussianDpEvent(1.0), k))
    assert zcdp_to_dp(ZCDP(k / 2), delta=1e-5).epsilon <= accountant.get_epsilon(1e-5) * (1 + 1e-12)
