"""Figures from simulation results and result tables (matplotlib, imported lazily; the ``plots`` extra).

Kept out of :mod:`dpverify.bandits.simulate` so that simulating never needs
matplotlib; never imports :mod:`dpverify.bandits.experiments` (tests/test_layering.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["plot_regret_panels", "plot_scaling", "plot_contextual"]


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ImportError("figures need matplotlib: pip install 'dpverify[plots]'") from error
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_regret_panels(results: Any, path: str | Path, *, title: str = "",
                       kind: str = "pseudo") -> Path:
    """One panel per entry of ``results`` ((panel, simulations) pairs): ``Reg(t)/t`` ± standard error.

    Linear time axis as in chowdhury Fig. 1; the band is ± one standard error
    of the mean over runs (their shading is ± std/√20).
    """
    plt = _pyplot()
    count = len(results)
    columns = min(3, count)
    rows = -(-count // columns)
    figure, axes = plt.subplots(rows, columns, figsize=(4.8 * columns, 3.6 * rows), squeeze=False)
    for axis, (panel, sims) in zip(axes.ravel(), results):
        for sim in sims:
            rounds = sim.checkpoints
            mean = sim.time_average_regret(kind)
            band = sim.standard_error(kind) / rounds
            axis.plot(rounds, mean, label=sim.algorithm)
            axis.fill_between(rounds, mean - band, mean + band, alpha=0.25)
        axis.set_title(getattr(panel, "title", str(panel)), fontsize=10)
        axis.set_xlabel("round t")
        axis.set_ylabel("time-average regret")
        axis.set_ylim(bottom=0)
        axis.legend(fontsize=7)
    for axis in axes.ravel()[count:]:
        axis.set_visible(False)
    if title:
        figure.suptitle(title)
    figure.tight_layout()
    path = Path(path)
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path


def plot_scaling(rows: Any, path: str | Path, *, title: str = "") -> Path:
    """Final regret against 1/ε on log–log axes, with reference slopes 1 and 2.

    ``rows``: a result table, one mapping per (algorithm, ε) with keys
    ``algorithm``, ``epsilon``, ``final_regret`` and ``standard_error``.
    """
    plt = _pyplot()
    figure, axis = plt.subplots(figsize=(6, 4.5))
    for name in dict.fromkeys(r["algorithm"] for r in rows):
        own = sorted((r for r in rows if r["algorithm"] == name), key=lambda r: r["epsilon"])
        inverse = np.array([1 / r["epsilon"] for r in own])
        axis.errorbar(inverse, [r["final_regret"] for r in own],
                      yerr=[r["standard_error"] for r in own], marker="o", capsize=3, label=name)
    inverse = np.array(sorted({1 / r["epsilon"] for r in rows}))
    anchor = max(r["final_regret"] for r in rows)
    for power, style in ((1, ":"), (2, "--")):
        reference = anchor * (inverse / inverse[-1]) ** power
        axis.plot(inverse, reference, "k" + style, linewidth=0.8, label=f"∝ 1/ε^{power}")
    axis.set_xscale("log")
    axis.set_yscale("log")
    axis.set_xlabel("1/ε")
    axis.set_ylabel("final regret Reg(T)")
    axis.legend(fontsize=8)
    if title:
        axis.set_title(title, fontsize=9)
    figure.tight_layout()
    path = Path(path)
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path


def plot_contextual(table: Any, path: str | Path, *, x: str, title: str = "") -> Path:
    """garcelon experiments: final regret against ``x`` ("horizon" or "epsilon"), one panel per d.

    Log–log; for ``x="horizon"`` with reference slopes 1/2, 2/3, 3/4 and 1.
    ``table`` is a result table (rows as written by the garcelon experiments).
    """
    plt = _pyplot()
    dimensions = sorted({r["dimension"] for r in table})
    figure, axes = plt.subplots(1, len(dimensions), figsize=(6 * len(dimensions), 4.5),
                                squeeze=False)
    for axis, dimension in zip(axes[0], dimensions):
        own = [r for r in table if r["dimension"] == dimension]
        for name in dict.fromkeys(r["algorithm"] for r in own):
            points = sorted((r for r in own if r["algorithm"] == name), key=lambda r: r[x])
            axis.errorbar([r[x] for r in points], [max(r["final_regret"], 1e-3) for r in points],
                          yerr=[r["standard_error"] for r in points], marker="o", capsize=3,
                          label=name)
        if x == "horizon":
            grid = np.array(sorted({r["horizon"] for r in own}), dtype=float)
            anchor = max(r["final_regret"] for r in own)
            for power, style in ((0.5, ":"), (2 / 3, "-."), (0.75, "--"), (1.0, "-")):
                axis.plot(grid, anchor * (grid / grid[-1]) ** power, "k" + style, linewidth=0.7,
                          label=f"∝ T^{power:.2g}")
        axis.set_xscale("log")
        axis.set_yscale("log")
        axis.set_xlabel("horizon T" if x == "horizon" else "central ε")
        axis.set_ylabel("final regret Reg(T)")
        axis.set_title(f"d = {dimension}", fontsize=10)
        axis.legend(fontsize=7)
    if title:
        figure.suptitle(title, fontsize=10)
    figure.tight_layout()
    path = Path(path)
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path
