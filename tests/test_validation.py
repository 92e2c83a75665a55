"""The shared argument checks: NaN-safe, uniform messages naming the parameter."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dpverify import _validation as v
from dpverify.errors import DpverifyError


@pytest.mark.parametrize("bad", [math.nan, -1.0, math.inf, -math.inf])
def test_check_epsilon_rejects(bad: float) -> None:
    with pytest.raises(ValueError, match=r"^epsilon=.* must be in \[0, inf\)$"):
        v.check_epsilon(bad)


@pytest.mark.parametrize("bad", ["1", None, True, [1.0]])
def test_wrong_kind_is_a_type_error(bad: object) -> None:
    with pytest.raises(TypeError, match="epsilon="):
        v.check_epsilon(bad)


@pytest.mark.parametrize("bad", [math.nan, -1e-12, 1.0, 2.0, math.inf])
def test_check_delta_rejects(bad: float) -> None:
    with pytest.raises(ValueError, match=r"delta=.* must be in \[0, 1\)"):
        v.check_delta(bad)


def test_check_delta_positive_mentions_pure_dp() -> None:
    with pytest.raises(ValueError, match=r"in \(0, 1\); pure DP"):
        v.check_delta(0.0, allow_zero=False)


def test_errors_are_dpverify_errors_and_builtins() -> None:
    with pytest.raises(DpverifyError):
        v.check_positive(-1, "sigma")
    with pytest.raises(ValueError, match=r"sigma=-1 must be in \(0, inf\)"):
        v.check_positive(-1, "sigma")


@pytest.mark.parametrize("value, expected", [(3, 3), (1e3, 1000), (np.int64(7), 7)])
def test_check_positive_int_accepts(value: object, expected: int) -> None:
    assert v.check_positive_int(value, "k") == expected


@pytest.mark.parametrize("bad", [0, -3, 1.5, math.nan, math.inf])
def test_check_positive_int_rejects(bad: object) -> None:
    with pytest.raises(ValueError, match=r"k=.* must be an integer >= 1"):
        v.check_positive_int(bad, "k")


def test_check_probability_open_ends() -> None:
    assert v.check_probability(0.0, "q") == 0.0
    with pytest.raises(ValueError, match=r"q=0.0 must be in \(0, 1\]"):
        v.check_probability(0.0, "q", open_low=True)


def test_check_choice_lists_options() -> None:
    with pytest.raises(ValueError, match=r"method='fft' must be one of 'pld', 'rdp'"):
        v.check_choice("fft", "method", ("pld", "rdp"))


def test_check_increasing_sequence() -> None:
    assert v.check_increasing_sequence([1.5, 2, 3], "orders", low=1.0) == (1.5, 2.0, 3.0)
    with pytest.raises(ValueError, match="strictly increasing"):
        v.check_increasing_sequence([2, 2], "orders", low=1.0)
    with pytest.raises(ValueError, match=r"orders\[0\]=1 must be > 1.0"):
        v.check_increasing_sequence([1, 2], "orders", low=1.0)
    with pytest.raises(ValueError, match="non-empty"):
        v.check_increasing_sequence([], "orders", low=1.0)


@given(st.floats(allow_nan=True, allow_infinity=True))
def test_check_epsilon_accepts_exactly_the_valid_range(x: float) -> None:
    if math.isfinite(x) and x >= 0:
        assert v.check_epsilon(x) == x
    else:
        with pytest.raises(ValueError):
            v.check_epsilon(x)


# --- confidence: the probability that a stated bound holds ---------------------------------------

def _sampler(x, size, rng):  # noqa: ANN001, ANN202 - a trivial audited mechanism
    return rng.normal(x, 1.0, size)


def _confidence_entry_points():
    from dpverify import auditing
    from dpverify.testing import assert_satisfies

    return {
        "audit": lambda c: auditing.audit(_sampler, 0.0, 1.0, epsilon=1.0, samples=1000,
                                          confidence=c),
        "audit_curve": lambda c: auditing.audit_curve(_sampler, 0.0, 1.0, profile=lambda e: 0.0,
                                                      epsilons=[1.0], samples=1000, confidence=c),
        "audit_model": lambda c: auditing.audit_model(_sampler, 0.0, 1.0, family="gaussian",
                                                      epsilon=1.0, samples=1000, confidence=c),
        "audit_search": lambda c: auditing.audit_search(_sampler, [(0.0, 1.0)], epsilon=1.0,
                                                        samples=1000, confidence=c),
        "clopper_pearson": lambda c: auditing.clopper_pearson(5, 10, confidence=c),
        "hockey_stick_lower_bound": lambda c: auditing.hockey_stick_lower_bound(
            np.zeros(10), np.ones(10), epsilon=1.0, confidence=c),
        "largest_certifiable_epsilon": lambda c: auditing.largest_certifiable_epsilon(
            10, confidence=c),
        "samples_to_certify": lambda c: auditing.samples_to_certify(0.5, 2.0, epsilon=1.0,
                                                                    confidence=c),
        "assert_satisfies": lambda c: assert_satisfies(_sampler, 0.0, 1.0, epsilon=1.0,
                                                       samples=1000, confidence=c),
    }


def test_check_confidence_takes_the_probability_that_the_bound_holds() -> None:
    assert v.check_confidence(0.5) == 0.5 and v.check_confidence(0.999999) == 0.999999
    with pytest.raises(ValueError, match=r"confidence=0\.05 must be in \[0\.5, 1\) \(the "
                                         r"probability that the bound holds\); for the "
                                         r"probability that it fails, use failure_probability"):
        v.check_confidence(0.05)
    for bad in (1.0, 0.0, math.nan, 1.5):
        with pytest.raises(ValueError, match="confidence"):
            v.check_confidence(bad)


@pytest.mark.parametrize("name", sorted(_confidence_entry_points()))
def test_a_failure_probability_passed_as_confidence_is_refused_with_the_hint(name: str) -> None:
    with pytest.raises(ValueError, match=r"confidence=0\.05 must be in \[0\.5, 1\).*"
                                         r"use failure_probability"):
        _confidence_entry_points()[name](0.05)
