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

Every output kind of the one-process path is handled the same way: records
(tuples, dicts, structured arrays) and string categories are flattened by
:func:`~dpverify.auditing._outputs.as_columns` with the audit's category codes,
frozen when the search ended (a category first met in a chunk gets the shared
"unseen" code, as in the one-process path), so a chunk's columns do not depend
on the process it runs in.

**The probe's decision applies here.** When the engine's probe
(:func:`dpverify.auditing._safety.choose_threads`) decides on one thread — a
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

from dpverify.auditing._engine import Certifier, count_chunk
from dpverify.auditing._outputs import CategoryCodes, as_columns
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
    """A :data:`~dpverify.auditing._engine.Certifier` drawing and counting chunks on ``where``.

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

    def certify(n_certify: int, width: int | None, groups: dict
                ) -> tuple[list[dict[int, np.ndarray]], list[int | None]]:
        codes.freeze()  # idempotent: the engine froze them when its search ended
        tasks, sides = [], []
        for side, data in enumerate((x, x_prime)):
            for chunk, start in enumerate(range(0, n_certify, chunk_samples)):
                seed = np.random.SeedSequence(root.entropy,
                                              spawn_key=root.spawn_key + (2 + side, chunk))
                tasks.append((sampler, data, seed, min(chunk_samples, n_certify - start), width,
                              groups, codes))
                sides.append(side)
        results = run_tasks(_count_task, tasks, progress=bool(progress), label="certifying",
                            **where)
        totals = [{k: np.zeros(len(cuts), dtype=np.int64) for k, (_, cuts) in groups.items()}
                  for _ in (0, 1)]
        widths: list[int | None] = [width, width]
        for side, (counted, chunk_width) in zip(sides, results):
            for key, values in counted.items():
                totals[side][key] += values
            widths[side] = chunk_width if widths[side] is None else widths[side]
            if chunk_width != widths[side]:
                raise AuditError(f"sampler returned outputs of {chunk_width} coordinates, "
                                 f"earlier ones had {widths[side]}")
        return totals, widths

    return certify
