"""Garcelon et al. 2022 has no experiments: ours, registered in :data:`~dpverify.bandits.experiments.EXPERIMENTS`.

* ``garcelon2022-scaling`` — final regret against T (log–log, T = 10^3 … 10^6
  full, … 10^5 quick) at d ∈ {2, 5}, K = 10, contexts on the positive-orthant
  sphere, ε = 0.001 (≤ Cor. 8's ``1/(27 T^{1/4})`` for every T <= 10^6),
  δ = 10^-6: SBLB at Cor. 8's parameters with Thm 5's derived l, the same
  with the printed Eq. (3) (a much shorter l whose privacy the paper's own
  Prop. 13 does not back), the fixed-batch variant (printed l), LDP LinUCB
  (ε0 = 1) and LinUCB. Cor. 8's parameters depend on T, so every T is its own
  run; the uniformly random policy's expected regret is a reference row. Slopes of log Reg(T) on log T are fitted over T >= 10^4 (quick: >= 10^3.5)
  and written next to the predictions: T^{2/3} (SBLB, Cor. 8),
  T^{3/4} (LDP), T^{1/2} (LinUCB, up to logs).
* ``garcelon2022-privacy`` — final regret against the central ε at fixed T
  (10^6 full, 10^5 quick), d = 2: SBLB (Cor. 8 parameters, ``strict=False``
  beyond Cor. 8's ε limit; derived and printed l), the fixed-batch variant,
  LDP LinUCB at the **same local level ε0** as SBLB (what shuffling buys at
  equal LDP), and LinUCB as the non-private reference.

Common random numbers: every algorithm of a cell sees the same instances and
context streams' seeds (``[seed, cell]``).
"""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

import dpverify.bandits.plots as plots
from dpverify._deprecation import renamed_parameters
from dpverify.bandits.contextual.environment import ContextualInstanceFamily
from dpverify.bandits.contextual.linucb import LDPLinUCB, LinUCB
from dpverify.bandits.contextual.parameters import cor8_epsilon_limit
from dpverify.bandits.contextual.sblb import SBLB
from dpverify.bandits.contextual.simulate import simulate_contextual
from dpverify.bandits.experiments._spec import Experiment
from dpverify.bandits.simulate import SimulationResult

__all__ = ["ContextualCell", "CONTEXTUAL_EXPERIMENTS", "GARCELON_EXPERIMENTS", "run_contextual",
           "fit_slopes", "PREDICTED_SLOPES"]

#: Descriptions of the registered experiments.
CONTEXTUAL_EXPERIMENTS = {
    "garcelon2022-scaling": "Garcelon et al. 2022 (ours): final regret vs T, SBLB (Cor. 8) vs LDP LinUCB vs LinUCB",
    "garcelon2022-privacy": "Garcelon et al. 2022 (ours): final regret vs central epsilon at fixed T",
}

#: The registry entries (cells are built by :func:`run_contextual`).
GARCELON_EXPERIMENTS = {name: Experiment(name, description, (), kind="contextual", quick_divisor=1)
                        for name, description in CONTEXTUAL_EXPERIMENTS.items()}

#: The theory's regret exponents in T (Garcelon et al. 2022, Table 1; OFUL).
PREDICTED_SLOPES = {"SBLB": 2 / 3, "SBLB fixed-batch": 3 / 4, "LDP LinUCB": 3 / 4, "LinUCB": 1 / 2}

SCALING_EPSILON = 0.001
DELTA = 1e-6
ARMS = 10
#: (exponents of T, runs, minimum exponent of the slope fit) per preset.
_SCALING = {"quick": ((3.0, 3.5, 4.0, 4.5, 5.0), 3, 3.5),
            "full": ((3.0, 3.5, 4.0, 4.5, 5.0, 5.5, 6.0), 5, 4.0)}
_PRIVACY = {"quick": (10 ** 5, 3), "full": (10 ** 6, 5)}


@dataclass(frozen=True)
class ContextualCell:
    """One (dimension, T, ε) cell of an experiment (the CLI reads ``key`` and ``epsilon``)."""

    key: str
    title: str
    dimension: int
    horizon: int
    epsilon: float


def _family_of(key: str) -> str:
    return key.split(" (")[0]


def _scaling_algorithms(epsilon: float) -> list[tuple[str, Any]]:
    return [("SBLB (Cor. 8, derived l)", SBLB(epsilon, DELTA, strict=False)),
            ("SBLB (Cor. 8, printed l)", SBLB(epsilon, DELTA, batch_form="printed", strict=False)),
            ("SBLB fixed-batch (Cor. 8, printed l)",
             SBLB(epsilon, DELTA, batch_form="printed", strict=False, fixed_batch=True)),
            ("LDP LinUCB (eps0 = 1)", LDPLinUCB(1.0, DELTA)),
            ("LinUCB", LinUCB())]


def _privacy_algorithms(epsilon: float, horizon: int, dimension: int) -> list[tuple[str, Any]]:
    sblb = SBLB(epsilon, DELTA, strict=False)
    local = sblb.parameters(horizon=horizon, dimension=dimension).local_epsilon
    return [("SBLB (Cor. 8, derived l)", sblb),
            ("SBLB (Cor. 8, printed l)", SBLB(epsilon, DELTA, batch_form="printed", strict=False)),
            ("SBLB fixed-batch (Cor. 8, printed l)",
             SBLB(epsilon, DELTA, batch_form="printed", strict=False, fixed_batch=True)),
            ("LDP LinUCB (same eps0)", LDPLinUCB(local, DELTA)),
            ("LinUCB", LinUCB())]


def _cells(name: str, preset: str) -> list[tuple[ContextualCell, list[tuple[str, Any]], int]]:
    if name == "garcelon2022-scaling":
        exponents, runs, _ = _SCALING[preset]
        cells = []
        for d in (2, 5):
            for e in exponents:
                T = int(round(10 ** e))
                cell = ContextualCell(f"d={d},T={T}", f"d = {d}, T = 10^{e:g}", d, T,
                                      SCALING_EPSILON)
                cells.append((cell, _scaling_algorithms(SCALING_EPSILON), runs))
        return cells
    horizon, runs = _PRIVACY[preset]
    limit = cor8_epsilon_limit(horizon)
    cells = []
    for factor in (0.25, 0.5, 1.0, 2.0, 4.0, 8.0):
        epsilon = factor * limit
        cell = ContextualCell(f"eps={epsilon:.3g}", f"ε = {epsilon:.3g} ({factor:g} × Cor. 8 limit)",
                              2, horizon, epsilon)
        cells.append((cell, _privacy_algorithms(epsilon, horizon, 2), runs))
    return cells


@renamed_parameters(scale="preset")
def run_contextual(name: str, *, preset: str, seed: int, out_dir: Path | None, n_jobs: Any,
                   cells: tuple[str, ...] | None = None, runs: int | None = None,
                   executor: Any = None, scheduler: str | None = None,
                   image_format: str = "png") -> tuple[tuple[tuple[ContextualCell, tuple[SimulationResult, ...]], ...],
                              list[Path]]:
    """Run a registered contextual experiment; write ``<name>.csv``, ``<name>.png`` (and slopes)."""
    results = []
    for index, (cell, algorithms, cell_runs) in enumerate(_cells(name, preset)):
        if cells is not None and cell.key not in cells:
            continue
        family = ContextualInstanceFamily(n_arms=ARMS, dimension=cell.dimension)
        sims = tuple(replace(simulate_contextual(algorithm, family, cell.horizon,
                                                 runs=runs or cell_runs, seed=[seed, index],
                                                 n_jobs=n_jobs, executor=executor,
                                                 scheduler=scheduler, checkpoints=[cell.horizon]),
                             algorithm=label)
                     for label, algorithm in algorithms)
        results.append((cell, sims + (_uniform_random(family, cell.horizon, runs or cell_runs,
                                                      [seed, index]),)))
    files: list[Path] = []
    if out_dir is not None and results:
        files = _write(name, preset, tuple(results), Path(out_dir), image_format=image_format)
    return tuple(results), files


def _uniform_random(family: ContextualInstanceFamily, horizon: int, runs: int,
                    seed: Any) -> SimulationResult:
    """The uniformly random policy's expected regret ``T·E[max_a μ_a − mean_a μ_a]`` per run.

    Estimated from 20 000 rounds of contexts of the run's own instance (same
    instance seeds as the algorithms); a reference line, not a simulation.
    """
    finals = []
    for run_seed in np.random.SeedSequence(seed).spawn(runs):
        instance_seed, stream = run_seed.spawn(2)
        env = family(np.random.default_rng(instance_seed))
        means = env.mean_rewards(env.contexts(20_000, rng=np.random.default_rng(stream)))
        finals.append(horizon * float((means.max(axis=1) - means.mean(axis=1)).mean()))
    curve = np.array(finals)[:, None]
    return SimulationResult(algorithm="uniform random (expected)", environment=family.describe(),
                            horizon=horizon, runs=runs, seed=seed,
                            checkpoints=np.array([horizon]), pseudo_regret=curve,
                            realised_regret=curve, pulls=np.zeros((runs, family.n_arms), int),
                            guarantee=None, seconds=0.0)


def rows(results: tuple) -> list[dict[str, Any]]:
    """One row per (cell, algorithm): final regret (mean, standard error) and the privacy numbers."""
    out = []
    for cell, sims in results:
        for sim in sims:
            final = sim.final_regret()
            approx = None if sim.guarantee is None else sim.guarantee.approx_dp
            out.append({"cell": cell.key, "algorithm": sim.algorithm, "dimension": cell.dimension,
                        "epsilon": cell.epsilon, "horizon": sim.horizon, "runs": sim.runs,
                        "final_regret": float(final.mean()),
                        "standard_error": float(final.std(ddof=1) / math.sqrt(sim.runs))
                        if sim.runs > 1 else 0.0,
                        "guarantee_model": None if sim.guarantee is None else sim.guarantee.model,
                        "guarantee_epsilon": None if approx is None else approx.epsilon,
                        "guarantee_delta": None if approx is None else approx.delta,
                        "mode": sim.mode, "claim_met": sim.claim_met,
                        "seconds": round(sim.seconds, 3)})
    return out


@renamed_parameters(table="rows")
def fit_slopes(rows: list[dict[str, Any]], *, min_horizon: float) -> list[dict[str, Any]]:
    """Least-squares slope of log Reg(T) on log T per (algorithm, d), over T >= ``min_horizon``."""
    slopes = []
    keys = dict.fromkeys((r["algorithm"], r["dimension"]) for r in rows)
    for algorithm, dimension in keys:
        own = [r for r in rows if r["algorithm"] == algorithm and r["dimension"] == dimension
               and r["horizon"] >= min_horizon and r["final_regret"] > 0]
        if len(own) < 2:
            continue
        x = np.log([r["horizon"] for r in own])
        y = np.log([r["final_regret"] for r in own])
        slope = float(np.polyfit(x, y, 1)[0])
        predicted = next((v for k, v in PREDICTED_SLOPES.items()
                          if algorithm.startswith(k) and not (k == "SBLB" and "fixed" in algorithm)),
                         None)
        slopes.append({"algorithm": algorithm, "dimension": dimension,
                       "fit_from_horizon": int(min_horizon), "points": len(own),
                       "fitted_slope": round(slope, 4), "predicted_slope": predicted})
    return slopes


def _write(name: str, preset: str, results: tuple, out_dir: Path, *,
           image_format: str = "png") -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    table = rows(results)
    csv_path, figure_path = out_dir / f"{name}.csv", out_dir / f"{name}.{image_format}"
    _write_csv(table, csv_path)
    files = [csv_path, figure_path]
    label = (f"{preset} preset (ours: Garcelon et al. 2022 has no experiments)")
    if name == "garcelon2022-scaling":
        slopes = fit_slopes(table, min_horizon=10 ** _SCALING[preset][2] * 0.999)
        slopes_path = out_dir / f"{name}-slopes.csv"
        if slopes:
            _write_csv(slopes, slopes_path)
            files.append(slopes_path)
        plots.plot_contextual(table, figure_path, x="horizon", title=CONTEXTUAL_EXPERIMENTS[name],
                              preset_label=label, image_format=image_format)
    else:
        plots.plot_contextual(table, figure_path, x="epsilon", title=CONTEXTUAL_EXPERIMENTS[name],
                              preset_label=label, image_format=image_format)
    return files


def _write_csv(table: list[dict[str, Any]], path: Path) -> None:
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(table[0]))
        writer.writeheader()
        writer.writerows(table)
