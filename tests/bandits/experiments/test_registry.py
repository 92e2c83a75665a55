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
        assert algorithm.failure_probability == 0.1
        assert getattr(algorithm, "batch_base", 4) == 4


def test_scaling_registry() -> None:
    experiment = EXPERIMENTS["tenenbaum2021-scaling"]
    assert tuple(p.epsilon for p in experiment.panels) == SCALING_EPSILONS
    assert all(p.instances.rewards == "bernoulli" for p in experiment.panels)


def test_reproduce_fig1_panel_writes_csv_and_png(tmp_path) -> None:
    pytest.importorskip("matplotlib")
    outcome = reproduce("chowdhury2023-fig1", scale="quick", seed=1, out_dir=tmp_path,
                        panels=("b",), runs=2)
    csv_path, png_path = outcome.files[0], next(f for f in outcome.files if f.suffix == ".png")
    assert png_path.stat().st_size > 10_000
    rows = list(csv.DictReader(csv_path.open()))
    assert {r["algorithm"] for r in rows} == {"DP-SE", "Dist-DP-SE", "Dist-RDP-SE (s=10)",
                                              "Dist-RDP-SE (s=100)"}
    assert {r["horizon"] for r in rows} == {str(10 ** 5)} and {r["runs"] for r in rows} == {"2"}
    assert all(0 <= float(r["time_average_pseudo_regret"]) <= 1 for r in rows)


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
    with pytest.raises(ValueError, match="scale"):
        reproduce("chowdhury2023-fig1", scale="huge")


def test_registry_lists_chowdhury_figures_1_to_4_and_hanna_3b_against_epsilon() -> None:
    for figure in (1, 2, 3, 4):
        assert f"chowdhury2023-fig{figure}" in EXPERIMENTS
    for figure, family, horizon in ((2, "easy", 10 ** 6), (3, "hard", 10 ** 7), (4, "easy", 10 ** 6)):
        experiment = EXPERIMENTS[f"chowdhury2023-fig{figure}"]
        assert [(p.instances.name, p.epsilon, p.horizon) for p in experiment.panels] == [
            (family, e, horizon) for e in (0.1, 0.5, 1.0)]
    fig4 = [spec.label for spec in EXPERIMENTS["chowdhury2023-fig4"].panels[0].algorithms]
    assert fig4 == ["CDP-SE", "LDP-SE", "Dist-DP-SE", "Dist-RDP-SE (s=10)", "Dist-CDP-SE (s=10)"]
    for spec in EXPERIMENTS["chowdhury2023-fig4"].panels[-1].algorithms:  # ε = 1 builds
        assert spec.build(1.0, 1e-6).guarantee(n_arms=10, horizon=10 ** 6).approx_dp is not None
    hanna = EXPERIMENTS["hanna2022-fig3b"]
    assert hanna.kind == "scaling" and len(hanna.panels) >= 4
    assert {p.horizon for p in hanna.panels} == {10 ** 7}
    assert {p.instances.k for p in hanna.panels} == {1000}
    assert min(p.epsilon for p in hanna.panels) < 1 <= max(p.epsilon for p in hanna.panels)


def test_panels_differing_only_in_epsilon_get_the_same_seeds() -> None:
    from dpverify.bandits.experiments import experiment_spec
    from dpverify.bandits.experiments.sweeps import instance_entropy

    spec = experiment_spec("chowdhury2023-fig1", scale="quick", seed=3)
    entropy = dict(zip((p.key for p in spec.panels), instance_entropy(spec)))
    assert entropy["a"] == entropy["b"] and entropy["d"] == entropy["e"] == entropy["f"]
    assert len({tuple(entropy[k]) for k in "acd"}) == 3
    assert "does not keep the paper's ordering" in spec.note
    assert experiment_spec("chowdhury2023-fig1", scale="full").note == ""


def test_each_curve_carries_its_actual_guarantee(tmp_path) -> None:
    outcome = reproduce("chowdhury2023-fig1", scale="quick", seed=1, out_dir=tmp_path,
                        panels=("a",), runs=2)
    rows = {r["algorithm"]: r for r in csv.DictReader((tmp_path / "chowdhury2023-fig1-summary.csv").open())}
    assert float(rows["DP-SE"]["guarantee_epsilon"]) == 0.1
    assert float(rows["DP-SE"]["guarantee_delta"]) == 0.0
    rdp = rows["Dist-RDP-SE (s=10)"]
    assert float(rdp["guarantee_epsilon"]) > 0.1 and float(rdp["guarantee_delta"]) == 1e-6
    assert outcome.computed == 8


def test_dpe_fixedu_sends_what_dpe_sends_at_the_papers_horizon() -> None:
    """dpdpe Fig. 2(c) at T = 10^6: U calibrated on the runs' own communication (within 5%)."""
    import numpy as np

    from dpverify.bandits.experiments import experiment_spec, sweep

    spec = experiment_spec("dpdpe-fig2c", scale="full", runs=6, seed=0)
    dpe, fixed = spec.panels[0].algorithms
    assert fixed.options[0][0] == "users" and fixed.options[0][1] < 245  # the nominal rule's U
    result = sweep(spec, cache=False)
    (_, (dpe_result, fixed_result)), = result.results
    dpe_cost = float(np.mean(dpe_result.communication_cost))
    fixed_cost = float(np.mean(fixed_result.communication_cost))
    assert abs(fixed_cost - dpe_cost) <= 0.05 * dpe_cost, (fixed_cost, dpe_cost)
    nominal = sweep(experiment_spec("dpdpe-fig2c", scale="full", runs=6, seed=0).__class__(
        "nominal", (spec.panels[0].__class__(
            "c", "", spec.panels[0].instances, spec.panels[0].epsilon, 10 ** 6,
            (fixed.__class__("dpe-fixedu", "nominal", (("users", 245),)),), 0.25),), runs=6,
        seed=0), cache=False)
    assert float(np.mean(nominal.results[0][1][0].communication_cost)) > 2 * dpe_cost


def test_tenenbaum_sweep_reports_the_privacy_cost_over_ae(tmp_path) -> None:
    pytest.importorskip("matplotlib")
    outcome = reproduce("tenenbaum2021-scaling", seed=2, out_dir=tmp_path,
                        panels=("eps=0.1", "eps=0.2"), runs=1)
    rows = list(csv.DictReader(outcome.files[0].open()))
    ae = {r["panel"]: float(r["final_regret"]) for r in rows if r["algorithm"].startswith("AE")}
    for row in rows:
        if row["algorithm"].startswith("AE"):
            assert row["excess_regret"] == ""
        else:
            assert float(row["excess_regret"]) == pytest.approx(
                float(row["final_regret"]) - ae[row["panel"]])
    assert "T = 10^7" in EXPERIMENTS["tenenbaum2021-scaling"].description
