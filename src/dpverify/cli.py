"""The ``dpverify`` command: thin wrappers over the public API.

Examples
--------
::

    dpverify account gaussian --sigma 1.0 --compositions 1000 --delta 1e-5
    dpverify account laplace --scale 10 --compositions 100 --delta 1e-6 --json
    dpverify account calibrate --epsilon 1.0 --delta 1e-5 --compositions 1000
    dpverify shuffle --local-epsilon 2 --n 1000000 --delta 1e-6 --bound best
    dpverify shuffle --epsilon 0.1 --n 100000 --delta 1e-6 --inverse
    dpverify audit laplace_half_scale --samples 1e6 --seed 1
    dpverify audit gaussian --epsilon 1 --delta 1e-5 --json

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
    _add_shuffle(commands)
    _add_audit(commands)
    _add_simulate_parser(commands)
    _add_reproduce_parser(commands)
    return parser


def _add_shuffle(commands: Any) -> None:
    from dpverify.accountants.shuffle import SHUFFLE_BOUNDS

    shuffle = commands.add_parser(
        "shuffle", help="privacy amplification by shuffling (and its inverse)",
        description="Amplified epsilon of n users' local_epsilon-LDP reports after a shuffler, "
                    "or with --inverse the largest local epsilon meeting --epsilon.")
    shuffle.add_argument("--local-epsilon", type=float, help="each user's local epsilon_0")
    shuffle.add_argument("--epsilon", type=float, help="target central epsilon (with --inverse)")
    shuffle.add_argument("--n", type=_count, required=True, help="number of users in the batch")
    shuffle.add_argument("--delta", type=float, required=True, help="target delta in (0, 1)")
    shuffle.add_argument("--bound", choices=(*SHUFFLE_BOUNDS, "best"), default="fmt2021",
                         help="amplification bound (default fmt2021, hanna eq. (10))")
    shuffle.add_argument("--randomizer", choices=("generic", "binary-rr"), default="generic",
                         help="the local randomizer: any epsilon_0-LDP one, or binary randomized "
                              "response with that epsilon_0 (enables RR-only bounds)")
    shuffle.add_argument("--inverse", action="store_true",
                         help="print the largest local epsilon with amplified epsilon <= --epsilon")
    shuffle.add_argument("--json", action="store_true", help="print one JSON object")
    shuffle.set_defaults(handler=_shuffle)


def _add_audit(commands: Any) -> None:
    from dpverify.auditing.events import FAMILIES
    from dpverify.auditing.examples import CATALOGUE

    audit = commands.add_parser(
        "audit", help="statistical privacy audit of a built-in example mechanism",
        description="Run a built-in example mechanism on its neighbouring pair and certify a "
                    "lower bound on its epsilon at --confidence; the claim defaults to the "
                    "example's own. Exit status 1 when a violation is certified. "
                    "Mechanisms: " + ", ".join(CATALOGUE) + ".")
    audit.add_argument("mechanism", choices=tuple(CATALOGUE), metavar="MECHANISM",
                       help="built-in example (see the list above)")
    audit.add_argument("--epsilon", type=float, help="claimed epsilon (default: the example's)")
    audit.add_argument("--delta", type=float, help="claimed delta (default: the example's)")
    audit.add_argument("--samples", type=_count, default=1_000_000,
                       help="outputs drawn per side (default 1e6)")
    audit.add_argument("--confidence", type=float, default=0.95,
                       help="confidence of the whole audit (default 0.95)")
    audit.add_argument("--seed", type=int, default=None, help="seed (default: fresh entropy)")
    audit.add_argument("--events", choices=("auto", *FAMILIES), default="auto",
                       help="event family (default auto: by output kind)")
    audit.add_argument("--json", action="store_true", help="print one JSON object")
    audit.set_defaults(handler=_audit_command)


#: Audits at least this long (samples per side) show a progress bar on stderr.
_PROGRESS_SAMPLES = 1_000_000


def _audit_command(args: argparse.Namespace) -> dict[str, Any]:
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
            f"  true epsilon of this pair at delta={delta!r}: {true_epsilon:.6g}\n{report}")
    return {"mechanism": mechanism.name, "method": args.events, **report.to_dict(),
            "epsilon": epsilon, "delta": delta,
            "true_epsilon": true_epsilon if true_epsilon != float("inf") else "inf",
            "_text": text, "_status": 1 if report.violation else 0}


def _shuffle(args: argparse.Namespace) -> dict[str, Any]:
    from dpverify.accountants.shuffle import amplified_epsilon, max_local_epsilon
    from dpverify.mechanisms.randomized_response import BinaryRandomizedResponse

    family = BinaryRandomizedResponse.from_epsilon if args.randomizer == "binary-rr" else None
    if args.inverse:
        if args.epsilon is None:
            raise ValueError("epsilon=None must be given with --inverse (the target)")
        local = max_local_epsilon(args.epsilon, args.n, args.delta, bound=args.bound,
                                  randomizer_family=family)
        return {"epsilon": args.epsilon, "local_epsilon": local}
    if args.local_epsilon is None:
        raise ValueError("local_epsilon=None must be given (or use --inverse with --epsilon)")
    randomizer = None if family is None else family(args.local_epsilon)
    epsilon = amplified_epsilon(args.local_epsilon, args.n, args.delta, bound=args.bound,
                                randomizer=randomizer)
    return {"epsilon": epsilon, "local_epsilon": args.local_epsilon}


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
    if "_text" in result:
        return result["_text"]
    if result["command"] == "shuffle":
        return (f"n={result['n']} users, local epsilon_0={result['local_epsilon']!r}: "
                f"(epsilon={result['epsilon']!r}, delta={result['delta']!r})-DP after shuffling "
                f"[bound={result['bound']}, {result['seconds']:.3f} s]")
    noise = (f"sigma={result['sigma']!r}" if "sigma" in result else f"scale={result['scale']!r}")
    verb = "needs" if result["command"] == "calibrate" else "with"
    return (f"{result['compositions']} x {result['mechanism']} {verb} {noise}: "
            f"(epsilon={result['epsilon']!r}, delta={result['delta']!r})-DP "
            f"[method={result['method']}, {result['seconds']:.3f} s]")


def _context(args: argparse.Namespace) -> dict[str, Any]:
    """The inputs echoed next to every result."""
    if hasattr(args, "context"):  # sub-commands that echo their own inputs
        return args.context(args)
    if args.command == "audit":
        return {"command": "audit"}
    if args.command == "shuffle":
        return {"command": "shuffle", "bound": args.bound, "n": args.n, "delta": args.delta,
                "randomizer": args.randomizer, "inverse": args.inverse}
    return {"command": args.kind, "method": args.method, "delta": args.delta,
            "compositions": args.compositions, "sensitivity": args.sensitivity}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``dpverify`` command; return the exit status.

    0 on success; 1 when ``dpverify audit`` certifies a violation of the claim
    (so that scripts and CI jobs fail on it); 2 on bad input.
    """
    from dpverify.errors import DpverifyError

    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Callable[[argparse.Namespace], dict[str, Any]] = args.handler
    start = time.perf_counter()
    try:
        result = handler(args)
    except (DpverifyError, ValueError, TypeError) as error:
        parser.exit(2, f"dpverify: error: {error}\n")
    context = _context(args)
    result = {**{k: v for k, v in context.items() if k in ("command", "method")}, **result,
              **{k: v for k, v in context.items() if k not in ("command", "method")},
              "seconds": round(time.perf_counter() - start, 6)}
    text = getattr(args, "describe", _describe)(result)
    result.pop("_text", None)
    status = result.pop("_status", 0)
    print(json.dumps(result) if args.json else text)
    return status


# ----------------------------------------------------------------------------- bandits


def _add_simulate_parser(commands: Any) -> None:
    from dpverify.bandits.contextual import CONTEXTUAL_ALGORITHMS
    from dpverify.bandits.environments import REWARD_FAMILIES
    from dpverify.bandits.linear.environments import LINEAR_INSTANCES
    from dpverify.bandits.linear import LINEAR_ALGORITHM_NAMES
    from dpverify.bandits.mab import ALGORITHM_NAMES

    simulate = commands.add_parser(
        "simulate", help="simulate a (private) bandit algorithm and report its regret",
        description="Run a bandit algorithm of tenenbaum 2021 / chowdhury 2023 (multi-armed), "
                    "hanna 2022 / dpdpe (linear) or garcelon 2022 (contextual) on random "
                    "instances (a fresh instance per run) and print its final regret and "
                    "privacy guarantee.")
    simulate.add_argument("--algorithm", choices=(*ALGORITHM_NAMES, *LINEAR_ALGORITHM_NAMES,
                                                  *CONTEXTUAL_ALGORITHMS), required=True)
    simulate.add_argument("--instance", choices=("easy", "hard", "mslr-synthetic",
                                                 *LINEAR_INSTANCES, *CONTEXTUAL_INSTANCES),
                          default=None,
                          help="instance family (default easy; sphere for hanna-*, dpdpe for "
                               "dpdpe-*/dpe*, contextual for sblb*/linucb/ldp-linucb; "
                               "mslr-synthetic: a synthetic stand-in for MSLR-WEB10K; "
                               "contextual[-correlated]: garcelon's linear contextual bandit)")
    simulate.add_argument("--arms", type=_count, default=None,
                          help="number of arms K (default 10; 50 for mslr-synthetic)")
    simulate.add_argument("--rewards", choices=REWARD_FAMILIES, default=None,
                          help="reward law of easy/hard (default bernoulli for sdp-ae/vb-sdp-ae, "
                               "else clipped-gaussian)")
    simulate.add_argument("--epsilon", type=float, default=None, help="privacy parameter epsilon")
    simulate.add_argument("--delta", type=float, default=None,
                          help="delta (tenenbaum's delta; RDP/zCDP are reported at it; default "
                               "1e-6, 0.25 for dpdpe-*)")
    simulate.add_argument("--horizon", type=_count, required=True, help="horizon T")
    simulate.add_argument("--runs", type=_count, default=1, help="independent runs")
    simulate.add_argument("--seed", type=int, default=0, help="seed of the spawned streams")
    simulate.add_argument("--jobs", type=_count, default=1, help="worker processes")
    simulate.add_argument("--batch-base", type=int, default=None,
                          help="chowdhury's batch growth l(b) = base^b (default 2)")
    simulate.add_argument("--confidence", type=float, default=None,
                          help="confidence p of the radii (default 1/T; the papers' plots use 0.1)")
    simulate.add_argument("--scale-factor", type=float, default=None,
                          help="s of dist-rdp-se / dist-cdp-se (default 10)")
    _add_linear_simulate_options(simulate)
    _add_contextual_options(simulate)
    simulate.add_argument("--per-user", action="store_true",
                          help="run every user's randomizer (slow, auditable path)")
    simulate.add_argument("--progress", action="store_true", help="progress bar over runs")
    simulate.add_argument("--json", action="store_true", help="print one JSON object")
    simulate.set_defaults(handler=_simulate_command, context=_simulate_context,
                          describe=_describe_simulation)


def _simulate_options(args: argparse.Namespace) -> dict[str, Any]:
    names = {"batch_base": "batch_base", "confidence": "confidence", "scale_factor": "scale_factor"}
    return {key: getattr(args, attr) for key, attr in names.items()
            if getattr(args, attr) is not None}


def _simulate_command(args: argparse.Namespace) -> dict[str, Any]:
    if _is_contextual(args):
        return _contextual_simulate(args)
    from dpverify.bandits.environments import instance_family
    from dpverify.bandits.linear import LINEAR_ALGORITHM_NAMES
    from dpverify.bandits.mab import make_algorithm
    from dpverify.bandits.simulate import simulate

    if args.algorithm in LINEAR_ALGORITHM_NAMES:
        return _linear_simulate(args)
    args.instance = args.instance or "easy"
    args.delta = 1e-6 if args.delta is None else args.delta
    rewards = args.rewards or ("bernoulli" if args.algorithm in ("sdp-ae", "vb-sdp-ae", "ae")
                               else "clipped-gaussian")
    family = instance_family(args.instance, k=args.arms, rewards=rewards)
    algorithm = make_algorithm(args.algorithm, epsilon=args.epsilon, delta=args.delta,
                               **_simulate_options(args))
    result = simulate(algorithm, family, args.horizon, runs=args.runs, seed=args.seed,
                      n_jobs=args.jobs, progress=args.progress, per_user=args.per_user)
    return _simulation_json(result, args, arms=family.k)


def _simulation_json(result: Any, args: argparse.Namespace, **extra: Any) -> dict[str, Any]:
    """The JSON keys every ``dpverify simulate`` shares, then the family's ``extra`` ones."""
    summary, guarantee = result.summary(), result.guarantee
    return {"final_time_average_regret": summary["final_time_average_regret"],
            "final_regret_std": summary["final_regret_std"],
            **{k: v for k, v in summary.items() if k.startswith("final_")},
            "epsilon": args.epsilon, "delta": args.delta,
            "guarantee_model": summary["model"], "guarantee_epsilon": summary["epsilon"],
            "guarantee_delta": summary["delta"],
            "guarantee_per_batch": (None if guarantee is None or guarantee.per_batch is None
                                    else repr(guarantee.per_batch)),
            "algorithm_label": result.algorithm, "environment": result.environment,
            "simulation_seconds": result.seconds, **extra}


def _add_linear_simulate_options(simulate: Any) -> None:
    simulate.add_argument("--mode", choices=("paper", "sound"), default="paper",
                          help="linear algorithms: paper (as printed: hanna Lap(1/eps) on rewards "
                               "in [-1, 1], i.e. really 2eps-DP, and its confidence widths; dpdpe "
                               "classical Gaussian calibration) or sound (Lap(2/eps) and a correct "
                               "Laplace-sum bound; analytic Gaussian)")
    simulate.add_argument("--dim", type=_count, default=None,
                          help="dimension d of the linear and contextual instances (default 2 "
                               "sphere, 20 dpdpe, 5 contextual)")
    simulate.add_argument("--actions", type=_count, default=None,
                          help="number of actions k of the linear instances (default 10 sphere, "
                               "1000 dpdpe); actions and theta* uniform on the unit sphere; "
                               "sphere rewards are +-1 with mean <x, theta*>; dpdpe clients have "
                               "theta_u = theta* + N(0, 0.1^2 I), N(0, 1) reward noise, B = 1, "
                               "|U| = 10^5")


def _linear_simulate(args: argparse.Namespace) -> dict[str, Any]:
    """``dpverify simulate`` for the linear algorithms (hanna-*, dpdpe-*, dpe, dpe-fixedu)."""
    from dpverify.bandits.linear.environments import LINEAR_INSTANCES, LinearInstanceFamily
    from dpverify.bandits.linear import NON_PRIVATE_LINEAR_ALGORITHMS, make_linear_algorithm
    from dpverify.bandits.simulate import simulate

    hanna = args.algorithm.startswith("hanna")
    args.instance = args.instance or ("sphere" if hanna else "dpdpe")
    if args.instance not in LINEAR_INSTANCES:
        raise ValueError(f"instance={args.instance!r} must be one of {LINEAR_INSTANCES} for "
                         f"the linear algorithm {args.algorithm}")
    if not hanna and args.instance != "dpdpe":
        raise ValueError(f"instance={args.instance!r} must be 'dpdpe' for {args.algorithm}")
    k = args.actions or (10 if args.instance == "sphere" else 1000)
    d = args.dim or (2 if args.instance == "sphere" else 20)
    args.delta = args.delta if args.delta is not None else (1e-6 if hanna else 0.25)
    options: dict[str, Any] = {} if args.algorithm in NON_PRIVATE_LINEAR_ALGORITHMS \
        else {"mode": args.mode}
    if args.algorithm == "dpe-fixedu":
        options.update(horizon=args.horizon, dimension=d)
    if args.confidence is not None and not hanna:
        options["confidence"] = args.confidence
    algorithm = make_linear_algorithm(args.algorithm, epsilon=args.epsilon, delta=args.delta,
                                      **options)
    family = LinearInstanceFamily(args.instance, k, d)
    result = simulate(algorithm, family, args.horizon, runs=args.runs, seed=args.seed,
                      n_jobs=args.jobs, progress=args.progress, per_user=args.per_user)
    summary, guarantee = result.summary(), result.guarantee
    out = _simulation_json(result, args, mode=args.mode, arms=k, dim=d,
                           guarantee_notes=None if guarantee is None else guarantee.notes)
    if "communication_cost" in summary:
        out["communication_cost"] = summary["communication_cost"]
    return out


#: Instances of the contextual algorithms (garcelon 2022).
CONTEXTUAL_INSTANCES = ("contextual", "contextual-correlated")


def _add_contextual_options(simulate: Any) -> None:
    simulate.add_argument("--regime", choices=("cor8", "cor7"), default="cor8",
                          help="SBLB's parameter choice: garcelon Cor. 8 (default) or Cor. 7")
    simulate.add_argument("--batch-form", choices=("derived", "printed"), default="derived",
                          help="Thm 5's Eq. (3) for the shuffler batch length (derived: 2 - 2p)")
    simulate.add_argument("--radius-scale", type=float, default=None,
                          help="multiply the contextual algorithms' confidence radius (default 1)")


def _is_contextual(args: argparse.Namespace) -> bool:
    from dpverify.bandits.contextual import CONTEXTUAL_ALGORITHMS

    contextual = args.algorithm in CONTEXTUAL_ALGORITHMS
    if contextual and args.instance is None:
        args.instance = "contextual"
    if contextual != (args.instance in CONTEXTUAL_INSTANCES):
        raise ValueError(f"--algorithm {args.algorithm} needs --instance "
                         f"{'contextual[-correlated]' if contextual else 'of its own family'} "
                         f"(got --instance {args.instance})")
    return contextual


def _contextual_simulate(args: argparse.Namespace) -> dict[str, Any]:
    """``simulate`` for garcelon's contextual algorithms: the MAB keys + local_epsilon, batch_length."""
    from dpverify.bandits.contextual import (
        make_contextual_algorithm,
        ContextualInstanceFamily,
        simulate_contextual,
    )

    args.delta = 1e-6 if args.delta is None else args.delta
    generator = "correlated" if args.instance == "contextual-correlated" else "sphere"
    family = ContextualInstanceFamily(args.dim or 5, args.arms or 10, generator=generator)
    options: dict[str, Any] = {}
    if args.radius_scale is not None:
        options["radius_scale"] = args.radius_scale
    if args.algorithm.startswith("sblb"):
        options.update(regime=args.regime, form=args.batch_form)
    algorithm = make_contextual_algorithm(args.algorithm, epsilon=args.epsilon, delta=args.delta,
                                          **options)
    result = simulate_contextual(algorithm, family, args.horizon, runs=args.runs, seed=args.seed,
                                 n_jobs=args.jobs, progress=args.progress, per_user=args.per_user)
    dims = {"horizon": args.horizon, "dimension": family.dimension}
    length = algorithm.parameters(**dims).batch_length if hasattr(algorithm, "parameters") else None
    return _simulation_json(
        result, args, arms=family.n_arms, dim=family.dimension,
        local_epsilon=algorithm.local_epsilon(**dims), batch_length=length,
        guarantee_epsilon_by_composition=(algorithm.total_epsilons(**dims)
                                          if hasattr(algorithm, "total_epsilons") else None))


def _simulate_context(args: argparse.Namespace) -> dict[str, Any]:
    return {"command": "simulate", "algorithm": args.algorithm, "instance": args.instance,
            "horizon": args.horizon, "runs": args.runs, "seed": args.seed,
            "per_user": args.per_user}


def _describe_simulation(result: dict[str, Any]) -> str:
    privacy = ("non-private" if result["guarantee_model"] in (None, "none") else
               f"(epsilon={result['guarantee_epsilon']!r}, delta={result['guarantee_delta']!r})"
               f" [{result['guarantee_model']}]")
    return (f"{result['algorithm_label']} on {result['environment']}, T={result['horizon']}, "
            f"{result['runs']} run(s): final time-average regret "
            f"{result['final_time_average_regret']:.6g} (std of Reg(T) over runs "
            f"{result['final_regret_std']:.4g}); {privacy}; {result['seconds']:.2f} s")


def _add_reproduce_parser(commands: Any) -> None:
    from dpverify.bandits.experiments import EXPERIMENTS, SCALES

    reproduce = commands.add_parser(
        "reproduce", help="reproduce a paper figure (CSV and PNG)",
        description="Run a named experiment of dpverify.bandits.experiments and write "
                    "<name>.csv and <name>.png.")
    reproduce.add_argument("name", choices=tuple(EXPERIMENTS))
    reproduce.add_argument("--scale", choices=tuple(SCALES), default="quick",
                           help="quick (T/10, 5 runs) or full (the paper's)")
    reproduce.add_argument("--out", default=".", help="output directory (default: .)")
    reproduce.add_argument("--seed", type=int, default=0)
    reproduce.add_argument("--jobs", type=_count, default=1, help="worker processes")
    reproduce.add_argument("--panels", default=None,
                           help="comma-separated panel keys to run (default: all)")
    reproduce.add_argument("--runs", type=_count, default=None,
                           help="runs per algorithm (default: the scale's)")
    reproduce.add_argument("--progress", action="store_true")
    reproduce.add_argument("--json", action="store_true", help="print one JSON object")
    reproduce.set_defaults(handler=_reproduce_command,
                           context=lambda args: {"command": "reproduce", "name": args.name,
                                                 "scale": args.scale, "seed": args.seed},
                           describe=_describe_reproduction)


def _reproduce_command(args: argparse.Namespace) -> dict[str, Any]:
    from dpverify.bandits.experiments import reproduce

    panels = None if args.panels is None else tuple(p.strip() for p in args.panels.split(","))
    outcome = reproduce(args.name, scale=args.scale, seed=args.seed, out_dir=args.out,
                        n_jobs=args.jobs, progress=args.progress, panels=panels, runs=args.runs)
    if not outcome.results:
        raise ValueError(f"panels={args.panels!r} matches no panel of {args.name}")
    finals = [{"panel": panel.key, "algorithm": sim.algorithm, "epsilon": panel.epsilon,
               "horizon": sim.horizon, "runs": sim.runs,
               "final_time_average_regret": float(sim.final_regret().mean()) / sim.horizon}
              for panel, sims in outcome.results for sim in sims]
    return {"files": [str(path) for path in outcome.files], "results": finals}


def _describe_reproduction(result: dict[str, Any]) -> str:
    lines = [f"{row['panel']}: {row['algorithm']} (epsilon={row['epsilon']:g}, T={row['horizon']}): "
             f"final time-average regret {row['final_time_average_regret']:.5g}"
             for row in result["results"]]
    return "\n".join(lines + [f"wrote {', '.join(result['files'])} [{result['seconds']:.1f} s]"])


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
