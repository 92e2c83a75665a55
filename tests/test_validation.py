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
