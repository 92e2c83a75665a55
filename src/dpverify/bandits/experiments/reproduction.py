"""Run a registered experiment: :func:`reproduce` is a named sweep (:func:`~dpverify.bandits.experiments.spec_files.experiment_spec`).

Every algorithm of a panel, and every panel with the same instance family
(panels that differ only in ε), sees the same random instances and reward
streams (common random numbers, :mod:`~dpverify.bandits.experiments.sweeps`).
``preset="quick"`` uses 5 runs and divides the horizons by the experiment's
``quick_divisor``; ``"full"`` is the paper's. Runs are cached in the result
store (:mod:`~dpverify.bandits.store`) unless ``cache=False``.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from dpverify._deprecation import renamed_parameters
from dpverify._validation import (
    check_choice,
    check_flag,
    check_seed,
    check_sequence_of_pairs,
    shown,
)
from dpverify.bandits._limits import check_reproduction_runs
from dpverify.bandits.experiments._spec import SCALES, ExperimentResult
from dpverify.bandits.experiments.garcelon import run_contextual
from dpverify.bandits.experiments.registry import EXPERIMENTS
from dpverify.bandits.experiments.spec_files import check_panel_keys, experiment_spec
from dpverify.bandits.experiments.sweeps import sweep
from dpverify.bandits.experiments.tables import summary_rows
from dpverify.bandits.plots import FORMATS
from dpverify.errors import DpverifyTypeError
from dpverify.execution import check_placement, open_executor

__all__ = ["reproduce", "scaling_rows"]


@renamed_parameters(scale="preset")
def reproduce(name: str, *, preset: str = "quick", seed: int = 0, out_dir: str | Path | None = None,
              n_jobs: Any = 1, progress: bool = False, panels: tuple[str, ...] | None = None,
              runs: int | None = None, executor: Any = None, scheduler: str | None = None,
              cache_dir: str | Path | None = None, cache: bool = True,
              image_format: str = "png") -> ExperimentResult:
    """Run the experiment ``name`` and write its tables and ``<name>.<image_format>`` into ``out_dir``.

    ``image_format`` is png, pdf or svg (the figure states its preset, horizons,
    runs per curve and what its bands or error bars are). ``panels`` selects panels by key; ``runs`` overrides the preset's run
    count, at most :data:`~dpverify.bandits._limits.MAX_REPRODUCTION_RUNS` (100, refused before
    any run). ``out_dir=None`` writes nothing. Figures need matplotlib (the
    ``plots`` extra). ``n_jobs``/``executor``/``scheduler``: where the runs
    go (:mod:`dpverify.execution`); ``cache_dir``/``cache``: the result store.
    The experiments on Garcelon et al. 2022 (cells whose parameters depend on T) run
    uncached through :func:`~dpverify.bandits.experiments.garcelon.run_contextual`.
    """
    experiment = EXPERIMENTS[check_choice(name, "name", tuple(EXPERIMENTS))]
    check_choice(preset, "preset", tuple(SCALES))
    explicit_runs = None if runs is None else check_reproduction_runs(runs)
    if seed is None:
        raise DpverifyTypeError("seed=None must be an int: a reproduction is seeded")
    check_seed(seed)
    check_flag(progress, "progress")
    check_flag(cache, "cache")
    for label, path in (("out_dir", out_dir), ("cache_dir", cache_dir)):
        if path is not None and not isinstance(path, (str, os.PathLike)):
            raise DpverifyTypeError(f"{label}={shown(path)} must be a directory path or None")
    check_panel_keys(panels)
    check_placement(n_jobs, executor, scheduler)
    check_choice(image_format, "image_format", FORMATS)
    start = time.perf_counter()
    if experiment.kind == "contextual":  # Garcelon et al. 2022: cells of (d, T, ε), see that module
        with open_executor(n_jobs=n_jobs, executor=executor, scheduler=scheduler) as pool:
            cells, written = run_contextual(name, preset=preset, seed=seed, out_dir=out_dir,
                                            n_jobs=1, cells=panels, runs=explicit_runs,
                                            executor=pool, image_format=image_format)
        return ExperimentResult(experiment, preset, cells, tuple(written),
                                time.perf_counter() - start)
    known = tuple(p.key for p in experiment.panels)
    if panels is not None and not set(panels) & set(known):
        return ExperimentResult(experiment, preset, (), (), time.perf_counter() - start)
    spec = experiment_spec(name, preset=preset, seed=seed, runs=explicit_runs, panels=panels)
    outcome = sweep(spec, n_jobs=n_jobs, executor=executor, scheduler=scheduler,
                    cache_dir=cache_dir, cache=cache, out_dir=out_dir, progress=progress,
                    image_format=image_format)
    return ExperimentResult(experiment, preset, outcome.results, outcome.files,
                            time.perf_counter() - start, computed=outcome.computed,
                            cached=outcome.cached)


def scaling_rows(results: tuple) -> list[dict[str, Any]]:
    """One row per (panel, algorithm): final pseudo-regret mean and standard error, actual guarantee."""
    return summary_rows(check_sequence_of_pairs(results, "results", "(Panel, simulations) pairs "
                                                                    "from ExperimentResult.results"))
