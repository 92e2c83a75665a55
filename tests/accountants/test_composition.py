"""Tests of dpverify.accountants.composition: basic, advanced and optimal composition.

The exact references are written here independently of the implementation:
a direct binomial sum over all k + 1 indices with bisection (mpmath, 80
digits), Kairouz–Oh–Viswanath's closed-form δ_i, and brute-force enumeration of
the k-fold product distributions (2^k or 4^k outcomes).
"""

from __future__ import annotations

import itertools
import math
import warnings
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy.stats import binom

from dpverify.accountants.composition import (
    advanced_composition,
    basic_composition,
    optimal_composition,
    optimal_composition_delta,
)
from dpverify.errors import UnsupportedError
from dpverify.guarantees import ZCDP, ApproxDP, PrivacyProfile, PureDP, RDPCurve
from dpverify.mechanisms.continuous import gaussian_delta, gaussian_privacy_profile
from dpverify.testing import strategies as dst

REFERENCE_DPS = 80


# --------------------------------------------------------------------------- references


def _float_up(value: Fraction) -> float:
    """Smallest float >= an exact rational (independent of dpverify._numeric)."""
    result = float(value)
    return result if Fraction(result) >= value else math.nextafter(result, math.inf)


def _brute_total_delta_curve(epsilon: float, delta: float, k: int):
    """x -> exact δ_total(x) of k-fold (ε, δ) composition, summing all k + 1 binomial terms."""
    with mpmath.workdps(REFERENCE_DPS):
        e = mpmath.mpf(epsilon)
        p, q = mpmath.exp(e) / (1 + mpmath.exp(e)), 1 / (1 + mpmath.exp(e))
        first = [mpmath.binomial(k, i) * p ** (k - i) * q ** i for i in range(k + 1)]
        second = [mpmath.binomial(k, i) * p ** i * q ** (k - i) for i in range(k + 1)]
        survive = (1 - mpmath.mpf(delta)) ** k

    def total_delta(x) -> mpmath.mpf:
        with mpmath.workdps(REFERENCE_DPS):
            scale = mpmath.exp(mpmath.mpf(x))
            randomized_response = mpmath.fsum(max(mpmath.mpf(0), a - scale * b)
                                              for a, b in zip(first, second))
            return 1 - survive * (1 - randomized_response)

    return total_delta


def _brute_epsilon(epsilon: float, delta: float, k: int, target: float) -> mpmath.mpf:
    """Smallest x >= 0 with δ_total(x) <= target, by 200 bisection steps on [0, kε]."""
    total_delta = _brute_total_delta_curve(epsilon, delta, k)
    with mpmath.workdps(REFERENCE_DPS):
        low, high = mpmath.mpf(0), mpmath.mpf(epsilon) * k
        if total_delta(low) <= target:
            return low
        assert total_delta(high) <= target  # the test's own invariant
        for _ in range(200):
            middle = (low + high) / 2
            low, high = (low, middle) if total_delta(middle) <= target else (middle, high)
        return high


def _kov_total_delta(epsilon: float, delta: float, k: int, i: int) -> mpmath.mpf:
    """KOV 2015, Thm 3.3: 1 - (1-δ)^k (1 - δ_i) at ε_g = (k - 2i)ε."""
    with mpmath.workdps(REFERENCE_DPS):
        e = mpmath.mpf(epsilon)
        delta_i = mpmath.fsum(
            mpmath.binomial(k, l) * (mpmath.exp((k - l) * e) - mpmath.exp((k - 2 * i + l) * e))
            for l in range(i)) / (1 + mpmath.exp(e)) ** k
        return 1 - (1 - mpmath.mpf(delta)) ** k * (1 - delta_i)


def _enumerated_delta(pair_p, pair_q, k: int, x: float) -> mpmath.mpf:
    """Hockey-stick divergence of the k-fold product of two finite distributions, by enumeration."""
    with mpmath.workdps(REFERENCE_DPS):
        scale = mpmath.exp(mpmath.mpf(x))
        total = mpmath.mpf(0)
        for outcome in itertools.product(range(len(pair_p)), repeat=k):
            mass_p = mpmath.fprod(pair_p[o] for o in outcome)
            mass_q = mpmath.fprod(pair_q[o] for o in outcome)
            total += max(mpmath.mpf(0), mass_p - scale * mass_q)
        return total


def _randomized_response_pair(epsilon: float, delta: float = 0.0):
    """KOV's dominating pair: binary RR (δ = 0) or its four-outcome (ε, δ) extension."""
    with mpmath.workdps(REFERENCE_DPS):
        e, d = mpmath.mpf(epsilon), mpmath.mpf(delta)
        p, q = mpmath.exp(e) / (1 + mpmath.exp(e)), 1 / (1 + mpmath.exp(e))
        if delta == 0:
            return (p, q), (q, p)
        return (d, (1 - d) * p, (1 - d) * q, mpmath.mpf(0)), (mpmath.mpf(0), (1 - d) * q, (1 - d) * p, d)


# --------------------------------------------------------------------------- basic


def test_basic_composition_of_pure_guarantees_is_the_rounded_up_exact_sum() -> None:
    composed = basic_composition([PureDP(0.1), PureDP(0.2), PureDP(0.3)])
    assert isinstance(composed, PureDP)
    assert composed.epsilon == _float_up(Fraction(0.1) + Fraction(0.2) + Fraction(0.3))
    assert Fraction(composed.epsilon) >= Fraction(0.1) + Fraction(0.2) + Fraction(0.3)


def test_basic_composition_with_an_approximate_part_is_approximate() -> None:
    composed = basic_composition((PureDP(0.5), ApproxDP(1.0, 1e-6), ApproxDP(0.25, 3e-7)))
    assert isinstance(composed, ApproxDP)
    assert composed.epsilon == 1.75
    assert composed.delta == _float_up(Fraction(1e-6) + Fraction(3e-7))


def test_basic_composition_accepts_any_iterable() -> None:
    assert basic_composition(PureDP(0.5) for _ in range(4)) == PureDP(2.0)


def test_basic_composition_refuses_a_vacuous_delta() -> None:
    with pytest.raises(ValueError, match="vacuous"):
        basic_composition([ApproxDP(1.0, 0.6), ApproxDP(1.0, 0.4)])


def test_basic_composition_refuses_an_overflowing_epsilon() -> None:
    with pytest.raises(ValueError, match="epsilon"):
        basic_composition([PureDP(1e308), PureDP(1e308)])


@pytest.mark.parametrize("other, accountant", [
    (ZCDP(0.5), "compose_zcdp"),
    (RDPCurve(orders=(2.0,), epsilons=(1.0,)), "compose_rdp"),
    (PrivacyProfile(lambda e: mpmath.mpf(0)), "PLD"),
])
def test_basic_composition_names_the_accountant_for_other_guarantees(other, accountant) -> None:
    with pytest.raises(UnsupportedError, match=accountant) as info:
        basic_composition([PureDP(1.0), other])
    assert "PureDP and ApproxDP" in str(info.value)


@pytest.mark.parametrize("bad", [[], (), iter([])])
def test_basic_composition_refuses_nothing(bad) -> None:
    with pytest.raises(ValueError, match="guarantees"):
        basic_composition(bad)


@pytest.mark.parametrize("bad", [PureDP(1.0), 1.0, "PureDP(1.0)", [PureDP(1.0), 0.5], None])
def test_basic_composition_refuses_non_guarantees(bad) -> None:
    with pytest.raises(TypeError, match="guarantees"):
        basic_composition(bad)


guarantee_strategy = dst.guarantees(types=(PureDP, ApproxDP), max_epsilon=10.0, max_delta=0.05)


@pytest.mark.slow
@given(st.lists(guarantee_strategy, min_size=1, max_size=12))
def test_basic_composition_costs_at_least_each_part(parts) -> None:
    composed = basic_composition(parts)
    for part in parts:
        assert composed.epsilon >= part.epsilon
        if isinstance(part, ApproxDP):
            assert composed.delta >= part.delta


# --------------------------------------------------------------------------- advanced


@pytest.mark.parametrize("epsilon, delta, k, slack", [
    (0.1, 1e-6, 100, 1e-6), (1.0, 0.0, 1, 0.5), (0.01, 1e-9, 10_000, 1e-5),
    (2.0, 1e-3, 7, 1e-8), (1e-6, 0.0, 10**6, 1e-12),
])
def test_advanced_composition_is_the_rounded_up_formula(epsilon, delta, k, slack) -> None:
    composed = advanced_composition(epsilon, delta, k, delta_slack=slack)
    with mpmath.workdps(100):  # Dwork–Roth Thm 3.20, evaluated independently
        e = mpmath.mpf(epsilon)
        exact = e * mpmath.sqrt(2 * k * mpmath.log(1 / mpmath.mpf(slack))) + k * e * (mpmath.exp(e) - 1)
        assert exact <= composed.epsilon <= exact * (1 + mpmath.mpf(2) ** -51)
    assert composed.delta == _float_up(k * Fraction(delta) + Fraction(slack))


def test_advanced_composition_of_zero_epsilon_is_zero() -> None:
    assert advanced_composition(0.0, 1e-7, 50, delta_slack=1e-6).epsilon == 0.0


def test_advanced_composition_refuses_a_vacuous_delta() -> None:
    with pytest.raises(ValueError, match="delta_slack.*vacuous"):
        advanced_composition(1.0, 0.1, 10, delta_slack=0.5)


def test_advanced_composition_refuses_an_overflowing_epsilon() -> None:
    with pytest.raises(ValueError, match="epsilon"):
        advanced_composition(800.0, 0.0, 2, delta_slack=1e-6)


# --------------------------------------------------------------------------- optimal: exactness


BRUTE_FORCE_CASES = [
    # (epsilon, delta, k, target_delta)
    (0.5, 1e-3, 1, 1e-3),       # k = 1 at target δ: ε itself
    (0.5, 1e-3, 1, 0.05),
    (2.0, 0.0, 1, 0.5),
    (1.0, 0.0, 2, 1e-3),
    (0.25, 0.5, 2, 0.75),       # target exactly 1 - (1-δ)^k: ε_g = kε
    (0.1, 1e-6, 10, 1e-5),
    (0.1, 0.0, 5, 1e-2),
    (0.3, 1e-5, 17, 1e-3),
    (0.05, 1e-8, 60, 1e-6),
    (1.5, 1e-4, 9, 0.2),
    (3.0, 0.0, 30, 1e-9),
    (0.01, 0.0, 150, 1e-5),     # the answer is 0 < ... near the bottom of the grid
    (1e-4, 0.0, 40, 1e-3),      # ε_g = 0 meets the budget
]


@pytest.mark.slow
@pytest.mark.parametrize("epsilon, delta, k, target", BRUTE_FORCE_CASES)
def test_optimal_composition_equals_brute_force(epsilon, delta, k, target) -> None:
    result = optimal_composition(epsilon, delta, k, target_delta=target)
    reference = _brute_epsilon(epsilon, delta, k, target)
    assert result.delta == target
    assert result.epsilon >= reference * (1 - mpmath.mpf(10) ** -60)
    assert result.epsilon <= reference * (1 + mpmath.mpf(1e-13)) + mpmath.mpf(10) ** -300
    assert _brute_total_delta_curve(epsilon, delta, k)(result.epsilon) <= target


@pytest.mark.parametrize("epsilon, delta", [(0.5, 1e-3), (1.0, 0.0), (1e-3, 1e-9), (7.0, 0.2)])
def test_optimal_composition_of_one_mechanism_is_that_mechanism(epsilon, delta) -> None:
    assert optimal_composition(epsilon, delta, 1, target_delta=delta or 1e-12).epsilon <= epsilon
    if delta:
        assert optimal_composition(epsilon, delta, 1, target_delta=delta).epsilon == epsilon


@pytest.mark.parametrize("epsilon, delta, target", [(0.5, 1e-3, 0.1), (2.0, 0.0, 0.3), (0.1, 1e-6, 1e-3)])
def test_optimal_composition_of_one_mechanism_has_a_closed_form(epsilon, delta, target) -> None:
    # k = 1: δ_total(x) = 1 - (1-δ)(1 - (p - e^x q)), so e^x = (p - R)/q, R = 1 - (1-t)/(1-δ)
    with mpmath.workdps(REFERENCE_DPS):
        e = mpmath.mpf(epsilon)
        p, q = mpmath.exp(e) / (1 + mpmath.exp(e)), 1 / (1 + mpmath.exp(e))
        budget = 1 - (1 - mpmath.mpf(target)) / (1 - mpmath.mpf(delta))
        exact = max(mpmath.mpf(0), mpmath.log((p - budget) / q))
    result = optimal_composition(epsilon, delta, 1, target_delta=target).epsilon
    assert exact <= result <= exact * (1 + mpmath.mpf(1e-15))


@pytest.mark.parametrize("epsilon", [0.5, 0.25, 1.0, 0.125])
@pytest.mark.parametrize("delta", [0.0, 1e-4])
@pytest.mark.parametrize("k", [1, 2, 5, 10, 31])
def test_optimal_delta_at_grid_points_is_kov_delta_i(epsilon, delta, k) -> None:
    # dyadic ε: the grid points (k - 2i)ε are exact floats
    for i in range(0, (k + 1) // 2 + 1):
        grid = (k - 2 * i) * epsilon
        if grid < 0:
            continue
        exact = _kov_total_delta(epsilon, delta, k, i)
        ours = optimal_composition_delta(epsilon, delta, k, target_epsilon=grid)
        assert exact <= ours <= exact * (1 + mpmath.mpf(1e-15)) + mpmath.mpf(10) ** -300


@pytest.mark.slow
@pytest.mark.parametrize("k", [1, 2, 3, 6, 9, 12])
@pytest.mark.parametrize("epsilon", [0.3, 1.1])
def test_optimal_delta_matches_enumerated_randomized_response(k, epsilon) -> None:
    pair_p, pair_q = _randomized_response_pair(epsilon)
    for x in [0.0, 0.1, epsilon, 1.7 * epsilon, (k - 1) * epsilon + 0.05, k * epsilon, k * epsilon + 1]:
        exact = _enumerated_delta(pair_p, pair_q, k, x)
        ours = optimal_composition_delta(epsilon, 0.0, k, target_epsilon=x)
        assert exact <= ours <= exact * (1 + mpmath.mpf(1e-14)) + mpmath.mpf(10) ** -300


@pytest.mark.slow
@pytest.mark.parametrize("k", [1, 2, 4, 6])
def test_optimal_delta_matches_the_enumerated_four_outcome_pair(k) -> None:
    """δ > 0: the product of KOV's (ε, δ) pair gives 1 - (1-δ)^k (1 - δ_RR)."""
    epsilon, delta = 0.4, 0.01
    pair_p, pair_q = _randomized_response_pair(epsilon, delta)
    for x in [0.0, 0.3, k * epsilon / 2, k * epsilon]:
        exact = _enumerated_delta(pair_p, pair_q, k, x)
        ours = optimal_composition_delta(epsilon, delta, k, target_epsilon=x)
        assert exact <= ours <= exact * (1 + mpmath.mpf(1e-14))


def _float_total_delta(epsilon: float, delta: float, k: int, x: float) -> float:
    """δ_total(x) in float64 with scipy's binomial log-pmf (an independent large-k check)."""
    index = np.arange(k + 1)
    grid = (k - 2 * index) * epsilon
    log_terms = binom.logpmf(index, k, 1 / (1 + math.exp(epsilon)))
    active = grid > x
    randomized_response = float(np.sum(np.exp(log_terms[active]) * -np.expm1(x - grid[active])))
    return -math.expm1(k * math.log1p(-delta) + math.log1p(-randomized_response))


@pytest.mark.parametrize("epsilon, delta, k, target", [
    (0.01, 1e-11, 100_000, 1e-5), (1.0, 0.0, 100_000, 1e-6), (0.002, 1e-10, 20_000, 1e-5),
])
@pytest.mark.slow
def test_optimal_composition_is_exact_for_large_k(epsilon, delta, k, target) -> None:
    ours = optimal_composition(epsilon, delta, k, target_delta=target).epsilon
    assert abs(_float_total_delta(epsilon, delta, k, ours) - target) <= 1e-9 * target
    assert _float_total_delta(epsilon, delta, k, ours * (1 - 1e-8)) > target
    assert optimal_composition_delta(epsilon, delta, k, target_epsilon=ours) <= target * (1 + 1e-15)


def test_optimal_composition_and_delta_are_inverse() -> None:
    epsilon, delta, k, target = 0.2, 1e-7, 250, 1e-4
    composed = optimal_composition(epsilon, delta, k, target_delta=target).epsilon
    assert optimal_composition_delta(epsilon, delta, k, target_epsilon=composed) <= target * (1 + 1e-15)
    assert optimal_composition_delta(epsilon, delta, k, target_epsilon=composed * (1 - 1e-9)) > target


def test_optimal_composition_refuses_an_unreachable_target() -> None:
    # 1 - (1 - 1e-3)^10 ≈ 9.955e-3: no ε_g brings δ below it
    with pytest.raises(ValueError, match="target_delta.*1 - \\(1 - delta\\)\\*\\*k"):
        optimal_composition(0.5, 1e-3, 10, target_delta=9e-3)
    assert optimal_composition(0.5, 1e-3, 10, target_delta=1e-2).epsilon < 5.0


def test_optimal_composition_of_zero_epsilon_is_zero() -> None:
    assert optimal_composition(0.0, 1e-4, 10, target_delta=1e-3) == ApproxDP(0.0, 1e-3)
    assert optimal_composition_delta(0.0, 0.0, 10, target_epsilon=0.0) == 0.0


# --------------------------------------------------------------------------- properties


@settings(max_examples=60, deadline=None)
@given(epsilon=dst.epsilons(min_value=1e-9, max_value=2.0), delta=dst.deltas(max_value=1e-3),
       k=st.integers(1, 200), slack=st.floats(1e-12, 0.5))
@pytest.mark.slow
def test_optimal_is_at_most_advanced_and_basic(epsilon, delta, k, slack) -> None:
    advanced = advanced_composition(epsilon, delta, k, delta_slack=slack)
    optimal = optimal_composition(epsilon, delta, k, target_delta=advanced.delta)
    basic = basic_composition([ApproxDP(epsilon, delta)] * k)
    assert optimal.epsilon <= advanced.epsilon
    assert optimal.epsilon <= basic.epsilon
    if delta > 0:  # even at basic composition's own δ = kδ
        assert optimal_composition(epsilon, delta, k, target_delta=basic.delta).epsilon <= basic.epsilon
    if advanced.epsilon <= k * epsilon:
        assert advanced.epsilon <= basic.epsilon


@settings(max_examples=40, deadline=None)
@given(epsilon=st.floats(1e-3, 2), delta=st.floats(0, 1e-4), k=st.integers(1, 150),
       extra=st.floats(1e-10, 0.1))
def test_optimal_composition_grows_with_k_and_costs_at_least_each_part(epsilon, delta, k, extra) -> None:
    target = -math.expm1((k + 1) * math.log1p(-delta)) + extra
    single = optimal_composition(epsilon, delta, 1, target_delta=target).epsilon
    now = optimal_composition(epsilon, delta, k, target_delta=target).epsilon
    more = optimal_composition(epsilon, delta, k + 1, target_delta=target).epsilon
    assert single <= now <= more


@settings(max_examples=40, deadline=None)
@given(epsilon=st.floats(1e-3, 2), delta=st.floats(0, 1e-4), k=st.integers(1, 150),
       low=st.floats(1e-9, 0.3), factor=st.floats(1.0, 100.0))
def test_optimal_composition_decreases_with_target_delta(epsilon, delta, k, low, factor) -> None:
    low += -math.expm1(k * math.log1p(-delta))
    high = low * factor
    assume(high < 1)
    strict = optimal_composition(epsilon, delta, k, target_delta=low).epsilon
    loose = optimal_composition(epsilon, delta, k, target_delta=high).epsilon
    assert loose <= strict <= k * epsilon


@pytest.mark.parametrize("sigma, k, target", [(2.0, 10, 1e-5), (5.0, 100, 1e-6), (1.0, 3, 1e-3)])
def test_optimal_composition_is_conservative_for_gaussians(sigma, k, target) -> None:
    """k Gaussian(σ) = one Gaussian(σ/√k): composing their (ε0, δ(ε0)) guarantees must not beat it."""
    exact = gaussian_privacy_profile(sigma / math.sqrt(k)).epsilon_for_delta(target)
    for epsilon_0 in [0.1, 0.5, 1.0]:
        delta_0 = float(gaussian_delta(1 / sigma, epsilon_0)) * (1 + 1e-12)
        if -math.expm1(k * math.log1p(-delta_0)) >= target:
            continue
        composed = optimal_composition(epsilon_0, delta_0, k, target_delta=target).epsilon
        assert composed >= exact


# --------------------------------------------------------------------------- peers


@pytest.mark.peer
@pytest.mark.parametrize("epsilon, delta, k, target", [
    (0.1, 0.0, 100, 1e-5), (0.5, 1e-6, 50, 1e-4), (1.0, 0.0, 20, 1e-6), (0.05, 1e-8, 1000, 1e-5),
])
def test_optimal_composition_against_dp_accounting_pld(epsilon, delta, k, target) -> None:
    pld_module = pytest.importorskip("dp_accounting.pld.privacy_loss_distribution")
    common = pytest.importorskip("dp_accounting.pld.common")
    pld = pld_module.from_privacy_parameters(common.DifferentialPrivacyParameters(epsilon, delta))
    pessimistic = pld.self_compose(k).get_epsilon_for_delta(target)
    ours = optimal_composition(epsilon, delta, k, target_delta=target).epsilon
    assert ours <= pessimistic + 1e-9  # a pessimistic PLD is an upper bound on the exact value
    assert pessimistic - ours <= 1e-3


@pytest.mark.slow
@pytest.mark.peer
@pytest.mark.parametrize("epsilon, k, target", [(0.1, 100, 1e-5), (1.0, 20, 1e-6)])
def test_optimal_composition_against_prv_accountant(epsilon, k, target) -> None:
    prv = pytest.importorskip("prv_accountant")
    mechanisms = pytest.importorskip("prv_accountant.privacy_random_variables")
    accountant = prv.PRVAccountant(prvs=[mechanisms.PureDPMechanism(epsilon)], max_self_compositions=[k],
                                   eps_error=1e-3, delta_error=target * 1e-3)
    lower, _, upper = accountant.compute_epsilon(delta=target, num_self_compositions=[k])
    ours = optimal_composition(epsilon, 0.0, k, target_delta=target).epsilon
    assert lower <= ours <= upper


# --------------------------------------------------------------------------- invalid arguments


def _homogeneous_cases(function, extra_name, extra_value):
    good = {"epsilon": 0.5, "delta": 1e-6, "count": 10, extra_name: extra_value}
    bad = {
        "epsilon": [math.nan, math.inf, -0.1, "0.5", True, None],
        "delta": [math.nan, -1e-9, 1.0, 1.5, "0"],
        "count": [0, -3, 2.5, math.nan, True, "10"],
    }
    if extra_name == "target_epsilon":
        bad[extra_name] = [math.nan, math.inf, -1.0, "1"]
    else:
        bad[extra_name] = [0.0, 1.0, -0.5, math.nan, math.inf, "0.1"]
    for name, values in bad.items():
        for value in values:
            yield pytest.param(function, {**good, name: value}, name, id=f"{function.__name__}-{name}={value!r}")


INVALID = [
    *_homogeneous_cases(advanced_composition, "delta_slack", 1e-6),
    *_homogeneous_cases(optimal_composition, "target_delta", 1e-3),
    *_homogeneous_cases(optimal_composition_delta, "target_epsilon", 1.0),
]


@pytest.mark.parametrize("function, kwargs, name", INVALID)
def test_invalid_arguments_name_the_parameter(function, kwargs, name) -> None:
    with pytest.raises((ValueError, TypeError), match=name):
        function(**kwargs)


def test_integral_float_k_is_accepted() -> None:
    assert optimal_composition(0.5, 1e-6, 10.0, target_delta=1e-3) == optimal_composition(
        0.5, 1e-6, 10, target_delta=1e-3)


def test_segment_solve_raises_precision_when_it_cancels() -> None:
    """At 15 digits the closed-form root cancels; the helper must redo it at higher precision."""
    from dpverify.accountants._kfold_randomized_response import optimal_epsilon, solve_on_segment

    epsilon, delta, k, target = 0.3, 1e-6, 40, 1e-3
    expected = optimal_epsilon(epsilon, delta, k, target)
    index = round((k - expected / epsilon) / 2 - 0.5)  # the grid segment holding the answer
    with mpmath.workdps(15):
        root = solve_on_segment(epsilon, delta, k, target, index)
    assert abs(root - expected) <= 1e-12 * expected


@pytest.mark.parametrize("epsilon, k", [(800.0, 1000), (1e5, 10), (50.0, 3)])
def test_optimal_composition_of_huge_epsilons_is_finite_and_below_basic(epsilon, k):
    """Regression: δ_RR's upper bound exceeded 1 at huge ε and log1p(−δ_RR) went complex (TypeError)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        composed = optimal_composition(epsilon, 1e-12, k, target_delta=1e-6)
    assert 0.99 * k * epsilon < composed.epsilon <= k * epsilon
