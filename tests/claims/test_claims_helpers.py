"""The claims' public helpers against exact values and as properties.

The count lower bound of Hanna et al.'s printed Alg. 3 never exceeds the
randomizer's exact local level 2ε0 (a lower bound can't beat the truth), the
composition of Garcelon et al.'s released batches keeps the advanced
composition's form, the squaring doubling trick's restart sums stay within
4 log T, and the power of the rate test is the factor it states.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.claims._simulations import Z_MARGIN, detectable_growth, horizon_verdict, rate_verdict
from dpverify.claims.garcelon import prop13_hypothesis_limit, released_batches_epsilon
from dpverify.claims.hanna import count_epsilon_lower_bound
from dpverify.claims.tenenbaum import restart_log_sums


@settings(max_examples=25, deadline=None)
@given(local=st.floats(0.2, 4.0), users=st.integers(1, 400), threshold=st.floats(-2.0, 3.0),
       others=st.sampled_from([-1.0, 1.0]))
def test_count_lower_bound_never_exceeds_the_local_level(local, users, threshold, others) -> None:
    """r + Lap(1/ε0) on rewards in [−1, 1] is exactly 2ε0-LDP, so ε(δ) <= 2ε0 after shuffling."""
    bound = count_epsilon_lower_bound(local, users, 1e-6, threshold=threshold, others=others)
    assert 0.0 <= bound <= 2 * local + 1e-9


def test_count_lower_bound_one_user_is_the_exact_local_level() -> None:
    """One user, threshold 1: P(report > 1) is 1/2 vs e^{-2ε0}/2, so ε(δ) -> 2ε0 as δ -> 0."""
    local = 1.3
    bound = count_epsilon_lower_bound(local, 1, 1e-12, threshold=1.0, others=-1.0)
    assert bound == pytest.approx(2 * local, abs=1e-6)


def test_count_lower_bound_refuses_bad_input() -> None:
    with pytest.raises(ValueError, match="users"):
        count_epsilon_lower_bound(1.0, 10 ** 7, 1e-6, threshold=0.0, others=1.0)
    with pytest.raises(ValueError, match="others"):
        count_epsilon_lower_bound(1.0, 10, 1e-6, threshold=0.0, others=2.0)
    with pytest.raises(ValueError, match="local_epsilon"):
        count_epsilon_lower_bound(-1.0, 10, 1e-6, threshold=0.0, others=1.0)


@settings(max_examples=15, deadline=None)
@given(exponent=st.integers(12, 20), batches=st.integers(1, 5000))
def test_released_batches_compose_as_advanced_composition(exponent, batches) -> None:
    row = released_batches_epsilon(10 ** exponent, batches, epsilon=0.5)
    expected = row["sqrt_term"] + row["dropped_term"]
    assert row["total"] >= expected * (1 - 1e-12)  # rounded up
    assert row["total"] <= expected * (1 + 1e-9)
    assert row["released"] <= batches  # only full batches are released
    assert row["total_delta"] <= 1e-6


def test_prop13_hypothesis_limit_by_hand() -> None:
    assert prop13_hypothesis_limit(200) == pytest.approx(math.log(200 / (7 * math.log(800)) - 1))
    assert prop13_hypothesis_limit(10) == -math.inf  # l/(7 ln(8m/δ0)) <= 1: no ε0 qualifies


@pytest.mark.parametrize("horizon", [10 ** 4, 10 ** 7, 10 ** 12, 10 ** 30])
def test_squaring_restarts_stay_within_four_log_t(horizon) -> None:
    row = restart_log_sums(horizon)
    assert row["squaring_over_log_T"] <= 4
    assert row["geometric_over_log_T"] >= row["squaring_over_log_T"]


def test_detectable_growth_is_the_margin_the_rate_test_uses() -> None:
    earlier = {"horizon": 10, "mean": 10.0, "se": 0.5, "bound": 1.0}
    factor = detectable_growth([earlier, {"horizon": 100, "mean": 40.0, "se": 1.0, "bound": 2.0}])
    assert factor == pytest.approx(2 * (1 + Z_MARGIN * 0.05) / (1 - Z_MARGIN * 0.025))
    # a last constant just above the detectable growth is refuted, just below is not
    for scale, refuted in ((1.01, True), (0.99, False)):
        mean = 10.0 * factor * scale * 2.0  # Ĉ_last = mean / 2 = factor·scale·Ĉ_earlier
        last = {"horizon": 100, "mean": mean, "se": mean * 0.025, "bound": 2.0}
        assert rate_verdict([earlier, last])[0] is (not refuted)


def test_horizon_verdict_never_refutes_from_a_shorter_run() -> None:
    assert horizon_verdict(True, 10 ** 6, 10 ** 4) == ("not refuted", False)
    assert horizon_verdict(False, 10 ** 6, 10 ** 4) == ("not checkable", False)
    assert horizon_verdict(False, 10 ** 6, 10 ** 6) == ("refuted", True)
