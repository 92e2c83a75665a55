"""The 1-D statistics behind the event families, and the output-kind test.

Every audit event is ``{y : low < s(y) <= high}`` for one of these statistics
``s`` (see :mod:`dpverify.auditing.events`): the output itself, a user
indicator, or the rank of a discrete value (or of a bin) in a likelihood-ratio
order; the statistics fitted on the search split (a logistic score, a
projection, likelihood-ratio sums) are in
:mod:`dpverify.auditing.events._learned_statistics`. :func:`last_result`
memoises the work statistics share on one array.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from dpverify._record_validation import check_record
from dpverify._validation import check_callable, shown
from dpverify.errors import AuditError, DpverifyTypeError

__all__ = ["Identity", "Indicator", "KeyCoder", "HistogramRank", "Bins", "last_result",
           "CategoryValue", "MixedCoder", "FloatBits", "recurring_values", "categorical_columns",
           "rows", "output_kind", "MAX_CATEGORIES", "statistic_values"]

#: A column with at most this many distinct integral values (on the search split) is a category.
MAX_CATEGORIES = 32

#: Largest key span for the histogram's dense lookup table.
DENSE_SPAN = 1 << 22


@dataclass(frozen=True, eq=False)
class Identity:
    """``s(y) = y`` for scalar outputs."""

    description: str = "y"

    def __post_init__(self) -> None:
        check_record(self)

    def __call__(self, samples: np.ndarray) -> np.ndarray:
        return np.asarray(samples, dtype=np.float64).reshape(len(samples))


@dataclass(frozen=True, eq=False)
class Indicator:
    """``s(y) = 1[y ∈ S]`` for a user-supplied indicator ``function(samples) -> bool array``."""

    function: Callable[[np.ndarray], Any]
    description: str

    def __post_init__(self) -> None:
        check_callable(self.function, "function", "an indicator: outputs -> truth values")
        check_record(self)

    def __call__(self, samples: np.ndarray) -> np.ndarray:
        values = np.asarray(self.function(samples))
        if values.shape != (len(samples),):
            raise AuditError(f"event {self.description!r} returned shape {values.shape}, "
                             f"expected ({len(samples)},): one truth value per output")
        return values.astype(np.float64)


_LAST = threading.local()
#: Most memoised results :func:`last_result` keeps per thread (least recently used go first).
_LAST_SIZE = 16


def last_result(owner: Any, tag: Any, samples: Any, compute: Callable[[], np.ndarray]
                ) -> np.ndarray:
    """``compute()``, memoised per thread for the array ``samples`` and ``(owner, tag)``.

    Counting a chunk (and the search, scoring and pruning its candidates)
    evaluates many statistics that share an expensive first step (a sentinel
    view, the keys of one coder, per-coordinate bins) on the very same arrays
    — both sides' search splits, one chunk — one after another. The array is
    held by a weak reference — a hit is the same live object, never a
    recycled address — and the entry holds ``owner``, so its identity is not
    recycled either; entries die with their arrays, and beyond
    :data:`_LAST_SIZE` the least recently used is dropped. Results are
    read-only. Statistics stay pure functions of their input: the memo only
    skips recomputing one.
    """
    if not isinstance(samples, np.ndarray):
        return compute()
    memo = _LAST.__dict__.setdefault("memo", OrderedDict())
    key = (id(owner), tag, id(samples))
    entry = memo.get(key)
    if entry is not None and entry[0]() is samples and entry[2] is owner:
        memo.move_to_end(key)
        return entry[1]
    result = compute()
    result.flags.writeable = False
    while len(memo) >= _LAST_SIZE:
        memo.popitem(last=False)
    memo[key] = (weakref.ref(samples), result, owner)
    weakref.finalize(samples, memo.pop, key, None)
    return result


def statistic_values(statistic: Any, samples: np.ndarray) -> np.ndarray:
    """``statistic(samples)``, memoised (:func:`last_result`): the search scores a statistic's
    thresholds and later prunes its candidates on the same two arrays."""
    return last_result(statistic, "values", samples,
                       lambda: np.asarray(statistic(samples), dtype=np.float64))


@dataclass(frozen=True, eq=False)
class KeyCoder:
    """Integer key of a discrete output (row): mixed radix over the search split's ranges.

    Values outside those ranges, or not integers, get key −1 (unseen).
    """

    lows: np.ndarray
    spans: np.ndarray
    strides: np.ndarray

    @classmethod
    def fit(cls, pooled: np.ndarray) -> KeyCoder:
        return cls.from_ranges(pooled.min(axis=0), pooled.max(axis=0))

    @classmethod
    def from_ranges(cls, lows: np.ndarray, highs: np.ndarray) -> KeyCoder:
        """The coder of rows whose column ``j`` ranges over ``lows[j], ..., highs[j]``."""
        lows, highs = np.asarray(lows), np.asarray(highs)
        spans = (highs - lows + 1).astype(np.int64)
        if float(np.prod(spans.astype(np.float64))) >= 2.0 ** 62:
            raise AuditError("too many distinct outputs for exact counting (histogram family)")
        strides = np.concatenate([[1], np.cumprod(spans[:-1])]).astype(np.int64)
        return cls(lows.astype(np.int64), spans, strides)

    def __call__(self, samples: np.ndarray) -> np.ndarray:
        table = rows(samples)
        if table.dtype == np.float64 and table.shape[1] == len(self.lows) and self._float_exact:
            return self._float_keys(table)
        return self.encode([table[:, j] for j in range(table.shape[1])], len(table))

    @cached_property
    def _float_exact(self) -> bool:
        """Whether float64 sums give every key exactly: ``Σ_j max(|low_j|, |high_j|)·stride_j < 2^52``.

        Then for a row inside the ranges each partial sum of ``y_j·stride_j`` is an
        integer below ``2^52`` in magnitude, so :meth:`_float_keys` is exact.
        """
        bounds = np.maximum(np.abs(self.lows), np.abs(self.lows + self.spans)).astype(np.float64)
        return bool(float(bounds @ self.strides.astype(np.float64)) < 2.0**52)

    def _float_keys(self, table: np.ndarray) -> np.ndarray:
        """:meth:`encode` of a float table by whole-block operations (equal keys, ~3x faster).

        A row is inside when every value is an integer in its column's range (NaN fails every
        comparison); ``Σ_j y_j·stride_j − Σ_j low_j·stride_j`` is then its key, exactly
        (:attr:`_float_exact`), and the rows outside carry a NaN through the sum to −1.
        """
        lows = self.lows.astype(np.float64)
        highs = (self.lows + self.spans).astype(np.float64)
        uniform = bool(np.all(lows == lows[0]) and np.all(highs == highs[0]))
        inside = table >= (lows[0] if uniform else lows)     # scalars: no per-row broadcast
        inside &= table < (highs[0] if uniform else highs)
        inside &= table == np.floor(table)
        marked = np.where(inside, table, np.nan)
        keys = np.einsum("ij,j->i", marked, self.strides.astype(np.float64))
        keys -= float(lows @ self.strides.astype(np.float64))
        return np.where(np.isnan(keys), -1, keys).astype(np.int64)

    def encode(self, columns: list[np.ndarray], size: int) -> np.ndarray:
        """The keys of rows given column by column (``−1``: outside the ranges or not integral)."""
        inside = np.ones(size, dtype=bool)
        keys = np.zeros(size, dtype=np.int64)
        for j, column in enumerate(columns):
            if column.dtype.kind == "f":
                whole = column == np.floor(column)  # False for non-integers and NaN
                whole &= np.abs(column) < 2.0 ** 62  # and for ±inf: no undefined cast below
                inside &= whole
                offset = np.where(whole, column, 0.0).astype(np.int64) - self.lows[j]
            else:
                offset = column.astype(np.int64) - self.lows[j]
            inside &= (offset >= 0) & (offset < self.spans[j])
            keys += offset * self.strides[j]  # column by column: int64 matmul has no BLAS
        return np.where(inside, keys, -1)


@dataclass(frozen=True, eq=False)
class HistogramRank:
    """Rank of an output's value in a likelihood-ratio order (``inf`` for unseen values)."""

    coder: Any
    keys: np.ndarray      # sorted keys seen on the search split
    ranks: np.ndarray     # rank of keys[i] in the order
    labels: tuple[str, ...]  # readable values, in rank order (first few)
    description: str = "likelihood-ratio rank"
    table: np.ndarray | None = field(default=None)

    def __call__(self, samples: np.ndarray) -> np.ndarray:
        return self.of_keys(self.coder(samples))

    def of_keys(self, keys: np.ndarray) -> np.ndarray:
        """The ranks of outputs given their keys (``coder(samples)``, computed once elsewhere)."""
        if self.table is not None:
            inside = (keys >= 0) & (keys < len(self.table))
            return np.where(inside, self.table[np.clip(keys, 0, len(self.table) - 1)], np.inf)
        position = np.clip(np.searchsorted(self.keys, keys), 0, len(self.keys) - 1)
        return np.where(self.keys[position] == keys, self.ranks[position], np.inf)


@dataclass(frozen=True, eq=False)
class Bins:
    """Bin index of a scalar output among sorted cut points (histogram of a continuous scalar)."""

    cuts: np.ndarray

    def __call__(self, samples: np.ndarray) -> np.ndarray:
        return np.searchsorted(self.cuts, Identity()(samples), side="left").astype(np.int64)


@dataclass(frozen=True, eq=False)
class CategoryValue:
    """``s(y) = y[value]`` when the output's category is ``category``, else ``fill`` (±inf).

    The category of a row is the key of its categorical columns (``coder``),
    so ``{s > t}`` with ``fill = −inf`` is "category c and value above t" and
    ``{s <= t}`` with ``fill = +inf`` is "category c and value at most t".
    """

    coder: KeyCoder
    columns: tuple[int, ...]
    value: int
    category: int
    fill: float
    description: str = "value within a category"

    def __call__(self, samples: np.ndarray) -> np.ndarray:
        table = rows(samples)
        keys = last_result(self.coder, ("category keys", self.columns), samples,
                           lambda: self.coder(table[:, list(self.columns)]))
        return np.where(keys == self.category, table[:, self.value].astype(np.float64), self.fill)


@dataclass(frozen=True, eq=False)
class MixedCoder:
    """Integer key of a mixed output: its categorical columns and the bins of its numeric ones.

    The bins (cut points) are fixed on the search split. ``categories``: a coder of
    the categorical columns alone with ``inner``'s ranges for them (a shared one, e.g.
    a sentinel view's patterns): the keys of the categorical block are memoised on it,
    so statistics reading them (:class:`CategoryValue`) compute them once per array.
    """

    categorical: tuple[int, ...]
    numeric: tuple[int, ...]
    cuts: tuple[np.ndarray, ...]
    inner: KeyCoder
    categories: KeyCoder | None = None

    def __post_init__(self) -> None:
        if self.categories is not None:
            width = len(self.categorical)
            for name in ("lows", "spans", "strides"):
                if getattr(self.categories, name).tolist() != getattr(self.inner, name)[:width].tolist():
                    raise ValueError(f"categories.{name} must be inner.{name} of the "
                                     f"categorical columns")

    @classmethod
    def fit(cls, pooled: np.ndarray, categorical: tuple[int, ...], numeric: tuple[int, ...],
            cuts: tuple[np.ndarray, ...]) -> MixedCoder:
        return cls.fit_parts([pooled], categorical, numeric, cuts)

    @classmethod
    def fit_parts(cls, parts: list[np.ndarray], categorical: tuple[int, ...],
                  numeric: tuple[int, ...], cuts: tuple[np.ndarray, ...]) -> MixedCoder:
        """:meth:`fit` on the rows of all ``parts`` (no table built, nothing concatenated).

        The ranges of the table's columns: a categorical column's minimum and
        maximum, and a numeric column's bins of its minimum and maximum (the
        bin index is monotone in the value).
        """
        tables = [rows(part) for part in parts]
        minima = np.min([t.min(axis=0) for t in tables], axis=0).astype(np.float64)
        maxima = np.max([t.max(axis=0) for t in tables], axis=0).astype(np.float64)
        lows, highs = [], []
        for column in categorical:
            lows.append(minima[column])
            highs.append(maxima[column])
        for column, cut in zip(numeric, cuts):
            low, high = np.searchsorted(cut, [minima[column], maxima[column]], side="left")
            lows.append(float(low))
            highs.append(float(high))
        return cls(categorical, numeric, cuts, KeyCoder.from_ranges(np.array(lows), np.array(highs)))

    def table(self, samples: np.ndarray) -> np.ndarray:
        data = rows(samples)
        columns = [data[:, c] for c in self.categorical]
        columns += [np.searchsorted(cut, data[:, j], side="left").astype(np.float64)
                    for j, cut in zip(self.numeric, self.cuts)]
        return np.stack(columns, axis=1)

    def __call__(self, samples: np.ndarray) -> np.ndarray:
        """``inner(table(samples))``, without building the table (no float round trip).

        With categorical columns only, on float outputs, these are the keys
        :class:`CategoryValue` reads with the same ``inner`` coder: one memo entry for both.
        """
        data = rows(samples)
        if not self.numeric and data.dtype == np.float64:
            columns = list(self.categorical)
            return last_result(self.inner, ("category keys", self.categorical), samples,
                               lambda: self.inner(data[:, columns]))

        def compute() -> np.ndarray:
            head = self._categorical_coder
            if data.dtype == np.float64 and self.categorical and head._float_exact:
                return self._keys_by_parts(samples)
            columns = [data[:, c].astype(np.float64) for c in self.categorical]
            columns += [np.searchsorted(cut, data[:, j], side="left")
                        for j, cut in zip(self.numeric, self.cuts)]
            return self.inner.encode(columns, len(data))

        return last_result(self, "mixed keys", samples, compute)

    @cached_property
    def _categorical_coder(self) -> KeyCoder:
        """``inner`` restricted to the categorical columns (their lows, spans and strides)."""
        if self.categories is not None:
            return self.categories
        width = len(self.categorical)
        inner = self.inner
        return KeyCoder(inner.lows[:width], inner.spans[:width], inner.strides[:width])

    def _keys_by_parts(self, samples: np.ndarray) -> np.ndarray:
        """:meth:`__call__` of float outputs: the categorical block's keys (``KeyCoder`` on
        the block, memoised), plus each numeric column's bin offset; ``−1`` if any part is
        outside."""
        data = rows(samples)
        coder, columns = self._categorical_coder, list(self.categorical)
        keys = last_result(coder, ("category keys", self.categorical), samples,
                           lambda: coder(data[:, columns])).copy()
        inside = keys >= 0
        width = len(self.categorical)
        for position, (column, cut) in enumerate(zip(self.numeric, self.cuts), start=width):
            offset = np.searchsorted(cut, data[:, column], side="left")
            offset -= self.inner.lows[position]
            inside &= offset >= 0
            inside &= offset < self.inner.spans[position]
            offset *= self.inner.strides[position]
            keys += offset
        return np.where(inside, keys, -1)


@dataclass(frozen=True, eq=False)
class FloatBits:
    """Integer key of a float64 output from its bits: sign, binary exponent, lowest ``bits`` of the mantissa.

    Mironov (2012) showed that ``x + Lap(b)`` computed in floating point
    reaches different sets of doubles from different ``x``: the sum's
    rounding leaves its lowest mantissa bits zero where the noise alone would
    not. Events over these keys (likelihood-ratio top-k sets) certify that.
    """

    inner: KeyCoder
    bits: int = 4

    @staticmethod
    def table(samples: np.ndarray, bits: int = 4) -> np.ndarray:
        values = np.ascontiguousarray(np.asarray(samples, dtype=np.float64).reshape(len(samples)))
        raw = values.view(np.uint64)
        sign = (raw >> np.uint64(63)).astype(np.int64)
        exponent = ((raw >> np.uint64(52)) & np.uint64(0x7FF)).astype(np.int64)
        low = (raw & np.uint64((1 << bits) - 1)).astype(np.int64)
        return np.stack([sign, exponent, low], axis=1)

    @classmethod
    def fit(cls, pooled: np.ndarray, bits: int = 4) -> FloatBits:
        return cls(KeyCoder.fit(cls.table(pooled, bits)), bits)

    def __call__(self, samples: np.ndarray) -> np.ndarray:
        return self.inner(self.table(samples, self.bits))


def recurring_values(pooled: np.ndarray, *, share: float = 0.01,
                     limit: int = 64) -> tuple[tuple[int, float], ...]:
    """``(column, value)`` of values holding at least ``share`` of a column (at most ``limit``).

    In a column of continuous values these are the sentinels and point
    masses a linear score on raw values cannot separate.
    """
    table = rows(pooled)[:200_000]
    flags: list[tuple[int, float]] = []
    for column in range(table.shape[1]):
        values, counts = np.unique(table[:, column], return_counts=True)
        if len(values) <= 2:      # already a binary column: its raw value is its indicator
            continue
        for value in values[counts >= share * len(table)]:
            flags.append((column, float(value)))
    return tuple(flags[:limit])


def categorical_columns(pooled: np.ndarray) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``(categorical, numeric)`` column indices of a vector output.

    A column is categorical when all its values are integers and it takes at
    most :data:`MAX_CATEGORIES` distinct values; the others are numeric.
    """
    table = rows(pooled)
    categorical, numeric = [], []
    for column in range(table.shape[1]):
        values = table[:, column]
        integral = values.dtype.kind in "biu" or (  # a prefix first: continuous columns fail it
            bool(np.all(values[:4096] == np.floor(values[:4096])))
            and bool(np.all(values == np.floor(values))))
        if integral and len(np.unique(values[:100_000])) <= MAX_CATEGORIES:
            categorical.append(column)
        else:
            numeric.append(column)
    return tuple(categorical), tuple(numeric)


def rows(samples: np.ndarray) -> np.ndarray:
    array = np.asarray(samples)
    return array.reshape(len(array), -1)


def output_kind(samples: np.ndarray) -> str:
    """``"continuous"``/``"discrete"`` + ``" scalar"``/``" vector"`` for an output array.

    >>> output_kind(np.array([1, 2, 3])), output_kind(np.array([[0.5, 1.0]]))
    ('discrete scalar', 'continuous vector')
    """
    if isinstance(samples, (str, bytes)) or samples is None:
        raise DpverifyTypeError(f"samples={shown(samples)} must be an array of outputs")
    array = np.asarray(samples)
    if array.dtype.kind not in "biuf" or array.ndim not in (1, 2):
        raise DpverifyTypeError(f"samples={shown(samples)} must be a 1- or 2-dimensional array "
                                f"of numbers (one row per output), not {array.dtype} of "
                                f"{array.ndim} dimensions")
    shape = "scalar" if array.ndim == 1 or (array.ndim == 2 and array.shape[1] == 1) else "vector"
    if array.dtype.kind in "biu":
        return f"discrete {shape}"
    integral = array.dtype.kind == "f" and _all_integral(array.reshape(-1))
    return f"{'discrete' if integral else 'continuous'} {shape}"


def _all_integral(values: np.ndarray) -> bool:
    """Whether every finite value is an integer; a prefix first (continuous outputs exit at once)."""
    for part in (values[:4096], values[4096:]):
        whole = part == np.floor(part)      # False for non-integers and NaN; True for ±inf
        if not whole.all() and not np.all(whole | np.isnan(part)):
            return False
    return True
