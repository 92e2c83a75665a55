"""``dpverify simulate`` of the multi-armed algorithms: JSON keys, reproducibility, refusals."""

from __future__ import annotations

import json

import pytest

from dpverify.cli import main


def _json(capsys, *argv: str) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_simulate_json(capsys) -> None:
    out = _json(capsys, "simulate", "--algorithm", "dist-dp-se", "--instance", "easy", "--n-arms", "5",
                "--epsilon", "0.5", "--horizon", "1e4", "--runs", "3", "--seed", "1")
    for key in ("final_time_average_regret", "final_regret_std", "epsilon", "delta", "seconds"):
        assert key in out
    assert 0 < out["final_time_average_regret"] < 0.5 and out["final_regret_std"] >= 0
    assert out["epsilon"] == 0.5 and out["guarantee_epsilon"] == 0.5 and out["guarantee_delta"] == 0.0
    assert out["n_arms"] == 5 and out["runs"] == 3 and out["horizon"] == 10_000


def test_simulate_is_reproducible_and_describes(capsys) -> None:
    argv = ["simulate", "--algorithm", "vb-sdp-ae", "--epsilon", "1", "--horizon", "5000", "--runs",
            "2", "--seed", "3"]
    first, second = _json(capsys, *argv), _json(capsys, *argv)
    assert first["final_time_average_regret"] == second["final_time_average_regret"]
    assert first["guarantee_model"] == "shuffle" and first["environment"].endswith("bernoulli)")
    assert main(argv) == 0
    assert "VB-SDP-AE" in capsys.readouterr().out


def test_simulate_refuses_a_private_algorithm_without_epsilon(capsys) -> None:
    with pytest.raises(SystemExit) as info:
        main(["simulate", "--algorithm", "dp-se", "--horizon", "100"])
    message = capsys.readouterr().err
    assert info.value.code == 2 and "--epsilon must be given" in message and "None" not in message
