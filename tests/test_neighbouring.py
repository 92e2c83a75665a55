"""Neighbouring relations."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dpverify import Neighbouring, are_neighbours


@given(st.lists(st.integers(0, 3), min_size=1, max_size=20), st.data())
def test_replacing_one_record_gives_neighbours(data: list[int], draw) -> None:
    i = draw.draw(st.integers(0, len(data) - 1))
    other = list(data)
    other[i] = draw.draw(st.integers(0, 3))
    assert are_neighbours(data, other, Neighbouring.REPLACE)
    assert are_neighbours(data, data[:i] + data[i + 1:], "add-remove")
    assert not are_neighbours(data, data[:i] + data[i + 1:], "replace")


def test_two_changes_are_not_neighbours() -> None:
    assert not are_neighbours([0, 0, 0], [1, 1, 0])
    assert not are_neighbours([0, 0, 0], [0], "add-remove")
    assert not are_neighbours([1, 2, 3], [2, 1], "add-remove")


def test_vector_records() -> None:
    x = [np.array([0.0, 1.0]), np.array([1.0, 1.0])]
    assert are_neighbours(x, [np.array([0.0, 1.0]), np.array([0.5, 0.5])])


def test_bad_relation_and_data() -> None:
    with pytest.raises(ValueError, match="relation='swap' must be one of 'replace', 'add-remove'"):
        are_neighbours([1], [2], "swap")
    with pytest.raises(TypeError, match="x="):
        are_neighbours("abc", [1, 2, 3])
