"""The statistics fitted on the search split: logistic fit, coordinate bins, the memo."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import special

from dpverify.auditing.events._learned_statistics import (
    QUANTILE_ROWS,
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
