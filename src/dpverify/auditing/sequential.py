"""Sequential audits: stop as soon as a violation is certified, within a sample budget.

How many samples a violation needs is rarely known in advance (it depends on
the probability of the event that shows it, :func:`~dpverify.auditing.planning.samples_to_certify`).
:func:`audit_sequential` — what ``audit(..., samples="auto", max_samples=N)``
runs — audits in **stages** of doubling size on fresh samples,

    n_1, 2 n_1, 4 n_1, …   (the last stage takes what is left of max_samples),

and stops at the first stage that certifies a violation, or when the budget
``max_samples`` per side is spent.

**Anytime validity** (``docs/proofs/auditing.md`` §8). The number of stages
``K`` is fixed by ``(n_1, max_samples)`` before any sample is drawn, and stage
``k`` is an ordinary audit (search and certification on its own fresh
samples) at confidence ``1 − (1 − confidence)/K``. By the union bound, all
``K`` stages' bounds hold together with probability ``>= confidence`` —
including those of the stages never run — so the bound reported at whatever
stage the audit stops (the largest certified so far) is valid whatever the
stopping rule: a correct mechanism is flagged with probability at most
``1 − confidence``. The price of not knowing ``n`` is at most a factor 2 in
the final stage's size plus the earlier stages (together less than it), and
a slightly smaller per-stage level.
"""

from __future__ import annotations

import dataclasses
import math
import time
from typing import Any

import numpy as np

from dpverify._deprecation import renamed_parameters
from dpverify._validation import check_delta, check_epsilon, check_flag, check_int_at_least, value_error
from dpverify.auditing._pipeline.arguments import check_audit_samples, check_common
from dpverify.auditing._pipeline.run import run_audit
from dpverify.auditing._pipeline.sampler import Sampler
from dpverify.auditing.planning import certify_split_size, largest_certifiable_epsilon
from dpverify.auditing.report import AuditReport

__all__ = ["audit_sequential", "stage_sizes", "DEFAULT_MAX_SAMPLES", "MIN_FIRST_STAGE"]

#: The default budget per side of a sequential audit.
DEFAULT_MAX_SAMPLES = 10_000_000
#: The smallest first stage.
MIN_FIRST_STAGE = 10_000


@renamed_parameters(first="first_samples")
def stage_sizes(first_samples: int, max_samples: int) -> list[int]:
    """Doubling stage sizes from ``first_samples`` whose total is at most ``max_samples``.

    The last stage takes the rest of the budget when it is at least the
    previous stage's size (else the rest is left unspent).

    >>> stage_sizes(10_000, 100_000)
    [10000, 20000, 40000, 30000]
    >>> stage_sizes(10_000, 75_000)
    [10000, 20000, 40000]
    """
    sizes, total, size = [], 0, first_samples
    while total + size <= max_samples:
        sizes.append(size)
        total += size
        size *= 2
    rest = max_samples - total
    if sizes and rest >= sizes[-1] // 2 and rest >= first_samples:
        sizes.append(rest)
    return sizes


def _first_stage(epsilon: float, delta: float, confidence: float, events: Any,
                 max_samples: int) -> int:
    """Four times the fewest samples that could certify anything above ``epsilon``."""
    n = MIN_FIRST_STAGE // 4
    while n <= max_samples:
        stages = max(1, len(stage_sizes(4 * n, max_samples)))
        level = 1 - (1 - confidence) / stages
        if largest_certifiable_epsilon(certify_split_size(n, events), confidence=level,
                                       delta=delta) > epsilon:
            return max(MIN_FIRST_STAGE, 4 * n)
        n *= 2
    return max_samples + 1


def audit_sequential(sampler: Sampler, x: Any, x_prime: Any, *, epsilon: float,
                     delta: float = 0.0, max_samples: int | None = None,
                     confidence: float = 0.95, seed: Any = None, events: Any = "auto",
                     progress: bool | None = False, threads: Any = "auto",
                     first_samples: int | None = None) -> AuditReport:
    """Audit in doubling stages until a violation is certified or ``max_samples`` are spent.

    Parameters
    ----------
    sampler, x, x_prime, epsilon, delta, confidence, seed, events, progress, threads
        As in :func:`~dpverify.auditing.audit`.
    max_samples
        The budget per side over all stages (default :data:`DEFAULT_MAX_SAMPLES`).
    first_samples
        The first stage's size (default: four times the fewest samples that
        could certify anything above ``epsilon``, at least 10 000).

    Returns
    -------
    AuditReport
        The stage with the largest certified bound, with ``samples`` = all
        samples drawn per side, ``confidence`` = the whole sequential audit's,
        ``stages`` = ``(size, bound)`` of every stage run and
        ``mode = "sequential"``.

    Examples
    --------
    Laplace(1/2) claimed 1-DP stops at the first stage:

    >>> report = audit_sequential(lambda d, n, rng: d + rng.laplace(0, 0.5, n), 0.0, 1.0,
    ...                           epsilon=1.0, seed=1)
    >>> report.violation, len(report.stages), report.samples
    (True, 1, 10000)
    """
    start = time.perf_counter()
    # checked here, by its own name, against the audit limit (check_common's refusal would
    # name ``samples``, which the caller did not pass)
    max_samples = DEFAULT_MAX_SAMPLES if max_samples is None else check_audit_samples(
        max_samples, "max_samples")
    _, confidence, events = check_common(sampler, max_samples, confidence, seed, events)
    epsilon = check_epsilon(epsilon, "epsilon")
    delta = check_delta(delta, "delta")
    first = (_first_stage(epsilon, delta, confidence, events, max_samples)
             if first_samples is None else check_int_at_least(first_samples, "first_samples", 10))
    if progress is not None:  # None: a bar only for long stages
        check_flag(progress, "progress")
    sizes = stage_sizes(first, max_samples)
    if not sizes and first_samples is not None:
        raise value_error("first_samples", first_samples, f"at most max_samples={max_samples}",
                          "pass a smaller first_samples or a larger max_samples")
    if not sizes:
        raise value_error("max_samples", max_samples, f">= {first}",
                          f"a budget of {max_samples} samples per side cannot hold one stage "
                          f"able to certify an epsilon above {epsilon!r}")
    level = 1 - (1 - confidence) / len(sizes)
    sequence = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    children = sequence.spawn(len(sizes))
    best: AuditReport | None = None
    history: list[tuple[int, float]] = []
    for size, child in zip(sizes, children):
        report = run_audit(sampler, x, x_prime, epsilon=epsilon, delta=delta, samples=size,
                           confidence=level, seed=child, events=events, progress=progress,
                           threads=threads)
        history.append((size, report.epsilon_lower_bound))
        if best is None or report.epsilon_lower_bound > best.epsilon_lower_bound:
            best = report
        if report.violation:
            break
    assert best is not None
    spent = sum(n for n, _ in history)
    return dataclasses.replace(best, samples=spent, confidence=confidence, stages=tuple(history),
                               mode="sequential", seconds=time.perf_counter() - start,
                               violation=best.epsilon_lower_bound > epsilon)


def planned_stages(epsilon: float, *, delta: float = 0.0, confidence: float = 0.95,
                   max_samples: int = DEFAULT_MAX_SAMPLES) -> list[int]:
    """The stage sizes :func:`audit_sequential` would use by default (for planning)."""
    first = _first_stage(check_epsilon(epsilon, "epsilon"), check_delta(delta, "delta"),
                         confidence, "auto", check_audit_samples(max_samples, "max_samples"))
    return stage_sizes(first, max_samples) if not math.isinf(first) else []
