"""The 1-D statistics behind the event families, and the output-kind test.

Every audit event is ``{y : low < s(y) <= high}`` for one of these statistics
``s`` (see :mod:`dpverify.auditing.events`): the output itself, a user
indicator, a logistic-regression score, or the rank of a discrete value (or of
a bin) in a likelihood-ratio order.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import optimize

from dpverify._deprecation import renamed_parameters, renamed_property
from dpverify._record_validation import check_record
from dpverify._validation import check_callable, shown
from dpverify.errors import AuditError, DpverifyTypeError

__all__ = ["Identity", "Indicator", "ClassifierScore", "KeyCoder", "HistogramRank", "Bins", "last_result",
           "CategoryValue", "MixedCoder", "FloatBits", "Projection", "CoordinateRatios", "recurring_values", "categorical_columns", "rows", "output_kind",
           "fit_logistic", "MAX_CATEGORIES", "statistic_values"]

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


@renamed_parameters(scale="divisor", masked_scale="masked_divisor")
@dataclass(frozen=True, eq=False)
class ClassifierScore:
    """Logistic-regression score ``w·[z, z², flags, m, m²] + b`` with ``z = (y − centre)/divisor``.

    ``flags`` are ``(column, value)`` pairs: the indicator ``y[column] == value``
    of values that recur exactly (sentinels such as "aborted", categories,
    clipping bounds), fixed on the search split. ``masked`` columns (numeric
    columns with flagged values) also give ``m = (y − masked_centre)/masked_divisor``
    where ``y`` is none of the column's flagged values, else 0: the value
    "given it is not a sentinel", which a sentinel of −1000 would swamp in ``z``.
    """

    centre: np.ndarray
    divisor: np.ndarray
    weights: np.ndarray
    bias: float
    description: str = "logistic score"
    flags: tuple[tuple[int, float], ...] = ()
    masked: tuple[int, ...] = ()
    masked_centre: np.ndarray | None = None
    masked_divisor: np.ndarray | None = None

    scale = renamed_property("scale", "divisor")
    masked_scale = renamed_property("masked_scale", "masked_divisor")

    @property
    def width(self) -> int:
        """Number of features."""
        return 2 * len(self.centre) + len(self.flags) + 2 * len(self.masked)

    @renamed_parameters(table="samples")
    def plain_values(self, samples: np.ndarray) -> np.ndarray:
        """The masked columns with their flagged values replaced by NaN."""
        values = samples[:, list(self.masked)].astype(np.float64)
        for position, column in enumerate(self.masked):
            for flagged, value in self.flags:
                if flagged == column:
                    values[values[:, position] == value, position] = np.nan
        return values

    def features(self, samples: np.ndarray) -> np.ndarray:
        table = rows(samples)
        z = (table - self.centre) / self.divisor
        parts = [z, z * z]
        if self.flags:
            parts.append(np.stack([table[:, c] == v for c, v in self.flags], axis=1)
                         .astype(np.float64))
        if self.masked:
            m = np.nan_to_num((self.plain_values(table) - self.masked_centre) / self.masked_divisor)
            parts += [m, m * m]
        return np.concatenate(parts, axis=1)

    def __call__(self, samples: np.ndarray) -> np.ndarray:
        """``features(y)·w + bias``, block by block (the feature matrix is never built)."""
        table = rows(samples)
        width = len(self.centre)
        w = self.weights
        z = table - self.centre
        z /= self.divisor
        quadratic = z * w[width:2 * width]  # z·w1 + z²·w2 = Σ_j z_j (w1_j + w2_j z_j)
        quadratic += w[:width]
        quadratic *= z
        score = quadratic.sum(axis=1) + self.bias
        start = 2 * width
        for (column, value), weight in zip(self.flags, w[start:start + len(self.flags)]):
            score += weight * (table[:, column] == value)
        start += len(self.flags)
        if self.masked:
            m = np.nan_to_num((self.plain_values(table) - self.masked_centre) / self.masked_divisor)
            score += m @ w[start:start + len(self.masked)]
            score += (m * m) @ w[start + len(self.masked):]
        return score


@dataclass(frozen=True, eq=False)
class Projection:
    """``s(y) = (y − centre)·w``: a fixed linear direction (the diagonal-covariance discriminant).

    With ``w = (μ̂_x − μ̂_x')/σ̂²`` from the search split this is Fisher's linear
    discriminant with a diagonal covariance: it pools the mean shift of every
    coordinate, which a logistic fit on few rows misses when each
    coordinate's shift is tiny against its noise (parallel compositions).
    """

    centre: np.ndarray
    weights: np.ndarray
    description: str = "mean-difference projection"

    def __call__(self, samples: np.ndarray) -> np.ndarray:
        return (rows(samples) - self.centre) @ self.weights


@dataclass(frozen=True, eq=False)
class CoordinateRatios:
    """``s(y) = Σ_j r_j(bin_j(y_j))``: per-coordinate log-likelihood ratios, summed (naive Bayes).

    Each coordinate ``j`` has cut points ``cuts[j]`` (bins ``(c_{i−1}, c_i]``)
    and a table ``tables[j]`` of ``ln((n_x(bin) + ½)/(n_x'(bin) + ½))`` counted
    on the search split. When the coordinates are independent this estimates
    the log-likelihood ratio of the whole output — the Neyman–Pearson
    statistic — e.g. the count of coordinates above their median for a
    parallel composition of Laplace mechanisms, which a linear score on the
    raw values misses.
    """

    cuts: tuple[np.ndarray, ...]
    tables: tuple[np.ndarray, ...]
    description: str = "per-coordinate likelihood-ratio sum"

    @classmethod
    def fit(cls, a: np.ndarray, b: np.ndarray, bins: int,
            flags: tuple[tuple[int, float], ...] = ()) -> CoordinateRatios:
        """Cut points at ``bins``-quantiles of each pooled column, each flagged value its own bin.

        The quantiles are read from the first :data:`QUANTILE_ROWS` rows of
        each side (cut points are a choice; any rows of the search split
        serve), the ratio tables from all of them. The bins of ``a`` and
        ``b`` are memoised (:func:`last_result`), so scoring this statistic
        and its vote count on the same arrays does not bin them again.
        """
        ra, rb = rows(a), rows(b)
        head = np.concatenate([ra[:QUANTILE_ROWS], rb[:QUANTILE_ROWS]]).astype(np.float64)
        levels = np.arange(1, bins) / bins
        cuts = []
        for column in range(head.shape[1]):
            pooled = head[:, column]
            values = np.unique(pooled)
            if len(values) <= MAX_CATEGORIES:
                column_cuts = values[:-1]
            else:
                sentinels = np.array([v for c, v in flags if c == column])
                rest = pooled[~np.isin(pooled, sentinels)] if len(sentinels) else pooled
                column_cuts = np.quantile(rest, levels) if len(rest) else np.empty(0)
                column_cuts = np.concatenate([column_cuts, sentinels,
                                              np.nextafter(sentinels, -np.inf)])
            cuts.append(np.unique(column_cuts[np.isfinite(column_cuts)]))
        cuts_tuple = tuple(cuts)
        counts = [[np.bincount(row, minlength=len(c) + 1) for row, c in
                   zip(_memoised_bins(cuts_tuple, side), cuts_tuple)] for side in (a, b)]
        tables = tuple(np.log((count_a + 0.5) / (count_b + 0.5))
                       for count_a, count_b in zip(*counts))
        return cls(cuts_tuple, tables,
                   f"sum of {ra.shape[1]} per-coordinate log-likelihood ratios ({bins} "
                   f"quantile bins per coordinate, recurring values apart)")

    def __call__(self, samples: np.ndarray) -> np.ndarray:
        bins = _memoised_bins(self.cuts, samples)
        total = np.zeros(bins.shape[1])
        for ratios, row in zip(self.tables, bins):
            total += ratios[row]
        return total


#: Rows per side whose pooled quantiles place the cut points of :class:`CoordinateRatios`.
QUANTILE_ROWS = 100_000
#: Up to this many cut points a bin index is a sum of comparisons, above it a binary search.
_COMPARED_CUTS = 16


def bin_index(cuts: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``searchsorted(cuts, values, side="left")``: the number of cuts below each value.

    With few cuts, as the sum of ``values > cut`` (a NaN, which sorts last,
    gets ``len(cuts)``); identical to the binary search and a few times faster.

    >>> bin_index(np.array([0.0, 1.0]), np.array([-1.0, 0.0, 0.5, 2.0, np.nan])).tolist()
    [0, 0, 1, 2, 2]
    """
    values = np.ascontiguousarray(values)  # a column of a row-major table: strided
    if len(cuts) > _COMPARED_CUTS:
        return np.searchsorted(cuts, values, side="left")
    index = np.zeros(len(values), dtype=np.uint8)
    for cut in cuts:
        index += values > cut
    if values.dtype.kind == "f" and len(cuts):
        index[np.isnan(values)] = len(cuts)
    return index


def _memoised_bins(cuts: tuple[np.ndarray, ...], samples: np.ndarray) -> np.ndarray:
    """``bins[j]``: :func:`bin_index` of column ``j`` among ``cuts[j]``, memoised per array."""
    def compute() -> np.ndarray:
        table = rows(samples)
        few = all(len(column_cuts) <= _COMPARED_CUTS for column_cuts in cuts)
        result = np.empty((len(cuts), len(table)), dtype=np.uint8 if few else np.intp)
        for column, column_cuts in enumerate(cuts):
            result[column] = bin_index(column_cuts, table[:, column])
        return result

    return last_result(cuts, "coordinate bins", samples, compute)


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
        return self.encode([table[:, j] for j in range(table.shape[1])], len(table))

    def encode(self, columns: list[np.ndarray], size: int) -> np.ndarray:
        """The keys of rows given column by column (``−1``: outside the ranges or not integral)."""
        inside = np.ones(size, dtype=bool)
        keys = np.zeros(size, dtype=np.int64)
        for j, column in enumerate(columns):
            if column.dtype.kind == "f":
                inside &= column == np.floor(column)  # False for non-integers and NaN
                with np.errstate(invalid="ignore"):
                    offset = np.nan_to_num(column, nan=-1).astype(np.int64) - self.lows[j]
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

    The bins (cut points) are fixed on the search split.
    """

    categorical: tuple[int, ...]
    numeric: tuple[int, ...]
    cuts: tuple[np.ndarray, ...]
    inner: KeyCoder

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
        """``inner(table(samples))``, without building the table (no float round trip)."""
        def compute() -> np.ndarray:
            data = rows(samples)
            columns = [data[:, c].astype(np.float64) for c in self.categorical]
            columns += [np.searchsorted(cut, data[:, j], side="left")
                        for j, cut in zip(self.numeric, self.cuts)]
            return self.inner.encode(columns, len(data))

        return last_result(self, "mixed keys", samples, compute)


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
        integral = values.dtype.kind in "biu" or bool(np.all(values == np.floor(values)))
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


def fit_logistic(features: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, float]:
    """Minimise the mean log-loss plus ``1e-4 ‖w‖²/2`` (L-BFGS-B, analytic gradient).

    With margins ``m = Xw + b`` and ``e = exp(−|m|)`` the loss of a row is
    ``log(1 + e^m) − y·m = max(m, 0) + log(1 + e) − y·m`` and the sigmoid is
    ``σ(m) = 1/(1 + e)`` for ``m ≥ 0`` and ``e/(1 + e)`` below: one
    exponential per row and evaluation, and ``Σ y·m = (Σ y x)·w + b Σ y`` from
    sums taken once. The features are stored feature-major and the two
    products per evaluation are ``einsum`` loops: BLAS would spread these thin
    matrix-vector products over threads that spin, costing more CPU than they
    save on a shared machine. The weights only define a statistic, fixed
    before the certification split is drawn.
    """
    penalty = 1e-4
    columns = np.ascontiguousarray(np.asarray(features, dtype=np.float64).T)  # feature-major
    targets = np.asarray(labels, dtype=np.float64)
    rows_total = len(targets)
    # Σ y·m = (Σ y x)·w + b Σ y: the labels' part of the loss without a pass over the rows
    label_sums = np.einsum("ji,i->j", columns, targets)
    label_total = float(np.sum(targets))

    def loss(theta: np.ndarray) -> tuple[float, np.ndarray]:
        margin = np.einsum("ji,j->i", columns, theta[:-1])
        margin += theta[-1]
        tail = np.exp(-np.abs(margin))
        value = (np.sum(np.log1p(tail)) + np.sum(np.maximum(margin, 0))
                 - label_sums @ theta[:-1] - theta[-1] * label_total) / rows_total
        residual = np.where(margin >= 0, 1.0, tail)
        residual /= 1 + tail
        residual -= targets
        gradient = np.append(np.einsum("ji,i->j", columns, residual),
                             np.sum(residual)) / rows_total
        gradient[:-1] += penalty * theta[:-1]
        return float(value) + penalty * float(theta[:-1] @ theta[:-1]) / 2, gradient

    start = np.zeros(features.shape[1] + 1)
    result = optimize.minimize(loss, start, jac=True, method="L-BFGS-B",
                               options={"maxiter": 200})
    return result.x[:-1], float(result.x[-1])
