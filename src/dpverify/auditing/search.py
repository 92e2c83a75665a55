"""Worst-pair search: audit a mechanism on many neighbouring pairs with one false-alarm budget.

A violation often shows only on a particular pair — a sparse vector without
cutoff leaks on "half the queries up, half down", not on one query moved.
:func:`audit_search` takes a list of candidate pairs (the user's, or the
StatDP patterns of :func:`query_vector_patterns`) and

1. **pilot**: runs a small audit of every pair on its own samples and ranks
   the pairs by the bound their pilot event — chosen, like the pilot's whole
   event search, for the certifying audit's size — would certify at that size
   (one-sigma pessimistic plug-ins from the pilot's
   counts, Wilson bounds at the certifying audit's size and level), ties by
   the pilot lower bound, then the pilot plug-in ratio. A small pilot's own
   certified bound favours events of large mass; the prediction ranks the
   pairs for the audit that will certify them;
2. **certify**: audits the ``certify_top`` best pairs again on **fresh**
   samples, each at confidence ``1 − (1 − confidence)/certify_top``, and
   reports the best certified bound.

With ``samples="auto"`` the certification of each chosen pair is a
sequential audit (:func:`~dpverify.auditing.sequential.audit_sequential`:
doubling stages on fresh samples, stopping at the first certified violation,
``max_samples`` per side per pair) at the same per-pair level.

**Family-wise guarantee** (``docs/proofs/auditing.md`` §7). The chosen pairs
are a function of the pilot samples only; the certification samples are drawn
afterwards from independent streams, so conditionally on the pilot each
certifying audit is an ordinary audit of a fixed pair, valid with probability
``>= 1 − (1 − confidence)/k`` (§4). By the union bound over the ``k``
certified pairs, all their bounds hold together with probability
``>= confidence``, conditionally on the pilot and hence unconditionally. The
pilot bounds are never reported as certified. With ``samples="auto"`` each
certifying audit is a sequential one at level ``1 − (1 − confidence)/k``,
itself valid at that level whatever its stopping time (alpha spending over
its stages fixed before any draw, §8), so the same union bound over the
``k`` pairs applies (§7, "sequential certification").

References: Ding et al. 2018 (StatDP: the input patterns), Bichsel et al.
2021 (DP-Sniper, which uses the same patterns).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats

from dpverify._record_validation import check_record
from dpverify._validation import (
    check_confidence,
    check_delta,
    check_epsilon,
    check_int_at_least,
    check_seed,
    limit_error,
    value_error,
)
from dpverify.auditing._pipeline.arguments import check_audit_samples, check_events
from dpverify.auditing._pipeline.run import run_audit
from dpverify.auditing._pipeline.sampler import Sampler
from dpverify.auditing.audit import audit
from dpverify.auditing.events import PER_DIRECTION, Candidate, predicted_at
from dpverify.auditing.planning import certify_split_size, check_samples_can_certify
from dpverify.auditing.report import AuditReport
from dpverify.auditing.sequential import DEFAULT_MAX_SAMPLES
from dpverify.errors import DpverifyTypeError
from dpverify.neighbouring import InputPair, query_vector_patterns

__all__ = ["InputPair", "query_vector_patterns", "audit_search", "SearchReport", "MAX_PAIRS"]

#: Most candidate pairs one search accepts (the pilot's work grows with it).
MAX_PAIRS = 1000


@dataclass(frozen=True)
class SearchReport:
    """The result of :func:`audit_search`.

    Attributes
    ----------
    report
        The certified audit of the best certified pair (fresh samples).
    pair
        That pair.
    pairs
        Every candidate pair, in the order given.
    pilot_bounds
        Each pair's pilot ε lower bound (a ranking score, *not* certified).
    certified
        Indices (into ``pairs``) of the pairs audited on fresh samples.
    pilot_samples
        Outputs per side of each pilot audit.
    confidence
        Probability that every certified bound holds (the whole search).
    seconds
        Wall-clock time of pilot and certification.
    """

    report: AuditReport
    pair: InputPair
    pairs: tuple[InputPair, ...]
    pilot_bounds: tuple[float, ...]
    certified: tuple[int, ...]
    pilot_samples: int
    confidence: float
    seconds: float

    def __post_init__(self) -> None:
        check_record(self)

    @property
    def violation(self) -> bool:
        """A certified bound exceeds the claim (family-wise over the search)."""
        return self.report.violation

    @property
    def epsilon_lower_bound(self) -> float:
        """The best certified ε lower bound over the certified pairs."""
        return self.report.epsilon_lower_bound

    def __str__(self) -> str:
        name = self.pair.name or f"pair {self.pairs.index(self.pair)}"
        return (f"worst-pair search over {len(self.pairs)} pairs (pilot {self.pilot_samples} "
                f"samples per side each; {len(self.certified)} certified on fresh samples, "
                f"confidence {self.confidence:g} for the whole search)\n"
                f"  chosen pair      {name}: x={_short(self.pair.x)}, "
                f"x'={_short(self.pair.x_prime)}\n{self.report}")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (the certified report under ``"report"``)."""
        return {"violation": self.violation,
                "pair": {"name": self.pair.name, "x": _jsonable(self.pair.x),
                         "x_prime": _jsonable(self.pair.x_prime)},
                "pilot_bounds": [b if math.isfinite(b) else "inf" for b in self.pilot_bounds],
                "certified": list(self.certified), "pilot_samples": self.pilot_samples,
                "confidence": self.confidence, "seconds": self.seconds,
                "report": self.report.to_dict()}


def _short(value: Any) -> str:
    text = repr(_jsonable(value))
    return text if len(text) <= 60 else text[:57] + "..."


def _jsonable(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (tuple, list)):
        return [_jsonable(v) for v in value]
    return value


def _check_pairs(pairs: Any) -> tuple[InputPair, ...]:
    if isinstance(pairs, (str, bytes)) or not isinstance(pairs, Sequence) or not pairs:
        raise DpverifyTypeError(f"pairs={pairs!r} must be a non-empty sequence of (x, x') pairs "
                                f"or InputPair values (e.g. query_vector_patterns(n))")
    if len(pairs) > MAX_PAIRS:
        raise value_error("pairs", f"<{len(pairs)} pairs>", f"at most {MAX_PAIRS} pairs")
    result = []
    for index, pair in enumerate(pairs):
        if isinstance(pair, InputPair):
            result.append(pair)
        elif isinstance(pair, (tuple, list)) and len(pair) == 2:
            result.append(InputPair(pair[0], pair[1], f"pair {index}"))
        else:
            raise DpverifyTypeError(f"pairs[{index}]={pair!r} must be an (x, x') pair or an "
                                    f"InputPair")
    return tuple(result)


def audit_search(sampler: Sampler, pairs: Sequence[Any], *, epsilon: float, delta: float = 0.0,
                 samples: Any = 1_000_000, pilot_samples: int | None = None,
                 certify_top: int = 1, confidence: float = 0.95, seed: Any = None,
                 events: Any = "auto", threads: Any = "auto",
                 max_samples: int | None = None) -> SearchReport:
    """Find the neighbouring pair that best refutes the claim, and certify it on fresh samples.

    Parameters
    ----------
    sampler
        ``sampler(data, size, rng)`` as in :func:`~dpverify.auditing.audit`.
    pairs
        Candidate neighbouring pairs: ``(x, x')`` tuples or :class:`InputPair`
        values (at most :data:`MAX_PAIRS`), e.g. ``query_vector_patterns(n)``.
    epsilon, delta
        The claim.
    samples
        Outputs per side of each certifying audit, or ``"auto"``: each chosen
        pair is certified by a sequential audit that stops at its first
        certified violation (family-wise valid, see the module docstring).
    pilot_samples
        Outputs per side of each pilot audit (default ``samples // 10``, at
        least 10 000; with ``"auto"``, ``max_samples // 100``, at least
        10 000); at most ``max(10 000, samples or max_samples)``.
    max_samples
        With ``samples="auto"``: the budget per side of each chosen pair's
        sequential certification (default 10^7).
    certify_top
        How many of the best pilot pairs are certified (Bonferroni over them).
    confidence
        Probability that the whole search's certified bounds hold.
    seed, events, threads
        As in :func:`~dpverify.auditing.audit`; the pilot and each certifying
        audit get independent streams spawned from ``seed``.

    Returns
    -------
    SearchReport
        ``violation`` is certified family-wise: if the mechanism meets the
        claim on every pair, it is true with probability at most
        ``1 − confidence`` however many pairs were searched.

    Examples
    --------
    Sparse vector without a cutoff, claimed 1-DP, on the StatDP patterns:

    >>> def svt(queries, size, rng):
    ...     threshold = 0.5 + rng.laplace(0.0, 2.0, (size, 1))
    ...     return (queries + rng.laplace(0.0, 2.0, (size, len(queries))) >= threshold)
    >>> found = audit_search(svt, query_vector_patterns(6), epsilon=1.0, samples=300_000,
    ...                      seed=1)
    >>> found.violation, found.pair.name
    (True, 'X shape')
    """
    start = time.perf_counter()
    candidates = _check_pairs(pairs)
    epsilon = check_epsilon(epsilon, "epsilon")
    delta = check_delta(delta, "delta")
    sequential = isinstance(samples, str) and samples == "auto"
    if sequential:
        budget = DEFAULT_MAX_SAMPLES if max_samples is None else check_audit_samples(
            max_samples, "max_samples")
        default_pilot = max(10_000, budget // 100)
        samples = budget  # the most a certification may draw (ranking plans for it)
    else:
        if max_samples is not None:
            raise value_error("max_samples", max_samples, "None unless samples='auto'")
        samples = check_audit_samples(samples)
        budget, default_pilot = samples, max(10_000, samples // 10)
    pilot = default_pilot if pilot_samples is None else check_int_at_least(
        pilot_samples, "pilot_samples", 10)
    if pilot > max(10_000, budget):  # a pilot per pair costs more than the certifying audits
        raise limit_error("pilot_samples", pilot, max(10_000, budget),
                          "a pilot needs no more outputs than the certifying audit (samples= "
                          "or max_samples=); leave pilot_samples None for the default")
    certify_top = check_int_at_least(certify_top, "certify_top", 1)
    certify_top = min(certify_top, len(candidates))
    confidence = check_confidence(confidence)
    check_seed(seed)
    events = check_events(events)
    if not callable(sampler):
        raise DpverifyTypeError(f"sampler={sampler!r} must be callable: (data, size, rng) -> "
                                f"array")
    sequence = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    pilot_seeds = sequence.spawn(len(candidates))
    certify_seeds = sequence.spawn(certify_top)
    scores, bounds, pilot_reports = [], [], []
    final = certify_split_size(samples, events)
    z = float(stats.norm.isf((1 - confidence) / (2 * 2 * PER_DIRECTION)))
    for pair, child in zip(candidates, pilot_seeds):
        report = run_audit(sampler, pair.x, pair.x_prime, epsilon=epsilon, delta=delta,
                           samples=pilot, confidence=confidence, seed=child, events=events,
                           threads=threads, plan_certify=final)
        plug_in = _plug_in(report, delta)
        pilot_reports.append(report)
        bounds.append(report.epsilon_lower_bound)
        scores.append((_predicted_bound(report, delta, final, z), report.epsilon_lower_bound,
                       plug_in))
    order = sorted(range(len(candidates)), key=lambda i: scores[i], reverse=True)
    chosen = order[:certify_top]
    level = 1 - (1 - confidence) / certify_top
    if sequential or not isinstance(events, str):
        reports = [audit(sampler, candidates[i].x, candidates[i].x_prime, epsilon=epsilon,
                         delta=delta, samples="auto" if sequential else samples,
                         confidence=level, seed=child, events=events, threads=threads,
                         max_samples=budget if sequential else None)
                   for i, child in zip(chosen, certify_seeds)]
    else:  # each certifying audit also weighs the event its pilot ranked the pair by
        check_samples_can_certify(samples, epsilon=epsilon, delta=delta, confidence=level,
                                  events=events, refuse=False)
        reports = [run_audit(sampler, candidates[i].x, candidates[i].x_prime, epsilon=epsilon,
                             delta=delta, samples=samples, confidence=level, seed=child,
                             events=events, threads=threads,
                             extra_candidates=(_pilot_candidate(pilot_reports[i], delta, final,
                                                                z),))
                   for i, child in zip(chosen, certify_seeds)]
    best = max(range(len(reports)), key=lambda j: reports[j].epsilon_lower_bound)
    return SearchReport(report=reports[best], pair=candidates[chosen[best]], pairs=candidates,
                        pilot_bounds=tuple(bounds), certified=tuple(chosen), pilot_samples=pilot,
                        confidence=confidence, seconds=time.perf_counter() - start)


def _predicted_bound(report: AuditReport, delta: float, n_certify: int, z: float) -> float:
    """The ε lower bound the pilot's event would certify on ``n_certify`` fresh samples per side."""
    return predicted_at(report.p_hat, report.p_prime_hat, report.certify_samples, n_certify, z,
                        delta, conditional=delta == 0)


def _pilot_candidate(report: AuditReport, delta: float, n_certify: int, z: float) -> Candidate:
    """The pilot's event as a candidate of the certifying audit, scored on the pilot's certifying split.

    A function of the pilot's samples only, hence fixed for the certifying
    audit (its fresh samples certify it like any searched event).
    """
    n = report.certify_samples
    return Candidate(report.event, 0 if report.direction == "x, x'" else 1,
                     _predicted_bound(report, delta, n_certify, z), 0,
                     (report.p_hat * n, report.p_prime_hat * n))


def _plug_in(report: AuditReport, delta: float) -> float:
    if report.p_hat <= delta:
        return -math.inf
    if report.p_prime_hat == 0:
        return math.inf
    return math.log((report.p_hat - delta) / report.p_prime_hat)
