"""Where independent tasks run: in this process, a spawn-safe local pool, any Executor, or Dask.

Every runner that fans out (:func:`dpverify.bandits.simulate.simulate`,
:func:`dpverify.bandits.experiments.reproduce`, sweeps,
:func:`dpverify.auditing.audit_interactive`) hands a list of independent
tasks to :func:`run_tasks` and gets their results back **in task order**.
Where they run is chosen by exactly one of

* ``n_jobs`` — ``1`` (default): in this process; ``k > 1``: a local pool of
  ``k`` worker processes started with the ``spawn`` method (safe on Linux,
  macOS and Windows; the pool is kept for later calls and shut down at exit);
  ``-1``: one worker per core (:func:`resolve_jobs`);
* ``executor`` — any :class:`concurrent.futures.Executor` (a thread pool, a
  process pool, ``distributed.Client(...).get_executor()``), or a
  ``distributed.Client`` itself;
* ``scheduler`` — a Dask scheduler address (``"tcp://HOST:PORT"``), or
  ``"local"`` to start a ``distributed.LocalCluster`` of ``n_jobs`` worker
  processes for the call (the ``dask`` extra: ``pip install "dpverify[dask]"``).
  The workers of that cluster are tuned for these CPU-bound numpy tasks
  (``_local_cluster_config``): Dask's statistical profiler is off (it costs
  about 12 % of a simulation) and glibc's ``MALLOC_TRIM_THRESHOLD_`` is not
  set (Dask's default of 64 KiB freezes glibc's adaptive ``mmap`` threshold, so
  every array above 128 KiB is mapped and zero-faulted afresh: 18–30 % more CPU
  per simulation, measured on Chowdhury & Zhou 2023, Fig. 1), and its periodic monitors run
  less often (an idle cluster's event-loop ticks and system/memory monitors cost
  7.5 % of a core, 1.5 % after). On a cluster of your own set
  ``distributed.worker.profile.enabled: false``, drop
  ``MALLOC_TRIM_THRESHOLD_`` from ``distributed.nanny.pre-spawn-environ`` and
  lengthen ``distributed.admin.tick.interval`` for the same speed.

Reproducibility is the callers' contract: each task carries its own
``numpy.random.SeedSequence`` child (``SeedSequence(seed).spawn(n)``, never
arithmetic on seeds), so results are bit-identical whatever the executor,
the number of workers or the order of completion. Tasks sent to other
processes are serialised with ``cloudpickle`` (closures and lambdas work).

As with any ``spawn`` pool, a script that uses ``n_jobs > 1`` must guard its
entry point with ``if __name__ == "__main__":`` (the workers re-import the
main module); notebooks and the ``dpverify`` command need nothing.
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Any

import cloudpickle

from dpverify._validation import check_n_jobs, shown, value_error
from dpverify.errors import DpverifyTypeError

__all__ = ["resolve_jobs", "run_tasks", "open_executor", "check_scheduler", "LOCAL_SCHEDULER"]

#: The ``scheduler`` value that starts a Dask ``LocalCluster`` for the call.
LOCAL_SCHEDULER = "local"
_ADDRESS_SCHEMES = ("tcp://", "tls://", "ws://", "wss://", "inproc://", "ucx://")

#: Local spawn pools kept between calls, by worker count (shut down at interpreter exit).
_POOLS: dict[int, ProcessPoolExecutor] = {}


def resolve_jobs(n_jobs: Any, name: str = "n_jobs") -> int:
    """``n_jobs`` as a worker count: an integer ``>= 1``, or ``-1`` for every usable core (:func:`~dpverify._validation.usable_cores`).

    At most :func:`dpverify._validation.max_jobs` (four per core): each job is a process.
    """
    return check_n_jobs(n_jobs, name)


def check_scheduler(scheduler: Any, name: str = "scheduler") -> str | None:
    """``None``, ``"local"`` or a Dask scheduler address (``tcp://HOST:PORT``, ``tls://…``, ``HOST:PORT``)."""
    if scheduler is None:
        return None
    rule = "None, 'local' or a Dask scheduler address such as 'tcp://HOST:PORT'"
    if not isinstance(scheduler, str) or not scheduler.strip():
        raise value_error(name, scheduler, rule)
    scheduler = scheduler.strip()
    if scheduler == LOCAL_SCHEDULER or scheduler.startswith(_ADDRESS_SCHEMES):
        return scheduler
    host, _, port = scheduler.rpartition(":")
    if host and port.isdigit():
        return scheduler
    raise value_error(name, scheduler, rule)


def _check_executor(executor: Any) -> Any:
    """``executor`` if it is ``None``, an ``Executor`` or a ``distributed.Client`` (unopened)."""
    if executor is None or isinstance(executor, Executor) \
            or callable(getattr(executor, "get_executor", None)):  # a distributed.Client
        return executor
    raise DpverifyTypeError(
        f"executor={shown(executor)} must be a concurrent.futures.Executor or a distributed.Client")


def check_placement(n_jobs: Any = 1, executor: Any = None, scheduler: Any = None
                    ) -> tuple[int, Any, str | None]:
    """Check ``n_jobs`` / ``executor`` / ``scheduler`` (as :func:`open_executor` takes them) without opening anything.

    For entry points that may finish without running a task (every run cached):
    a bad value is refused there too. Returns ``(jobs, executor, scheduler)``.
    """
    jobs = resolve_jobs(n_jobs)
    scheduler = check_scheduler(scheduler)
    if _check_executor(executor) is not None and (scheduler is not None or jobs != 1):
        raise value_error("executor", executor, "given alone",
                          "pass one of n_jobs, executor and scheduler")
    return jobs, executor, scheduler


def _local_pool(jobs: int) -> ProcessPoolExecutor:
    pool = _POOLS.get(jobs)
    if pool is None:
        pool = ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn"))
        _POOLS[jobs] = pool
    return pool


def _forget_pools_after_fork() -> None:
    # a forked child inherits the parent's pool objects but not their worker
    # processes: using one would fail with BrokenProcessPool; start afresh
    _POOLS.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pools_after_fork)


@atexit.register
def _shutdown_pools() -> None:
    for pool in _POOLS.values():
        pool.shutdown(wait=True, cancel_futures=True)
    _POOLS.clear()


def _local_cluster_config() -> dict[str, Any]:
    """The Dask settings of the ``LocalCluster`` that ``scheduler="local"`` starts (module docstring).

    * ``distributed.worker.profile.enabled: False`` — the statistical profiler
      samples every thread's stack each 10 ms (about 12 % of a simulation);
    * ``distributed.nanny.pre-spawn-environ`` without ``MALLOC_TRIM_THRESHOLD_``
      — setting it at all fixes glibc's ``mmap`` threshold at 128 KiB, so the
      simulations' larger temporary arrays are mapped, zero-faulted and unmapped
      at every allocation (18–30 % more CPU per task); the other variables
      (one BLAS/OpenMP thread per worker) are kept;
    * slower periodic monitors (:data:`_QUIET_MONITORS`).
    """
    import dask  # deferred: optional (dpverify[dask])

    environ = dict(dask.config.get("distributed.nanny.pre-spawn-environ", default={}) or {})
    environ.pop("MALLOC_TRIM_THRESHOLD_", None)
    return {"distributed.worker.profile.enabled": False,
            "distributed.nanny.pre-spawn-environ": environ,
            **_QUIET_MONITORS}


#: Slower periodic monitors: an idle 2-worker LocalCluster (scheduler, 2 nannies, 2 workers)
#: burns 7.5 % of a core in its event-loop tick (20 ms), system monitor (0.5 s) and memory
#: monitors (0.1 s), about 0.3 s of CPU per 4 s of wall time: on a machine shared with other
#: jobs, where a sweep's wall time stretches, that is most of Dask's extra CPU. With these,
#: 1.5 %; memory limits are still enforced, once a second.
_QUIET_MONITORS = {"distributed.admin.tick.interval": "1s",
                   "distributed.admin.system-monitor.interval": "5s",
                   "distributed.worker.memory.monitor-interval": "1s"}


@contextmanager
def _unchanged_environment() -> Iterator[None]:
    # Dask's nannies write their pre-spawn variables into this process's os.environ
    # before spawning a worker; put the caller's environment back afterwards
    saved = dict(os.environ)
    try:
        yield
    finally:
        for name in set(os.environ) - set(saved):
            os.environ.pop(name, None)
        for name, value in saved.items():
            if os.environ.get(name) != value:
                os.environ[name] = value


@contextmanager
def _dask_executor(scheduler: str, jobs: int) -> Iterator[Executor]:
    try:
        import dask  # deferred: optional (dpverify[dask])
        from distributed import Client, LocalCluster  # deferred: optional (dpverify[dask])
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ImportError("scheduler= needs Dask: pip install 'dpverify[dask]'") from error
    if scheduler == LOCAL_SCHEDULER:
        with dask.config.set(_local_cluster_config()), _unchanged_environment():
            cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                                   dashboard_address=":0")
        client = Client(cluster)
    else:
        cluster, client = None, Client(scheduler)
    try:
        yield client.get_executor()
    finally:
        client.close()
        if cluster is not None:
            with _unchanged_environment():
                cluster.close()


@contextmanager
def open_executor(*, n_jobs: Any = 1, executor: Any = None, scheduler: Any = None
                  ) -> Iterator[Executor | None]:
    """The executor chosen by ``n_jobs`` / ``executor`` / ``scheduler`` (``None``: run inline).

    Use it to run many :func:`run_tasks` calls on one Dask cluster::

        with open_executor(scheduler="local", n_jobs=2) as pool:
            simulate(..., executor=pool); simulate(..., executor=pool)
    """
    jobs, chosen, scheduler = check_placement(n_jobs, executor, scheduler)
    if chosen is not None and not isinstance(chosen, Executor):  # a distributed.Client
        chosen = chosen.get_executor()
    if chosen is not None:
        yield chosen
    elif scheduler is not None:
        with _dask_executor(scheduler, jobs) as dask_executor:
            yield dask_executor
    else:
        yield None if jobs == 1 else _local_pool(jobs)


def _call_pickled(payload: bytes) -> Any:
    """Worker side of a task serialised by cloudpickle: ``function(*arguments)``."""
    function, arguments = cloudpickle.loads(payload)
    return function(*arguments)


def _submit(pool: Executor, function: Callable, arguments: tuple) -> Any:
    if isinstance(pool, ThreadPoolExecutor):  # same process: nothing to serialise
        return pool.submit(function, *arguments)

    return pool.submit(_call_pickled, cloudpickle.dumps((function, arguments)))


def run_tasks(function: Callable[..., Any], tasks: Sequence[tuple], *, n_jobs: Any = 1,
              executor: Any = None, scheduler: Any = None, progress: bool = False,
              label: str | None = None,
              on_result: Callable[[int, Any], None] | None = None) -> list[Any]:
    """``[function(*task) for task in tasks]``, in task order, wherever ``n_jobs``/``executor``/``scheduler`` say.

    Parameters
    ----------
    function, tasks
        The work: one call ``function(*task)`` per task. Tasks must be
        independent and carry their own seeds (``SeedSequence.spawn``), so
        the results do not depend on where or in which order they run.
    n_jobs, executor, scheduler
        Where they run (module docstring); at most one of ``executor`` and
        ``scheduler``, and ``n_jobs`` other than 1 only without ``executor``.
    progress, label
        A tqdm bar over finished tasks, on stderr.
    on_result
        ``on_result(index, result)`` is called in this process as each task
        finishes (in completion order), e.g. to store it in a cache.

    Returns
    -------
    list
        The results, ``results[i] = function(*tasks[i])``.

    Examples
    --------
    >>> run_tasks(pow, [(2, 3), (3, 2)])
    [8, 9]
    """
    if not callable(function):
        raise DpverifyTypeError(f"function={function!r} must be callable")
    tasks = list(tasks)
    from tqdm.auto import tqdm  # deferred: tqdm.auto loads asyncio, a cost to every importer

    bar = tqdm(total=len(tasks), disable=not progress, desc=label, file=sys.stderr, leave=False)
    try:
        with open_executor(n_jobs=n_jobs, executor=executor, scheduler=scheduler) as pool:
            if pool is None or len(tasks) <= 1:
                return _run_inline(function, tasks, bar, on_result)
            return _run_pooled(pool, function, tasks, bar, on_result)
    finally:
        bar.close()


def _run_inline(function: Callable, tasks: list[tuple], bar: Any,
                on_result: Callable[[int, Any], None] | None) -> list[Any]:
    results = []
    for index, task in enumerate(tasks):
        result = function(*task)
        if on_result is not None:
            on_result(index, result)
        results.append(result)
        bar.update()
    return results


def _run_pooled(pool: Executor, function: Callable, tasks: list[tuple], bar: Any,
                on_result: Callable[[int, Any], None] | None) -> list[Any]:
    results: list[Any] = [None] * len(tasks)
    futures = {_submit(pool, function, task): index for index, task in enumerate(tasks)}
    try:
        for future in as_completed(futures):
            index = futures[future]
            results[index] = future.result()
            if on_result is not None:
                on_result(index, results[index])
            bar.update()
    except BrokenProcessPool:
        _POOLS.pop(next((k for k, v in _POOLS.items() if v is pool), -1), None)
        raise
    except BaseException:
        for future in futures:
            future.cancel()
        raise
    return results
