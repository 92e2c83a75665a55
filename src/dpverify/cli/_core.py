"""What every ``dpverify`` command shares: option parsers, exit codes, output.

Exit statuses (one scheme for every command):

=====  ===========================================================
``0``  success: the result meets what was asked
``1``  a certified violation (``audit``) or a budget not met (``plan``,
       ``simulate`` with ``--mode paper``) — a result, not an error
``2``  usage or bad input; the message names the option typed
``3``  internal error: one line on stderr, the traceback with ``--debug``
=====  ===========================================================

JSON output (``--json``) is strict RFC 8259 JSON: non-finite numbers are
written as ``null`` and the dotted paths of the values that were ``±inf`` or
NaN are listed under the key ``"non_finite"`` (``{"epsilon": "inf"}``), so a
strict parser never meets ``Infinity``. Guarantee values become objects
(:func:`guarantee_json`), never reprs. Keys are ``snake_case`` and shared
across commands (``epsilon``, ``delta``, ``method``, ``command``, ``seconds``).
"""

from __future__ import annotations

import argparse
import decimal
import json
import math
import re
import sys
from collections.abc import Callable, Mapping
from typing import Any

__all__ = [
    "EXIT_OK", "EXIT_NOT_MET", "EXIT_USAGE", "EXIT_INTERNAL",
    "ArgumentParser", "HelpFormatter", "add_command", "count", "finite_float", "seed", "jobs",
    "guarantee_json", "json_dumps", "significant", "privacy_text", "option_message",
    "add_execution_options", "execution_options", "rename_option",
]

EXIT_OK = 0
EXIT_NOT_MET = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3

#: The largest count any integer option accepts (2^53: every integer up to it is an exact float,
#: so ``1e15`` parses exactly). Work-specific limits are checked by the library functions.
MAX_COUNT = 2 ** 53


def _is_negative_number(text: str) -> bool:
    """Whether ``text`` is a negative number as :func:`float` reads it: ``-1``, ``-1e-3``,
    ``-.5``, ``-inf``, ``-nan`` (argparse's own test matches only ``-1`` and ``-1.5``)."""
    if not text.startswith("-") or text.startswith("--"):
        return False
    try:
        float(text)
    except ValueError:
        return False
    return True


class ArgumentParser(argparse.ArgumentParser):
    """argparse's parser, reading every negative number as a value, not as an option.

    argparse treats an argument that starts with ``-`` as an option unless it matches
    ``-<digits>`` or ``-<digits>.<digits>``, so ``--epsilon -1e-3``, ``--delta -inf`` and
    ``dpverify audit -nan`` ended in "expected one argument" or "unrecognized arguments"
    instead of the option's own range check. Here anything :func:`float` reads and that is
    not one of the parser's option strings is a value (sub-commands inherit the class).
    """

    def _parse_optional(self, arg_string: str) -> Any:
        if (arg_string not in self._option_string_actions
                and not self._has_negative_number_optionals and _is_negative_number(arg_string)):
            return None
        return super()._parse_optional(arg_string)


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter, argparse.RawDescriptionHelpFormatter):
    """Show every option's default (except ``None``/``False``, whose help says what they mean)
    and keep the example epilogs' line breaks."""

    def _get_help_string(self, action: argparse.Action) -> str:
        if action.default in (None, False) or action.default is argparse.SUPPRESS:
            return action.help or ""
        return super()._get_help_string(action)


def add_command(commands: Any, name: str, *, help: str, description: str | None = None,
                examples: tuple[str, ...] = ()) -> argparse.ArgumentParser:
    """Add the sub-command ``name`` with the shared formatter and an example epilog."""
    epilog = ("examples:\n" + "\n".join(f"  {line}" for line in examples)) if examples else None
    parser = commands.add_parser(name, help=help, description=description or help, epilog=epilog,
                                 formatter_class=HelpFormatter)
    parser.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                        help="print the full traceback of an internal error")
    parser.set_defaults(_parser=parser)
    return parser


class _RenamedOption(argparse.Action):
    """The deprecated spelling of an option: hidden from ``--help``; using it prints a warning
    on stderr and acts exactly as the new option (same type, choices and destination)."""

    def __init__(self, option_strings: list[str], dest: str, *, target: argparse.Action,
                 new_option: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=target.nargs, const=target.const,
                         type=target.type, choices=target.choices, default=argparse.SUPPRESS,
                         metavar=target.metavar, help=argparse.SUPPRESS)
        self.target = target
        self.new_option = new_option

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        print(f"warning: {option_string} is deprecated and will be removed in the next release; "
              f"use {self.new_option}", file=sys.stderr)
        self.target(parser, namespace, values, self.new_option)


def rename_option(parser: argparse.ArgumentParser, old: str, new: str) -> None:
    """Keep the option ``old`` working, hidden, as a deprecated spelling of ``new``.

    ``new`` must already be an option of ``parser``. Giving both is an error
    ("not allowed with"), and a required ``new`` is satisfied by ``old``: the two share a
    mutually exclusive group (``new``'s own, or a new one that takes over its ``required``).
    """
    target = parser._option_string_actions[new]
    alias = parser.add_argument(old, action=_RenamedOption, dest=target.dest, target=target,
                                new_option=new)
    for group in parser._mutually_exclusive_groups:
        if target in group._group_actions:
            group._group_actions.append(alias)
            return
    group = parser.add_mutually_exclusive_group(required=target.required)
    target.required = False
    group._group_actions.extend([target, alias])


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None


def count(text: str) -> int:
    """Parse a count >= 1 written ``1000`` or ``1e3`` (at most 2^53; never ``inf``)."""
    value = _number(text)
    if not (1 <= value <= MAX_COUNT and value == int(value)):
        raise argparse.ArgumentTypeError(f"{text!r} must be an integer >= 1 and <= 2^53")
    return int(value)


def jobs(text: str) -> int:
    """Parse a worker count: an integer >= 1, or -1 for every core."""
    if text.strip() == "-1":
        return -1
    try:
        return count(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(
            f"{text!r} must be an integer >= 1, or -1 for all cores") from None


def add_execution_options(parser: argparse.ArgumentParser, *, cache: bool = True) -> None:
    """``--jobs``, ``--scheduler`` and (with ``cache``) ``--cache-dir`` / ``--no-cache``."""
    parser.add_argument("--jobs", type=jobs, default=1,
                        help="local worker processes (spawned; -1: all cores)")
    parser.add_argument("--scheduler", default=None, metavar="ADDRESS",
                        help="run on a Dask cluster: tcp://HOST:PORT, or 'local' to start a "
                             "LocalCluster of --jobs workers (pip install 'dpverify[dask]')")
    if cache:
        parser.add_argument("--cache-dir", default=None, metavar="DIR",
                            help="result store of finished runs (default $DPVERIFY_CACHE_DIR, "
                                 "else ~/.cache/dpverify/results)")
        parser.add_argument("--no-cache", action="store_true",
                            help="neither read nor write the result store")


def execution_options(args: argparse.Namespace) -> dict[str, Any]:
    """The library keywords of :func:`add_execution_options`' options."""
    options: dict[str, Any] = {"n_jobs": args.jobs, "scheduler": args.scheduler}
    if hasattr(args, "no_cache"):
        options.update(cache_dir=args.cache_dir, cache=not args.no_cache)
    return options


def seed(text: str) -> int:
    """Parse a seed: an integer in [0, 2^128)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} must be an integer in [0, 2^128)") from None
    if not 0 <= value < 2 ** 128:
        raise argparse.ArgumentTypeError(f"{text!r} must be an integer in [0, 2^128)")
    return value


def finite_float(text: str) -> float:
    """Parse a finite real number (``nan`` and ``inf`` are refused here, ranges by the library)."""
    value = _number(text)
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text!r} must be a finite number")
    return value


def significant(value: Any, digits: int = 6, rounding: str = "nearest") -> str:
    """``value`` at ``digits`` significant digits, for human output.

    ``rounding="up"`` for upper bounds and noise a budget needs, ``"down"`` for the largest
    parameter a budget allows and for lower bounds, so that a number copied from the screen
    keeps the guarantee; ``"nearest"`` for everything else.
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if not math.isfinite(value) or rounding == "nearest":
        return f"{value:.{digits}g}"
    mode = {"up": decimal.ROUND_CEILING, "down": decimal.ROUND_FLOOR}[rounding]
    # repr: the shortest decimal that reads back as the same float, so 0.1 stays 0.1
    rounded = decimal.Context(prec=digits, rounding=mode).plus(decimal.Decimal(repr(value)))
    return f"{float(rounded):.{digits}g}"


def privacy_text(epsilon: float, delta: float = 0.0) -> str:
    """``"0.5-DP"`` for pure DP, ``"(epsilon=0.5, delta=1e-06)-DP"`` otherwise: 6 significant
    digits, rounded up (a guarantee read off the screen is still an upper bound)."""
    if delta == 0:
        return f"{significant(epsilon, rounding='up')}-DP"
    return (f"(epsilon={significant(epsilon, rounding='up')}, "
            f"delta={significant(delta, rounding='up')})-DP")


def guarantee_json(guarantee: Any) -> dict[str, Any] | None:
    """A guarantee value as a JSON object (:func:`dpverify.guarantees.guarantee_to_dict`):
    ``{"type": "pure-dp", "epsilon": 1.0}`` and so on; other values with a ``to_dict`` use it."""
    if guarantee is None:
        return None
    from dpverify.guarantees import GUARANTEE_TYPE_NAMES, guarantee_to_dict  # deferred: keeps CLI start-up light

    if type(guarantee) in GUARANTEE_TYPE_NAMES:
        return guarantee_to_dict(guarantee)
    if hasattr(guarantee, "to_dict"):
        return guarantee.to_dict()
    return {"type": type(guarantee).__name__, "description": str(guarantee)}


def _finite_only(value: Any, path: str, non_finite: dict[str, str]) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        non_finite[path] = "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
        return None
    if isinstance(value, Mapping):
        return {key: _finite_only(item, f"{path}.{key}" if path else str(key), non_finite)
                for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite_only(item, f"{path}.{i}", non_finite) for i, item in enumerate(value)]
    if hasattr(value, "item") and callable(value.item):  # numpy scalars
        return _finite_only(value.item(), path, non_finite)
    return value


def json_dumps(result: Mapping[str, Any]) -> str:
    """``result`` as strict JSON (see the module docstring for non-finite numbers)."""
    non_finite: dict[str, str] = {}
    clean = _finite_only(dict(result), "", non_finite)
    if non_finite:
        clean["non_finite"] = non_finite
    return json.dumps(clean, allow_nan=False, default=str)


def option_message(message: str, parser: argparse.ArgumentParser,
                   aliases: Mapping[str, str] | None = None) -> str:
    """Rewrite ``name=value`` in a library message as the option the user typed.

    ``"sigma=-1.0 must be in (0, inf)"`` becomes ``"--sigma -1.0 must be in (0, inf)"``;
    ``aliases`` maps library parameter names that differ from the option's destination
    (``{"k": "--arms"}``).
    """
    names = dict(aliases or {})
    for action in parser._actions:
        long = [o for o in action.option_strings if o.startswith("--")]
        if long:
            names.setdefault(action.dest, long[0])
    for name, option in sorted(names.items(), key=lambda item: -len(item[0])):
        message = re.sub(rf"(?<![\w.\-]){re.escape(name)}=None ", f"{option} ", message)
        message = re.sub(rf"(?<![\w.\-]){re.escape(name)}=", f"{option} ", message)
    return message


Handler = Callable[[argparse.Namespace], dict[str, Any]]
