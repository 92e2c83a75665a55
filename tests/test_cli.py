"""The dpverify command: thin wrappers, JSON output, clear errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from dpverify.cli import main
from dpverify.mechanisms.continuous import gaussian_privacy_profile


def _json(capsys, *argv: str) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("method", ["pld", "rdp", "analytic"])
def test_account_gaussian_json(capsys, method: str) -> None:
    out = _json(capsys, "account", "gaussian", "--sigma", "1", "--count", "1e3",
                "--delta", "1e-5", "--method", method)
    exact = gaussian_privacy_profile(1 / 1000 ** 0.5).epsilon_for_delta(1e-5)
    assert out["method"] == method and out["delta"] == 1e-5 and out["count"] == 1000
    assert exact <= out["epsilon"] <= exact * 1.05


def test_account_laplace_pure_and_pld(capsys) -> None:
    pure = _json(capsys, "account", "laplace", "--scale", "10", "--count", "10")
    assert pure["epsilon"] == 1.0 and pure["method"] == "pure"
    approx = _json(capsys, "account", "laplace", "--scale", "10", "--count", "100",
                   "--delta", "1e-6")
    assert approx["method"] == "pld" and approx["epsilon"] < 10.0


def test_account_calibrate(capsys) -> None:
    out = _json(capsys, "account", "calibrate", "--epsilon", "1", "--delta", "1e-5",
                "--count", "100", "--method", "rdp")
    assert out["sigma"] > 10 * 3.73 and out["epsilon"] == 1.0


def test_human_readable_line(capsys) -> None:
    assert main(["account", "gaussian", "--sigma", "2", "--delta", "1e-6"]) == 0
    line = capsys.readouterr().out
    assert line.startswith("1 x gaussian with sigma=2: (epsilon=2.25411, delta=1e-06)-DP")
    assert "method=pld" in line


@pytest.mark.parametrize("argv, fragment", [
    (["account", "gaussian", "--sigma", "-1", "--delta", "1e-5"], "--sigma -1.0 must be in (0, inf)"),
    (["account", "gaussian", "--sigma", "1", "--delta", "2"], "--delta 2.0 must be in (0, 1)"),
    (["account", "gaussian", "--sigma", "nan", "--delta", "1e-5"],
     "argument --sigma: 'nan' must be a finite number"),
    (["account", "gaussian", "--sigma", "1", "--delta", "1e-5", "--count", "0"],
     "argument --count: '0' must be an integer >= 1"),
    (["account", "gaussian", "--sigma", "1", "--delta", "1e-5", "--count", "inf"],
     "argument --count: 'inf' must be an integer >= 1"),
])
def test_bad_input_exits_2_with_a_message(capsys, argv: list[str], fragment: str) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert fragment in capsys.readouterr().err


def test_console_script_is_installed() -> None:
    result = subprocess.run([sys.executable, "-m", "dpverify.cli", "account", "gaussian",
                             "--sigma", "1", "--delta", "1e-5", "--method", "analytic", "--json"],
                            capture_output=True, text=True, check=True)
    assert json.loads(result.stdout)["epsilon"] == pytest.approx(4.377178, abs=1e-6)


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


def test_audit_flags_a_buggy_example_with_a_readable_report(capsys) -> None:
    assert main(["audit", "laplace_half_scale", "--samples", "1e5", "--seed", "1"]) == 1
    text = capsys.readouterr().out
    assert text.startswith("laplace_half_scale: ") and "true epsilon of this pair" in text
    assert "VIOLATION" in text and "epsilon lower bound" in text


def test_audit_json_for_a_correct_example(capsys) -> None:
    out = _json(capsys, "audit", "randomized_response", "--samples", "20000", "--seed", "2")
    assert out["command"] == "audit" and out["mechanism"] == "randomized_response"
    assert out["violation"] is False and out["epsilon"] == 1.0 and out["delta"] == 0.0
    assert 0 < out["epsilon_lower_bound"] <= out["true_epsilon"] and out["samples"] == 20000
    assert {"event", "p_hat", "p_lower", "confidence", "method", "seconds"} <= set(out)


def test_audit_claim_override_and_family(capsys) -> None:
    out = _json(capsys, "audit", "laplace_half_scale", "--epsilon", "2.5", "--samples", "2e4",
                "--seed", "3", "--events", "threshold", "--confidence", "0.99")
    assert out["violation"] is False and out["family"] == "threshold"
    assert out["claimed_epsilon"] == 2.5 and out["confidence"] == 0.99


def test_audit_shows_a_progress_bar_on_long_audits(capsys, monkeypatch) -> None:
    """Long audits get a bar on a terminal only (tqdm's disable=None); --progress forces it."""
    from dpverify.cli import audit as cli

    monkeypatch.setattr(cli, "_PROGRESS_SAMPLES", 10)
    assert main(["audit", "laplace", "--samples", "3e5", "--seed", "4", "--progress"]) == 0
    captured = capsys.readouterr()
    assert "certifying" in captured.err and "no violation found" in captured.out
    assert main(["audit", "laplace", "--samples", "3e5", "--seed", "4"]) == 0
    assert "certifying" not in capsys.readouterr().err  # captured stderr is not a terminal
    monkeypatch.setattr(cli, "_PROGRESS_SAMPLES", 10**9)
    assert main(["audit", "laplace", "--samples", "3e5", "--seed", "4"]) == 0
    assert "certifying" not in capsys.readouterr().err
    assert main(["audit", "laplace", "--samples", "3e5", "--seed", "4", "--json"]) == 0
    assert "certifying" not in capsys.readouterr().err


@pytest.mark.parametrize("argv, fragment", [
    (["audit", "laplace", "--samples", "1e4", "--confidence", "1.5"], "--confidence 1.5"),
    (["audit", "laplace", "--samples", "1e4", "--epsilon", "-1"], "--epsilon -1.0"),
    (["audit", "laplace", "--samples", "1e4", "--delta", "1"], "--delta 1.0"),
])
def test_audit_bad_input_exits_2(capsys, argv: list[str], fragment: str) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2 and fragment in capsys.readouterr().err


def test_audit_unknown_mechanism_exits_2(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["audit", "no_such_mechanism"])
    assert exit_info.value.code == 2 and "invalid choice" in capsys.readouterr().err


# ----------------------------------------------------------------------------- bandits


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


def test_reproduce_quick_panel(capsys, tmp_path) -> None:
    pytest.importorskip("matplotlib")
    out = _json(capsys, "reproduce", "chowdhury2023-fig1", "--scale", "quick", "--panels", "b",
                "--runs", "2", "--out", str(tmp_path))
    assert {row["panel"] for row in out["results"]} == {"b"} and len(out["results"]) == 4
    assert all(path.endswith((".csv", ".png")) for path in out["files"])
    assert (tmp_path / "chowdhury2023-fig1.png").exists()


# ----------------------------------------------------------------------------- conventions


def _strict_json(text: str) -> dict:
    def refuse(token: str) -> None:
        raise ValueError(f"non-RFC-8259 token {token}")

    return json.loads(text, parse_constant=refuse)


def test_version(capsys) -> None:
    from dpverify import __version__

    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0 and capsys.readouterr().out.strip() == f"dpverify {__version__}"


def test_json_is_strict_and_names_infinite_values(capsys) -> None:
    assert main(["account", "laplace", "--scale", "1", "--count", "2", "--delta", "0",
                 "--json"]) == 0
    out = _strict_json(capsys.readouterr().out)
    assert out["epsilon"] == 2.0 and "non_finite" not in out
    from dpverify.cli._core import json_dumps

    text = json_dumps({"epsilon": float("inf"), "nested": {"delta": float("nan")}, "ok": 1.5})
    assert _strict_json(text) == {"epsilon": None, "nested": {"delta": None}, "ok": 1.5,
                                  "non_finite": {"epsilon": "inf", "nested.delta": "nan"}}


def test_guarantees_are_json_objects() -> None:
    from dpverify import ZCDP, ApproxDP, PureDP
    from dpverify.cli._core import guarantee_json

    assert guarantee_json(PureDP(0.5)) == {"type": "pure-dp", "epsilon": 0.5}
    assert guarantee_json(ApproxDP(1.0, 1e-6)) == {"type": "approx-dp", "epsilon": 1.0,
                                                   "delta": 1e-6}
    assert guarantee_json(ZCDP(0.1)) == {"type": "zcdp", "rho": 0.1, "xi": 0.0}


def test_internal_error_exits_3_with_one_line(capsys, monkeypatch) -> None:
    from dpverify.cli import account

    def broken(args):
        raise RuntimeError("injected")

    monkeypatch.setattr(account, "_gaussian", broken)
    argv = ["account", "gaussian", "--sigma", "1", "--delta", "1e-5"]
    with pytest.raises(SystemExit) as info:
        main(argv)
    err = capsys.readouterr().err
    assert info.value.code == 3 and err.count("\n") == 1
    assert "internal error: RuntimeError: injected" in err and "--debug" in err
    with pytest.raises(SystemExit) as info:
        main([*argv, "--debug"])
    assert info.value.code == 3 and "Traceback" in capsys.readouterr().err


def test_unknown_option_is_reported_under_the_subcommand(capsys) -> None:
    with pytest.raises(SystemExit) as info:
        main(["shuffle", "--users", "10", "--delta", "1e-6", "--bogus"])
    err = capsys.readouterr().err
    assert info.value.code == 2 and err.startswith("usage: dpverify shuffle")
    assert "unrecognized arguments: --bogus" in err


def test_every_option_has_help_and_every_command_an_example() -> None:
    from dpverify.cli import build_parser

    def walk(parser):
        yield parser
        for action in parser._actions:
            for sub in getattr(action, "choices", None) or {}:
                if isinstance(action.choices, dict):
                    yield from walk(action.choices[sub])

    parsers = list(walk(build_parser()))
    assert len(parsers) > 5
    for parser in parsers:
        for action in parser._actions:
            assert action.help, f"{parser.prog} {action.option_strings or action.dest} has no help"
        leaf = not any(isinstance(a.choices, dict) for a in parser._actions if a.choices)
        assert not leaf or "examples:" in (parser.epilog or ""), f"{parser.prog} has no example"


def test_directed_rounding_of_displayed_numbers() -> None:
    from dpverify.cli._core import privacy_text, significant

    assert significant(1.2743079, rounding="down") == "1.2743"
    assert significant(1.2743071, rounding="up") == "1.27431"
    assert significant(117.97411) == "117.974"
    assert privacy_text(0.5) == "0.5-DP"
    assert privacy_text(2.2541101, 1e-6) == "(epsilon=2.25412, delta=1e-06)-DP"


def test_reproduce_unknown_panel_exits_2(capsys, tmp_path) -> None:
    pytest.importorskip("matplotlib")
    with pytest.raises(SystemExit) as info:
        main(["reproduce", "chowdhury2023-fig1", "--panels", "zz", "--out", str(tmp_path)])
    assert info.value.code == 2 and "--panels zz" in capsys.readouterr().err
