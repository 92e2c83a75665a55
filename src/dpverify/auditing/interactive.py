"""Audits of whole interactive algorithms (a bandit over a reward stream), run in parallel.

An interactive algorithm's privacy is that of its whole transcript. Here one
*run* is the algorithm on a full input stream, ``run(stream, rng)``, and
``statistic(transcript)`` maps its transcript to the audited output (the
chosen arm counts, the actions, the released estimates): post-processing, so
a lower bound on the statistic's ε is a lower bound on the algorithm's.

Each run draws from its own stream, ``SeedSequence(seed).spawn(2 * runs)``
(run ``i`` on ``stream`` gets child ``2i``, on ``stream_prime`` child
``2i + 1``), so the outputs — and the report — depend on the seed only, not
on ``n_jobs`` or the scheduling of the worker processes.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from typing import Any

import numpy as np

from dpverify._validation import (
    check_delta,
    check_epsilon,
    check_flag,
    check_int_at_least,
    check_n_jobs,
    check_probability,
    value_error,
)
from dpverify.auditing._engine import checked_output, sliced_draw
from dpverify.auditing.audit import audit_from_draw, check_events, check_seed
from dpverify.auditing.report import AuditReport
from dpverify.errors import AuditError, DpverifyTypeError

__all__ = ["audit_interactive", "run_outputs"]

#: The work of the current parallel call, inherited by forked workers (so lambdas work).
_WORK: dict[str, Any] = {}
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


def _block(indices: tuple[int, int]) -> list[np.ndarray]:
    """Worker task: outputs of runs ``start <= i < stop`` (both streams, interleaved)."""
    work = _WORK
    start, stop = indices
    outputs = []
    for child in range(start, stop):
        stream = work["streams"][child % 2]
        outputs.append(_one_output(work["run"], stream, work["statistic"], work["seeds"][child]))
    return outputs


#: Most runs per side of an interactive audit (each is one call of the user's run function).
MAX_INTERACTIVE_RUNS = 10**7


def _check_jobs(n_jobs: Any) -> int:
    return check_n_jobs(n_jobs)


def run_outputs(run: Callable, stream: Any, stream_prime: Any, *, statistic: Callable, runs: int,
                seed: Any = None, n_jobs: int = 1, progress: bool = False
                ) -> tuple[np.ndarray, np.ndarray]:
    """The audited outputs of ``runs`` independent runs on each stream, in run order.

    Returns two arrays of shape ``(runs,)`` (scalar statistics) or
    ``(runs, d)``. Same seed, same arrays, whatever ``n_jobs``.
    """
    runs = check_int_at_least(runs, "runs", 10, maximum=MAX_INTERACTIVE_RUNS,
                              instead="each run calls your run function once; run several "
                                      "seeded audits and combine them")
    jobs = _check_jobs(n_jobs)
    seed = check_seed(seed)
    sequence = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    _WORK.clear()
    _WORK.update(run=run, statistic=statistic, streams=(stream, stream_prime),
                 seeds=sequence.spawn(2 * runs))
    blocks = [(start, min(start + 2 * _BLOCK, 2 * runs)) for start in range(0, 2 * runs, 2 * _BLOCK)]
    from tqdm.auto import tqdm

    bar = tqdm(total=runs, unit="runs", desc="running", disable=not progress, file=sys.stderr,
               leave=False)
    try:
        if jobs == 1:
            results = []
            for block in blocks:
                results.append(_block(block))
                bar.update((block[1] - block[0]) // 2)
        else:
            with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("fork")) as pool:
                results = []
                for block, outputs in zip(blocks, pool.map(_block, blocks)):
                    results.append(outputs)
                    bar.update((block[1] - block[0]) // 2)
    finally:
        bar.close()
        _WORK.clear()
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
                      events: Any = "auto") -> AuditReport:
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
        report regardless of ``n_jobs``.
    n_jobs
        Worker processes (fork context); ``-1`` uses every core, ``1`` runs
        in this process.
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
    Bonferroni accounting. With ``n_jobs != 1``, ``run`` and ``statistic``
    reach the workers by ``fork`` (closures and lambdas are fine) on
    platforms that have it.

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
    confidence = check_probability(confidence, "confidence", open_low=True, open_high=True)
    events = check_events(events)
    check_flag(progress, "progress")
    seed = check_seed(seed)
    _check_jobs(n_jobs)
    start = time.perf_counter()
    first, second = run_outputs(run, stream, stream_prime, statistic=statistic, runs=runs,
                                seed=seed, n_jobs=n_jobs, progress=progress)
    first = checked_output(first, runs, None, "statistic")
    return audit_from_draw(sliced_draw(first, second), epsilon=epsilon, delta=delta, samples=runs,
                   confidence=confidence, events=events, progress=False, start=start)
