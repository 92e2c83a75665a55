"""``dpverify simulate`` with the contextual algorithms: the MAB JSON keys plus local_epsilon and batch_length."""

from __future__ import annotations

import json

import pytest

from dpverify.cli import main

MAB_KEYS = {"final_time_average_regret", "final_regret_std", "final_regret", "final_realised_regret",
            "epsilon", "delta", "guarantee_model", "guarantee_epsilon", "guarantee_delta",
            "guarantee_per_batch", "n_arms", "algorithm_label", "environment", "simulation_seconds",
            "algorithm", "instance", "horizon", "runs", "seed", "per_user", "seconds"}


@pytest.mark.parametrize("algorithm, epsilon", [("sblb", "0.002"), ("sblb-fixed-batch", "0.002"),
                                                ("ldp-linucb", "1"), ("linucb", None)])
@pytest.mark.slow
def test_simulate_contextual_json(capsys, algorithm, epsilon) -> None:
    argv = ["simulate", "--algorithm", algorithm, "--instance", "contextual", "--dimension", "2",
            "--n-arms", "4", "--delta", "1e-6", "--horizon", "3000", "--runs", "2", "--seed", "1",
            "--json"] + ([] if epsilon is None else ["--epsilon", epsilon])
    if algorithm.startswith("sblb"):  # the paper's constants: the claim fails (exit 1, warning)
        argv += ["--batch-form", "printed", "--mode", "paper"]
    assert main(argv) == (1 if algorithm.startswith("sblb") else 0)
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert out["claim_met"] is not algorithm.startswith("sblb")
    assert ("warning:" in captured.err) is algorithm.startswith("sblb")
    assert MAB_KEYS <= set(out) and {"local_epsilon", "batch_length"} <= set(out)
    assert out["n_arms"] == 4 and out["dimension"] == 2 and out["runs"] == 2
    if algorithm == "linucb":
        assert out["local_epsilon"] is None and out["guarantee_model"] == "none"
    elif algorithm == "ldp-linucb":
        assert out["local_epsilon"] == 1.0 and out["batch_length"] == 1
    else:
        assert out["guarantee_model"] == "shuffle" and out["batch_length"] > 1


def test_contextual_algorithm_on_a_mab_instance_is_refused(capsys) -> None:
    with pytest.raises(SystemExit) as info:
        main(["simulate", "--algorithm", "linucb", "--instance", "easy", "--horizon", "100"])
    assert info.value.code == 2
    assert "--instance" in capsys.readouterr().err
