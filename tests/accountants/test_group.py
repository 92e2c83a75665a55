"""Group privacy of each guarantee type: the formulas, exactness for the Gaussian's zCDP, refusals."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.accountants.group import group_privacy
from dpverify.accountants.rdp import gaussian_rdp
from dpverify.guarantees import ZCDP, ApproxDP, PureDP, RDPCurve
from dpverify.mechanisms.continuous import gaussian_delta


def test_group_privacy_formulas():
    assert group_privacy(PureDP(0.5), 4) == PureDP(2.0)
    approx = group_privacy(ApproxDP(1.0, 1e-6), 3)
    # the chain's sum δ (1 + e^ε + e^{2ε}), rounded up: below the lemma's k e^{(k−1)ε} δ
    assert approx.epsilon == 3.0
    assert 1e-6 * (1 + math.e + math.e ** 2) <= approx.delta <= 1e-6 * (1 + math.e + math.e ** 2) * (1 + 1e-12)
    assert approx.delta < 3 * math.exp(2) * 1e-6
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


@settings(max_examples=40, deadline=None)
@given(sigma=st.floats(0.5, 5.0), epsilon=st.floats(0.0, 2.0), size=st.integers(1, 5))
def test_group_delta_is_sound_for_the_gaussian(sigma: float, epsilon: float, size: int) -> None:
    """k records shift a Gaussian query by k, so its exact δ at kε (sensitivity k) must not exceed
    the group bound built from the one-record (ε, δ(ε)) (Balle & Wang 2018, Thm 8, exact)."""
    one = float(gaussian_delta(1 / sigma, epsilon))
    if not one > 0:
        return
    try:
        group = group_privacy(ApproxDP(epsilon, one), size)
    except ValueError:  # the group δ would reach 1: refused, nothing to check
        return
    exact = float(gaussian_delta(size / sigma, size * epsilon))
    assert exact <= group.delta * (1 + 1e-9)


def test_group_delta_at_epsilon_zero_is_k_delta() -> None:
    group = group_privacy(ApproxDP(0.0, 1e-6), 4)
    assert group.epsilon == 0.0 and 4e-6 <= group.delta <= 4e-6 * (1 + 1e-12)


@pytest.mark.peer
def test_user_level_dp_sgd_matches_tf_privacy() -> None:
    """TF-Privacy's user-level statement (compute_dp_sgd_privacy_test.py,
    test_dp_sgd_privacy_statement_user_dp_with_rdp: 10000 examples, batch 64, noise 2.0 with
    microbatching, 5 epochs, 3 examples per user, δ = 1e-6, Poisson): 6.425. Its example-level ε
    comes from dp_accounting's RDP accountant; the group step is ours: solve for the example δ
    whose group δ is 1e-6 and read the group ε (the lemma's k e^{(k−1)ε} δ gave 6.879)."""
    dp_accounting = pytest.importorskip("dp_accounting")
    from scipy.optimize import brentq

    q = 64 / 10000
    event = dp_accounting.SelfComposedDpEvent(dp_accounting.PoissonSampledDpEvent(
        q, dp_accounting.GaussianDpEvent(1.0)), math.ceil(5.0 / q))

    def example_epsilon(log_delta: float) -> float:
        return dp_accounting.rdp.RdpAccountant().compose(event).get_epsilon(math.exp(log_delta))

    def gap(log_delta: float) -> float:
        group = group_privacy(ApproxDP(example_epsilon(log_delta), math.exp(log_delta)), 3)
        return math.log(group.delta) - math.log(1e-6)

    log_delta = brentq(gap, math.log(1e-12), math.log(1e-7), xtol=1e-10)
    user = group_privacy(ApproxDP(example_epsilon(log_delta), math.exp(log_delta)), 3)
    assert round(user.epsilon, 3) == 6.425
