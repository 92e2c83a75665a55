"""``dpverify audit scores``: files (.npy, .csv, one per line), exit statuses 0 / 1 / 2, JSON."""

from __future__ import annotations

import json

import numpy as np
import pytest

from dpverify.cli import main
from dpverify.cli._scores import read_scores


@pytest.fixture
def files(tmp_path):
    rng = np.random.default_rng(0)
    included = rng.random(2000) < 0.5
    scores = rng.normal(0, 1, 2000) + 3 * included
    np.save(tmp_path / "in.npy", scores[included])
    (tmp_path / "out.csv").write_text(",".join(map(str, scores[~included])))
    (tmp_path / "out.txt").write_text("# out-scores\n" + "\n".join(map(str, scores[~included])))
    return tmp_path


def test_one_run_violation_exits_1(files, capsys) -> None:
    status = main(["audit", "scores", "--in", str(files / "in.npy"), "--out",
                   str(files / "out.csv"), "--design", "one-run", "--epsilon", "1"])
    assert status == 1 and "VIOLATION" in capsys.readouterr().out


def test_json_and_no_violation_exits_0(files, capsys) -> None:
    status = main(["audit", "scores", "--in-scores", str(files / "in.npy"), "--out-scores",
                   str(files / "out.txt"), "--design", "one-run", "--epsilon", "10", "--json",
                   "--seed", "1"])
    result = json.loads(capsys.readouterr().out)
    assert status == 0 and result["violation"] is False and result["design"] == "one-run"


def test_independent_runs_with_a_fixed_threshold(files, capsys) -> None:
    status = main(["audit", "scores", "--in", str(files / "in.npy"), "--out",
                   str(files / "out.csv"), "--design", "independent-runs", "--thresholds", "1.5",
                   "--epsilon", "1", "--json"])
    result = json.loads(capsys.readouterr().out)
    assert status == 1 and result["thresholds"] == "fixed" and result["threshold"] == 1.5


def test_thresholds_stated_in_advance_as_a_list(files, capsys) -> None:
    status = main(["audit", "scores", "--in", str(files / "in.npy"), "--out",
                   str(files / "out.csv"), "--design", "independent-runs", "--thresholds",
                   "1.5,0.5", "--json"])
    result = json.loads(capsys.readouterr().out)
    assert status == 0 and result["thresholds"] == "fixed" and result["bounds"] == 4
    assert result["threshold"] in (0.5, 1.5)


@pytest.mark.parametrize(("argv", "fragment"), [
    (["--design", "one-run", "--out", "missing.csv"], "cannot read"),
    (["--out", "out.csv"], "--design is required"),
    (["--design", "one-run", "--out", "out.csv", "--method", "clopper-pearson"], "not independent"),
    (["--design", "one-run"], "--in-scores FILE and --out-scores FILE"),
])
def test_bad_input_exits_2(files, capsys, argv, fragment, monkeypatch) -> None:
    monkeypatch.chdir(files)
    with pytest.raises(SystemExit) as exited:
        main(["audit", "scores", "--in", "in.npy", *argv])
    assert exited.value.code == 2
    assert fragment in capsys.readouterr().err


def test_score_options_are_refused_elsewhere(capsys) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["audit", "laplace", "--design", "one-run"])
    assert exited.value.code == 2
    assert "only for 'dpverify audit scores'" in capsys.readouterr().err


def test_read_scores_refuses_non_numbers(tmp_path) -> None:
    (tmp_path / "bad.txt").write_text("1.0\nabc\n")
    with pytest.raises(ValueError, match="--in"):
        read_scores(str(tmp_path / "bad.txt"), "--in")


def test_in_and_out_are_hidden_aliases_and_help_shows_one_meaning(files, capsys) -> None:
    """``--in``/``--out`` still read the score files, but help names ``--in-scores``/``--out-scores``
    only (``--out`` is an output directory elsewhere in the CLI)."""
    long = main(["audit", "scores", "--in-scores", str(files / "in.npy"), "--out-scores",
                 str(files / "out.csv"), "--design", "one-run", "--json", "--seed", "3"])
    long_result = json.loads(capsys.readouterr().out)
    short = main(["audit", "scores", "--in", str(files / "in.npy"), "--out",
                  str(files / "out.csv"), "--design", "one-run", "--json", "--seed", "3"])
    short_result = json.loads(capsys.readouterr().out)
    assert long == short
    assert long_result["epsilon_lower_bound"] == short_result["epsilon_lower_bound"]
    with pytest.raises(SystemExit):
        main(["audit", "--help"])
    text = capsys.readouterr().out
    assert "--in-scores" in text and "--out-scores" in text
    assert "--in FILE" not in text and "--out FILE" not in text


def test_thresholds_auto_is_the_default_and_reported_resolved(files, capsys) -> None:
    status = main(["audit", "scores", "--in-scores", str(files / "in.npy"), "--out-scores",
                   str(files / "out.csv"), "--design", "one-run", "--method", "one-run",
                   "--delta", "1e-4", "--json"])
    result = json.loads(capsys.readouterr().out)  # 2000 canaries x 1e-4 = 0.2 >= 0.1: split
    assert status == 0 and result["thresholds"] == "split"
