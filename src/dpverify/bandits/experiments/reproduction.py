"""Run a registered experiment: :func:`reproduce` writes ``<name>.csv`` and ``<name>.png``.

Every algorithm of a panel sees the same random instances and reward streams
(common random numbers). ``scale="quick"`` uses 5 runs and divides the
horizons by the experiment's ``quick_divisor``; ``"full"`` is the paper's.
"""

from __future__ import annotations

import csv
import os
from pathlib import Path
from typing import Any

import numpy as np

from dpverify._validation import (
    check_choice,
    check_flag,
    check_n_jobs,
    check_seed,
    check_sequence_of_pairs,
    shown,
)
from dpverify.bandits._limits import check_runs
from dpverify.errors import DpverifyTypeError
from dpverify.bandits.experiments._spec import SCALES, Experiment, ExperimentResult, Panel
from dpverify.bandits.experiments.registry import EXPERIMENTS
from dpverify.bandits.simulate import SimulationResult, simulate

__all__ = ["reproduce", "scaling_rows"]


def reproduce(name: str, *, scale: str = "quick", seed: int = 0, out_dir: str | Path | None = None,
              n_jobs: int = 1, progress: bool = False, panels: tuple[str, ...] | None = None,
              runs: int | None = None) -> ExperimentResult:
    """Run the experiment ``name`` and write ``<name>.csv`` and ``<name>.png`` into ``out_dir``.

    Every algorithm of a panel sees the same random instances and reward
    streams (common random numbers: the panel's seed is ``(seed, panel index)``;
    in an ε sweep every panel uses ``(seed,)``, so the sweep is over ε alone).
    ``panels`` selects panels by key; ``runs`` overrides the scale's run count.
    ``out_dir=None`` writes nothing. Figures need matplotlib (the ``plots`` extra).
    """
    import time

    experiment = EXPERIMENTS[check_choice(name, "name", tuple(EXPERIMENTS))]
    divisor, scale_runs = SCALES[check_choice(scale, "scale", tuple(SCALES))]
    divisor = experiment.quick_divisor if scale == "quick" else divisor
    explicit_runs = None if runs is None else check_runs(runs)
    if seed is None:
        raise DpverifyTypeError("seed=None must be an int: a reproduction is seeded")
    seed = check_seed(seed)
    n_jobs = check_n_jobs(n_jobs)
    check_flag(progress, "progress")
    if out_dir is not None and not isinstance(out_dir, (str, os.PathLike)):
        raise DpverifyTypeError(f"out_dir={shown(out_dir)} must be a directory path or None")
    if panels is not None:
        if isinstance(panels, str) or not isinstance(panels, (tuple, list)) or not all(
                isinstance(p, str) for p in panels):
            raise DpverifyTypeError(f"panels={shown(panels)} must be None or a tuple of panel "
                                    f"keys (strings)")
    runs = explicit_runs if explicit_runs is not None else (scale_runs or experiment.runs)
    start = time.perf_counter()
    if experiment.kind == "contextual":  # garcelon 2022: cells of (d, T, ε), see that module
        from dpverify.bandits.experiments.garcelon import run_contextual

        cells, written = run_contextual(name, scale=scale, seed=seed, out_dir=out_dir,
                                        n_jobs=n_jobs, cells=panels, runs=explicit_runs)
        return ExperimentResult(experiment, scale, cells, tuple(written),
                                time.perf_counter() - start)
    chosen = [(i, p) for i, p in enumerate(experiment.panels) if panels is None or p.key in panels]
    results = []
    for index, panel in chosen:
        horizon = max(panel.horizon // divisor, 10)
        # an ε sweep compares panels: all of them see the same instances and streams
        panel_seed = [seed] if experiment.kind == "scaling" else [seed, index]
        sims = tuple(simulate(_build(spec, panel, horizon), panel.instances, horizon,
                              runs=runs, seed=panel_seed, n_jobs=n_jobs, progress=progress)
                     for spec in panel.algorithms)
        sims = tuple(_relabel(sim, spec.label) for sim, spec in zip(sims, panel.algorithms))
        results.append((panel, sims))
    files: list[Path] = []
    if out_dir is not None and results:
        files = _write(experiment, tuple(results), Path(out_dir))
    return ExperimentResult(experiment, scale, tuple(results), tuple(files),
                            time.perf_counter() - start)


def _build(spec: Any, panel: Panel, horizon: int) -> Any:
    """The spec's algorithm; specs with ``needs_horizon`` (DPE-FixedU) also get the horizon."""
    if getattr(spec, "needs_horizon", False):
        return spec.build(panel.epsilon, panel.delta, horizon=horizon)
    return spec.build(panel.epsilon, panel.delta)


def _relabel(result: SimulationResult, label: str) -> SimulationResult:
    from dataclasses import replace

    return replace(result, algorithm=label)


def _write(experiment: Experiment, results: tuple, out_dir: Path) -> list[Path]:
    from dpverify.bandits import plots

    out_dir.mkdir(parents=True, exist_ok=True)
    csv_path = out_dir / f"{experiment.name}.csv"
    png_path = out_dir / f"{experiment.name}.png"
    if experiment.kind == "scaling":
        _write_scaling_csv(results, csv_path)
        plots.plot_scaling(scaling_rows(results), png_path, title=experiment.description)
    else:
        _write_curves_csv(results, csv_path)
        plots.plot_regret_panels(results, png_path, title=experiment.description)
    return [csv_path, png_path]


def _write_curves_csv(results: tuple, path: Path) -> None:
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["panel", "algorithm", "epsilon", "horizon", "runs", "round",
                         "time_average_pseudo_regret", "standard_error",
                         "time_average_realised_regret", "realised_standard_error"])
        for panel, sims in results:
            for sim in sims:
                rounds = sim.checkpoints
                rows = zip(rounds, sim.time_average_regret("pseudo"),
                           sim.standard_error("pseudo") / rounds,
                           sim.time_average_regret("realised"),
                           sim.standard_error("realised") / rounds)
                for t, mean, se, rmean, rse in rows:
                    writer.writerow([panel.key, sim.algorithm, panel.epsilon, sim.horizon, sim.runs,
                                     int(t), f"{mean:.6g}", f"{se:.3g}", f"{rmean:.6g}", f"{rse:.3g}"])


def scaling_rows(results: tuple) -> list[dict[str, Any]]:
    """One row per (algorithm, ε): final pseudo-regret mean and standard error."""
    items = check_sequence_of_pairs(results, "results", "(Panel, simulations) pairs from "
                                                       "ExperimentResult.results")
    rows = []
    for panel, sims in items:
        for sim in sims:
            final = sim.final_regret()
            se = float(final.std(ddof=1) / np.sqrt(sim.runs)) if sim.runs > 1 else 0.0
            rows.append({"algorithm": sim.algorithm, "epsilon": panel.epsilon,
                         "horizon": sim.horizon, "runs": sim.runs,
                         "final_regret": float(final.mean()), "standard_error": se})
    return rows


def _write_scaling_csv(results: tuple, path: Path) -> None:
    rows = scaling_rows(results)
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
