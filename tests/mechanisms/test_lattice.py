"""privacy_map converts along the guarantee lattice when no direct map is registered (issue 15)."""

from __future__ import annotations

import math

import pytest

from dpverify.accountants.rdp import gaussian_rdp, laplace_rdp
from dpverify.errors import UnsupportedError
from dpverify.guarantees import ZCDP, ApproxDP, PrivacyProfile, PureDP, RDPCurve
from dpverify.mechanisms import Gaussian, Laplace, RandomizedResponse, privacy_map
from dpverify.mechanisms.continuous import laplace_privacy_profile


def test_laplace_to_approx_dp_zcdp_and_rdp_are_sound():
    assert privacy_map(Laplace(scale=2.0), target=ApproxDP) == ApproxDP(0.5, 0.0)
    assert privacy_map(Laplace(scale=2.0), target=ZCDP) == ZCDP(0.125)
    curve = privacy_map(Laplace(scale=2.0), target=RDPCurve)
    exact = laplace_rdp(2.0, orders=curve.orders)
    assert all(ours >= true for ours, true in zip(curve.epsilons, exact.epsilons))


def test_gaussian_zcdp_converts_to_its_exact_rdp_curve():
    curve = privacy_map(Gaussian(sigma=2.0), target=RDPCurve)
    assert curve.epsilons == gaussian_rdp(2.0, orders=curve.orders).epsilons


def test_pure_dp_profile_bounds_the_mechanism_profile():
    converted = privacy_map(RandomizedResponse(3, 1.0), target=ApproxDP)
    assert converted.epsilon == 1.0 and converted.delta == 0.0
    profile = privacy_map(Laplace(scale=1.0), target=PureDP)
    assert profile == PureDP(1.0)
    from dpverify.mechanisms._lattice import convert

    pair = convert({PureDP: lambda: PureDP(1.0)}, PrivacyProfile)
    exact = laplace_privacy_profile(1.0)
    for epsilon in (0.0, 0.3, 0.9):
        assert pair.delta_for_epsilon(epsilon) >= exact.delta_for_epsilon(epsilon)
    assert pair.delta_for_epsilon(0.0) == pytest.approx(math.tanh(0.5))


def test_no_unsound_conversion_upwards():
    with pytest.raises(UnsupportedError, match="PureDP"):
        privacy_map(Gaussian(sigma=1.0), target=PureDP)
