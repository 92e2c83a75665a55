"""Named, frozen experiment configurations of the papers' figures, and :func:`reproduce`.

Registry :data:`EXPERIMENTS`:

* ``chowdhury2023-fig1`` — Fig. 1 (a)–(f): time-average regret ``Reg(t)/t``
  against t of DP-SE, Dist-DP-SE and Dist-RDP-SE (s = 10, 100), 20 random
  instances each: (a) easy, ε = 0.1, T = 10^6; (b) easy, ε = 0.5, T = 10^6;
  (c) hard, ε = 0.1, T = 10^7; (d–f) the **synthetic MSLR stand-in**
  (:func:`~dpverify.bandits.environments.mslr_synthetic_instance`; the real
  MSLR-WEB10K data cannot be downloaded here), K = 50, ε = 1, 5, 10, T = 10^6.
  Settings of the paper's experiments (Sec. 7, CATALOGUE A5): clipped
  Gaussian rewards (sd 0.1), confidence p = 0.1 in β(b) and DP-SE, batches
  ``4^b`` (what produced the figures; Algorithm 1 says 2^b). τ keeps the
  theorems' p = 1/T (the reference code's log(2/0.1) only changes m).
* ``tenenbaum2021-scaling`` — final regret against ε ∈ {0.005, …, 0.2} of SDP-AE
  (m = ⌈σ²⌉) and VB-SDP-AE at T = 10^7 on Bernoulli easy instances, K = 10,
  δ = 10^-6, with the non-private AE for reference: the additive privacy
  costs ``Σ_a Δ_a m ∝ log(1/δ)/ε²`` (Cor. 3.2) and ``kσ log T ∝ 1/ε`` (Thm 3.3).
  With the width's constants (``2√t σ √(2 log T)``) VB-SDP-AE's cost is about
  ``100σ`` per arm against SDP-AE's ``Δ_a σ²``, so VB-SDP-AE only wins for
  σ >~ 100/Δ, i.e. ε <~ 0.02 here; above, SDP-AE's cost hides under its
  non-private part. tenenbaum has no experiments (CATALOGUE 002.5): ours.

* ``garcelon2022-scaling`` and ``garcelon2022-privacy`` — garcelon 2022 has
  no experiments: ours (:mod:`dpverify.bandits.contextual.experiments`).

The linear-bandit experiments ``hanna2022-fig2``, ``hanna2022-fig3b`` and
``dpdpe-fig2a|fig2b|fig2c`` are defined in :mod:`dpverify.bandits.linear_experiments`
and registered here.

``scale="quick"`` uses 5 runs and divides the horizons of Fig. 1 by 10 (the
ε sweep keeps T = 10^6, where its slopes show); ``"full"`` is the paper's.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from dpverify._validation import check_choice, check_positive_int
from dpverify.bandits.environments import InstanceFamily
from dpverify.bandits.mab import make_algorithm
from dpverify.bandits.simulate import SimulationResult, simulate

__all__ = [
    "AlgorithmSpec",
    "Panel",
    "Experiment",
    "ExperimentResult",
    "EXPERIMENTS",
    "SCALES",
    "reproduce",
]

#: Scales of :func:`reproduce`: (horizon divisor, runs or None for the experiment's own).
SCALES = {"full": (1, None), "quick": (10, 5)}


@dataclass(frozen=True)
class AlgorithmSpec:
    """A registry algorithm name with its options (a hashable tuple of pairs) and a plot label."""

    name: str
    label: str
    options: tuple[tuple[str, Any], ...] = ()

    def build(self, epsilon: float, delta: float) -> Any:
        return make_algorithm(self.name, epsilon=epsilon, delta=delta, **dict(self.options))


@dataclass(frozen=True)
class Panel:
    """One figure panel: an instance family, (ε, δ), a horizon and the algorithms compared."""

    key: str
    title: str
    instances: InstanceFamily
    epsilon: float
    horizon: int
    algorithms: tuple[AlgorithmSpec, ...]
    delta: float = 1e-6


@dataclass(frozen=True)
class Experiment:
    """A named experiment: panels of regret curves (``kind="curves"``) or an ε sweep (``"scaling"``)."""

    name: str
    description: str
    panels: tuple[Panel, ...]
    runs: int = 20
    kind: str = "curves"
    #: Horizon divisor of ``scale="quick"`` (the ε sweep needs the full T to show its slopes).
    quick_divisor: int = 10


@dataclass(frozen=True, eq=False)
class ExperimentResult:
    """The simulations of every (panel, algorithm), and the files written."""

    experiment: Experiment
    scale: str
    results: tuple[tuple[Panel, tuple[SimulationResult, ...]], ...]
    files: tuple[Path, ...]
    seconds: float


_FIG1_OPTIONS = (("batch_base", 4), ("confidence", 0.1))


def _fig1_algorithms() -> tuple[AlgorithmSpec, ...]:
    return (AlgorithmSpec("dp-se", "DP-SE", (("confidence", 0.1),)),
            AlgorithmSpec("dist-dp-se", "Dist-DP-SE", _FIG1_OPTIONS),
            AlgorithmSpec("dist-rdp-se", "Dist-RDP-SE (s=10)", _FIG1_OPTIONS + (("scale_factor", 10.0),)),
            AlgorithmSpec("dist-rdp-se", "Dist-RDP-SE (s=100)", _FIG1_OPTIONS + (("scale_factor", 100.0),)))


def _fig1() -> Experiment:
    algorithms = _fig1_algorithms()
    easy, hard = InstanceFamily("easy", 10), InstanceFamily("hard", 10)
    mslr = InstanceFamily("mslr-synthetic", 50)
    panels = (Panel("a", "(a) easy, ε = 0.1, K = 10", easy, 0.1, 10 ** 6, algorithms),
              Panel("b", "(b) easy, ε = 0.5, K = 10", easy, 0.5, 10 ** 6, algorithms),
              Panel("c", "(c) hard, ε = 0.1, K = 10", hard, 0.1, 10 ** 7, algorithms),
              Panel("d", "(d) MSLR stand-in, ε = 1, K = 50", mslr, 1.0, 10 ** 6, algorithms),
              Panel("e", "(e) MSLR stand-in, ε = 5, K = 50", mslr, 5.0, 10 ** 6, algorithms),
              Panel("f", "(f) MSLR stand-in, ε = 10, K = 50", mslr, 10.0, 10 ** 6, algorithms))
    return Experiment("chowdhury2023-fig1", "chowdhury 2023 Fig. 1: time-average regret vs t",
                      panels, runs=20)


#: ε grid of the tenenbaum scaling experiment.
SCALING_EPSILONS = (0.005, 0.01, 0.02, 0.05, 0.1, 0.2)


def _scaling() -> Experiment:
    family = InstanceFamily("easy", 10, "bernoulli")
    algorithms = (AlgorithmSpec("sdp-ae", "SDP-AE (m = ⌈σ²⌉)"),
                  AlgorithmSpec("vb-sdp-ae", "VB-SDP-AE (m^t = 2^t)"),
                  AlgorithmSpec("ae", "AE (non-private, 2^t)"))
    panels = tuple(Panel(f"eps={e:g}", f"ε = {e:g}", family, e, 10 ** 7, algorithms)
                   for e in SCALING_EPSILONS)
    return Experiment("tenenbaum2021-scaling",
                      "tenenbaum 2021: final regret vs ε, additive 1/ε² (SDP-AE) vs 1/ε (VB-SDP-AE)",
                      panels, runs=20, kind="scaling", quick_divisor=1)


def _contextual() -> tuple[Experiment, ...]:
    """garcelon 2022's experiments (ours): run by :mod:`dpverify.bandits.contextual.experiments`."""
    from dpverify.bandits.contextual.experiments import CONTEXTUAL_EXPERIMENTS

    return tuple(Experiment(name, description, (), kind="contextual", quick_divisor=1)
                 for name, description in CONTEXTUAL_EXPERIMENTS.items())


#: Named experiments.
EXPERIMENTS: dict[str, Experiment] = {e.name: e for e in (_fig1(), _scaling())}


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
    explicit_runs = None if runs is None else check_positive_int(runs, "runs")
    runs = explicit_runs if explicit_runs is not None else (scale_runs or experiment.runs)
    start = time.perf_counter()
    if experiment.kind == "contextual":  # garcelon 2022: cells of (d, T, ε), see that module
        from dpverify.bandits.contextual.experiments import run_contextual

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
    if out_dir is not None:
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
        plots.plot_scaling(results, png_path, title=experiment.description)
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
    rows = []
    for panel, sims in results:
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


def _register_linear_and_contextual() -> None:
    """Add the linear-bandit and contextual experiments (their modules import this one)."""
    from dpverify.bandits.linear_experiments import LINEAR_EXPERIMENTS

    EXPERIMENTS.update(LINEAR_EXPERIMENTS)
    EXPERIMENTS.update({experiment.name: experiment for experiment in _contextual()})


_register_linear_and_contextual()
