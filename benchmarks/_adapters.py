"""The adapter's overhead: ``sampler_from_calls`` against the library's own per-call loop.

For each mechanism, ``calls`` releases on one input:

* **per call** — the library's own cost: a bare Python loop of the release
  (the built mechanism's ``randomise``, the measurement's call, a numpy draw),
  best of ``repeats``;
* **adapter, k workers** — ``sampler(data, calls, rng)`` of
  :func:`dpverify.auditing.adapters.sampler_from_calls` with ``n_jobs=k``
  (the pool started and warmed by an untimed call of ``2k`` tasks first: a
  call of one task runs inline and would leave the workers to start in the
  first timed call), best of ``repeats``;
* **overhead** — adapter seconds over ``calls × per call / k``, minus one: the
  issue's target is within 10 %.

Used by ``python benchmarks/auditing.py --only adapters``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from dpverify.auditing.adapters import sampler_from_calls
from dpverify.auditing.recipes import diffprivlib as recipes
from dpverify.auditing.recipes import opendp as opendp_recipes


def _numpy_release(data: float, rng: np.random.Generator) -> float:
    return data + rng.laplace(0.0, 1.0)


def _cases() -> list[tuple[str, Callable[[], Any], Any, str, Callable[[int], None]]]:
    """(name, release, data, seeding, bare loop of n releases) for each library installed."""
    cases: list[tuple[str, Callable[[], Any], Any, str, Callable[[int], None]]] = []
    rng = np.random.default_rng(0)
    cases.append(("numpy Laplace (one draw per call)", lambda: _numpy_release, 0.0, "generator",
                  lambda n: [_numpy_release(0.0, rng) for _ in range(n)]))
    try:
        from diffprivlib import mechanisms, tools  # deferred: optional peer library
        from diffprivlib.accountant import BudgetAccountant  # deferred: optional peer library
    except ImportError:
        return cases
    state = np.random.RandomState(0)
    built = mechanisms.Laplace(epsilon=1.0, sensitivity=1.0, random_state=state)
    cases.append(("diffprivlib Laplace.randomise", lambda: recipes.laplace().sampler.function,
                  0.0, "random_state", lambda n: [built.randomise(0.0) for _ in range(n)]))
    values = recipes.mean().x
    cases.append(("diffprivlib tools.mean", lambda: recipes.mean().sampler.function, values,
                  "random_state",
                  lambda n: [tools.mean(values, epsilon=1.0, bounds=(0.0, 1.0), random_state=state,
                                        accountant=BudgetAccountant()) for _ in range(n)]))
    try:
        function = opendp_recipes.laplace(1.0).sampler.function
    except ImportError:
        return cases
    cases.append(("OpenDP make_laplace (float)", lambda: function, 0.0, "none",
                  lambda n: [function(0.0) for _ in range(n)]))
    return cases


def adapters(calls: int, jobs: list[int], repeats: int) -> list[str]:
    """Rows of the overhead table (markdown)."""
    header = " | ".join(f"adapter, {k} worker{'s' if k > 1 else ''} (s) | overhead" for k in jobs)
    rows = [f"| mechanism | calls | per call (µs) | {header} |",
            "|---|---:|---:|" + "---:|---:|" * len(jobs)]
    for name, release, data, seeding, bare in _cases():
        scaled = calls if "numpy" in name or "Laplace.randomise" in name else max(1, calls // 20)
        bare(min(scaled, 200))  # warm
        per_call = float("inf")
        for repeat in range(repeats):
            start = time.perf_counter()
            bare(scaled)
            per_call = min(per_call, (time.perf_counter() - start) / scaled)
        cells = []
        for k in jobs:
            chunk = max(1, -(-scaled // (8 * k)))
            sampler = sampler_from_calls(release(), seeding=seeding, n_jobs=k, chunk_samples=chunk)
            # start and warm the pool: at least one task per worker (a call of one task runs
            # inline and never reaches the pool, so its workers would start in the timed call)
            sampler(data, min(scaled, 2 * k * chunk), np.random.default_rng(0))
            best = float("inf")
            for repeat in range(repeats):
                start = time.perf_counter()
                sampler(data, scaled, np.random.default_rng(repeat))
                best = min(best, time.perf_counter() - start)
            ideal = scaled * per_call / k
            cells.append(f"{best:.3f} | {100 * (best / ideal - 1):+.1f} %")
        rows.append(f"| {name} | {scaled} | {per_call * 1e6:.1f} | {' | '.join(cells)} |")
    rows.append(f"\n(cores: {os.cpu_count()}; chunks of calls/(8·workers) per task)")
    return rows
