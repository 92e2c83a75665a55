"""The shared core of the command line (``dpverify.cli._core``): negative numbers are values.

argparse reads an argument starting with ``-`` as an option unless it is ``-<digits>`` or
``-<digits>.<digits>``, so ``-inf``, ``-nan`` and ``-1e-3`` used to end in "expected one
argument" or "unrecognized arguments" instead of the option's own range check (issue 28).
"""

from __future__ import annotations

import argparse

import pytest

from dpverify.cli import build_parser, main
from dpverify.cli._core import ArgumentParser

NEGATIVE_NUMBERS = ("-inf", "-nan", "-1e-3", "-1", "-.5", "-1E+300", "-Infinity")
_NUMERIC_TYPES = ("count", "finite_float", "seed", "jobs", "float", "int")


def _leaf_parsers() -> list[tuple[str, argparse.ArgumentParser]]:
    """Every (sub-)command that runs: (its name, its parser)."""
    leaves, todo = [], [("", build_parser())]
    while todo:
        name, parser = todo.pop()
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs:
            leaves.append((name.strip(), parser))
        for sub in subs:
            todo += [(f"{name} {choice}", child) for choice, child in sub.choices.items()]
    return sorted(leaves, key=lambda pair: pair[0])


def _numeric_options(parser: argparse.ArgumentParser) -> list[str]:
    return [
        a.option_strings[-1]
        for a in parser._actions
        if a.option_strings and a.nargs != 0 and getattr(a.type, "__name__", "") in _NUMERIC_TYPES
    ]


LEAVES = _leaf_parsers()


def test_every_command_has_numeric_options_to_check():
    assert len(LEAVES) > 20 and all(isinstance(p, ArgumentParser) for _, p in LEAVES)
    assert sum(len(_numeric_options(p)) for _, p in LEAVES) > 50


@pytest.mark.parametrize("name,parser", LEAVES, ids=[name for name, _ in LEAVES])
def test_every_numeric_option_takes_a_negative_number_as_its_value(name, parser, capsys):
    """``--option -inf`` reaches the option's type check (or, for a plain float, parses):
    never "expected one argument" nor "unrecognized arguments"."""
    for option in _numeric_options(parser):
        for text in NEGATIVE_NUMBERS:
            try:
                args, extras = parser.parse_known_args([option, text])
            except SystemExit:
                err = capsys.readouterr().err
                assert "expected one argument" not in err, (name, option, text, err)
                assert "unrecognized arguments" not in err, (name, option, text, err)
                if f"argument {option}" not in err:  # a missing required option instead
                    assert (
                        "the following arguments are required" in err
                        or "of the arguments" in err
                        and "is required" in err
                    ), (name, option, err)
                continue
            assert extras == [], (name, option, text, extras)


@pytest.mark.parametrize(
    "argv,option,expected",
    [
        (["audit", "-inf"], "MECHANISM", "invalid choice: '-inf'"),
        (["audit", "laplace_half_scale", "--samples", "-1e-3"], "--samples", "must be an integer"),
        (
            ["shuffle", "--local-epsilon", "-1e-3", "--users", "1000", "--delta", "1e-6"],
            "--local-epsilon",
            "must be in [0, inf)",
        ),
        (
            ["shuffle", "--local-epsilon", "-inf", "--users", "1000", "--delta", "1e-6"],
            "--local-epsilon",
            "must be a finite number",
        ),
        (
            ["shuffle", "--local-epsilon", "1", "--users", "1000", "--delta", "-nan"],
            "--delta",
            "must be a finite number",
        ),
        (
            ["plan", "shuffle", "--epsilon", "-1e-300", "--users", "1000", "--delta", "1e-6"],
            "--epsilon",
            "must be in (0, inf)",
        ),
        (["account", "gaussian", "--sigma", "1", "--delta", "-1e-5", "--count", "10"], "--delta", "must be in"),
        (
            ["simulate", "--algorithm", "se", "--epsilon", "-inf", "--horizon", "100"],
            "--epsilon",
            "must be a finite number",
        ),
        (["reproduce", "-nan"], "NAME", "invalid choice: '-nan'"),
        (["claims", "-1"], "PAPER", "PAPER='-1' must be one of"),
    ],
)
def test_negative_numbers_get_the_options_own_error(argv, option, expected, capsys):
    with pytest.raises(SystemExit) as info:
        main(argv)
    err = capsys.readouterr().err
    assert info.value.code == 2, err
    assert option in err and expected in err, err
    assert "unrecognized arguments" not in err and "expected one argument" not in err


def test_real_options_still_parse_after_negative_values(capsys):
    """A negative value does not swallow the option after it, and ``--`` still ends options."""
    parser = build_parser(("shuffle",))
    args = parser.parse_args(["shuffle", "--local-epsilon", "1", "--users", "10", "--delta", "1e-6", "--json"])
    assert args.json is True and args.local_epsilon == 1.0
    args, extras = parser.parse_known_args(
        ["shuffle", "--local-epsilon", "-1", "--bogus", "--users", "10", "--delta", "-1e-6", "--json"]
    )
    assert extras == ["--bogus"] and args.json is True
    assert (args.local_epsilon, args.users, args.delta) == (-1.0, 10, -1e-6)
    with pytest.raises(SystemExit) as info:
        main(["shuffle", "-h"])
    assert info.value.code == 0 and "--local-epsilon" in capsys.readouterr().out


def test_a_parser_with_a_negative_number_option_keeps_argparse_meaning():
    """If a parser defines an option such as ``-1``, numbers are options again (argparse's rule)."""
    parser = ArgumentParser(prog="x")
    parser.add_argument("-1", dest="one", action="store_true")
    parser.add_argument("--value", type=float)
    assert parser.parse_args(["-1"]).one is True
    with pytest.raises(SystemExit):
        parser.parse_args(["--value", "-inf"])
