"""The audit engine shared by audit, audit_curve, audit_interactive and the divergence bounds.

One pass: draw the search split, choose candidate events on it
(:func:`dpverify.auditing.events.search_events`), then draw the certification
split in memory-bounded chunks and count, per candidate, how many outputs of
each side fall in its event — vectorised, ``O(n)`` per cut point on the
candidate's 1-D statistic. Bounds are then Clopper–Pearson at the
Bonferroni level described in :func:`certified_bounds`.

For pure-ε audits the certification split also has a **Poisson-sized
prefix** per side (:func:`prefix_sizes`): counts on it are independent
Poisson variables, so the count of ``x`` given the total of both sides is
binomial in ``p/(p + p')`` alone, and one exact Clopper–Pearson bound on that
proportion bounds the ratio ``p/p'`` directly
(:func:`dpverify.auditing.estimators.conditional_ratio_lower`) — about
``√2`` narrower in ``ln(p/p')`` than two one-sided bounds combined.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats

from dpverify._validation import check_int_at_least
from dpverify.auditing.estimators import (
    clopper_pearson_lower,
    clopper_pearson_upper,
    conditional_ratio_lower,
    epsilon_lower_bound,
    ratio_epsilon,
)
from dpverify.auditing.events import Candidate, output_kind, search_events, user_events
from dpverify.errors import AuditError

__all__ = ["Draw", "checked_output", "Counts", "Certifier", "run_search_and_count", "certified_bounds", "SEARCH_CAP",
           "count_chunk", "prefix_sizes", "PREFIX_SIGMAS", "PREFIX_MIN", "SEPARATE_SHARE"]

#: ``draw(side, size)``: the next ``size`` outputs of side 0 (``x``) or 1 (``x'``). A draw may
#: have an ``end_search()`` method, called once the event search is done (before certifying).
Draw = Callable[[int, int], np.ndarray]

#: Most rows per side spent on the event search.
SEARCH_CAP = 1_000_000
#: Most array elements held by the search split per side (vector outputs).
SEARCH_ELEMENTS = 1 << 24
#: Elements per certification chunk (scalars: 2^16 outputs, about 0.5 MB).
CHUNK_ELEMENTS = 1 << 16
#: Fraction of the samples spent on the search (capped by SEARCH_CAP).
SEARCH_FRACTION = 1 / 3
#: The Poisson prefix's mean is ``n − PREFIX_SIGMAS·√n``: it exceeds the ``n`` outputs drawn
#: (no conditional bound) with probability about 3·10^-5 per side.
PREFIX_SIGMAS = 4.0
#: Smallest certification split with a Poisson prefix (below it the prefix wastes too much).
PREFIX_MIN = 1_000
#: Share of the false-alarm budget kept by the two one-sided bounds when the conditional
#: bounds are used too (pure-ε audits); the conditional ratio bounds get the rest.
SEPARATE_SHARE = 0.1


@dataclass(frozen=True)
class Counts:
    """Certification counts: ``counts[i, side]`` outputs of ``side`` in candidate ``i``'s event."""

    candidates: tuple[Candidate, ...]
    counts: np.ndarray
    n_certify: int
    n_search: int
    kind: str
    #: ``prefix_counts[i, side]``: the same counts on the first ``prefix[side]`` outputs of
    #: the certification split, ``prefix[side] ~ Poisson(prefix_mean)`` drawn independently
    #: of the outputs; ``None`` when there is no prefix or a side's exceeded ``n_certify``.
    prefix_counts: np.ndarray | None = None
    prefix_mean: float | None = None
    prefix: tuple[int, int] | None = None


def checked_output(values: Any, size: int, width: int | None, name: str = "sampler") -> np.ndarray:
    """The sampler's output as ``(size,)`` or ``(size, d)`` numbers; AuditError otherwise."""
    array = np.asarray(values)
    if array.dtype == bool:
        array = array.astype(np.int8)
    if array.dtype.kind not in "iuf":
        raise AuditError(f"{name} returned {array.dtype} outputs; expected numbers "
                         f"(scalars, integer or float vectors, or categorical codes)")
    if array.ndim == 0 or array.shape[0] != size:
        raise AuditError(f"{name} returned shape {array.shape} for size={size}; the first axis "
                         f"must index the {size} independent outputs")
    if array.ndim > 2:
        array = array.reshape(size, -1)
    if array.ndim == 2 and array.shape[1] == 1:
        array = array[:, 0]
    row = 1 if array.ndim == 1 else array.shape[1]
    if width is not None and row != width:
        raise AuditError(f"{name} returned outputs of {row} coordinates, earlier ones had {width}")
    return array


def _width(array: np.ndarray) -> int:
    return 1 if array.ndim == 1 else array.shape[1]


def _draw_search(draw: Draw, n_search: int, threads: bool = True
                 ) -> tuple[np.ndarray, np.ndarray, int]:
    """Both sides' search splits; shrinks the split for wide outputs (memory bound)."""
    first = min(n_search, 1024)
    heads = [checked_output(draw(side, first), first, None) for side in (0, 1)]
    width = _width(heads[0])
    if _width(heads[1]) != width:
        raise AuditError(f"the outputs on x have {width} coordinates, on x' {_width(heads[1])}")
    n_search = max(first, min(n_search, SEARCH_ELEMENTS // width))
    rest = n_search - first

    def tail(side: int) -> np.ndarray:
        parts = [heads[side]]
        if rest:
            parts.append(checked_output(draw(side, rest), rest, width))
        return np.concatenate(parts)

    sides = _per_side(tail, threads)
    for side, array in zip(("x", "x'"), sides):
        if array.dtype.kind == "f" and np.isnan(array).any():
            raise AuditError(f"the sampler returned NaN outputs on {side}")
    return sides[0], sides[1], width


def count_chunk(values: Any, size: int, groups: dict[int, tuple[Any, np.ndarray]],
                width: int | None) -> tuple[dict[int, np.ndarray], int]:
    """One certification chunk's counts per candidate group, and its output width (validated)."""
    chunk = checked_output(values, size, width)
    return _count_chunk(chunk, groups), width or _width(chunk)


def _count_chunk(chunk: np.ndarray, groups: dict[int, tuple[Any, np.ndarray]]) -> dict[int, np.ndarray]:
    """``#{s <= cut}`` for every statistic's cut points (count_nonzero per cut, SIMD-fast)."""
    result = {}
    for key, (statistic, cuts) in groups.items():
        values = statistic(chunk)
        if len(cuts) > 24:
            ordered = np.sort(values)
            result[key] = np.searchsorted(ordered, cuts, side="right")
        else:
            result[key] = np.array([np.count_nonzero(values <= cut) for cut in cuts])
    return result


def _groups(candidates: Sequence[Candidate]) -> dict[int, tuple[Any, np.ndarray]]:
    groups: dict[int, tuple[Any, list[float]]] = {}
    for candidate in candidates:
        statistic = candidate.event.statistic
        entry = groups.setdefault(id(statistic), (statistic, []))
        entry[1].extend(c for c in (candidate.event.low, candidate.event.high) if c != -np.inf)
    return {k: (s, np.unique(np.asarray(c, dtype=np.float64))) for k, (s, c) in groups.items()}


def progress_disable(progress: bool | None) -> bool | None:
    """tqdm's ``disable`` for ``progress``: ``None`` shows a bar only on a terminal."""
    return None if progress is None else not progress


class _NoBar:
    """What :func:`_progress` returns when no bar is shown: tqdm's context and ``update``."""

    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        return None

    def update(self, count: int) -> None:
        return None


def _progress(total: int, enabled: bool | None) -> Any:
    if enabled is False:  # the default: no bar, and no tqdm import (~0.04 s CPU) on the first audit
        return _NoBar()
    # tqdm.auto loads asyncio and probes for Jupyter (~0.15 s): paid by the first
    # certification that shows a bar, not by `import dpverify.auditing`
    from tqdm.auto import tqdm  # deferred: heavy

    return tqdm(total=total, unit="samples", unit_scale=True, desc="certifying",
                disable=progress_disable(enabled), file=sys.stderr, leave=False)


#: ``certify(n_certify, width, groups, prefix) -> ([totals of side 0, of side 1], [width 0,
#: width 1], [totals of the prefixes] or None)``: a replacement of the in-process
#: certification (e.g. chunks on an executor); ``prefix`` is ``None`` or the Poisson prefix
#: size of each side (:func:`prefix_sizes`), whose totals it must return too.
Certifier = Callable[[int, "int | None", dict, "tuple[int, int] | None"],
                     tuple[list[dict[int, np.ndarray]], list["int | None"],
                           "list[dict[int, np.ndarray]] | None"]]


def run_search_and_count(draw: Draw, *, samples: int, families: Any, targets: Sequence[Any],
                         confidence: float, progress: bool | None = False,
                         threads: bool = True, certify: Certifier | None = None,
                         plan_certify: int | None = None,
                         prefix_rng: np.random.Generator | None = None,
                         extra_candidates: Sequence[Candidate] = ()) -> Counts:
    """Search on a first split, then count the candidates' events on the rest, in chunks.

    With user-supplied events (a list of callables) there is no search: all
    ``samples`` certify. ``threads=False`` draws the two sides one after the
    other in the calling thread (same counts, same report). ``certify``
    replaces the in-process certification (its counts are sums over
    independent outputs, so any split merges exactly). ``plan_certify`` is the
    certification size the search scores its events for (default the actual
    one; a pilot plans for the audit that will certify). ``prefix_rng``: draw
    Poisson prefixes (:func:`prefix_sizes`) for the conditional ratio bounds
    of pure-ε audits, and let the search score events for them.
    ``extra_candidates``: events fixed before this audit's draws (a pilot's),
    weighed with the search's own (:func:`~dpverify.auditing.events.search_events`).
    """
    samples = check_int_at_least(samples, "samples", 10)
    fixed = not isinstance(families, str)
    if fixed:
        candidates = user_events(families)
        n_search, width = 0, None
        kind = "user events"
    else:
        n_search = min(max(1, int(samples * SEARCH_FRACTION)), SEARCH_CAP)
        a, b, width = _draw_search(draw, n_search, threads)
        n_search, kind = len(a), output_kind(a)
        planned = 2 * 2 * 3 * max(1, len(targets))
        z = float(stats.norm.isf((1 - confidence) / planned))
        planned_size = samples - n_search if plan_certify is None else plan_certify
        candidates = search_events(a, b, families=families, certify_samples=planned_size,
                                   targets=targets, normal_quantile=z,
                                   conditional=prefix_rng is not None,
                                   extra_candidates=extra_candidates)
        del a, b
    end_search = getattr(draw, "end_search", None)
    if end_search is not None:  # e.g. freeze category codes: certification codes them alike
        end_search()
    if not candidates:
        deltas = [value for kind_, value in targets if kind_ == "delta"]
        reason = ""
        if deltas and max(deltas) >= 0.5:
            reason = (f": a violation at delta={max(deltas)!r} needs an event of probability above "
                      "delta under x, and none of the search's events can show one at this size "
                      "(a claim with delta this close to 1 is all but vacuous; audit a smaller delta)")
        raise AuditError("the event search found no candidate event" + reason)
    n_certify = samples - n_search
    groups = _groups(candidates)
    prefix, prefix_mean = prefix_sizes(n_certify, prefix_rng)
    if certify is not None:
        sides, widths, at_prefix = certify(n_certify, width, groups, prefix)
        results = list(zip(sides, widths, at_prefix or (None, None)))
    else:
        with _progress(2 * n_certify, progress) as bar:
            results = _per_side(lambda side: _certify_side(
                draw, side, n_certify, width, groups, bar,
                None if prefix is None else prefix[side]), threads)
    totals = {side: results[side][0] for side in (0, 1)}
    if n_certify and results[0][1] != results[1][1]:
        raise AuditError(f"the outputs on x have {results[0][1]} coordinates, "
                         f"on x' {results[1][1]}")
    prefix_counts = None if prefix is None else _event_counts(
        candidates, groups, {side: results[side][2] for side in (0, 1)}, n_certify)
    return Counts(tuple(candidates), _event_counts(candidates, groups, totals, n_certify),
                  n_certify, n_search, kind, prefix_counts, prefix_mean, prefix)


def _per_side(work: Callable[[int], Any], threads: bool = True) -> list[Any]:
    """``[work(0), work(1)]``, the two sides in two threads (numpy releases the GIL).

    Each side has its own generator and its own position in the draw, so the
    results do not depend on the scheduling. ``threads=False``: one after the other.
    """
    if not threads:
        return [work(0), work(1)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = [pool.submit(work, side) for side in (0, 1)]
        return [future.result() for future in futures]


def _certify_side(draw: Draw, side: int, n_certify: int, width: int | None,
                  groups: dict[int, tuple[Any, np.ndarray]], bar: Any, prefix: int | None = None
                  ) -> tuple[dict[int, np.ndarray], int | None, dict[int, np.ndarray] | None]:
    """Count one side's certification split, chunk by chunk (memory bounded).

    With ``prefix`` (at most ``n_certify``) a chunk ends at that output, and the
    totals there are returned too.
    """
    totals = {k: np.zeros(len(c), dtype=np.int64) for k, (_, c) in groups.items()}
    at_prefix = None
    done = 0
    while done < n_certify:
        if prefix is not None and done == prefix:
            at_prefix = {k: v.copy() for k, v in totals.items()}
        size = min(max(64, CHUNK_ELEMENTS // (width or 1)), n_certify - done)
        if prefix is not None and done < prefix:
            size = min(size, prefix - done)
        chunk = checked_output(draw(side, size), size, width)
        width = width or _width(chunk)
        for key, counted in _count_chunk(chunk, groups).items():
            totals[key] += counted
        done += size
        bar.update(size)
    if prefix is not None and at_prefix is None:  # prefix == n_certify
        at_prefix = {k: v.copy() for k, v in totals.items()}
    return totals, width, at_prefix


def prefix_sizes(n_certify: int, rng: np.random.Generator | None
                 ) -> tuple[tuple[int, int] | None, float | None]:
    """Poisson prefix sizes ``(M_x, M_x')`` of the certification split, and their mean ``λ``.

    ``M ~ Poisson(λ)``, ``λ = n − PREFIX_SIGMAS·√n``, one per side, drawn from
    ``rng`` (independent of the outputs). The outputs among the first ``M`` of
    a side that fall in a fixed event ``S`` are then ``Poisson(λ·P[S])``
    exactly — a Poisson number of Bernoulli trials — and the two sides are
    independent. Returns ``(None, λ)`` when a side's ``M`` exceeds ``n``
    (probability about 3·10^-5 per side): that audit has no conditional
    bound (never a wrong one), and ``(None, None)`` without ``rng`` or below
    :data:`PREFIX_MIN`.
    """
    if rng is None or n_certify < PREFIX_MIN:
        return None, None
    mean = n_certify - PREFIX_SIGMAS * np.sqrt(n_certify)
    sizes = tuple(int(m) for m in rng.poisson(mean, 2))
    return (None if max(sizes) > n_certify else sizes), float(mean)


def _event_counts(candidates: Sequence[Candidate], groups: dict, totals: dict,
                  n_certify: int) -> np.ndarray:
    counts = np.zeros((len(candidates), 2), dtype=np.int64)
    for index, candidate in enumerate(candidates):
        statistic = candidate.event.statistic
        cuts = groups[id(statistic)][1]
        for side in (0, 1):
            le = totals[side][id(statistic)]

            def below(cut: float) -> int:
                if cut == -np.inf:
                    return 0
                return int(le[np.searchsorted(cuts, cut)])

            counts[index, side] = below(candidate.event.high) - below(candidate.event.low)
    return counts


@dataclass(frozen=True)
class Bounds:
    """Simultaneous bounds: ``p_lower[i] <= P[M(first) ∈ S_i]``, ``p_prime_upper[i] >= P[M(second) ∈ S_i]``.

    ``ratio_lower[i] <= P[M(first) ∈ S_i] / P[M(second) ∈ S_i]`` (conditional
    bounds, pure-ε audits with a Poisson prefix; ``None`` otherwise).
    """

    p_hat: np.ndarray
    p_prime_hat: np.ndarray
    p_lower: np.ndarray
    p_prime_upper: np.ndarray
    alpha: float
    bounds: int
    ratio_lower: np.ndarray | None = None
    ratio_alpha: float = 0.0

    def epsilon_lower_bounds(self, delta: float) -> list[float]:
        """Each candidate's certified ``ε_lb`` at ``delta``: the better of its two bounds."""
        values = [epsilon_lower_bound(float(low), float(high), delta=delta)
                  for low, high in zip(self.p_lower, self.p_prime_upper)]
        if self.ratio_lower is not None and delta == 0:
            values = [max(value, ratio_epsilon(float(r))) for value, r in
                      zip(values, self.ratio_lower)]
        return values

    def conditional_used(self, index: int) -> bool:
        """Whether candidate ``index``'s ``ε_lb`` at δ = 0 comes from its conditional bound."""
        if self.ratio_lower is None:
            return False
        separate = epsilon_lower_bound(float(self.p_lower[index]),
                                       float(self.p_prime_upper[index]))
        return ratio_epsilon(float(self.ratio_lower[index])) > separate


def certified_bounds(counts: Counts, confidence: float, conditional: bool = False) -> Bounds:
    """Clopper–Pearson bounds on every candidate, Bonferroni-corrected over the whole audit.

    Accounting: each of the ``K`` candidates (an event and a direction)
    contributes two one-sided bounds — a lower bound on ``p = P[M(first) ∈ S]``
    and an upper bound on ``p' = P[M(second) ∈ S]`` — each at level
    ``α = (1 − confidence)/(2K)``. Given the search split, the events are
    fixed and the certification counts are independent binomials, so by the
    union bound all ``2K`` bounds hold together with probability at least
    ``confidence`` (conditionally on the search, hence also unconditionally).
    Every ε or δ lower bound the audit reports (each candidate, each curve
    point, either direction) is a function of these bounds alone, so all of
    them are valid together. Proof note: ``docs/proofs/auditing.md``.

    ``conditional=True`` (pure-ε audits, whose counts carry a Poisson prefix,
    :func:`prefix_sizes`): the two one-sided bounds get ``SEPARATE_SHARE`` of
    the budget, ``α = SEPARATE_SHARE·(1 − confidence)/(2K)`` each, and each
    candidate also gets a lower bound on ``p/p'`` from the prefix counts
    (:func:`~dpverify.auditing.estimators.conditional_ratio_lower`) at
    ``(1 − SEPARATE_SHARE)(1 − confidence)/K``: ``3K`` bounds whose levels sum
    to ``1 − confidence``. The split is fixed before any count, and kept even
    when a prefix exceeded the split (then the ratio bounds are the trivial 0).
    """
    first = np.array([c.first for c in counts.candidates])
    rows = np.arange(len(first))
    k_first, k_second = counts.counts[rows, first], counts.counts[rows, 1 - first]
    budget = 1 - confidence
    if conditional:
        bounds = 3 * len(first)
        alpha = SEPARATE_SHARE * budget / (2 * len(first))
        ratio_alpha = (1 - SEPARATE_SHARE) * budget / len(first)
        if counts.prefix_counts is None:
            ratio = np.zeros(len(first))
        else:
            prefix = counts.prefix_counts
            ratio = np.array([conditional_ratio_lower(int(a), int(b),
                                                      failure_probability=ratio_alpha)
                              for a, b in zip(prefix[rows, first], prefix[rows, 1 - first])])
    else:
        bounds = 2 * len(first)
        alpha, ratio_alpha, ratio = budget / bounds, 0.0, None
    n = counts.n_certify
    return Bounds(p_hat=k_first / n, p_prime_hat=k_second / n,
                  p_lower=np.atleast_1d(clopper_pearson_lower(k_first, n,
                                                              failure_probability=alpha)),
                  p_prime_upper=np.atleast_1d(clopper_pearson_upper(k_second, n,
                                                                    failure_probability=alpha)),
                  alpha=alpha, bounds=bounds, ratio_lower=ratio, ratio_alpha=ratio_alpha)


def sliced_draw(first: np.ndarray, second: np.ndarray) -> Draw:
    """A :data:`Draw` serving two pre-drawn output arrays front to back."""
    positions = [0, 0]
    arrays = (first, second)

    def draw(side: int, size: int) -> np.ndarray:
        start = positions[side]
        if start + size > len(arrays[side]):
            raise AuditError("not enough pre-drawn outputs")
        positions[side] = start + size
        return arrays[side][start:start + size]

    return draw
