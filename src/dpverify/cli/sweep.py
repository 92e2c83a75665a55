"""``dpverify sweep``: run a sweep spec (TOML) on local workers or Dask; cached, resumable."""

from __future__ import annotations

import argparse
from typing import Any

from dpverify.cli._core import add_execution_options, execution_options

HELP = "run a sweep spec (algorithms x epsilon x instances x horizons x runs); cached, resumable"
DESCRIPTION = ("Run every run of SPEC.toml that is not already in the result store, on local "
               "worker processes or a Dask cluster, and write the tidy results table "
               "(<name>-runs.csv: one row per run and checkpoint; Parquet too when pandas is "
               "installed), <name>.csv, <name>-summary.csv and <name>.png. An interrupted sweep "
               "resumes where it stopped. The spec format is documented in "
               "dpverify.bandits.experiments.spec_files; `experiment = \"NAME\"` runs a "
               "registered experiment.")
EXAMPLES = (
    "dpverify sweep my_sweep.toml --out results/ --jobs -1",
    "dpverify sweep my_sweep.toml --scheduler tcp://scheduler:8786 --cache-dir /shared/cache",
    "dpverify sweep my_sweep.toml --scheduler local --jobs 4 --no-cache",
)


def configure(sweep: argparse.ArgumentParser) -> None:
    sweep.add_argument("spec", metavar="SPEC.toml", help="the sweep spec")
    sweep.add_argument("--out", default=".", help="output directory")
    add_execution_options(sweep)
    sweep.add_argument("--no-figures", action="store_true", help="write the tables only")
    sweep.add_argument("--format", choices=("png", "pdf", "svg"), default="png",
                       dest="image_format", help="figure file format (default: png)")
    sweep.add_argument("--progress", action="store_true", help="progress bar over runs")
    sweep.add_argument("--json", action="store_true", help="print one JSON object")
    sweep.set_defaults(handler=_sweep_command, describe=_describe_sweep,
                       option_aliases={"n_jobs": "--jobs"},
                       context=lambda args: {"spec": args.spec})


def _sweep_command(args: argparse.Namespace) -> dict[str, Any]:
    from dpverify.bandits.experiments import load_sweep_spec, sweep  # deferred: keeps CLI start-up light

    spec = load_sweep_spec(args.spec)
    if not args.no_figures:
        try:
            import matplotlib  # deferred: optional, checked before the runs  # noqa: F401
        except ImportError:
            args.no_figures = True
    outcome = sweep(spec, out_dir=args.out, progress=args.progress, image_format=args.image_format,
                    figures=not args.no_figures, **execution_options(args))
    summary = [{"panel": row["panel"], "algorithm": row["algorithm"], "epsilon": row["epsilon"],
                "horizon": row["horizon"], "runs": row["runs"],
                "final_time_average_regret": row["final_regret"] / row["horizon"],
                "guarantee_model": row["guarantee_model"],
                "guarantee_epsilon": row["guarantee_epsilon"],
                "guarantee_delta": row["guarantee_delta"]} for row in outcome.summary()]
    return {"name": spec.name, "tasks": spec.tasks, "computed": outcome.computed,
            "cached": outcome.cached, "files": [str(path) for path in outcome.files],
            "results": summary}


def _describe_sweep(result: dict[str, Any]) -> str:
    lines = [f"{row['panel']}: {row['algorithm']}: final time-average regret "
             f"{row['final_time_average_regret']:.5g}" for row in result["results"]]
    return "\n".join(lines + [
        f"{result['name']}: {result['tasks']} runs ({result['computed']} computed, "
        f"{result['cached']} from the result store); wrote {', '.join(result['files'])} "
        f"[{result['seconds']:.1f} s]"])
