"""CLI start-up and ``dpverify plan`` benchmark: wall time of whole ``dpverify`` processes.

Run on demand: ``python benchmarks/cli.py [--repeat 5] [--quick]``.

Every row is a fresh subprocess (``python -m dpverify.cli ...``), timed from
spawn to exit:

* **cold**: the first run with an empty bytecode cache (``PYTHONPYCACHEPREFIX``
  set to a new temporary directory, so every module of dpverify and of its
  dependencies is compiled again — the worst case after an install or upgrade);
* **warm**: the median of ``--repeat`` runs with the normal bytecode cache
  (``PYTHONDONTWRITEBYTECODE`` is cleared for the benchmark so the cache exists).

Targets (issue 30 §3, on an idle 2-core machine): every ``dpverify COMMAND --help``
<= 0.3 s warm (options are built from ``dpverify.cli._choices``: no numpy); ``dpverify
account gaussian ...`` <= 1 s warm (no scipy.stats, scipy.signal or scipy.optimize on its
path); ``dpverify plan`` of one algorithm per family a few seconds at most (the
Dist-RDP-SE row calibrates the Skellam noise through about ten RDP evaluations of ~20
batch sizes). On a loaded machine the wall times grow with the load; the ``cpu s`` column
(user + system time of the child) is the steadier number to compare.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[1] / "src"

COMMANDS = ("account", "shuffle", "audit", "simulate", "reproduce", "sweep", "plan", "claims")

CASES = {
    "--help": ["--help"],
    **{f"{command} --help": [command, "--help"] for command in COMMANDS},
    "account gaussian --help": ["account", "gaussian", "--help"],
    "account gaussian (pld, 1000 releases)": ["account", "gaussian", "--sigma", "1", "--count",
                                              "1000", "--delta", "1e-5"],
    "account laplace (pld, 100 releases)": ["account", "laplace", "--scale", "10", "--count",
                                            "100", "--delta", "1e-6"],
    "shuffle (fmt2021)": ["shuffle", "--local-epsilon", "2", "--users", "1000000", "--delta",
                          "1e-6"],
    "plan dist-dp-se (multi-armed, pure)": ["plan", "dist-dp-se", "--epsilon", "1",
                                            "--horizon", "1e6", "--n-arms", "10"],
    "plan dist-rdp-se (multi-armed, calibrated)": ["plan", "dist-rdp-se", "--epsilon", "1",
                                                   "--delta", "1e-6", "--horizon", "1e6",
                                                   "--n-arms", "10"],
    "plan sdp-ae (multi-armed, shuffle)": ["plan", "sdp-ae", "--epsilon", "1", "--horizon", "1e6"],
    "plan hanna-shuffled (linear)": ["plan", "hanna-shuffled", "--epsilon", "1", "--horizon",
                                     "1e6", "--dimension", "5", "--n-arms", "100"],
    "plan dpdpe-central (linear)": ["plan", "dpdpe-central", "--epsilon", "10", "--horizon",
                                    "1e6", "--dimension", "20", "--n-arms", "1000"],
    "plan sblb (contextual)": ["plan", "sblb", "--epsilon", "1", "--horizon", "1e6",
                               "--dimension", "5", "--n-arms", "10"],
    "plan ldp-linucb (contextual)": ["plan", "ldp-linucb", "--epsilon", "1", "--horizon", "1e6",
                                     "--dimension", "5"],
    "plan gaussian": ["plan", "gaussian", "--epsilon", "1", "--delta", "1e-5", "--count",
                      "100"],
    "plan shuffle (binary-rr)": ["plan", "shuffle", "--epsilon", "0.5", "--delta", "1e-6",
                                 "--users", "10000", "--randomizer", "binary-rr"],
    "plan secure-aggregation": ["plan", "secure-aggregation", "--epsilon", "1", "--users", "1000"],
    "plan dp-sgd": ["plan", "dp-sgd", "--dataset-size", "60000", "--batch-size", "256",
                    "--epochs", "1", "--epsilon", "1", "--delta", "1e-5"],
}
QUICK = ("--help", *(f"{command} --help" for command in COMMANDS),
         "account gaussian (pld, 1000 releases)", "shuffle (fmt2021)",
         "plan dist-dp-se (multi-armed, pure)", "plan sblb (contextual)")


def run_once(argv: list[str], environment: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + system) of ``python -m dpverify.cli argv``, spawn to exit
    (exit 0 or 1 accepted)."""
    before = os.times()
    start = time.perf_counter()
    completed = subprocess.run([sys.executable, "-m", "dpverify.cli", *argv], env=environment,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - start
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system
                                                          - before.children_system)
    if completed.returncode not in (0, 1):
        raise RuntimeError(f"dpverify {' '.join(argv)} exited {completed.returncode}: "
                           f"{completed.stderr.strip()}")
    return seconds, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="warm runs per case (median)")
    parser.add_argument("--quick", action="store_true", help=f"only {', '.join(QUICK)}")
    args = parser.parse_args()
    base = {key: value for key, value in os.environ.items()
            if key not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")}
    base["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SOURCE), os.environ.get("PYTHONPATH", "")]))
    names = QUICK if args.quick else tuple(CASES)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpu(s), load {load:.1f}; warm = "
          f"median of {args.repeat}")
    print(f"{'case':48s} {'cold s':>8s} {'warm s':>8s} {'cpu s':>8s}")
    for name in names:
        with tempfile.TemporaryDirectory() as cache:
            cold, _ = run_once(CASES[name], {**base, "PYTHONPYCACHEPREFIX": cache})
        run_once(CASES[name], base)  # fill the normal cache
        runs = [run_once(CASES[name], base) for _ in range(args.repeat)]
        warm = statistics.median(wall for wall, _ in runs)
        cpu = statistics.median(cpu for _, cpu in runs)
        print(f"{name:48s} {cold:8.3f} {warm:8.3f} {cpu:8.3f}", flush=True)


if __name__ == "__main__":
    main()
