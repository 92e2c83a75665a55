"""``dpverify sweep``, and the execution / cache options of ``simulate`` and ``reproduce``."""

from __future__ import annotations

import json

import pytest

from dpverify.cli import main

SPEC = """
name = "cli-sweep"
runs = 2
seed = 1
checkpoints = 10
epsilons = [0.5, 1.0]
horizons = [3000]

[[algorithms]]
name = "dist-dp-se"

[[instances]]
family = "easy"
n_arms = 3
"""


def _json(capsys, *argv: str) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_sweep_command_caches_and_reports(tmp_path, capsys) -> None:
    (tmp_path / "spec.toml").write_text(SPEC)
    argv = ("sweep", str(tmp_path / "spec.toml"), "--out", str(tmp_path / "out"),
            "--cache-dir", str(tmp_path / "cache"), "--no-figures")
    first = _json(capsys, *argv)
    assert (first["tasks"], first["computed"], first["cached"]) == (4, 4, 0)
    second = _json(capsys, *argv, "--jobs", "2")
    assert (second["computed"], second["cached"]) == (0, 4)
    assert second["results"] == first["results"]
    assert {row["guarantee_epsilon"] for row in first["results"]} == {0.5, 1.0}
    third = _json(capsys, *argv, "--no-cache")
    assert third["computed"] == 4 and third["results"] == first["results"]


def test_sweep_command_bad_input_exits_2(tmp_path, capsys) -> None:
    (tmp_path / "bad.toml").write_text(SPEC.replace('name = "dist-dp-se"', 'name = "nope"'))
    with pytest.raises(SystemExit) as exit_info:
        main(["sweep", str(tmp_path / "bad.toml")])
    assert exit_info.value.code == 2
    with pytest.raises(SystemExit) as exit_info:
        main(["sweep", str(tmp_path / "missing.toml")])
    assert exit_info.value.code == 2
    (tmp_path / "good.toml").write_text(SPEC)
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_info:
        main(["sweep", str(tmp_path / "good.toml"), "--scheduler", "nowhere", "--no-cache"])
    assert exit_info.value.code == 2
    assert "--scheduler" in capsys.readouterr().err


def test_simulate_instance_file_and_cache(tmp_path, capsys) -> None:
    (tmp_path / "arms.json").write_text(json.dumps({"name": "mine", "means": [0.1, 0.9],
                                                    "rewards": "bernoulli"}))
    argv = ("simulate", "--algorithm", "dist-dp-se", "--epsilon", "1", "--horizon", "2000",
            "--runs", "2", "--instance-file", str(tmp_path / "arms.json"),
            "--cache-dir", str(tmp_path / "cache"))
    first = _json(capsys, *argv)
    assert first["environment"] == "mine (K=2, bernoulli)"
    assert any((tmp_path / "cache").rglob("*.npz"))
    assert _json(capsys, *argv)["final_time_average_regret"] == first["final_time_average_regret"]
    (tmp_path / "linear.json").write_text(json.dumps({"theta": [1, 0], "actions": [[1, 0], [0, 1]]}))
    with pytest.raises(SystemExit) as exit_info:
        main([*argv[:-4], "--instance-file", str(tmp_path / "linear.json")])
    assert exit_info.value.code == 2
    linear = _json(capsys, "simulate", "--algorithm", "hanna-central", "--epsilon", "1",
                   "--horizon", "2000", "--instance-file", str(tmp_path / "linear.json"),
                   "--no-cache")
    assert linear["n_arms"] == 2 and linear["dimension"] == 2
