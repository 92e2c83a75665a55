"""Figures from simulation results and result tables (matplotlib, imported lazily; the ``plots`` extra).

Kept out of :mod:`dpverify.bandits.simulate` so that simulating never needs
matplotlib; never imports :mod:`dpverify.bandits.experiments` (tests/test_layering.py).

Every figure says what it shows: a caption line under the axes gives its preset
(when the caller knows it), the horizon(s), the number of runs per curve and what
the bands or error bars are (± 1 standard error of the mean over runs); legends
sit to the right of the axes, never over the data; figures are written as png,
pdf or svg (:data:`FORMATS`). The experiments' figures are built outside
pyplot, and nothing here switches the user's matplotlib backend. :func:`plot_results` draws a
user's own results.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from dpverify._deprecation import renamed_parameters
from dpverify._validation import check_choice, value_error
from dpverify.errors import DpverifyTypeError

__all__ = ["plot_results", "plot_regret_table", "plot_scaling", "plot_contextual", "caption",
           "FORMATS"]

#: Figure file formats (``--format`` of ``dpverify reproduce`` and ``dpverify sweep``).
FORMATS = ("png", "pdf", "svg")
#: What the band around each curve is, stated on every curve figure.
BAND = "band: ± 1 standard error of the mean over runs"
#: What the error bars are, stated on every point figure.
ERROR_BARS = "error bars: ± 1 standard error of the mean over runs"


def _label(row: Mapping[str, Any]) -> str:
    """The curve's name, with its actual guarantee when it is not pure nominal-ε DP."""
    epsilon, delta = row.get("guarantee_epsilon"), row.get("guarantee_delta")
    if epsilon in (None, "") or (not delta and abs(epsilon - row["epsilon"]) <= 1e-9 * epsilon):
        return row["algorithm"]
    actual = f"({epsilon:.3g}, {delta:.3g})-DP" if delta else f"{epsilon:.3g}-DP"
    return f"{row['algorithm']} [{actual}]"


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


@renamed_parameters(scale="preset_label")
def caption(runs: Any, *, preset_label: str = "", horizon: str = "", marks: str = BAND) -> str:
    """The line every figure carries: its preset, horizon, runs per curve and what the bands are.

    >>> caption([5, 5], preset_label="quick preset (T/10)")
    'quick preset (T/10); 5 runs per curve; band: ± 1 standard error of the mean over runs'
    >>> caption([1, 20], horizon="T = 10^5", marks=ERROR_BARS)
    'T = 10^5; 1–20 runs per curve; error bars: ± 1 standard error of the mean over runs'
    """
    counts = sorted({int(float(r)) for r in runs})
    if not counts:
        raise value_error("runs", runs, "at least one run count")
    many = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]}–{counts[-1]}"
    noun = "run" if counts == [1] else "runs"
    return "; ".join(part for part in (preset_label, horizon, f"{many} {noun} per curve", marks) if part)


def _new_figure(*, pyplot: bool = False, **options: Any) -> Any:
    """A matplotlib Figure; outside pyplot unless ``pyplot`` (never switching the backend).

    Figures that are only saved stay outside pyplot (nothing to close, no display
    side effects); :func:`plot_results` makes a pyplot figure so that a notebook
    shows it with the user's backend.
    """
    try:
        if pyplot:
            import matplotlib.pyplot as plt  # deferred: optional (dpverify[plots])

            return plt.figure(**options)
        from matplotlib.figure import Figure  # deferred: optional (dpverify[plots])
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


def _finish(figure: Any, path: str | Path, *, title: str, note: str, caption_line: str,
            image_format: str | None) -> Path:
    """Title, the caption line (and a note) under the panels, tight layout, saved."""
    if title:
        figure.suptitle(title, fontsize=10)
    lines = [caption_line] + ([note] if note else [])
    figure.text(0.01, 0.005, "\n".join(lines), ha="left", va="bottom", fontsize=7, wrap=True)
    figure.tight_layout(rect=(0, 0.035 * len(lines) + 0.01, 1, 1))
    return save_figure(figure, path, image_format=image_format)


@renamed_parameters(scale="preset_label")
def plot_regret_table(rows: Any, path: str | Path, *, title: str = "",
                      panel_titles: dict[str, str] | None = None, note: str = "",
                      kind: str = "pseudo", preset_label: str = "",
                      image_format: str | None = None) -> Path:
    """One panel per ``panel`` of a curve table: ``Reg(t)/t`` ± one standard error against t.

    ``rows``: mappings with ``panel``, ``algorithm``, ``epsilon``, ``round``,
    ``runs``, ``horizon``, ``time_average_{kind}_regret`` and its standard error
    (``standard_error`` for pseudo, ``realised_standard_error`` for realised),
    and optionally the actual guarantee (``guarantee_epsilon``,
    ``guarantee_delta``), shown in the legend when it is not pure nominal-ε DP.
    Linear time axis as in Chowdhury & Zhou 2023, Fig. 1 (their shading is ± std/√20).
    The caption line gives ``preset_label``, the horizons, the runs per curve and what
    the bands are; ``note`` is printed under it. Returns the path written.
    """
    value = f"time_average_{kind}_regret"
    error = "standard_error" if kind == "pseudo" else "realised_standard_error"
    panels = list(dict.fromkeys(r["panel"] for r in rows))
    columns = min(3, len(panels))
    count_rows = -(-len(panels) // columns)
    figure = _new_figure(figsize=(5.2 * columns, 4.6 * count_rows))
    axes = figure.subplots(count_rows, columns, squeeze=False)
    for axis, panel in zip(axes.ravel(), panels):
        own = [r for r in rows if r["panel"] == panel]
        for name in dict.fromkeys(r["algorithm"] for r in own):
            curve = [r for r in own if r["algorithm"] == name]
            rounds = np.array([r["round"] for r in curve], dtype=float)
            mean = np.array([r[value] for r in curve])
            band = np.array([r[error] for r in curve])
            axis.plot(rounds, mean, label=_label(curve[0]))
            axis.fill_between(rounds, mean - band, mean + band, alpha=0.25, linewidth=0)
        axis.set_title((panel_titles or {}).get(panel, panel), fontsize=10)
        axis.set_xlabel("round t")
        axis.set_ylabel("time-average regret")
        axis.set_ylim(bottom=0)
        legend_outside(axis, where="below")
    for axis in axes.ravel()[len(panels):]:
        axis.set_visible(False)
    line = caption([r["runs"] for r in rows], preset_label=preset_label, horizon=_horizons(rows))
    return _finish(figure, path, title=title, note=note, caption_line=line,
                   image_format=image_format)


@renamed_parameters(scale="preset_label")
def plot_scaling(rows: Any, path: str | Path, *, title: str = "", note: str = "",
                 value: str = "final_regret", guides: bool = True, preset_label: str = "",
                 image_format: str | None = None) -> Path:
    """Final regret (or ``value``, e.g. ``"excess_regret"``) against 1/ε on log–log axes.

    ``rows``: a result table, one mapping per (algorithm, ε) with keys
    ``algorithm``, ``epsilon``, ``value``, ``standard_error``, ``runs`` and
    ``horizon`` (and optionally ``guarantee_epsilon``/``guarantee_delta``: an
    algorithm whose actual guarantee differs from the nominal ε at some point
    is marked "[actual (ε, δ) differ: see CSV]"). Rows whose ``value`` is
    missing or not positive are not drawn. The guides ``∝ 1/ε`` (dotted) and
    ``∝ 1/ε²`` (dashed) start at each curve's own point of largest ε, where its
    privacy cost is smallest and regret is furthest from its linear ceiling, so
    a curve's slope can be read against them; ``guides=False`` omits them. The
    caption line gives ``preset_label``, the horizons, the runs and what the error bars are.
    """
    figure = _new_figure(figsize=(8.2, 4.5))
    axis = figure.subplots()
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
    legend_outside(axis)
    line = caption([r["runs"] for r in rows], preset_label=preset_label, horizon=_horizons(rows),
                   marks=ERROR_BARS)
    return _finish(figure, path, title=title, note=note, caption_line=line,
                   image_format=image_format)


@renamed_parameters(table="rows", scale="preset_label")
def plot_contextual(rows: Any, path: str | Path, *, x: str, title: str = "", preset_label: str = "",
                    image_format: str | None = None) -> Path:
    """Our experiments on Garcelon et al. 2022's SBLB: final regret against ``x`` ("horizon" or "epsilon"), per d.

    Log–log; for ``x="horizon"`` with reference slopes 1/2, 2/3, 3/4 and 1.
    ``rows`` is a result table (rows as written by :mod:`dpverify.bandits.experiments.garcelon`,
    with ``runs`` and ``horizon``); the caption line gives ``preset_label``, the
    horizons, the runs and what the error bars are.
    """
    dimensions = sorted({r["dimension"] for r in rows})
    figure = _new_figure(figsize=(6.0 * len(dimensions), 5.4))
    axes = figure.subplots(1, len(dimensions), squeeze=False)
    for axis, dimension in zip(axes[0], dimensions):
        own = [r for r in rows if r["dimension"] == dimension]
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
        legend_outside(axis, where="below")
    line = caption([r["runs"] for r in rows], preset_label=preset_label, horizon=_horizons(rows),
                   marks=ERROR_BARS)
    return _finish(figure, path, title=title, note="", caption_line=line,
                   image_format=image_format)


# --------------------------------------------------------------------------- your own results
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


@renamed_parameters(scale="preset_label")
def plot_results(results: Any, path: str | Path | None = None, *, metric: str = "time-average",
                 kind: str = "pseudo", title: str = "", preset_label: str = "",
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
        ``"time-average"`` (``Reg(t)/t``, the axis of Chowdhury & Zhou 2023, Fig. 1) or
        ``"cumulative"`` (``Reg(t)``).
    kind
        ``"pseudo"`` (Σ of the gaps of the arms played) or ``"realised"``
        (Σ of best-arm minus received rewards).
    title
        The figure's title.
    preset_label
        What the figure's run-size preset is (e.g. ``"quick preset: T = 10^5, not the paper's 10^6"``);
        written in the caption line with the number of runs and what the bands are.
    log_time
        A logarithmic time axis.

    Returns
    -------
    matplotlib.figure.Figure
        The figure: a pyplot figure with your backend (dpverify never switches
        it), so a notebook shows it; close it with ``matplotlib.pyplot.close``
        when drawing many.

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
    figure = _new_figure(pyplot=True, figsize=(6.4, 3.8))
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
    figure.text(0.01, 0.005, caption([c[4] for c in curves], preset_label=preset_label, horizon=horizon),
                fontsize=7, ha="left", va="bottom")
    figure.tight_layout(rect=(0, 0.05, 1, 1))
    if path is not None:
        save_figure(figure, path, image_format=image_format)
    return figure
