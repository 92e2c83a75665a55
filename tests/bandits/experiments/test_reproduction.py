"""reproduce(): a registered figure's panels to CSV and PNG, each curve with its actual guarantee."""

from __future__ import annotations

import csv

import pytest

from dpverify.bandits.experiments import reproduce


@pytest.mark.slow
def test_reproduce_fig1_panel_writes_csv_and_png(tmp_path) -> None:
    pytest.importorskip("matplotlib")
    outcome = reproduce("chowdhury2023-fig1", preset="quick", seed=1, out_dir=tmp_path,
                        panels=("b",), runs=2)
    csv_path, png_path = outcome.files[0], next(f for f in outcome.files if f.suffix == ".png")
    assert png_path.stat().st_size > 10_000
    rows = list(csv.DictReader(csv_path.open()))
    assert {r["algorithm"] for r in rows} == {"DP-SE", "Dist-DP-SE", "Dist-RDP-SE (s=10)",
                                              "Dist-RDP-SE (s=100)"}
    assert {r["horizon"] for r in rows} == {str(10 ** 5)} and {r["runs"] for r in rows} == {"2"}
    assert all(0 <= float(r["time_average_pseudo_regret"]) <= 1 for r in rows)


@pytest.mark.slow
def test_reproduce_scaling_panel(tmp_path) -> None:
    pytest.importorskip("matplotlib")
    outcome = reproduce("tenenbaum2021-scaling", seed=1, out_dir=tmp_path, panels=("eps=0.2",), runs=1)
    rows = list(csv.DictReader(outcome.files[0].open()))
    assert [r["algorithm"] for r in rows] == ["SDP-AE (m = ⌈σ²⌉)", "VB-SDP-AE (m^t = 2^t)",
                                              "AE (non-private, 2^t)"]
    assert next(f for f in outcome.files if f.suffix == ".png").exists()


def test_unknown_names_are_refused() -> None:
    with pytest.raises(ValueError, match="name"):
        reproduce("chowdhury2023-fig9")
    with pytest.raises(ValueError, match="preset"):
        reproduce("chowdhury2023-fig1", preset="huge")


@pytest.mark.slow
def test_each_curve_carries_its_actual_guarantee(tmp_path) -> None:
    outcome = reproduce("chowdhury2023-fig1", preset="quick", seed=1, out_dir=tmp_path,
                        panels=("a",), runs=2)
    rows = {r["algorithm"]: r for r in csv.DictReader((tmp_path / "chowdhury2023-fig1-summary.csv").open())}
    assert float(rows["DP-SE"]["guarantee_epsilon"]) == 0.1
    assert float(rows["DP-SE"]["guarantee_delta"]) == 0.0
    rdp = rows["Dist-RDP-SE (s=10)"]
    assert float(rdp["guarantee_epsilon"]) > 0.1 and float(rdp["guarantee_delta"]) == 1e-6
    assert outcome.computed == 8


@pytest.mark.parametrize("name", ["dpdpe-fig2c", "garcelon2022-privacy"])
def test_runs_beyond_the_reproduction_limit_are_refused_before_any_run(name, tmp_path) -> None:
    """Issue 28: ``reproduce --runs 1000`` simulated (and for Fig. 2(c) calibrated U on)
    1000 runs per curve, minutes of work; it is refused at once naming runs and the limit,
    and nothing is written."""
    from dpverify.bandits._limits import MAX_REPRODUCTION_RUNS
    from dpverify.bandits.experiments.spec_files import experiment_spec

    assert MAX_REPRODUCTION_RUNS == 100
    with pytest.raises(ValueError, match="runs=1000 exceeds the limit 100"):
        reproduce(name, runs=1000, out_dir=tmp_path)
    assert not any(tmp_path.iterdir())
    if name == "dpdpe-fig2c":  # the spec (and a sweep file naming the experiment) too
        with pytest.raises(ValueError, match="runs=101 exceeds the limit 100"):
            experiment_spec(name, runs=101)


def test_cli_reproduce_names_runs_and_its_limit(capsys) -> None:
    pytest.importorskip("matplotlib")
    from dpverify.cli import main

    with pytest.raises(SystemExit) as exited:
        main(["reproduce", "dpdpe-fig2c", "--panels", "c", "--runs", "1_000", "--out", "."])
    assert exited.value.code == 2
    assert "--runs 1000 exceeds the limit 100" in capsys.readouterr().err
