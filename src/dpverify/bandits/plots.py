"""Figures from simulation results and result tables (matplotlib, imported lazily; the ``plots`` extra).

Kept out of :mod:`dpverify.bandits.simulate` so that simulating never needs
matplotlib; never imports :mod:`dpverify.bandits.experiments` (tests/test_layering.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["plot_regret_table", "plot_scaling", "plot_contextual"]


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ImportError("figures need matplotlib: pip install 'dpverify[plots]'") from error
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _label(row: dict[str, Any]) -> str:
    """The curve's name, with its actual guarantee when it is not pure nominal-ε DP."""
    epsilon, delta = row.get("guarantee_epsilon"), row.get("guarantee_delta")
    if epsilon in (None, "") or (not delta and abs(epsilon - row["epsilon"]) <= 1e-9 * epsilon):
        return row["algorithm"]
    actual = f"({epsilon:.3g}, {delta:.3g})-DP" if delta else f"{epsilon:.3g}-DP"
    return f"{row['algorithm']} [{actual}]"


def _finish(figure: Any, path: str | Path, title: str, note: str) -> Path:
    if title:
        figure.suptitle(title, fontsize=10)
    if note:
        figure.text(0.5, 0.005, note, ha="center", va="bottom", fontsize=7, color="darkred",
                    wrap=True)
    figure.tight_layout(rect=(0, 0.04 if note else 0, 1, 1))
    path = Path(path)
    figure.savefig(path, dpi=110)
    return path


def plot_regret_table(rows: Any, path: str | Path, *, title: str = "",
                      panel_titles: dict[str, str] | None = None, note: str = "",
                      kind: str = "pseudo") -> Path:
    """One panel per ``panel`` of a curve table: ``Reg(t)/t`` ± one standard error against t.

    ``rows``: mappings with ``panel``, ``algorithm``, ``epsilon``, ``round``,
    ``time_average_{kind}_regret`` and its standard error (``standard_error``
    for pseudo, ``realised_standard_error`` for realised), and optionally the
    actual guarantee (``guarantee_epsilon``, ``guarantee_delta``), shown in
    the legend when it is not pure nominal-ε DP. Linear time axis as in
    chowdhury Fig. 1 (their shading is ± std/√20). ``note`` is printed under the panels.
    """
    plt = _pyplot()
    value = f"time_average_{kind}_regret"
    error = "standard_error" if kind == "pseudo" else "realised_standard_error"
    panels = list(dict.fromkeys(r["panel"] for r in rows))
    columns = min(3, len(panels))
    count_rows = -(-len(panels) // columns)
    figure, axes = plt.subplots(count_rows, columns, figsize=(4.8 * columns, 3.6 * count_rows),
                                squeeze=False)
    for axis, panel in zip(axes.ravel(), panels):
        own = [r for r in rows if r["panel"] == panel]
        for name in dict.fromkeys(r["algorithm"] for r in own):
            curve = [r for r in own if r["algorithm"] == name]
            rounds = np.array([r["round"] for r in curve], dtype=float)
            mean = np.array([r[value] for r in curve])
            band = np.array([r[error] for r in curve])
            axis.plot(rounds, mean, label=_label(curve[0]))
            axis.fill_between(rounds, mean - band, mean + band, alpha=0.25)
        axis.set_title((panel_titles or {}).get(panel, panel), fontsize=10)
        axis.set_xlabel("round t")
        axis.set_ylabel("time-average regret")
        axis.set_ylim(bottom=0)
        axis.legend(fontsize=7)
    for axis in axes.ravel()[len(panels):]:
        axis.set_visible(False)
    path = _finish(figure, path, title, note)
    plt.close(figure)
    return path


def plot_scaling(rows: Any, path: str | Path, *, title: str = "", note: str = "",
                 value: str = "final_regret", guides: bool = True) -> Path:
    """Final regret (or ``value``, e.g. ``"excess_regret"``) against 1/ε on log–log axes.

    ``rows``: a result table, one mapping per (algorithm, ε) with keys
    ``algorithm``, ``epsilon``, ``value`` and ``standard_error`` (and
    optionally ``guarantee_epsilon``/``guarantee_delta``: an algorithm whose
    actual guarantee differs from the nominal ε at some point is marked
    "[actual (ε, δ) differ: see CSV]"). Rows whose ``value`` is missing or not
    positive are not drawn. The guides ``∝ 1/ε`` (dotted) and ``∝ 1/ε²``
    (dashed) start at each curve's own point of largest ε, where its privacy
    cost is smallest and regret is furthest from its linear ceiling, so a
    curve's slope can be read against them; ``guides=False`` omits them.
    """
    plt = _pyplot()
    figure, axis = plt.subplots(figsize=(6, 4.5))
    shown = [r for r in rows if r.get(value) not in (None, "") and r[value] > 0]
    for name in dict.fromkeys(r["algorithm"] for r in shown):
        own = sorted((r for r in shown if r["algorithm"] == name), key=lambda r: r["epsilon"])
        inverse = np.array([1 / r["epsilon"] for r in own])
        differs = any(_label(r) != r["algorithm"] for r in own if "guarantee_epsilon" in r)
        label = f"{name} [actual (ε, δ) differ: see CSV]" if differs else name
        lines = axis.errorbar(inverse, [r[value] for r in own],
                              yerr=[r["standard_error"] for r in own], marker="o", capsize=3,
                              label=label)
        if guides and len(own) > 1:
            anchor_x, anchor_y = inverse[-1], own[-1][value]
            grid = np.sort(inverse)
            for power, style in ((1, ":"), (2, "--")):
                axis.plot(grid, anchor_y * (grid / anchor_x) ** power, style, linewidth=0.8,
                          color=lines[0].get_color())
    if guides:
        axis.plot([], [], "k:", linewidth=0.8, label="∝ 1/ε from each curve's largest ε")
        axis.plot([], [], "k--", linewidth=0.8, label="∝ 1/ε² from each curve's largest ε")
    axis.set_xscale("log")
    axis.set_yscale("log")
    axis.set_xlabel("1/ε")
    axis.set_ylabel("final regret Reg(T)" if value == "final_regret"
                    else "Reg(T) − non-private Reg(T)" if value == "excess_regret" else value)
    axis.legend(fontsize=7)
    path = _finish(figure, path, title, note)
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
