"""Audits of whole interactive algorithms (a bandit over a reward stream), run in parallel.

An interactive algorithm's privacy is that of its whole transcript. Here one
*run* is the algorithm on a full input stream, ``run(stream, rng)``, and
``statistic(transcript)`` maps its transcript to the audited output (the
chosen arm counts, the actions, the released estimates): post-processing, so
a lower bound on the statistic's ε is a lower bound on the algorithm's.

Each run draws from its own stream, ``SeedSequence(seed).spawn(2 * runs)``
(run ``i`` on ``stream`` gets child ``2i``, on ``stream_prime`` child
``2i + 1``), so the outputs — and the report — depend on the seed only, not
on ``n_jobs``, the executor or the scheduling of the workers
(:mod:`dpverify.execution`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from dpverify._validation import (
    check_confidence,
    check_delta,
    check_epsilon,
    check_flag,
    check_int_at_least,
    check_seed,
)
from dpverify.auditing._pipeline.arguments import check_events
from dpverify.auditing._pipeline.engine import checked_output, sliced_draw
from dpverify.auditing._pipeline.run import audit_from_draw
from dpverify.auditing.report import AuditReport
from dpverify.errors import AuditError, DpverifyTypeError
from dpverify.execution import resolve_jobs, run_tasks

__all__ = ["audit_interactive", "run_outputs"]

#: Runs per task sent to a worker.
_BLOCK = 64


def _one_output(run: Callable, stream: Any, statistic: Callable, seed: np.random.SeedSequence
                ) -> np.ndarray:
    value = np.asarray(statistic(run(stream, np.random.default_rng(seed))))
    if value.dtype == bool:
        value = value.astype(np.int8)
    if value.dtype.kind not in "iuf":
        raise AuditError(f"statistic returned {value!r}; expected a number or a numeric vector")
    return value.reshape(-1)


def _block(run: Callable, statistic: Callable, streams: tuple[Any, Any],
           seeds: list[np.random.SeedSequence]) -> list[np.ndarray]:
    """One task: the outputs of consecutive runs, child ``2i`` on ``streams[0]``, ``2i + 1`` on ``streams[1]``."""
    return [_one_output(run, streams[child % 2], statistic, seed) for child, seed in enumerate(seeds)]


#: Most runs per side of an interactive audit (each is one call of the user's run function).
MAX_INTERACTIVE_RUNS = 10**7


def run_outputs(run: Callable, stream: Any, stream_prime: Any, *, statistic: Callable, runs: int,
                seed: Any = None, n_jobs: int = 1, progress: bool = False, executor: Any = None,
                scheduler: str | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The audited outputs of ``runs`` independent runs on each stream, in run order.

    Returns two arrays of shape ``(runs,)`` (scalar statistics) or
    ``(runs, d)``. Same seed, same arrays, whatever ``n_jobs``, ``executor``
    or ``scheduler`` (:mod:`dpverify.execution`).
    """
    runs = check_int_at_least(runs, "runs", 10, maximum=MAX_INTERACTIVE_RUNS,
                              instead="each run calls your run function once; run several "
                                      "seeded audits and combine them")
    resolve_jobs(n_jobs)
    seed = check_seed(seed)
    sequence = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    seeds = sequence.spawn(2 * runs)
    streams = (stream, stream_prime)
    tasks = [(run, statistic, streams, seeds[start:start + 2 * _BLOCK])
             for start in range(0, 2 * runs, 2 * _BLOCK)]
    results = run_tasks(_block, tasks, n_jobs=n_jobs, executor=executor, scheduler=scheduler,
                        progress=progress, label="running")
    flat = [output for outputs in results for output in outputs]
    widths = {len(o) for o in flat}
    if len(widths) != 1:
        raise AuditError(f"statistic returned outputs of different lengths {sorted(widths)}")
    stacked = np.stack(flat)
    stacked = stacked[:, 0] if stacked.shape[1] == 1 else stacked
    return stacked[0::2], stacked[1::2]


def audit_interactive(run: Callable[[Any, np.random.Generator], Any], stream: Any,
                      stream_prime: Any, *, statistic: Callable[[Any], Any], epsilon: float,
                      delta: float = 0.0, runs: int = 20_000, confidence: float = 0.95,
                      seed: Any = None, n_jobs: int = 1, progress: bool = False,
                      events: Any = "auto", executor: Any = None,
                      scheduler: str | None = None) -> AuditReport:
    """Audit an interactive algorithm's (ε, δ) claim on two neighbouring input streams.

    Parameters
    ----------
    run
        ``run(stream, rng) -> transcript``: one whole run of the algorithm
        (e.g. a bandit over a reward stream), drawing only from ``rng``.
    stream, stream_prime
        The neighbouring inputs (e.g. reward streams differing in one user's
        rewards), passed to ``run`` as they are.
    statistic
        ``statistic(transcript) -> number or vector``: the audited output.
    epsilon, delta, confidence, events
        As in :func:`dpverify.auditing.audit`.
    runs
        Independent runs per stream (>= 10); they are the audit's samples.
    seed
        ``None``, an int or a ``SeedSequence``: the same seed gives the same
        report regardless of ``n_jobs``. A ``SeedSequence`` is spawned from,
        which advances it (see :func:`dpverify.auditing.audit`).
    n_jobs, executor, scheduler
        Where the runs go (:mod:`dpverify.execution`): ``n_jobs`` local spawn
        workers (``-1``: every core; ``1``: this process), any
        ``concurrent.futures.Executor``, or a Dask scheduler address /
        ``"local"``. The report does not depend on them.
    progress
        tqdm progress bar over runs, on stderr.

    Returns
    -------
    AuditReport
        As :func:`dpverify.auditing.audit`, with ``samples = runs``.

    Notes
    -----
    Soundness is :func:`dpverify.auditing.audit`'s: runs are independent, the
    first third (by run index) searches, the rest certifies, with the same
    Bonferroni accounting. Off this process, ``run``, ``statistic`` and the
    streams reach the workers by cloudpickle (closures and lambdas are fine).

    Examples
    --------
    A two-arm "pick the better arm" algorithm releasing a noisy comparison:

    >>> def run(stream, rng):
    ...     totals = np.asarray(stream).sum(axis=0) + rng.laplace(0.0, 1.0, 2)
    ...     return [int(np.argmax(totals))]
    >>> rewards = np.array([[1, 0], [0, 0]]); neighbour = np.array([[0, 0], [0, 0]])
    >>> report = audit_interactive(run, rewards, neighbour, statistic=lambda t: t[0],
    ...                            epsilon=1.0, runs=3000, seed=5)
    >>> report.violation
    False
    """
    if not callable(run) or not callable(statistic):
        name = "run" if not callable(run) else "statistic"
        raise DpverifyTypeError(f"{name}={run if name == 'run' else statistic!r} must be callable")
    epsilon = check_epsilon(epsilon, "epsilon")
    delta = check_delta(delta, "delta")
    runs = check_int_at_least(runs, "runs", 10, maximum=MAX_INTERACTIVE_RUNS,
                              instead="each run calls your run function once; run several "
                                      "seeded audits and combine them")
    confidence = check_confidence(confidence)
    events = check_events(events)
    if progress is not None:  # None: a bar only for long audits
        check_flag(progress, "progress")
    seed = check_seed(seed)
    resolve_jobs(n_jobs)
    start = time.perf_counter()
    first, second = run_outputs(run, stream, stream_prime, statistic=statistic, runs=runs,
                                seed=seed, n_jobs=n_jobs, progress=progress, executor=executor,
                                scheduler=scheduler)
    first = checked_output(first, runs, None, "statistic")
    draw = sliced_draw(first, second)
    # the Poisson prefixes of a pure-ε audit: the seed's first child after the runs' own
    draw.prefix_rng = np.random.default_rng(
        seed.spawn(1)[0] if isinstance(seed, np.random.SeedSequence) else
        np.random.SeedSequence(np.random.SeedSequence(seed).entropy, spawn_key=(2 * runs,)))
    return audit_from_draw(draw, epsilon=epsilon, delta=delta, samples=runs,
                           confidence=confidence, events=events, progress=False, start=start)
