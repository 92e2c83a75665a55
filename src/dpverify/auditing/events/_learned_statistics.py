"""The statistics the event search *fits* on the search split: learned scores of vector outputs.

A logistic-regression score (:class:`ClassifierScore`, fitted by
:func:`fit_logistic`), the diagonal linear discriminant (:class:`Projection`)
and per-coordinate likelihood-ratio sums (:class:`CoordinateRatios`). Each is
a fixed function of an output once fitted: the certification split, drawn
afterwards, counts its threshold events as binomials of fixed events.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dpverify._deprecation import renamed_parameters, renamed_property
from dpverify.auditing.events._statistics import MAX_CATEGORIES, last_result, rows

__all__ = ["ClassifierScore", "Projection", "CoordinateRatios", "QUANTILE_ROWS", "bin_index", "fit_logistic", "row_sums",
           "PENALTY", "HESSIAN_STRIDE", "HESSIAN_ROWS", "FIT_TOLERANCE"]


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
        z = self._standardised(samples)
        parts = [z, z * z]
        if self.flags:
            parts.append(np.stack([table[:, c] == v for c, v in self.flags]).astype(np.float64))
        if self.masked:
            m = np.nan_to_num((self.plain_values(table) - self.masked_centre) / self.masked_divisor)
            parts += [m.T, (m * m).T]
        # stored feature-major (a column-major table): what the logistic fit reads
        return np.concatenate(parts, axis=0).T

    def _standardised(self, samples: np.ndarray) -> np.ndarray:
        """``z = (y − centre)/divisor``, coordinate-major ``(d, rows)``: the row-major table
        transposed once (:func:`coordinate_major`, shared with the coordinate bins), so each
        operation broadcasts along the rows (not one loop per row)."""
        z = np.subtract(coordinate_major(samples), self.centre[:, None], dtype=np.float64)
        z /= self.divisor[:, None]
        return z

    def __call__(self, samples: np.ndarray) -> np.ndarray:
        """``features(y)·w + bias``, block by block (the feature matrix is never built)."""
        table = rows(samples)
        width = len(self.centre)
        w = self.weights
        z = self._standardised(samples)
        quadratic = z * w[width : 2 * width, None]  # z·w1 + z²·w2 = Σ_j z_j (w1_j + w2_j z_j)
        quadratic += w[:width, None]
        quadratic *= z
        score = row_sums(quadratic) + self.bias
        start = 2 * width
        for (column, value), weight in zip(self.flags, w[start : start + len(self.flags)]):
            score += weight * (table[:, column] == value)
        start += len(self.flags)
        if self.masked:
            m = np.nan_to_num((self.plain_values(table) - self.masked_centre) / self.masked_divisor)
            score += m @ w[start : start + len(self.masked)]
            score += (m * m) @ w[start + len(self.masked) :]
        return score


def row_sums(columns: np.ndarray) -> np.ndarray:
    """``columns.T.sum(axis=1)`` of a coordinate-major ``(d, rows)`` array, bit for bit.

    numpy sums each row of a row-major table pairwise: below 8 terms one after
    the other, up to 128 in eight running sums combined as
    ``((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))`` and then the
    remainder, beyond 128 the two halves (split at a multiple of 8) apart.
    The same additions on whole coordinate rows give the same sums, without
    a loop per output.
    """
    count = len(columns)
    if count < 8:
        total = np.zeros(columns.shape[1])
        for row in columns:
            total += row
        return total
    if count <= 128:
        running = columns[:8].copy()
        for start in range(8, count - count % 8, 8):
            running += columns[start : start + 8]
        total = ((running[0] + running[1]) + (running[2] + running[3])) + (
            (running[4] + running[5]) + (running[6] + running[7]))
        for row in columns[count - count % 8 :]:
            total += row
        return total
    half = count // 2
    half -= half % 8
    return row_sums(columns[:half]) + row_sums(columns[half:])


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
    def fit(
        cls, a: np.ndarray, b: np.ndarray, bins: int, flags: tuple[tuple[int, float], ...] = ()
    ) -> CoordinateRatios:
        """Cut points at ``bins``-quantiles of each pooled column, each flagged value its own bin.

        The quantiles are read from the first :data:`QUANTILE_ROWS` rows of
        each side (cut points are a choice; any rows of the search split
        serve), the ratio tables from all of them. The bins of ``a`` and
        ``b`` are memoised (:func:`last_result`), so scoring this statistic
        and its vote count on the same arrays does not bin them again.
        """
        return cls.fit_all(a, b, (bins,), flags)[0]

    @classmethod
    def fit_all(
        cls, a: np.ndarray, b: np.ndarray, bins: tuple[int, ...],
        flags: tuple[tuple[int, float], ...] = ()
    ) -> tuple[CoordinateRatios, ...]:
        """:meth:`fit` for each number of ``bins``, reading the pooled columns once.

        One ``np.quantile`` per continuous column at the union of the levels
        ``i/bins``: numpy interpolates each level on its own (the same order
        statistics, the same arithmetic), so each fit's cut points are those
        :meth:`fit` alone finds, bit for bit.
        """
        ra, rb = rows(a), rows(b)
        head = np.concatenate([ra[:QUANTILE_ROWS], rb[:QUANTILE_ROWS]]).astype(np.float64)
        levels = [np.arange(1, count) / count for count in bins]
        union = np.unique(np.concatenate(levels))
        cuts: list[list[np.ndarray]] = [[] for _ in bins]
        for column in range(head.shape[1]):
            pooled = head[:, column]
            # more than MAX_CATEGORIES values in a prefix: continuous, no need to sort it all
            few = len(np.unique(pooled[:4096])) <= MAX_CATEGORIES
            values = np.unique(pooled) if few else pooled[:0]
            if few and len(values) <= MAX_CATEGORIES:
                for found in cuts:
                    found.append(np.unique(values[:-1][np.isfinite(values[:-1])]))
                continue
            sentinels = np.array([v for c, v in flags if c == column])
            rest = pooled[~np.isin(pooled, sentinels)] if len(sentinels) else pooled
            at = dict(zip(union.tolist(), np.quantile(rest, union))) if len(rest) else {}
            for found, wanted in zip(cuts, levels):
                column_cuts = (np.array([at[level] for level in wanted.tolist()])
                               if len(rest) else np.empty(0))
                column_cuts = np.concatenate([column_cuts, sentinels,
                                              np.nextafter(sentinels, -np.inf)])
                found.append(np.unique(column_cuts[np.isfinite(column_cuts)]))
        return tuple(cls._from_cuts(a, b, tuple(found), count, ra.shape[1])
                     for found, count in zip(cuts, bins))

    @classmethod
    def _from_cuts(cls, a: np.ndarray, b: np.ndarray, cuts: tuple[np.ndarray, ...], bins: int,
                   width: int) -> CoordinateRatios:
        """The ratio tables of these cut points, counted on all rows of ``a`` and ``b``."""
        counts = [
            [np.bincount(row, minlength=len(c) + 1) for row, c in zip(_memoised_bins(cuts, side), cuts)]
            for side in (a, b)
        ]
        tables = tuple(np.log((count_a + 0.5) / (count_b + 0.5)) for count_a, count_b in zip(*counts))
        return cls(
            cuts,
            tables,
            f"sum of {width} per-coordinate log-likelihood ratios ({bins} "
            f"quantile bins per coordinate, recurring values apart)",
        )

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


class _CoordinateMajor:
    """The owner of :func:`coordinate_major`'s memo entries (one per array)."""


_COORDINATE_MAJOR = _CoordinateMajor()


def coordinate_major(samples: np.ndarray) -> np.ndarray:
    """``rows(samples).T`` as a C-contiguous ``(d, rows)`` array, memoised per array
    (:func:`last_result`): the statistics that read whole coordinates (bins of two
    :class:`CoordinateRatios`, the logistic score) transpose a table once."""
    return last_result(_COORDINATE_MAJOR, "coordinate major", samples,
                       lambda: np.ascontiguousarray(rows(samples).T))


def _memoised_bins(cuts: tuple[np.ndarray, ...], samples: np.ndarray) -> np.ndarray:
    """``bins[j]``: :func:`bin_index` of column ``j`` among ``cuts[j]``, memoised per array."""

    def compute() -> np.ndarray:
        columns = coordinate_major(samples)
        few = all(len(column_cuts) <= _COMPARED_CUTS for column_cuts in cuts)
        result = np.empty((len(cuts), columns.shape[1]), dtype=np.uint8 if few else np.intp)
        for column, column_cuts in enumerate(cuts):
            result[column] = bin_index(column_cuts, columns[column])
        return result

    return last_result(cuts, "coordinate bins", samples, compute)


#: Ridge penalty of the logistic fit: ``PENALTY ‖w‖²/2`` beside the mean log-loss.
PENALTY = 1e-4
#: Every this-many-th row gives the Newton steps' Hessian on all rows, and the warm start.
HESSIAN_STRIDE = 8
#: Fewest rows the sampled Hessian uses (below ``8·HESSIAN_ROWS`` rows the stride shrinks;
#: below ``2·HESSIAN_ROWS`` every row gives it, and every step is an exact Newton step).
HESSIAN_ROWS = 5_000
#: Newton steps stop at a step that moves no parameter by more than this (relative to
#: ``1 + |θ|``); the error left is about as small (L-BFGS-B stopped ~5·10^-5 away).
FIT_TOLERANCE = 1e-6


def fit_logistic(features: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, float]:
    """Minimise the mean log-loss plus ``1e-4 ‖w‖²/2`` (:data:`PENALTY`) by Newton steps.

    With margins ``m = Xw + b`` and ``e = exp(−|m|)`` the loss of a row is
    ``log(1 + e^m) − y·m = max(m, 0) + log(1 + e) − y·m``, its gradient
    ``(σ(m) − y)·x`` and its Hessian ``σ(m)(1 − σ(m))·x xᵀ``, with
    ``σ(m) = 1/(1 + e)`` for ``m ≥ 0`` and ``e/(1 + e)`` below: one exponential per
    row and step, and ``Σ y·m = (Σ y x)·w + b Σ y`` from sums taken once.

    First Newton's method on every :data:`HESSIAN_STRIDE`-th row (its exact Hessian:
    quadratic convergence on an eighth of the work) gives a start; then steps on
    every row solve ``H δ = g`` with the exact gradient and the Hessian of that
    subsample. The minimiser is fixed by the gradient alone; the sampled Hessian
    only sets the (fast, linear) rate at which the steps reach it. A step that
    does not lower the loss is halved. The penalty makes the problem strongly
    convex, so the steps end at its unique minimiser, to :data:`FIT_TOLERANCE` —
    closer than the quasi-Newton solver this replaces (L-BFGS-B, ``maxiter=200``)
    stopped, at about a third of its cost. The features are stored
    feature-major and the products are ``einsum`` loops (BLAS would spread these
    thin products over threads that spin on a shared machine). The weights only
    define a statistic, fixed before the certification split is drawn.
    """
    columns = np.ascontiguousarray(np.asarray(features, dtype=np.float64).T)  # feature-major
    targets = np.asarray(labels, dtype=np.float64)
    theta = np.zeros(len(columns) + 1)
    # the sampled Hessian must stay close to the full one: at least HESSIAN_ROWS rows
    stride = max(1, min(HESSIAN_STRIDE, len(targets) // HESSIAN_ROWS))
    if stride > 1:
        sample = _LogLoss(np.ascontiguousarray(columns[:, ::stride]),
                          np.ascontiguousarray(targets[::stride]))
        theta = _newton(sample, theta, stride=1)
    theta = _newton(_LogLoss(columns, targets), theta, stride=stride)
    return theta[:-1], float(theta[-1])


class _LogLoss:
    """The penalised mean log-loss of fixed rows: value, gradient and (sampled) Hessian."""

    def __init__(self, columns: np.ndarray, targets: np.ndarray) -> None:
        self.columns, self.targets = columns, targets
        # Σ y·m = (Σ y x)·w + b Σ y: the labels' part of the loss without a pass over the rows
        self.label_sums = np.append(np.einsum("ji,i->j", columns, targets), np.sum(targets))

    def __call__(self, theta: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
        """The loss, its gradient and the margins at ``theta = (w, b)``."""
        rows_total = len(self.targets)
        margin = np.einsum("ji,j->i", self.columns, theta[:-1])
        margin += theta[-1]
        tail = np.exp(-np.abs(margin))
        value = np.sum(np.log1p(tail)) + np.sum(np.maximum(margin, 0)) - self.label_sums @ theta
        residual = np.where(margin >= 0, 1.0, tail)
        residual /= 1 + tail
        gradient = np.append(np.einsum("ji,i->j", self.columns, residual), np.sum(residual))
        gradient -= self.label_sums
        gradient /= rows_total
        gradient[:-1] += PENALTY * theta[:-1]
        loss = float(value) / rows_total + PENALTY * float(theta[:-1] @ theta[:-1]) / 2
        return loss, gradient, margin

    def hessian(self, margin: np.ndarray, stride: int) -> np.ndarray:
        """The Hessian in ``(w, b)`` at these margins, from every ``stride``-th row."""
        sample = self.columns[:, ::stride]
        tail = np.exp(-np.abs(margin[::stride]))
        curvature = tail / (1 + tail) ** 2        # σ(m)(1 − σ(m)), symmetric in m
        extended = np.concatenate([sample, np.ones((1, sample.shape[1]))])
        hessian = np.einsum("ji,ki->jk", extended * curvature, extended) / sample.shape[1]
        hessian[:-1, :-1] += PENALTY * np.eye(len(sample))
        return hessian


def _newton(objective: _LogLoss, theta: np.ndarray, stride: int) -> np.ndarray:
    """Newton steps from ``theta`` until one moves no parameter by :data:`FIT_TOLERANCE`.

    ``stride == 1``: the exact Hessian at every step. Otherwise the Hessian of every
    ``stride``-th row at the start, kept (from a near-optimal start the curvature
    barely changes, and any fixed positive-definite matrix leaves the minimiser as it is).
    """
    loss, gradient, margin = objective(theta)
    hessian = objective.hessian(margin, stride)
    for _ in range(100):
        step = np.linalg.solve(hessian, gradient)
        if float(np.max(np.abs(step) / (1 + np.abs(theta)))) <= FIT_TOLERANCE:
            return theta - step   # converged: this last step needs no check
        shrink = 1.0
        while True:
            trial = theta - shrink * step
            trial_loss, trial_gradient, trial_margin = objective(trial)
            if trial_loss <= loss or shrink < 1e-6:
                break
            shrink /= 2
        theta, loss, gradient, margin = trial, trial_loss, trial_gradient, trial_margin
        if stride == 1:
            hessian = objective.hessian(margin, stride)
    return theta
