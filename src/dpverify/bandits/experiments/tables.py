"""Result tables of sweeps and reproductions, their files, and the figures drawn from them.

* :func:`run_rows` — the tidy table: one row per (panel, algorithm, run, checkpoint);
* :func:`curve_rows` — per (panel, algorithm, checkpoint): mean time-average regret ± s.e.;
* :func:`summary_rows` — per (panel, algorithm): final regret ± s.e. (the ε-sweep table);

Every row carries the curve's **actual** guarantee (model, ε, δ of its
``(ε, δ)`` form), which can differ from the panel's nominal ε (Dist-RDP-SE
at "ε = 0.1" is an RDP curve converted to (ε, δ)); figures put it in the
legend when it differs. Figures go through :mod:`dpverify.bandits.plots`,
which sees these tables only.
"""

from __future__ import annotations

import csv
import math
from pathlib import Path
from typing import Any

import numpy as np

import dpverify.bandits.plots as plots

__all__ = ["run_rows", "curve_rows", "summary_rows", "guarantee_columns", "guarantee_label",
           "add_excess_regret", "write_rows", "write_sweep"]


def guarantee_columns(guarantee: Any) -> dict[str, Any]:
    """``guarantee_model``, ``guarantee_epsilon``, ``guarantee_delta`` of a BanditGuarantee (or None)."""
    approx = None if guarantee is None else guarantee.approx_dp
    return {"guarantee_model": "none" if guarantee is None else guarantee.model,
            "guarantee_epsilon": None if approx is None else approx.epsilon,
            "guarantee_delta": None if approx is None else approx.delta}


def guarantee_label(columns: dict[str, Any], nominal_epsilon: float) -> str:
    """``""`` when the curve is pure ``nominal_epsilon``-DP (or non-private), else ``"(ε, δ)-DP"``."""
    epsilon, delta = columns["guarantee_epsilon"], columns["guarantee_delta"]
    if epsilon is None or (delta == 0 and math.isclose(epsilon, nominal_epsilon, rel_tol=1e-9)):
        return ""
    return f"({epsilon:.3g}, {delta:.3g})-DP" if delta else f"{epsilon:.3g}-DP"


def _panel_columns(panel: Any, sim: Any) -> dict[str, Any]:
    return {"panel": panel.key, "algorithm": sim.algorithm, "instances": sim.environment,
            "epsilon": panel.epsilon, "delta": panel.delta, "horizon": sim.horizon,
            "runs": sim.runs, **guarantee_columns(sim.guarantee),
            # how the figure ran the algorithm (paper: the printed constants) and whether the
            # guarantee actually given meets the requested (ε, δ)
            "mode": getattr(sim, "mode", None), "claim_met": getattr(sim, "claim_met", True)}


def run_rows(spec: Any, results: Any) -> list[dict[str, Any]]:
    """One row per (panel, algorithm, run, checkpoint): cumulative pseudo and realised regret."""
    rows = []
    for panel, sims in results:
        for sim in sims:
            shared = {"sweep": spec.name, **_panel_columns(panel, sim)}
            communication = sim.communication_cost
            for run in range(sim.runs):
                extra = {} if communication is None else {"communication": float(communication[run])}
                for j, t in enumerate(sim.checkpoints):
                    rows.append({**shared, "run": run, "round": int(t),
                                 "pseudo_regret": float(sim.pseudo_regret[run, j]),
                                 "realised_regret": float(sim.realised_regret[run, j]), **extra})
    return rows


def curve_rows(results: Any) -> list[dict[str, Any]]:
    """Per (panel, algorithm, checkpoint): mean ``Reg(t)/t`` (pseudo and realised) ± one s.e."""
    rows = []
    for panel, sims in results:
        for sim in sims:
            shared = _panel_columns(panel, sim)
            rounds = sim.checkpoints
            columns = zip(rounds, sim.time_average_regret("pseudo"),
                          sim.standard_error("pseudo") / rounds,
                          sim.time_average_regret("realised"),
                          sim.standard_error("realised") / rounds)
            for t, mean, se, rmean, rse in columns:
                rows.append({**shared, "round": int(t), "time_average_pseudo_regret": float(mean),
                             "standard_error": float(se),
                             "time_average_realised_regret": float(rmean),
                             "realised_standard_error": float(rse)})
    return rows


def summary_rows(results: Any) -> list[dict[str, Any]]:
    """Per (panel, algorithm): final pseudo-regret mean and standard error, and the actual guarantee."""
    rows = []
    for panel, sims in results:
        for sim in sims:
            final = sim.final_regret()
            se = float(final.std(ddof=1) / np.sqrt(sim.runs)) if sim.runs > 1 else 0.0
            row = {**_panel_columns(panel, sim), "final_regret": float(final.mean()),
                   "standard_error": se}
            if sim.communication_cost is not None:
                row["communication"] = float(np.mean(sim.communication_cost))
            rows.append(row)
    return rows


def add_excess_regret(rows: list[dict[str, Any]], reference: str) -> list[dict[str, Any]]:
    """Add ``excess_regret``: final regret minus the ``reference`` algorithm's on the same panel."""
    baseline = {r["panel"]: r["final_regret"] for r in rows if r["algorithm"] == reference}
    for row in rows:
        row["excess_regret"] = (row["final_regret"] - baseline[row["panel"]]
                                if row["panel"] in baseline and row["algorithm"] != reference
                                else None)
    return rows


def write_rows(rows: list[dict[str, Any]], path: Path) -> Path:
    """CSV with the union of the rows' keys as columns (first-seen order); floats as ``repr``."""
    fields = list(dict.fromkeys(key for row in rows for key in row))
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
    return path


def _write_parquet(rows: list[dict[str, Any]], path: Path) -> Path | None:
    """Parquet through pandas when pandas and a Parquet engine are installed; else nothing."""
    try:
        import pandas  # deferred: optional (pandas and a Parquet engine)
    except ImportError:
        return None
    try:
        pandas.DataFrame(rows).to_parquet(path)
    except ImportError:  # no pyarrow / fastparquet
        return None
    return path


def write_sweep(spec: Any, results: Any, out_dir: Path, *, figures: bool = True,
                image_format: str = "png") -> list[Path]:
    """Write the tables (and figures, as ``image_format``) of a sweep; return the paths written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    runs, summary = run_rows(spec, results), summary_rows(results)
    if spec.reference:
        add_excess_regret(summary, spec.reference)
    main = summary if spec.kind == "scaling" else curve_rows(results)
    if spec.note:
        for row in main:
            row["note"] = spec.note
    files = [write_rows(main, out_dir / f"{spec.name}.csv"),
             write_rows(runs, out_dir / f"{spec.name}-runs.csv"),
             write_rows(summary, out_dir / f"{spec.name}-summary.csv")]
    parquet = _write_parquet(runs, out_dir / f"{spec.name}-runs.parquet")
    if parquet is not None:
        files.append(parquet)
    if figures:
        title = spec.description or spec.name
        titles = {panel.key: panel.title for panel, _ in results}
        if spec.kind == "scaling":
            files.append(plots.plot_scaling(summary, out_dir / spec.name, title=title,
                                            preset_label=spec.preset_label, image_format=image_format,
                                            note=spec.note,
                                            value="excess_regret" if spec.reference
                                            else "final_regret"))
        else:
            files.append(plots.plot_regret_table(main, out_dir / spec.name, title=title,
                                                 preset_label=spec.preset_label, image_format=image_format,
                                                 panel_titles=titles, note=spec.note))
    return files
