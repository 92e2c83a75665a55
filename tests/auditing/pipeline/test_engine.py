"""The audit engine: Poisson prefixes of the certification split and their counts."""

from __future__ import annotations

import numpy as np

from dpverify.auditing._pipeline.engine import (
    PREFIX_MIN,
    PREFIX_SIGMAS,
    prefix_sizes,
    run_search_and_count,
    sliced_draw,
)


def test_poisson_prefix_counts_are_the_counts_of_the_first_outputs() -> None:
    """The conditional bound's counts are those of exactly the first ``M`` certification outputs."""
    rng = np.random.default_rng(5)
    first, second = rng.laplace(0.0, 1.0, 60_000), rng.laplace(1.0, 1.0, 60_000)
    counts = run_search_and_count(
        sliced_draw(first, second), samples=60_000, families="threshold",
        targets=(("delta", 0.0),), confidence=0.95, threads=False,
        prefix_rng=np.random.default_rng(1))
    n_search, n = counts.n_search, counts.n_certify
    assert counts.prefix is not None and counts.prefix_mean == n - PREFIX_SIGMAS * n ** 0.5
    for index, candidate in enumerate(counts.candidates):
        for side, outputs in enumerate((first, second)):
            head = outputs[n_search:n_search + counts.prefix[side]]
            assert counts.prefix_counts[index, side] == np.count_nonzero(candidate.event(head))
            assert counts.counts[index, side] == np.count_nonzero(candidate.event(
                outputs[n_search:]))


def test_prefix_sizes() -> None:
    assert prefix_sizes(PREFIX_MIN - 1, np.random.default_rng(0)) == (None, None)
    assert prefix_sizes(10**6, None) == (None, None)
    sizes, mean = prefix_sizes(10**6, np.random.default_rng(0))
    assert mean == 10**6 - 4000 and all(abs(m - mean) < 6 * mean ** 0.5 for m in sizes)
    # a side's M above n: no conditional bound (probability ~3e-5 per side at 4 sigmas)
    draws = [prefix_sizes(1000, np.random.default_rng(s))[0] for s in range(3000)]
    assert 0 <= sum(d is None for d in draws) <= 10
