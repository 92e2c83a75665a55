"""Claims benchmark: wall time of ``dpverify claims`` per paper, at the quick and full presets.

Run on demand: ``python benchmarks/claims.py [--preset quick|full|both] [PAPER ...]``.
Each paper runs in a fresh ``python -m dpverify.cli claims PAPER --json`` process
(imports, checks, figures: what a user waits for), and the table reports the
wall time, the child's CPU time (what the wall time would be on an idle core)
and the verdict counts. The full preset runs the longer simulations
(horizons up to 10^7) and the wider grids; expect minutes per paper.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time

PAPERS = ("garcelon", "hanna", "tenenbaum", "chowdhury", "dpdpe")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(paper: str, preset: str) -> tuple[float, float, dict]:
    """(wall seconds, CPU seconds of the child, its JSON result)."""
    with tempfile.TemporaryDirectory() as out:
        start, cpu = time.perf_counter(), _children_cpu()
        done = subprocess.run([sys.executable, "-m", "dpverify.cli", "claims", paper, "--preset", preset,
                               "--out", out, "--json"], capture_output=True, text=True, check=True)
        seconds, cpu = time.perf_counter() - start, _children_cpu() - cpu
    return seconds, cpu, json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("papers", nargs="*", default=list(PAPERS))
    parser.add_argument("--preset", choices=("quick", "full", "both"), default="both")
    args = parser.parse_args()
    presets = ("quick", "full") if args.preset == "both" else (args.preset,)
    print(f"{'paper':<10} {'preset':<6} {'wall s':>8} {'cpu s':>8} {'checks s':>9}  verdicts")
    for preset in presets:
        for paper in args.papers:
            seconds, cpu, result = run(paper, preset)
            report = result["papers"][0]
            counts: dict[str, int] = {}
            for claim in report["claims"]:
                counts[claim["verdict"]] = counts.get(claim["verdict"], 0) + 1
            summary = ", ".join(f"{n} {v}" for v, n in counts.items())
            print(f"{paper:<10} {preset:<6} {seconds:>8.1f} {cpu:>8.1f} {report['seconds']:>9.1f}  {summary}",
                  flush=True)


if __name__ == "__main__":
    main()
