"""Group privacy of each guarantee type: the formulas, exactness for the Gaussian's zCDP, refusals."""

from __future__ import annotations

import math

import pytest

from dpverify.accountants.group import group_privacy
from dpverify.accountants.rdp import gaussian_rdp
from dpverify.guarantees import ZCDP, ApproxDP, PureDP, RDPCurve


def test_group_privacy_formulas():
    assert group_privacy(PureDP(0.5), 4) == PureDP(2.0)
    approx = group_privacy(ApproxDP(1.0, 1e-6), 3)
    assert approx.epsilon == 3.0 and approx.delta >= 3 * math.exp(2) * 1e-6
    assert group_privacy(ZCDP(0.25), 2) == ZCDP(1.0)
    curve = group_privacy(gaussian_rdp(1.0, orders=[2, 4, 8, 16]), 2)
    # Mironov Prop. 2: ε'(α) = 3 ε(2α); the Gaussian's exact group curve is 4α/2 <= 3·2α/2
    assert curve.orders == (2.0, 4.0, 8.0) and curve.epsilons == (6.0, 12.0, 24.0)


def test_group_privacy_of_gaussian_zcdp_is_exact():
    """k records shift a Gaussian query by k: ρ = k²/(2σ²), exactly the zCDP group bound."""
    assert group_privacy(ZCDP(1 / 8), 3).rho == pytest.approx(9 / 8)


@pytest.mark.parametrize("guarantee, size, name", [
    (PureDP(1.0), 0, "group_size"),
    (RDPCurve((2.0, 4.0), (1.0, 2.0)), 3, "group_size"),
    (ApproxDP(5.0, 0.1), 10, "group_size"),
])
def test_group_privacy_refuses_bad_input(guarantee, size, name):
    with pytest.raises(ValueError, match=name):
        group_privacy(guarantee, size)
