"""``dpverify claims``: each named paper checked once, its verdicts listed, its report written.

The full run of all five papers and the verdicts it must reach are in
``tests/claims/test_claims_report.py``; here ``check_paper`` is cut to one claim.
"""

from __future__ import annotations

import json

import pytest

from dpverify import claims
from dpverify.cli import claims as command
from dpverify.cli import main


def test_the_command_knows_the_libraries_papers() -> None:
    assert command.PAPERS == claims.PAPERS  # repeated there so that --help imports nothing heavy


@pytest.mark.slow
def test_each_paper_once_verdicts_listed_report_written(tmp_path, capsys, monkeypatch) -> None:
    real, calls = claims.check_paper, []

    def one_claim(paper: str, *, preset: str) -> claims.PaperReport:
        calls.append((paper, preset))
        return real(paper, preset=preset, claim_keys=["cor32-batch"])

    monkeypatch.setattr(claims, "check_paper", one_claim)
    assert main(["claims", "tenenbaum", "tenenbaum", "--out", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert calls == [("tenenbaum", "quick")]
    assert "cor32-batch  holds under a stated correction" in text
    assert text.rstrip().endswith(f"wrote 2 files to {tmp_path}")  # the report and the index
    assert main(["claims", "tenenbaum", "--out", str(tmp_path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [c["verdict"] for c in out["papers"][0]["claims"]] == ["holds under a stated correction"]
    assert out["files"] == [str(tmp_path / "tenenbaum.md"), str(tmp_path / "index.md")]
    assert "## cor32-batch" in (tmp_path / "tenenbaum.md").read_text(encoding="utf-8")


def test_an_unknown_paper_exits_2_naming_the_papers(tmp_path, capsys) -> None:
    with pytest.raises(SystemExit) as info:
        main(["claims", "nobody", "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert info.value.code == 2 and "PAPER='nobody'" in err and "garcelon, hanna" in err
