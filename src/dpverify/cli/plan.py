"""``dpverify plan``: the deployment parameters a privacy budget needs, without running anything.

``dpverify plan ALGORITHM`` prints the :class:`~dpverify.bandits.plan.DeploymentPlan`
of any of the 24 bandit algorithms; ``dp-sgd``, ``gaussian``, ``laplace``,
``shuffle`` and ``secure-aggregation`` plan the generic mechanisms. Exit status
0 when the plan meets the budget, 1 when it cannot (the reason on stderr).
"""

from __future__ import annotations

import argparse
from typing import Any

from dpverify.cli._choices import ALGORITHM_FAMILIES, NON_PRIVATE_ALGORITHMS
from dpverify.cli._core import (
    EXIT_NOT_MET,
    EXIT_OK,
    add_command,
    count,
    finite_float,
    privacy_text,
    rename_option,
    significant,
)
from dpverify.errors import DpverifyValueError

HELP = "deployment parameters for a privacy budget (no simulation)"
DESCRIPTION = ("Every parameter of a private deployment that meets (epsilon, delta): a bandit "
               "algorithm's noise, batches and communication (sound mode calibrates the noise "
               "to the request; paper mode shows the printed constants and whether their claim "
               "holds), or DP-SGD's noise multiplier, a Gaussian/Laplace scale, a shuffler's "
               "local epsilon or batch size, and secure aggregation's protocol parameters.")
EXAMPLES = (
    "dpverify plan dist-rdp-se --epsilon 1 --delta 1e-6 --horizon 1e6 --n-arms 10",
    "dpverify plan hanna-shuffled --epsilon 1 --horizon 1e6 --dimension 5 --n-arms 100 --mode paper",
    "dpverify plan sblb --epsilon 1 --horizon 1e6 --dimension 5 --n-arms 10 --json",
    "dpverify plan dp-sgd --dataset-size 60000 --batch-size 256 --epochs 10 --epsilon 3 --delta 1e-5",
    "dpverify plan gaussian --epsilon 1 --delta 1e-5 --count 100",
    "dpverify plan shuffle --epsilon 0.5 --delta 1e-6 --users 100000 --randomizer binary-rr",
    "dpverify plan secure-aggregation --epsilon 1 --delta 1e-6 --users 1000 --value-bound 1",
)


def configure(parser: argparse.ArgumentParser) -> None:
    targets = parser.add_subparsers(dest="target", required=True, metavar="TARGET",
                                    help="a bandit algorithm (" + ", ".join(ALGORITHM_FAMILIES)
                                         + ") or dp-sgd, gaussian, laplace, shuffle, "
                                           "secure-aggregation")
    for name, family in ALGORITHM_FAMILIES.items():
        sub = add_command(targets, name, help=f"{family} bandit algorithm {name}",
                          examples=_examples_for(name, family))
        _configure_algorithm(sub, family, sblb=name.startswith("sblb"))
    _configure_dp_sgd(add_command(targets, "dp-sgd", help="DP-SGD's noise multiplier or epsilon",
                                  examples=EXAMPLES[3:4]))
    for kind in ("gaussian", "laplace"):
        _configure_noise(add_command(targets, kind, help=f"the {kind} noise of k releases",
                                     examples=(f"dpverify plan {kind} --epsilon 1 --delta 1e-5 "
                                               "--count 100",)), kind)
    _configure_shuffle(add_command(targets, "shuffle", examples=EXAMPLES[5:6],
                                   help="a shuffler's largest local epsilon, or fewest users"))
    _configure_secure_aggregation(add_command(
        targets, "secure-aggregation", examples=EXAMPLES[6:7],
        help="Pólya / Skellam / discrete-Gaussian secure-aggregation parameters"))


def _examples_for(name: str, family: str) -> tuple[str, ...]:
    listed = tuple(line for line in EXAMPLES[:3] if f"plan {name} " in line)
    if listed:
        return listed
    budget = "" if name in NON_PRIVATE_ALGORITHMS else " --epsilon 1"
    sizes = {"multi-armed": " --n-arms 10", "linear": " --dimension 5 --n-arms 100",
             "contextual": " --dimension 5 --n-arms 10"}[family]
    return (f"dpverify plan {name}{budget} --horizon 1e6{sizes}",
            f"dpverify plan {name}{budget} --horizon 1e6{sizes} --mode paper --json")


def _common(parser: argparse.ArgumentParser, handler: Any, describe: Any) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=handler, describe=describe, context=_context,
                        option_aliases={"n_arms": "--n-arms", "dimension": "--dimension",
                                        "name": "TARGET", "users": "--users", "n": "--n"})


# ---------------------------------------------------------------------------- bandits


def _configure_algorithm(parser: argparse.ArgumentParser, family: str, *, sblb: bool = False
                         ) -> None:
    parser.add_argument("--epsilon", type=finite_float, default=None,
                        help="requested total epsilon (required for the private algorithms)")
    parser.add_argument("--delta", type=finite_float, default=None,
                        help="requested total delta (default 1e-6; 0.25 for dpdpe-*)")
    parser.add_argument("--horizon", type=count, required=True, help="horizon T")
    parser.add_argument("--n-arms", type=count,
                        default={"multi-armed": 10, "linear": 100}.get(family),
                        help="number of actions k" if family == "linear" else "number of arms K")
    rename_option(parser, "--actions" if family == "linear" else "--arms", "--n-arms")
    if family in ("linear", "contextual"):
        parser.add_argument("--dimension", type=count, default=5, help="dimension d")
        rename_option(parser, "--dim", "--dimension")
    parser.add_argument("--mode", choices=("sound", "paper"), default="sound",
                        help="sound: the noise calibrated so that the total guarantee meets the "
                             "request; paper: the printed constants (their true guarantee shown)")
    parser.add_argument("--calibration", choices=("paper", "exact"), default="paper",
                        help="exact: use an exact analysis where it allows less noise")
    if sblb:  # as `dpverify simulate` takes them
        parser.add_argument("--regime", choices=("cor8", "cor7"), default="cor8",
                            help="SBLB's parameter choice: Garcelon et al. 2022, Cor. 8 or Cor. 7")
        parser.add_argument("--batch-form", choices=("derived", "printed"), default="derived",
                            help="Thm 5's Eq. (3) for the shuffler batch length (derived: 2 - 2p)")
    _common(parser, _plan_algorithm, _describe_algorithm)


def _plan_algorithm(args: argparse.Namespace) -> dict[str, Any]:
    from dpverify.bandits.registry import plan_deployment  # deferred: keeps CLI start-up light

    sizes = {"n_arms": args.n_arms, "dimension": getattr(args, "dimension", None)}
    options = ({"regime": args.regime, "batch_form": args.batch_form}
               if hasattr(args, "batch_form") else {})
    plan = plan_deployment(args.target, horizon=args.horizon, epsilon=args.epsilon,
                           delta=args.delta, mode=args.mode, calibration=args.calibration,
                           **sizes, **options)
    out = plan.to_dict()
    warnings = []
    if not plan.claim_met:
        warnings.append(_not_met(plan))
    out.update(_status=EXIT_OK if plan.claim_met else EXIT_NOT_MET, _warnings=warnings)
    return out


def _not_met(plan: Any) -> str:
    requested = plan.requested
    wanted = privacy_text(requested.epsilon, requested.delta)
    if plan.infeasible is not None:
        where = ("" if plan.feasible_horizon is None else
                 f"; feasible from T = {plan.feasible_horizon}")
        where += ("" if plan.feasible_epsilon is None else
                  f"; needs epsilon <= {significant(plan.feasible_epsilon, rounding='down')}")
        given = plan.guarantee
        if given is not None and given.epsilon <= requested.epsilon and given.delta <= requested.delta:
            return (f"{plan.algorithm}'s guarantee {privacy_text(given.epsilon, given.delta)} is "
                    f"within the requested {wanted}, but the plan is not deployable: "
                    f"{plan.infeasible}{where}")
        return f"{plan.algorithm} cannot meet {wanted}: {plan.infeasible}{where}"
    given = plan.guarantee
    return (f"{plan.algorithm} ({plan.mode} mode) does not meet the requested {wanted}: its "
            f"guarantee is {privacy_text(given.epsilon, given.delta)}")


def _guarantee_text(value: Any) -> str:
    if value is None:
        return "none"
    kind = value.get("type")
    if kind == "pure-dp":
        return privacy_text(value["epsilon"])
    if kind == "approx-dp":
        return privacy_text(value["epsilon"], value["delta"])
    if kind == "zcdp":
        return f"{significant(value['rho'], rounding='up')}-zCDP"
    if kind == "rdp":  # its ends, so that different curves read differently
        orders, epsilons = value["orders"], value["epsilons"]
        ends = sorted({0, len(orders) - 1})
        return "RDP " + ", ".join(f"epsilon(order {significant(orders[i])}) = "
                                  f"{significant(epsilons[i], rounding='up')}" for i in ends)
    return str(value)


def _cell(value: Any) -> str:
    if isinstance(value, dict):
        return _guarantee_text(value)
    if isinstance(value, list):
        return ", ".join(_cell(item) for item in value)
    if isinstance(value, float):
        return significant(value)
    return "-" if value is None else str(value)


def _table(records: list[dict[str, Any]]) -> list[str]:
    """Records as aligned columns; a column equal in every record is printed once, above."""
    columns: list[str] = []
    for record in records:
        columns += [key for key in record if key not in columns]
    constant = [key for key in columns if len(records) > 1
                and len({_cell(record.get(key)) for record in records}) == 1]
    columns = [key for key in columns if key not in constant]
    head = ["  every record: " + ", ".join(f"{key}={_cell(records[0].get(key))}"
                                          for key in constant)] if constant else []
    rows = [[_cell(record.get(key)) for key in columns] for record in records]
    widths = [max(len(key), *(len(row[i]) for row in rows)) for i, key in enumerate(columns)]
    lines = [*head, "  " + "  ".join(key.ljust(w) for key, w in zip(columns, widths)).rstrip()]
    lines += ["  " + "  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip()
              for row in rows]
    return lines


def _within(guarantee: dict[str, Any] | None, requested: dict[str, Any]) -> bool:
    """Whether an (ε, δ) or pure guarantee lies inside the requested (ε, δ)."""
    if guarantee is None or guarantee.get("type") not in ("pure-dp", "approx-dp"):
        return False
    return (guarantee["epsilon"] <= requested["epsilon"]
            and guarantee.get("delta", 0.0) <= requested.get("delta", 0.0))


def _status(result: dict[str, Any]) -> str:
    """The label beside the guarantee: met, NOT met, or the other reason the plan fails.

    A guarantee inside the budget is never labelled "claim NOT met": when such a plan fails,
    it fails for another reason (a shuffler batch longer than the horizon, say), and the
    label names it (the ``infeasible`` text up to its first colon).
    """
    if result["claim_met"]:
        return "claim met"
    if result["infeasible"]:
        reason = result["infeasible"].split(":")[0]
        if _within(result["guarantee"], result["requested"]):
            return f"within the budget, but not deployable: {reason}"
        if result["guarantee"] is None:
            return f"not deployable: {reason}"
    return "claim NOT met"


def _describe_algorithm(result: dict[str, Any]) -> str:
    instance = ", ".join(f"{key}={value}" for key, value in result["instance"].items())
    status = _status(result)
    lines = [f"{result['algorithm']} ({result['target']}): {result['mode']} mode, "
             f"{result['model']} model, T={result['horizon']}" + (f", {instance}" if instance else ""),
             f"requested : {_guarantee_text(result['requested'])}",
             f"guarantee : {_guarantee_text(result['guarantee'])}   [{status}]",
             f"per batch : {_guarantee_text(result['per_batch'])}"]
    if result["infeasible"]:
        lines.append(f"infeasible: {result['infeasible']}")
        if result["feasible_horizon"] is not None:
            lines.append(f"feasible from T = {result['feasible_horizon']}")
    lines += ["", "parameters"]
    width = max((len(key) for key in result["parameters"]), default=0)
    lines += [f"  {key.ljust(width)}  {_cell(value)}" for key, value in result["parameters"].items()]
    if result["schedule"]:
        lines += ["", f"schedule ({len(result['schedule'])} records)", *_table(result["schedule"])]
    lines += ["", "notes", *(f"  - {note}" for note in result["notes"])]
    return "\n".join(lines)


# ---------------------------------------------------------------------------- generic plans


def _configure_dp_sgd(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dataset-size", type=count, required=True, help="records N")
    parser.add_argument("--batch-size", type=count, required=True,
                        help="expected (Poisson) batch size B; sampling probability q = B/N")
    length = parser.add_mutually_exclusive_group(required=True)
    length.add_argument("--epochs", type=finite_float, help="epochs E (steps = ceil(E N / B))")
    length.add_argument("--steps", type=count, help="steps S")
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--epsilon", type=finite_float, help="epsilon budget: find sigma")
    target.add_argument("--noise-multiplier", type=finite_float, help="sigma: find epsilon")
    parser.add_argument("--delta", type=finite_float, required=True, help="delta")
    parser.add_argument("--method", choices=("pld", "rdp"), default="pld", help="accountant")
    _common(parser, _plan_dp_sgd, _describe_generic)


def _plan_dp_sgd(args: argparse.Namespace) -> dict[str, Any]:
    from dpverify.accountants.calibrate.dp_sgd import (  # deferred: keeps CLI start-up light
        dp_sgd_epsilon,
        min_noise_multiplier,
        training_schedule,
    )

    if args.batch_size > args.dataset_size:
        raise DpverifyValueError(f"--batch-size {args.batch_size} must be at most "
                                 f"--dataset-size {args.dataset_size}")
    if args.steps is None and not args.epochs > 0:
        raise DpverifyValueError(f"--epochs {args.epochs} must be positive")
    # steps = ceil(E N / B) exactly: account dp-sgd and min_noise_multiplier count the same
    q, steps = training_schedule(None, args.steps, args.epochs, args.dataset_size, args.batch_size)
    sigma = args.noise_multiplier
    if sigma is None:
        sigma = min_noise_multiplier(epsilon=args.epsilon, delta=args.delta,
                                     dataset_size=args.dataset_size, batch_size=args.batch_size,
                                     steps=steps, method=args.method)
    epsilon = dp_sgd_epsilon(noise_multiplier=sigma, delta=args.delta, sampling_probability=q,
                             steps=steps, method=args.method)
    met = args.epsilon is None or epsilon <= args.epsilon
    text = (f"DP-SGD: q = B/N = {significant(q)}, {steps} steps: noise multiplier sigma = "
            f"{significant(sigma, rounding='up')} gives {privacy_text(epsilon, args.delta)} "
            f"({args.method})")
    return {"sampling_probability": q, "steps": steps, "noise_multiplier": sigma,
            "guarantee": {"type": "approx-dp", "epsilon": epsilon, "delta": args.delta},
            "requested": None if args.epsilon is None else
            {"type": "approx-dp", "epsilon": args.epsilon, "delta": args.delta},
            "claim_met": met, "method": args.method, "_text": text,
            "_status": EXIT_OK if met else EXIT_NOT_MET}


def _configure_noise(parser: argparse.ArgumentParser, kind: str) -> None:
    parser.add_argument("--epsilon", type=finite_float, required=True, help="total epsilon")
    parser.add_argument("--delta", type=finite_float, required=kind == "gaussian",
                        default=None if kind == "gaussian" else 0.0,
                        help="total delta" + ("" if kind == "gaussian" else " (0: pure DP)"))
    parser.add_argument("--count", type=count, default=1, help="releases k")
    parser.add_argument("--sensitivity", type=finite_float, default=1.0, help="sensitivity")
    rename_option(parser, "--compositions", "--count")
    _common(parser, _plan_noise, _describe_generic)


def _plan_noise(args: argparse.Namespace) -> dict[str, Any]:
    from dpverify.accountants import calibrate  # deferred: keeps CLI start-up light

    common = {"count": args.count, "sensitivity": args.sensitivity}
    if args.target == "gaussian":
        scale = calibrate.min_gaussian_sigma(args.epsilon, args.delta, **common)
        epsilon = calibrate.gaussian_epsilon(scale, delta=args.delta, **common)
        name = "sigma"
    else:
        scale = calibrate.min_laplace_scale(args.epsilon, args.delta, **common)
        epsilon = calibrate.laplace_epsilon(scale, delta=args.delta, **common)
        name = "scale_b"
    text = (f"{args.target}: {args.count} release(s) at sensitivity "
            f"{significant(args.sensitivity)}: {name} = {significant(scale, rounding='up')} "
            f"gives {privacy_text(epsilon, args.delta)}")
    return {name: scale, "guarantee": {"type": "approx-dp", "epsilon": epsilon,
                                       "delta": args.delta},
            "claim_met": epsilon <= args.epsilon, "_text": text,
            "_status": EXIT_OK if epsilon <= args.epsilon else EXIT_NOT_MET}


def _configure_shuffle(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--epsilon", type=finite_float, required=True, help="central epsilon")
    parser.add_argument("--delta", type=finite_float, required=True, help="central delta")
    parser.add_argument("--users", type=count, default=None,
                        help="users per shuffle: find the largest local epsilon (epsilon_0)")
    parser.add_argument("--local-epsilon", type=finite_float, default=None,
                        help="each user's epsilon_0: find the fewest users")
    parser.add_argument("--randomizer", choices=("generic", "binary-rr", "k-rr"),
                        default="generic",
                        help="generic epsilon_0-LDP (FMT bounds), binary randomized response "
                             "(the exact shuffled analysis), or k-ary randomized response")
    parser.add_argument("--categories", type=count, default=2,
                        help="number k of categories of --randomizer k-rr")
    rename_option(parser, "--n", "--users")
    rename_option(parser, "--k", "--categories")
    _common(parser, _plan_shuffle, _describe_generic)


def _plan_shuffle(args: argparse.Namespace) -> dict[str, Any]:
    from dpverify.accountants.shuffle import max_local_epsilon, min_batch_size  # deferred: keeps CLI start-up light
    from dpverify.mechanisms.randomized_response import (  # deferred: keeps CLI start-up light
        BinaryRandomizedResponse,
        RandomizedResponse,
    )

    if (args.users is None) == (args.local_epsilon is None):
        raise DpverifyValueError("give exactly one of --users (find the local epsilon) and "
                                 "--local-epsilon (find the fewest users)")
    family = {"generic": None, "binary-rr": BinaryRandomizedResponse.from_epsilon,
              "k-rr": lambda e: RandomizedResponse(args.categories, e)}[args.randomizer]
    out: dict[str, Any] = {"randomizer": args.randomizer, "bound": "best"}
    if args.users is not None:
        local = max_local_epsilon(args.epsilon, args.users, args.delta, bound="best",
                                  randomizer_family=family)
        out.update(users=args.users, local_epsilon=local)
        text = (f"largest local_epsilon for {args.users} users ({args.randomizer}): "
                f"{significant(local, rounding='down')}")
    else:
        randomizer = None if family is None else family(args.local_epsilon)
        users = min_batch_size(args.local_epsilon, args.epsilon, args.delta, bound="best",
                               randomizer=randomizer)
        out.update(users=users, local_epsilon=args.local_epsilon)
        text = (f"fewest users for local_epsilon = {significant(args.local_epsilon)}: "
                f"{users}")
    if args.randomizer == "binary-rr":
        text += _binary_rr_probabilities(out)
    text += f" meets {privacy_text(args.epsilon, args.delta)} (bound best)"
    return {**out, "claim_met": True, "_text": text}


def _binary_rr_probabilities(out: dict[str, Any]) -> str:
    """Add binary RR's p and p/2 to ``out``; the text that says both.

    ``p`` (rounded up, so the randomizer is at most ``local_epsilon``-LDP) is the probability
    of replacing the bit by a fair coin (Garcelon et al. 2022, Alg. 3); the bit then flips with
    probability ``p/2``. A deployer who flips with probability ``p`` adds twice the noise.
    """
    from dpverify.mechanisms.randomized_response import (  # deferred: keeps CLI start-up light
        binary_randomization_probability,
    )

    p = binary_randomization_probability(out["local_epsilon"])
    out.update(randomization_probability=p, flip_probability=p / 2)
    return (f" (randomization probability p = {significant(p, rounding='up')}: each bit is "
            f"replaced by a fair coin with probability p, so it flips with probability "
            f"p/2 = {significant(p / 2, rounding='up')})")


def _configure_secure_aggregation(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--epsilon", type=finite_float, required=True, help="epsilon of the sum")
    parser.add_argument("--delta", type=finite_float, default=1e-6,
                        help="delta at which Skellam / discrete Gaussian are converted")
    parser.add_argument("--users", type=count, required=True, help="users n in the sum")
    parser.add_argument("--value-bound", type=finite_float, default=1.0,
                        help="each user's value lies in [0, B]")
    rename_option(parser, "--bound", "--value-bound")
    parser.add_argument("--failure-probability", type=finite_float, default=1e-6,
                        help="p of the modulus' accuracy tau (the probability that the sum wraps "
                             "around)")
    rename_option(parser, "--tail-probability", "--failure-probability")
    parser.add_argument("--scale-factor", type=finite_float, default=10.0,
                        help="s of the Skellam / discrete-Gaussian precision g = ceil(s eps sqrt n)")
    _common(parser, _plan_secure_aggregation, _describe_generic)


def _plan_secure_aggregation(args: argparse.Namespace) -> dict[str, Any]:
    from dpverify.bandits.mab import secure_aggregation_plans  # deferred: keeps CLI start-up light

    rows = secure_aggregation_plans(args.epsilon, args.delta, users=args.users, value_bound=args.value_bound,
                                    failure_probability=args.failure_probability,
                                    scale_factor=args.scale_factor)
    met = all(row["claim_met"] for row in rows)
    text = "\n".join([f"secure aggregation of {args.users} values in [0, {significant(args.value_bound)}]"
                      f" at {privacy_text(args.epsilon, args.delta)}", *_table(rows)])
    return {"protocols": rows, "claim_met": met, "_text": text,
            "_status": EXIT_OK if met else EXIT_NOT_MET}


# ---------------------------------------------------------------------------- shared


def _describe_generic(result: dict[str, Any]) -> str:
    return result.get("_text", str(result))


def _context(args: argparse.Namespace) -> dict[str, Any]:
    return {"target": args.target}
