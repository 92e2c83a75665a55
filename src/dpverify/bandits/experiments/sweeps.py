"""Sweeps: a grid of (algorithm × ε × instance × horizon × run) simulations on any executor, cached.

:func:`sweep` turns a :class:`SweepSpec` (panels of algorithms at one
instance family, ε, δ and horizon; from a TOML file through
:func:`~dpverify.bandits.experiments.spec_files.load_sweep_spec`, or from the
registry through :func:`~dpverify.bandits.experiments.spec_files.experiment_spec`)
into one task per run, runs the tasks that are not in the result store on
:func:`dpverify.execution.run_tasks`, stores each as it finishes, and
assembles per-(panel, algorithm) :class:`~dpverify.bandits.simulate.SimulationResult`
values, a tidy results table and figures.

Randomness (common random numbers): run ``r`` of every panel whose instance
family is the ``i``-th distinct one of the spec uses the seed
``SeedSequence([seed, i]).spawn(runs)[r]`` — the same for every algorithm,
ε, δ and horizon, so panels that differ only in ε see the same instances and
reward streams (as the authors' runs do). The results are bit-identical
whatever the executor, the number of workers, the order of completion, or
whether a run came from the store.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from dpverify._deprecation import renamed_parameters, renamed_property
from dpverify._record_validation import check_record
from dpverify._validation import (
    check_choice,
    check_flag,
    check_int_at_least,
    check_positive_int,
    check_text,
    shown,
    value_error,
)
from dpverify.bandits._limits import MAX_CHECKPOINTS, check_horizon, check_runs
from dpverify.bandits.experiments._spec import Panel, build_algorithm
from dpverify.bandits.experiments.tables import run_rows, summary_rows, write_sweep
from dpverify.bandits.plots import FORMATS
from dpverify.bandits.simulate import SimulationResult, _run_once, assemble_result, log_checkpoints
from dpverify.bandits.store import open_store, run_cached
from dpverify.errors import DpverifyTypeError
from dpverify.execution import check_placement

__all__ = ["SweepSpec", "SweepResult", "sweep", "SWEEP_KINDS", "MAX_SWEEP_TASKS"]

#: ``curves``: regret against t per panel; ``scaling``: final regret against ε.
SWEEP_KINDS = ("curves", "scaling")
#: Runs of one sweep in all (runs × (panel, algorithm) pairs): the sweep lists its runs and
#: looks each up in the result store before any is simulated.
MAX_SWEEP_TASKS = 10**6


@renamed_parameters(scale="preset_label")
@dataclass(frozen=True)
class SweepSpec:
    """What a sweep runs: panels (each an instance family, ε, δ, horizon and algorithms), runs, seed.

    ``checkpoints`` log-spaced rounds are recorded per run (T always
    included); ``note`` is printed on the figures (e.g. that a reduced preset
    does not keep the paper's orderings).
    """

    name: str
    panels: tuple[Panel, ...]
    runs: int = 20
    seed: int = 0
    kind: str = "curves"
    checkpoints: int = 200
    per_user: bool = False
    description: str = ""
    note: str = ""
    #: ``kind="scaling"``: label of the non-private reference; the summary gets
    #: ``excess_regret`` (final regret minus the reference's on the same panel) and
    #: the figure plots it.
    reference: str = ""
    #: What the figures say the run-size preset is (e.g. ``"quick preset: horizons 1/10 of the
    #: paper's"``); "" for a user's sweep (the figures then give the horizons and runs only).
    preset_label: str = ""

    scale = renamed_property("scale", "preset_label")

    def __post_init__(self) -> None:
        for label in ("name", "description", "note", "reference", "preset_label"):
            check_text(getattr(self, label), label)
        check_flag(self.per_user, "per_user")
        if not isinstance(self.panels, (tuple, list)):
            raise DpverifyTypeError(f"panels={shown(self.panels)} must be a tuple of Panel values")
        if not self.panels:
            raise value_error("panels", self.panels, "at least one panel")
        check_runs(self.runs)
        check_positive_int(self.checkpoints, "checkpoints", maximum=MAX_CHECKPOINTS,
                           instead="regret curves are recorded at every checkpoint of every run")
        check_choice(self.kind, "kind", SWEEP_KINDS)
        check_int_at_least(self.seed, "seed", 0)
        if not all(isinstance(panel, Panel) for panel in self.panels):
            raise DpverifyTypeError(f"panels={self.panels!r} must be Panel values")
        keys = [panel.key for panel in self.panels]
        if len(set(keys)) != len(keys):
            raise value_error("panels", keys, "panels with distinct keys")
        for panel in self.panels:
            check_horizon(panel.horizon, f"horizon of panel {panel.key!r}")
        if self.tasks > MAX_SWEEP_TASKS:
            raise value_error("runs", self.runs,
                              f"at most {MAX_SWEEP_TASKS} runs in all ({self.tasks} = runs x "
                              f"(panel, algorithm) pairs); split the sweep into several specs")

    @property
    def tasks(self) -> int:
        """The number of runs the sweep consists of."""
        return self.runs * sum(len(panel.algorithms) for panel in self.panels)


@dataclass(frozen=True, eq=False)
class SweepResult:
    """The simulations of every (panel, algorithm), the files written, and what was computed or cached."""

    spec: SweepSpec
    results: tuple[tuple[Panel, tuple[SimulationResult, ...]], ...]
    files: tuple[Path, ...]
    computed: int
    cached: int
    seconds: float

    def __post_init__(self) -> None:
        check_record(self)
        if not isinstance(self.spec, SweepSpec):
            raise DpverifyTypeError(f"spec={shown(self.spec)} must be a SweepSpec")
        if any(not isinstance(f, (str, os.PathLike)) for f in self.files):
            raise DpverifyTypeError(f"files={shown(self.files)} must be a tuple of paths")

    def table(self) -> list[dict[str, Any]]:
        """The tidy results table: one row per (panel, algorithm, run, checkpoint)."""
        return run_rows(self.spec, self.results)

    def summary(self) -> list[dict[str, Any]]:
        """One row per (panel, algorithm): final regret and each curve's actual guarantee."""
        return summary_rows(self.results)


def _run_task(spec: Any, epsilon: float, delta: float, instances: Any, horizon: int,
              checkpoints: np.ndarray, per_user: bool, seed: np.random.SeedSequence) -> tuple:
    """One run (a task): ``(pseudo, realised, pulls, communication, seconds)``."""
    start = time.perf_counter()
    seed = np.random.SeedSequence(seed.entropy, spawn_key=seed.spawn_key, pool_size=seed.pool_size)
    algorithm = build_algorithm(spec, epsilon, delta, horizon)
    outcome = _run_once(algorithm, instances, horizon, checkpoints, per_user, seed)
    return (*outcome, time.perf_counter() - start)


def instance_entropy(spec: SweepSpec) -> list[list[int]]:
    """Per panel, the entropy ``[seed, i]`` of its runs' seeds (``i``: the index of its distinct family)."""
    distinct: list[Any] = []
    entropy = []
    for panel in spec.panels:
        if panel.instances not in distinct:
            distinct.append(panel.instances)
        entropy.append([int(spec.seed), distinct.index(panel.instances)])
    return entropy


def sweep(spec: SweepSpec, *, n_jobs: Any = 1, executor: Any = None, scheduler: str | None = None,
          cache_dir: str | Path | None = None, cache: bool = True,
          out_dir: str | Path | None = None, progress: bool = False,
          figures: bool = True, image_format: str = "png") -> SweepResult:
    """Run ``spec``: every run not already in the result store, on the chosen executor.

    Parameters
    ----------
    spec
        The sweep (:class:`SweepSpec`).
    n_jobs, executor, scheduler
        Where the runs go (:mod:`dpverify.execution`); the results do not depend on it.
    cache_dir, cache
        The result store (:mod:`dpverify.bandits.store`; default
        location :func:`~dpverify.bandits.store.default_cache_dir`).
        Every finished run is stored at once, so a re-run computes nothing
        and an interrupted sweep resumes where it stopped. ``cache=False``
        neither reads nor writes it.
    out_dir
        Where to write ``<name>-runs.csv`` (tidy: one row per run and
        checkpoint; also ``.parquet`` when pandas and a Parquet engine are
        installed), ``<name>.csv`` (per panel, algorithm and checkpoint, or
        per algorithm and ε for ``kind="scaling"``), ``<name>-summary.csv`` and
        the figures (matplotlib; ``figures=False`` skips them) as ``image_format``
        (png, pdf or svg). ``None``: nothing.
    progress
        tqdm bar over the runs computed.

    Returns
    -------
    SweepResult
        With ``computed`` and ``cached``: the runs simulated now and read from the store.
    """
    if not isinstance(spec, SweepSpec):
        raise DpverifyTypeError(f"spec={spec!r} must be a SweepSpec (load_sweep_spec, experiment_spec)")
    check_placement(n_jobs, executor, scheduler)
    check_choice(image_format, "image_format", FORMATS)
    for label, flag in (("cache", cache), ("progress", progress), ("figures", figures)):
        check_flag(flag, label)
    for label, path in (("out_dir", out_dir), ("cache_dir", cache_dir)):
        if path is not None and not isinstance(path, (str, os.PathLike)):
            raise DpverifyTypeError(f"{label}={shown(path)} must be a directory path or None")
    start = time.perf_counter()
    entropies = instance_entropy(spec)
    idents, tasks, configs = [], [], []
    for p, (panel, entropy) in enumerate(zip(spec.panels, entropies)):
        points = log_checkpoints(panel.horizon, spec.checkpoints)
        for a, algorithm_spec in enumerate(panel.algorithms):
            # fresh SeedSequence objects per task: spawning children mutates them
            for run, seed in enumerate(np.random.SeedSequence(entropy).spawn(spec.runs)):
                idents.append((p, a, run))
                tasks.append((algorithm_spec, panel.epsilon, panel.delta, panel.instances,
                              panel.horizon, points, spec.per_user, seed))
                configs.append({"task": "bandit-run", "algorithm": algorithm_spec,
                                "epsilon": panel.epsilon, "delta": panel.delta,
                                "instances": panel.instances, "horizon": panel.horizon,
                                "checkpoints": points, "per_user": spec.per_user, "seed": seed})
    done, computed = run_cached(_run_task, tasks, configs, open_store(cache_dir, cache),
                                n_jobs=n_jobs, executor=executor, scheduler=scheduler,
                                progress=progress, label=spec.name)
    outcomes = dict(zip(idents, done))
    results = tuple((panel, tuple(_assemble(spec, p, panel, a, entropies[p], outcomes)
                                  for a in range(len(panel.algorithms))))
                    for p, panel in enumerate(spec.panels))
    files: tuple[Path, ...] = ()
    if out_dir is not None:
        files = tuple(write_sweep(spec, results, Path(out_dir), figures=figures,
                                        image_format=image_format))
    return SweepResult(spec, results, files, computed=computed, cached=len(tasks) - computed,
                       seconds=time.perf_counter() - start)


def _assemble(spec: SweepSpec, p: int, panel: Panel, a: int, entropy: list[int],
              outcomes: dict[tuple[int, int, int], tuple]) -> SimulationResult:
    algorithm_spec = panel.algorithms[a]
    runs = [outcomes[(p, a, run)] for run in range(spec.runs)]
    algorithm = build_algorithm(algorithm_spec, panel.epsilon, panel.delta, panel.horizon)
    result = assemble_result(algorithm, panel.instances, panel.horizon, entropy,
                             log_checkpoints(panel.horizon, spec.checkpoints),
                             [o[:4] for o in runs], seconds=sum(o[4] for o in runs),
                             per_user=spec.per_user)
    return replace(result, algorithm=algorithm_spec.label)
