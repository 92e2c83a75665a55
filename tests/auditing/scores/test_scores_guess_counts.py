"""The one-run guess counts: exact where no tie crosses a split, the permutation rule's law at ties."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from dpverify.auditing.scores._guess_counts import FEW_VALUES, top_counts


def _stable_sort_counts(scores: np.ndarray, included: np.ndarray, shuffle: np.ndarray):
    """The reference rule: the stable descending sort of ``scores[shuffle]``, its inclusion prefix sums."""
    order = shuffle[np.argsort(-scores[shuffle], kind="stable")]
    return np.concatenate([[0], np.cumsum(included[order])]), scores[order]


def _front(scores: np.ndarray, included: np.ndarray):
    """The canaries in the order top_counts reads them: the included ones first."""
    front = np.argsort(~included, kind="stable")
    return scores[front], included[front]


def _check(scores: np.ndarray, included: np.ndarray, sizes: np.ndarray, seed: int) -> None:
    """Sizes whose split falls between two values: the counts of the stable sort, whatever the
    order; sizes inside a tie: counts between those of the tie's ends, nondecreasing."""
    scores, included = _front(scores, included)
    m = scores.size
    expected, expected_descending = _stable_sort_counts(scores, included, np.arange(m))
    counts, highest = top_counts(scores[included], scores[~included],
                                 np.random.default_rng(seed), sizes)
    descending = np.array([highest(k) for k in range(1, m + 1)])
    assert np.array_equal(descending, expected_descending)
    zeros = scores == 0
    if np.all(np.signbit(scores[zeros])) or not np.any(np.signbit(scores[zeros])):
        assert np.array_equal(np.signbit(descending), np.signbit(expected_descending))
    assert counts[m] == included.sum()
    sizes = np.unique(sizes)
    for k in sizes:
        inside = 0 < k < m and descending[k - 1] == descending[k]
        if not inside:
            assert counts[k] == expected[k]
            continue
        value = descending[k - 1]
        above, equal = np.count_nonzero(scores > value), np.count_nonzero(scores == value)
        low = np.count_nonzero(included & (scores > value))
        high = low + np.count_nonzero(included & (scores == value))
        # at least the included above v, plus as many of the tied as the order allows
        assert max(low, low + (k - above) - (equal - (high - low))) <= counts[k]
        assert counts[k] <= min(high, low + (k - above))
    inner = sizes[(sizes > 0) & (sizes < m)]
    assert np.all(np.diff(counts[inner]) >= 0)
    assert np.all(np.diff(counts[inner]) <= np.diff(inner))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([0.0, -0.0, 1.0, 2.5]) | st.floats(-3, 3), min_size=1, max_size=60),
       st.data())
def test_counts_are_the_stable_sorts_between_values_and_feasible_at_ties(scores, data) -> None:
    """top_counts (value blocks or sorted values; a draw only at a tie across a split)."""
    scores = np.asarray(scores)
    m = scores.size
    included = np.asarray(data.draw(st.lists(st.booleans(), min_size=m, max_size=m)))
    sizes = np.asarray(data.draw(st.lists(st.integers(0, m), min_size=1, max_size=8)))
    _check(scores, included, sizes, data.draw(st.integers(0, 2**32 - 1)))


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
    _check(scores, included, sizes, seed)


def test_many_tied_values() -> None:
    rng = np.random.default_rng(5)
    m = 4000
    scores = rng.integers(0, 200, m).astype(float)  # 200 values, about 20 of each
    _check(scores, rng.random(m) < 0.5, np.arange(m + 1), 5)


def test_seeded_and_untied_scores_draw_nothing() -> None:
    """Same seed, same counts; scores without a tie across a split leave the generator as it was."""
    rng = np.random.default_rng(1)
    scores = (rng.random(500) < 0.5).astype(float)
    included = rng.random(500) < 0.5
    sizes = np.array([10, 100, 250, 400])
    first = top_counts(scores[included], scores[~included], np.random.default_rng(7), sizes)[0]
    again = top_counts(scores[included], scores[~included], np.random.default_rng(7), sizes)[0]
    assert np.array_equal(first, again)
    distinct = rng.permutation(500).astype(float)
    generator = np.random.default_rng(7)
    state = generator.bit_generator.state
    top_counts(distinct[included], distinct[~included], generator, sizes)
    assert generator.bit_generator.state == state


# two tied values across the splits, a value above them: m = 7, so every order can be listed
_SCORES = np.array([2.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0])
_INCLUDED = np.array([True, True, False, True, False, True, False])
_SIZES = np.array([1, 2, 3, 4, 5, 6])


def _permutation_law() -> dict[tuple[int, ...], Fraction]:
    """The exact law of the counts at _SIZES under the stable sort of a uniform order (all 7!)."""
    scores, included = _front(_SCORES, _INCLUDED)
    tally: Counter = Counter()
    for order in itertools.permutations(range(scores.size)):
        counts, _ = _stable_sort_counts(scores, included, np.asarray(order))
        tally[tuple(int(c) for c in counts[_SIZES])] += 1
    total = math.factorial(scores.size)
    return {key: Fraction(count, total) for key, count in tally.items()}


def _hypergeometric_law() -> dict[tuple[int, ...], Fraction]:
    """The law top_counts draws from: per tied value, included counts in the runs between splits
    multivariate hypergeometric (a uniform subset of positions), the values independent."""
    # value 1: 3 scores at ranks 2..4 (2 included), splits inside at k = 2, 3; value 0: 3 scores
    # at ranks 5..7 (1 included), splits inside at k = 5, 6
    law: dict[tuple[int, ...], Fraction] = {}
    for ones in itertools.combinations(range(3), 2):
        for zeros in itertools.combinations(range(3), 1):
            first_ones = [sum(1 for p in ones if p < j) for j in (1, 2)]
            first_zeros = [sum(1 for p in zeros if p < j) for j in (1, 2)]
            key = (1, 1 + first_ones[0], 1 + first_ones[1], 3, 3 + first_zeros[0],
                   3 + first_zeros[1])
            law[key] = law.get(key, Fraction(0)) + Fraction(1, 3 * 3)
    return law


def test_tied_counts_have_the_permutation_rule_law_exactly() -> None:
    """The hypergeometric law of the ties equals the stable sort of a uniform order, exactly
    (all 5040 orders of a 7-canary example with two tied values across splits)."""
    assert _permutation_law() == _hypergeometric_law()


def test_tied_counts_follow_the_law_in_distribution() -> None:
    """χ² goodness of fit of 20,000 draws of top_counts against the exact law above (fixed seed;
    false-failure probability 10⁻⁴ by the test's own level)."""
    law = _permutation_law()
    scores, included = _front(_SCORES, _INCLUDED)
    rng = np.random.default_rng(2027)
    draws = Counter(tuple(int(c) for c in top_counts(scores[included], scores[~included], rng,
                                                      _SIZES)[0][_SIZES])
                    for _ in range(20_000))
    assert set(draws) <= set(law)
    keys = sorted(law)
    observed = np.array([draws.get(key, 0) for key in keys])
    expected = np.array([float(law[key]) for key in keys]) * 20_000
    assert stats.chisquare(observed, expected).pvalue > 1e-4


@pytest.mark.parametrize("m", [2, 65, 10_000])
def test_a_single_split_inside_a_tie_is_hypergeometric(m) -> None:
    """All scores tied, one split at k: the included among the top k are Hypergeometric(m, a, k):
    its support, and its mean within 5 standard errors over 4000 draws (fixed seed; false
    failure below 10⁻⁵)."""
    rng = np.random.default_rng(m)
    included = rng.random(m) < 0.3
    included[0] = True
    scores = np.zeros(m)
    k = max(1, m // 3)
    a = int(included.sum())
    front_scores, front_included = _front(scores, included)
    draws = np.array([top_counts(front_scores[front_included], front_scores[~front_included],
                                 rng, np.array([k]))[0][k] for _ in range(4000)])
    assert np.all((draws >= max(0, k - (m - a))) & (draws <= min(a, k)))
    mean = k * a / m
    variance = mean * (1 - a / m) * (m - k) / max(m - 1, 1)
    assert abs(draws.mean() - mean) <= 5 * math.sqrt(variance / 4000) + 1e-12


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(70, 2000))
def test_blocks_and_sort_draw_the_same(seed, m) -> None:
    """The value blocks and the sorted path resolve the same ties with the same draws (highest
    tied value first), so a seed gives the same counts whichever path the scores take."""
    from dpverify.auditing.scores import _guess_counts

    rng = np.random.default_rng(seed)
    scores = rng.integers(0, 4, m).astype(float)
    included = rng.random(m) < 0.5
    sizes = rng.integers(0, m + 1, 10)
    fast = top_counts(scores[included], scores[~included], np.random.default_rng(seed), sizes)[0]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_guess_counts, "_value_blocks", lambda *_: None)
        sorted_ = top_counts(scores[included], scores[~included], np.random.default_rng(seed),
                             sizes)[0]
    assert np.array_equal(fast[sizes], sorted_[sizes])
