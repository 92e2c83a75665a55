"""Chowdhury & Zhou 2023, App. I: per-batch noise for users who join up to B batches (bandits.returning_users).

Cross-checks: the exact route is the PLD calibration of B Gaussian releases,
which for Gaussians equals one Gaussian at σ/√B (composition of B Gaussians
with the same σ is a Gaussian with sensitivity √B); the zCDP route against the
closed form ρ = Δ²/(2σ²) per batch; the advanced route against eq. (14)'s
formula; the ordering exact <= zCDP <= advanced and the log(B/δ) growth of the
advanced/zCDP variance ratio (App. I's point).
"""

from __future__ import annotations

import math

import pytest

from dpverify.accountants.calibrate import analytic_gaussian_sigma
from dpverify.accountants.zcdp import zcdp_to_dp
from dpverify.bandits.returning_users import returning_users_pure_epsilon, returning_users_sigma
from dpverify.guarantees import ZCDP


def test_exact_route_is_one_gaussian_of_sensitivity_root_b() -> None:
    b = 16
    exact = returning_users_sigma(1.0, 1e-6, participations=b, route="exact")
    assert exact == pytest.approx(math.sqrt(b) * analytic_gaussian_sigma(1.0, 1e-6), rel=1e-3)


def test_zcdp_route_composes_to_the_budget() -> None:
    b, sigma = 10, returning_users_sigma(1.0, 1e-6, participations=10)
    total = ZCDP(b / (2 * sigma ** 2))
    assert zcdp_to_dp(total, delta=1e-6).epsilon <= 1.0 + 1e-9


def test_advanced_route_is_eq_14() -> None:
    b, epsilon, delta = 4, 0.5, 1e-6
    eps_i = epsilon / (2 * math.sqrt(2 * b * math.log(2 / delta)))
    expected = math.sqrt(2 * math.log(1.25 / (delta / (2 * b)))) / eps_i
    assert returning_users_sigma(epsilon, delta, participations=b, route="advanced") == \
        pytest.approx(expected, rel=1e-12)


@pytest.mark.slow
def test_routes_ordered_and_the_gap_grows_like_log_b_over_delta() -> None:
    ratios = []
    for b in (1, 10, 100):
        exact, zcdp, advanced = (returning_users_sigma(1.0, 1e-6, participations=b, route=r)
                                 for r in ("exact", "zcdp", "advanced"))
        assert exact <= zcdp <= advanced
        ratios.append((advanced / zcdp) ** 2)
    assert ratios[0] < ratios[1] < ratios[2]
    growth = ratios[2] / ratios[0]
    assert growth == pytest.approx(math.log(2.5 * 100 / 1e-6) / math.log(2.5 / 1e-6), rel=0.05)


def test_pure_dp_is_linear_in_b_and_bad_input_is_refused() -> None:
    assert returning_users_pure_epsilon(2.0, participations=8) == 0.25
    with pytest.raises(ValueError, match="participations"):
        returning_users_sigma(1.0, 1e-6, participations=0)
    with pytest.raises(ValueError, match="route"):
        returning_users_sigma(1.0, 1e-6, participations=2, route="magic")
    with pytest.raises(ValueError, match="epsilon"):
        returning_users_sigma(100.0, 0.4, participations=1, route="advanced")
