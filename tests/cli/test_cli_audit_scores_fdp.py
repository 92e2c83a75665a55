"""``dpverify audit scores --method one-run-fdp``: the f-DP bound and μ-GDP in the JSON."""

from __future__ import annotations

import json

import numpy as np

from dpverify.cli import main


def test_one_run_fdp_reports_mu_and_flags_the_claim(tmp_path, capsys) -> None:
    rng = np.random.default_rng(0)
    included = rng.random(2000) < 0.5
    scores = rng.normal(0, 1, 2000) + 2 * included
    np.save(tmp_path / "in.npy", scores[included])
    np.save(tmp_path / "out.npy", scores[~included])
    status = main(["audit", "scores", "--in", str(tmp_path / "in.npy"), "--out",
                   str(tmp_path / "out.npy"), "--design", "one-run", "--method", "one-run-fdp",
                   "--epsilon", "1", "--delta", "1e-5", "--seed", "0", "--json"])
    result = json.loads(capsys.readouterr().out)
    assert status == 1 and result["method"] == "one-run-fdp" and result["violation"] is True
    assert 1.0 < result["epsilon_lower_bound"] < 6.2 and 0.5 < result["mu_lower_bound"] < 2.0
