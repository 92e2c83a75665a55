"""One audit of one (ε, δ) claim: search, certify, and report the best certified bound.

:func:`run_audit` is :func:`~dpverify.auditing.audit` after validation and
without its refusal of audits too small to fail: the sequential stages
(:mod:`dpverify.auditing.sequential`) and the worst-pair search's pilots
(:mod:`dpverify.auditing.search`) call it directly. :func:`audit_from_draw`
audits any :data:`~dpverify.auditing._pipeline.engine.Draw` (pre-drawn outputs
of an interactive algorithm, :mod:`dpverify.auditing.interactive`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
from scipy import stats

from dpverify._validation import check_int_at_least, check_n_jobs
from dpverify.auditing._pipeline.chunked import DEFAULT_CHUNK_SAMPLES, chunked_certifier
from dpverify.auditing._pipeline.engine import Draw, certified_bounds, run_search_and_count
from dpverify.auditing._pipeline.sampler import Sampler, prepare_draw
from dpverify.auditing.estimators import ConfidenceInterval
from dpverify.auditing.events import predicted_at
from dpverify.auditing.report import AuditReport
from dpverify.execution import check_scheduler, resolve_jobs
from dpverify.guarantees import ApproxDP, PureDP

__all__ = ["run_audit", "audit_from_draw"]


def run_audit(sampler: Sampler, x: Any, x_prime: Any, *, epsilon: float, delta: float,
              samples: int, confidence: float, seed: Any, events: Any,
              progress: bool | None = False, threads: Any = "auto", n_jobs: Any = 1,
              executor: Any = None, scheduler: str | None = None,
              chunk_samples: int | None = None, plan_certify: int | None = None,
              extra_candidates: Sequence[Any] = ()) -> AuditReport:
    """:func:`~dpverify.auditing.audit` with validated arguments and no refusal (pilots, stages).

    ``plan_certify``: the certification size the event search plans for
    (default this audit's own), e.g. a pilot choosing events for the audit
    that will certify them; the report then shows the candidate predicted
    best at that size (its bound is certified like every candidate's, but
    need not be the largest of this audit). ``extra_candidates``: events fixed
    before this audit drew anything (e.g. a pilot's), considered beside the
    search's own (:func:`dpverify.auditing.events.search_events`).
    """
    start = time.perf_counter()
    root = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    certify = None
    check_n_jobs(n_jobs)  # also on the one-process path: n_jobs=True or 1.5 is a mistake
    chunked = chunk_samples is not None or n_jobs != 1 or executor is not None or \
        scheduler is not None
    if chunked:
        resolve_jobs(n_jobs)
        check_scheduler(scheduler)
        chunk = DEFAULT_CHUNK_SAMPLES if chunk_samples is None else \
            check_int_at_least(chunk_samples, "chunk_samples", 1)
    draw, threaded = prepare_draw(sampler, x, x_prime, root, threads, samples)
    if chunked:
        # the probe's one-thread decision holds for the chunks too: they run here, in turn
        certify = chunked_certifier(sampler, x, x_prime, root, chunk_samples=chunk,
                                    codes=draw.codes, concurrent=threaded, progress=progress,
                                    n_jobs=n_jobs, executor=executor, scheduler=scheduler)
    return audit_from_draw(draw, epsilon=epsilon, delta=delta, samples=samples,
                           confidence=confidence, events=events, progress=progress, start=start,
                           threads=threaded, certify=certify, plan_certify=plan_certify,
                           extra_candidates=extra_candidates)


def audit_from_draw(draw: Draw, *, epsilon: float, delta: float, samples: int, confidence: float,
                    events: Any, progress: bool | None, start: float,
                    threads: bool = True, certify: Any = None,
                    plan_certify: int | None = None,
                    extra_candidates: Sequence[Any] = ()) -> AuditReport:
    """:func:`~dpverify.auditing.audit` on any :data:`~dpverify.auditing._pipeline.engine.Draw`.

    The arguments are already validated.

    A pure-ε audit (``delta = 0``) on a draw with a ``prefix_rng`` (a
    :class:`~dpverify.auditing._pipeline.sampler.SamplerDraw`) also certifies each candidate by the conditional
    ratio bound on Poisson prefixes (:func:`~dpverify.auditing._pipeline.engine.certified_bounds`).
    """
    prefix_rng = getattr(draw, "prefix_rng", None) if delta == 0 else None
    counts = run_search_and_count(draw, samples=samples, families=events,
                                  targets=(("delta", delta),), confidence=confidence,
                                  progress=progress, threads=threads, certify=certify,
                                  plan_certify=plan_certify, prefix_rng=prefix_rng,
                                  extra_candidates=extra_candidates)
    conditional = prefix_rng is not None and counts.prefix_mean is not None
    bounds = certified_bounds(counts, confidence, conditional=conditional)
    lower_bounds = bounds.epsilon_lower_bounds(delta)
    ratios = [(low - delta) / high if high > 0 else math.inf
              for low, high in zip(bounds.p_lower, bounds.p_prime_upper)]
    if plan_certify is None:
        best = max(range(len(lower_bounds)), key=lambda i: (lower_bounds[i], ratios[i]))
    else:  # a pilot reports the event best for the audit that will certify (still valid)
        z = float(stats.norm.isf((1 - confidence) / bounds.bounds))
        best = max(range(len(lower_bounds)), key=lambda i: (
            predicted_at(float(bounds.p_hat[i]), float(bounds.p_prime_hat[i]), counts.n_certify,
                         plan_certify, z, delta, conditional), lower_bounds[i]))
    candidate = counts.candidates[best]
    guarantee = PureDP(epsilon) if delta == 0 else ApproxDP(epsilon, delta)
    return AuditReport(
        guarantee=guarantee,
        epsilon_lower_bound=lower_bounds[best],
        event=candidate.event,
        direction="x, x'" if candidate.first == 0 else "x', x",
        p_hat=float(bounds.p_hat[best]),
        p_prime_hat=float(bounds.p_prime_hat[best]),
        p_interval=ConfidenceInterval(float(bounds.p_lower[best]), 1.0),
        p_prime_interval=ConfidenceInterval(0.0, float(bounds.p_prime_upper[best])),
        samples=samples,
        seconds=time.perf_counter() - start,
        confidence=confidence,
        violation=lower_bounds[best] > epsilon,
        search_samples=counts.n_search,
        certify_samples=counts.n_certify,
        bounds=bounds.bounds,
        kind=counts.kind,
        ratio_lower=None if bounds.ratio_lower is None else float(bounds.ratio_lower[best]),
        conditional=bounds.conditional_used(best),
        reproducible=getattr(getattr(draw, "sampler", None), "reproducible", True) is not False,
    )
