"""Distinguishing events, and their search on a split disjoint from the certifying one.

Every event of an audit has one shape: a 1-D *statistic* ``s`` of an output
and an interval, ``S = {y : low < s(y) <= high}``. The families differ only in
the statistic:

* **threshold** and **interval** events on scalar outputs: ``s(y) = y``,
  ``S = {y > t}``, ``{y <= t}`` or ``{a < y <= b}`` with cut points at
  quantiles of the search split (geometrically dense in both tails);
* **histogram** events on discrete outputs (integers, categorical codes, or
  integer vectors, counted exactly) and on binned scalars: the values are
  ordered by their estimated likelihood ratio ``P̂(v)/P̂'(v)`` and ``s(y)`` is
  the rank of ``y`` in that order, so the events are the nested sets of the
  top-k values (the Neyman–Pearson shape; unseen values rank last);
* **classifier** events on vector outputs: logistic regression on the raw
  coordinates, their squares and indicator flags of values that recur
  exactly (sentinels such as "aborted", point masses), standardised, fitted
  by :func:`scipy.optimize.minimize` on the log-loss on up to 100 000 rows
  per side, and ``s(y)`` is its score (DP-Sniper's idea, Bichsel et al.
  2021, with a simpler classifier); and the diagonal linear discriminant
  ``(y − m)·(μ̂_x − μ̂_x')/σ̂²`` over the whole search split, which pools tiny
  per-coordinate mean shifts;
* **mixed** events on records with categorical and numeric fields (an index
  and a noisy value): thresholds on each numeric field *within* each
  category (``{category = c and value > t}``), and likelihood-ratio top-k
  sets over (category, numeric bin) cells, the bins fixed on the search
  split.

**Sample splitting.** :func:`search_events` sees only the *search* split. For
each direction — ``(x, x')``, events likely under ``M(x)``, and ``(x', x)`` —
it scores every candidate by the ε lower bound it *would* certify on the
certification split (Wilson bounds from pessimistic plug-ins) and keeps a few
diverse ones. The certification split is drawn afterwards, independently, so
given the search split the chosen events are fixed and Clopper–Pearson bounds
on them are valid (Bichsel et al. 2021, §5). How the bounds are corrected for
multiplicity is in :mod:`dpverify.auditing.audit`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from dpverify._validation import check_callable, check_record
from dpverify.auditing._statistics import (
    DENSE_SPAN,
    Bins,
    CategoryValue,
    FloatBits,
    ClassifierScore,
    MixedCoder,
    Projection,
    categorical_columns,
    recurring_values,
    HistogramRank,
    Identity,
    Indicator,
    KeyCoder,
    fit_logistic,
    output_kind,
    rows,
)

__all__ = [
    "FAMILIES",
    "Event",
    "Candidate",
    "Identity",
    "ClassifierScore",
    "HistogramRank",
    "Indicator",
    "search_events",
    "user_events",
    "output_kind",
]

FAMILIES = ("threshold", "interval", "histogram", "classifier", "mixed", "float")
#: Categories (most frequent first) and numeric fields a mixed search conditions on.
MIXED_CATEGORIES = 8
MIXED_FIELDS = 3
#: Candidates kept per family and direction, before the overall cap.
PER_FAMILY = 2
#: Candidates certified per direction in a one-point audit.
PER_DIRECTION = 3
#: Hard cap per direction (curves): the Bonferroni count is at most 2 x 2 x this.
MAX_PER_DIRECTION = 20
#: Rows of the search split used to fit the classifier (per side).
CLASSIFIER_ROWS = 100_000
#: At most this many distinct rows per search sample for a vector histogram in "auto".
_HISTOGRAM_DENSITY = 0.2


# --------------------------------------------------------------------------- events


@dataclass(frozen=True, eq=False)
class Event:
    """The event ``S = {y : low < statistic(y) <= high}``, with a readable description.

    Calling an event on an array of outputs returns their indicators.

    >>> event = Event(Identity(), 0.5, np.inf, "y > 0.5")
    >>> event(np.array([0.2, 0.7, 1.5])).tolist()
    [False, True, True]
    """

    statistic: Any
    low: float
    high: float
    description: str
    family: str = "threshold"

    def __post_init__(self) -> None:
        check_record(self)
        check_callable(self.statistic, "statistic", "a statistic: outputs -> values")

    def __call__(self, samples: np.ndarray) -> np.ndarray:
        values = self.statistic(np.asarray(samples))
        return (values > self.low) & (values <= self.high)

    def __str__(self) -> str:
        return self.description


@dataclass(frozen=True, eq=False)
class Candidate:
    """An event and the direction in which it is certified.

    ``first = 0`` tests ``P[M(x) ∈ S]`` against ``P[M(x') ∈ S]``; ``first = 1``
    the reverse. ``score`` is the ε lower bound predicted from the search split.
    """

    event: Event
    first: int
    score: float = -np.inf
    point: int = 0


# --------------------------------------------------------------------------- scoring


def _wilson(successes: np.ndarray, trials: int, z: float, sign: int) -> np.ndarray:
    """Wilson score bound (``sign`` −1 lower, +1 upper): a fast, smooth stand-in for CP."""
    p = successes / trials
    z2n = z * z / trials
    centre = p + z2n / 2
    spread = z * np.sqrt(np.maximum(p * (1 - p), 0.0) / trials + z2n / (4 * trials))
    return np.clip((centre + sign * spread) / (1 + z2n), 0.0, 1.0)


#: A search target: ``("delta", δ)`` maximises the certified ``ε_lb`` at that δ;
#: ``("epsilon", ε)`` maximises the certified ``δ_lb = p_low − e^ε p'_high``.
Target = tuple[str, float]


@dataclass(frozen=True)
class _Plan:
    """What scoring needs: split sizes, the targets to serve, and the planned per-bound level."""

    n_search: int
    n_certify: int
    targets: tuple[Target, ...]
    z: float


def _predicted_scores(first: np.ndarray, second: np.ndarray, plan: _Plan,
                      target: Target) -> np.ndarray:
    """Predicted certified bound for ``target`` from search-split counts.

    Plug-ins are one-sigma pessimistic on the search split (a guard against
    the winner's curse of tiny counts); the certified width uses ``plan.z``.
    """
    p = _wilson(first, plan.n_search, 1.0, -1)
    q = _wilson(second, plan.n_search, 1.0, +1)
    low = _wilson(p * plan.n_certify, plan.n_certify, plan.z, -1)
    high = _wilson(q * plan.n_certify, plan.n_certify, plan.z, +1)
    kind, value = target
    if kind == "epsilon":
        return low - np.exp(value) * high
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(low > value, np.log(np.maximum(low - value, 1e-300) / high), -np.inf)


def _pick(scores: np.ndarray, probabilities: np.ndarray, keep: int) -> list[int]:
    """Indices of the best ``keep`` scores whose event probabilities differ (log-scale 0.2)."""
    chosen: list[int] = []
    for index in np.argsort(-scores, kind="stable"):
        if len(chosen) == keep or not np.isfinite(scores[index]):
            break
        logs = np.log(np.maximum(probabilities[index], 1e-300))
        if all(np.max(np.abs(logs - np.log(np.maximum(probabilities[j], 1e-300)))) > 0.2
               for j in chosen):
            chosen.append(int(index))
    return chosen


def _candidates(statistic: Any, bounds: np.ndarray, counts: np.ndarray, plan: _Plan,
                describe: Callable[[float, float], str], family: str) -> list[Candidate]:
    """Score interval events ``bounds[i] = (low, high]`` with ``counts[i] = (c_x, c_x')``."""
    result: list[Candidate] = []
    fractions = counts / plan.n_search
    for first in (0, 1):
        for point, target in enumerate(plan.targets):
            scores = _predicted_scores(counts[:, first], counts[:, 1 - first], plan, target)
            for index in _pick(scores, fractions, PER_FAMILY):
                low, high = bounds[index]
                event = Event(statistic, float(low), float(high), describe(low, high), family)
                result.append(Candidate(event, first, float(scores[index]), point))
    return result


# --------------------------------------------------------------------------- families


def _cut_grid(values: np.ndarray, points: int) -> np.ndarray:
    """Quantiles of the pooled values, geometrically dense in both tails, deduplicated."""
    ordered = np.sort(values)
    n = len(ordered)
    tail = np.geomspace(min(0.5, 2.0 / n), 0.5, points // 2)
    levels = np.unique(np.concatenate([tail, 1 - tail]))
    return np.unique(ordered[np.minimum((levels * n).astype(np.int64), n - 1)])


def _le_counts(sorted_values: np.ndarray, cuts: np.ndarray) -> np.ndarray:
    return np.searchsorted(sorted_values, cuts, side="right")


def _format(value: float) -> str:
    return f"{value:.6g}"


def _threshold_family(a: np.ndarray, b: np.ndarray, plan: _Plan, statistic: Any = None,
                      name: str = "y", family: str = "threshold") -> list[Candidate]:
    statistic = statistic or Identity()
    sa, sb = np.sort(statistic(a)), np.sort(statistic(b))
    cuts = _cut_grid(np.concatenate([sa, sb]), 400)
    cuts = cuts[np.isfinite(cuts)]
    if not len(cuts):
        return []
    le = np.stack([_le_counts(sa, cuts), _le_counts(sb, cuts)], axis=1)
    n = np.array([len(sa), len(sb)])
    bounds = np.concatenate([np.stack([np.full_like(cuts, -np.inf), cuts], axis=1),
                             np.stack([cuts, np.full_like(cuts, np.inf)], axis=1)])
    counts = np.concatenate([le, n - le]).astype(np.float64)

    def describe(low: float, high: float) -> str:
        return f"{name} <= {_format(high)}" if low == -np.inf else f"{name} > {_format(low)}"

    return _candidates(statistic, bounds, counts, plan, describe, family)


def _interval_family(a: np.ndarray, b: np.ndarray, plan: _Plan) -> list[Candidate]:
    statistic = Identity()
    sa, sb = np.sort(statistic(a)), np.sort(statistic(b))
    cuts = np.concatenate([[-np.inf], _cut_grid(np.concatenate([sa, sb]), 48), [np.inf]])
    cuts = np.unique(cuts)
    le = np.stack([_le_counts(sa, cuts), _le_counts(sb, cuts)], axis=1).astype(np.float64)
    i, j = np.triu_indices(len(cuts), k=1)
    bounds = np.stack([cuts[i], cuts[j]], axis=1)
    counts = le[j] - le[i]

    def describe(low: float, high: float) -> str:
        if low == -np.inf:
            return f"y <= {_format(high)}"
        if high == np.inf:
            return f"y > {_format(low)}"
        return f"{_format(low)} < y <= {_format(high)}"

    return _candidates(statistic, bounds, counts, plan, describe, "interval")


def _label(coder: Any, key: int) -> str:
    if isinstance(coder, FloatBits):
        sign, exponent, low = (key // coder.inner.strides) % coder.inner.spans + coder.inner.lows
        return (f"{'-' if sign else '+'}2^{int(exponent) - 1023}..{int(exponent) - 1022}, "
                f"low bits {int(low):0{coder.bits}b}")
    if isinstance(coder, MixedCoder):
        return _label(coder.inner, key)
    if isinstance(coder, Bins):
        cuts = coder.cuts
        low = "-inf" if key == 0 else _format(cuts[key - 1])
        high = "inf" if key >= len(cuts) else _format(cuts[key])
        return f"({low}, {high}]"
    digits = (key // coder.strides) % coder.spans + coder.lows
    return str(int(digits[0])) if len(digits) == 1 else "(" + ",".join(map(str, digits)) + ")"


def _histogram_statistics(keys_a: np.ndarray, keys_b: np.ndarray, coder: Any,
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
        labels = tuple(_label(coder, int(keys[k])) for k in order[:8])
        statistics.append(HistogramRank(coder, keys, ranks, labels, table=table))
        sorted_counts.append(np.stack([ca[order], cb[order]], axis=1))
    return statistics, np.stack(sorted_counts)


def _histogram_family(a: np.ndarray, b: np.ndarray, plan: _Plan, kind: str,
                      floats: bool = False) -> list[Candidate]:
    if floats:
        if not kind.endswith("scalar") or np.asarray(a).dtype != np.float64:
            raise ValueError("events='float' needs float64 scalar outputs")
        coder: Any = FloatBits.fit(np.concatenate([Identity()(a), Identity()(b)]))
    elif kind.startswith("continuous"):
        if not kind.endswith("scalar"):
            raise ValueError("events='histogram' needs discrete outputs or continuous scalars")
        pooled = np.concatenate([Identity()(a), Identity()(b)])
        coder: Any = Bins(_cut_grid(pooled, 64))
    else:
        coder = KeyCoder.fit(np.concatenate([rows(a), rows(b)]))
    keys_a, keys_b = coder(a), coder(b)
    statistics, counts = _histogram_statistics(keys_a, keys_b, coder)
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
        for candidate in _candidates(statistic, bounds, prefix, plan, describe, family):
            if candidate.first == first:
                result.append(candidate)
    return result


def _classifier_family(a: np.ndarray, b: np.ndarray, plan: _Plan) -> list[Candidate]:
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
    result = _threshold_family(a, b, plan, statistic=score, name="logistic score",
                               family="classifier")
    # the diagonal linear discriminant on the whole search split (not just the fitting rows)
    difference = ra.mean(axis=0) - rb.mean(axis=0)
    variance = (ra.var(axis=0) + rb.var(axis=0)) / 2
    direction = difference / np.where(variance > 0, variance, 1.0)
    if np.any(direction != 0):
        projection = Projection((ra.mean(axis=0) + rb.mean(axis=0)) / 2, direction,
                                f"mean-difference projection of {ra.shape[1]} coordinates")
        result += _threshold_family(a, b, plan, statistic=projection, name="projection",
                                    family="classifier")
    return result


def _mixed_family(a: np.ndarray, b: np.ndarray, plan: _Plan) -> list[Candidate]:
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
        label = _label(categories, int(key))
        for column in numeric:
            for fill in (-np.inf, np.inf):
                statistic = CategoryValue(categories, categorical, column, int(key), fill,
                                          f"y[{column}] given category {label}")
                name = f"(category {label}) and y[{column}]"
                result += [c for c in _threshold_family(a, b, plan, statistic=statistic, name=name,
                                                        family="mixed")
                           if (fill < 0) == (c.event.high == np.inf)]
    cuts = tuple(_cut_grid(pooled[:, j], 16) for j in numeric)
    coder = MixedCoder.fit(pooled, categorical, numeric, cuts)
    statistics, sorted_counts = _histogram_statistics(coder(a), coder(b), coder)
    for first in (0, 1):
        statistic, prefix = statistics[first], np.cumsum(sorted_counts[first], axis=0)
        bounds = np.stack([np.full(len(prefix), -np.inf), np.arange(len(prefix)) + 0.5], axis=1)

        def describe(low: float, high: float, labels: tuple = statistic.labels) -> str:
            size = int(high + 0.5)
            shown = ", ".join(labels[:min(size, 3)]) + (", ..." if size > 3 else "")
            return (f"(category, numeric bin) in {{{shown}}} (top {size} cells by estimated "
                    f"likelihood ratio)")

        result += [c for c in _candidates(statistic, bounds, prefix, plan, describe, "mixed")
                   if c.first == first]
    return result


def _is_mixed(a: np.ndarray, b: np.ndarray) -> bool:
    head = np.concatenate([rows(a)[:20_000], rows(b)[:20_000]]).astype(np.float64)
    categorical, numeric = categorical_columns(head)
    return bool(categorical) and bool(numeric)


def _auto_families(kind: str, a: np.ndarray, b: np.ndarray) -> tuple[str, ...]:
    if kind == "continuous scalar":
        return ("threshold", "interval")
    if kind == "discrete scalar":
        return ("histogram", "threshold")
    if kind == "continuous vector":
        return ("mixed", "classifier") if _is_mixed(a, b) else ("classifier",)
    if not _key_space_ok(a, b):
        return ("classifier",)
    head = a[:100_000]
    distinct = len(np.unique(KeyCoder.fit(np.concatenate([rows(a), rows(b)]))(head)))
    return ("histogram", "classifier") if distinct <= _HISTOGRAM_DENSITY * len(head) else (
        "classifier",)


def _key_space_ok(a: np.ndarray, b: np.ndarray) -> bool:
    pooled = np.concatenate([rows(a), rows(b)])
    spans = pooled.max(axis=0).astype(np.float64) - pooled.min(axis=0) + 1
    return float(np.prod(spans)) < 2.0 ** 62


def search_events(a: np.ndarray, b: np.ndarray, *, families: str | Sequence[str],
                  n_certify: int, targets: Sequence[Target], z: float) -> list[Candidate]:
    """Candidate events chosen on the search split ``a`` (from ``x``) and ``b`` (from ``x'``).

    Parameters
    ----------
    a, b
        Search-split outputs, ``(n,)`` or ``(n, d)``, never reused for certification.
    families
        ``"auto"`` or one name (or several) from :data:`FAMILIES`.
    n_certify
        Size of the certification split per side (scores predict its bounds).
    targets
        What to maximise, one per audited point: ``("delta", δ)`` for the
        certified ε lower bound at δ, ``("epsilon", ε)`` for the certified
        δ lower bound at ε.
    z
        Normal quantile of the planned per-bound level (scores only).

    Returns
    -------
    list of Candidate
        At most :data:`PER_DIRECTION` per direction and target, best predicted first.
    """
    kind = output_kind(np.concatenate([np.asarray(a), np.asarray(b)]))
    names = _auto_families(kind, a, b) if families == "auto" else (
        (families,) if isinstance(families, str) else tuple(families))
    plan = _Plan(len(a), n_certify, tuple(targets), z)
    pool: list[Candidate] = []
    for name in names:
        if name in ("threshold", "interval") and not kind.endswith("scalar"):
            raise ValueError(f"events={name!r} needs scalar outputs; these are {kind}s "
                             f"(use 'classifier' or 'histogram')")
        if name == "threshold":
            pool += _threshold_family(a, b, plan)
        elif name == "interval":
            pool += _interval_family(a, b, plan)
        elif name == "histogram":
            pool += _histogram_family(a, b, plan, kind)
        elif name == "float":
            pool += _histogram_family(a, b, plan, kind, floats=True)
        elif name == "mixed":
            if not kind.endswith("vector"):
                raise ValueError(f"events='mixed' needs record outputs (a category and a "
                                 f"value); these are {kind}s")
            pool += _mixed_family(a, b, plan)
        else:
            pool += _classifier_family(a, b, plan)
    return _select(pool, len(plan.targets))


def _same_event(one: Candidate, other: Candidate) -> bool:
    return (one.event.statistic is other.event.statistic and one.event.low == other.event.low
            and one.event.high == other.event.high)


def _select(pool: list[Candidate], points: int) -> list[Candidate]:
    """Per direction and point the best few (fewer per point on long curves), deduplicated.

    At most :data:`MAX_PER_DIRECTION` per direction, so the Bonferroni split stays cheap.
    """
    per_point = max(1, PER_DIRECTION // points)
    chosen: list[Candidate] = []
    for first in (0, 1):
        kept: list[Candidate] = []
        for point in range(points):
            mine = sorted((c for c in pool if c.first == first and c.point == point),
                          key=lambda c: -c.score)
            added = 0
            for candidate in mine:
                if added == per_point or len(kept) == MAX_PER_DIRECTION:
                    break
                if not any(_same_event(k, candidate) for k in kept):
                    kept.append(candidate)
                    added += 1
        chosen += kept
    return chosen


def user_events(events: Sequence[Callable[[np.ndarray], Any]]) -> list[Candidate]:
    """Both directions of each user indicator ``event(samples) -> bool array``.

    No search, hence no split: every sample certifies.
    """
    result = []
    for index, function in enumerate(events):
        name = getattr(function, "__name__", "event")
        statistic = Indicator(function, f"{name} (events[{index}])")
        event = Event(statistic, 0.5, np.inf, statistic.description, "user")
        result += [Candidate(event, 0), Candidate(event, 1)]
    return result
