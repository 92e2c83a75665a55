"""Statistical audits: confidence-backed ε lower bounds from runs on neighbouring inputs.

:func:`audit` tests one (ε, δ) claim
(:func:`~dpverify.auditing.curves.audit_curve` a whole privacy profile, with
the same pipeline):

1. draw a **search** split (a third of the samples, at most
   :data:`~dpverify.auditing._pipeline.engine.SEARCH_CAP` per side) and choose
   a few candidate events on it, in both directions
   (:mod:`dpverify.auditing.events`);
2. draw the disjoint **certification** split in chunks and count each
   candidate's event on both sides;
3. turn counts into Clopper–Pearson bounds, Bonferroni-corrected over every
   bound the audit uses
   (:func:`dpverify.auditing._pipeline.engine.certified_bounds`), and report
   ``ε_lb = ln((p_low − δ)/p'_high)`` (Jagielski et al. 2020) — for pure-ε
   claims also one exact conditional bound on ``p/p'``
   (Poisson-sized prefixes, ``docs/proofs/auditing.md`` §4a).

**False alarms.** If the pair really is (ε, δ)-DP, all bounds hold together
with probability >= ``confidence``, and then no candidate's ``ε_lb`` exceeds
ε: the audit flags a correct mechanism with probability at most
``1 − confidence``, whatever the search did (``docs/proofs/auditing.md``).

The pipeline itself lives in :mod:`dpverify.auditing._pipeline`; the helpers
this module exported in 0.1 (``run_audit``, ``audit_from_draw``,
``prepare_draw``, ``SamplerDraw``, ``check_common``, ``check_events``,
``check_seed``, ``check_samples_can_certify``) are still importable from it.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from dpverify._validation import check_delta, check_epsilon, check_flag, check_seed, value_error
from dpverify.auditing._pipeline.arguments import check_common, check_events
from dpverify.auditing._pipeline.run import audit_from_draw, run_audit
from dpverify.auditing._pipeline.sampler import Sampler, SamplerDraw, prepare_draw
from dpverify.auditing.next_steps import counting_hint
from dpverify.auditing.planning import check_samples_can_certify
from dpverify.auditing.report import AuditReport
from dpverify.auditing.sequential import audit_sequential

__all__ = ["audit", "Sampler",
           # the 0.1 import path of the pipeline's helpers (dpverify.auditing._pipeline)
           "audit_from_draw", "SamplerDraw", "check_events", "check_seed", "prepare_draw",
           "check_samples_can_certify", "run_audit", "check_common"]


def audit(sampler: Sampler, x: Any, x_prime: Any, *, epsilon: float, delta: float = 0.0,
          samples: Any = 1_000_000, confidence: float = 0.95, seed: Any = None,
          events: Any = "auto", progress: bool | None = False, threads: Any = "auto",
          max_samples: int | None = None, n_jobs: Any = 1, executor: Any = None,
          scheduler: str | None = None, chunk_samples: int | None = None) -> AuditReport:
    """Audit the claim that a mechanism is (ε, δ)-DP on the neighbouring pair (x, x').

    Parameters
    ----------
    sampler
        ``sampler(data, size, rng) -> np.ndarray``: ``size`` independent
        outputs on ``data`` — shape ``(size,)`` (scalars, integers or
        categorical codes) or ``(size, d)`` (vectors), or a record of such
        fields (a tuple, a dict or a structured array: e.g. an index and a
        noisy value; string fields are categories); draw with ``rng`` only.
    x, x_prime
        The neighbouring inputs, passed to ``sampler`` as they are.
    epsilon, delta
        The claim (``delta = 0``: pure ε-DP).
    samples
        Outputs drawn per side, search and certification together (>= 10),
        or ``"auto"``: a sequential audit that stops as soon as a violation is
        certified or ``max_samples`` are spent
        (:func:`dpverify.auditing.sequential.audit_sequential`). A number too
        small to certify anything above ``epsilon`` gets an
        :class:`~dpverify.errors.AuditWarning` saying how many samples could
        (the audit would pass whatever the mechanism; the CLI refuses it).
    confidence
        Probability that the whole audit's bounds hold (default 0.95).
    seed
        ``None``, an int or a ``SeedSequence``; the same seed gives the same report.
        A ``SeedSequence`` is spawned from, and spawning advances it: passing
        the same object to a second audit gives that audit fresh streams. To
        replay an audit, pass the int again (or a new
        ``SeedSequence(entropy)``).
    events
        ``"auto"`` (by output kind), ``"threshold"``, ``"interval"``,
        ``"histogram"``, ``"classifier"``, or a list of indicator callables
        ``f(outputs) -> bool array`` (then no search: all samples certify).
    progress
        Show a tqdm progress bar on stderr while certifying; ``None``: only
        when stderr is a terminal (tqdm's ``disable=None``).
    threads
        ``"auto"`` (default): draw the two sides in two threads when the
        sampler is a plain function that passes a probe of its contract
        (:mod:`dpverify.auditing._pipeline.safety`); ``False``: one thread;
        ``True``: two threads for any callable that passes the probe.
    max_samples
        The budget per side of ``samples="auto"`` (default 10^7).
    n_jobs, executor, scheduler, chunk_samples
        Large audits: the certification split is drawn and counted in chunks
        of ``chunk_samples`` outputs, each with its own spawned seed, on
        ``n_jobs`` local workers, an ``executor`` or a Dask ``scheduler``
        (:mod:`dpverify.execution`; ``sampler`` is sent by cloudpickle); the
        counts merge exactly (:mod:`dpverify.auditing._pipeline.chunked`). The
        report depends on ``chunk_samples`` (default 2^20 when any of the
        others is set) and not on where the chunks run; with all four at their defaults
        the audit draws one stream per side in this process.

    Returns
    -------
    AuditReport
        ``violation`` is true only if ``epsilon_lower_bound > epsilon``. When
        no violation is found and counting at this size could not have
        refuted an approximate claim (a Gaussian near it violates it only on
        events too rare to count), ``next_step`` says so with numbers and
        names the audits that can, with the samples they need
        (:mod:`dpverify.auditing.next_steps`).

    Notes
    -----
    **Soundness.** With probability >= ``confidence`` over all the audit's
    randomness, ``epsilon_lower_bound`` is at most the smallest ε for which
    the pair is (ε, δ)-DP with the claimed δ; the correction covers the
    search, both directions and every candidate event. See
    :func:`dpverify.auditing._pipeline.engine.certified_bounds` and
    ``docs/proofs/auditing.md``. Floating-point outputs of simulation samplers
    are audited as they are: a float artefact of a sampler is part of the
    mechanism audited. The two sides are drawn in two threads, each with its
    own generator, so ``sampler`` must not share mutable state between calls
    on different data; the counts do not depend on the threads' scheduling.

    References: Bichsel et al. 2021 (DP-Sniper), Jagielski et al. 2020,
    Clopper & Pearson 1934.

    Examples
    --------
    Laplace noise of scale 1/2 claimed to be 1-DP (it is 2-DP):

    >>> def noisy(data, size, rng):
    ...     return data + rng.laplace(0.0, 0.5, size)
    >>> report = audit(noisy, 0.0, 1.0, epsilon=1.0, samples=200_000, seed=1)
    >>> report.violation, 1.0 < report.epsilon_lower_bound <= 2.0
    (True, True)
    """
    if isinstance(samples, str) and samples == "auto":
        return _with_next_step(audit_sequential(
            sampler, x, x_prime, epsilon=epsilon, delta=delta, max_samples=max_samples,
            confidence=confidence, seed=seed, events=events, progress=progress, threads=threads))
    if max_samples is not None:
        raise value_error("max_samples", max_samples, "None unless samples='auto'")
    samples, confidence, events = check_common(sampler, samples, confidence, seed, events)
    if progress is not None:  # None: a bar only for long audits
        check_flag(progress, "progress")
    epsilon = check_epsilon(epsilon, "epsilon")
    delta = check_delta(delta, "delta")
    check_samples_can_certify(samples, epsilon=epsilon, delta=delta, confidence=confidence,
                              events=events, refuse=False)
    return _with_next_step(run_audit(
        sampler, x, x_prime, epsilon=epsilon, delta=delta, samples=samples,
        confidence=confidence, seed=seed, events=events, progress=progress, threads=threads,
        n_jobs=n_jobs, executor=executor, scheduler=scheduler, chunk_samples=chunk_samples))


def _with_next_step(report: AuditReport) -> AuditReport:
    """``report`` with its :attr:`~AuditReport.next_step` hint when no violation was found.

    :func:`~dpverify.auditing.next_steps.counting_hint` decides whether counting
    at this size could have refuted the claim; the hint adds no bound and
    changes no verdict.
    """
    if report.violation or report.next_step is not None or report.certify_samples < 1 \
            or report.bounds < 1 or report.guarantee.epsilon == 0:
        return report
    hint = counting_hint(epsilon=report.guarantee.epsilon, delta=report.delta,
                         certify_samples=report.certify_samples, confidence=report.confidence,
                         bounds=report.bounds)
    return report if hint is None else dataclasses.replace(report, next_step=hint)
