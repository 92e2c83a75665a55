"""The fuzz harness's isolated worker: one forked process per slot, runs calls under budgets.

Each call of a row (:mod:`fuzz._harness`) runs in a forked worker process under a CPU-time
budget (:data:`TIMEOUT_SECONDS`, scaled by :func:`machine_timeout` on a slow machine), a
wall-clock cap for calls that block without computing (:data:`WALL_FACTOR` times the
timeout) and an address-space cap (:data:`MEMORY_CAP_BYTES` above the worker's size at fork,
``resource.setrlimit``). :func:`run_all` drives several workers at once from one loop that
waits on their pipes; :class:`Worker` is one of them. The outcome of a call is classified
by :func:`fuzz._harness.classify_call` (or ``classify_cli``) inside the worker; a worker that
dies or overruns is replaced and the call is a ``hang`` or an ``oom``.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import resource
import sys
import time
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from fuzz._harness import CliRow, Row, classify_call, classify_cli

TIMEOUT_SECONDS = 20.0
#: A call that blocks (a deadlock, a pool that never starts) uses no CPU: it is a hang after
#: this many timeouts of wall time.
WALL_FACTOR = 6.0
#: How often a waiting harness checks the calls' CPU time.
POLL_SECONDS = 0.5
MEMORY_CAP_BYTES = 1536 * 2**20  # on top of the worker's address space at fork

def _address_space() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


def _worker_main(conn: Any, rows: Mapping[str, Any], slot: int = 0) -> None:
    import tempfile

    limit = _address_space() + MEMORY_CAP_BYTES
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    if hasattr(os, "sched_setaffinity"):
        # n_jobs=-1 / --jobs -1 mean "every usable core": pinned to one core, the
        # call checks that -1 is accepted and runs inline, instead of timing the
        # start of a spawn pool as large as the CI machine (about a second per worker);
        # the workers of one run take different cores (``slot``), so they run in parallel
        cores = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cores[slot % len(cores)]})
    try:
        # BLAS threads started at the parent's numpy import would share the one core and
        # spin-wait on each other (a 100x100 eigh: 65 ms instead of 1.4 ms under load),
        # making BLAS-heavy calls look like hangs
        from threadpoolctl import threadpool_limits

        threadpool_limits(1)
    except ImportError:  # pragma: no cover - threadpoolctl comes with the test extra
        pass
    os.chdir(tempfile.mkdtemp(prefix="dpverify-fuzz-"))  # anything a call writes lands here
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    sys.stdout = open(os.devnull, "w")  # noqa: SIM115
    sys.stderr = sys.stdout
    while True:
        try:
            request = conn.recv()
        except EOFError:
            return
        if request is None:
            return
        key, param, payload = request
        try:
            value = pickle.loads(payload)
            row = rows[key]
            if isinstance(row, CliRow):
                outcome = classify_cli(row, param, value)
            else:
                outcome = classify_call(row, param, value)
        except MemoryError:
            outcome = ("oom", "MemoryError")
        except BaseException as exc:  # noqa: BLE001
            outcome = ("crash", f"harness: {type(exc).__name__}: {exc}"[:300])
        try:
            conn.send(outcome)
        except MemoryError:
            conn.send(("oom", "MemoryError while replying"))


class Worker:
    """A forked worker process running calls one by one, restarted after a hang or death."""

    def __init__(self, rows: Mapping[str, Row], timeout: float = TIMEOUT_SECONDS,
                 slot: int = 0) -> None:
        self._rows = rows
        self._slot = slot
        self._timeout = timeout
        self._process: Any = None
        self._conn: Any = None
        self._started = (0.0, 0.0)  # (wall, CPU) seconds when the current call was sent

    def _start(self) -> None:
        context = multiprocessing.get_context("fork")
        parent, child = context.Pipe()
        # not a daemon: calls under test may start their own worker processes (n_jobs);
        # close() and the timeout path kill it
        self._process = context.Process(target=_worker_main, args=(child, self._rows, self._slot))
        self._process.start()
        child.close()
        self._conn = parent

    def _stop(self) -> None:
        if self._process is not None:
            if self._process.is_alive():
                self._process.kill()
            self._process.join(5)
        if self._conn is not None:
            self._conn.close()
        self._process = self._conn = None

    @property
    def connection(self) -> Any:
        return self._conn

    def submit(self, key: str, param: str, value: Any) -> None:
        """Send one call (starting the process if needed); :meth:`receive` gets its outcome."""
        if self._process is None or not self._process.is_alive():
            self._stop()
            self._start()
        self._started = (time.monotonic(), self._cpu_seconds())
        self._conn.send((key, param, pickle.dumps(value)))

    def _cpu_seconds(self) -> float:
        """CPU seconds used so far by the worker (and its reaped children); wall time off Linux."""
        try:
            with open(f"/proc/{self._process.pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, AttributeError):  # pragma: no cover - not Linux
            return time.monotonic()

    def elapsed(self) -> tuple[float, float]:
        """``(wall, CPU)`` seconds of the call in progress."""
        wall, cpu = self._started
        return time.monotonic() - wall, self._cpu_seconds() - cpu

    def overdue(self) -> bool:
        """Whether the call in progress is a hang: over the CPU budget or the wall cap."""
        wall, cpu = self.elapsed()
        return cpu >= self._timeout or wall >= WALL_FACTOR * self._timeout

    def receive(self) -> tuple[str, str]:
        try:
            return self._conn.recv()
        except (EOFError, OSError):
            code = self._process.exitcode if self._process is not None else None
            self._stop()
            return "oom", f"worker died (exit code {code})"

    def expire(self) -> tuple[str, str]:
        """The call sent is :meth:`overdue`: kill the process (a hang)."""
        wall, cpu = self.elapsed()
        self._stop()
        return "hang", (f"no answer after {cpu:.0f} s of CPU ({wall:.0f} s wall; budget "
                        f"{self._timeout:g} s CPU, {WALL_FACTOR * self._timeout:g} s wall)")

    def run(self, key: str, param: str, value: Any) -> tuple[str, str]:
        self.submit(key, param, value)
        while not self._conn.poll(POLL_SECONDS):
            if self.overdue():
                return self.expire()
        return self.receive()

    def close(self) -> None:
        if self._conn is not None:
            try:
                self._conn.send(None)
            except OSError:
                pass
        self._stop()


Task = tuple[str, str, Any]


def run_all(rows: Mapping[str, Any], tasks: Sequence[Task], *, workers: int = 2,
            timeout: float | None = None) -> list[tuple[str, str, float]]:
    """Run ``tasks`` (row key, parameter, value) on ``workers`` forked workers at once.

    One loop in this (single) thread drives every worker: it hands the next
    task to an idle worker and waits on all their pipes with
    :func:`multiprocessing.connection.wait` (waking every :data:`POLL_SECONDS` to
    check each call's budget), so a hang costs one worker its timeout while the
    others go on, and no process is forked from a thread.
    Returns ``(outcome, detail, seconds)`` per task, in order.
    """
    from multiprocessing.connection import wait

    timeout = machine_timeout() if timeout is None else timeout
    pool = [Worker(rows, timeout=timeout, slot=i) for i in range(max(1, workers))]
    results: list[Any] = [None] * len(tasks)
    queue = list(range(len(tasks)))[::-1]
    busy: dict[int, tuple[int, float]] = {}      # worker -> (task, start)
    try:
        while queue or busy:
            for index, worker in enumerate(pool):
                if index not in busy and queue:
                    task = queue.pop()
                    worker.submit(*tasks[task])
                    busy[index] = (task, time.monotonic())
            ready = wait([pool[i].connection for i in busy], timeout=POLL_SECONDS)
            now = time.monotonic()
            for index in list(busy):
                task, start = busy[index]
                worker = pool[index]
                if worker.connection in ready:
                    outcome, detail = worker.receive()
                elif worker.overdue():
                    outcome, detail = worker.expire()
                else:
                    continue
                results[task] = (outcome, detail, now - start)
                del busy[index]
    finally:
        for worker in pool:
            worker.close()
    return results


#: Seconds of :func:`_reference_work` (best of 5) on a lightly loaded machine like the 2-core
#: development machine the 20 s timeout was set on (there: 0.077 s at a load average of 13 and
#: 0.08-0.11 s at 20, i.e. a timeout of 26-36 s under that load).
REFERENCE_WORK_SECONDS = 0.06


def _reference_work() -> float:
    """Seconds for a small fixed mix of interpreter and numpy work (the calls' own mix)."""
    import time

    start = time.perf_counter()
    sum(i * i for i in range(300_000))
    np.fft.rfft(np.arange(2 ** 16, dtype=float))
    return time.perf_counter() - start


def machine_timeout(base: float = TIMEOUT_SECONDS) -> float:
    """The per-call timeout scaled to this machine: ``base`` times how much slower than the
    reference machine it runs :func:`_reference_work` (best of 5; never below 1, at most 3).

    The timeout only exists to catch unbounded work (a hang never ends, so a longer wait
    cannot hide it); scaling it keeps a slow CI runner from turning a slow call into a
    spurious hang, while the cap keeps a real hang's cost bounded.
    """
    slowness = min(_reference_work() for _ in range(5)) / REFERENCE_WORK_SECONDS
    return base * min(3.0, max(1.0, slowness))
