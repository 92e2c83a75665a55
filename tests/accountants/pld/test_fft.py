"""The FFT length of a composition (``pld/_fft.py``): ``next_smooth`` is scipy's ``next_fast_len``."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.accountants.pld._fft import fft_length, next_smooth


def _smooth(n: int) -> bool:
    for prime in (2, 3, 5):
        while n % prime == 0:
            n //= prime
    return n == 1


def test_next_smooth_is_the_smallest_5_smooth_number_at_or_above_the_target():
    """Exhaustively for 1..5000, by the definition (no smooth number is skipped)."""
    expected = 1
    for target in range(1, 5001):
        while not _smooth(expected) or expected < target:
            expected += 1
        assert next_smooth(target) == expected, target


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 2**45))
def test_next_smooth_is_scipys_next_fast_len_for_real_transforms(target):
    scipy_fft = pytest.importorskip("scipy.fft")
    assert next_smooth(target) == scipy_fft.next_fast_len(target, real=True)


@pytest.mark.parametrize("points, length", [(1, 2), (2, 2), (3, 4), (43413, 43740), (39600, 40000)])
def test_fft_length_is_even_and_5_smooth(points, length):
    assert fft_length(points) == length
    assert length % 2 == 0 and _smooth(length) and length >= points
