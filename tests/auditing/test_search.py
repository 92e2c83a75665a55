"""Worst-pair search: StatDP patterns, the pilot/certify split, and its family-wise false-alarm rate."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from dpverify.auditing.search import InputPair, SearchReport, audit_search, query_vector_patterns
from dpverify.neighbouring import are_neighbours  # noqa: F401  (the relation lives beside the patterns)


def svt_without_cutoff(queries, size, rng):
    """Lyu, Su & Li 2017, Alg. 6 with ε = 1: answers every query (not 1-DP)."""
    threshold = 0.5 + rng.laplace(0.0, 2.0, (size, 1))
    return np.asarray(queries) + rng.laplace(0.0, 2.0, (size, len(queries))) >= threshold


@pytest.mark.parametrize("length", [1, 2, 5, 10])
@pytest.mark.parametrize("norm", ["linf", "l1"])
def test_patterns_are_neighbours_under_their_norm(length: int, norm: str) -> None:
    patterns = query_vector_patterns(length, sensitivity=0.5, norm=norm)
    assert patterns and all(p.x.shape == p.x_prime.shape == (length,) for p in patterns)
    for pattern in patterns:
        change = np.abs(pattern.x - pattern.x_prime)
        size = change.max() if norm == "linf" else change.sum()
        assert 0 < size <= 0.5 + 1e-12, pattern
    assert len({p.name for p in patterns}) == len(patterns)


def test_statdp_patterns_by_name() -> None:
    named = {p.name: p for p in query_vector_patterns(4)}
    assert named["one above rest below"].x_prime.tolist() == [2, 0, 0, 0]
    assert named["one below rest above"].x_prime.tolist() == [0, 2, 2, 2]
    assert (named["X shape"].x.tolist(), named["X shape"].x_prime.tolist()) == (
        [1, 1, 0, 0], [0, 0, 1, 1])


@pytest.mark.slow
def test_the_search_finds_the_svt_violation_that_one_moved_query_misses() -> None:
    one_moved = audit_search(svt_without_cutoff, [query_vector_patterns(6)[0]], epsilon=1.0,
                             samples=200_000, seed=3)
    found = audit_search(svt_without_cutoff, query_vector_patterns(6), epsilon=1.0,
                         samples=200_000, seed=3)
    assert not one_moved.violation
    assert found.violation and found.pair.name in ("X shape", "half half", "one below rest above",
                                                     "one above rest below")
    assert isinstance(found, SearchReport) and found.certified == (found.pairs.index(found.pair),)
    assert found.to_dict()["report"]["violation"] is True and "chosen pair" in str(found)


@pytest.mark.slow
def test_certifying_several_pairs_splits_the_confidence() -> None:
    found = audit_search(svt_without_cutoff, query_vector_patterns(6), epsilon=1.0,
                         samples=100_000, certify_top=3, seed=4)
    assert len(found.certified) == 3
    assert found.report.confidence == pytest.approx(1 - 0.05 / 3)


def test_pairs_may_be_plain_tuples() -> None:
    laplace = lambda d, n, rng: d + rng.laplace(0.0, 0.5, n)  # noqa: E731
    found = audit_search(laplace, [(0.0, 0.1), (0.0, 1.0)], epsilon=1.0, samples=100_000, seed=5)
    assert found.violation and (found.pair.x, found.pair.x_prime, found.pair.name) == (
        0.0, 1.0, "pair 1")
    assert isinstance(found.pair, InputPair)


@pytest.mark.parametrize("pairs, error", [([], TypeError), ("ab", TypeError), ([(1,)], TypeError),
                                          ([(0, 1)] * 1001, ValueError)])
def test_bad_pairs(pairs, error) -> None:
    with pytest.raises(error, match="pairs"):
        audit_search(lambda d, n, rng: rng.random(n), pairs, epsilon=1.0)


AUDITS, RATE, FAILURE = 200, 0.05, 1e-3
CRITICAL = int(stats.binom.isf(FAILURE, AUDITS, RATE)) + 1


@pytest.mark.slow
def test_search_false_alarms_are_at_most_five_percent() -> None:
    """200 searches over pairs of a correct mechanism whose worst pair is tight (true ε = claim).

    Laplace(1) on (0, 1) is exactly 1-DP; the other pairs are less private
    than nothing (ε < 1). A search that reused its pilot to certify would pick
    the luckiest pair and exceed 5%; one-sided binomial test at level 1e-3.
    """
    laplace = lambda d, n, rng: d + rng.laplace(0.0, 1.0, n)  # noqa: E731
    pairs = [(0.0, 1.0), (1.0, 0.0), (0.0, 0.9), (0.5, 1.5)]
    seeds = np.random.SeedSequence(99).spawn(AUDITS)
    violations = sum(audit_search(laplace, pairs, epsilon=1.0, samples=5_000, pilot_samples=1_000,
                                  seed=seed).violation for seed in seeds)
    assert violations < CRITICAL, f"{violations} false alarms in {AUDITS} searches"


@pytest.mark.slow
def test_samples_auto_certifies_the_chosen_pair_sequentially() -> None:
    found = audit_search(svt_without_cutoff, query_vector_patterns(6), epsilon=1.0,
                         samples="auto", max_samples=2_000_000, seed=3)
    assert found.violation and found.report.mode == "sequential"
    assert found.report.samples <= 2_000_000 and found.pilot_samples == 20_000
    assert found.report.confidence == pytest.approx(0.95)


@pytest.mark.parametrize("kwargs, name", [({"samples": 100_000, "max_samples": 10 ** 6},
                                           "max_samples"),
                                          ({"samples": "auto", "max_samples": 5}, "max_samples"),
                                          ({"samples": "auto", "max_samples": 10 ** 5,
                                            "pilot_samples": 200_000}, "pilot_samples")])
def test_bad_sequential_search_arguments(kwargs, name) -> None:
    with pytest.raises(ValueError, match=name):
        audit_search(lambda d, n, rng: rng.random(n), [(0, 1)], epsilon=1.0, **kwargs)


@pytest.mark.slow
def test_sequential_search_false_alarms_are_at_most_five_percent() -> None:
    """As above with samples="auto": the pilot's choice, then doubling stages on fresh samples."""
    laplace = lambda d, n, rng: d + rng.laplace(0.0, 1.0, n)  # noqa: E731
    pairs = [(0.0, 1.0), (1.0, 0.0), (0.0, 0.9), (0.5, 1.5)]
    seeds = np.random.SeedSequence(98).spawn(AUDITS)
    violations = sum(audit_search(laplace, pairs, epsilon=1.0, samples="auto", max_samples=40_000,
                                  pilot_samples=1_000, seed=seed, threads=False).violation
                     for seed in seeds)
    assert violations < CRITICAL, f"{violations} false alarms in {AUDITS} searches"
