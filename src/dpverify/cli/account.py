"""``dpverify account``: the privacy of composed releases, and the noise a budget needs."""

from __future__ import annotations

import argparse
from typing import Any

from dpverify.cli._core import add_command, count, finite_float, privacy_text, significant

HELP = "privacy accounting of composed mechanisms"
EXAMPLES = (
    "dpverify account gaussian --sigma 1.0 --compositions 1000 --delta 1e-5",
    "dpverify account gaussian --sigma 1.0 --compositions 1000 --delta 1e-5 --method rdp --json",
    "dpverify account laplace --scale 10 --compositions 100 --delta 1e-6",
    "dpverify account calibrate --epsilon 1.0 --delta 1e-5 --compositions 1000",
)


def _add_common(parser: argparse.ArgumentParser, methods: tuple[str, ...], default: str) -> None:
    parser.add_argument("--compositions", type=count, default=1,
                        help="number k of adaptively composed releases")
    parser.add_argument("--sensitivity", type=finite_float, default=1.0,
                        help="sensitivity of each release (l2 for Gaussian, l1 for Laplace)")
    parser.add_argument("--method", choices=methods, default=default, help="accountant")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(context=_context, describe=_describe)


def configure(parser: argparse.ArgumentParser) -> None:
    from dpverify.accountants.calibrate import GAUSSIAN_METHODS, LAPLACE_METHODS

    kinds = parser.add_subparsers(dest="kind", required=True, metavar="KIND",
                                  help="what to account")
    gaussian = add_command(kinds, "gaussian", help="epsilon of k Gaussian releases at delta",
                           examples=EXAMPLES[:2])
    gaussian.add_argument("--sigma", type=finite_float, required=True, help="Gaussian noise std")
    gaussian.add_argument("--delta", type=finite_float, required=True,
                          help="target delta in (0, 1)")
    _add_common(gaussian, GAUSSIAN_METHODS, "pld")
    gaussian.set_defaults(handler=_gaussian)

    laplace = add_command(kinds, "laplace", help="epsilon of k Laplace releases at delta",
                          examples=EXAMPLES[2:3])
    laplace.add_argument("--scale", type=finite_float, required=True,
                         help="Laplace noise scale b")
    laplace.add_argument("--delta", type=finite_float, default=0.0,
                         help="target delta in [0, 1); 0 means pure DP (method 'pure')")
    _add_common(laplace, LAPLACE_METHODS, "pld")
    laplace.set_defaults(handler=_laplace)

    calibrate = add_command(kinds, "calibrate", help="smallest noise meeting (epsilon, delta)",
                            examples=EXAMPLES[3:])
    calibrate.add_argument("--epsilon", type=finite_float, required=True,
                           help="total epsilon budget")
    calibrate.add_argument("--delta", type=finite_float, required=True, help="total delta budget")
    calibrate.add_argument("--mechanism", choices=("gaussian", "laplace"), default="gaussian",
                           help="noise family")
    _add_common(calibrate, tuple(sorted(set(GAUSSIAN_METHODS) | set(LAPLACE_METHODS))), "pld")
    calibrate.set_defaults(handler=_calibrate)


def _gaussian(args: argparse.Namespace) -> dict[str, Any]:
    from dpverify.accountants.calibrate import gaussian_epsilon

    epsilon = gaussian_epsilon(args.sigma, delta=args.delta, compositions=args.compositions,
                               sensitivity=args.sensitivity, method=args.method)
    return {"mechanism": "gaussian", "sigma": args.sigma, "epsilon": epsilon}


def _laplace(args: argparse.Namespace) -> dict[str, Any]:
    from dpverify.accountants.calibrate import laplace_epsilon

    method = "pure" if args.delta == 0.0 else args.method
    args.method = method
    epsilon = laplace_epsilon(args.scale, delta=args.delta, compositions=args.compositions,
                              sensitivity=args.sensitivity, method=method)
    return {"mechanism": "laplace", "scale": args.scale, "epsilon": epsilon}


def _calibrate(args: argparse.Namespace) -> dict[str, Any]:
    from dpverify.accountants.calibrate import min_gaussian_sigma, min_laplace_scale

    if args.mechanism == "gaussian":
        sigma = min_gaussian_sigma(args.epsilon, args.delta, compositions=args.compositions,
                                   sensitivity=args.sensitivity, method=args.method)
        return {"mechanism": "gaussian", "sigma": sigma, "epsilon": args.epsilon}
    scale = min_laplace_scale(args.epsilon, args.delta, compositions=args.compositions,
                              sensitivity=args.sensitivity, method=args.method)
    return {"mechanism": "laplace", "scale": scale, "epsilon": args.epsilon}


def _context(args: argparse.Namespace) -> dict[str, Any]:
    return {"kind": args.kind, "method": args.method, "delta": args.delta,
            "compositions": args.compositions, "sensitivity": args.sensitivity}


def _describe(result: dict[str, Any]) -> str:
    rounding = "up" if result["kind"] == "calibrate" else "nearest"  # the noise a budget needs
    noise = (f"sigma={significant(result['sigma'], rounding=rounding)}" if "sigma" in result
             else f"scale={significant(result['scale'], rounding=rounding)}")
    verb = "needs" if result["kind"] == "calibrate" else "with"
    return (f"{result['compositions']} x {result['mechanism']} {verb} {noise}: "
            f"{privacy_text(result['epsilon'], result['delta'])} "
            f"[method={result['method']}, {result['seconds']:.3f} s]")
