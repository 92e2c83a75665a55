"""``dpverify simulate``: run a (private) bandit algorithm; report its regret and guarantee."""

from __future__ import annotations

import argparse
from typing import Any

from dpverify.cli._choices import (
    ALGORITHM_FAMILIES,
    CONTEXTUAL_ALGORITHMS,
    LINEAR_INSTANCES,
    REWARD_FAMILIES,
)
from dpverify.cli._core import (
    EXIT_NOT_MET,
    EXIT_OK,
    add_execution_options,
    count,
    execution_options,
    finite_float,
    guarantee_json,
    privacy_text,
    rename_option,
    seed,
)
from dpverify.errors import DpverifyTypeError, DpverifyValueError

HELP = "simulate a (private) bandit algorithm and report its regret"
DESCRIPTION = ("Run a bandit algorithm of Tenenbaum et al. 2021 / Chowdhury & Zhou 2023 (multi-armed), "
               "Hanna et al. 2022 / Li, Zhou & Ji 2022 (linear) or Garcelon et al. 2022 (contextual) on random "
               "instances (a fresh instance per run) and print its final regret and "
               "privacy guarantee.")
EXAMPLES = (
    "dpverify simulate --algorithm dist-dp-se --epsilon 0.5 --horizon 1e5 --runs 10",
    "dpverify simulate --algorithm hanna-shuffled --epsilon 1 --horizon 1e6 --mode sound --json",
    "dpverify simulate --algorithm sblb --epsilon 1 --horizon 1e5 --dimension 5 --n-arms 10",
)

def configure(simulate: argparse.ArgumentParser) -> None:
    simulate.add_argument("--algorithm", choices=tuple(ALGORITHM_FAMILIES), required=True,
                          metavar="ALGORITHM",
                          help="the algorithm: " + ", ".join(ALGORITHM_FAMILIES))
    simulate.add_argument("--instance", choices=("easy", "hard", "mslr-synthetic",
                                                 *LINEAR_INSTANCES, *CONTEXTUAL_INSTANCES),
                          default=None,
                          help="instance family (default easy; sphere for hanna-*, dpdpe for "
                               "dpdpe-*/dpe*, contextual for sblb*/linucb/ldp-linucb; "
                               "mslr-synthetic: a synthetic stand-in for MSLR-WEB10K; "
                               "contextual[-correlated]: Garcelon et al. 2022's linear contextual bandit)")
    simulate.add_argument("--n-arms", type=count, default=None,
                          help="number of arms K, or of actions k of the linear instances "
                               "(default 10; 50 for mslr-synthetic, 1000 for dpdpe)")
    simulate.add_argument("--rewards", choices=REWARD_FAMILIES, default=None,
                          help="reward law of easy/hard (default bernoulli for sdp-ae/vb-sdp-ae, "
                               "else clipped-gaussian)")
    simulate.add_argument("--epsilon", type=finite_float, default=None, help="privacy parameter epsilon")
    simulate.add_argument("--delta", type=finite_float, default=None,
                          help="delta (Tenenbaum et al.'s delta; RDP/zCDP are reported at it; default "
                               "1e-6, 0.25 for dpdpe-*)")
    simulate.add_argument("--horizon", type=count, required=True, help="horizon T")
    simulate.add_argument("--runs", type=count, default=1, help="independent runs")
    simulate.add_argument("--seed", type=seed, default=0, help="seed of the spawned streams")
    add_execution_options(simulate)
    simulate.add_argument("--instance-file", default=None, metavar="FILE",
                          help="a user-defined instance instead of a random family: .json/.toml "
                               "with means (and rewards: bernoulli|clipped-gaussian), or theta "
                               "and actions (linear algorithms)")
    simulate.add_argument("--batch-base", type=count, default=None,
                          help="the batch growth l(b) = base^b of Chowdhury & Zhou 2023 (default 2)")
    simulate.add_argument("--failure-probability", type=finite_float, default=None,
                          help="p, the probability that the confidence radii fail, in (0, 0.5] "
                               "(default 1/T; the papers' plots use 0.1)")
    simulate.add_argument("--scale-factor", type=finite_float, default=None,
                          help="s of dist-rdp-se / dist-cdp-se (default 10)")
    _add_linear_simulate_options(simulate)
    _add_contextual_options(simulate)
    simulate.add_argument("--per-user", action="store_true",
                          help="run every user's randomizer (slow, auditable path)")
    simulate.add_argument("--progress", action="store_true", help="progress bar over runs")
    simulate.add_argument("--json", action="store_true", help="print one JSON object")
    for old, new in (("--arms", "--n-arms"), ("--actions", "--n-arms"), ("--dim", "--dimension"),
                     ("--confidence", "--failure-probability")):
        rename_option(simulate, old, new)
    simulate.set_defaults(handler=_simulate_command, context=_simulate_context,
                          describe=_describe_simulation,
                          option_aliases={"name": "--algorithm", "n_jobs": "--jobs",
                                          "n_arms": "--n-arms",
                                          "failure_probability": "--failure-probability"})


def _simulate_options(args: argparse.Namespace) -> dict[str, Any]:
    names = {"batch_base": "batch_base", "failure_probability": "failure_probability",
             "scale_factor": "scale_factor"}
    return {key: getattr(args, attr) for key, attr in names.items()
            if getattr(args, attr) is not None}


def _simulate_command(args: argparse.Namespace) -> dict[str, Any]:
    if _is_contextual(args):
        return _contextual_simulate(args)
    from dpverify.bandits import make_algorithm  # deferred: keeps CLI start-up light
    from dpverify.bandits.environments import instance_family  # deferred: keeps CLI start-up light
    from dpverify.bandits.linear import LINEAR_ALGORITHM_NAMES  # deferred: keeps CLI start-up light
    from dpverify.bandits.simulate import simulate  # deferred: keeps CLI start-up light

    if args.algorithm in LINEAR_ALGORITHM_NAMES:
        return _linear_simulate(args)
    args.instance = args.instance or "easy"
    args.delta = 1e-6 if args.delta is None else args.delta
    rewards = args.rewards or ("bernoulli" if args.algorithm in ("sdp-ae", "vb-sdp-ae", "ae")
                               else "clipped-gaussian")
    family = _user_instance(args, linear=False) or instance_family(args.instance,
                                                                   n_arms=args.n_arms,
                                                                   rewards=rewards)
    algorithm = make_algorithm(args.algorithm, epsilon=args.epsilon, delta=args.delta,
                               mode=args.mode, **_simulate_options(args))
    result = simulate(algorithm, family, args.horizon, runs=args.runs, seed=args.seed,
                      progress=args.progress, per_user=args.per_user, **execution_options(args))
    return _simulation_json(result, args, n_arms=family.n_arms)


def _user_instance(args: argparse.Namespace, *, linear: bool) -> Any:
    """The ``--instance-file`` instance (``None`` without it); it must fit the algorithm's family."""
    if args.instance_file is None:
        return None
    from dpverify.bandits.instance_files import load_instance  # deferred: keeps CLI start-up light

    try:
        instance = load_instance(args.instance_file)
    except (DpverifyValueError, DpverifyTypeError) as error:  # name the option typed
        raise type(error)(f"--instance-file {args.instance_file}: {error}") from None
    if instance.linear != linear:
        need = "theta and actions" if linear else "means"
        raise DpverifyValueError(f"--instance-file {args.instance_file} must give {need} for "
                                 f"--algorithm {args.algorithm}")
    args.instance = instance.name
    return instance


def _simulation_json(result: Any, args: argparse.Namespace, **extra: Any) -> dict[str, Any]:
    """The JSON keys every ``dpverify simulate`` shares, then the family's ``extra`` ones."""
    summary, guarantee = result.summary(), result.guarantee
    warnings = []
    if not result.claim_met:
        requested, given = result.requested, guarantee.approx_dp
        warnings.append(
            f"{args.algorithm} in {args.mode} mode does not meet the requested "
            f"{privacy_text(requested.epsilon, requested.delta)}: its guarantee is "
            + ("none" if given is None else privacy_text(given.epsilon, given.delta))
            + ("" if args.mode == "sound" else
               f" (the paper's constants; `dpverify plan {args.algorithm} --mode sound` says "
               f"whether the sound mode can meet it)"))
    return {"final_time_average_regret": summary["final_time_average_regret"],
            "final_regret_std": summary["final_regret_std"],
            **{k: v for k, v in summary.items() if k.startswith("final_")},
            "epsilon": args.epsilon, "delta": args.delta,
            "guarantee_model": summary["model"], "guarantee_epsilon": summary["epsilon"],
            "guarantee_delta": summary["delta"],
            "guarantee_per_batch": (None if guarantee is None
                                    else guarantee_json(guarantee.per_batch)),
            "mode": args.mode, "requested": guarantee_json(result.requested),
            "claim_met": result.claim_met,
            "algorithm_label": result.algorithm, "environment": result.environment,
            "simulation_seconds": result.seconds, "_warnings": warnings,
            "_status": EXIT_OK if result.claim_met else EXIT_NOT_MET, **extra}


def _add_linear_simulate_options(simulate: Any) -> None:
    simulate.add_argument("--mode", choices=("sound", "paper"), default="sound",
                          help="sound: the run's total guarantee meets --epsilon/--delta (noise "
                               "calibrated: Dist-RDP/CDP-SE's noise epsilon, Hanna et al.'s Lap(2/eps) "
                               "and correct widths, DP-DPE's analytic Gaussian, SBLB's internal "
                               "target and delta split); paper: the printed constants (a warning "
                               "on stderr when the true guarantee misses the request)")
    simulate.add_argument("--dimension", type=count, default=None,
                          help="dimension d of the linear and contextual instances (default 2 "
                               "sphere, 20 dpdpe, 5 contextual); the linear instances' actions "
                               "and theta* are uniform on the unit sphere; sphere rewards are +-1 "
                               "with mean <x, theta*>; dpdpe clients have theta_u = theta* + "
                               "N(0, 0.1^2 I), N(0, 1) reward noise, B = 1, |U| = 10^5")
    simulate.add_argument("--fixed-users", default=None, metavar="U|RULE",
                          help="dpe-fixedu's clients per phase: an integer, equal-communication "
                               "(default: U whose simulated communication equals DPE's on 20 runs) "
                               "or nominal (the constant-support rule, 2.8x DPE's at T = 10^6)")


def _linear_simulate(args: argparse.Namespace) -> dict[str, Any]:
    """``dpverify simulate`` for the linear algorithms (hanna-*, dpdpe-*, dpe, dpe-fixedu)."""
    from dpverify.bandits import make_algorithm  # deferred: keeps CLI start-up light
    from dpverify.bandits.linear.environments import (  # deferred: keeps CLI start-up light
        LINEAR_INSTANCES,
        LinearInstanceFamily,
    )
    from dpverify.bandits.simulate import simulate  # deferred: keeps CLI start-up light

    hanna = args.algorithm.startswith("hanna")
    args.instance = args.instance or ("sphere" if hanna else "dpdpe")
    if args.instance_file is not None and not hanna:
        raise DpverifyValueError(f"--instance-file: --algorithm {args.algorithm} needs DP-DPE's "
                                 "distributed population (--instance dpdpe)")
    if args.instance not in LINEAR_INSTANCES:
        raise DpverifyValueError(f"--instance {args.instance} must be one of "
                                 f"{', '.join(LINEAR_INSTANCES)} for --algorithm {args.algorithm}")
    if not hanna and args.instance != "dpdpe":
        raise DpverifyValueError(f"--instance {args.instance} must be dpdpe for "
                                 f"--algorithm {args.algorithm}")
    k = args.n_arms or (10 if args.instance == "sphere" else 1000)
    d = args.dimension or (2 if args.instance == "sphere" else 20)
    args.delta = args.delta if args.delta is not None else (1e-6 if hanna else 0.25)
    options: dict[str, Any] = {}
    if args.algorithm == "dpe-fixedu":
        options.update(horizon=args.horizon, dimension=d, n_arms=k, users=_fixed_users(args))
    if args.failure_probability is not None and not hanna:
        options["failure_probability"] = args.failure_probability
    user = _user_instance(args, linear=True)
    if user is not None:
        k, d = user.k, user.d
        if args.algorithm == "dpe-fixedu":
            options.update(dimension=d, n_arms=k)
    algorithm = make_algorithm(args.algorithm, epsilon=args.epsilon, delta=args.delta,
                               mode=args.mode, **options)
    family = user or LinearInstanceFamily(args.instance, dimension=d, n_arms=k)
    result = simulate(algorithm, family, args.horizon, runs=args.runs, seed=args.seed,
                      progress=args.progress, per_user=args.per_user, **execution_options(args))
    summary, guarantee = result.summary(), result.guarantee
    out = _simulation_json(result, args, n_arms=k, dimension=d,
                           guarantee_notes=None if guarantee is None else guarantee.notes)
    if "communication_cost" in summary:
        out["communication_cost"] = summary["communication_cost"]
    return out


def _fixed_users(args: argparse.Namespace) -> int | str:
    """``--fixed-users``: an integer U, or the rule that sizes it (default equal communication)."""
    value = "equal-communication" if args.fixed_users is None else args.fixed_users
    if value.isdigit() and int(value) >= 1:
        return int(value)
    if value not in ("equal-communication", "nominal"):
        raise DpverifyValueError(f"--fixed-users {value!r} must be equal-communication, nominal "
                                 "or an integer >= 1")
    return value


#: Instances of the contextual algorithms (Garcelon et al. 2022).
CONTEXTUAL_INSTANCES = ("contextual", "contextual-correlated")


def _add_contextual_options(simulate: Any) -> None:
    simulate.add_argument("--regime", choices=("cor8", "cor7"), default="cor8",
                          help="SBLB's parameter choice: Garcelon et al. 2022, Cor. 8 (default) or Cor. 7")
    simulate.add_argument("--batch-form", choices=("derived", "printed"), default="derived",
                          help="Thm 5's Eq. (3) for the shuffler batch length (derived: 2 - 2p)")
    simulate.add_argument("--radius-scale", type=finite_float, default=None,
                          help="multiply the contextual algorithms' confidence radius (default 1)")


def _is_contextual(args: argparse.Namespace) -> bool:
    contextual = args.algorithm in CONTEXTUAL_ALGORITHMS
    if contextual and args.instance is None:
        args.instance = "contextual"
    if contextual != (args.instance in CONTEXTUAL_INSTANCES):
        raise DpverifyValueError(f"--algorithm {args.algorithm} needs --instance "
                         f"{'contextual[-correlated]' if contextual else 'of its own family'} "
                         f"(got --instance {args.instance})")
    return contextual


def _contextual_simulate(args: argparse.Namespace) -> dict[str, Any]:
    """``simulate`` for Garcelon et al. 2022's contextual algorithms: the MAB keys + local_epsilon, batch_length."""
    from dpverify.bandits import make_algorithm  # deferred: keeps CLI start-up light
    from dpverify.bandits.contextual import ContextualInstanceFamily  # deferred: keeps CLI start-up light
    from dpverify.bandits.simulate import simulate  # deferred: keeps CLI start-up light

    args.delta = 1e-6 if args.delta is None else args.delta
    generator = "correlated" if args.instance == "contextual-correlated" else "sphere"
    family = ContextualInstanceFamily(n_arms=args.n_arms or 10, dimension=args.dimension or 5,
                                      generator=generator)
    options: dict[str, Any] = {}
    if args.radius_scale is not None:
        options["radius_scale"] = args.radius_scale
    if args.algorithm.startswith("sblb"):
        options.update(regime=args.regime, batch_form=args.batch_form)
    algorithm = make_algorithm(args.algorithm, epsilon=args.epsilon, delta=args.delta,
                               mode=args.mode, **options)
    if args.instance_file is not None:
        raise DpverifyValueError("--instance-file is for multi-armed and linear algorithms; "
                                 f"--algorithm {args.algorithm} draws contexts from its family")
    result = simulate(algorithm, family, args.horizon, runs=args.runs, seed=args.seed,
                      progress=args.progress, per_user=args.per_user, **execution_options(args))
    dims = {"horizon": args.horizon, "dimension": family.dimension}
    length = algorithm.parameters(**dims).batch_length if hasattr(algorithm, "parameters") else None
    return _simulation_json(
        result, args, n_arms=family.n_arms, dimension=family.dimension,
        local_epsilon=algorithm.local_epsilon(**dims), batch_length=length,
        guarantee_epsilon_by_composition=(algorithm.total_epsilons(**dims)
                                          if hasattr(algorithm, "total_epsilons") else None))


def _simulate_context(args: argparse.Namespace) -> dict[str, Any]:
    return {"command": "simulate", "algorithm": args.algorithm, "instance": args.instance,
            "horizon": args.horizon, "runs": args.runs, "seed": args.seed,
            "per_user": args.per_user}


def _describe_simulation(result: dict[str, Any]) -> str:
    privacy = ("non-private" if result["guarantee_model"] in (None, "none") else
               f"{privacy_text(result['guarantee_epsilon'], result['guarantee_delta'])}"
               f" [{result['guarantee_model']}]")
    return (f"{result['algorithm_label']} on {result['environment']}, T={result['horizon']}, "
            f"{result['runs']} run(s): final time-average regret "
            f"{result['final_time_average_regret']:.6g} (std of Reg(T) over runs "
            f"{result['final_regret_std']:.4g}); {privacy}"
            + ("" if result.get("claim_met", True) else " (does NOT meet the request)")
            + f"; {result['seconds']:.2f} s")
