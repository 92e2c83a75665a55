"""The dpverify command as a whole: ``python -m``, ``--version``, strict JSON, exit statuses, help.

Each command has its own module here (``test_cli_<command>.py``).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from dpverify.cli import COMMANDS, main


@pytest.mark.slow
def test_console_script_is_installed() -> None:
    result = subprocess.run([sys.executable, "-m", "dpverify.cli", "account", "gaussian",
                             "--sigma", "1", "--delta", "1e-5", "--method", "analytic", "--json"],
                            capture_output=True, text=True, check=True)
    assert json.loads(result.stdout)["epsilon"] == pytest.approx(4.377178, abs=1e-6)


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


@pytest.mark.slow
@pytest.mark.parametrize("argv", [["--help"], *([command, "--help"] for command in COMMANDS),
                                  ["account", "gaussian", "--help"], ["plan", "sblb", "--help"]])
def test_help_loads_no_numerical_library(argv: list[str]) -> None:
    """Every command module is imported for ``dpverify --help``, and a command's options are built
    for ``dpverify COMMAND --help``: neither may import numpy, scipy, mpmath or the rest of
    dpverify (choices come from ``dpverify.cli._choices``; imports wait in the handlers)."""
    code = ("import sys, runpy; sys.argv = ['dpverify', *sys.argv[1:]]\n"
            "try:\n    runpy.run_module('dpverify.cli', run_name='__main__')\n"
            "except SystemExit:\n    pass\n"
            "heavy = sorted(m for m in sys.modules if m.split('.')[0] in "
            "('numpy', 'scipy', 'mpmath', 'sympy') or m.startswith(('dpverify.accountants', "
            "'dpverify.auditing', 'dpverify.bandits', 'dpverify.mechanisms', 'dpverify.claims')))\n"
            "assert not heavy, heavy\n")
    subprocess.run([sys.executable, "-c", code, *argv], check=True, capture_output=True)


def test_every_help_example_parses_with_current_option_names(capsys) -> None:
    """Each ``examples:`` line of every command's help is accepted by the parser as typed, and
    uses no deprecated spelling of an option (those still parse, with a warning on stderr)."""
    import shlex

    from dpverify.cli import build_parser

    def walk(parser):
        yield parser
        for action in parser._actions:
            if isinstance(action.choices, dict):
                for sub in action.choices.values():
                    yield from walk(sub)

    lines = {line.strip() for parser in walk(build_parser())
             for line in (parser.epilog or "").splitlines() if line.strip().startswith("dpverify ")}
    assert len(lines) > 10
    for line in sorted(lines):
        argv = shlex.split(line.split("#")[0])[1:]
        try:
            build_parser().parse_args(argv)
        except SystemExit as exit_:   # pragma: no cover - the failure message names the line
            pytest.fail(f"help example does not parse ({exit_.code}): {line}")
        assert "deprecated" not in capsys.readouterr().err, f"help example uses an old option: {line}"

# ----------------------------------------------------------------------------- manners


def test_a_closed_pipe_ends_quietly() -> None:
    """``dpverify ... | head``: the reader is gone before the output is written; exit 0, no
    traceback (the output is flushed inside ``main``, the failed flush silenced)."""
    for argv in (["simulate", "--help"], ["shuffle", "--local-epsilon", "1", "--users", "1000",
                                           "--delta", "1e-6"]):
        process = subprocess.Popen([sys.executable, "-m", "dpverify.cli", *argv],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        process.stdout.close()  # as `head` does after its lines
        err = process.stderr.read().decode()
        assert process.wait(timeout=120) == 0, err
        assert "Traceback" not in err and "BrokenPipe" not in err and err == "", err


def test_python_warnings_print_as_one_line(capsys, monkeypatch) -> None:
    """A warning raised while a command runs (an audit's AuditWarning, say) is one line
    ``warning: ...`` on stderr: no library path, no source line (issue 26 §3)."""
    import warnings

    from dpverify.cli import shuffle
    from dpverify.errors import AuditWarning

    def warns(args):
        warnings.warn("this audit cannot fail:\n  use more samples", AuditWarning, stacklevel=1)
        return {"_text": "done", "_warnings": ["a result's own warning"]}

    monkeypatch.setattr(shuffle, "_shuffle", warns)
    monkeypatch.setattr(shuffle, "_describe", lambda result: result["_text"])
    assert main(["shuffle", "--local-epsilon", "1", "--users", "10", "--delta", "1e-6"]) == 0
    out, err = capsys.readouterr()
    assert out == "done\n"
    assert err == "warning: this audit cannot fail: use more samples\nwarning: a result's own warning\n"


def test_a_deprecated_option_warns_in_one_line(capsys) -> None:
    assert main(["shuffle", "--local-epsilon", "1", "--n", "1000", "--delta", "1e-6"]) == 0
    err = capsys.readouterr().err
    assert err == "warning: --n is deprecated and will be removed in the next release; use --users\n"


def test_account_gaussian_loads_no_scipy_stats_signal_or_optimize() -> None:
    """Issue 30 §3: a single Gaussian account loads only what it computes with (scipy.special,
    numpy, mpmath): the lazy package re-exports and deferred imports keep the rest out."""
    code = ("import sys\nfrom dpverify.cli import main\n"
            "main(['account', 'gaussian', '--sigma', '1', '--count', '1000', '--delta', '1e-5'])\n"
            "heavy = sorted(m for m in ('scipy.stats', 'scipy.signal', 'scipy.optimize', 'sympy')"
            " if m in sys.modules)\n"
            "print('HEAVY', heavy, file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          timeout=300)
    assert "HEAVY []" in done.stderr, done.stderr[-2000:]
    assert "epsilon=633.94" in done.stdout
