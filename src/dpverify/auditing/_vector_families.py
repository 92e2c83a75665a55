"""Event families on vector outputs: learned scores, and records mixing categories and numbers.

* **classifier** events: thresholds on learned 1-D scores of the output —
  logistic regression (DP-Sniper's idea, Bichsel et al. 2021, with a simpler
  classifier) on standardised coordinates, their squares, indicator flags of
  values that recur exactly (sentinels such as "aborted", point masses) and
  the numeric part of flagged columns (the value "given it is not a
  sentinel"); the diagonal linear discriminant ``(y − m)·(μ̂_x − μ̂_x')/σ̂²``,
  which pools tiny per-coordinate mean shifts; and the sum of per-coordinate
  estimated log-likelihood ratios over bins fixed on the search split (naive
  Bayes: the Neyman–Pearson statistic when the coordinates are independent,
  e.g. the count of coordinates above their median for parallel Laplace);
* **mixed** events on records with categorical and numeric fields (an index
  and a noisy value): thresholds on each numeric field *within* each
  category (``{category = c and value > t}``), likelihood-ratio top-k sets
  of the categorical part alone, and of (category, numeric bin) cells, the
  bins fixed on the search split.
"""

from __future__ import annotations

import numpy as np

from dpverify.auditing._candidates import (
    Candidate,
    Plan,
    candidates,
    cut_grid,
    threshold_family,
)
from dpverify.auditing._scalar_families import histogram_statistics, key_label
from dpverify.auditing._statistics import (
    CategoryValue,
    ClassifierScore,
    KeyCoder,
    MixedCoder,
    Projection,
    categorical_columns,
    fit_logistic,
    recurring_values,
    rows,
)

__all__ = ["classifier_family", "mixed_family", "is_mixed", "CLASSIFIER_ROWS", "MIXED_CATEGORIES",
           "MIXED_FIELDS"]

#: Categories (most frequent first) and numeric fields a mixed search conditions on.
MIXED_CATEGORIES = 8
MIXED_FIELDS = 3
#: Rows of the search split used to fit the classifier (per side).
CLASSIFIER_ROWS = 100_000


def classifier_family(a: np.ndarray, b: np.ndarray, plan: Plan) -> list[Candidate]:
    ra, rb = rows(a).astype(np.float64), rows(b).astype(np.float64)
    fit_a, fit_b = ra[:CLASSIFIER_ROWS], rb[:CLASSIFIER_ROWS]
    pooled = np.concatenate([fit_a, fit_b])
    centre, scale = pooled.mean(axis=0), pooled.std(axis=0)
    scale = np.where(scale > 0, scale, 1.0)
    flags = recurring_values(pooled)
    blank = ClassifierScore(centre, scale, np.zeros(2 * ra.shape[1] + len(flags)), 0.0,
                            flags=flags)
    labels = np.concatenate([np.ones(len(fit_a)), np.zeros(len(fit_b))])
    weights, bias = fit_logistic(blank.features(pooled), labels)
    extra = f" and {len(flags)} recurring-value flags" if flags else ""
    score = ClassifierScore(centre, scale, weights, bias,
                            description=f"logistic score on {ra.shape[1]} coordinates, "
                                        f"their squares{extra}", flags=flags)
    result = threshold_family(a, b, plan, statistic=score, name="logistic score",
                               family="classifier")
    # the diagonal linear discriminant on the whole search split (not just the fitting rows)
    difference = ra.mean(axis=0) - rb.mean(axis=0)
    variance = (ra.var(axis=0) + rb.var(axis=0)) / 2
    direction = difference / np.where(variance > 0, variance, 1.0)
    if np.any(direction != 0):
        projection = Projection((ra.mean(axis=0) + rb.mean(axis=0)) / 2, direction,
                                f"mean-difference projection of {ra.shape[1]} coordinates")
        result += threshold_family(a, b, plan, statistic=projection, name="projection",
                                    family="classifier")
    return result


def mixed_family(a: np.ndarray, b: np.ndarray, plan: Plan) -> list[Candidate]:
    """Thresholds on numeric fields within each category; top-k (category, bin) cells."""
    pooled = np.concatenate([rows(a), rows(b)]).astype(np.float64)
    categorical, numeric = categorical_columns(pooled)
    if not categorical or not numeric:
        raise ValueError("events='mixed' needs outputs with categorical (integral, few values) "
                         "and numeric columns")
    numeric = numeric[:MIXED_FIELDS]
    categories = KeyCoder.fit(pooled[:, list(categorical)])
    keys = categories(pooled[:, list(categorical)])
    values, counts = np.unique(keys, return_counts=True)
    result: list[Candidate] = []
    for key in values[np.argsort(-counts, kind="stable")][:MIXED_CATEGORIES]:
        label = key_label(categories, int(key))
        for column in numeric:
            for fill in (-np.inf, np.inf):
                statistic = CategoryValue(categories, categorical, column, int(key), fill,
                                          f"y[{column}] given category {label}")
                name = f"(category {label}) and y[{column}]"
                result += [c for c in threshold_family(a, b, plan, statistic=statistic, name=name,
                                                        family="mixed")
                           if (fill < 0) == (c.event.high == np.inf)]
    cuts = tuple(cut_grid(pooled[:, j], 16) for j in numeric)
    coder = MixedCoder.fit(pooled, categorical, numeric, cuts)
    statistics, sorted_counts = histogram_statistics(coder(a), coder(b), coder)
    for first in (0, 1):
        statistic, prefix = statistics[first], np.cumsum(sorted_counts[first], axis=0)
        bounds = np.stack([np.full(len(prefix), -np.inf), np.arange(len(prefix)) + 0.5], axis=1)

        def describe(low: float, high: float, labels: tuple = statistic.labels) -> str:
            size = int(high + 0.5)
            shown = ", ".join(labels[:min(size, 3)]) + (", ..." if size > 3 else "")
            return (f"(category, numeric bin) in {{{shown}}} (top {size} cells by estimated "
                    f"likelihood ratio)")

        result += [c for c in candidates(statistic, bounds, prefix, plan, describe, "mixed")
                   if c.first == first]
    return result


def is_mixed(a: np.ndarray, b: np.ndarray) -> bool:
    head = np.concatenate([rows(a)[:20_000], rows(b)[:20_000]]).astype(np.float64)
    categorical, numeric = categorical_columns(head)
    return bool(categorical) and bool(numeric)
