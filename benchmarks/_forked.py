"""Run one benchmark cell in a forked child with time (and optionally memory) limits.

A slow or memory-hungry cell (a peer library at large k, a bound at large n)
then reports "timeout" or "out of memory" instead of stalling the table or
taking the machine down.
"""

from __future__ import annotations

import math
import multiprocessing
import resource
import time
from collections.abc import Callable


def _child(function: Callable[[], float], memory_bytes: int | None,
           connection) -> None:  # pragma: no cover - runs in the child
    if memory_bytes is not None:
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    start = time.perf_counter()
    try:
        value = function()
        connection.send(("ok", value, time.perf_counter() - start))
    except MemoryError:
        connection.send((f"out of memory (> {memory_bytes / 2**30:g} GiB)", math.nan, math.nan))
    except Exception as error:  # a failure (or an invalid regime) is a result to report
        connection.send((f"{type(error).__name__}: {str(error)[:60]}", math.nan,
                         time.perf_counter() - start))


def run_forked(function: Callable[[], float], *, seconds: float,
               memory_bytes: int | None = None) -> tuple[str, float, float]:
    """``(status, value, seconds)``: status "ok", a timeout, out of memory, or the error."""
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(function, memory_bytes, sender))
    process.start()
    if not receiver.poll(seconds):
        process.kill()
        return f"timeout (> {seconds:g} s)", math.nan, math.nan
    outcome = receiver.recv()
    process.join()
    return outcome
