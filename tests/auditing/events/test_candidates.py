"""Threshold candidates: the cut grid read from two merged sorted runs."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.auditing.events._candidates import (
    THRESHOLD_CUTS,
    Plan,
    cut_grid,
    le_counts,
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
