"""The statistics fitted on the search split: logistic fit, coordinate bins, the memo."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special

from dpverify.auditing.events._learned_statistics import (
    QUANTILE_ROWS,
    ClassifierScore,
    CoordinateRatios,
    bin_index,
    fit_logistic,
)
from dpverify.auditing.events._statistics import last_result


@pytest.mark.parametrize("cut_count", [0, 1, 5, 16, 17, 40])
def test_bin_index_is_the_binary_search(cut_count: int) -> None:
    """Comparisons (few cuts) and ``searchsorted`` agree, ties, infinities and NaN included."""
    rng = np.random.default_rng(cut_count)
    cuts = np.unique(rng.integers(-20, 20, cut_count).astype(float))
    values = np.concatenate(
        [rng.integers(-25, 25, 5_000).astype(float), rng.normal(0, 9, 5_000), [np.inf, -np.inf, np.nan, 0.0, -0.0]]
    )
    expected = np.searchsorted(cuts, values, side="left")
    assert bin_index(cuts, values).tolist() == expected.tolist()
    strided = np.column_stack([values, values])[:, 1]  # a column of a row-major table
    assert bin_index(cuts, strided).tolist() == expected.tolist()


def test_logistic_fit_reaches_the_penalised_optimum() -> None:
    """At the returned weights the gradient of the penalised log-loss (computed here
    independently, with ``logaddexp`` and ``expit``) vanishes, and nearby points are worse."""
    rng = np.random.default_rng(3)
    n = 40_000
    features = np.concatenate([rng.laplace(size=(n, 4)) + [0.4, 0.0, -0.2, 0.0], rng.laplace(size=(n, 4))])
    features = np.concatenate([features, features**2], axis=1)
    labels = np.concatenate([np.ones(n), np.zeros(n)])
    weights, bias = fit_logistic(features, labels)

    def loss(w: np.ndarray, b: float) -> float:
        margin = features @ w + b
        return float(np.mean(np.logaddexp(0.0, margin) - labels * margin) + 1e-4 * (w @ w) / 2)

    residual = special.expit(features @ weights + bias) - labels
    gradient = np.append(features.T @ residual / len(labels) + 1e-4 * weights, residual.mean())
    assert np.max(np.abs(gradient)) < 1e-4
    assert weights[0] > 0.1 and weights[2] < -0.05  # the shifted coordinates carry the score
    best = loss(weights, bias)
    for step in np.eye(len(weights))[:3] * 0.02:
        assert loss(weights + step, bias) > best and loss(weights - step, bias) > best


def test_coordinate_ratios_cut_at_head_quantiles_and_count_every_row() -> None:
    """Cut points from the first QUANTILE_ROWS rows per side; tables from all rows; the
    memoised bins of the fit's arrays give the values a fresh copy gives."""
    rng = np.random.default_rng(4)
    n = QUANTILE_ROWS + 30_000
    a, b = rng.laplace(0.0, 1.0, (n, 3)), rng.laplace(0.2, 1.0, (n, 3))
    a[QUANTILE_ROWS:] += 50.0  # rows past the head: they move no cut point, but are counted
    ratios = CoordinateRatios.fit(a, b, 2)
    head = np.concatenate([a[:QUANTILE_ROWS], b[:QUANTILE_ROWS]])
    for column, cuts in enumerate(ratios.cuts):
        assert cuts.tolist() == [np.quantile(head[:, column], 0.5)]
    above = (a[:, 0] > ratios.cuts[0][0]).sum(), (b[:, 0] > ratios.cuts[0][0]).sum()
    below = n - above[0], n - above[1]
    bins_a, bins_b = np.array([below[0], above[0]]), np.array([below[1], above[1]])
    assert np.allclose(ratios.tables[0], np.log((bins_a + 0.5) / (bins_b + 0.5)))
    assert np.array_equal(ratios(a), ratios(a.copy()))


def test_last_result_keeps_several_arrays_per_owner_least_recently_used_first() -> None:
    from dpverify.auditing.events import _statistics

    owner, calls = object(), []
    arrays = [np.arange(3.0) + i for i in range(_statistics._LAST_SIZE + 1)]

    def memoised(array):
        return last_result(owner, "tag", array, lambda: calls.append(1) or array * 2)

    first, second = memoised(arrays[0]), memoised(arrays[1])
    assert memoised(arrays[0]) is first and memoised(arrays[1]) is second  # both kept
    assert len(calls) == 2
    for array in arrays[2:]:  # fills the memo: arrays[0] is the least recently used
        memoised(array)
    memoised(arrays[1])
    assert len(calls) == len(arrays)  # arrays[1] was touched later than arrays[0]: kept
    memoised(arrays[0])
    assert len(calls) == len(arrays) + 1  # arrays[0] was dropped


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(1, 300), size=st.integers(1, 50))
def test_row_sums_are_numpys_row_sums_bit_for_bit(seed: int, count: int, size: int) -> None:
    """Coordinate-major sums in numpy's pairwise order == ``table.sum(axis=1)``, exactly."""
    from dpverify.auditing.events._learned_statistics import row_sums

    rng = np.random.default_rng(seed)
    table = rng.normal(size=(size, count)) * 10.0 ** rng.integers(-12, 12, (size, count))
    assert row_sums(np.ascontiguousarray(table.T)).tolist() == table.sum(axis=1).tolist()


def _reference_score(score: ClassifierScore, table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The features and the score, row-major, as the statistic computed them before (the
    score's quadratic part as ``Σ_j z_j (w1_j + w2_j z_j)``, summed along each row)."""
    width = len(score.centre)
    z = (table - score.centre) / score.divisor
    parts = [z, z * z]
    if score.flags:
        parts.append(np.stack([table[:, c] == v for c, v in score.flags], axis=1).astype(float))
    if score.masked:
        m = np.nan_to_num((score.plain_values(table) - score.masked_centre) / score.masked_divisor)
        parts += [m, m * m]
    w = score.weights
    quadratic = z * w[width:2 * width]
    quadratic += w[:width]
    quadratic *= z
    value = quadratic.sum(axis=1) + score.bias
    start = 2 * width
    for (column, flagged), weight in zip(score.flags, w[start:start + len(score.flags)]):
        value += weight * (table[:, column] == flagged)
    start += len(score.flags)
    if score.masked:
        value += m @ w[start:start + len(score.masked)]
        value += (m * m) @ w[start + len(score.masked):]
    return np.concatenate(parts, axis=1), value


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), width=st.integers(1, 12), size=st.integers(1, 200),
       flagged=st.booleans())
def test_coordinate_major_score_and_features_equal_the_row_major_ones(
        seed: int, width: int, size: int, flagged: bool) -> None:
    """The logistic score (transposed once, pairwise row sums) and its features equal the
    row-major computation bit for bit, with recurring-value flags and masked columns."""
    rng = np.random.default_rng(seed)
    table = rng.normal(3.0, 2.0, (size, width))
    flags: tuple = ()
    masked: tuple = ()
    if flagged:
        table[rng.random(size) < 0.3, 0] = -1000.0
        flags, masked = ((0, -1000.0),), (0,)
    blank = ClassifierScore(rng.normal(size=width), rng.uniform(0.5, 2.0, width), np.zeros(0),
                            0.0, flags=flags, masked=masked,
                            masked_centre=rng.normal(size=len(masked)),
                            masked_divisor=rng.uniform(0.5, 2.0, len(masked)))
    score = ClassifierScore(blank.centre, blank.divisor, rng.normal(size=blank.width),
                            float(rng.normal()), flags=flags, masked=masked,
                            masked_centre=blank.masked_centre, masked_divisor=blank.masked_divisor)
    features, value = _reference_score(score, table)
    assert score.features(table).tolist() == features.tolist()
    assert score(table).tolist() == value.tolist()


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), width=st.integers(1, 6),
       shift=st.sampled_from([0.0, 0.05, 0.5, 3.0]),
       size=st.sampled_from([200, 1_500, 7_000, 30_000]))
def test_newton_fit_is_at_least_as_good_as_lbfgs(seed: int, width: int, shift: float,
                                                 size: int) -> None:
    """The Newton fit reaches the penalised optimum the L-BFGS-B fit it replaced approached:
    its loss is no higher (up to rounding), its weights agree to the old solver's tolerance,
    and its gradient (computed here independently) vanishes — exact Newton steps (small
    fits) and steps with a sampled Hessian (7,000 and 30,000 rows per side) alike."""
    from scipy import optimize

    rng = np.random.default_rng(seed)
    x = rng.laplace(size=(size, width))
    x[:, 0] += shift
    features = np.concatenate([x, rng.laplace(size=(size, width))])
    features = np.concatenate([features, features**2], axis=1)
    labels = np.concatenate([np.ones(size), np.zeros(size)])

    def loss(theta: np.ndarray) -> float:
        margin = features @ theta[:-1] + theta[-1]
        return float(np.mean(np.logaddexp(0.0, margin) - labels * margin)
                     + 1e-4 * (theta[:-1] @ theta[:-1]) / 2)

    def gradient(theta: np.ndarray) -> np.ndarray:
        residual = special.expit(features @ theta[:-1] + theta[-1]) - labels
        return np.append(features.T @ residual / len(labels) + 1e-4 * theta[:-1],
                         residual.mean())

    reference = optimize.minimize(loss, np.zeros(features.shape[1] + 1), jac=gradient,
                                  method="L-BFGS-B", options={"maxiter": 200}).x
    weights, bias = fit_logistic(features, labels)
    theta = np.append(weights, bias)
    assert loss(theta) <= loss(reference) + 1e-12
    assert np.max(np.abs(gradient(theta))) < 1e-6
    assert np.max(np.abs(theta - reference)) < 5e-3


def _quantile_cuts_alone(a: np.ndarray, b: np.ndarray, bins: int, flags) -> tuple[np.ndarray, ...]:
    """The cut points of :meth:`CoordinateRatios.fit` as it read them before issue 26: one
    ``np.quantile`` per column and number of bins."""
    head = np.concatenate([a[:QUANTILE_ROWS], b[:QUANTILE_ROWS]]).astype(np.float64)
    cuts = []
    for column in range(head.shape[1]):
        pooled = head[:, column]
        few = len(np.unique(pooled[:4096])) <= 32
        values = np.unique(pooled) if few else pooled[:0]
        if few and len(values) <= 32:
            column_cuts = values[:-1]
        else:
            sentinels = np.array([v for c, v in flags if c == column])
            rest = pooled[~np.isin(pooled, sentinels)] if len(sentinels) else pooled
            column_cuts = np.quantile(rest, np.arange(1, bins) / bins) if len(rest) else np.empty(0)
            column_cuts = np.concatenate([column_cuts, sentinels, np.nextafter(sentinels, -np.inf)])
        cuts.append(np.unique(column_cuts[np.isfinite(column_cuts)]))
    return tuple(cuts)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(2, 3_000), width=st.integers(1, 5),
       sentinel=st.booleans())
def test_fit_all_gives_each_fit_its_own_cut_points_and_tables(seed: int, size: int, width: int,
                                                              sentinel: bool) -> None:
    """One ``np.quantile`` at the union of the levels (2 and 10 bins) gives, bit for bit, the
    cut points of one call per number of bins, and :meth:`CoordinateRatios.fit` the same."""
    rng = np.random.default_rng(seed)
    a, b = rng.laplace(0, 1, (size, width)), rng.laplace(0.3, 1, (size, width))
    a[:, 0] = rng.integers(0, 4, size)  # a categorical column
    flags = ()
    if sentinel and width > 1:
        a[rng.random(size) < 0.3, 1] = -1000.0
        flags = ((1, -1000.0),)
    together = CoordinateRatios.fit_all(a, b, (2, 10), flags)
    for bins, ratios in zip((2, 10), together):
        expected = _quantile_cuts_alone(a, b, bins, flags)
        alone = CoordinateRatios.fit(a, b, bins, flags)
        for mine, theirs, single in zip(ratios.cuts, expected, alone.cuts):
            assert mine.tobytes() == theirs.tobytes() == single.tobytes()
        for mine, single in zip(ratios.tables, alone.tables):
            assert mine.tobytes() == single.tobytes()
        assert ratios(a).tobytes() == alone(a).tobytes()


def test_logistic_score_from_the_shared_transpose_is_the_direct_formula() -> None:
    """The score on the memoised coordinate-major table equals ``features(y)·w + b`` computed
    from a fresh transpose (float and integer outputs)."""
    rng = np.random.default_rng(4)
    for table in (rng.normal(0, 2, (2_000, 4)), rng.integers(-3, 4, (2_000, 4))):
        centre, divisor = table.mean(axis=0), table.std(axis=0) + 0.5
        score = ClassifierScore(centre, divisor, rng.normal(size=8), 0.25)
        z = (np.array(table.T, dtype=np.float64) - centre[:, None]) / divisor[:, None]
        expected = (z * (score.weights[:4, None] + score.weights[4:, None] * z)).sum(axis=0) + 0.25
        np.testing.assert_allclose(score(table), expected, rtol=1e-12, atol=1e-12)
        assert score.features(table).shape == (2_000, 8)
