"""The one-run guess counts: top-k included counts equal the stable sort of the shuffled scores."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.auditing.scores._guess_counts import FEW_VALUES, top_counts


def _stable_sort_counts(scores: np.ndarray, included: np.ndarray, shuffle: np.ndarray):
    """The reference rule: the stable descending sort of ``scores[shuffle]``, its inclusion prefix sums."""
    order = shuffle[np.argsort(-scores[shuffle], kind="stable")]
    return np.concatenate([[0], np.cumsum(included[order])]), scores[order]


def _check(scores: np.ndarray, included: np.ndarray, shuffle: np.ndarray, sizes: np.ndarray) -> None:
    # the canaries in the order top_counts reads them: the included ones first
    front = np.argsort(~included, kind="stable")
    scores, included = scores[front], included[front]
    shuffle = np.argsort(front)[shuffle]  # the same tie order, on the reordered canaries
    expected, expected_descending = _stable_sort_counts(scores, included, shuffle)
    calls = []

    def shuffle_in_place(codes: np.ndarray) -> None:
        calls.append(codes.size)
        codes[:] = codes[shuffle]

    counts, descending = top_counts(scores[included], scores[~included], shuffle_in_place, sizes)
    assert calls == [scores.size]  # one shuffle of all m codes, whatever the ties
    assert np.array_equal(counts[sizes], expected[sizes])
    assert counts[scores.size] == included.sum()
    assert np.array_equal(descending, expected_descending)
    zeros = scores == 0
    if np.all(np.signbit(scores[zeros])) or not np.any(np.signbit(scores[zeros])):
        assert np.array_equal(np.signbit(descending), np.signbit(expected_descending))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([0.0, -0.0, 1.0, 2.5]) | st.floats(-3, 3), min_size=1, max_size=60),
       st.data())
def test_top_counts_are_the_stable_sorts(scores, data) -> None:
    """top_counts (value blocks or sorted values, the shuffled order only at a tie) gives the
    counts of the stable descending sort of the shuffled scores at every size."""
    scores = np.asarray(scores)
    m = scores.size
    included = np.asarray(data.draw(st.lists(st.booleans(), min_size=m, max_size=m)))
    shuffle = np.asarray(data.draw(st.permutations(range(m))), dtype=np.int64)
    sizes = np.asarray(data.draw(st.lists(st.integers(0, m), min_size=1, max_size=8)))
    _check(scores, included, shuffle, sizes)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, FEW_VALUES + 2), st.integers(65, 3000), st.integers(0, 2**32 - 1),
       st.booleans())
def test_few_valued_and_late_values_at_larger_m(values, m, seed, late) -> None:
    """Discrete scores past the probe (blocks, or a value first seen after it: the sort)."""
    rng = np.random.default_rng(seed)
    scores = rng.integers(0, values, m).astype(float) - 1.0
    if late:
        scores[rng.integers(64, m)] = 0.5  # a value the first 64 scores do not show
    included = rng.random(m) < 0.5
    sizes = np.unique(np.concatenate([rng.integers(0, m + 1, 12), [0, m, m // 2]]))
    _check(scores, included, rng.permutation(m), sizes)


@pytest.mark.parametrize("dtype", [np.int64, np.intp])
@pytest.mark.parametrize("m", [1, 2, 65, 10_000])
def test_shuffling_codes_is_indexing_by_the_permutation(dtype, m) -> None:
    """numpy's Generator.shuffle(x) leaves x[rng.permutation(m)] and the generator state of
    rng.permutation(m): the seeded tie order of top_counts is that of shuffling the canaries'
    indices (the order the counts had before)."""
    codes = np.random.default_rng(0).integers(0, 9, m).astype(dtype)
    first, second = np.random.default_rng(27), np.random.default_rng(27)
    shuffled = codes.copy()
    first.shuffle(shuffled)
    assert np.array_equal(shuffled, codes[second.permutation(m)])
    assert first.bit_generator.state == second.bit_generator.state


def test_many_tied_values() -> None:
    """More tied values than small codes hold (int64 codes then)."""
    rng = np.random.default_rng(5)
    m = 4000
    scores = rng.integers(0, 200, m).astype(float)  # 200 values, about 20 of each
    included = rng.random(m) < 0.5
    _check(scores, included, rng.permutation(m), np.arange(m + 1))
