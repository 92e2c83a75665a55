"""Threshold candidates: the cut grid read from two merged sorted runs."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.auditing.events._candidates import (
    THRESHOLD_CUTS,
    Plan,
    cut_grid,
    grid_positions,
    le_counts,
    pick,
    threshold_candidates,
    threshold_family,
)
from dpverify.auditing.events._statistics import Identity


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    sizes=st.tuples(st.integers(1, 3_000), st.integers(1, 3_000)),
    ties=st.booleans(),
)
def test_threshold_family_equals_the_cut_grid_of_the_pooled_values(seed: int, sizes, ties: bool) -> None:
    """``threshold_family`` (two sorted sides merged by one stable sort) gives the candidates
    of ``cut_grid`` on the pooled values (sorted afresh): same thresholds, counts, scores."""
    rng = np.random.default_rng(seed)
    a, b = (rng.laplace(0.3 * side, 1.0, size) for side, size in enumerate(sizes))
    if ties:
        a, b = a.round(1), b.round(1)
    plan = Plan(sizes[0], 10_000, (("delta", 0.0),), 3.0)
    sa, sb = np.sort(a), np.sort(b)
    cuts = cut_grid(np.concatenate([a, b]), THRESHOLD_CUTS)
    cuts = cuts[np.isfinite(cuts)]
    le = np.stack([le_counts(sa, cuts), le_counts(sb, cuts)], axis=1)
    expected = threshold_candidates(cuts, le, (len(sa), len(sb)), plan, Identity(), "y", "threshold")
    found = threshold_family(a, b, plan)

    def summary(candidates: list) -> list:
        return [(c.first, c.event.low, c.event.high, c.score, c.search_counts) for c in candidates]

    assert found and summary(found) == summary(expected)


def _pick_by_loop(scores: np.ndarray, probabilities: np.ndarray, keep: int) -> list[int]:
    """The reference: :func:`pick` as a loop over the order (its form before issue 26)."""
    import math

    chosen: list[int] = []
    logs = np.log(np.maximum(probabilities, 1e-300)).tolist()
    for index in np.argsort(-scores, kind="stable").tolist():
        if len(chosen) == keep or not math.isfinite(scores[index]):
            break
        row = logs[index]
        if all(max(abs(mine - theirs) for mine, theirs in zip(row, logs[j])) > 0.2
               for j in chosen):
            chosen.append(index)
    return chosen


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    size=st.integers(0, 60),
    keep=st.integers(0, 4),
    specials=st.booleans(),
    coarse=st.booleans(),
)
def test_pick_equals_the_loop_over_the_order(seed: int, size: int, keep: int, specials: bool,
                                             coarse: bool) -> None:
    """The vectorised :func:`pick` chooses the very indices of the loop it replaced: ties in
    score, probabilities within and beyond the 0.2 log-scale margin, zero counts, and
    non-finite scores (the order stops at the first) included."""
    rng = np.random.default_rng(seed)
    scores = rng.normal(size=size).round(1 if coarse else 6)
    if specials and size:
        scores[rng.integers(0, size, 3)] = rng.choice([np.inf, -np.inf, np.nan], 3)
    probabilities = rng.integers(0, 40, (size, 2)) / 40.0
    if coarse:
        probabilities = np.exp(-rng.integers(0, 4, (size, 2)) * 0.1)
    assert pick(scores, probabilities, keep) == _pick_by_loop(scores, probabilities, keep)


def test_grid_positions_are_shared_and_read_only() -> None:
    """The positions are memoised per ``(n, points)``: callers must not (and cannot) edit them."""
    positions = grid_positions(10_000, THRESHOLD_CUTS)
    assert grid_positions(10_000, THRESHOLD_CUTS) is positions
    assert not positions.flags.writeable
    tail = np.geomspace(2.0 / 10_000, 0.5, THRESHOLD_CUTS // 2)
    levels = np.unique(np.concatenate([tail, 1 - tail]))
    assert positions.tolist() == np.minimum((levels * 10_000).astype(np.int64), 9_999).tolist()


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    sizes=st.tuples(st.integers(0, 60), st.integers(0, 60)),
    kind=st.sampled_from(["ties", "continuous", "infinite", "nan"]),
)
def test_merged_order_statistics_are_the_sorted_union_at_the_positions(seed: int, sizes,
                                                                        kind: str) -> None:
    """The bisection over both sorted runs picks the values of the merged sort: ties, ±inf,
    one side empty, and NaN (merged the plain way) included."""
    from dpverify.auditing.events._candidates import merged_order_statistics

    rng = np.random.default_rng(seed)
    sides = [rng.integers(-4, 4, size).astype(float) if kind == "ties" else rng.normal(size=size)
             for size in sizes]
    for side in sides:
        if kind == "infinite" and len(side):
            side[rng.integers(0, len(side), 2)] = [np.inf, -np.inf]
        if kind == "nan" and len(side):
            side[rng.integers(0, len(side))] = np.nan
    first, second = (np.sort(side) for side in sides)
    total = len(first) + len(second)
    positions = np.unique(rng.integers(0, max(total, 1), 12)) if total else np.zeros(0, np.int64)
    expected = np.sort(np.concatenate([first, second]))[positions]
    found = merged_order_statistics(first, second, positions)
    assert found.shape == expected.shape
    assert np.array_equal(found, expected, equal_nan=True)
