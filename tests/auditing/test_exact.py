"""Exact audits of finite pmfs."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.auditing.exact import exact_delta, exact_epsilon
from dpverify.mechanisms.randomized_response import BinaryRandomizedResponse, RandomizedResponse


@given(st.floats(min_value=1e-6, max_value=1.0))
def test_binary_rr_is_exactly_log_of_its_ratio(p: float) -> None:
    rr = BinaryRandomizedResponse(p)
    value = exact_epsilon(rr.law_on(0).probabilities, rr.law_on(1).probabilities)
    with mpmath.workdps(60):
        truth = mpmath.log((2 - mpmath.mpf(p)) / mpmath.mpf(p))
    assert truth <= value <= float(truth) * (1 + 4e-16) + 1e-300


def test_k_ary_rr() -> None:
    rr = RandomizedResponse(5, 1.25)
    assert exact_epsilon(rr.law_on(0).probabilities, rr.law_on(3).probabilities) == \
        pytest.approx(1.25, rel=1e-15)


def test_support_mismatch_is_infinite_and_dicts_align() -> None:
    assert exact_epsilon({"a": 0.5, "b": 0.5}, {"a": 1.0}) == math.inf
    assert exact_epsilon({"a": Fraction(1, 2), "b": Fraction(1, 2)},
                         {"b": Fraction(1, 4), "a": Fraction(3, 4)}) == pytest.approx(
        math.log(2), rel=1e-15)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.floats(min_value=0.01, max_value=1.0), min_size=2, max_size=6),
       st.floats(min_value=1e-4, max_value=0.3))
def test_delta_and_epsilon_are_inverse(weights: list[float], delta: float) -> None:
    p = [w / sum(weights) for w in weights]
    q = list(reversed(p))
    epsilon = exact_epsilon(p, q, delta=delta)
    if epsilon > 0:
        assert exact_delta(p, q, epsilon=epsilon) <= delta * (1 + 1e-9)
        assert exact_delta(p, q, epsilon=epsilon * (1 - 1e-6) - 1e-12) >= delta * (1 - 1e-6)


def test_epsilon_decreases_with_delta() -> None:
    p, q = [0.6, 0.3, 0.1], [0.1, 0.3, 0.6]
    values = [exact_epsilon(p, q, delta=d) for d in (0.0, 0.01, 0.1, 0.4)]
    assert values == sorted(values, reverse=True) and values[0] == pytest.approx(math.log(6))


def test_bad_pmfs_are_refused_by_name() -> None:
    with pytest.raises(ValueError, match="pmf_prime="):
        exact_epsilon([0.5, 0.5], [1.0])
    with pytest.raises(ValueError, match="pmf="):
        exact_epsilon([0.5, 0.6], [0.5, 0.5])
