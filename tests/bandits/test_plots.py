"""plot_results: a user's own results as a figure that says what it shows."""

from __future__ import annotations

import csv
import io

import numpy as np
import pytest

pytest.importorskip("matplotlib")

from dpverify.bandits.environments import InstanceFamily  # noqa: E402
from dpverify.bandits.mab import make_algorithm  # noqa: E402
from dpverify.bandits.plots import (  # noqa: E402
    BAND,
    ERROR_BARS,
    FORMATS,
    caption,
    plot_results,
    save_figure,
)
from dpverify.bandits.simulate import simulate  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    import matplotlib.pyplot as plt

    plt.close("all")


@pytest.fixture(scope="module")
def results():
    return [simulate(make_algorithm(name, epsilon=1.0), InstanceFamily("easy", 4), 5000, runs=3,
                     seed=1, checkpoints=20) for name in ("cdp-se", "ldp-se")]


def _table(results) -> list[dict[str, str]]:
    """The curve table of the results, written and read back as CSV (all strings)."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=["algorithm", "round", "time_average_pseudo_regret",
                                                "standard_error", "runs"])
    writer.writeheader()
    for sim in results:
        for t, mean, se in zip(sim.checkpoints, sim.time_average_regret(),
                               sim.standard_error() / sim.checkpoints):
            writer.writerow({"algorithm": sim.algorithm, "round": int(t),
                             "time_average_pseudo_regret": repr(float(mean)),
                             "standard_error": repr(float(se)), "runs": sim.runs})
    return list(csv.DictReader(io.StringIO(buffer.getvalue())))


@pytest.mark.slow
def test_one_curve_and_band_per_result_with_the_caption(results) -> None:
    figure = plot_results(results, title="t", preset_label="my preset")
    [axis] = figure.axes
    assert [line.get_label() for line in axis.get_lines()] == [r.algorithm for r in results]
    assert len(axis.collections) == len(results)  # one band each
    for line, sim in zip(axis.get_lines(), results):
        np.testing.assert_allclose(line.get_ydata(), sim.time_average_regret())
    assert figure.texts[-1].get_text() == f"my preset; T = 5,000; 3 runs per curve; {BAND}"


def test_the_legend_is_outside_the_axes(results) -> None:
    figure = plot_results(results)
    figure.canvas.draw()
    [axis] = figure.axes
    legend_box = axis.get_legend().get_window_extent()
    assert legend_box.x0 >= axis.get_window_extent().x1


def test_cumulative_metric_and_a_table_give_the_same_curves(results) -> None:
    from_results = plot_results(results, metric="cumulative").axes[0].get_lines()
    from_table = plot_results(_table(results), metric="cumulative").axes[0].get_lines()
    for ours, theirs, sim in zip(from_results, from_table, results):
        np.testing.assert_allclose(ours.get_ydata(), sim.mean_regret())
        np.testing.assert_allclose(theirs.get_ydata(), sim.mean_regret(), rtol=1e-12)
        np.testing.assert_allclose(theirs.get_xdata(), sim.checkpoints)


@pytest.mark.parametrize("image_format, magic", [("png", b"\x89PNG"), ("pdf", b"%PDF"),
                                                 ("svg", b"<?xml")])
@pytest.mark.slow
def test_formats(results, tmp_path, image_format: str, magic: bytes) -> None:
    assert image_format in FORMATS
    plot_results(results[:1], tmp_path / f"figure.{image_format}")
    assert (tmp_path / f"figure.{image_format}").read_bytes().startswith(magic)
    written = save_figure(plot_results(results[:1]), tmp_path / "bare", image_format=image_format)
    assert written == tmp_path / f"bare.{image_format}" and written.read_bytes().startswith(magic)


def test_one_run_has_no_band_and_says_run(results) -> None:
    single = simulate(make_algorithm("cdp-se", epsilon=1.0), InstanceFamily("easy", 4), 2000,
                      runs=1, seed=2, checkpoints=10)
    figure = plot_results(single)
    assert not figure.axes[0].collections
    assert figure.texts[-1].get_text() == f"T = 2,000; 1 run per curve; {BAND}"


@pytest.mark.parametrize("bad, error, fragment", [
    ([], TypeError, "results="),
    ("table", TypeError, "results="),
    ([{"algorithm": "a", "round": 1}], ValueError, "missing"),
])
def test_bad_results(bad, error, fragment: str) -> None:
    with pytest.raises(error, match=fragment):
        plot_results(bad)


@pytest.mark.parametrize("keyword, value", [("metric", "log"), ("kind", "mean"),
                                            ("image_format", "jpeg")])
def test_bad_options_name_the_parameter(results, keyword: str, value: str) -> None:
    with pytest.raises(ValueError, match=keyword):
        plot_results(results, **{keyword: value})


def test_caption_ranges_and_refusal() -> None:
    assert caption([2, 5, 5]) == f"2–5 runs per curve; {BAND}"
    assert caption(["3"], horizon="T = 10^5", marks=ERROR_BARS) == (
        f"T = 10^5; 3 runs per curve; {ERROR_BARS}")
    with pytest.raises(ValueError, match="runs"):
        caption([])


# --------------------------------------------------------------------------- the experiments' figures
def _captured(monkeypatch) -> list:
    """Make the plots module hand its figures to a list instead of (only) saving them."""
    import dpverify.bandits.plots as plots

    figures: list = []
    original = plots.save_figure

    def keep(figure, path, *, image_format=None):
        figures.append(figure)
        return original(figure, path, image_format=image_format)

    monkeypatch.setattr(plots, "save_figure", keep)
    return figures


def _legends_outside(figure) -> bool:
    figure.canvas.draw()
    for axis in figure.axes:
        legend = axis.get_legend()
        if legend is None:
            continue
        inner, box = axis.get_window_extent(), legend.get_window_extent()
        if not (box.x0 >= inner.x1 or box.y1 <= inner.y0):
            return False
    return True


@pytest.mark.slow
def test_regret_table_figure_states_preset_runs_and_bands(results, tmp_path, monkeypatch) -> None:
    from dpverify.bandits.plots import plot_regret_table

    figures = _captured(monkeypatch)
    rows = [{**row, "panel": "p", "epsilon": 1.0, "horizon": 5000}
            for row in _table(results)]
    for row in rows:
        for key in ("round", "time_average_pseudo_regret", "standard_error", "runs"):
            row[key] = float(row[key])
    path = plot_regret_table(rows, tmp_path / "curves", preset_label="quick preset", note="a note",
                             image_format="pdf")
    assert path == tmp_path / "curves.pdf" and path.read_bytes().startswith(b"%PDF")
    [figure] = figures
    text = figure.texts[-1].get_text()
    assert text == f"quick preset; T = 5,000; 3 runs per curve; {BAND}\na note"
    assert _legends_outside(figure)


@pytest.mark.slow
def test_scaling_and_contextual_figures_state_error_bars(tmp_path, monkeypatch) -> None:
    from dpverify.bandits.plots import plot_contextual, plot_scaling

    figures = _captured(monkeypatch)
    rows = [{"algorithm": name, "epsilon": epsilon, "final_regret": 100.0 / epsilon + shift,
             "standard_error": 3.0, "runs": 4, "horizon": 10**5, "dimension": 2}
            for name, shift in (("a", 0.0), ("b", 50.0)) for epsilon in (0.1, 1.0, 10.0)]
    plot_scaling(rows, tmp_path / "scaling.svg", preset_label="full preset")
    plot_contextual([{**r, "horizon": h} for r in rows for h in (10**3, 10**4) if r["epsilon"] == 1.0],
                    tmp_path / "contextual.png", x="horizon")
    scaling, contextual = figures
    assert scaling.texts[-1].get_text() == f"full preset; T = 10^5; 4 runs per curve; {ERROR_BARS}"
    assert contextual.texts[-1].get_text() == f"T = 10^3 … 10^4; 4 runs per curve; {ERROR_BARS}"
    assert _legends_outside(scaling) and _legends_outside(contextual)
    assert (tmp_path / "scaling.svg").read_bytes().startswith(b"<?xml")


@pytest.mark.slow
def test_reproduce_writes_the_requested_format(tmp_path) -> None:
    from dpverify.bandits.experiments import reproduce

    outcome = reproduce("hanna2022-fig2", preset="quick", runs=2, panels=("eps=10",),
                        out_dir=tmp_path, cache=False, image_format="svg")
    assert tmp_path / "hanna2022-fig2.svg" in outcome.files
    assert not (tmp_path / "hanna2022-fig2.png").exists()


@pytest.mark.slow
def test_reproduce_command_format_option(tmp_path, capsys) -> None:
    from dpverify.cli import main

    assert main(["reproduce", "hanna2022-fig2", "--panels", "eps=10", "--runs", "2", "--format",
                 "pdf", "--out", str(tmp_path), "--no-cache"]) == 0
    assert (tmp_path / "hanna2022-fig2.pdf").read_bytes().startswith(b"%PDF")
    with pytest.raises(SystemExit) as exit_info:
        main(["reproduce", "hanna2022-fig2", "--format", "jpeg"])
    assert exit_info.value.code == 2 and "--format" in capsys.readouterr().err
