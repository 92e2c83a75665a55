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
  e.g. the count of coordinates above their median for parallel Laplace),
  and with two bins also the sum of their signs (a vote count, immune to the
  noise of tiny per-coordinate weights);
* **mixed** events on records with categorical and numeric fields (an index
  and a noisy value): thresholds on each numeric field *within* each
  category (``{category = c and value > t}``), likelihood-ratio top-k sets
  of the categorical part alone, and of (category, numeric bin) cells, the
  bins fixed on the search split.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from dpverify.auditing.events._candidates import (
    Candidate,
    Plan,
    candidates,
    cut_grid,
    threshold_family,
)
from dpverify.auditing.events._learned_statistics import (
    ClassifierScore,
    CoordinateRatios,
    Projection,
    fit_logistic,
)
from dpverify.auditing.events._scalar_families import histogram_statistics, key_label
from dpverify.auditing.events._statistics import (
    CategoryValue,
    KeyCoder,
    MixedCoder,
    categorical_columns,
    recurring_values,
    rows,
)

__all__ = ["classifier_family", "mixed_family", "top_cells", "top_k_candidates", "is_mixed",
           "CLASSIFIER_ROWS", "CLASSIFIER_ELEMENTS", "FIT_ELEMENTS_PER_SAMPLE", "MIN_FIT_ROWS",
           "COORDINATE_BINS", "MIXED_CATEGORIES", "MIXED_FIELDS"]

#: Categories (most frequent first) and numeric fields a mixed search conditions on.
MIXED_CATEGORIES = 8
MIXED_FIELDS = 3
#: Rows of the search split that fix the classifier's standardisation and flags (per side),
#: and the fewest it is fitted on.
CLASSIFIER_ROWS = 100_000
#: Feature values (rows x features, per side) the logistic fit may use at most: 2^23, so narrow
#: outputs are fitted on up to the whole search split (DP-Sniper trains on 10^7 rows).
CLASSIFIER_ELEMENTS = 1 << 23
#: The fit's budget grows with the audit: at most this many feature values per sample per
#: side (search and certification together), so its time is proportional to the samples;
#: reached at about 4·10^6 samples per side, where :data:`CLASSIFIER_ELEMENTS` caps it.
FIT_ELEMENTS_PER_SAMPLE = 2
#: (Issue 26 tried fewer rows for speed — half a feature value per sample, or at most 5000
#: rows per feature — and measured DP-Sniper's bounds at 4·10^5 pilot + 4-8·10^6 certifying
#: samples, three seeds: Rappor (40 features) fell 0.7-8.5 %, PrefixSum (20 features, 4·10^5
#: rows before) 1.6 % on average; the rows stay, and the fit itself got cheaper instead.)
#: Rows per side the logistic fit always may use (small audits fit the whole search split).
MIN_FIT_ROWS = 50_000
#: Quantile bins per coordinate of the likelihood-ratio sums (2: above/below the median).
COORDINATE_BINS = (2, 10)


def classifier_family(a: np.ndarray, b: np.ndarray, plan: Plan) -> list[Candidate]:
    """Thresholds on a logistic score, a mean-difference projection and likelihood-ratio sums."""
    ra, rb = (np.asarray(rows(side), dtype=np.float64) for side in (a, b))
    head = np.concatenate([ra[:CLASSIFIER_ROWS], rb[:CLASSIFIER_ROWS]])
    flags = recurring_values(head)
    categorical, _ = categorical_columns(head)
    masked = tuple(sorted({column for column, _ in flags} - set(categorical)))
    centre, scale = head.mean(axis=0), head.std(axis=0)
    blank = ClassifierScore(centre, np.where(scale > 0, scale, 1.0), np.zeros(0), 0.0,
                            flags=flags, masked=masked)
    if masked:
        plain = blank.plain_values(head)
        seen = np.isfinite(plain).any(axis=0)
        with np.errstate(invalid="ignore"):
            m_centre = np.where(seen, np.nanmean(np.where(seen, plain, 0.0), axis=0), 0.0)
            m_scale = np.where(seen, np.nanstd(np.where(seen, plain, 0.0), axis=0), 1.0)
        blank = replace(blank, masked_centre=m_centre,
                        masked_divisor=np.where(m_scale > 0, m_scale, 1.0))
    budget = min(CLASSIFIER_ELEMENTS, FIT_ELEMENTS_PER_SAMPLE * (plan.n_search + plan.n_certify))
    fitted = min(len(ra), len(rb), max(MIN_FIT_ROWS, budget // blank.width))
    labels = np.concatenate([np.ones(fitted), np.zeros(fitted)])
    weights, bias = fit_logistic(blank.features(np.concatenate([ra[:fitted], rb[:fitted]])),
                                 labels)
    extra = f", {len(flags)} recurring-value flags" if flags else ""
    extra += f", the non-sentinel values of {len(masked)} columns" if masked else ""
    score = replace(blank, weights=weights, bias=bias,
                    description=f"logistic score ({fitted} rows per side) on {ra.shape[1]} "
                                f"coordinates, their squares{extra}")
    result = threshold_family(a, b, plan, statistic=score, name="logistic score",
                              family="classifier")
    # the diagonal linear discriminant on the whole search split (not just the fitting rows)
    mean_a, mean_b = ra.mean(axis=0), rb.mean(axis=0)
    variance = (ra.var(axis=0) + rb.var(axis=0)) / 2
    direction = (mean_a - mean_b) / np.where(variance > 0, variance, 1.0)
    if np.any(direction != 0):
        projection = Projection((mean_a + mean_b) / 2, direction,
                                f"mean-difference projection of {ra.shape[1]} coordinates")
        result += threshold_family(a, b, plan, statistic=projection, name="projection",
                                   family="classifier")
    for bins, ratios in zip(COORDINATE_BINS, CoordinateRatios.fit_all(a, b, COORDINATE_BINS, flags)):
        result += threshold_family(a, b, plan, statistic=ratios,
                                   name=f"likelihood-ratio sum ({bins} bins)", family="classifier")
        if bins == 2:  # the signs only: a vote count, immune to noisy per-coordinate weights
            votes = replace(ratios, tables=tuple(np.sign(t) for t in ratios.tables),
                            description=f"vote count: sum of the signs of {ra.shape[1]} "
                                        f"per-coordinate log-likelihood ratios (2 quantile bins)")
            result += threshold_family(a, b, plan, statistic=votes, name="vote count",
                                       family="classifier")
    return result


def mixed_family(a: np.ndarray, b: np.ndarray, plan: Plan,
                 cells: bool = True) -> list[Candidate]:
    """Thresholds on numeric fields within each category; top-k (category, bin) cells.

    ``cells=False`` leaves out the (category, bin) cells: on numeric columns
    holding sentinels their bins are mostly the sentinels', and the sentinel
    family's (pattern, value bin) cells replace them.
    """
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
    result += top_cells(a, b, plan, MixedCoder.fit(pooled, categorical, (), ()), "category")
    if not cells:
        return result
    cuts = tuple(cut_grid(pooled[:, j], 16) for j in numeric)
    result += top_cells(a, b, plan, MixedCoder.fit(pooled, categorical, numeric, cuts),
                        "(category, numeric bin)")
    return result


def top_cells(a: np.ndarray, b: np.ndarray, plan: Plan, coder: MixedCoder,
              what: str) -> list[Candidate]:
    """Likelihood-ratio top-k sets of the cells ``coder`` assigns (bins fixed on the search split)."""
    statistics, sorted_counts = histogram_statistics(coder(a), coder(b), coder)
    result: list[Candidate] = []
    for first in (0, 1):
        result += top_k_candidates(statistics[first], np.cumsum(sorted_counts[first], axis=0),
                                   plan, what, "mixed", first)
    return result


def top_k_candidates(statistic: Any, prefix: np.ndarray, plan: Plan, what: str, family: str,
                     first: int) -> list[Candidate]:
    """Direction ``first``'s candidates ``{rank <= k}`` of a likelihood-ratio order.

    ``prefix[k - 1]`` holds the counts ``(c_x, c_x')`` of the top ``k`` cells.
    """
    bounds = np.stack([np.full(len(prefix), -np.inf), np.arange(len(prefix)) + 0.5], axis=1)

    def describe(low: float, high: float, labels: tuple = statistic.labels) -> str:
        size = int(high + 0.5)
        shown = ", ".join(labels[:min(size, 3)]) + (", ..." if size > 3 else "")
        return f"{what} in {{{shown}}} (top {size} by estimated likelihood ratio)"

    return [c for c in candidates(statistic, bounds, prefix, plan, describe, family)
            if c.first == first]


def is_mixed(a: np.ndarray, b: np.ndarray) -> bool:
    head = np.concatenate([rows(a)[:20_000], rows(b)[:20_000]]).astype(np.float64)
    categorical, numeric = categorical_columns(head)
    return bool(categorical) and bool(numeric)
