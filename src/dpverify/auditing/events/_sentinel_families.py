"""Event families on vector outputs whose columns mix sentinel values and numbers.

A sparse vector that releases the noisy value of each ⊤ (Lyu, Su & Li 2017,
Alg. 3) outputs a float vector in which each column is a *sentinel* (−1000 for
⊥, −2000 after the abort) or a released value: really a category (where the
⊤ are) and a few numbers (their values). The **sentinel view** recovers that
record, and the families here are the mixed ones (:mod:`._vector_families`)
run on it:

* the view of a row ``y`` is ``(codes, values)``: for each column that has a
  recurring value (:func:`~._statistics.recurring_values`) and is not
  categorical, ``code_j = i`` when ``y_j`` is its ``i``-th sentinel and
  ``code_j = m_j`` (the number of sentinels) when it is not a sentinel; then
  the first :data:`SENTINEL_FIELDS` non-sentinel values of the numeric
  columns in column order, ``0`` where there are fewer (the codes say which
  are absent);
* **sentinel** events: with the *pattern* ``k(y)`` the key of the codes,
  ``{k(y) = c and v_i(y) > t}`` and ``{k(y) = c and v_i(y) <= t}`` for the
  :data:`SENTINEL_CATEGORIES` most frequent patterns ``c`` and the fields
  ``i`` present in them (e.g. "⊤ at query 3 with a value in the upper
  tail"); likelihood-ratio top-k sets of the patterns alone, of (pattern,
  value bin) cells (:data:`SENTINEL_BINS` quantile bins per field, over the
  present values), and — when the record also has categorical columns — of
  those columns alone (SVT4's answers beside SVT3's, marginalising the
  numbers). The top-k orders are read from one half of the search split and
  scored on the other (:func:`held_out_cells`): with thousands of cells the
  counts that pick the order would over-predict its bound.

**Validity.** The sentinels, the field count, the patterns, the bins and the
likelihood-ratio orders are all fixed on the search split; the statistic of
every event is ``s(y) = inner(view(y))``, a fixed function of the raw output
(:class:`Viewed`), so on the independent certification split the counts of
each event are binomials of a fixed event and the usual Clopper–Pearson
bounds apply (the same argument as for every family,
:mod:`dpverify.auditing.events`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from dpverify.auditing.events._candidates import (
    Candidate,
    Plan,
    cut_grid,
    format_value,
    threshold_family,
)
from dpverify.auditing.events._scalar_families import histogram_statistics
from dpverify.auditing.events._statistics import (
    CategoryValue,
    KeyCoder,
    MixedCoder,
    categorical_columns,
    last_result,
    recurring_values,
    rows,
)
from dpverify.auditing.events._vector_families import CLASSIFIER_ROWS, top_k_candidates
from dpverify.errors import AuditError

__all__ = ["SentinelView", "Viewed", "sentinel_family", "has_sentinels", "SENTINEL_FIELDS",
           "SENTINEL_CATEGORIES", "SENTINEL_BINS",
           "pattern_label", "held_out_cells"]

#: Non-sentinel values kept per row (in column order) as the view's numeric fields.
SENTINEL_FIELDS = 3
#: Sentinel patterns (most frequent first) whose values get threshold events:
#: at most 2 x SENTINEL_FIELDS threshold scans each.
SENTINEL_CATEGORIES = 12
#: Quantile bins per numeric field of the (pattern, value bin) cells.
SENTINEL_BINS = 16


@dataclass(frozen=True, eq=False)
class SentinelView:
    """``y -> (codes, values)``: which sentinel each flagged column holds, and the first values.

    ``columns[j]`` has sentinels ``sentinels[j]`` (sorted); its code is the
    index of the sentinel it equals, or ``len(sentinels[j])`` when it equals
    none. ``numeric`` are the columns whose non-sentinel values are collected,
    in order, into ``fields`` numeric fields (``0`` where a row has fewer).

    >>> view = SentinelView((0, 1), ((-2000.0, -1000.0), (-2000.0, -1000.0)), (0, 1), 2)
    >>> view(np.array([[-1000.0, 3.5], [-2000.0, -1000.0]])).tolist()
    [[1.0, 2.0, 3.5, 0.0], [0.0, 1.0, 0.0, 0.0]]
    """

    columns: tuple[int, ...]
    sentinels: tuple[tuple[float, ...], ...]
    numeric: tuple[int, ...]
    fields: int

    @classmethod
    def fit(cls, pooled: np.ndarray, fields: int = SENTINEL_FIELDS) -> SentinelView | None:
        """Flags from :func:`recurring_values` in the non-categorical columns, or ``None``."""
        table = rows(pooled).astype(np.float64)
        categorical, numeric = categorical_columns(table)
        found: dict[int, list[float]] = {}
        for column, value in recurring_values(table):
            if column in numeric:
                found.setdefault(column, []).append(value)
        if not found:
            return None
        columns = tuple(sorted(found))
        return cls(columns, tuple(tuple(sorted(found[c])) for c in columns), numeric, fields)

    @property
    def width(self) -> int:
        return len(self.columns) + self.fields

    def codes(self, table: np.ndarray) -> np.ndarray:
        result = np.empty((len(table), len(self.columns)), dtype=np.float64)
        for j, (column, values) in enumerate(zip(self.columns, self.sentinels)):
            code = np.full(len(table), float(len(values)))
            for index, value in enumerate(values):
                code[table[:, column] == value] = index
            result[:, j] = code
        return result

    def values(self, table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The first ``fields`` non-sentinel values per row (``0`` if absent) and their presence."""
        data = table[:, list(self.numeric)].astype(np.float64)
        plain = np.ones(data.shape, dtype=bool)
        for column, values in zip(self.columns, self.sentinels):
            position = self.numeric.index(column)
            plain[:, position] = ~np.isin(data[:, position], values)
        # stable sort of "is a sentinel" brings the plain values to the front, in column order
        order = np.argsort(~plain, axis=1, kind="stable")[:, :self.fields]
        picked = np.take_along_axis(data, order, axis=1)
        present = np.take_along_axis(plain, order, axis=1)
        if picked.shape[1] < self.fields:
            pad = self.fields - picked.shape[1]
            picked = np.pad(picked, ((0, 0), (0, pad)))
            present = np.pad(present, ((0, 0), (0, pad)))
        return np.where(present, picked, 0.0), present

    def __call__(self, samples: np.ndarray) -> np.ndarray:
        # every Viewed statistic of one audit shares this view: computed once per array
        def compute() -> np.ndarray:
            table = rows(samples)
            values, _ = self.values(table)
            return np.concatenate([self.codes(table), values], axis=1)

        return last_result(self, "sentinel view", samples, compute)


@dataclass(frozen=True, eq=False)
class Viewed:
    """``s(y) = inner(view(y))``: a statistic of the sentinel view, applied to raw outputs."""

    inner: Any
    view: Any
    description: str

    def __call__(self, samples: np.ndarray) -> np.ndarray:
        return self.inner(self.view(samples))


def has_sentinels(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether some non-categorical column of the outputs has recurring (sentinel) values."""
    head = np.concatenate([rows(a)[:20_000], rows(b)[:20_000]]).astype(np.float64)
    return SentinelView.fit(head) is not None


def _on_view(found: list[Candidate], view: SentinelView) -> list[Candidate]:
    """The candidates with their statistics composed with ``view`` (one wrapper per statistic)."""
    wrapped: dict[int, Viewed] = {}
    result = []
    for candidate in found:
        inner = candidate.event.statistic
        if id(inner) not in wrapped:
            wrapped[id(inner)] = Viewed(inner, view, f"{getattr(inner, 'description', 'view')} "
                                                     f"(sentinel view)")
        event = replace(candidate.event, statistic=wrapped[id(inner)])
        result.append(replace(candidate, event=event))
    return result


def pattern_label(view: SentinelView, patterns: KeyCoder, key: int) -> str:
    """A sentinel pattern as the row it describes: each column's sentinel, or ``v`` for a value.

    >>> view = SentinelView((0, 1), ((-1000.0,), (-2000.0, -1000.0)), (0, 1), 1)
    >>> coder = KeyCoder.fit(np.array([[0.0, 0.0], [1.0, 2.0]]))
    >>> pattern_label(view, coder, int(coder(np.array([[1.0, 0.0]]))[0]))
    '(v,-2000)'
    """
    digits = (key // patterns.strides) % patterns.spans + patterns.lows
    shown = ["v" if code == len(values) else format_value(values[code])
             for code, values in zip(digits.astype(int), view.sentinels)]
    return "(" + ",".join(shown) + ")"


def held_out_cells(a: np.ndarray, b: np.ndarray, plan: Plan, coder: MixedCoder,
                   what: str) -> list[Candidate]:
    """Likelihood-ratio top-k sets of ``coder``'s cells, ordered on one half of the search
    split and scored on the other.

    With thousands of (pattern, bin) cells the order read from the counts
    over-fits them, and the same counts would over-predict the bound (a
    top-k set of cells that were lucky), crowding out honest candidates of
    other families. Scoring on the held-out half removes that bias; the
    event (the order) is still a function of the search split only.
    """
    half = len(a) // 2
    statistics, _ = histogram_statistics(coder(a[:half]), coder(b[:half]), coder)
    scoring = replace(plan, n_search=min(len(a), len(b)) - half)
    result: list[Candidate] = []
    for first, statistic in enumerate(statistics):
        size = len(statistic.keys)
        ranks = [statistic(side[half:]) for side in (a, b)]
        counts = np.stack([np.bincount(r[np.isfinite(r)].astype(np.int64), minlength=size)
                           for r in ranks], axis=1).astype(np.float64)
        result += top_k_candidates(statistic, np.cumsum(counts, axis=0), scoring, what,
                                   "sentinel", first)
    return result


def _value_cuts(pooled: np.ndarray, present: np.ndarray,
                fields: tuple[int, ...]) -> tuple[np.ndarray, ...]:
    """Quantile cut points of each field over the rows where it is present."""
    return tuple(cut_grid(pooled[present[:, i], column], SENTINEL_BINS) if present[:, i].any()
                 else np.empty(0) for i, column in enumerate(fields))


def sentinel_family(a: np.ndarray, b: np.ndarray, plan: Plan) -> list[Candidate]:
    """Thresholds on values within sentinel patterns; top-k patterns, cells, categorical part."""
    ra, rb = rows(a).astype(np.float64), rows(b).astype(np.float64)
    head = np.concatenate([ra[:CLASSIFIER_ROWS], rb[:CLASSIFIER_ROWS]])
    view = SentinelView.fit(head)
    if view is None:
        return []
    result: list[Candidate] = []
    categorical, _ = categorical_columns(head)
    if categorical:     # the categorical columns alone, marginalising the numeric ones
        raw = MixedCoder.fit(head, categorical, (), ())
        result += held_out_cells(ra, rb, plan, raw, "categorical columns")
    present_a, present_b = view.values(ra)[1], view.values(rb)[1]
    va, vb = view(ra), view(rb)
    codes = tuple(range(len(view.columns)))
    fields = tuple(range(len(view.columns), view.width))
    pooled = np.concatenate([va, vb])
    present = np.concatenate([present_a, present_b])
    try:
        patterns = KeyCoder.fit(pooled[:, list(codes)])
        cells = MixedCoder.fit(pooled, codes, fields, _value_cuts(pooled, present, fields))
    except AuditError:      # too many flagged columns for exact pattern keys
        return result
    keys = patterns(pooled[:, list(codes)])
    values, counts = np.unique(keys, return_counts=True)
    on_view: list[Candidate] = []
    for key in values[np.argsort(-counts, kind="stable")][:SENTINEL_CATEGORIES]:
        label = pattern_label(view, patterns, int(key))
        mine = keys == key
        for field, column in enumerate(fields):
            if not present[mine, field].any():
                continue
            for fill in (-np.inf, np.inf):
                statistic = CategoryValue(patterns, codes, column, int(key), fill,
                                          f"value {field + 1} given sentinel pattern {label}")
                # the statistic's values on the search split, with the pattern keys computed once
                scores = np.where(mine, pooled[:, column], fill)
                found = threshold_family(scores[:len(va)], scores[len(va):], plan,
                                         name=f"(pattern {label}) and value {field + 1}",
                                         family="sentinel")
                on_view += [replace(c, event=replace(c.event, statistic=statistic))
                            for c in found if (fill < 0) == (c.event.high == np.inf)]
    on_view += held_out_cells(va, vb, plan, MixedCoder.fit(pooled, codes, (), ()),
                              "sentinel pattern")
    on_view += held_out_cells(va, vb, plan, cells, "(sentinel pattern, value bin)")
    return result + [replace(c, event=replace(c.event, family="sentinel"))
                     for c in _on_view(on_view, view)]
