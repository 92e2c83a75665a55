"""``dpverify reproduce``: re-run a paper figure; write its CSV and PNG."""

from __future__ import annotations

import argparse
from typing import Any

from dpverify.cli._choices import EXPERIMENTS, SCALES
from dpverify.cli._core import add_execution_options, count, execution_options, rename_option, seed
from dpverify.errors import DpverifyValueError

HELP = "reproduce a paper figure (CSV and PNG)"
EXAMPLES = (
    "dpverify reproduce chowdhury2023-fig1 --preset quick --panels b --out figures/",
)

def configure(reproduce: argparse.ArgumentParser) -> None:
    reproduce.description = ("Run a named experiment of dpverify.bandits.experiments and write "
                             "<name>.csv and <name>.png.")
    reproduce.add_argument("name", choices=EXPERIMENTS, metavar="NAME",
                           help="the experiment: " + ", ".join(EXPERIMENTS))
    reproduce.add_argument("--preset", choices=SCALES, default="quick",
                           help="run-size preset: quick (T/10, 5 runs) or full (the paper's)")
    rename_option(reproduce, "--scale", "--preset")
    reproduce.add_argument("--out", default=".", help="output directory (default: .)")
    reproduce.add_argument("--seed", type=seed, default=0, help="seed of the spawned streams")
    add_execution_options(reproduce)
    reproduce.add_argument("--panels", default=None,
                           help="comma-separated panel keys to run (default: all)")
    reproduce.add_argument("--runs", type=count, default=None,
                           help="runs per algorithm (default: the preset's)")
    reproduce.add_argument("--format", choices=("png", "pdf", "svg"), default="png",
                           dest="image_format", help="figure file format (default: png)")
    reproduce.add_argument("--progress", action="store_true", help="progress bar over runs")
    reproduce.add_argument("--json", action="store_true", help="print one JSON object")
    reproduce.set_defaults(handler=_reproduce_command, option_aliases={"n_jobs": "--jobs"},
                           context=lambda args: {"command": "reproduce", "name": args.name,
                                                 "preset": args.preset, "seed": args.seed},
                           describe=_describe_reproduction)


def _reproduce_command(args: argparse.Namespace) -> dict[str, Any]:
    from dpverify.bandits.experiments import EXPERIMENTS, reproduce  # deferred: keeps CLI start-up light

    try:
        import matplotlib  # deferred: optional, checked before the simulations  # noqa: F401
    except ImportError:
        raise DpverifyValueError("reproduce draws figures with matplotlib, which is not "
                                 "installed: pip install 'dpverify[plots]'") from None
    panels = None if args.panels is None else tuple(p.strip() for p in args.panels.split(","))
    known = [panel.key for panel in EXPERIMENTS[args.name].panels]
    if panels is not None and not set(panels) <= set(known):
        raise DpverifyValueError(f"--panels {args.panels} names no panel of {args.name}; its "
                                 f"panels are {', '.join(known)}")
    outcome = reproduce(args.name, preset=args.preset, seed=args.seed, out_dir=args.out,
                        progress=args.progress, panels=panels, runs=args.runs,
                        image_format=args.image_format,
                        **execution_options(args))
    if not outcome.results:
        raise DpverifyValueError(f"--panels {args.panels} matches no panel of {args.name}")
    from dpverify.bandits.experiments.tables import guarantee_columns  # deferred: keeps CLI start-up light

    finals = [{"panel": panel.key, "algorithm": sim.algorithm, "epsilon": panel.epsilon,
               "horizon": sim.horizon, "runs": sim.runs,
               "final_time_average_regret": float(sim.final_regret().mean()) / sim.horizon,
               **guarantee_columns(sim.guarantee)}
              for panel, sims in outcome.results for sim in sims]
    return {"files": [str(path) for path in outcome.files], "results": finals,
            "computed": outcome.computed, "cached": outcome.cached}


def _describe_reproduction(result: dict[str, Any]) -> str:
    lines = [f"{row['panel']}: {row['algorithm']} (epsilon={row['epsilon']:g}, T={row['horizon']}): "
             f"final time-average regret {row['final_time_average_regret']:.5g}"
             for row in result["results"]]
    return "\n".join(lines + [f"wrote {', '.join(result['files'])} [{result['seconds']:.1f} s]"])
