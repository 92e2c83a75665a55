"""Experiment registry: the papers' settings, common seeds across ε, the privacy cost over AE."""

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

    spec = experiment_spec("chowdhury2023-fig1", preset="quick", seed=3)
    entropy = dict(zip((p.key for p in spec.panels), instance_entropy(spec)))
    assert entropy["a"] == entropy["b"] and entropy["d"] == entropy["e"] == entropy["f"]
    assert len({tuple(entropy[k]) for k in "acd"}) == 3
    assert "does not keep the paper's ordering" in spec.note
    assert experiment_spec("chowdhury2023-fig1", preset="full").note == ""


@pytest.mark.slow
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
