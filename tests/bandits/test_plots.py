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


def test_one_curve_and_band_per_result_with_the_caption(results) -> None:
    figure = plot_results(results, title="t", scale="my scale")
    [axis] = figure.axes
    assert [line.get_label() for line in axis.get_lines()] == [r.algorithm for r in results]
    assert len(axis.collections) == len(results)  # one band each
    for line, sim in zip(axis.get_lines(), results):
        np.testing.assert_allclose(line.get_ydata(), sim.time_average_regret())
    assert figure.texts[-1].get_text() == f"my scale; T = 5,000; 3 runs per curve; {BAND}"


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
