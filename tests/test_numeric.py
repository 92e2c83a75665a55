"""Directed rounding and the calibration engine."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dpverify._numeric import (
    bisect_passing,
    grow_until,
    log_add,
    log_sub,
    regula_falsi_passing,
    round_down,
    round_up,
)
from dpverify.errors import CalibrationError

fractions = st.fractions(min_value=-10**6, max_value=10**6, max_denominator=10**9)


@pytest.mark.slow
@given(fractions)
def test_round_up_and_down_bracket_fractions(x: Fraction) -> None:
    assert Fraction(round_down(x)) <= x <= Fraction(round_up(x))
    assert math.nextafter(round_down(x), math.inf) >= round_up(x) or round_down(x) == round_up(x)


@pytest.mark.slow
@given(st.integers(min_value=1, max_value=10**6), st.integers(min_value=1, max_value=10**6))
def test_round_up_of_high_precision_mpf(a: int, b: int) -> None:
    with mpmath.workdps(60):
        x = mpmath.mpf(a) / b
        assert mpmath.mpf(round_up(x)) >= x >= mpmath.mpf(round_down(x))


def test_relative_error_widens() -> None:
    assert round_up(1.0, relative_error=1e-9) >= 1.0 + 1e-9
    assert round_down(1.0, relative_error=1e-9) <= 1.0 - 1e-9


def test_infinities() -> None:
    assert round_up(mpmath.inf) == math.inf
    assert round_down(-mpmath.inf) == -math.inf


@given(st.floats(-700, 700), st.floats(-700, 700))
def test_log_add_matches_direct(a: float, b: float) -> None:
    assert math.isclose(log_add(a, b), math.log(math.exp(a) + math.exp(b)), rel_tol=1e-12,
                        abs_tol=1e-12)


@given(st.floats(-700, 700), st.floats(0.001, 50))
def test_log_sub_matches_mpmath(a: float, gap: float) -> None:
    b = a - gap
    expected = float(mpmath.log(mpmath.exp(a) - mpmath.exp(b)))
    assert math.isclose(log_sub(a, b), expected, rel_tol=1e-12, abs_tol=1e-12)


@given(st.floats(0.01, 1e6))
def test_bisect_returns_the_passing_end(target: float) -> None:
    x = bisect_passing(lambda s: s * s >= target, 0.0, 2e3, rtol=1e-12)
    assert x * x >= target
    assert x <= math.sqrt(target) * (1 + 1e-11)


@given(st.integers(1, 10**12))
def test_bisect_integers_gives_the_smallest_passing(n: int) -> None:
    assert bisect_passing(lambda k: k >= n, 0, 10**12 + 1, integer=True) == n


def test_bisect_refuses_an_unverified_bracket() -> None:
    with pytest.raises(CalibrationError, match="passes at both ends"):
        bisect_passing(lambda x: True, 0.0, 1.0)
    with pytest.raises(CalibrationError, match="fails at both ends"):
        bisect_passing(lambda x: False, 0.0, 1.0)


def test_grow_until() -> None:
    assert grow_until(lambda x: x > 100, 1.0, limit=1e6) == (64.0, 128.0)
    with pytest.raises(CalibrationError, match="no feasible value"):
        grow_until(lambda x: False, 1.0, limit=10.0)


def test_directed_rounding_keeps_an_exact_mpf_value() -> None:
    """1 − 2^-220 computed exactly must round down below 1, not to 1 at 50 digits."""
    import mpmath

    value = mpmath.fsub(1, mpmath.ldexp(1, -220), exact=True)
    assert round_down(value) < 1.0 and round_up(value) == 1.0


def test_regula_falsi_passing_returns_the_evaluated_passing_end() -> None:
    calls = []

    def excess(x: float) -> float:
        calls.append(x)
        return math.exp(x) - 3.0  # passes for x <= ln 3

    x = regula_falsi_passing(excess, 0.0, 5.0, rtol=1e-12)
    assert x in calls and math.exp(x) <= 3.0 and abs(x - math.log(3)) < 1e-11
    assert len(calls) < 30  # superlinear: bisection would need ~42


def test_regula_falsi_passing_with_infinite_excess_and_bad_brackets() -> None:
    x = regula_falsi_passing(lambda x: -math.inf if x >= 1 else 1.0, 0.0, 4.0, rtol=1e-9)
    assert 1.0 <= x <= 1.0 + 2e-9
    with pytest.raises(CalibrationError, match="both ends"):
        regula_falsi_passing(lambda x: -1.0, 0.0, 1.0)
