"""Tests of dpverify.accountants.calibrate._search: verified passing ends, bounded searches."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.accountants.calibrate._search import (
    MAX_EVALUATIONS,
    NOISE_RANGE,
    root_passing,
    smallest_passing,
)
from dpverify.errors import CalibrationError


def _recording(excess):
    seen: dict[float, float] = {}

    def wrapped(level: float) -> float:
        seen[level] = excess(level)
        return seen[level]

    return wrapped, seen


@settings(max_examples=60, deadline=None)
@given(st.floats(1e-3, 1e6), st.floats(1e-3, 1e6), st.sampled_from([1e-4, 1e-9]),
       st.sampled_from([0.5, 1.0, 3.0]))
def test_root_passing_returns_an_evaluated_passing_end_next_to_an_evaluated_failure(
        root, start, rtol, power):
    """excess(s) = (root/s)^power − 1: passes exactly from ``root`` up."""
    excess, seen = _recording(lambda s: (root / s) ** power - 1)
    level = root_passing(excess, start, rtol=rtol)
    assert level in seen and seen[level] <= 0
    assert any(level / (1 + rtol) <= other < level and value > 0 for other, value in seen.items())
    assert root * (1 - 1e-12) <= level <= root * (1 + rtol) * (1 + 1e-12)


def test_root_passing_ignores_the_root_finder_and_trusts_only_evaluations():
    """A step function (toms748 sees no slope) and infinite values (no finite ε) still end in a
    verified bracket."""
    excess, seen = _recording(lambda s: math.inf if s < 2.0 else (1.0 if s < 3.0 else -1.0))
    level = root_passing(excess, 1.0, rtol=1e-6)
    assert 3.0 <= level <= 3.0 * (1 + 1e-6) and seen[level] <= 0


@pytest.mark.parametrize("always", [1.0, -1.0])
def test_searches_are_bounded_and_refuse_naming_the_request(always):
    """Never passing (or always passing) sends the bracket out of NOISE_RANGE: refused."""
    calls = []

    def excess(level: float) -> float:
        calls.append(level)
        return always

    with pytest.raises(CalibrationError, match="epsilon=1.0"):
        root_passing(excess, 1.0, rtol=1e-4, described="epsilon=1.0")
    assert len(calls) <= MAX_EVALUATIONS
    assert all(NOISE_RANGE[0] < level < NOISE_RANGE[1] for level in calls)
    with pytest.raises(CalibrationError, match="epsilon=1.0"):
        smallest_passing(lambda level: always < 0, 1.0, rtol=1e-4, described="epsilon=1.0")


def test_the_evaluation_cap_refuses():
    with pytest.raises(CalibrationError, match="q=0.5"):
        root_passing(lambda level: 1.0, 1.0, rtol=1e-4, described="q=0.5", max_evaluations=5)
