"""The ``dpverify`` command: thin wrappers over the public API.

Examples
--------
::

    dpverify account gaussian --sigma 1.0 --compositions 1000 --delta 1e-5
    dpverify account laplace --scale 10 --compositions 100 --delta 1e-6 --json
    dpverify account calibrate --epsilon 1.0 --delta 1e-5 --compositions 1000

Every sub-command prints a human-readable line, or with ``--json`` a single
JSON object with at least ``epsilon``, ``delta`` and ``method``. Invalid input
exits with status 2 and a message naming the offending option.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["main", "build_parser"]


def _count(text: str) -> int:
    """Parse a positive count, accepting ``1000`` and ``1e3``."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not (value >= 1 and value == int(value)):
        raise argparse.ArgumentTypeError(f"{text!r} must be an integer >= 1")
    return int(value)


def _add_common(parser: argparse.ArgumentParser, methods: Sequence[str], default: str) -> None:
    parser.add_argument("--compositions", type=_count, default=1,
                        help="number k of adaptively composed releases (default 1)")
    parser.add_argument("--sensitivity", type=float, default=1.0,
                        help="sensitivity of each release (l2 for Gaussian, l1 for Laplace)")
    parser.add_argument("--method", choices=methods, default=default,
                        help=f"accountant (default {default})")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of the ``dpverify`` command."""
    from dpverify.accountants.calibrate import GAUSSIAN_METHODS, LAPLACE_METHODS

    parser = argparse.ArgumentParser(prog="dpverify", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    account = commands.add_parser("account", help="privacy accounting of composed mechanisms")
    kinds = account.add_subparsers(dest="kind", required=True)

    gaussian = kinds.add_parser("gaussian", help="epsilon of k Gaussian releases at delta")
    gaussian.add_argument("--sigma", type=float, required=True, help="Gaussian noise std")
    gaussian.add_argument("--delta", type=float, required=True, help="target delta in (0, 1)")
    _add_common(gaussian, GAUSSIAN_METHODS, "pld")
    gaussian.set_defaults(handler=_account_gaussian)

    laplace = kinds.add_parser("laplace", help="epsilon of k Laplace releases at delta")
    laplace.add_argument("--scale", type=float, required=True, help="Laplace noise scale b")
    laplace.add_argument("--delta", type=float, default=0.0,
                         help="target delta in [0, 1); 0 means pure DP (method 'pure')")
    _add_common(laplace, LAPLACE_METHODS, "pld")
    laplace.set_defaults(handler=_account_laplace)

    calibrate = kinds.add_parser("calibrate", help="smallest noise meeting (epsilon, delta)")
    calibrate.add_argument("--epsilon", type=float, required=True, help="total epsilon budget")
    calibrate.add_argument("--delta", type=float, required=True, help="total delta budget")
    calibrate.add_argument("--mechanism", choices=("gaussian", "laplace"), default="gaussian")
    _add_common(calibrate, sorted(set(GAUSSIAN_METHODS) | set(LAPLACE_METHODS)), "pld")
    calibrate.set_defaults(handler=_account_calibrate)
    return parser


def _account_gaussian(args: argparse.Namespace) -> dict[str, Any]:
    from dpverify.accountants.calibrate import gaussian_epsilon

    epsilon = gaussian_epsilon(args.sigma, delta=args.delta, compositions=args.compositions,
                               sensitivity=args.sensitivity, method=args.method)
    return {"mechanism": "gaussian", "sigma": args.sigma, "epsilon": epsilon}


def _account_laplace(args: argparse.Namespace) -> dict[str, Any]:
    from dpverify.accountants.calibrate import laplace_epsilon

    method = "pure" if args.delta == 0.0 else args.method
    epsilon = laplace_epsilon(args.scale, delta=args.delta, compositions=args.compositions,
                              sensitivity=args.sensitivity, method=method)
    return {"mechanism": "laplace", "scale": args.scale, "epsilon": epsilon, "method": method}


def _account_calibrate(args: argparse.Namespace) -> dict[str, Any]:
    from dpverify.accountants.calibrate import min_gaussian_sigma, min_laplace_scale

    if args.mechanism == "gaussian":
        sigma = min_gaussian_sigma(args.epsilon, args.delta, compositions=args.compositions,
                                   sensitivity=args.sensitivity, method=args.method)
        return {"mechanism": "gaussian", "sigma": sigma, "epsilon": args.epsilon}
    scale = min_laplace_scale(args.epsilon, args.delta, compositions=args.compositions,
                              sensitivity=args.sensitivity, method=args.method)
    return {"mechanism": "laplace", "scale": scale, "epsilon": args.epsilon}


def _describe(result: dict[str, Any]) -> str:
    noise = (f"sigma={result['sigma']!r}" if "sigma" in result else f"scale={result['scale']!r}")
    verb = "needs" if result["command"] == "calibrate" else "with"
    return (f"{result['compositions']} x {result['mechanism']} {verb} {noise}: "
            f"(epsilon={result['epsilon']!r}, delta={result['delta']!r})-DP "
            f"[method={result['method']}, {result['seconds']:.3f} s]")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``dpverify`` command; return the exit status."""
    from dpverify.errors import DpverifyError

    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Callable[[argparse.Namespace], dict[str, Any]] = args.handler
    start = time.perf_counter()
    try:
        result = handler(args)
    except (DpverifyError, ValueError, TypeError) as error:
        parser.exit(2, f"dpverify: error: {error}\n")
    result = {"command": args.kind, "method": args.method, **result,
              "delta": args.delta, "compositions": args.compositions,
              "sensitivity": args.sensitivity,
              "seconds": round(time.perf_counter() - start, 6)}
    print(json.dumps(result) if args.json else _describe(result))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
