"""Sweep benchmark: chowdhury Fig. 1 at full scale on the local pool and on Dask, and a cached re-run.

Run on demand: ``python benchmarks/sweeps.py [--jobs 2] [--panels a,b,...] [--runs 20]``.
Needs the ``dask`` extra for the Dask row.

Rows (same spec, same seeds, results checked bit-identical between rows):

* **local pool** — ``sweep(experiment_spec("chowdhury2023-fig1", scale="full"),
  n_jobs=J, cache=False)``: spawned worker processes;
* **Dask LocalCluster** — the same on a ``distributed.LocalCluster`` of J
  worker processes started (and timed) by the call, ``scheduler="local"``;
  target: overhead <= 10 % of the local pool's time;
* **cached re-run** — the same sweep again on the result store the local-pool
  row filled (a fresh temporary directory): every run comes from the store
  (``computed == 0``).

Measured (2 cores shared with other jobs, load average 6–12 during the runs,
``--jobs 2``; all rows bit-identical): local pool 46.6 s / 183.9 s / 157.7 s
in three runs at rising load; Dask LocalCluster 208.3 s (+13 %) and 248.7 s
(+58 %) in the last two (with the workers' profiler off; +864 % in the first,
with it on and the heaviest load); cached re-run 0.6–1.2 s (480 of 480 runs
from the store). The ≤ 10 % Dask target is not shown on this contended
machine: re-run on quiet cores.
"""

from __future__ import annotations

import argparse
import tempfile
import time

import numpy as np

from dpverify.bandits.experiments import experiment_spec, sweep


def _arrays(result) -> list[np.ndarray]:
    return [a for _, sims in result.results for sim in sims
            for a in (sim.pseudo_regret, sim.realised_regret, sim.pulls)]


def _same(first, second) -> bool:
    return all(np.array_equal(a, b) for a, b in zip(_arrays(first), _arrays(second), strict=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--panels", default=None, help="comma-separated panel keys (default all)")
    parser.add_argument("--runs", type=int, default=None, help="runs per curve (default 20)")
    args = parser.parse_args()
    panels = None if args.panels is None else tuple(args.panels.split(","))
    spec = experiment_spec("chowdhury2023-fig1", scale="full", runs=args.runs, panels=panels)
    print(f"# chowdhury2023-fig1, full scale: {len(spec.panels)} panels, {spec.tasks} runs, "
          f"{args.jobs} workers")
    print(f"{'where':<34} {'seconds':>9} {'computed':>9} {'cached':>7}")

    store = tempfile.TemporaryDirectory()
    start = time.perf_counter()
    local = sweep(spec, n_jobs=args.jobs, cache_dir=store.name)  # fills a fresh store
    local_seconds = time.perf_counter() - start
    print(f"{'local spawn pool (fresh store)':<34} {local_seconds:>9.1f} {local.computed:>9} "
          f"{local.cached:>7}")

    try:
        import distributed  # noqa: F401
    except ImportError:
        print("Dask LocalCluster: skipped (pip install 'dpverify[dask]')")
    else:
        start = time.perf_counter()
        dask = sweep(spec, scheduler="local", n_jobs=args.jobs, cache=False)
        dask_seconds = time.perf_counter() - start
        overhead = dask_seconds / local_seconds - 1
        print(f"{'Dask LocalCluster (incl. start-up)':<34} {dask_seconds:>9.1f} {dask.computed:>9} "
              f"{dask.cached:>7}   overhead {overhead:+.1%} (target <= +10%); "
              f"bit-identical: {_same(local, dask)}")

    with store:
        start = time.perf_counter()
        cached = sweep(spec, n_jobs=args.jobs, cache_dir=store.name)
        cached_seconds = time.perf_counter() - start
        print(f"{'cached re-run':<34} {cached_seconds:>9.1f} {cached.computed:>9} "
              f"{cached.cached:>7}   bit-identical: {_same(local, cached)}")


if __name__ == "__main__":
    main()
