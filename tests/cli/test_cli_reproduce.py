"""``dpverify reproduce``: one quick panel of a registered figure; unknown panels exit 2."""

from __future__ import annotations

import json

import pytest

from dpverify.cli import main


def _json(capsys, *argv: str) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.slow
def test_reproduce_quick_panel(capsys, tmp_path) -> None:
    pytest.importorskip("matplotlib")
    out = _json(capsys, "reproduce", "chowdhury2023-fig1", "--preset", "quick", "--panels", "b",
                "--runs", "2", "--out", str(tmp_path))
    assert {row["panel"] for row in out["results"]} == {"b"} and len(out["results"]) == 4
    assert all(path.endswith((".csv", ".png")) for path in out["files"])
    assert (tmp_path / "chowdhury2023-fig1.png").exists()



def test_reproduce_unknown_panel_exits_2(capsys, tmp_path) -> None:
    pytest.importorskip("matplotlib")
    with pytest.raises(SystemExit) as info:
        main(["reproduce", "chowdhury2023-fig1", "--panels", "zz", "--out", str(tmp_path)])
    assert info.value.code == 2 and "--panels zz" in capsys.readouterr().err
