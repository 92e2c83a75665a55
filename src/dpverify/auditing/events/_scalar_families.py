"""Event families on scalar and discrete outputs: intervals and likelihood-ratio histograms.

* **interval** events on continuous scalars, ``{a < y <= b}`` with cut points
  at quantiles of the search split (the thresholds are
  :func:`~dpverify.auditing.events._candidates.threshold_family`);
* **histogram** events on discrete outputs (integers, categorical codes, or
  integer vectors, counted exactly) and on binned scalars: the values are
  ordered by their estimated likelihood ratio ``P̂(v)/P̂'(v)`` and ``s(y)`` is
  the rank of ``y`` in that order, so the events are the nested sets of the
  top-k values (the Neyman–Pearson shape; unseen values rank last);
* **float** events: the same over the bits of float64 outputs (Mironov 2012).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dpverify.auditing.events._candidates import (
    Candidate,
    Plan,
    candidates,
    cut_grid,
    format_value,
    le_counts,
)
from dpverify.auditing.events._statistics import (
    DENSE_SPAN,
    Bins,
    FloatBits,
    HistogramRank,
    Identity,
    KeyCoder,
    MixedCoder,
    rows,
)

__all__ = ["interval_family", "histogram_family", "histogram_statistics", "key_label"]


def interval_family(a: np.ndarray, b: np.ndarray, plan: Plan) -> list[Candidate]:
    statistic = Identity()
    sa, sb = np.sort(statistic(a)), np.sort(statistic(b))
    cuts = np.concatenate([[-np.inf], cut_grid(np.concatenate([sa, sb]), 48), [np.inf]])
    cuts = np.unique(cuts)
    le = np.stack([le_counts(sa, cuts), le_counts(sb, cuts)], axis=1).astype(np.float64)
    i, j = np.triu_indices(len(cuts), k=1)
    bounds = np.stack([cuts[i], cuts[j]], axis=1)
    counts = le[j] - le[i]

    def describe(low: float, high: float) -> str:
        if low == -np.inf:
            return f"y <= {format_value(high)}"
        if high == np.inf:
            return f"y > {format_value(low)}"
        return f"{format_value(low)} < y <= {format_value(high)}"

    return candidates(statistic, bounds, counts, plan, describe, "interval")


def key_label(coder: Any, key: int) -> str:
    if isinstance(coder, FloatBits):
        sign, exponent, low = (key // coder.inner.strides) % coder.inner.spans + coder.inner.lows
        return (f"{'-' if sign else '+'}2^{int(exponent) - 1023}..{int(exponent) - 1022}, "
                f"low bits {int(low):0{coder.bits}b}")
    if isinstance(coder, MixedCoder):
        return key_label(coder.inner, key)
    if isinstance(coder, Bins):
        cuts = coder.cuts
        low = "-inf" if key == 0 else format_value(cuts[key - 1])
        high = "inf" if key >= len(cuts) else format_value(cuts[key])
        return f"({low}, {high}]"
    digits = (key // coder.strides) % coder.spans + coder.lows
    return str(int(digits[0])) if len(digits) == 1 else "(" + ",".join(map(str, digits)) + ")"


def histogram_statistics(keys_a: np.ndarray, keys_b: np.ndarray, coder: Any,
                          ) -> tuple[list[HistogramRank], np.ndarray]:
    """The two likelihood-ratio rankings (``x`` over ``x'`` and reverse) and sorted counts."""
    high = int(max(keys_a.max(), keys_b.max()))
    if high < DENSE_SPAN:
        ca = np.bincount(keys_a, minlength=high + 1)
        cb = np.bincount(keys_b, minlength=high + 1)
        keys = np.flatnonzero(ca + cb)
        ca, cb = ca[keys].astype(np.float64), cb[keys].astype(np.float64)
    else:
        keys, inverse = np.unique(np.concatenate([keys_a, keys_b]), return_inverse=True)
        ca = np.bincount(inverse[:len(keys_a)], minlength=len(keys)).astype(np.float64)
        cb = np.bincount(inverse[len(keys_a):], minlength=len(keys)).astype(np.float64)
    statistics, sorted_counts = [], []
    for first, second in ((ca, cb), (cb, ca)):
        ratio = (first + 0.5) / (second + 0.5)
        order = np.lexsort((-first, -ratio))       # by ratio, ties: larger mass first
        ranks = np.empty(len(keys), dtype=np.float64)
        ranks[order] = np.arange(len(keys))
        span = int(keys.max()) + 1 if len(keys) else 0
        table = None
        if 0 < span <= DENSE_SPAN and keys.min() >= 0:
            table = np.full(span, np.inf)
            table[keys] = ranks
        labels = tuple(key_label(coder, int(keys[k])) for k in order[:8])
        statistics.append(HistogramRank(coder, keys, ranks, labels, table=table))
        sorted_counts.append(np.stack([ca[order], cb[order]], axis=1))
    return statistics, np.stack(sorted_counts)


def histogram_family(a: np.ndarray, b: np.ndarray, plan: Plan, kind: str,
                      floats: bool = False) -> list[Candidate]:
    if floats:
        if not kind.endswith("scalar") or np.asarray(a).dtype != np.float64:
            raise ValueError("events='float' needs float64 scalar outputs")
        coder: Any = FloatBits.fit(np.concatenate([Identity()(a), Identity()(b)]))
    elif kind.startswith("continuous"):
        if not kind.endswith("scalar"):
            raise ValueError("events='histogram' needs discrete outputs or continuous scalars")
        pooled = np.concatenate([Identity()(a), Identity()(b)])
        coder: Any = Bins(cut_grid(pooled, 64))
    else:
        coder = KeyCoder.fit(np.concatenate([rows(a), rows(b)]))
    keys_a, keys_b = coder(a), coder(b)
    statistics, counts = histogram_statistics(keys_a, keys_b, coder)
    result: list[Candidate] = []
    for first in (0, 1):
        statistic, prefix = statistics[first], np.cumsum(counts[first], axis=0)
        # nested sets: the top-j values, j = 1..B; in the certifying order "first" comes first
        bounds = np.stack([np.full(len(prefix), -np.inf), np.arange(len(prefix)) + 0.5], axis=1)
        labels = statistic.labels

        def describe(low: float, high: float, labels: tuple = labels) -> str:
            size = int(high + 0.5)
            shown = ", ".join(labels[:min(size, 4)]) + (", ..." if size > 4 else "")
            return f"output in {{{shown}}} (top {size} by estimated likelihood ratio)"

        family = "float" if floats else "histogram"
        for candidate in candidates(statistic, bounds, prefix, plan, describe, family):
            if candidate.first == first:
                result.append(candidate)
    return result
