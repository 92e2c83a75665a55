"""``dpverify simulate`` with the linear algorithms, and ``dpverify reproduce`` of their figures."""

from __future__ import annotations

import json

import pytest

from dpverify.cli import main


def _json(capsys, *argv, status=0):
    assert main([*argv, "--json"]) == status
    return json.loads(capsys.readouterr().out)


def test_simulate_hanna_json(capsys):
    out = _json(capsys, "simulate", "--algorithm", "hanna-central", "--epsilon", "1",
                "--horizon", "20000", "--runs", "2", "--seed", "3", "--mode", "sound")
    assert out["instance"] == "sphere" and out["n_arms"] == 10 and out["dimension"] == 2
    assert out["guarantee_epsilon"] == 1.0 and out["mode"] == "sound"
    assert out["final_regret"] >= 0 and "communication_cost" not in out
    paper = _json(capsys, "simulate", "--algorithm", "hanna-central", "--epsilon", "1",
                  "--horizon", "20000", "--seed", "3", "--mode", "paper", status=1)
    assert paper["guarantee_epsilon"] == 2.0 and "NOT" in paper["guarantee_notes"]
    assert paper["claim_met"] is False and out["claim_met"] is True


@pytest.mark.slow
def test_simulate_dpdpe_json_has_communication_cost(capsys):
    out = _json(capsys, "simulate", "--algorithm", "dpdpe-central", "--epsilon", "10",
                "--horizon", "20000", "--dimension", "5", "--n-arms", "50", "--mode", "paper", status=1)
    assert out["instance"] == "dpdpe" and out["delta"] == 0.25
    assert out["communication_cost"] > 0 and out["guarantee_delta"] > 0.25
    fixed = _json(capsys, "simulate", "--algorithm", "dpe-fixedu", "--horizon", "20000",
                  "--dimension", "5", "--n-arms", "50")
    assert fixed["guarantee_model"] == "none" and fixed["communication_cost"] > 0


def test_simulate_refuses_mismatched_instance(capsys):
    with pytest.raises(SystemExit) as error:
        main(["simulate", "--algorithm", "dpe", "--horizon", "100", "--instance", "sphere"])
    assert error.value.code == 2 and "instance" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["simulate", "--algorithm", "hanna-local", "--horizon", "100"])  # no epsilon


@pytest.mark.slow
def test_reproduce_writes_csv_and_png(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    out = _json(capsys, "reproduce", "dpdpe-fig2c", "--runs", "1", "--out", str(tmp_path))
    assert {p.split("/")[-1] for p in out["files"]} - {"dpdpe-fig2c-runs.parquet"} == {
        "dpdpe-fig2c.csv", "dpdpe-fig2c.png", "dpdpe-fig2c-runs.csv", "dpdpe-fig2c-summary.csv"}
    labels = sorted(row["algorithm"] for row in out["results"])
    assert labels[0] == "DPE" and labels[1].startswith("DPE-FixedU (equal communication) (U = ")


def test_linear_experiments_are_registered():
    from dpverify.bandits.experiments import EXPERIMENTS

    names = {"hanna2022-fig2", "hanna2022-fig3b", "dpdpe-fig2a", "dpdpe-fig2b", "dpdpe-fig2c"}
    assert names <= set(EXPERIMENTS)
    fig2b = EXPERIMENTS["dpdpe-fig2b"].panels[0]
    assert (fig2b.epsilon, fig2b.delta, fig2b.horizon, fig2b.instances.k, fig2b.instances.d) == \
        (10.0, 0.25, 10 ** 6, 1000, 20)
    assert EXPERIMENTS["hanna2022-fig3b"].panels[0].horizon == 10 ** 7
    assert EXPERIMENTS["hanna2022-fig2"].runs >= 10
