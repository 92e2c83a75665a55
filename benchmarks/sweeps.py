"""Sweep benchmark: Chowdhury & Zhou 2023, Fig. 1, at full scale on the local pool and on Dask, and a cached re-run.

Run on demand: ``python benchmarks/sweeps.py [--jobs 2] [--panels a,b,...] [--runs 20] [--repeats 1]``.
Needs the ``dask`` extra for the Dask rows.

Rows (same spec, same seeds, results checked bit-identical to the first row):

* **local pool, cold** — ``sweep(experiment_spec("chowdhury2023-fig1", preset="full"),
  n_jobs=J, cache=False)`` with no pool running: J spawned worker processes
  are started (and timed) by the call;
* **Dask LocalCluster, cold** — the same with ``scheduler="local"``: a
  ``distributed.LocalCluster`` of J worker processes started, used and closed
  (all timed) by the call; target: at most 10 % slower than the cold local pool;
* **local pool, warm** / **Dask, warm** — the same on a pool / a cluster already
  running (``open_executor(scheduler="local", n_jobs=J)``) whose workers have
  imported dpverify (a small warm-up sweep first), i.e. the cost per sweep once
  start-up is paid;
* **cached re-run** — the sweep again on a result store filled by a first run
  (a fresh temporary directory): every run comes from the store (``computed == 0``).

Repeats interleave the rows (the machine may be shared: load moves between
rows, interleaving spreads it) and the table gives each row's median.
``cpu s`` is the CPU time of this process and all its worker processes during
the row (``getrusage`` of this process and of its finished children plus
``psutil`` of the live ones): on a machine shared with other jobs the wall time
follows the load, the CPU time is what the row itself costs, start-up and
scheduler included. ``task s`` is the summed wall time inside the tasks.

Measured (2 cores shared with ~8 other agents, load average 20–24, ``--jobs 2``;
every row bit-identical to the first):

* full scale, ``python benchmarks/sweeps.py --no-warm`` (480 runs): local pool
  146.1 s wall / 52.6 s CPU, Dask LocalCluster 141.8 s wall (−3.0 %) / 58.8 s
  CPU (+11.7 %, the cluster's start-up and shutdown included); cached re-run
  2.6 s (480 of 480 from the store). Before the worker settings of
  :func:`dpverify.execution._local_cluster_config`: 216.7 s against 282.8 s wall
  (+30.5 %; the issue's first measurement 157–184 s against 208–249 s);
* ``--runs 2 --repeats 3`` (48 runs, medians): cold 15.9 s against 19.2 s wall
  (+21 %: a cluster's start and close, ~2 s of CPU, on a 16 s sweep), warm
  11.1 s against 11.2 s wall (+1.2 %), 5.6 s against 6.1 s CPU (+8.9 %).

Where Dask's overhead came from (``--runs 2``, interleaved, CPU of the workers
measured with psutil): ``MALLOC_TRIM_THRESHOLD_=65536``, which Dask's nannies
set for every worker, fixes glibc's ``mmap`` threshold, so the simulations'
temporary arrays are mapped and zero-faulted afresh: +18–32 % CPU per task
(6.6 s against 8.1 s per 48 runs; 6.6 against 6.8 without it); the
event-loop tick (20 ms), system monitor (0.5 s) and memory monitors (0.1 s) of
the scheduler, nannies and workers: 7.5 % of a core while idle, which on a
loaded machine (long wall times) added ~40 % CPU to a sweep (1.5 % after). Not
causes: payloads (a run returns 2 x 200 checkpoints and K pulls), cloudpickle
(~2 KB per task), tail imbalance (the longest runs, panel (c), are in the
middle of the task list; the tail is the short MSLR-panel runs), Dask's
queuing (``worker-saturation`` 1.1 keeps one task queued per worker).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

import numpy as np

from dpverify.bandits.experiments import experiment_spec, sweep
from dpverify.execution import _shutdown_pools, open_executor


def _arrays(result) -> list[np.ndarray]:
    return [a for _, sims in result.results for sim in sims
            for a in (sim.pseudo_regret, sim.realised_regret, sim.pulls)]


def _same(first, second) -> bool:
    return all(np.array_equal(a, b) for a, b in zip(_arrays(first), _arrays(second), strict=True))


def _task_seconds(result) -> float:
    return sum(sim.seconds for _, sims in result.results for sim in sims)


def _tree_cpu() -> float:
    """CPU seconds of this process, its finished children and its live descendants."""
    import resource

    total = sum(getattr(resource.getrusage(who), field) for who in
                (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
                for field in ("ru_utime", "ru_stime"))
    try:
        import psutil
    except ImportError:  # pragma: no cover - psutil comes with distributed
        return total
    for child in psutil.Process().children(recursive=True):
        try:
            times = child.cpu_times()
        except psutil.Error:
            continue
        total += times.user + times.system
    return total


def _timed(spec, **where):
    cpu, start = _tree_cpu(), time.perf_counter()
    result = sweep(spec, figures=False, **where)
    return time.perf_counter() - start, _tree_cpu() - cpu, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--panels", default=None, help="comma-separated panel keys (default all)")
    parser.add_argument("--runs", type=int, default=None, help="runs per curve (default 20)")
    parser.add_argument("--repeats", type=int, default=1, help="interleaved repeats (medians)")
    parser.add_argument("--no-warm", action="store_true", help="only the cold rows and the cache")
    args = parser.parse_args()
    panels = None if args.panels is None else tuple(args.panels.split(","))
    spec = experiment_spec("chowdhury2023-fig1", preset="full", runs=args.runs, panels=panels)
    print(f"# chowdhury2023-fig1, full scale: {len(spec.panels)} panels, {spec.tasks} runs, "
          f"{args.jobs} workers, {args.repeats} interleaved repeat(s)")
    try:
        import distributed  # noqa: F401  (imported before timing, as a user's session has it)
        dask = True
    except ImportError:
        print("Dask rows: skipped (pip install 'dpverify[dask]')")
        dask = False

    # warm rows: every worker has imported dpverify and run a task before the timing starts
    warm_up = experiment_spec("chowdhury2023-fig1", preset="full", runs=2, panels=("d",))
    rows: dict[str, list[tuple[float, float, float, bool, int]]] = {}
    reference = None

    def record(name: str, seconds: float, cpu: float, result) -> None:
        nonlocal reference
        reference = reference if reference is not None else result
        rows.setdefault(name, []).append((seconds, cpu, _task_seconds(result),
                                          _same(reference, result), result.computed))
        print(f"  {name:<28} {seconds:8.1f} s wall {cpu:8.1f} s cpu   load "
              f"{os.getloadavg()[0]:.1f}", flush=True)

    for _ in range(args.repeats):
        _shutdown_pools()
        record("local pool, cold", *_timed(spec, n_jobs=args.jobs, cache=False))
        if dask:
            record("Dask LocalCluster, cold", *_timed(spec, scheduler="local", n_jobs=args.jobs,
                                                      cache=False))
        if not args.no_warm and dask:
            with open_executor(scheduler="local", n_jobs=args.jobs) as cluster:
                sweep(warm_up, executor=cluster, cache=False, figures=False)
                record("Dask LocalCluster, warm", *_timed(spec, executor=cluster, cache=False))
            sweep(warm_up, n_jobs=args.jobs, cache=False, figures=False)
            record("local pool, warm", *_timed(spec, n_jobs=args.jobs, cache=False))
    with tempfile.TemporaryDirectory() as store:
        sweep(spec, n_jobs=args.jobs, cache_dir=store, figures=False)  # fills the store
        record("cached re-run", *_timed(spec, n_jobs=args.jobs, cache_dir=store))

    print(f"\n{'where (medians)':<28} {'wall s':>8} {'cpu s':>8} {'task s':>8} {'computed':>9}"
          f"  {'wall vs local':>13} {'cpu vs local':>13}  bit-identical")
    med = {name: [statistics.median(r[i] for r in runs) for i in range(3)]
           for name, runs in rows.items()}
    for name, runs in rows.items():
        base = med["local pool, warm" if "warm" in name else "local pool, cold"]
        wall, cpu = ((f"{med[name][i] / base[i] - 1:+13.1%}" if "Dask" in name else " " * 13)
                     for i in (0, 1))
        print(f"{name:<28} {med[name][0]:>8.1f} {med[name][1]:>8.1f} {med[name][2]:>8.1f} "
              f"{runs[0][4]:>9}  {wall} {cpu}  {all(r[3] for r in runs)}")
    print("target: Dask at most +10% against the local pool")


if __name__ == "__main__":
    main()
