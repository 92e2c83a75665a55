"""``dpverify audit``: a statistical privacy audit with a certified lower bound on epsilon."""

from __future__ import annotations

import argparse
from typing import Any

from dpverify.cli._core import EXIT_NOT_MET, EXIT_OK, count, finite_float, seed, significant

HELP = "statistical privacy audit of a built-in example mechanism"
EXAMPLES = (
    "dpverify audit laplace_half_scale        # built-in buggy example: VIOLATION, exit status 1",
    "dpverify audit gaussian --samples 1e7 --json",
)

#: Audits at least this long (samples per side) show a progress bar on stderr.
_PROGRESS_SAMPLES = 1_000_000


def configure(parser: argparse.ArgumentParser) -> None:
    from dpverify.auditing.events import FAMILIES
    from dpverify.auditing.examples import CATALOGUE

    parser.description = (
        "Run a built-in example mechanism on its neighbouring pair and certify a lower bound on "
        "its epsilon at --confidence; the claim defaults to the example's own. Exit status 1 "
        "when a violation is certified. Mechanisms: " + ", ".join(CATALOGUE) + ".")
    parser.add_argument("mechanism", choices=tuple(CATALOGUE), metavar="MECHANISM",
                        help="built-in example (see the list above)")
    parser.add_argument("--epsilon", type=finite_float,
                        help="claimed epsilon (default: the example's)")
    parser.add_argument("--delta", type=finite_float, help="claimed delta (default: the example's)")
    parser.add_argument("--samples", type=count, default=1_000_000,
                        help="outputs drawn per side")
    parser.add_argument("--confidence", type=finite_float, default=0.95,
                        help="confidence of the whole audit")
    parser.add_argument("--seed", type=seed, default=None, help="seed (default: fresh entropy)")
    parser.add_argument("--events", choices=("auto", *FAMILIES), default="auto",
                        help="event family (auto: by output kind)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=_audit)


def _audit(args: argparse.Namespace) -> dict[str, Any]:
    from dpverify.auditing import audit
    from dpverify.auditing.examples import example

    mechanism = example(args.mechanism)
    epsilon = mechanism.epsilon if args.epsilon is None else args.epsilon
    delta = mechanism.delta if args.delta is None else args.delta
    report = audit(mechanism.sampler, mechanism.x, mechanism.x_prime, epsilon=epsilon,
                   delta=delta, samples=args.samples, confidence=args.confidence,
                   seed=args.seed, events=args.events,
                   progress=args.samples >= _PROGRESS_SAMPLES)
    true_epsilon = mechanism.true_epsilon
    text = (f"{mechanism.name}: {mechanism.description}\n"
            f"  true epsilon of this pair at delta={significant(mechanism.delta)}: "
            f"{significant(true_epsilon)}\n{report}")
    return {"mechanism": mechanism.name, "method": args.events, **report.to_dict(),
            "epsilon": epsilon, "delta": delta, "true_epsilon": true_epsilon,
            "_text": text, "_status": EXIT_NOT_MET if report.violation else EXIT_OK}
