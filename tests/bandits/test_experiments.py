"""Experiment registry and reproduce(): the papers' settings, CSV and PNG output."""

from __future__ import annotations

import csv

import pytest

from dpverify.bandits.experiments import EXPERIMENTS, SCALING_EPSILONS, reproduce


def test_fig1_registry_has_the_papers_settings() -> None:
    experiment = EXPERIMENTS["chowdhury2023-fig1"]
    settings = {p.key: (p.instances.name, p.instances.k, p.epsilon, p.horizon) for p in experiment.panels}
    assert settings == {"a": ("easy", 10, 0.1, 10 ** 6), "b": ("easy", 10, 0.5, 10 ** 6),
                        "c": ("hard", 10, 0.1, 10 ** 7), "d": ("mslr-synthetic", 50, 1.0, 10 ** 6),
                        "e": ("mslr-synthetic", 50, 5.0, 10 ** 6),
                        "f": ("mslr-synthetic", 50, 10.0, 10 ** 6)}
    assert experiment.runs == 20
    labels = [spec.label for spec in experiment.panels[0].algorithms]
    assert labels == ["DP-SE", "Dist-DP-SE", "Dist-RDP-SE (s=10)", "Dist-RDP-SE (s=100)"]
    for spec in experiment.panels[0].algorithms:
        algorithm = spec.build(0.1, 1e-6)
        assert algorithm.confidence == 0.1
        assert getattr(algorithm, "batch_base", 4) == 4


def test_scaling_registry() -> None:
    experiment = EXPERIMENTS["tenenbaum2021-scaling"]
    assert tuple(p.epsilon for p in experiment.panels) == SCALING_EPSILONS
    assert all(p.instances.rewards == "bernoulli" for p in experiment.panels)


def test_reproduce_fig1_panel_writes_csv_and_png(tmp_path) -> None:
    pytest.importorskip("matplotlib")
    outcome = reproduce("chowdhury2023-fig1", scale="quick", seed=1, out_dir=tmp_path,
                        panels=("b",), runs=2)
    csv_path, png_path = outcome.files
    assert png_path.stat().st_size > 10_000
    rows = list(csv.DictReader(csv_path.open()))
    assert {r["algorithm"] for r in rows} == {"DP-SE", "Dist-DP-SE", "Dist-RDP-SE (s=10)",
                                              "Dist-RDP-SE (s=100)"}
    assert {r["horizon"] for r in rows} == {str(10 ** 5)} and {r["runs"] for r in rows} == {"2"}
    assert all(0 <= float(r["time_average_pseudo_regret"]) <= 1 for r in rows)
    # every row says how the figure ran the algorithm and whether the paper's claim holds
    assert {r["mode"] for r in rows} == {"paper"}
    assert {r["claim_met"] for r in rows if r["algorithm"] == "Dist-DP-SE"} == {"True"}
    assert {r["claim_met"] for r in rows if r["algorithm"].startswith("Dist-RDP")} == {"False"}


def test_reproduce_scaling_panel(tmp_path) -> None:
    pytest.importorskip("matplotlib")
    outcome = reproduce("tenenbaum2021-scaling", seed=1, out_dir=tmp_path, panels=("eps=0.2",), runs=1)
    rows = list(csv.DictReader(outcome.files[0].open()))
    assert [r["algorithm"] for r in rows] == ["SDP-AE (m = ⌈σ²⌉)", "VB-SDP-AE (m^t = 2^t)",
                                              "AE (non-private, 2^t)"]
    assert outcome.files[1].exists()


def test_unknown_names_are_refused() -> None:
    with pytest.raises(ValueError, match="name"):
        reproduce("chowdhury2023-fig9")
    with pytest.raises(ValueError, match="scale"):
        reproduce("chowdhury2023-fig1", scale="huge")
