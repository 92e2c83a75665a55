"""``dpverify audit``: a statistical privacy audit with a certified lower bound on epsilon.

Two sources of mechanisms:

* a built-in example by name (``dpverify audit laplace_half_scale``);
* the user's own sampler, ``--sampler package.module:function`` with the
  signature ``f(data, size, rng)``, on ``--x JSON --x-prime JSON`` or on every
  pair of ``--pairs FILE.jsonl`` (a worst-pair search, family-wise valid).

A third source: canary scores on disk, ``dpverify audit scores --in-scores FILE --out-scores FILE
--design one-run|independent-runs`` (:mod:`dpverify.cli._scores`).

Modes: the default counting audit; ``--samples auto`` (sequential, stops at
the first certified violation, at most ``--max-samples``); ``--pairs``
(search: a pilot audit of every pair, then the best pair certified on fresh
samples at the whole search's confidence; with ``--samples auto`` that
certification is sequential, its stages' alpha spent within the pair's share
of the union bound — ``docs/proofs/auditing.md`` §7); ``--model FAMILY``
(model-based, labelled as such). Exit status 0
no violation, 1 violation certified, 2 bad input, 3 internal error.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from typing import Any

from dpverify.cli import _scores as scores
from dpverify.cli._choices import AUDIT_EXAMPLES, EVENT_FAMILIES, MODEL_FAMILIES
from dpverify.cli._core import EXIT_NOT_MET, EXIT_OK, count, finite_float, seed, significant
from dpverify.errors import DpverifyValueError

HELP = "statistical privacy audit of your sampler or a built-in example"
EXAMPLES = (
    "dpverify audit laplace_half_scale        # built-in buggy example: VIOLATION, exit status 1",
    "dpverify audit gaussian --samples 1e7 --json",
    "dpverify audit --sampler mypkg.noise:noisy_count --x 0 --x-prime 1 --epsilon 1",
    "dpverify audit --sampler mypkg.svt:svt --pairs pairs.jsonl --epsilon 1 --samples auto",
    "dpverify audit --sampler mypkg.noise:gauss --x 0 --x-prime 1 --epsilon 10 --delta 1e-3 "
    "--model gaussian --sensitivity 1",
    "dpverify audit scores --in-scores in.npy --out-scores out.npy --design one-run --epsilon 8 --delta 1e-5",
)

#: Audits at least this long (samples per side) show a progress bar on stderr by default
#: (on a terminal only, never with --json unless --progress is given).
_PROGRESS_SAMPLES = 1_000_000
_SIGNATURE = "f(data, size, rng) returning `size` outputs drawn with the numpy Generator `rng`"


def _samples(text: str) -> Any:
    """``auto`` or a count."""
    return "auto" if text.strip().lower() == "auto" else count(text)


def _json_value(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise argparse.ArgumentTypeError(f"{text!r} is not JSON ({error.msg})") from None


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Certify a lower bound on a mechanism's epsilon at --confidence and compare it with the "
        "claim. Audit a built-in example by name (its claim is the default), or your own "
        f"sampler with --sampler package.module:function, {_SIGNATURE}, on --x/--x-prime or on "
        "the pairs of --pairs FILE.jsonl (one JSON object {\"x\": ..., \"x_prime\": ...} or "
        "[x, x'] per line), or canary scores on disk with 'dpverify audit scores --in-scores FILE "
        "--out-scores FILE --design one-run|independent-runs'. Exit status 1 when a violation is "
        "certified. Built-in mechanisms: "
        + ", ".join(AUDIT_EXAMPLES) + ".")
    parser.add_argument("mechanism", nargs="?", choices=(*AUDIT_EXAMPLES, scores.SCORES),
                        metavar="MECHANISM",
                        help="built-in example (see the list above); omit with --sampler; "
                             "'scores' audits canary scores on disk (--in-scores, --out-scores, --design)")
    parser.add_argument("--sampler", metavar="MODULE:FUNCTION",
                        help=f"your sampler, {_SIGNATURE}")
    parser.add_argument("--x", type=_json_value, metavar="JSON", dest="x",
                        help="the input x, as JSON (lists become numpy arrays)")
    parser.add_argument("--x-prime", type=_json_value, metavar="JSON", dest="x_prime",
                        help="the neighbouring input x', as JSON")
    parser.add_argument("--pairs", metavar="FILE.jsonl",
                        help="search these neighbouring pairs for the worst one (family-wise)")
    parser.add_argument("--epsilon", type=finite_float,
                        help="claimed epsilon (default: the example's; required with --sampler)")
    parser.add_argument("--delta", type=finite_float, help="claimed delta (default: the "
                                                           "example's, else 0)")
    parser.add_argument("--samples", type=_samples, default=1_000_000,
                        help="outputs drawn per side, or 'auto' (sequential, stops at the first "
                             "certified violation)")
    parser.add_argument("--max-samples", type=count, default=None, dest="max_samples",
                        help="budget per side of --samples auto (default 1e7)")
    parser.add_argument("--confidence", type=finite_float, default=0.95,
                        help="confidence of the whole audit")
    parser.add_argument("--seed", type=seed, default=None, help="seed (default: fresh entropy)")
    parser.add_argument("--events", choices=("auto", *EVENT_FAMILIES), default="auto",
                        help="event family (auto: by output kind; 'float' attacks float bits)")
    parser.add_argument("--model", choices=MODEL_FAMILIES, default=None,
                        help="model-based audit assuming this noise family (labelled as such)")
    parser.add_argument("--sensitivity", type=finite_float, default=None,
                        help="|f(x) - f(x')| for the --model noise families (an integer for "
                             "discrete_laplace, discrete_gaussian, binomial)")
    parser.add_argument("--trials", type=count, default=None,
                        help="number of trials of --model binomial")
    parser.add_argument("--categories", type=count, default=2,
                        help="k for --model randomized_response")
    parser.add_argument("--threads", choices=("auto", "on", "off"), default="auto",
                        help="draw the two sides in two threads (auto: plain functions that pass "
                             "the contract probe)")
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="progress bar on stderr (default: long audits, on a terminal, "
                             "without --json)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    scores.add_options(parser)
    parser.set_defaults(handler=_audit)


def _usage(message: str) -> Exception:
    return DpverifyValueError(message)


def load_sampler(spec: str) -> Any:
    """The callable named ``package.module:function`` (the working directory importable).

    Raises ``ValueError`` naming ``--sampler`` when it cannot be imported, is
    not callable, or cannot be called as ``f(data, size, rng)``.
    """
    import inspect  # deferred: keeps CLI start-up light

    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise _usage(f"--sampler {spec!r} must be package.module:function, a sampler "
                     f"{_SIGNATURE}")
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        target: Any = importlib.import_module(module_name)
    except ImportError as error:
        raise _usage(f"--sampler {spec!r}: cannot import {module_name!r} ({error})") from None
    for part in attribute.split("."):
        if not hasattr(target, part):
            raise _usage(f"--sampler {spec!r}: {module_name!r} has no attribute {attribute!r}")
        target = getattr(target, part)
    if not callable(target):
        raise _usage(f"--sampler {spec!r} is not callable; expected a sampler {_SIGNATURE}")
    try:
        inspect.signature(target).bind(None, 1, None)
    except TypeError as error:
        raise _usage(f"--sampler {spec!r} cannot be called as f(data, size, rng) ({error}); "
                     f"expected a sampler {_SIGNATURE}") from None
    except ValueError:  # no signature (a builtin): let the call decide
        pass
    return target


def _data(value: Any) -> Any:
    """JSON lists of numbers become float/int numpy arrays; anything else is passed as it is."""
    import numpy as np  # deferred: keeps CLI start-up light

    if isinstance(value, list):
        try:
            array = np.asarray(value)
        except ValueError:
            return value
        if array.dtype.kind in "biuf":
            return array
    return value


def read_pairs(path: str) -> list[Any]:
    """The pairs of a JSON-lines file: ``{"x": .., "x_prime": .., "name": ..}`` or ``[x, x']``."""
    from dpverify.auditing.search import InputPair  # deferred: keeps CLI start-up light

    try:
        with open(path, encoding="utf-8") as handle:
            lines = [line for line in handle if line.strip()]
    except OSError as error:
        raise _usage(f"--pairs {path!r}: cannot read it ({error.strerror})") from None
    if not lines:
        raise _usage(f"--pairs {path!r} holds no pairs")
    pairs = []
    for number, line in enumerate(lines, 1):
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise _usage(f"--pairs {path!r} line {number} is not JSON ({error.msg})") from None
        if isinstance(record, dict) and {"x", "x_prime"} <= set(record):
            pairs.append(InputPair(_data(record["x"]), _data(record["x_prime"]),
                                   str(record.get("name", f"line {number}"))))
        elif isinstance(record, list) and len(record) == 2:
            pairs.append(InputPair(_data(record[0]), _data(record[1]), f"line {number}"))
        else:
            raise _usage(f"--pairs {path!r} line {number} must be {{\"x\": ..., \"x_prime\": "
                         f"...}} or [x, x']")
    return pairs


def _progress(args: argparse.Namespace) -> bool | None:
    if args.progress is not None:
        return args.progress
    if args.json or (args.samples != "auto" and args.samples < _PROGRESS_SAMPLES):
        return False
    return None  # tqdm's disable=None: a bar only when stderr is a terminal


def _claim(args: argparse.Namespace, mechanism: Any) -> tuple[float, float]:
    if mechanism is not None:
        return (mechanism.epsilon if args.epsilon is None else args.epsilon,
                mechanism.delta if args.delta is None else args.delta)
    if args.epsilon is None:
        raise _usage("--epsilon is required with --sampler (the claim to audit)")
    return args.epsilon, 0.0 if args.delta is None else args.delta


def _source(args: argparse.Namespace) -> tuple[Any, Any, Any, Any, str]:
    """``(sampler, x, x', mechanism or None, label)``."""
    from dpverify.auditing.examples import example  # deferred: keeps CLI start-up light

    if args.mechanism is not None:
        if args.sampler or args.pairs or args.x is not None or args.x_prime is not None:
            raise _usage("give either a built-in MECHANISM or --sampler with --x/--x-prime or "
                         "--pairs, not both")
        mechanism = example(args.mechanism)
        return mechanism.sampler, mechanism.x, mechanism.x_prime, mechanism, mechanism.name
    if not args.sampler:
        raise _usage("give a built-in MECHANISM or --sampler package.module:function "
                     f"({_SIGNATURE})")
    sampler = load_sampler(args.sampler)
    if args.pairs:
        if args.x is not None or args.x_prime is not None:
            raise _usage("give either --pairs or --x/--x-prime, not both")
        return sampler, None, None, None, args.sampler
    if args.x is None or args.x_prime is None:
        raise _usage("--sampler needs --x and --x-prime (JSON), or --pairs FILE.jsonl")
    return sampler, _data(args.x), _data(args.x_prime), None, args.sampler


def _audit(args: argparse.Namespace) -> dict[str, Any]:
    from dpverify.auditing import audit  # deferred: keeps CLI start-up light

    if args.mechanism == scores.SCORES:
        return scores.run(args)
    scores.refuse_score_options(args)
    sampler, x, x_prime, mechanism, label = _source(args)
    epsilon, delta = _claim(args, mechanism)
    threads = {"auto": "auto", "on": True, "off": False}[args.threads]
    if args.max_samples is not None and args.samples != "auto":
        raise _usage("--max-samples goes with --samples auto")
    if args.model is not None:
        return _model(args, sampler, x, x_prime, epsilon, delta, threads, label)
    if args.pairs:
        return _search(args, sampler, epsilon, delta, threads, label)
    if args.samples != "auto":
        from dpverify.auditing.planning import check_samples_can_certify  # deferred: keeps CLI start-up light

        check_samples_can_certify(args.samples, epsilon=epsilon, delta=delta,
                                  confidence=args.confidence, events=args.events)
    report = audit(sampler, x, x_prime, epsilon=epsilon, delta=delta, samples=args.samples,
                   max_samples=args.max_samples, confidence=args.confidence, seed=args.seed,
                   events=args.events, progress=_progress(args), threads=threads)
    result = {"mechanism": label, "method": args.events, **report.to_dict(), "epsilon": epsilon,
              "delta": delta}
    text = str(report)
    if mechanism is not None:
        truth = mechanism.true_epsilon_at(delta)
        result["true_epsilon"] = truth
        head = f"{mechanism.name}: {mechanism.description}"
        if truth is not None:
            head += (f"\n  true epsilon of this pair at delta={significant(delta)}: "
                     f"{significant(truth)}")
        text = f"{head}\n{text}"
    else:
        text = f"{label}: x={_short(x)}, x'={_short(x_prime)}\n{text}"
    return {**result, "_text": text, "_status": EXIT_NOT_MET if report.violation else EXIT_OK}


def _short(value: Any) -> str:
    text = repr(value.tolist() if hasattr(value, "tolist") else value)
    return text if len(text) <= 60 else text[:57] + "..."


def _search(args: argparse.Namespace, sampler: Any, epsilon: float, delta: float, threads: Any,
            label: str) -> dict[str, Any]:
    from dpverify.auditing.search import audit_search  # deferred: keeps CLI start-up light

    # --samples auto: each chosen pair certified sequentially (family-wise: see audit_search)
    found = audit_search(sampler, read_pairs(args.pairs), epsilon=epsilon, delta=delta,
                         samples=args.samples, confidence=args.confidence, seed=args.seed,
                         events=args.events, threads=threads, max_samples=args.max_samples)
    result = {"mechanism": label, "method": "search", **found.to_dict(), "epsilon": epsilon,
              "delta": delta, "epsilon_lower_bound": found.epsilon_lower_bound}
    return {**result, "_text": f"{label}\n{found}",
            "_status": EXIT_NOT_MET if found.violation else EXIT_OK}


def _model(args: argparse.Namespace, sampler: Any, x: Any, x_prime: Any, epsilon: float,
           delta: float, threads: Any, label: str) -> dict[str, Any]:
    from dpverify.auditing.model import audit_model  # deferred: keeps CLI start-up light

    if args.pairs or args.samples == "auto":
        raise _usage("--model audits one pair with a fixed --samples N")
    report = audit_model(sampler, x, x_prime, family=args.model, epsilon=epsilon, delta=delta,
                         sensitivity=args.sensitivity, categories=args.categories,
                         trials=args.trials,
                         samples=args.samples, confidence=args.confidence, seed=args.seed,
                         threads=threads)
    result = {"mechanism": label, "method": "model", **report.to_dict(), "epsilon": epsilon,
              "delta": delta}
    return {**result, "_text": f"{label}\n{report}",
            "_status": EXIT_NOT_MET if report.violation else EXIT_OK}
