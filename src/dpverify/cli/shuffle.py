"""``dpverify shuffle``: privacy amplification by shuffling, and its inverse."""

from __future__ import annotations

import argparse
from typing import Any

from dpverify.cli._choices import SHUFFLE_BOUNDS
from dpverify.cli._core import count, finite_float, privacy_text, rename_option, significant
from dpverify.errors import DpverifyValueError

HELP = "privacy amplification by shuffling (and its inverse)"
DESCRIPTION = ("Amplified epsilon of the local_epsilon-LDP reports of --users users after a "
               "shuffler, "
               "or with --inverse the largest local epsilon meeting --epsilon.")
EXAMPLES = (
    "dpverify shuffle --local-epsilon 2 --users 1000000 --delta 1e-6 --bound best",
    "dpverify shuffle --local-epsilon 2 --users 100000 --delta 1e-6 --randomizer binary-rr --json",
    "dpverify shuffle --epsilon 0.1 --users 100000 --delta 1e-6 --inverse",
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--local-epsilon", type=finite_float,
                        help="each user's local epsilon (epsilon_0 in the papers; required unless --inverse)")
    parser.add_argument("--epsilon", type=finite_float,
                        help="target central epsilon (required with --inverse)")
    parser.add_argument("--users", type=count, required=True,
                        help="number of users whose reports are shuffled together")
    parser.add_argument("--delta", type=finite_float, required=True,
                        help="target delta in (0, 1)")
    parser.add_argument("--bound", choices=(*SHUFFLE_BOUNDS, "best"), default="fmt2021",
                        help="amplification bound (fmt2021: Feldman et al. 2021, Thm 3.1, as in "
                             "Hanna et al. 2022, eq. (10))")
    parser.add_argument("--randomizer", choices=("generic", "binary-rr"), default="generic",
                        help="the local randomizer: any epsilon_0-LDP one, or binary randomized "
                             "response with that epsilon_0 (enables RR-only bounds)")
    parser.add_argument("--inverse", action="store_true",
                        help="print the largest local epsilon with amplified epsilon <= --epsilon")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    rename_option(parser, "--n", "--users")
    parser.set_defaults(handler=_shuffle, context=_context, describe=_describe)


def _shuffle(args: argparse.Namespace) -> dict[str, Any]:
    from dpverify.accountants.shuffle import amplified_epsilon, max_local_epsilon  # deferred: keeps CLI start-up light
    from dpverify.mechanisms.randomized_response import BinaryRandomizedResponse  # deferred: keeps CLI start-up light

    family = BinaryRandomizedResponse.from_epsilon if args.randomizer == "binary-rr" else None
    if args.inverse:
        if args.epsilon is None:
            raise DpverifyValueError("--epsilon (the target) is required with --inverse")
        local = max_local_epsilon(args.epsilon, args.users, args.delta, bound=args.bound,
                                  randomizer_family=family)
        return {"epsilon": args.epsilon, "local_epsilon": local}
    if args.local_epsilon is None:
        raise DpverifyValueError("--local-epsilon is required (or --inverse with --epsilon)")
    randomizer = None if family is None else family(args.local_epsilon)
    epsilon = amplified_epsilon(args.local_epsilon, args.users, args.delta, bound=args.bound,
                                randomizer=randomizer)
    return {"epsilon": epsilon, "local_epsilon": args.local_epsilon}


def _context(args: argparse.Namespace) -> dict[str, Any]:
    return {"bound": args.bound, "users": args.users, "delta": args.delta,
            "randomizer": args.randomizer, "inverse": args.inverse}


def _describe(result: dict[str, Any]) -> str:
    if result["inverse"]:
        return (f"{result['users']} users: largest local_epsilon="
                f"{significant(result['local_epsilon'], rounding='down')} with "
                f"{privacy_text(result['epsilon'], result['delta'])} after shuffling "
                f"[bound={result['bound']}, {result['seconds']:.3f} s]")
    return (f"{result['users']} users, local_epsilon={significant(result['local_epsilon'])}: "
            f"{privacy_text(result['epsilon'], result['delta'])} after shuffling "
            f"[bound={result['bound']}, {result['seconds']:.3f} s]")
