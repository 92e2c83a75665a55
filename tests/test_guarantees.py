"""Guarantee values: frozen, validated, replace re-validates."""

from __future__ import annotations

import dataclasses
import math

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dpverify import ZCDP, ApproxDP, EpsilonBounds, PrivacyProfile, PureDP, RDPCurve


def test_values_are_frozen_and_hashable() -> None:
    g = ApproxDP(1.0, 1e-6)
    with pytest.raises(dataclasses.FrozenInstanceError):
        g.epsilon = 2.0  # type: ignore[misc]
    assert hash(g) == hash(ApproxDP(epsilon=1.0, delta=1e-6))
    assert {PureDP(1.0), PureDP(1)} == {PureDP(1.0)}


@pytest.mark.parametrize("make, name", [
    (lambda: PureDP(-1.0), "epsilon"),
    (lambda: PureDP(math.nan), "epsilon"),
    (lambda: ApproxDP(1.0, 1.0), "delta"),
    (lambda: ApproxDP(math.inf, 0.1), "epsilon"),
    (lambda: ZCDP(-0.5), "rho"),
    (lambda: ZCDP(0.5, xi=math.nan), "xi"),
    (lambda: RDPCurve((2, 3), (1.0,)), "epsilons"),
    (lambda: RDPCurve((3, 2), (1.0, 1.0)), "orders"),
    (lambda: RDPCurve((2, 3), (1.0, math.nan)), "epsilons"),
    (lambda: RDPCurve((2, math.inf), (1.0, 1.0)), "orders"),
    (lambda: EpsilonBounds(lower=2.0, upper=1.0), "lower"),
])
def test_invalid_values_name_the_field(make, name: str) -> None:
    with pytest.raises(ValueError, match=name):
        make()


def test_replace_revalidates() -> None:
    with pytest.raises(ValueError, match="delta"):
        dataclasses.replace(ApproxDP(1.0, 0.1), delta=-0.1)


def test_rdp_curve_normalises_and_looks_up() -> None:
    curve = RDPCurve([2, 4], [0.5, math.inf])
    assert curve.orders == (2.0, 4.0) and curve.epsilon_at(4) == math.inf
    with pytest.raises(ValueError, match="order=3"):
        curve.epsilon_at(3)


def _rr_profile(epsilon_0: float) -> PrivacyProfile:
    """Binary randomized response: δ(ε) = (e^{ε0} − e^ε)₊ / (1 + e^{ε0})."""
    return PrivacyProfile(
        lambda e: max(mpmath.mpf(0), (mpmath.exp(epsilon_0) - mpmath.exp(e)) / (1 + mpmath.exp(epsilon_0))))


@given(st.floats(0.01, 5.0), st.floats(0.0, 6.0))
def test_profile_delta_is_rounded_up(epsilon_0: float, epsilon: float) -> None:
    with mpmath.workdps(80):  # reference at higher precision than the profile's own
        e0, e = mpmath.mpf(epsilon_0), mpmath.mpf(epsilon)
        exact = max(mpmath.mpf(0), (mpmath.exp(e0) - mpmath.exp(e)) / (1 + mpmath.exp(e0)))
        assert mpmath.mpf(_rr_profile(epsilon_0).delta_for_epsilon(epsilon)) >= exact


@pytest.mark.slow
@given(st.floats(0.01, 5.0), st.floats(1e-9, 0.3))
def test_profile_epsilon_meets_delta_and_is_tight(epsilon_0: float, delta: float) -> None:
    profile = _rr_profile(epsilon_0)
    epsilon = profile.epsilon_for_delta(delta)
    assert profile.delta_for_epsilon(epsilon) <= delta
    if epsilon > 0:
        assert profile.delta_for_epsilon(epsilon * (1 - 1e-9) - 1e-12) > delta


def test_profile_without_finite_epsilon() -> None:
    always = PrivacyProfile(lambda e: mpmath.mpf("0.5"), description="half the mass at infinity")
    assert always.epsilon_for_delta(0.1) == math.inf
    with pytest.raises(TypeError, match="curve"):
        PrivacyProfile(0.5)  # type: ignore[arg-type]
