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
from functools import cached_property
from typing import Any

import numpy as np

from dpverify.auditing.events._candidates import (
    THRESHOLD_CUTS,
    Candidate,
    Plan,
    cut_grid,
    format_value,
    grid_positions,
    le_counts,
    merged_order_statistics,
    threshold_candidates,
)
from dpverify.auditing.events._scalar_families import histogram_statistics
from dpverify.auditing.events._statistics import (
    DENSE_SPAN,
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

__all__ = ["SentinelView", "PatternCoder", "Viewed", "sentinel_family", "has_sentinels", "SENTINEL_FIELDS",
           "SENTINEL_CATEGORIES", "SENTINEL_BINS",
           "pattern_label", "held_out_cells"]

#: Non-sentinel values kept per row (in column order) as the view's numeric fields.
SENTINEL_FIELDS = 3
#: Sentinel patterns (most frequent first) whose values get threshold events:
#: at most 2 x SENTINEL_FIELDS threshold scans each.
SENTINEL_CATEGORIES = 12
#: Quantile bins per numeric field of the (pattern, value bin) cells.
SENTINEL_BINS = 16
#: Up to this many numeric columns the view finds its values through a plain-mask table
#: (``2^columns`` rows); beyond, by running counts.
_MASK_BITS = 12
#: Rows the view converts at a time (a certification chunk of 10 columns is 6553 rows).
_VIEW_BLOCK = 8192


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

    def __getstate__(self) -> dict[str, Any]:
        """The fields only: the cached tiles and tables are rebuilt where the view is used
        (a certification on an executor ships the view, not its caches)."""
        return {name: value for name, value in self.__dict__.items() if not name.startswith("_")}

    def codes(self, table: np.ndarray) -> np.ndarray:
        """Each flagged column's code (float): the index of its sentinel, ``len(sentinels[j])`` if none."""
        return self._code_bytes(rows(table))[:, list(self.columns)].astype(np.float64)

    def _code_bytes(self, table: np.ndarray) -> np.ndarray:
        """The codes of *every* column of ``table`` as ``uint8`` (``0`` in unflagged ones).

        ``code_j = m_j − Σ_v w_j(v)·[y_j = v]`` over the distinct sentinel values ``v``, with
        ``w_j(v) = m_j − i`` when ``v`` is column ``j``'s ``i``-th sentinel (else 0): a column's
        sentinels are distinct, so at most one term is on. Each term is one comparison of
        the whole table with a scalar and products with weight rows tiled to the table's
        shape (:meth:`_weight_tiles`): no per-row or per-column work.
        """
        table = np.ascontiguousarray(table)
        counts, weights = self._weight_tiles(len(table), table.shape[1])
        code = counts.copy()
        for value, weight in weights:
            hit = (table == value).view(np.uint8)
            hit *= weight
            code -= hit
        return code

    @cached_property
    def _tiles(self) -> dict[tuple[int, int], Any]:
        return {}

    def _weight_tiles(self, size: int, width: int
                      ) -> tuple[np.ndarray, list[tuple[float, np.ndarray]]]:
        """``m`` and each sentinel value's weights ``w(v)`` as ``(size, width)`` ``uint8`` tables.

        Cached per shape (the chunks of an audit share one): element-wise products of
        same-shape tables are flat loops, where a broadcast row costs a loop per row.
        """
        key = (size, width)
        cached = self._tiles.get(key)
        if cached is not None:
            return cached
        counts = np.zeros(width, dtype=np.uint8)
        weights: dict[float, np.ndarray] = {}
        for column, values in zip(self.columns, self.sentinels):
            counts[column] = len(values)
            for index, value in enumerate(values):
                weights.setdefault(value, np.zeros(width, dtype=np.uint8))[column] = (
                    len(values) - index)
        result = (np.tile(counts, (size, 1)),
                  [(value, np.tile(row, (size, 1))) for value, row in weights.items()])
        if len(self._tiles) >= 8:  # chunk, block and remainder shapes: a few at a time
            self._tiles.clear()
        self._tiles[key] = result
        return result

    def values(self, table: np.ndarray, codes: np.ndarray | None = None
               ) -> tuple[np.ndarray, np.ndarray]:
        """The first ``fields`` non-sentinel values per row (``0`` if absent) and their presence.

        The ``i``-th plain value of a row is in the column of the ``i``-th set bit of the
        row's *plain mask* (bit ``p``: numeric column ``p`` holds no sentinel); a table
        indexed by the mask gives those columns (:attr:`_field_columns`). ``codes``: the
        rows' :meth:`_code_bytes`, when already computed.
        """
        picked, present = self._values_by_field(rows(table), codes)
        return picked.T, present.T

    def _values_by_field(self, table: np.ndarray, codes: np.ndarray | None = None
                         ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`values`, field-major: ``(fields, rows)`` arrays."""
        table = np.ascontiguousarray(table, dtype=np.float64)
        if codes is None:
            codes = self._code_bytes(table)
        counts, _ = self._weight_tiles(len(table), table.shape[1])
        # plain: a flagged column's code says "no sentinel"; an unflagged one has code 0 == 0
        plain = (codes == counts).view(np.uint8)
        if len(self.numeric) > _MASK_BITS:
            return self._values_by_counts(table, plain[:, list(self.numeric)].astype(bool))
        powers = np.zeros(table.shape[1], dtype=np.int32)
        powers[list(self.numeric)] = 1 << np.arange(len(self.numeric), dtype=np.int32)
        mask = np.einsum("ij,j->i", plain, powers)
        # (fields, rows): a table column or -1; one take of whole rows of the transposed table
        columns = np.take(self._field_columns_by_mask, mask, axis=0).T
        present = columns >= 0
        columns += np.arange(0, table.size, table.shape[1], dtype=np.int64)
        picked = np.take(table.reshape(-1), columns)  # -1 reads some cell; masked next
        return np.where(present, picked, 0.0), present

    @cached_property
    def _field_columns_by_mask(self) -> np.ndarray:
        """:attr:`_field_columns` transposed: ``[mask, i]``, rows contiguous."""
        return np.ascontiguousarray(self._field_columns.T)

    @cached_property
    def _field_columns(self) -> np.ndarray:
        """``[i, mask]``: the table column of the ``i``-th set bit of ``mask`` over ``numeric``, or −1."""
        width = len(self.numeric)
        bits = (np.arange(1 << width)[:, None] >> np.arange(width)) & 1
        running = np.cumsum(bits, axis=1)
        result = np.full((self.fields, 1 << width), -1, dtype=np.int64)
        numeric = np.asarray(self.numeric, dtype=np.int64)
        for field in range(min(self.fields, width)):
            hit = (bits == 1) & (running == field + 1)
            found = hit.any(axis=1)
            result[field, found] = numeric[np.argmax(hit[found], axis=1)]
        return result

    def _values_by_counts(self, table: np.ndarray, plain: np.ndarray
                          ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`values` (field-major) for many numeric columns: by running counts."""
        data = table[:, list(self.numeric)]
        running = np.cumsum(plain, axis=1, dtype=np.int32)
        picked = np.zeros((self.fields, len(data)))
        present = np.zeros((self.fields, len(data)), dtype=bool)
        rows_index = np.arange(len(data))
        for field in range(min(self.fields, data.shape[1])):
            hit = plain & (running == field + 1)
            present[field] = running[:, -1] > field
            picked[field] = np.where(present[field], data[rows_index, np.argmax(hit, axis=1)], 0.0)
        return picked, present

    def present(self, viewed: np.ndarray) -> np.ndarray:
        """Which value fields of viewed rows (``view(samples)``) hold a value: from the codes.

        A row has as many values as plain numeric columns: the unflagged ones
        and the flagged ones whose code says "no sentinel".
        """
        plain = np.full(len(viewed), len(self.numeric) - len(self.columns))
        for j, values in enumerate(self.sentinels):
            plain += viewed[:, j] == len(values)
        return plain[:, None] > np.arange(self.fields)

    def __call__(self, samples: np.ndarray) -> np.ndarray:
        # every Viewed statistic of one audit shares this view: computed once per array
        def compute() -> np.ndarray:
            table = rows(samples)
            # column-major: its consumers read columns, and compare blocks of them with rows
            result = np.empty((len(table), self.width), order="F")
            flagged = list(self.columns)
            for start in range(0, len(table), _VIEW_BLOCK):  # blocks that stay in cache
                block = np.ascontiguousarray(table[start : start + _VIEW_BLOCK], dtype=np.float64)
                codes = self._code_bytes(block)
                end = start + len(block)
                result[start:end, :len(flagged)] = codes[:, flagged]
                result[start:end, len(flagged):] = self._values_by_field(block, codes)[0].T
            return result

        return last_result(self, "sentinel view", samples, compute)


@dataclass(frozen=True, eq=False)
class Viewed:
    """``s(y) = inner(view(y))``: a statistic of the sentinel view, applied to raw outputs."""

    inner: Any
    view: Any
    description: str

    def __call__(self, samples: np.ndarray) -> np.ndarray:
        return self.inner(self.view(samples))


#: Largest number of code combinations (``Π_j (m_j + 1)``) :class:`PatternCoder` tabulates.
_PATTERN_TABLE = 1 << 20


@dataclass(frozen=True, eq=False)
class PatternCoder(KeyCoder):
    """:class:`KeyCoder` of a sentinel view's code columns, by one product and one lookup.

    The codes of a view row are integers ``c_j ∈ {0, ..., m_j}`` (:class:`SentinelView`),
    so ``r = Σ_j c_j·R_j`` with ``R_j = Π_{i<j} (m_i + 1)`` numbers the combinations
    ``0 ≤ r < Π_j (m_j + 1)`` one to one (exact in float64: ``r < 2^20``); a table indexed
    by ``r`` holds the key :class:`KeyCoder` gives the codes (``−1`` outside its ranges,
    the search split's). One product of the code block with ``R`` (``einsum``: no BLAS
    threads) and one gather replace the per-element range and integrality checks.

    **Precondition.** The rows are code rows of the view (every use applies the coder to
    ``view(y)``, :class:`Viewed`); on other rows the key is still a fixed function of the
    row (``−1`` when ``r`` falls outside the table), so events over it stay valid, but it
    need not be :class:`KeyCoder`'s.

    >>> coder = PatternCoder.for_codes((1, 2), np.array([0, 0]), np.array([1, 1]))
    >>> coder(np.array([[1.0, 0.0], [0.0, 2.0], [1.0, 1.0]])).tolist()
    [1, -1, 3]
    """

    #: ``m_j + 1``: how many codes column ``j`` of the view can hold.
    radices: tuple[int, ...] = ()

    @classmethod
    def for_codes(cls, sentinels: tuple[int, ...], lows: np.ndarray, highs: np.ndarray
                  ) -> KeyCoder:
        """The coder of code rows ranging over ``lows..highs``; ``sentinels[j] = m_j``.

        A plain :class:`KeyCoder` when the combinations exceed :data:`_PATTERN_TABLE`.
        """
        plain = KeyCoder.from_ranges(lows, highs)
        radices = tuple(int(m) + 1 for m in sentinels)
        if float(np.prod(np.array(radices, dtype=np.float64))) > _PATTERN_TABLE:
            return plain
        return cls(plain.lows, plain.spans, plain.strides, radices)

    def __getstate__(self) -> dict[str, Any]:
        """The fields only: the table is rebuilt where the coder is used."""
        return {name: value for name, value in self.__dict__.items() if not name.startswith("_")}

    @cached_property
    def _raw_strides(self) -> np.ndarray:
        return np.concatenate([[1], np.cumprod(self.radices[:-1])]).astype(np.float64)

    @cached_property
    def _table(self) -> np.ndarray:
        """``[r]``: the :class:`KeyCoder` key of the codes numbered ``r`` (``−1`` outside)."""
        raw = np.arange(int(np.prod(self.radices)), dtype=np.int64)
        keys = np.zeros(len(raw), dtype=np.int64)
        inside = np.ones(len(raw), dtype=bool)
        for j, radix in enumerate(self.radices):
            digit = raw // int(self._raw_strides[j]) % radix - self.lows[j]
            inside &= (digit >= 0) & (digit < self.spans[j])
            keys += digit * self.strides[j]
        return np.where(inside, keys, -1)

    def __call__(self, samples: np.ndarray) -> np.ndarray:
        table = rows(samples)
        if table.dtype != np.float64 or table.shape[1] != len(self.radices):
            return super().__call__(samples)
        raw = np.einsum("ij,j->i", table, self._raw_strides)
        lookup = self._table
        index = raw.astype(np.int64)
        inside = (index >= 0) & (index < len(lookup))
        return np.where(inside, lookup[np.where(inside, index, 0)], -1)


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
                   what: str, keys: tuple[np.ndarray, np.ndarray] | None = None
                   ) -> list[Candidate]:
    """Likelihood-ratio top-k sets of ``coder``'s cells, ordered on one half of the search
    split and scored on the other.

    With thousands of (pattern, bin) cells the order read from the counts
    over-fits them, and the same counts would over-predict the bound (a
    top-k set of cells that were lucky), crowding out honest candidates of
    other families. Scoring on the held-out half removes that bias; the
    event (the order) is still a function of the search split only.
    """
    half = len(a) // 2
    if keys is None:  # ``coder(a)``, ``coder(b)``: once per side, both halves sliced from them
        keys = (coder(a), coder(b))
    statistics, _ = histogram_statistics(keys[0][:half], keys[1][:half], coder)
    scoring = replace(plan, n_search=min(len(a), len(b)) - half)
    result: list[Candidate] = []
    for first, statistic in enumerate(statistics):
        size = len(statistic.keys)
        ranks = [statistic.of_keys(side[half:]) for side in keys]
        counts = np.stack([np.bincount(r[np.isfinite(r)].astype(np.int64), minlength=size)
                           for r in ranks], axis=1).astype(np.float64)
        result += top_k_candidates(statistic, np.cumsum(counts, axis=0), scoring, what,
                                   "sentinel", first)
    return result


def _value_cuts(views: tuple[np.ndarray, np.ndarray], presence: tuple[np.ndarray, np.ndarray],
                fields: tuple[int, ...]) -> tuple[np.ndarray, ...]:
    """Quantile cut points of each field over the rows (of both sides) where it is present."""
    cuts = []
    for i, column in enumerate(fields):
        values = np.concatenate([view[present[:, i], column]
                                 for view, present in zip(views, presence)])
        cuts.append(cut_grid(values, SENTINEL_BINS) if len(values) else np.empty(0))
    return tuple(cuts)


def sentinel_family(a: np.ndarray, b: np.ndarray, plan: Plan) -> list[Candidate]:
    """Thresholds on values within sentinel patterns; top-k patterns, cells, categorical part."""
    head = np.concatenate([rows(a)[:CLASSIFIER_ROWS], rows(b)[:CLASSIFIER_ROWS]],
                          dtype=np.float64)
    view = SentinelView.fit(head)
    if view is None:
        return []
    result: list[Candidate] = []
    categorical, _ = categorical_columns(head)
    if categorical:     # the categorical columns alone, marginalising the numeric ones
        raw = MixedCoder.fit(head, categorical, (), ())
        result += held_out_cells(a, b, plan, raw, "categorical columns")
    va, vb = view(a), view(b)   # memoised: pruning and Viewed statistics on a, b reuse them
    width = len(view.columns)
    codes = tuple(range(width))
    fields = tuple(range(width, view.width))
    try:
        patterns = PatternCoder.for_codes(
            tuple(len(values) for values in view.sentinels),
            np.minimum(va[:, :width].min(axis=0), vb[:, :width].min(axis=0)),
            np.maximum(va[:, :width].max(axis=0), vb[:, :width].max(axis=0)))
    except AuditError:      # too many flagged columns for exact pattern keys
        return result
    # memoised as CategoryValue memoises them: its events, pruned on these arrays, reuse them
    keys_a, keys_b = (last_result(patterns, ("category keys", codes), side,
                                  lambda side=side: patterns(side[:, :width])) for side in (va, vb))
    presence = (_presence(view, patterns, keys_a, va), _presence(view, patterns, keys_b, vb))
    try:
        cells = MixedCoder.fit_parts([va, vb], codes, fields,
                                     _value_cuts((va, vb), presence, fields))
    except AuditError:      # too many (pattern, bin) cells for exact keys
        return result
    # the same ranges over the codes: the cells' pattern part is the patterns' keys
    cells = replace(cells, categories=patterns)
    values, counts = _key_counts(keys_a, keys_b)
    top = values[np.argsort(-counts, kind="stable")][:SENTINEL_CATEGORIES]
    members_a, members_b = _members(keys_a, top), _members(keys_b, top)
    on_view: list[Candidate] = []
    for key in top:
        label = pattern_label(view, patterns, int(key))
        members = members_a[int(key)], members_b[int(key)]
        # which fields hold values is a function of the pattern: read it from one of its rows
        side = 0 if len(members[0]) else 1
        present = presence[side][int(members[side][0])]
        for field, column in enumerate(fields):
            if not present[field]:
                continue
            inside = (np.sort(va[members[0], column]), np.sort(vb[members[1], column]))
            for fill in (-np.inf, np.inf):
                statistic = CategoryValue(patterns, codes, column, int(key), fill,
                                          f"value {field + 1} given sentinel pattern {label}")
                found = _pattern_thresholds(inside, (len(va), len(vb)), fill, plan, statistic,
                                            f"(pattern {label}) and value {field + 1}")
                on_view += [c for c in found if (fill < 0) == (c.event.high == np.inf)]
    # the coder of the patterns alone has the pattern keys' ranges: its keys are theirs
    on_view += held_out_cells(va, vb, plan, MixedCoder(codes, (), (), patterns),
                              "sentinel pattern", keys=(keys_a, keys_b))
    on_view += held_out_cells(va, vb, plan, cells, "(sentinel pattern, value bin)")
    return result + [replace(c, event=replace(c.event, family="sentinel"))
                     for c in _on_view(on_view, view)]


def _presence(view: SentinelView, patterns: KeyCoder, keys: np.ndarray,
              viewed: np.ndarray) -> np.ndarray:
    """:meth:`SentinelView.present` of viewed rows from their pattern keys (all ``>= 0``).

    A row's plain values are its unflagged numeric columns and its flagged ones whose code is
    ``m_j`` (no sentinel): a function of the pattern, tabulated once over the key space
    (a :class:`PatternCoder`'s, at most ``2^20`` keys) and read by one gather.
    """
    if not isinstance(patterns, PatternCoder) or not len(keys) or keys.min() < 0:
        return view.present(viewed)
    space = np.arange(int(np.prod(patterns.spans)), dtype=np.int64)
    plain = np.full(len(space), len(view.numeric) - len(view.columns), dtype=np.int64)
    for j, values in enumerate(view.sentinels):
        digit = space // patterns.strides[j] % patterns.spans[j] + patterns.lows[j]
        plain += digit == len(values)
    return plain[keys][:, None] > np.arange(view.fields)


def _members(keys: np.ndarray, chosen: np.ndarray) -> dict[int, np.ndarray]:
    """``{key: np.flatnonzero(keys == key)}`` for the ``chosen`` keys; from one stable radix
    argsort when the keys fit 16 bits (equal keys keep their row order: the same indices)."""
    if len(keys) and keys.min() >= 0 and keys.max() < 1 << 16:
        order = np.argsort(keys.astype(np.uint16), kind="stable")
        ends = np.cumsum(np.bincount(keys, minlength=int(keys.max()) + 1))
        starts = ends - np.bincount(keys, minlength=len(ends))
        return {int(key): order[starts[key]:ends[key]] if key < len(ends) else order[:0]
                for key in chosen}
    return {int(key): np.flatnonzero(keys == key) for key in chosen}


def _key_counts(keys_a: np.ndarray, keys_b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(concatenate([keys_a, keys_b]), return_counts=True)``; by ``bincount`` when
    the (non-negative) keys span fewer than :data:`DENSE_SPAN` values."""
    low = min(int(keys_a.min(initial=0)), int(keys_b.min(initial=0)))
    high = max(int(keys_a.max(initial=0)), int(keys_b.max(initial=0)))
    if low < 0 or high >= DENSE_SPAN:
        return np.unique(np.concatenate([keys_a, keys_b]), return_counts=True)
    total = np.bincount(keys_a, minlength=high + 1) + np.bincount(keys_b, minlength=high + 1)
    values = np.flatnonzero(total)
    return values, total[values]


def _pattern_thresholds(inside: tuple[np.ndarray, np.ndarray], sizes: tuple[int, int],
                        fill: float, plan: Plan, statistic: CategoryValue,
                        name: str) -> list[Candidate]:
    """:func:`threshold_family` of ``statistic`` (a value within one pattern, else ``fill``) on
    the view of the search split, from the sorted values inside the pattern only.

    The statistic's sorted values on a side are ``fill`` for the rows outside the pattern
    (``sizes[side] − len(inside[side])`` of them) before (``−inf``) or after (``+inf``) its
    sorted values inside; the grid's order statistics and the counts below each finite cut
    follow without building or sorting those arrays: the very cuts and counts of
    :func:`threshold_family`, at a fraction of its cost (the order statistics of the two
    sorted runs without merging them, :func:`merged_order_statistics`).
    """
    total = sizes[0] + sizes[1]
    count = len(inside[0]) + len(inside[1])
    positions = grid_positions(total, THRESHOLD_CUTS)
    if fill < 0:   # -inf fills come first
        shifted = positions - (total - count)
        picked = merged_order_statistics(*inside, shifted[shifted >= 0])
    else:          # +inf fills come last
        picked = merged_order_statistics(*inside, positions[positions < count])
    cuts = np.unique(picked)
    cuts = cuts[np.isfinite(cuts)]
    below = [le_counts(values, cuts) + (size - len(values) if fill < 0 else 0)
             for values, size in zip(inside, sizes)]
    return threshold_candidates(cuts, np.stack(below, axis=1), sizes, plan, statistic, name,
                                "sentinel")
