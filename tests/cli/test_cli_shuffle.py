"""``dpverify shuffle``: amplification by shuffling, forward and inverse, JSON and bad input."""

from __future__ import annotations

import json

import pytest

from dpverify.cli import main


def _json(capsys, *argv: str) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_shuffle_forward_and_inverse_json(capsys) -> None:
    from dpverify.accountants.shuffle import amplified_epsilon, max_local_epsilon

    forward = _json(capsys, "shuffle", "--local-epsilon", "1", "--users", "1e5", "--delta", "1e-6")
    assert {"epsilon", "local_epsilon", "users", "delta", "bound"} <= set(forward)
    assert forward["epsilon"] == amplified_epsilon(1.0, 10**5, 1e-6) and forward["users"] == 10**5
    inverse = _json(capsys, "shuffle", "--epsilon", "0.1", "--users", "100000", "--delta", "1e-6",
                    "--inverse")
    assert inverse["local_epsilon"] == max_local_epsilon(0.1, 10**5, 1e-6)
    assert amplified_epsilon(inverse["local_epsilon"], 10**5, 1e-6) <= 0.1


def test_shuffle_binary_rr_unlocks_rr_bounds(capsys) -> None:
    out = _json(capsys, "shuffle", "--local-epsilon", "2", "--users", "10000", "--delta", "1e-6",
                "--bound", "cheu2019", "--randomizer", "binary-rr")
    assert out["randomizer"] == "binary-rr" and 0 < out["epsilon"] < 2


@pytest.mark.parametrize("argv, fragment", [
    (["shuffle", "--users", "100", "--delta", "1e-6"], "--local-epsilon is required"),
    (["shuffle", "--users", "100", "--delta", "1e-6", "--inverse"], "--epsilon (the target) is required"),
    (["shuffle", "--local-epsilon", "10", "--users", "100", "--delta", "1e-6"], "validity"),
    (["shuffle", "--local-epsilon", "1", "--users", "1e5", "--delta", "1e-6", "--bound", "cheu2019"],
     "BinaryRandomizedResponse"),
])
def test_shuffle_bad_input_exits_2(capsys, argv: list[str], fragment: str) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2 and fragment in capsys.readouterr().err
