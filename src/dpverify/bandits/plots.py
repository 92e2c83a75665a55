"""Figures from simulation results and result tables (matplotlib, imported lazily; the ``plots`` extra).

Kept out of :mod:`dpverify.bandits.simulate` so that simulating never needs
matplotlib; never imports :mod:`dpverify.bandits.experiments` (tests/test_layering.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from dpverify._validation import check_choice, value_error
from dpverify.errors import DpverifyTypeError

__all__ = ["plot_results", "plot_regret_panels", "plot_scaling", "plot_contextual", "caption",
           "FORMATS"]

#: Figure file formats (``--format`` of ``dpverify reproduce``).
FORMATS = ("png", "pdf", "svg")


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


# --------------------------------------------------------------------------- your own results
#: What the band around each curve is, stated on every curve figure.
BAND = "band: ± 1 standard error of the mean over runs"
#: What the error bars are, stated on every point figure.
ERROR_BARS = "error bars: ± 1 standard error of the mean over runs"


def _rounds(value: float) -> str:
    """``10^5`` for a power of ten, else ``31,623``."""
    value = int(value)
    power = len(str(value)) - 1
    return f"10^{power}" if value == 10 ** power and power > 1 else f"{value:,}"


def _horizons(rows: Sequence[Mapping[str, Any]]) -> str:
    """``T = 10^5`` or ``T = 10^3 … 10^5`` from the rows' ``horizon`` column ("" without one)."""
    horizons = sorted({int(float(r["horizon"])) for r in rows if r.get("horizon") not in (None, "")})
    if not horizons:
        return ""
    if len(horizons) == 1:
        return f"T = {_rounds(horizons[0])}"
    return f"T = {_rounds(horizons[0])} … {_rounds(horizons[-1])}"


def caption(runs: Any, *, scale: str = "", horizon: str = "", marks: str = BAND) -> str:
    """The line every figure carries: its scale, horizon, runs per curve and what the bands are.

    >>> caption([5, 5], scale="quick scale (T/10)")
    'quick scale (T/10); 5 runs per curve; band: ± 1 standard error of the mean over runs'
    >>> caption([1, 20], horizon="T = 10^5", marks=ERROR_BARS)
    'T = 10^5; 1–20 runs per curve; error bars: ± 1 standard error of the mean over runs'
    """
    counts = sorted({int(float(r)) for r in runs})
    if not counts:
        raise value_error("runs", runs, "at least one run count")
    many = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]}–{counts[-1]}"
    noun = "run" if counts == [1] else "runs"
    return "; ".join(part for part in (scale, horizon, f"{many} {noun} per curve", marks) if part)


def _new_figure(**options: Any) -> Any:
    """A matplotlib Figure outside pyplot: no backend is switched, nothing to close."""
    try:
        from matplotlib.figure import Figure
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ImportError("figures need matplotlib: pip install 'dpverify[plots]'") from error
    return Figure(**options)


def legend_outside(axis: Any, *, where: str = "right", fontsize: float = 7) -> None:
    """The legend outside the axes (``"right"`` of them or ``"below"`` the x label): never over data."""
    handles, labels = axis.get_legend_handles_labels()
    if not handles:
        return
    if where == "below":
        axis.legend(fontsize=fontsize, loc="upper center", bbox_to_anchor=(0.5, -0.2),
                    ncol=2, borderaxespad=0.0, frameon=False)
    else:
        axis.legend(fontsize=fontsize, loc="upper left", bbox_to_anchor=(1.01, 1.0),
                    borderaxespad=0.0, frameon=False)


def save_figure(figure: Any, path: str | Path, *, image_format: str | None = None) -> Path:
    """Save ``figure`` to ``path`` in ``image_format`` (png, pdf or svg; default: the path's suffix).

    A path whose suffix is not the format's gets the format's suffix. The
    bounding box is tight, so a legend placed outside the axes is kept.
    """
    path = Path(path)
    suffix = path.suffix.lstrip(".").lower()
    if image_format is None:
        image_format = suffix if suffix in FORMATS else "png"
    image_format = check_choice(image_format, "image_format", FORMATS)
    if suffix != image_format:
        path = path.with_name(f"{path.stem if suffix in FORMATS else path.name}.{image_format}")
    figure.savefig(path, format=image_format, dpi=110, bbox_inches="tight")
    return path


def _as_curves(results: Any, kind: str) -> list[tuple[str, np.ndarray, np.ndarray, np.ndarray, int]]:
    """(label, rounds, mean cumulative regret, its standard error, runs) per curve."""
    if hasattr(results, "checkpoints"):
        results = [results]
    if isinstance(results, (str, bytes)) or not isinstance(results, Sequence) or not results:
        raise DpverifyTypeError(f"results={results!r} must be a SimulationResult, a non-empty "
                                "sequence of them, or a curve table (rows with algorithm, round, "
                                "time_average_pseudo_regret, standard_error, runs)")
    if all(hasattr(item, "checkpoints") for item in results):
        return [(item.algorithm, np.asarray(item.checkpoints, dtype=float),
                 item.mean_regret(kind), item.standard_error(kind), int(item.runs))
                for item in results]
    if not all(isinstance(item, Mapping) for item in results):
        raise DpverifyTypeError("results must be all SimulationResult values or all table rows "
                                "(mappings)")
    value = f"time_average_{kind}_regret"
    error = "standard_error" if kind == "pseudo" else "realised_standard_error"
    needed = {"algorithm", "round", value, error, "runs"}
    missing = needed - set(results[0])
    if missing:
        raise value_error("results", f"<table with columns {sorted(results[0])}>",
                          f"rows with the columns {sorted(needed)}", f"missing {sorted(missing)}")
    curves = []
    for label in dict.fromkeys(row["algorithm"] for row in results):
        own = sorted((row for row in results if row["algorithm"] == label),
                     key=lambda row: float(row["round"]))
        rounds = np.array([float(row["round"]) for row in own])
        curves.append((str(label), rounds, np.array([float(row[value]) for row in own]) * rounds,
                       np.array([float(row[error]) for row in own]) * rounds,
                       int(float(own[0]["runs"]))))
    return curves


def plot_results(results: Any, path: str | Path | None = None, *, metric: str = "time-average",
                 kind: str = "pseudo", title: str = "", scale: str = "",
                 log_time: bool = False, image_format: str | None = None) -> Any:
    """Plot your own bandit results: regret against t, one curve per algorithm, ± 1 s.e. bands.

    Parameters
    ----------
    results
        A :class:`~dpverify.bandits.simulate.SimulationResult` (what
        :func:`~dpverify.bandits.simulate.simulate` returns), a sequence of them,
        or a curve table: rows (mappings, e.g. read from a sweep's ``<name>.csv``
        with :class:`csv.DictReader`) with ``algorithm``, ``round``,
        ``time_average_pseudo_regret``, ``standard_error`` and ``runs`` (the
        ``realised`` columns for ``kind="realised"``) of **one** panel.
    path
        Where to save the figure (``None``: not saved); the format is
        ``image_format`` or the path's suffix (png, pdf or svg, :data:`FORMATS`).
    metric
        ``"time-average"`` (``Reg(t)/t``, chowdhury Fig. 1's axis) or
        ``"cumulative"`` (``Reg(t)``).
    kind
        ``"pseudo"`` (Σ of the gaps of the arms played) or ``"realised"``
        (Σ of best-arm minus received rewards).
    title
        The figure's title.
    scale
        What the figure's scale is (e.g. ``"quick scale: T = 10^5, not the paper's 10^6"``);
        written in the caption line with the number of runs and what the bands are.
    log_time
        A logarithmic time axis.

    Returns
    -------
    matplotlib.figure.Figure
        The figure, made without pyplot (no backend is switched and nothing
        needs closing); a notebook displays it.

    Notes
    -----
    The band around each curve is ± one standard error of the mean over runs
    (sample standard deviation with ddof = 1, divided by √runs; none for one
    run); the caption under the axes says so, with the runs per curve and the
    scale. The legend sits to the right of the axes, never over the data.

    Examples
    --------
    >>> from dpverify.bandits.environments import InstanceFamily
    >>> from dpverify.bandits.mab import make_algorithm
    >>> from dpverify.bandits.simulate import simulate
    >>> runs = [simulate(make_algorithm(name, epsilon=1.0), InstanceFamily("easy", 5), 10**4,
    ...                  runs=3, seed=0) for name in ("cdp-se", "ldp-se")]
    >>> figure = plot_results(runs, title="central vs local, ε = 1")
    >>> figure.texts[-1].get_text()
    'T = 10^4; 3 runs per curve; band: ± 1 standard error of the mean over runs'
    """
    metric = check_choice(metric, "metric", ("time-average", "cumulative"))
    kind = check_choice(kind, "kind", ("pseudo", "realised"))
    if image_format is not None:
        check_choice(image_format, "image_format", FORMATS)
    curves = _as_curves(results, kind)
    figure = _new_figure(figsize=(6.4, 3.8))
    axis = figure.subplots()
    for label, rounds, mean, error, _ in curves:
        scale_by = rounds if metric == "time-average" else 1.0
        axis.plot(rounds, mean / scale_by, label=label)
        if np.any(error > 0):
            axis.fill_between(rounds, (mean - error) / scale_by, (mean + error) / scale_by,
                              alpha=0.25, linewidth=0)
    axis.set_xlabel("round t")
    axis.set_ylabel("time-average regret Reg(t)/t" if metric == "time-average"
                    else "cumulative regret Reg(t)")
    if log_time:
        axis.set_xscale("log")
    axis.set_ylim(bottom=0)
    if title:
        axis.set_title(title, fontsize=10)
    legend_outside(axis)
    horizon = f"T = {_rounds(max(c[1][-1] for c in curves))}"
    figure.text(0.01, 0.005, caption([c[4] for c in curves], scale=scale, horizon=horizon),
                fontsize=7, ha="left", va="bottom")
    figure.tight_layout(rect=(0, 0.05, 1, 1))
    if path is not None:
        save_figure(figure, path, image_format=image_format)
    return figure
