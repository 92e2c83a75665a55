"""``dpverify account``: the privacy of composed releases, and the noise a budget needs."""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

from dpverify.cli._core import add_command, count, finite_float, privacy_text, rename_option, significant

HELP = "privacy accounting of composed mechanisms"
EXAMPLES = (
    "dpverify account gaussian --sigma 1.0 --count 1000 --delta 1e-5",
    "dpverify account gaussian --sigma 1.0 --count 1000 --delta 1e-5 --method rdp --json",
    "dpverify account laplace --scale 10 --count 100 --delta 1e-6",
    "dpverify account calibrate --epsilon 1.0 --delta 1e-5 --count 1000",
    "dpverify account dp-sgd --sampling-probability 0.004267 --epochs 60 --noise-multiplier 1.1 "
    "--delta 1e-5",
    "dpverify account dp-sgd --sampling-probability 0.004267 --steps 14062 --epsilon 3 "
    "--delta 1e-5 --method rdp --json",
    "dpverify account compose spec.json",
)


def _add_common(parser: argparse.ArgumentParser, methods: tuple[str, ...], default: str) -> None:
    parser.add_argument("--count", type=count, default=1,
                        help="number k of adaptively composed releases")
    rename_option(parser, "--compositions", "--count")
    parser.add_argument("--sensitivity", type=finite_float, default=1.0,
                        help="sensitivity of each release (l2 for Gaussian, l1 for Laplace)")
    parser.add_argument("--method", choices=methods, default=default, help="accountant")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(context=_context, describe=_describe)


def configure(parser: argparse.ArgumentParser) -> None:
    from dpverify.accountants.calibrate import GAUSSIAN_METHODS, LAPLACE_METHODS  # deferred: keeps CLI start-up light

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

    sgd = add_command(kinds, "dp-sgd", help="epsilon (or the noise multiplier) of DP-SGD: "
                      "Poisson-sampled Gaussian steps, add/remove", examples=EXAMPLES[4:6])
    sgd.add_argument("--sampling-probability", type=finite_float, required=True,
                     help="Poisson sampling probability q = batch size / dataset size, in (0, 1]")
    length = sgd.add_mutually_exclusive_group(required=True)
    length.add_argument("--steps", type=count, help="number of steps")
    length.add_argument("--epochs", type=finite_float, help="epochs (steps = floor(epochs / q))")
    target = sgd.add_mutually_exclusive_group(required=True)
    target.add_argument("--noise-multiplier", type=finite_float,
                        help="noise multiplier sigma (report epsilon)")
    target.add_argument("--epsilon", type=finite_float,
                        help="epsilon budget (report the smallest noise multiplier)")
    sgd.add_argument("--delta", type=finite_float, required=True, help="target delta in (0, 1)")
    sgd.add_argument("--method", choices=("pld", "rdp"), default="pld", help="accountant")
    sgd.add_argument("--json", action="store_true", help="print one JSON object")
    rename_option(sgd, "--sampling-rate", "--sampling-probability")
    sgd.set_defaults(handler=_dp_sgd, context=_sgd_context, describe=_sgd_describe,
                     option_aliases={"sampling_probability": "--sampling-probability",
                                     "sample_rate": "--sampling-probability",
                                     "noise_multiplier": "--noise-multiplier"})

    compose = add_command(kinds, "compose", help="epsilon of an event tree written as JSON",
                          examples=EXAMPLES[6:])
    compose.add_argument("spec", help='JSON file: {"event": EVENT} or {"history": [{"event": '
                         'EVENT, "count": N}, ...]}, optional "delta", "method", "neighbouring"; '
                         'EVENT as dpverify.accountants.events.event_to_dict writes it, e.g. '
                         '{"type": "SelfComposedEvent", "count": 1000, "event": {"type": '
                         '"MechanismEvent", "mechanism": {"type": "Gaussian", "sigma": 10}}}')
    compose.add_argument("--delta", type=finite_float, help="target delta (overrides the spec)")
    compose.add_argument("--method", choices=("pld", "rdp", "zcdp", "all"),
                         help="accountant (overrides the spec; 'all': side by side)")
    compose.add_argument("--json", action="store_true", help="print one JSON object")
    compose.set_defaults(handler=_compose, context=_compose_context, describe=_compose_describe)


def _gaussian(args: argparse.Namespace) -> dict[str, Any]:
    from dpverify.accountants.calibrate import gaussian_epsilon  # deferred: keeps CLI start-up light

    epsilon = gaussian_epsilon(args.sigma, delta=args.delta, count=args.count,
                               sensitivity=args.sensitivity, method=args.method)
    return {"mechanism": "gaussian", "sigma": args.sigma, "epsilon": epsilon}


def _laplace(args: argparse.Namespace) -> dict[str, Any]:
    from dpverify.accountants.calibrate import laplace_epsilon  # deferred: keeps CLI start-up light

    method = "pure" if args.delta == 0.0 else args.method
    args.method = method
    epsilon = laplace_epsilon(args.scale, delta=args.delta, count=args.count,
                              sensitivity=args.sensitivity, method=method)
    return {"mechanism": "laplace", "scale": args.scale, "epsilon": epsilon}


def _calibrate(args: argparse.Namespace) -> dict[str, Any]:
    from dpverify.accountants.calibrate import (  # deferred: keeps CLI start-up light
        min_gaussian_sigma,
        min_laplace_scale,
    )

    if args.mechanism == "gaussian":
        sigma = min_gaussian_sigma(args.epsilon, args.delta, count=args.count,
                                   sensitivity=args.sensitivity, method=args.method)
        return {"mechanism": "gaussian", "sigma": sigma, "epsilon": args.epsilon}
    scale = min_laplace_scale(args.epsilon, args.delta, count=args.count,
                              sensitivity=args.sensitivity, method=args.method)
    return {"mechanism": "laplace", "scale": scale, "epsilon": args.epsilon}


def _context(args: argparse.Namespace) -> dict[str, Any]:
    return {"kind": args.kind, "method": args.method, "delta": args.delta,
            "count": args.count, "sensitivity": args.sensitivity}


def _describe(result: dict[str, Any]) -> str:
    rounding = "up" if result["kind"] == "calibrate" else "nearest"  # the noise a budget needs
    noise = (f"sigma={significant(result['sigma'], rounding=rounding)}" if "sigma" in result
             else f"scale={significant(result['scale'], rounding=rounding)}")
    verb = "needs" if result["kind"] == "calibrate" else "with"
    return (f"{result['count']} x {result['mechanism']} {verb} {noise}: "
            f"{privacy_text(result['epsilon'], result['delta'])} "
            f"[method={result['method']}, {result['seconds']:.3f} s]")


def _steps(args: argparse.Namespace) -> int:
    from dpverify._validation import check_probability, value_error  # deferred: keeps CLI start-up light

    rate = check_probability(args.sampling_probability, "sampling_probability", open_low=True)
    if args.steps is not None:
        return args.steps
    if not args.epochs > 0:
        raise value_error("epochs", args.epochs, "> 0")
    steps = math.floor(args.epochs / rate)
    if steps < 1:
        raise value_error("epochs", args.epochs,
                          f">= the sampling probability ({rate}) for one step")
    if steps > 2**63 - 1:  # the derived step count, named by the options the user typed
        raise value_error("epochs", args.epochs, f"at most {(2**63 - 1) * rate:.3g} at "
                          f"--sampling-probability {rate!r} (steps = floor(epochs / q) must be "
                          "at most 2**63 - 1)")
    return steps


def _dp_sgd(args: argparse.Namespace) -> dict[str, Any]:
    from dpverify.accountants.dp_sgd import dp_sgd_epsilon, min_noise_multiplier  # deferred: keeps CLI start-up light

    steps = _steps(args)
    if args.noise_multiplier is not None:
        epsilon = dp_sgd_epsilon(args.noise_multiplier, args.delta, steps=steps,
                                 sampling_probability=args.sampling_probability,
                                 method=args.method)
        return {"steps": steps, "noise_multiplier": args.noise_multiplier, "epsilon": epsilon}
    sigma = min_noise_multiplier(args.epsilon, args.delta,
                                 sampling_probability=args.sampling_probability,
                                 steps=steps, method=args.method)
    return {"steps": steps, "noise_multiplier": sigma, "epsilon": args.epsilon}


def _sgd_context(args: argparse.Namespace) -> dict[str, Any]:
    return {"kind": args.kind, "method": args.method, "delta": args.delta,
            "sampling_probability": args.sampling_probability, "epochs": args.epochs,
            "calibrate": args.noise_multiplier is None}


def _sgd_describe(result: dict[str, Any]) -> str:
    rounding = "up" if result["calibrate"] else "nearest"
    verb = "needs" if result["calibrate"] else "with"
    return (f"{result['steps']} DP-SGD steps at q={significant(result['sampling_probability'])} "
            f"{verb} "
            f"noise multiplier {significant(result['noise_multiplier'], rounding=rounding)}: "
            f"{privacy_text(result['epsilon'], result['delta'])} "
            f"[method={result['method']}, add/remove, {result['seconds']:.3f} s]")


def _read_spec(path: str) -> dict[str, Any]:
    from dpverify._validation import value_error  # deferred: keeps CLI start-up light

    try:
        with open(path, encoding="utf-8") as handle:
            spec = json.load(handle)
    except OSError as error:
        raise value_error("spec", path, "a readable JSON file", str(error)) from None
    except json.JSONDecodeError as error:
        raise value_error("spec", path, "valid JSON", str(error)) from None
    if not isinstance(spec, dict) or not ("event" in spec or "history" in spec):
        raise value_error("spec", path, 'a JSON object with "event" or "history"')
    return spec


def _compose(args: argparse.Namespace) -> dict[str, Any]:
    from dpverify._validation import check_delta, value_error  # deferred: keeps CLI start-up light
    from dpverify.accountants.accountant import PrivacyAccountant  # deferred: keeps CLI start-up light
    from dpverify.accountants.events import event_from_dict  # deferred: keeps CLI start-up light

    spec = _read_spec(args.spec)
    delta = args.delta if args.delta is not None else spec.get("delta")
    if delta is None:
        raise value_error("delta", None, "given (--delta or the spec's \"delta\")")
    delta = check_delta(delta, allow_zero=False)
    method = args.method or spec.get("method", "pld")
    records = spec.get("history") or [{"event": spec["event"], "count": spec.get("count", 1)}]
    if not isinstance(records, list):
        raise value_error("history", records, "a list of {\"event\": ..., \"count\": n}")

    def accountant(name: str) -> PrivacyAccountant:
        out = PrivacyAccountant(name, neighbouring=spec.get("neighbouring", "add-remove"))
        for record in records:
            if not isinstance(record, dict) or "event" not in record:
                raise value_error("history", record, "{\"event\": ..., \"count\": n}")
            out.compose(event_from_dict(record["event"]), record.get("count", 1))
        return out

    args.delta, args.method = delta, method
    if method == "all":
        first = accountant("pld")
        report = first.report(delta)
        finite = [v for v in report.values() if isinstance(v, float)]
        return {"epsilon": min(finite) if finite else None, "by_method": report}
    return {"epsilon": accountant(method).get_epsilon(delta)}


def _compose_context(args: argparse.Namespace) -> dict[str, Any]:
    return {"kind": args.kind, "spec": args.spec, "method": args.method, "delta": args.delta}


def _compose_describe(result: dict[str, Any]) -> str:
    lines = [f"{result['spec']}: {privacy_text(result['epsilon'], result['delta'])} "
             f"[method={result['method']}, {result['seconds']:.3f} s]"]
    for method, value in (result.get("by_method") or {}).items():
        text = privacy_text(value, result["delta"]) if isinstance(value, float) else value
        lines.append(f"  {method}: {text}")
    return "\n".join(lines)
