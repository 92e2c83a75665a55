"""The event search: candidate events chosen on the search split, in both directions.

:func:`search_events` runs the families that fit the output kind, keeps the
best few candidates per direction and prunes those that would only cost
level; :func:`user_events` turns user indicators into candidates.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from dpverify._deprecation import renamed_parameters
from dpverify._validation import check_callable, shown
from dpverify.auditing.events._candidates import (
    FAMILIES,
    Candidate,
    OutputEvent,
    Plan,
    Target,
    threshold_family,
)
from dpverify.auditing.events._scalar_families import histogram_family, interval_family
from dpverify.auditing.events._sentinel_families import has_sentinels, sentinel_family
from dpverify.auditing.events._statistics import (
    Indicator,
    KeyCoder,
    output_kind,
    rows,
    statistic_values,
)
from dpverify.auditing.events._vector_families import classifier_family, is_mixed, mixed_family
from dpverify.errors import DpverifyTypeError

__all__ = ["FAMILIES", "PER_DIRECTION", "MAX_PER_DIRECTION", "search_events", "user_events"]

#: Candidates certified per direction in a one-point audit.
PER_DIRECTION = 3
#: Hard cap per direction (curves): the Bonferroni count is at most 2 x 2 x this.
MAX_PER_DIRECTION = 20
#: At most this many distinct rows per search sample for a vector histogram in "auto".
_HISTOGRAM_DENSITY = 0.2


def _auto_families(kind: str, a: np.ndarray, b: np.ndarray) -> tuple[str, ...]:
    if kind == "continuous scalar":
        return ("threshold", "interval")
    if kind == "discrete scalar":
        return ("histogram", "threshold")
    if kind == "continuous vector":
        sentinel = ("sentinel",) if has_sentinels(a, b) else ()
        return (("mixed",) if is_mixed(a, b) else ()) + sentinel + ("classifier",)
    if not _key_space_ok(a, b):
        return ("classifier",)
    head = a[:100_000]
    distinct = len(np.unique(KeyCoder.fit(np.concatenate([rows(a), rows(b)]))(head)))
    return ("histogram", "classifier") if distinct <= _HISTOGRAM_DENSITY * len(head) else (
        "classifier",)


def _pooled_kind(a: np.ndarray, b: np.ndarray) -> str:
    """``output_kind`` of both sides' outputs together, without copying them into one array.

    The pooled outputs are discrete exactly when each side's are (a side of integers is
    integral as floats too); arrays that do not stack go through the pooled check and
    its errors.
    """
    if (a.ndim != b.ndim or a.shape[1:] != b.shape[1:] or not len(a) or not len(b)
            or a.dtype.kind not in "biuf" or b.dtype.kind not in "biuf"):
        return output_kind(np.concatenate([a, b]))
    kinds = output_kind(a), output_kind(b)
    discrete = all(kind.startswith("discrete") for kind in kinds)
    return ("discrete " if discrete else "continuous ") + kinds[0].split()[1]


def _key_space_ok(a: np.ndarray, b: np.ndarray) -> bool:
    pooled = np.concatenate([rows(a), rows(b)])
    spans = pooled.max(axis=0).astype(np.float64) - pooled.min(axis=0) + 1
    return float(np.prod(spans)) < 2.0 ** 62


@renamed_parameters(a="samples", b="samples_prime", n_certify="certify_samples",
                    z="normal_quantile", extra="extra_candidates")
def search_events(samples: np.ndarray, samples_prime: np.ndarray, *,
                  families: str | Sequence[str], certify_samples: int,
                  targets: Sequence[Target], normal_quantile: float, conditional: bool = False,
                  extra_candidates: Sequence[Candidate] = ()) -> list[Candidate]:
    """Candidate events chosen on the search split: outputs on ``x`` and on ``x'``.

    Parameters
    ----------
    samples, samples_prime
        Search-split outputs a (on ``x``) and b (on ``x'``), ``(n,)`` or ``(n, d)``,
        never reused for certification.
    families
        ``"auto"`` or one name (or several) from :data:`FAMILIES`.
    certify_samples
        Size of the certification split per side (scores predict its bounds).
    targets
        What to maximise, one per audited point: ``("delta", δ)`` for the
        certified ε lower bound at δ, ``("epsilon", ε)`` for the certified
        δ lower bound at ε.
    normal_quantile
        z, the normal quantile of the planned per-bound level (scores only).
    conditional
        Pure-ε targets will also be certified by the conditional ratio bound
        (:func:`dpverify.auditing._pipeline.engine.certified_bounds`): score for it too.
    extra_candidates
        Candidates fixed independently of the search split (a pilot's event,
        scored on the pilot's certifying split), weighed with the search's
        own by the one-point pruning.

    Returns
    -------
    list of Candidate
        At most :data:`PER_DIRECTION` per direction and target, best predicted first.
    """
    a, b = samples, samples_prime
    kind = _pooled_kind(np.asarray(a), np.asarray(b))
    names = _auto_families(kind, a, b) if families == "auto" else (
        (families,) if isinstance(families, str) else tuple(families))
    plan = Plan(len(a), certify_samples, tuple(targets), normal_quantile, conditional)
    pool: list[Candidate] = []
    for name in names:
        if name in ("threshold", "interval") and not kind.endswith("scalar"):
            raise ValueError(f"events={name!r} needs scalar outputs; these are {kind}s "
                             f"(use 'classifier' or 'histogram')")
        if name == "threshold":
            pool += threshold_family(a, b, plan)
        elif name == "interval":
            pool += interval_family(a, b, plan)
        elif name == "histogram":
            pool += histogram_family(a, b, plan, kind)
        elif name == "float":
            pool += histogram_family(a, b, plan, kind, floats=True)
        elif name == "mixed":
            if not kind.endswith("vector"):
                raise ValueError(f"events='mixed' needs record outputs (a category and a "
                                 f"value); these are {kind}s")
            sentinels = has_sentinels(a, b)
            if is_mixed(a, b) or not sentinels:
                pool += mixed_family(a, b, plan, cells=not sentinels)
            if "sentinel" not in names:
                pool += sentinel_family(a, b, plan)
        elif name == "sentinel":
            if not kind.endswith("vector"):
                raise ValueError(f"events='sentinel' needs vector outputs; these are {kind}s")
            pool += sentinel_family(a, b, plan)
        else:
            pool += classifier_family(a, b, plan)
    chosen = _select(pool, len(plan.targets)) + list(extra_candidates)
    if len(plan.targets) == 1 and plan.targets[0][0] == "delta":
        chosen = _prune(chosen, a, b)
    return chosen


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


#: A candidate predicted below the best by more than this many standard errors of the
#: difference of their search-split log ratios is not certified (it would only cost level).
HEDGE_SIGMAS = 1.0
#: Two candidates of one direction whose events overlap this much (Jaccard index ``J`` of
#: their search-split outputs) are one test: only the better is certified. Nested events'
#: frequency estimates correlate about ``√J``; from ``√J ≈ 0.6`` on, the expected gain of
#: certifying both (the maximum of two correlated estimates, ``σ√((1 − ρ)/π)``) is below the
#: cost of splitting the level between them (``(z_{α/2} − z_α)σ ≈ 0.35σ``).
DUPLICATE_OVERLAP = 0.35


def _prune(chosen: list[Candidate], a: np.ndarray, b: np.ndarray) -> list[Candidate]:
    """Keep the best candidate and only those that hedge it; each one kept costs level.

    The Bonferroni split of :func:`dpverify.auditing._pipeline.engine.certified_bounds`
    widens every bound as candidates are added, so a candidate is certified
    only if it could plausibly beat the best: its predicted bound is within
    :data:`HEDGE_SIGMAS` standard errors (of the search split's log-ratio
    estimates, ``√(1/k + 1/k')`` each) of the best's, and it is not a near
    copy of a kept candidate of the same direction (Jaccard overlap of the
    events' search-split outputs below :data:`DUPLICATE_OVERLAP`). A function
    of the search split only: the certification's validity is untouched.
    """
    order = sorted(chosen, key=lambda c: -c.score)
    if len(order) <= 1 or not np.isfinite(order[0].score):
        return chosen

    def variance(candidate: Candidate) -> float:
        return sum(1.0 / max(count, 1.0) for count in candidate.search_counts)

    values: dict[int, np.ndarray] = {}  # candidates share statistics: evaluate each once

    def inside_of(candidate: Candidate) -> np.ndarray:  # OutputEvent.__call__ on a and b
        event = candidate.event
        statistic = event.statistic
        if id(statistic) not in values:  # side by side: memoised first steps and values hit
            values[id(statistic)] = np.concatenate([statistic_values(statistic, side)
                                                    for side in (a, b)])
        return (values[id(statistic)] > event.low) & (values[id(statistic)] <= event.high)

    best = order[0]
    kept = [(best, inside_of(best))]
    for candidate in order[1:]:
        if not candidate.score >= best.score - HEDGE_SIGMAS * np.sqrt(
                variance(best) + variance(candidate)):
            continue
        inside = inside_of(candidate)
        if any(other.first == candidate.first and np.count_nonzero(inside & events) >=
               DUPLICATE_OVERLAP * max(1, np.count_nonzero(inside | events))
               for other, events in kept):
            continue
        kept.append((candidate, inside))
    return [candidate for candidate, _ in kept]


def user_events(events: Sequence[Callable[[np.ndarray], Any]]) -> list[Candidate]:
    """Both directions of each user indicator ``event(samples) -> bool array``.

    No search, hence no split: every sample certifies.
    """
    if isinstance(events, (str, bytes)) or callable(events) or not isinstance(events, Iterable):
        raise DpverifyTypeError(f"events={shown(events)} must be a sequence of indicators "
                                "outputs -> truth values, e.g. [lambda y: y > 0.5]")
    result = []
    for index, function in enumerate(events):
        check_callable(function, f"events[{index}]", "an indicator: outputs -> truth values")
        name = getattr(function, "__name__", "event")
        statistic = Indicator(function, f"{name} (events[{index}])")
        event = OutputEvent(statistic, 0.5, np.inf, statistic.description, "user")
        result += [Candidate(event, 0), Candidate(event, 1)]
    return result

