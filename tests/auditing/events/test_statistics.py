"""The statistics' keys: the block-wise fast paths against the column-by-column reference."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.auditing.events._statistics import KeyCoder, MixedCoder, categorical_columns

ODD_VALUES = np.array([np.nan, np.inf, -np.inf, 0.5, -2.5, 1e300, -1e300, 2.0**60])


def _random_table(rng: np.random.Generator, size: int, lows: np.ndarray, highs: np.ndarray) -> np.ndarray:
    """Integers mostly inside ``[low, high]`` per column, some outside, some odd values."""
    table = rng.integers(lows - 1, highs + 2, (size, len(lows))).astype(np.float64)
    odd = rng.random(table.shape) < 0.03
    table[odd] = rng.choice(ODD_VALUES, int(odd.sum()))
    return table


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    width=st.integers(1, 12),
    offset=st.sampled_from([0, -3, 7, 2**40, -(2**51), 2**52]),
    size=st.integers(1, 300),
    order=st.sampled_from(["C", "F"]),
)
def test_float_keys_equal_the_column_by_column_encoding(
    seed: int, width: int, offset: int, size: int, order: str
) -> None:
    """``KeyCoder(table)`` (block operations on float tables when exact in float64, else
    column by column) == ``encode`` of the columns, NaN, ±inf, non-integers, huge values and
    lows near 2^52 (where the float path must step aside) included."""
    rng = np.random.default_rng(seed)
    lows = rng.integers(-3, 4, width) + offset
    highs = lows + rng.integers(0, 4, width)
    coder = KeyCoder.from_ranges(lows, highs)
    table = np.asarray(_random_table(rng, size, lows.astype(np.float64), highs), order=order)
    expected = coder.encode([table[:, j] for j in range(width)], size)
    assert coder(table).tolist() == expected.tolist()
    if offset == 0:
        assert coder._float_exact  # the fast path is taken for small ranges


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    categories=st.integers(1, 4),
    numbers=st.integers(0, 3),
    size=st.integers(1, 400),
    order=st.sampled_from(["C", "F"]),
)
def test_mixed_keys_by_parts_equal_the_table_encoding(
    seed: int, categories: int, numbers: int, size: int, order: str
) -> None:
    """``MixedCoder(y)`` (categorical block keys plus bin offsets; or, with no numeric
    column, the memoised category keys) == ``inner(table(y))`` on fresh rows, unseen
    categories, odd values and values beyond the fitted bins included."""
    rng = np.random.default_rng(seed)
    width = categories + numbers
    categorical, numeric = tuple(range(categories)), tuple(range(categories, width))
    fitted = np.column_stack([rng.integers(-2, 3, (500, categories)), rng.normal(size=(500, numbers))]).astype(
        np.float64
    )
    cuts = tuple(np.quantile(fitted[:, j], [0.2, 0.5, 0.9]) for j in numeric)
    coder = MixedCoder.fit(fitted, categorical, numeric, cuts)
    fresh = np.column_stack([rng.integers(-3, 4, (size, categories)), rng.normal(size=(size, numbers)) * 3]).astype(
        np.float64
    )
    odd = rng.random(fresh.shape) < 0.03
    fresh[odd] = rng.choice(ODD_VALUES, int(odd.sum()))
    fresh = np.asarray(fresh, order=order)
    assert coder(fresh).tolist() == coder.inner(coder.table(fresh)).tolist()


def test_categorical_columns_prefix_check_keeps_late_non_integers() -> None:
    """A column integral over its first 4096 values but not beyond stays numeric."""
    rng = np.random.default_rng(5)
    late = rng.integers(0, 3, 10_000).astype(np.float64)
    late[9_000] = 0.5
    table = np.column_stack([rng.integers(0, 3, 10_000), late, rng.normal(size=10_000)])
    assert categorical_columns(table.astype(np.float64)) == ((0,), (1, 2))
