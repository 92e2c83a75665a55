"""Statistical audits: confidence-backed ε lower bounds from runs on neighbouring inputs.

:func:`audit` tests one (ε, δ) claim
(:func:`~dpverify.auditing.curves.audit_curve` a whole privacy profile, with
the same pipeline):

1. draw a **search** split (a third of the samples, at most
   :data:`~dpverify.auditing._engine.SEARCH_CAP` per side) and choose a few
   candidate events on it, in both directions
   (:mod:`dpverify.auditing.events`);
2. draw the disjoint **certification** split in chunks and count each
   candidate's event on both sides;
3. turn counts into Clopper–Pearson bounds, Bonferroni-corrected over every
   bound the audit uses (:func:`dpverify.auditing._engine.certified_bounds`),
   and report ``ε_lb = ln((p_low − δ)/p'_high)`` (Jagielski et al. 2020) —
   for pure-ε claims also one exact conditional bound on ``p/p'``
   (Poisson-sized prefixes, ``docs/proofs/auditing.md`` §4a).

**False alarms.** If the pair really is (ε, δ)-DP, all bounds hold together
with probability >= ``confidence``, and then no candidate's ``ε_lb`` exceeds
ε: the audit flags a correct mechanism with probability at most
``1 − confidence``, whatever the search did (``docs/proofs/auditing.md``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from scipy import stats

from dpverify._validation import (
    check_delta,
    check_epsilon,
    check_flag,
    check_int_at_least,
    check_n_jobs,
    check_seed,
    check_confidence,
    value_error,
)
from dpverify.auditing._engine import (
    SEARCH_CAP,
    SEARCH_FRACTION,
    Draw,
    certified_bounds,
    run_search_and_count,
)
from dpverify.auditing._candidates import predicted_at
from dpverify.auditing._outputs import CategoryCodes, as_columns
from dpverify.auditing._safety import check_threads, choose_threads
from dpverify.auditing.estimators import ConfidenceInterval
from dpverify.auditing.events import FAMILIES
from dpverify.auditing.report import AuditReport
from dpverify.errors import DpverifyTypeError
from dpverify.guarantees import ApproxDP, PureDP

__all__ = ["audit", "audit_from_draw", "Sampler", "SamplerDraw", "check_events", "check_seed",
           "prepare_draw", "check_samples_can_certify", "run_audit", "check_common"]

#: ``sampler(data, size, rng) -> np.ndarray``: ``size`` independent outputs of the mechanism on ``data``.
Sampler = Callable[[Any, int, np.random.Generator], Any]


def check_events(events: Any) -> Any:
    """``"auto"``, a family name, or a non-empty list of indicator callables."""
    if isinstance(events, str):
        if events not in ("auto", *FAMILIES):
            raise value_error("events", events, f"one of {('auto', *FAMILIES)!r} or a list of "
                                                f"indicator callables")
        return events
    if isinstance(events, Sequence) and events and all(callable(e) for e in events):
        return list(events)
    raise DpverifyTypeError(f"events={events!r} must be 'auto', a family name, or a non-empty "
                            f"list of callables samples -> bool array")


#: Most samples per side of one audit (drawn and counted in chunks; time grows with them).
MAX_AUDIT_SAMPLES = 10**9


def check_common(sampler: Any, samples: Any, confidence: Any, seed: Any,
                  events: Any) -> tuple[int, float, Any]:
    if not callable(sampler):
        raise DpverifyTypeError(f"sampler={sampler!r} must be callable: (data, size, rng) -> "
                                f"array")
    samples = check_int_at_least(samples, "samples", 10, maximum=MAX_AUDIT_SAMPLES,
                                 instead="an audit's error shrinks like 1/sqrt(samples); run "
                                         "several seeded audits and combine them")
    confidence = check_confidence(confidence)
    check_seed(seed)
    return samples, confidence, check_events(events)


def prepare_draw(sampler: Sampler, x: Any, x_prime: Any, seed: Any,
                 threads: Any = "auto", samples: int | None = None) -> tuple[Draw, bool]:
    """A :data:`~dpverify.auditing._engine.Draw` calling the sampler, and whether to use threads.

    ``SeedSequence(seed).spawn(2)``: one generator per side, so the two sides'
    outputs are independent and the same seed gives the same audit. Record
    outputs (tuples, dicts, structured arrays, strings) are flattened to
    numeric columns (:func:`dpverify.auditing._outputs.as_columns`). The
    sampler is probed first (:func:`dpverify.auditing._safety.choose_threads`):
    a sampler that ignores its rng or shares state between the sides is drawn
    in one thread, with a loud :class:`~dpverify.errors.AuditWarning`.
    """
    threads = check_threads(threads)
    codes = CategoryCodes()
    threaded = choose_threads(sampler, (x, x_prime), threads, codes, max_rows=samples)
    sequence = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    return SamplerDraw(sampler, (x, x_prime), sequence, codes), threaded


class SamplerDraw:
    """A :data:`~dpverify.auditing._engine.Draw` on a sampler: one spawned generator per side.

    ``codes`` maps string categories to numbers; the engine calls
    :meth:`end_search` when the event search is done, which freezes them
    (:meth:`~dpverify.auditing._outputs.CategoryCodes.freeze`) so that the
    certification split — here or in chunks elsewhere — codes every output
    the same way.
    """

    def __init__(self, sampler: Sampler, data: tuple[Any, Any], sequence: np.random.SeedSequence,
                 codes: CategoryCodes) -> None:
        self.sampler, self.data, self.codes = sampler, data, codes
        self._generators = [np.random.default_rng(child) for child in sequence.spawn(2)]
        #: Draws the Poisson prefix sizes (:func:`~dpverify.auditing._engine.prefix_sizes`):
        #: child ``(4,)`` of the seed, independent of both sides' outputs and of the chunks'.
        self.prefix_rng = np.random.default_rng(np.random.SeedSequence(
            sequence.entropy, spawn_key=sequence.spawn_key + (4,)))

    def __call__(self, side: int, size: int) -> Any:
        return as_columns(self.sampler(self.data[side], size, self._generators[side]), size,
                          self.codes)

    def end_search(self) -> None:
        self.codes.freeze()


def certify_split_size(samples: int, events: Any) -> int:
    if not isinstance(events, str):
        return samples
    return samples - min(max(1, int(samples * SEARCH_FRACTION)), SEARCH_CAP)


def check_samples_can_certify(samples: int, *, epsilon: float, delta: float, confidence: float,
                              events: Any, refuse: bool = True) -> None:
    """Refuse (``ValueError`` naming ``samples``) an audit that cannot certify any ε above the claim.

    ``refuse=False`` warns instead (:class:`~dpverify.errors.AuditWarning`),
    which is what :func:`audit` does: such an audit runs, but it can never
    fail, and says so.

    Even the most separating event (every output of one side in it, none of
    the other) certifies at most
    :func:`~dpverify.auditing.planning.largest_certifiable_epsilon` of the
    certifying split; the message says how many samples the most extreme
    violation needs and points to ``samples="auto"``.
    """
    from dpverify.auditing.planning import largest_certifiable_epsilon

    bound = largest_certifiable_epsilon(certify_split_size(samples, events), confidence=confidence,
                                        delta=delta)
    if bound > epsilon:
        return
    needed = samples
    while largest_certifiable_epsilon(certify_split_size(needed, events), confidence=confidence,
                                      delta=delta) <= epsilon:
        needed *= 2
        if needed > 10 ** 13:
            break
    if needed > 10 ** 13:  # the claim itself is beyond any practical audit: name epsilon
        most = largest_certifiable_epsilon(certify_split_size(needed, events),
                                           confidence=confidence, delta=delta)
        error = value_error("epsilon", epsilon, f"at most {most:.3g} for an audit to refute it",
                            f"even {needed} samples per side (samples={samples} given) cannot "
                            f"certify an epsilon above it at confidence {confidence:g}; audit a "
                            f"smaller claim")
    else:
        error = value_error("samples", samples, "large enough to certify an epsilon above the "
                            f"claim {epsilon!r}",
                            f"with {samples} samples per side no event can certify more than "
                            f"{bound:.3g} at confidence {confidence:g}, so the audit could never "
                            f"refute the claim; use samples={needed} or more (the least that can "
                            f"refute it even for a mechanism with disjoint outputs; real "
                            f"violations need more: see dpverify.auditing.samples_to_certify) or "
                            f"samples='auto'")
    if refuse:
        raise error
    import warnings

    from dpverify.errors import AuditWarning

    warnings.warn(f"this audit cannot fail: {error}", AuditWarning, stacklevel=3)


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
        (:mod:`dpverify.auditing._safety`); ``False``: one thread; ``True``:
        two threads for any callable that passes the probe.
    max_samples
        The budget per side of ``samples="auto"`` (default 10^7).
    n_jobs, executor, scheduler, chunk_samples
        Large audits: the certification split is drawn and counted in chunks
        of ``chunk_samples`` outputs, each with its own spawned seed, on
        ``n_jobs`` local workers, an ``executor`` or a Dask ``scheduler``
        (:mod:`dpverify.execution`; ``sampler`` is sent by cloudpickle); the
        counts merge exactly (:mod:`dpverify.auditing._chunked`). The report
        depends on ``chunk_samples`` (default 2^20 when any of the others is
        set) and not on where the chunks run; with all four at their defaults
        the audit draws one stream per side in this process.

    Returns
    -------
    AuditReport
        ``violation`` is true only if ``epsilon_lower_bound > epsilon``.

    Notes
    -----
    **Soundness.** With probability >= ``confidence`` over all the audit's
    randomness, ``epsilon_lower_bound`` is at most the smallest ε for which
    the pair is (ε, δ)-DP with the claimed δ; the correction covers the
    search, both directions and every candidate event. See
    :func:`dpverify.auditing._engine.certified_bounds` and
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
        from dpverify.auditing.sequential import audit_sequential

        return audit_sequential(sampler, x, x_prime, epsilon=epsilon, delta=delta,
                                max_samples=max_samples, confidence=confidence, seed=seed,
                                events=events, progress=progress, threads=threads)
    if max_samples is not None:
        raise value_error("max_samples", max_samples, "None unless samples='auto'")
    samples, confidence, events = check_common(sampler, samples, confidence, seed, events)
    if progress is not None:  # None: a bar only for long audits
        check_flag(progress, "progress")
    epsilon = check_epsilon(epsilon, "epsilon")
    delta = check_delta(delta, "delta")
    check_samples_can_certify(samples, epsilon=epsilon, delta=delta, confidence=confidence,
                              events=events, refuse=False)
    return run_audit(sampler, x, x_prime, epsilon=epsilon, delta=delta, samples=samples,
                     confidence=confidence, seed=seed, events=events, progress=progress,
                     threads=threads, n_jobs=n_jobs, executor=executor, scheduler=scheduler,
                     chunk_samples=chunk_samples)


def run_audit(sampler: Sampler, x: Any, x_prime: Any, *, epsilon: float, delta: float,
              samples: int, confidence: float, seed: Any, events: Any,
              progress: bool | None = False, threads: Any = "auto", n_jobs: Any = 1,
              executor: Any = None, scheduler: str | None = None,
              chunk_samples: int | None = None, plan_certify: int | None = None,
              extra_candidates: Sequence[Any] = ()) -> AuditReport:
    """:func:`audit` with validated arguments and no refusal (pilots, sequential stages).

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
        from dpverify.auditing._chunked import DEFAULT_CHUNK_SAMPLES, chunked_certifier
        from dpverify.execution import check_scheduler, resolve_jobs

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
    """:func:`audit` on any :data:`~dpverify.auditing._engine.Draw` (validated arguments).

    A pure-ε audit (``delta = 0``) on a draw with a ``prefix_rng`` (a
    :class:`SamplerDraw`) also certifies each candidate by the conditional
    ratio bound on Poisson prefixes (:func:`~dpverify.auditing._engine.certified_bounds`).
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
    )
