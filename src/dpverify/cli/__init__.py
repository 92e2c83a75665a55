"""The ``dpverify`` command: thin wrappers over the public API.

One module per command (``account``, ``shuffle``, ``audit``, ``simulate``,
``reproduce``, ...), and :mod:`dpverify.cli._core` for what they share
(option parsers, exit codes, strict JSON, the help formatter).

Adding a command
----------------
Write ``dpverify/cli/<name>.py`` with

* module constants ``HELP`` (one line), optionally ``DESCRIPTION`` and
  ``EXAMPLES`` (a tuple of command lines shown in the epilog);
* ``configure(parser)`` adding the options (parsers from ``_core``: ``count``,
  ``finite_float``, ``seed``, ``jobs``) and ``parser.set_defaults(handler=...)``;
  optionally ``describe=`` (result dict → human text; the default prints
  ``_text``), ``context=`` (args → the inputs echoed in the result) and
  ``option_aliases=`` (library parameter name → the option the user typed,
  for error messages);

and add its name to :data:`COMMANDS`. The module must import nothing heavy at
its top (numpy, scipy, mpmath, the rest of dpverify): ``configure`` runs only
for the command the user typed, so ``dpverify --help`` stays fast.

A handler returns a dict (the ``--json`` object). The keys ``_text`` (the human
output) and ``_status`` (the exit status, :data:`_core.EXIT_NOT_MET` for a
violation or a budget not met) are removed before printing; ``_warnings``
(a list of strings) are printed on stderr, each as one line ``warning: ...``, as are
Python warnings raised while the command runs (an :class:`~dpverify.auditing.AuditWarning`,
say): no library path, no source line. A closed output pipe (``dpverify ... | head``)
ends the command quietly.
Raise a :class:`dpverify.errors.DpverifyError` (``ValueError`` flavour) for bad
input: it exits 2 with the message, ``name=`` rewritten as the option typed.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
import traceback
import warnings
from collections.abc import Iterable, Sequence
from typing import Any

from dpverify import __version__
from dpverify.cli import _core
from dpverify.errors import CalibrationError, DpverifyError

__all__ = ["main", "build_parser", "COMMANDS"]

#: The commands, in the order ``dpverify --help`` lists them.
COMMANDS = ("account", "shuffle", "audit", "simulate", "reproduce", "sweep", "plan", "claims")

_EXAMPLES = (
    "dpverify account gaussian --sigma 1.0 --count 1000 --delta 1e-5",
    "dpverify shuffle --local-epsilon 2 --users 1000000 --delta 1e-6 --bound best",
    "dpverify audit laplace_half_scale --samples 1e6 --seed 1",
    "dpverify simulate --algorithm dist-dp-se --epsilon 0.5 --horizon 1e5",
)


def _module(name: str) -> Any:
    return importlib.import_module(f"dpverify.cli.{name}")


def build_parser(commands: Iterable[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser of ``dpverify``; ``commands`` limits which sub-commands get their
    options (the others are listed with their help line only). ``None``: all of them."""
    wanted = set(COMMANDS if commands is None else commands)
    parser = _core.ArgumentParser(
        prog="dpverify",
        description="Differential-privacy accounting and verification, built around private "
                    "bandit algorithms.", formatter_class=_core.HelpFormatter,
        epilog="examples:\n" + "\n".join(f"  {line}" for line in _EXAMPLES)
               + "\n\nexit status: 0 ok, 1 violation certified or budget not met, "
                 "2 bad input, 3 internal error")
    parser.add_argument("--version", action="version", version=f"dpverify {__version__}")
    parser.add_argument("--debug", action="store_true",
                        help="print the full traceback of an internal error")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                       help="the command to run (dpverify COMMAND --help)")
    for name in COMMANDS:
        module = _module(name)
        sub = _core.add_command(subparsers, name, help=module.HELP,
                                description=getattr(module, "DESCRIPTION", None),
                                examples=getattr(module, "EXAMPLES", ()))
        sub.set_defaults(_parser=sub)
        if name in wanted:
            module.configure(sub)
    return parser


def _selected_command(argv: Sequence[str]) -> str | None:
    for token in argv:
        if token in COMMANDS:
            return token
        if not token.startswith("-"):
            return None
    return None


def _describe(result: dict[str, Any]) -> str:
    return str(result.get("_text", result))


def _one_line_warning(message: Warning | str, category: type[Warning], filename: str,
                      lineno: int, file: Any = None, line: str | None = None) -> None:
    """``warnings.showwarning`` for the command line: ``warning: <message>``, one line."""
    text = " ".join(str(message).split())
    print(f"warning: {text}", file=sys.stderr if file is None else file)


def _silence_stdout() -> None:
    """After a closed pipe: point stdout at /dev/null so the interpreter's final flush is quiet."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout replaced by an object without a file descriptor
        pass
    finally:
        os.close(devnull)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``dpverify``; return the exit status (0 ok, 1 violation or budget not met).

    Bad input exits with status 2 and internal errors with status 3, through
    :class:`SystemExit`, after one line on stderr. Warnings print as one line
    ``warning: ...`` on stderr. When the reader of the output goes away
    (``dpverify ... | head``), the command ends quietly with the status it had.
    """
    status = _core.EXIT_OK
    with warnings.catch_warnings():
        warnings.showwarning = _one_line_warning
        try:
            status = _run(argv)
            sys.stdout.flush()
        except SystemExit as exit_:  # --help, --version, usage errors: the text is printed
            try:
                sys.stdout.flush()
            except BrokenPipeError:
                _silence_stdout()
            raise exit_ from None
        except BrokenPipeError:
            _silence_stdout()
    return status


def _run(argv: Sequence[str] | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    selected = _selected_command(argv)
    parser = build_parser(() if selected is None else (selected,))
    args, extras = parser.parse_known_args(argv)
    command_parser: argparse.ArgumentParser = getattr(args, "_parser", parser)
    if extras:
        command_parser.error(f"unrecognized arguments: {' '.join(extras)}")
    start = time.perf_counter()
    try:
        result = args.handler(args)
    except CalibrationError as error:  # no parameter meets the budget: a result, not a crash
        message = _core.option_message(str(error), command_parser, getattr(args, "option_aliases", None))
        command_parser.exit(_core.EXIT_NOT_MET, f"dpverify: budget not met: {message}\n")
    except DpverifyError as error:
        message = _core.option_message(str(error), command_parser, getattr(args, "option_aliases", None))
        command_parser.exit(_core.EXIT_USAGE, f"{command_parser.prog}: error: {message}\n")
    except Exception as error:  # noqa: BLE001 - the catch-all of exit status 3
        if args.debug:
            traceback.print_exc()
        hint = "" if args.debug else " (run with --debug for the traceback)"
        command_parser.exit(_core.EXIT_INTERNAL, f"dpverify: internal error: "
                                                 f"{type(error).__name__}: {error}{hint}\n")
    context = args.context(args) if hasattr(args, "context") else {}
    result = {"command": args.command, **result, **context,
              "seconds": round(time.perf_counter() - start, 6)}
    for warning in result.pop("_warnings", ()):
        _one_line_warning(warning, UserWarning, "", 0)
    text = getattr(args, "describe", _describe)(result)
    result.pop("_text", None)
    status = result.pop("_status", _core.EXIT_OK)
    print(_core.json_dumps(result) if args.json else text)
    return status
