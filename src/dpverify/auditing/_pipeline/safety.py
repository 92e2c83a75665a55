"""Check a sampler's contract before an audit draws the two sides in two threads.

The engine draws ``M(x)`` and ``M(x')`` in two threads, each with its own
generator. That is sound only if the sampler is a function of
``(data, size, rng)``: a sampler that keeps ``data`` on ``self`` between two
statements lets the other thread's call overwrite it (both sides then sample a
mixture and the audit sees no difference — a silent false negative), and one
that ignores ``rng`` (global numpy state, its own generator) is not
reproducible from the seed. :func:`choose_threads` probes the sampler on a few
fixed-seed calls, outside the audit's streams, and

* **same rng, different outputs** (ignores ``rng`` or keeps state between
  calls): warns (:class:`~dpverify.errors.AuditWarning`) and draws in one thread;
* **outputs that do not change with the rng**: warns that the outputs are
  not independent draws (or the mechanism is deterministic);
* **a sampler declaring ``reproducible = False``** (an unseedable source,
  :func:`dpverify.auditing.adapters.sampler_from_calls` with ``seeding="none"``):
  one thread, no warning (the report says ``reproducible: no``);
* **two concurrent calls that disagree with the same calls made one after the
  other** (state shared between sides): warns and draws in one thread.

With ``threads="auto"`` (the default) only plain functions are drawn in
threads at all; bound methods and callable objects, which can keep state on
``self``, are drawn in one thread without a probe of concurrency. The probe
outputs are discarded: they never enter a bound.
"""

from __future__ import annotations

import threading
import types
import warnings
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from dpverify.auditing._pipeline.outputs import CategoryCodes, as_columns, same_outputs
from dpverify.errors import AuditWarning, DpverifyTypeError

__all__ = ["choose_threads", "check_threads", "PROBE_ROWS", "CONCURRENT_ROUNDS"]

#: Outputs per side of a sequential probe call.
PROBE_ROWS = 1024
#: Most elements per side of a concurrent probe call (the certification chunk size).
CONCURRENT_ELEMENTS = 1 << 16
#: Concurrent probe rounds.
CONCURRENT_ROUNDS = 3
#: Fixed probe seeds (independent of the audit's seed; the probe's outputs are discarded).
_PROBE_ENTROPY = 0x5AFE


class _Rendezvous(np.random.Generator):
    """A generator whose first public attribute access waits for the other side's (1 s at most).

    It forces the interleaving that exposes shared state: both sides have run
    the sampler's code up to its first use of ``rng`` (e.g. ``self.data = data``)
    before either draws. Same stream as ``default_rng(seed)``.
    """

    def __init__(self, seed: Any, barrier: threading.Barrier) -> None:
        super().__init__(np.random.PCG64(seed))
        self._barrier = barrier
        self._met = False

    def __getattribute__(self, name: str) -> Any:
        if not name.startswith("_") and not object.__getattribute__(self, "_met"):
            object.__setattr__(self, "_met", True)
            try:
                object.__getattribute__(self, "_barrier").wait()
            except threading.BrokenBarrierError:
                pass
        return super().__getattribute__(name)


def check_threads(threads: Any) -> Any:
    """``"auto"``, ``True`` or ``False``."""
    if threads == "auto" and isinstance(threads, str) or isinstance(threads, bool):
        return threads
    raise DpverifyTypeError(f"threads={threads!r} must be 'auto', True or False")


_SAME_OUTPUTS = ("the sampler returned identical outputs for two differently seeded generators: "
                 "either the mechanism is deterministic on x, or the sampler ignores its rng and "
                 "re-seeds its own generator; then its outputs are not independent draws and no "
                 "audit bound is valid. Draw all randomness from the rng passed in.")


def _plain_function(sampler: Any) -> bool:
    return isinstance(sampler, (types.FunctionType, types.BuiltinFunctionType))


def _warn(message: str) -> None:
    warnings.warn(message, AuditWarning, stacklevel=5)


def choose_threads(sampler: Any, data: tuple[Any, Any], threads: Any,
                   codes: CategoryCodes, max_rows: int | None = None) -> bool:
    """Whether the audit may draw the two sides in two threads (after probing the sampler).

    Parameters
    ----------
    sampler
        ``sampler(data, size, rng)``.
    data
        ``(x, x')``.
    threads
        ``False``: one thread, no probe of concurrency; ``True``: two threads
        unless the probe finds shared state; ``"auto"``: two threads only for
        plain functions that pass the probe.
    codes
        The audit's category codes (string outputs).
    max_rows
        The audit's samples per side: no probe call draws more (the
        concurrent probe draws as many rows as the audit's largest chunk).
    """
    seeds = np.random.SeedSequence(_PROBE_ENTROPY).spawn(3)

    def call(side: int, seed: Any, rows: int, rng: Any = None) -> Any:
        rng = np.random.default_rng(seed) if rng is None else rng
        return as_columns(sampler(data[side], rows, rng), rows, codes)

    rows = PROBE_ROWS if max_rows is None else max(16, min(PROBE_ROWS, max_rows))
    first = [call(0, seeds[0], rows), call(1, seeds[1], rows)]
    if getattr(sampler, "reproducible", True) is False:
        # declares a source the seed cannot set (sampler_from_calls(seeding="none")): its
        # outputs differ for one seed by design, and the report says reproducible: no
        if same_outputs(first[0], call(0, seeds[2], rows)):
            _warn(_SAME_OUTPUTS)
        return False
    again = [call(0, seeds[0], rows), call(1, seeds[1], rows)]
    if not all(same_outputs(a, b) for a, b in zip(first, again)):
        _warn("the sampler returned different outputs for two calls with identically seeded "
              "generators: it ignores its rng argument (global numpy or random state, its own "
              "generator) or keeps state between calls. The audit draws both sides in ONE "
              "thread (threads=False) so the sides cannot interfere; it is valid only if "
              "successive calls are independent draws, and it is not reproducible from seed. "
              "Draw all randomness from the rng passed in.")
        return False
    if same_outputs(first[0], call(0, seeds[2], rows)):
        _warn(_SAME_OUTPUTS)
    if threads is False or (threads == "auto" and not _plain_function(sampler)):
        return False
    width = max(1, int(np.prod(np.shape(first[0])[1:])))
    rows = max(64, CONCURRENT_ELEMENTS // width)
    rows = rows if max_rows is None else max(16, min(rows, max_rows))
    alone = [call(0, seeds[0], rows), call(1, seeds[1], rows)]

    def together_call(side: int, barrier: threading.Barrier, rendezvous: bool) -> Any:
        if rendezvous:        # both sides reach their first use of rng before either draws
            return call(side, seeds[side], rows, _Rendezvous(seeds[side], barrier))
        try:
            barrier.wait()    # start both sides at once: the worst interleaving is the likely one
        except threading.BrokenBarrierError:
            pass
        return call(side, seeds[side], rows)

    with ThreadPoolExecutor(max_workers=2) as pool:
        for round_ in range(CONCURRENT_ROUNDS):
            barrier = threading.Barrier(2, timeout=1.0)
            futures = [pool.submit(together_call, side, barrier, round_ == 0) for side in (0, 1)]
            together = [future.result() for future in futures]
            if not all(same_outputs(a, b) for a, b in zip(alone, together)):
                _warn("the sampler's outputs changed when the two sides were drawn at the same "
                      "time in two threads: it shares mutable state between calls on x and x' "
                      "(for example data kept on self), which would mix the two sides and hide "
                      "a violation. The audit draws both sides in ONE thread instead; pass "
                      "threads=False to skip this probe.")
                return False
    return True
