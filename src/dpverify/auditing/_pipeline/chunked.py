"""Certification in independent chunks on any executor: counts that merge exactly (large audits).

The certification split of :func:`dpverify.auditing.audit` is ``n_certify``
independent outputs per side; the audit only needs, per candidate event, how
many fall in it. Those counts are sums, so the split can be cut into chunks
of ``chunk_samples`` outputs, each drawn from its own generator
(``SeedSequence(entropy, spawn_key=key + (2 + side, chunk))``: independent of
each other and of the search streams, children ``(0,)`` and ``(1,)``) and
counted wherever :func:`dpverify.execution.run_tasks` sends it; the merged
counts are exact integers. The chunking depends on ``chunk_samples`` only,
so the report is bit-identical whatever ``n_jobs``, executor or scheduler.
With a Poisson prefix (pure-ε audits, :func:`dpverify.auditing._pipeline.engine.prefix_sizes`)
the chunk holding the prefix's end is cut there into two parts, each with its
own seed (``… + (chunk, 0)`` and ``(chunk, 1)``), and the chunks up to the
prefix are also summed on their own.

Every output kind of the one-process path is handled the same way: records
(tuples, dicts, structured arrays) and string categories are flattened by
:func:`~dpverify.auditing._pipeline.outputs.as_columns` with the audit's category codes,
frozen when the search ended (a category first met in a chunk gets the shared
"unseen" code, as in the one-process path), so a chunk's columns do not depend
on the process it runs in.

**The probe's decision applies here.** When the engine's probe
(:func:`dpverify.auditing._pipeline.safety.choose_threads`) decides on one thread — a
sampler that ignores its ``rng`` (forked workers would inherit copies of the
same global state and draw identical chunks), shares state between calls
(concurrent chunks on a thread executor would mix the sides), or is a
callable object under ``threads="auto"`` — the chunks run in this process one
after another (``concurrent=False``): the same chunk seeds, hence the same
report for a well-behaved sampler, and no interference for the others.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dpverify.auditing._pipeline.engine import Certifier, count_chunk
from dpverify.auditing._pipeline.outputs import CategoryCodes, as_columns
from dpverify.errors import AuditError
from dpverify.execution import check_placement, run_tasks

__all__ = ["chunked_certifier", "DEFAULT_CHUNK_SAMPLES"]

#: Outputs per chunk when a parallel audit does not set ``chunk_samples``.
DEFAULT_CHUNK_SAMPLES = 1 << 20


def _count_task(sampler: Any, data: Any, seed: np.random.SeedSequence, size: int,
                width: int | None, groups: dict, codes: CategoryCodes
                ) -> tuple[dict[int, np.ndarray], int]:
    """One chunk: ``size`` outputs of ``sampler`` on ``data`` with its own generator, counted."""
    values = as_columns(sampler(data, size, np.random.default_rng(seed)), size, codes)
    return count_chunk(values, size, groups, width)


def chunked_certifier(sampler: Any, x: Any, x_prime: Any, root: np.random.SeedSequence, *,
                      chunk_samples: int, codes: CategoryCodes | None = None,
                      concurrent: bool = True, progress: bool | None = False,
                      **where: Any) -> Certifier:
    """A :data:`~dpverify.auditing._pipeline.engine.Certifier` drawing and counting chunks on ``where``.

    ``codes``: the audit's category codes (frozen by the engine before it
    certifies; a fresh frozen table if ``None``). ``concurrent=False``: the
    chunks run in this process, in turn, whatever ``where`` says.
    """
    if codes is None:
        codes = CategoryCodes()
        codes.freeze()
    check_placement(**where)  # refused alike whether or not the chunks then run here
    if not concurrent:
        where = {}

    def certify(n_certify: int, width: int | None, groups: dict,
                prefix: tuple[int, int] | None = None
                ) -> tuple[list[dict[int, np.ndarray]], list[int | None],
                           list[dict[int, np.ndarray]] | None]:
        codes.freeze()  # idempotent: the engine froze them when its search ended
        tasks, owners = [], []
        for side, data in enumerate((x, x_prime)):
            cut = None if prefix is None else prefix[side]
            for chunk, start in enumerate(range(0, n_certify, chunk_samples)):
                end = min(start + chunk_samples, n_certify)
                key = root.spawn_key + (2 + side, chunk)
                # the chunk holding the prefix's end is cut there, in two parts of their own
                parts = [(start, cut, key + (0,)), (cut, end, key + (1,))] if (
                    cut is not None and start < cut < end) else [(start, end, key)]
                for low, high, spawn_key in parts:
                    seed = np.random.SeedSequence(root.entropy, spawn_key=spawn_key)
                    tasks.append((sampler, data, seed, high - low, width, groups, codes))
                    owners.append((side, cut is not None and high <= cut))
        results = run_tasks(_count_task, tasks, progress=bool(progress), label="certifying",
                            **where)
        totals, at_prefix = ([{k: np.zeros(len(cuts), dtype=np.int64)
                               for k, (_, cuts) in groups.items()} for _ in (0, 1)]
                             for _ in range(2))
        widths: list[int | None] = [width, width]
        for (side, in_prefix), (counted, chunk_width) in zip(owners, results):
            for key, values in counted.items():
                totals[side][key] += values
                if in_prefix:
                    at_prefix[side][key] += values
            widths[side] = chunk_width if widths[side] is None else widths[side]
            if chunk_width != widths[side]:
                raise AuditError(f"sampler returned outputs of {chunk_width} coordinates, "
                                 f"earlier ones had {widths[side]}")
        return totals, widths, (None if prefix is None else at_prefix)

    return certify
