"""The sentinel view and its event family (sparse vectors that release the values of their ⊤)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from dpverify.auditing import audit
from dpverify.auditing.events import search_events
from dpverify.auditing.events._candidates import Plan
from dpverify.auditing.events._sentinel_families import SentinelView, Viewed, sentinel_family
from dpverify.auditing.events._statistics import CategoryValue, KeyCoder

Z = 3.0  # normal quantile used for scoring in these tests
BOTTOM, ABORTED = -1000.0, -2000.0


def svt3_like(data, size, rng, epsilon: float = 1.0):
    """Lyu, Su & Li 2017, Alg. 3 with c = 1, T = 0: the noisy answer of the first ⊤ is released.

    Each column is ⊥ (−1000), the released value at the ⊤, or aborted (−2000) after it.
    """
    queries = np.asarray(data, float)
    rho = rng.laplace(0.0, 2 / epsilon, (size, 1))
    noisy = queries + rng.laplace(0.0, 2 / epsilon, (size, len(queries)))
    above = noisy >= rho
    aborted = np.concatenate([np.zeros((size, 1), bool), np.cumsum(above, axis=1)[:, :-1] >= 1],
                             axis=1)
    return np.where(aborted, ABORTED, np.where(above, noisy, BOTTOM))


def test_view_codes_values_and_fill() -> None:
    view = SentinelView((0, 1, 2), ((ABORTED, BOTTOM),) * 3, (0, 1, 2), 2)
    table = np.array([[BOTTOM, 3.5, ABORTED],
                      [ABORTED, ABORTED, ABORTED],
                      [1.0, -2.0, 7.0]])
    assert view.codes(table).tolist() == [[1, 2, 0], [0, 0, 0], [2, 2, 2]]
    values, present = view.values(table)
    assert values.tolist() == [[3.5, 0.0], [0.0, 0.0], [1.0, -2.0]]     # first two, 0 if absent
    assert present.tolist() == [[True, False], [False, False], [True, True]]
    assert view(table).shape == (3, view.width) == (3, 5)


def test_view_is_fitted_on_the_numeric_columns_with_recurring_values() -> None:
    rng = np.random.default_rng(2)
    outputs = svt3_like(np.zeros(4), 20_000, rng)
    category = rng.integers(-1, 2, (20_000, 1)).astype(float)      # a categorical column
    plain = rng.normal(0.0, 1.0, (20_000, 1))                      # a numeric one, no sentinel
    view = SentinelView.fit(np.concatenate([outputs, category, plain], axis=1))
    assert view.columns == (0, 1, 2, 3)                  # not the categorical or plain column
    assert view.numeric == (0, 1, 2, 3, 5)
    assert view.sentinels[1] == (ABORTED, BOTTOM)
    assert SentinelView.fit(rng.normal(0.0, 1.0, (1000, 3))) is None


@st.composite
def sentinel_tables(draw):
    width = draw(st.integers(1, 5))
    cells = st.one_of(st.sampled_from([BOTTOM, ABORTED]),
                      st.floats(-50, 50, allow_nan=False).filter(lambda v: v not in (BOTTOM,
                                                                                        ABORTED)))
    table = draw(st.lists(st.lists(cells, min_size=width, max_size=width), min_size=1,
                          max_size=8))
    return np.array(table, dtype=np.float64)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(table=sentinel_tables(), fields=st.integers(1, 4))
def test_view_matches_a_row_by_row_reading(table: np.ndarray, fields: int) -> None:
    width = table.shape[1]
    view = SentinelView(tuple(range(width)), ((ABORTED, BOTTOM),) * width, tuple(range(width)),
                        fields)
    viewed = view(table)
    for row, result in zip(table, viewed):
        codes = [0 if v == ABORTED else 1 if v == BOTTOM else 2 for v in row]
        plain = [v for v in row if v not in (ABORTED, BOTTOM)][:fields]
        assert result[:width].tolist() == codes
        assert result[width:].tolist() == plain + [0.0] * (fields - len(plain))
    presence = [[field < len([v for v in row if v not in (ABORTED, BOTTOM)])
                 for field in range(fields)] for row in table]
    assert view.present(viewed).tolist() == presence == view.values(table)[1].tolist()
    # a statistic of the view, applied to raw rows, is the inner statistic of the viewed rows
    patterns = KeyCoder(np.zeros(width, np.int64), np.full(width, 3, np.int64),
                        3 ** np.arange(width, dtype=np.int64))
    inner = CategoryValue(patterns, tuple(range(width)), width, 0, -np.inf)
    composed = Viewed(inner, view, "value 1 given the first pattern")
    assert np.array_equal(composed(table), inner(viewed))


@pytest.mark.slow
def test_search_on_an_svt3_like_sampler_picks_values_within_patterns() -> None:
    rng = np.random.default_rng(7)
    x, x_prime = np.zeros(5), np.ones(5)
    a, b = svt3_like(x, 60_000, rng), svt3_like(x_prime, 60_000, rng)
    found = sentinel_family(a, b, Plan(60_000, 100_000, (("delta", 0.0),), Z))
    assert found and {c.event.family for c in found} == {"sentinel"}
    assert any("pattern (-1000,-1000,-1000,-1000,v)" in c.event.description for c in found)
    chosen = search_events(a, b, families="sentinel", certify_samples=100_000,
                           targets=[("delta", 0.0)], normal_quantile=Z)
    assert chosen and all(c.event.family == "sentinel" for c in chosen)
    # every event is a function of the raw output: evaluating it needs nothing but the rows
    for candidate in found:
        assert candidate.event(a).shape == (len(a),)


@pytest.mark.slow
def test_svt3_like_gets_a_higher_bound_than_the_classifier_alone() -> None:
    """Alg. 3 "all above" at claimed ε = 1, 200,000 samples per side: the classifier family
    certifies 1.37, the sentinel family 1.63 (seed 1), ⊤ at the last query with a low value."""
    x, x_prime = np.zeros(5), np.ones(5)
    kwargs = dict(epsilon=1.0, samples=200_000, seed=1)
    classifier = audit(svt3_like, x, x_prime, events="classifier", **kwargs)
    report = audit(svt3_like, x, x_prime, **kwargs)
    assert report.violation and report.event.family == "sentinel"
    assert report.epsilon_lower_bound > classifier.epsilon_lower_bound + 0.1


def tight_sentinel(data, size, rng):
    """x + Lap(1) released with probability 0.7, else the sentinel −1000; a noise column beside
    with the same sentinel: exactly 1-DP on x ∈ {0, 1}."""
    value = np.where(rng.random(size) < 0.7, data + rng.laplace(0.0, 1.0, size), BOTTOM)
    noise = np.where(rng.random(size) < 0.5, BOTTOM, rng.laplace(0.0, 1.0, size))
    return np.column_stack([value, noise])


AUDITS, RATE, FAILURE = 60, 0.05, 1e-3
CRITICAL = int(stats.binom.isf(FAILURE, AUDITS, RATE)) + 1


@pytest.mark.slow
def test_sentinel_family_false_alarms_are_at_most_five_percent() -> None:
    """60 tight audits (claim = true ε = 1) of a sentinel output, sentinel events only,
    confidence 0.95: one-sided binomial test of "violation rate <= 5%" at level 1e-3."""
    seeds = np.random.SeedSequence(41).spawn(AUDITS)
    reports = [audit(tight_sentinel, 0, 1, epsilon=1.0, samples=6_000, confidence=0.95,
                     seed=seed, events="sentinel") for seed in seeds]
    violations = sum(r.violation for r in reports)
    assert violations < CRITICAL, f"{violations} false alarms in {AUDITS} audits"
    assert np.median([r.epsilon_lower_bound for r in reports]) > 0.3  # not vacuous


@pytest.mark.slow
def test_categorical_columns_alone_beside_sentinel_columns() -> None:
    """SVT3 beside a leaking category (ε = 2 alone): the categorical top-k sets find it."""
    def sampler(data, size, rng):
        flip = rng.random(size) < (np.e ** 2 if data else 1.0) / (1 + np.e ** 2)
        return np.column_stack([svt3_like(np.zeros(3), size, rng), flip.astype(float),
                                rng.integers(0, 3, size)])

    report = audit(sampler, 0, 1, epsilon=1.0, samples=200_000, seed=1, events="sentinel")
    assert report.violation and "categorical columns" in report.event.description


def test_last_result_memoises_per_array_object_and_thread() -> None:
    """A hit only for the very same live array and owner; other arrays and threads recompute."""
    import threading

    from dpverify.auditing.events._statistics import last_result

    calls = []

    def compute(values):
        calls.append(1)
        return values * 2

    owner = object()
    first = np.arange(5.0)
    result = last_result(owner, "double", first, lambda: compute(first))
    assert last_result(owner, "double", first, lambda: compute(first)) is result
    assert not result.flags.writeable and len(calls) == 1
    copy = first.copy()  # equal values, another object: recomputed
    assert last_result(owner, "double", copy, lambda: compute(copy)).tolist() == result.tolist()
    assert len(calls) == 2
    assert last_result(object(), "double", copy, lambda: compute(copy)) is not None
    assert len(calls) == 3  # another owner
    seen = []
    worker = threading.Thread(target=lambda: seen.append(
        last_result(owner, "double", copy, lambda: compute(copy))))
    worker.start()
    worker.join()
    assert len(calls) == 4 and seen[0].tolist() == (copy * 2).tolist()  # per-thread memo


def test_mixed_keys_computed_column_by_column_equal_the_table_path() -> None:
    """``MixedCoder(y)`` (no table built) == ``KeyCoder(table(y))``, unseen and odd values included."""
    from dpverify.auditing.events._statistics import MixedCoder

    rng = np.random.default_rng(12)
    pooled = np.column_stack([rng.integers(0, 4, 5_000), rng.normal(size=5_000),
                              rng.integers(-2, 2, 5_000), rng.normal(size=5_000)]).astype(float)
    cuts = (np.quantile(pooled[:, 1], [0.25, 0.5, 0.75]), np.quantile(pooled[:, 3], [0.5]))
    coder = MixedCoder.fit(pooled, (0, 2), (1, 3), cuts)
    fresh = np.column_stack([rng.integers(-1, 6, 3_000), rng.normal(size=3_000) * 3,
                             rng.integers(-3, 3, 3_000), rng.normal(size=3_000)]).astype(float)
    fresh[::7, 0] = 1.5
    fresh[::11, 2] = np.nan
    fresh[::13, 0] = np.inf
    expected = coder.inner(coder.table(fresh))
    assert (coder(fresh) == expected).all() and (expected == -1).any()
    integers = fresh[:, [0, 2]].copy()
    integers[~np.isfinite(integers) | (integers != np.floor(integers))] = 9
    ints = MixedCoder.fit(integers.astype(np.int64), (0, 1), (), ())
    assert (ints(integers.astype(np.int64)) == ints.inner(ints.table(integers.astype(np.int64)))).all()


@pytest.mark.parametrize("fill", [-np.inf, np.inf])
def test_within_pattern_thresholds_equal_the_threshold_family_on_filled_values(fill) -> None:
    """The shortcut (sorted values inside the pattern only) gives threshold_family's candidates."""
    from dpverify.auditing.events._candidates import threshold_family
    from dpverify.auditing.events._sentinel_families import _pattern_thresholds

    rng = np.random.default_rng(21)
    sizes = (30_000, 27_000)
    values = [rng.laplace(0.3 * side, 1.0, size).round(2) for side, size in enumerate(sizes)]
    mine = [rng.random(size) < 0.04 for size in sizes]  # the pattern: a few % of the rows
    plan = Plan(sizes[0], 100_000, (("delta", 0.0),), Z)
    coder = KeyCoder(np.zeros(1, np.int64), np.ones(1, np.int64), np.ones(1, np.int64))
    statistic = CategoryValue(coder, (0,), 1, 0, fill)
    filled = [np.where(m, v, fill) for m, v in zip(mine, values)]
    expected = threshold_family(filled[0], filled[1], plan, name="v", family="sentinel")
    inside = tuple(np.sort(v[m]) for m, v in zip(mine, values))
    found = _pattern_thresholds(inside, sizes, fill, plan, statistic, "v")
    assert found and [(c.first, c.event.low, c.event.high, c.score, c.search_counts)
                      for c in found] == [(c.first, c.event.low, c.event.high, c.score,
                                           c.search_counts) for c in expected]


def test_mixed_coder_fitted_from_column_ranges_equals_the_table_path() -> None:
    """``MixedCoder.fit_parts`` (ranges, nothing concatenated) == ``KeyCoder.fit(table)``."""
    from dpverify.auditing.events._statistics import MixedCoder

    rng = np.random.default_rng(22)
    parts = [np.column_stack([rng.integers(-2, 5, n), rng.normal(size=n),
                              rng.integers(0, 3, n), rng.normal(size=n)]).astype(float)
             for n in (4_000, 3_000)]
    cuts = (np.quantile(parts[0][:, 1], [0.2, 0.5, 0.9]), np.array([-3.0, 0.0]))
    fitted = MixedCoder.fit_parts(parts, (0, 2), (1, 3), cuts)
    blank = MixedCoder((0, 2), (1, 3), cuts, fitted.inner)
    reference = KeyCoder.fit(blank.table(np.concatenate(parts)))
    for name in ("lows", "spans", "strides"):
        assert getattr(fitted.inner, name).tolist() == getattr(reference, name).tolist()


def test_key_coder_sends_non_integral_infinite_and_huge_values_to_unseen() -> None:
    coder = KeyCoder.fit(np.array([[0.0, -2.0], [3.0, 1.0]]))
    table = np.array([[1.0, 0.0], [np.inf, 0.0], [-np.inf, 0.0], [np.nan, 0.0], [1e300, 0.0],
                      [1.5, 0.0], [2.0, -np.inf], [4.0, 0.0], [3.0, 1.0]])
    assert coder(table).tolist() == [9, -1, -1, -1, -1, -1, -1, -1, 15]


def _reference_view(view: SentinelView, table: np.ndarray) -> np.ndarray:
    """The view read row by row: each flagged column's sentinel index (or its count), then
    the first ``fields`` values of the numeric columns that hold no sentinel, 0 if fewer."""
    result = []
    for row in table:
        codes = [float(values.index(row[c])) if row[c] in values else float(len(values))
                 for c, values in zip(view.columns, view.sentinels)]
        flagged = dict(zip(view.columns, view.sentinels))
        plain = [float(row[c]) for c in view.numeric if row[c] not in flagged.get(c, ())]
        plain = plain[:view.fields]
        result.append(codes + plain + [0.0] * (view.fields - len(plain)))
    return np.array(result).reshape(len(table), view.width)


@st.composite
def mixed_sentinel_views(draw):
    """A view over random columns: flagged ones with their own sentinel sets (shared or
    not), unflagged numeric ones, categorical ones; sometimes more numeric columns than
    the plain-mask table takes."""
    from dpverify.auditing.events._sentinel_families import _MASK_BITS

    width = draw(st.integers(1, _MASK_BITS + 3))
    kinds = draw(st.lists(st.sampled_from(["flagged", "plain", "category"]), min_size=width,
                          max_size=width))
    pool = (-2000.0, -1000.0, 0.0, 7.0)
    sentinels = {}
    for column, kind in enumerate(kinds):
        if kind == "flagged":
            chosen = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=3, unique=True))
            sentinels[column] = tuple(sorted(chosen))
    numeric = tuple(c for c, kind in enumerate(kinds) if kind != "category")
    columns = tuple(sorted(sentinels))
    fields = draw(st.integers(1, 4))
    return SentinelView(columns, tuple(sentinels[c] for c in columns), numeric, fields), kinds


@settings(max_examples=60, deadline=None)
@given(drawn=mixed_sentinel_views(), seed=st.integers(0, 2**32 - 1), size=st.integers(1, 60))
def test_fast_view_equals_a_row_by_row_reading(drawn, seed: int, size: int) -> None:
    """Whole-table codes (tiled weights), values through the plain-mask table (or running
    counts beyond it): the reference reading, for any sentinel sets per column."""
    view, kinds = drawn
    rng = np.random.default_rng(seed)
    pool = np.array([-2000.0, -1000.0, 0.0, 7.0])
    table = rng.normal(0.0, 5.0, (size, len(kinds)))
    hits = rng.random(table.shape) < 0.5
    table[hits] = rng.choice(pool, int(hits.sum()))
    for column, kind in enumerate(kinds):
        if kind == "category":
            table[:, column] = rng.integers(0, 3, size)
    expected = _reference_view(view, table)
    assert view(table).tolist() == expected.tolist()
    assert view.codes(table).tolist() == expected[:, :len(view.columns)].tolist()
    values, present = view.values(table)
    assert values.tolist() == expected[:, len(view.columns):].tolist()
    assert present.tolist() == view.present(expected).tolist()


def test_view_in_blocks_equals_the_view_of_each_block() -> None:
    """Longer than a block (and an odd remainder): the same rows as block-sized calls."""
    from dpverify.auditing.events._sentinel_families import _VIEW_BLOCK

    rng = np.random.default_rng(23)
    table = svt3_like(np.zeros(6), 2 * _VIEW_BLOCK + 777, rng)
    view = SentinelView.fit(table)
    whole = view(table)
    parts = [view(table[start:start + 1000].copy()) for start in range(0, len(table), 1000)]
    assert whole.tolist() == np.concatenate(parts).tolist()
    assert whole[:200].tolist() == _reference_view(view, table[:200]).tolist()


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), high=st.sampled_from([3, 500, 2**23]),
       sizes=st.tuples(st.integers(0, 50), st.integers(1, 50)))
def test_key_counts_equal_unique(seed: int, high: int, sizes) -> None:
    """Pattern counts by bincount (dense keys) or sort (sparse): ``np.unique``'s."""
    from dpverify.auditing.events._sentinel_families import _key_counts

    rng = np.random.default_rng(seed)
    keys = [rng.integers(0, high, size) for size in sizes]
    values, counts = _key_counts(*keys)
    expected = np.unique(np.concatenate(keys), return_counts=True)
    assert values.tolist() == expected[0].tolist() and counts.tolist() == expected[1].tolist()


def test_view_pickles_without_its_caches() -> None:
    """Shipped to an executor, the view carries its fields, not its tiles, and views alike."""
    import pickle

    rng = np.random.default_rng(24)
    table = svt3_like(np.zeros(4), 3_000, rng)
    view = SentinelView.fit(table)
    expected = view(table)
    copy = pickle.loads(pickle.dumps(view))
    assert not any(name.startswith("_") for name in copy.__dict__)
    assert copy(table.copy()).tolist() == expected.tolist()


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    sentinels=st.lists(st.integers(1, 4), min_size=1, max_size=8),
    size=st.integers(1, 400),
    order=st.sampled_from("CF"),
)
def test_pattern_coder_equals_the_key_coder_on_code_rows(seed: int, sentinels, size: int,
                                                         order: str) -> None:
    """:class:`PatternCoder` (one product, one lookup) gives :class:`KeyCoder`'s keys on every
    row of codes ``0..m_j``, ranges narrower than the codes included (keys −1 outside)."""
    from dpverify.auditing.events._sentinel_families import PatternCoder

    rng = np.random.default_rng(seed)
    radices = np.array(sentinels) + 1
    codes = np.array(rng.integers(0, radices, (size, len(radices))), dtype=np.float64, order=order)
    lows = rng.integers(0, radices)
    highs = np.maximum(lows, rng.integers(0, radices))
    coder = PatternCoder.for_codes(tuple(sentinels), lows.astype(float), highs.astype(float))
    assert isinstance(coder, PatternCoder)
    plain = KeyCoder.from_ranges(lows.astype(float), highs.astype(float))
    assert coder(codes).tolist() == plain(codes).tolist()
    # the fields the labels and the cells coder read are KeyCoder's
    for name in ("lows", "spans", "strides"):
        assert getattr(coder, name).tolist() == getattr(plain, name).tolist()


def test_pattern_coder_falls_back_beyond_its_table_and_pickles_without_it() -> None:
    import pickle

    from dpverify.auditing.events._sentinel_families import PatternCoder

    many = PatternCoder.for_codes((3,) * 12, np.zeros(12), np.full(12, 3.0))  # 4^12 > 2^20
    assert type(many) is KeyCoder
    coder = PatternCoder.for_codes((2, 2), np.zeros(2), np.full(2, 2.0))
    rows_ = np.array([[2.0, 1.0], [0.0, 0.0]])
    keys = coder(rows_)
    copy = pickle.loads(pickle.dumps(coder))
    assert "_table" not in copy.__dict__ and copy(rows_).tolist() == keys.tolist()
    # integer rows (not a view's float codes) take KeyCoder's path
    assert coder(rows_.astype(np.int64)).tolist() == keys.tolist()


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(1, 3_000),
       queries=st.integers(2, 8))
def test_presence_and_members_from_pattern_keys_equal_the_direct_ones(seed: int, size: int,
                                                                      queries: int) -> None:
    """The presence read from the pattern keys equals :meth:`SentinelView.present`, and the
    members of each pattern from one radix argsort equal ``flatnonzero(keys == key)``."""
    from dpverify.auditing.events._sentinel_families import (
        PatternCoder,
        _members,
        _presence,
    )

    rng = np.random.default_rng(seed)
    outputs = svt3_like(rng.normal(0, 1, queries), size, rng)
    outputs[:, 0] = np.where(rng.random(size) < 0.5, outputs[:, 0], 4.0)  # a plain column too
    view = SentinelView((1, *range(2, queries)), ((ABORTED, BOTTOM),) * (queries - 1),
                        tuple(range(queries)), 3)
    viewed = view(outputs)
    width = len(view.columns)
    coder = PatternCoder.for_codes((2,) * width, viewed[:, :width].min(axis=0),
                                   viewed[:, :width].max(axis=0))
    keys = coder(viewed[:, :width])
    assert _presence(view, coder, keys, viewed).tolist() == view.present(viewed).tolist()
    chosen = np.unique(keys)[:5]
    found = _members(keys, np.append(chosen, keys.max() + 7))
    for key in chosen:
        assert found[int(key)].tolist() == np.flatnonzero(keys == key).tolist()
    assert found[int(keys.max()) + 7].tolist() == []
