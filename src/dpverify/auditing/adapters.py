"""Mechanisms that release one output per call, as the samplers every audit takes.

Real libraries' mechanisms (diffprivlib, OpenDP, a user's own code) release one
value per call, at 10 µs to 2 ms a call, and draw from a source of their own:
a generator passed in, a ``random_state=``, a global source, or an unseedable
one. :func:`sampler_from_calls` turns such a ``function`` into the sampler
``sampler(data, size, rng)`` that :func:`~dpverify.auditing.audit` and its
siblings take: ``size`` calls on ``data``, cut into chunks of
``chunk_samples`` calls that run where ``n_jobs`` / ``executor`` say
(:func:`dpverify.execution.run_tasks`: in this process, a spawn-safe local
pool, any ``concurrent.futures.Executor``, a Dask client's executor).

**Seeding** (``seeding=``), how each chunk's calls get their randomness:

* ``"generator"`` — ``function(data, rng)`` with a
  :class:`numpy.random.Generator`, one per chunk;
* ``"random_state"`` — ``function(data, random_state)`` with a
  :class:`numpy.random.RandomState` (MT19937 seeded from the chunk's
  ``SeedSequence``), one per chunk: what diffprivlib's and scikit-learn's
  ``random_state=`` accept. (An integer ``random_state`` per call would build a
  generator per call and, from 2^32 seeds, repeat some by the birthday bound —
  about 116 pairs among 10^6 calls — so the adapter passes the object.)
* a callable ``seed_global(seed)`` such as :func:`random.seed` or
  ``torch.manual_seed`` — seeds the library's *global* source with an integer
  in ``[0, 2^32)`` at the start of each chunk, then calls ``function(data)``;
  chunks in one process run one at a time (a lock), so the stream is not
  shared between chunks;
* ``"none"`` — ``function(data)`` on a source the audit cannot set (OpenDP
  draws from the operating system): the draws are independent but the audit
  is not reproducible, and its report says ``reproducible: no``.

**Reproducibility and independence.** Each call ``sampler(data, size, rng)``
draws 256 bits from ``rng`` as the entropy of a ``SeedSequence`` and spawns
one child per chunk (``SeedSequence.spawn``): the chunks' streams are
independent of each other, and with any seeding but ``"none"`` the outputs
are a function of ``rng``'s state, ``size`` and ``chunk_samples`` alone — bit
for bit the same whatever ``n_jobs`` or executor
(``tests/auditing/test_adapters.py``). The audit's soundness needs only that
successive outputs are independent draws of the mechanism on ``data``
(``docs/proofs/auditing.md`` §10): true of every strategy as long as
``function`` draws all its randomness from the source it is given.

**Chunks at once.** A ``function`` object with a method
``release_many(data, source, calls)`` returning the list of ``calls``
successive releases — the very draws ``calls`` calls of ``function(data,
source)`` would make — gets a whole chunk through it (the recipes' calls do:
no per-call dispatch). With ``seeding="none"`` the adapter passes
``source=None``, and ``release_many`` must return ``calls`` independent
releases with the law of one call (OpenDP's noise recipes: one call of the
library's own vector measurement, :mod:`dpverify.auditing.recipes.opendp`).

**Tasks are not chunks.** A chunk is the unit of randomness (one stream);
a *task* is the unit of work sent to a worker: a run of consecutive chunks,
so the outputs never depend on how chunks are grouped. Groups shrink as the
call proceeds (guided self-scheduling: each task takes ``1/(2·workers)`` of
the chunks left, Polychronopoulos & Kuck 1987), so the first tasks are long
and the last ones short enough to even out the workers; and once a call
has measured the cost of a release (each task times itself), no task of the
next calls is shorter than :data:`TASK_SECONDS`, so the parent's dispatch
(about 0.2–0.5 ms of its CPU per task on a local pool) stays under 1 % of
the work. The parent waits on the results without polling. (Letting the
caller run a share of the tasks beside ``k − 1`` workers was built and
measured in issue 26's stop 36: no faster than ``k`` workers with the caller
waiting, idle or loaded, so it was removed.)

**Where to parallelise.** The returned sampler is a callable object, so an
audit draws its two sides one after the other and runs its own chunks in this
process (:mod:`dpverify.auditing._pipeline.safety`); the calls themselves
run in parallel here. Give the workers to the adapter (``n_jobs=``), not to
:func:`~dpverify.auditing.audit`.
"""

from __future__ import annotations

import importlib
import math
import sys
import threading
import time
import types
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from dpverify._validation import check_int_at_least, shown, usable_cores, value_error
from dpverify.errors import AuditError, DpverifyTypeError
from dpverify.execution import check_placement, run_tasks

__all__ = ["sampler_from_calls", "CallSampler", "SEEDINGS", "DEFAULT_CHUNK_CALLS", "TASK_SECONDS"]

#: The named seeding strategies (a callable ``seed_global(seed)`` is the fourth kind).
SEEDINGS = ("generator", "random_state", "none")

#: Calls per task when ``chunk_samples`` is not given: at 10 µs a call, 40 ms of work per
#: task, so a task's dispatch (about 1 ms on a local pool) costs under 3 %.
DEFAULT_CHUNK_CALLS = 4096

#: Shortest task, in seconds of calls, once a call has measured the cost of one: a local pool's
#: dispatch costs the parent about 0.2-0.5 ms of CPU per task (2 workers, measured with no-op
#: tasks and with 4096-float results), under 1 % of 50 ms.
TASK_SECONDS = 0.05

#: One chunk at a time per process seeds and draws a global source.
_GLOBAL_SOURCE = threading.Lock()

#: 32-bit words of entropy drawn from the audit's generator per sampler call (256 bits).
_ENTROPY_WORDS = 8


class _ModuleLevelMethod:
    """A bound method of a module-level object (``random.seed``), sent to workers by name.

    Pickling a bound method pickles its object: ``random.seed`` reached a process pool's
    worker as the seed method of a *copy* of ``random``'s hidden ``Random`` instance, so
    seeding it left the worker's global source unseeded and the outputs irreproducible.
    This reference pickles as ``(module, name)`` and calls ``getattr(module, name)`` in
    the process that runs the chunk, which seeds that process's own global source.
    """

    def __init__(self, module: str, name: str) -> None:
        self.module, self.name = module, name
        self.__qualname__ = f"{module}.{name}"

    @classmethod
    def wrap(cls, seeding: Callable[..., Any]) -> Any:
        """``seeding`` itself unless it is a bound method reachable as ``module.name``."""
        owner = getattr(seeding, "__self__", None)
        module_name, name = getattr(seeding, "__module__", None), getattr(seeding, "__name__", None)
        if owner is None or isinstance(owner, types.ModuleType) or not (module_name and name):
            return seeding
        module = sys.modules.get(module_name)
        if module is None or getattr(module, name, None) != seeding:
            return seeding
        return cls(module_name, name)

    def __call__(self, seed: int) -> Any:
        return getattr(importlib.import_module(self.module), self.name)(seed)

    def __repr__(self) -> str:
        return self.__qualname__


def _check_seeding(seeding: Any) -> Any:
    if isinstance(seeding, str):
        if seeding not in SEEDINGS:
            raise value_error("seeding", seeding, f"one of {SEEDINGS!r} or a callable "
                                                  f"seed_global(seed) such as random.seed")
        return seeding
    if callable(seeding):
        return _ModuleLevelMethod.wrap(seeding)
    raise DpverifyTypeError(f"seeding={shown(seeding)} must be one of {SEEDINGS!r} or a callable "
                            f"seed_global(seed) such as random.seed")


def _stack(outputs: list[Any]) -> Any:
    """One chunk's per-call outputs as the sampler contract's arrays (records: per field)."""
    first = outputs[0]
    if isinstance(first, tuple):
        return tuple(np.asarray(column) for column in zip(*outputs))
    if isinstance(first, Mapping):
        return {key: np.asarray([output[key] for output in outputs]) for key in first}
    try:
        stacked = np.asarray(outputs)
    except ValueError as error:  # ragged vectors
        raise AuditError(f"the calls returned outputs of different shapes ({error})") from None
    if stacked.dtype == object:
        raise AuditError("the calls returned outputs of different shapes or kinds; each call "
                         "must return one scalar, one vector of a fixed length, or one record")
    return stacked


def _concatenate(parts: list[Any]) -> Any:
    first = parts[0]
    if len(parts) == 1:
        return first
    if isinstance(first, tuple):
        return tuple(np.concatenate(fields) for fields in zip(*parts))
    if isinstance(first, Mapping):
        return {key: np.concatenate([part[key] for part in parts]) for key in first}
    return np.concatenate(parts)


def _run_calls(function: Callable[..., Any], data: Any, seeding: Any,
               seed: np.random.SeedSequence, calls: int) -> Any:
    """One task: ``calls`` calls of ``function`` on ``data`` with the chunk's source, stacked."""
    if seeding == "generator":
        source: Any = np.random.default_rng(seed)
    elif seeding == "random_state":
        source = np.random.RandomState(np.random.MT19937(seed))
    else:
        source = None
    if source is not None:
        many = getattr(function, "release_many", None)  # a chunk at once (a recipe's call)
        if many is not None:
            return _stack(many(data, source, calls))
        return _stack([function(data, source) for _ in range(calls)])
    if seeding == "none":
        many = getattr(function, "release_many", None)  # independent releases at once
        if many is not None:
            return _stack(many(data, None, calls))
        return _stack([function(data) for _ in range(calls)])
    with _GLOBAL_SOURCE:
        seeding(int(seed.generate_state(1)[0]))
        return _stack([function(data) for _ in range(calls)])


def _run_group(function: Callable[..., Any], data: Any, seeding: Any,
               seeds: list[np.random.SeedSequence], sizes: list[int]) -> tuple[Any, float]:
    """One task: consecutive chunks, each on its own stream; their outputs and the task's seconds."""
    start = time.perf_counter()
    parts = [_run_calls(function, data, seeding, seed, calls) for seed, calls in zip(seeds, sizes)]
    return _concatenate(parts), time.perf_counter() - start


def _plan_tasks(chunks: int, workers: int, least: int = 1) -> list[int]:
    """Chunks per task, in order: guided self-scheduling with tasks of at least ``least`` chunks.

    Each task takes ``ceil(left / (2·workers))`` of the ``left`` chunks not yet
    planned, but no fewer than ``least`` (itself capped at ``ceil(chunks /
    workers)``, so every worker gets work). About ``2·workers·ln(chunks)``
    tasks whatever ``chunks`` is; the last ones are the shortest, which evens
    out the workers' finishing times (Polychronopoulos & Kuck 1987, with half
    their share for workers slowed by other jobs).

    Examples
    --------
    >>> _plan_tasks(20, 2)
    [5, 4, 3, 2, 2, 1, 1, 1, 1]
    >>> _plan_tasks(20, 2, least=4)
    [5, 4, 4, 4, 3]
    """
    chunks, workers = check_int_at_least(chunks, "chunks", 0), check_int_at_least(workers, "workers", 1)
    least = min(check_int_at_least(least, "least", 1), max(1, -(-chunks // workers)))
    groups: list[int] = []
    left = chunks
    while left > 0:
        group = min(left, max(least, -(-left // (2 * workers))))
        groups.append(group)
        left -= group
    return groups


def _workers(jobs: int, executor: Any) -> int:
    """How many tasks run at once: ``jobs``; an executor's ``_max_workers`` (concurrent.futures
    pools) or its Dask cluster's threads (a ``distributed`` client's executor, whose cluster
    may be far larger or smaller than this machine); else the usable cores here."""
    if executor is None:
        return jobs
    workers = getattr(executor, "_max_workers", None)
    if isinstance(workers, int) and workers >= 1:
        return workers
    nthreads = getattr(getattr(executor, "_client", None), "nthreads", None)
    if callable(nthreads):
        threads = sum(int(n) for n in nthreads().values())
        if threads >= 1:
            return threads
    return usable_cores()


class CallSampler:
    """``sampler(data, size, rng)`` made of ``size`` calls of a one-output ``function``.

    Built by :func:`sampler_from_calls` (which documents the arguments).

    Attributes
    ----------
    function, seeding, n_jobs, executor, chunk_samples
        As given to :func:`sampler_from_calls`.
    reproducible
        ``False`` for ``seeding="none"``: the same ``rng`` does not give the
        same outputs; the audit's safety probe then draws in one thread
        without a warning, and the report says ``reproducible: no``.
    seconds_per_call
        The cost of one release measured by the last call (its tasks' seconds
        over its calls; ``None`` before the first): it sets the shortest task
        of the next calls (:data:`TASK_SECONDS`). It never changes outputs.
    """

    def __init__(self, function: Callable[..., Any], seeding: Any, n_jobs: Any,
                 executor: Any, chunk_samples: int) -> None:
        self.function, self.seeding = function, seeding
        self.n_jobs, self.executor, self.chunk_samples = n_jobs, executor, chunk_samples
        self.reproducible = seeding != "none"
        self.seconds_per_call: float | None = None
        jobs, _, _ = check_placement(n_jobs, executor)
        self._inline = executor is None and jobs == 1  # one task, in this process
        self._workers = _workers(jobs, executor)

    def _least_chunks(self) -> int:
        """Chunks a task needs to run :data:`TASK_SECONDS` at the measured cost (1 before any)."""
        cost = self.seconds_per_call
        if cost is None or not cost > 0:
            return 1
        return max(1, math.ceil(TASK_SECONDS / (cost * self.chunk_samples)))

    def __repr__(self) -> str:
        seeding = self.seeding if isinstance(self.seeding, str) else \
            getattr(self.seeding, "__qualname__", repr(self.seeding))
        return (f"CallSampler({getattr(self.function, '__qualname__', self.function)!r}, "
                f"seeding={seeding!r}, n_jobs={self.n_jobs!r}, chunk_samples={self.chunk_samples})")

    def __call__(self, data: Any, size: int, rng: np.random.Generator) -> Any:
        size = check_int_at_least(size, "size", 1)
        if not isinstance(rng, np.random.Generator):
            raise DpverifyTypeError(f"rng={shown(rng)} must be a numpy.random.Generator")
        # 256 bits of the audit's stream seed this call's chunks: a function of rng's state
        entropy = rng.integers(0, 1 << 32, size=_ENTROPY_WORDS, dtype=np.uint64)
        sizes = [min(self.chunk_samples, size - start)
                 for start in range(0, size, self.chunk_samples)]
        seeds = np.random.SeedSequence([int(word) for word in entropy]).spawn(len(sizes))
        groups = [len(sizes)] if self._inline else \
            _plan_tasks(len(sizes), self._workers, self._least_chunks())
        tasks, first = [], 0
        for group in groups:  # consecutive chunks: the outputs do not depend on the grouping
            tasks.append((self.function, data, self.seeding, seeds[first:first + group],
                          sizes[first:first + group]))
            first += group
        results = run_tasks(_run_group, tasks, n_jobs=self.n_jobs, executor=self.executor)
        self.seconds_per_call = sum(seconds for _, seconds in results) / size
        return _concatenate([outputs for outputs, _ in results])


def sampler_from_calls(function: Callable[..., Any], *, seeding: Any = "generator",
                       n_jobs: Any = 1, executor: Any = None,
                       chunk_samples: int | None = None) -> CallSampler:
    """The audit sampler ``sampler(data, size, rng)`` of a mechanism that releases one output per call.

    Parameters
    ----------
    function
        One release on ``data``: ``function(data, rng)`` (``seeding=
        "generator"``), ``function(data, random_state)`` (``"random_state"``)
        or ``function(data)`` (``"none"`` or a global seeding), returning one
        output — a number, a string (a category), a vector of a fixed length,
        or a record (a tuple or a dict of such). It is sent to worker
        processes by cloudpickle when ``n_jobs > 1``.
    seeding
        ``"generator"`` (default), ``"random_state"``, ``"none"``, or a
        callable ``seed_global(seed)`` that seeds a global source (module
        docstring).
    n_jobs, executor
        Where the chunks of calls run (:func:`dpverify.execution.run_tasks`):
        ``n_jobs`` local worker processes (``-1``: one per core; 1: here) or
        an ``executor`` — any ``concurrent.futures.Executor`` or a
        ``distributed.Client`` (for a Dask ``LocalCluster`` open it once with
        :func:`dpverify.execution.open_executor` and pass it here).
    chunk_samples
        Calls per task (default :data:`DEFAULT_CHUNK_CALLS`); the outputs
        depend on it, not on ``n_jobs`` or the executor.

    Returns
    -------
    CallSampler
        ``sampler(data, size, rng) -> outputs``: ``size`` calls, stacked into
        an array of shape ``(size,)`` or ``(size, d)``, or a record of them.

    Raises
    ------
    TypeError
        ``function`` not callable, ``seeding`` of the wrong kind, or an
        ``executor`` that is not one.
    ValueError
        An unknown ``seeding`` name, ``n_jobs`` out of range or given with an
        executor, ``chunk_samples < 1``.

    Notes
    -----
    **Soundness.** The audit's bounds need each side's outputs to be
    independent draws of the mechanism on that side's input
    (``docs/proofs/auditing.md`` §10). Every chunk has its own stream,
    spawned from a ``SeedSequence``, and within a chunk successive calls
    draw successive values of one stream, so the outputs are independent
    whenever ``function`` draws only from the source it is given (or, for
    a global seeding, from the global source that ``seeding`` sets).

    Examples
    --------
    A mechanism written for one value at a time, and its 2-DP claim audited:

    >>> from dpverify.auditing import audit
    >>> def release(data, rng):
    ...     return data + rng.laplace(0.0, 0.5)
    >>> sampler = sampler_from_calls(release)
    >>> report = audit(sampler, 0.0, 1.0, epsilon=2.0, samples=20_000, seed=1)
    >>> report.violation, report.epsilon_lower_bound > 1.0
    (False, True)
    """
    if not callable(function):
        raise DpverifyTypeError(f"function={shown(function)} must be callable: one release "
                                f"function(data, rng) -> output")
    seeding = _check_seeding(seeding)
    check_placement(n_jobs, executor)
    chunk = DEFAULT_CHUNK_CALLS if chunk_samples is None else \
        check_int_at_least(chunk_samples, "chunk_samples", 1)
    return CallSampler(function, seeding, n_jobs, executor, chunk)
