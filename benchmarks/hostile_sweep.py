"""Hostile-input sweep beyond the fuzz test's fixed values (issue 28 d), on demand only.

The fuzz test (``tests/fuzz``) gives every public callable and CLI option its fixed hostile
values; this sweep adds the ones it does not hold — signed zeros, float32/int64 extremes,
Fractions and bools at the edges, non-decimal spellings on the command line — and classifies
each call exactly as the fuzz harness does (refused / ok pass; unclear, accepted-invalid, nan,
numpy-error, crash, hang, oom fail), in the harness's forked, time- and memory-capped workers.

Usage (from the repository root)::

    PYTHONPATH=src:tests python benchmarks/hostile_sweep.py [--only SUBSTRING] [--workers N]
        [--timeout SECONDS] [--details FILE]

``--only`` keeps the rows whose key contains it (``accountants``, ``mechanisms``, ``auditing``,
``cli:``); the default sweeps those four.
"""

from __future__ import annotations

import argparse
import collections
import fractions
import time

import numpy as np

from fuzz._harness import OUTCOMES, cli_options, describe, machine_timeout, row_tasks, run_all
from fuzz._registry import load_cli_rows, load_rows

#: Python-API values the fuzz test's CANONICAL set does not hold.
EXTRA_VALUES = (
    -0.0,
    2**1000,
    2.0**-1074 * -1,
    np.float32("nan"),
    np.float32("inf"),
    np.float32(1e-45),
    np.float32(3e38),
    np.int64(2**62),
    np.int64(0),
    np.bool_(True),
    fractions.Fraction(1, 3),
    fractions.Fraction(10**400, 3),
    fractions.Fraction(-1, 10**400),
    (),
    [0.0],
    [-0.0, 1.0],
)
#: Command-line spellings the fuzz test's CLI_HOSTILE set does not hold.
EXTRA_CLI = ("-0.0", "-1e-3", "-nan", "+inf", "-Infinity", "1_000", " 1", "1e-320", "0.5e0", "1e-300", "NaN", "2e63")

DEFAULT_SCOPES = ("accountants", "mechanisms", "auditing", "cli:")


def tasks_for(rows: dict) -> list[tuple[str, str, object]]:
    tasks = []
    for key, row in sorted(rows.items()):
        if key.startswith("cli:"):
            params, values = sorted(set(cli_options(row.argv)) - set(row.skip)), EXTRA_CLI
        else:
            params, values = sorted(row.parameters()), EXTRA_VALUES
        tasks += row_tasks(key, row, params, values)
    return tasks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=None, help="rows whose key contains this")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=None)
    parser.add_argument("--details", default=None, help="write every failing call to this file")
    args = parser.parse_args()
    rows = {**load_rows(), **load_cli_rows()}
    scopes = (args.only,) if args.only else DEFAULT_SCOPES
    rows = {k: v for k, v in rows.items() if any(s in k for s in scopes)}
    tasks = tasks_for(rows)
    timeout = machine_timeout() if args.timeout is None else args.timeout
    start = time.perf_counter()
    results = run_all(rows, tasks, workers=args.workers, timeout=timeout)
    counts = collections.Counter(outcome for outcome, _, _ in results)
    print(
        f"{len(rows)} rows, {len(tasks)} calls in {time.perf_counter() - start:.0f} s "
        f"({args.workers} workers, timeout {timeout:.0f} s)"
    )
    for outcome in OUTCOMES:
        print(f"  {outcome:17} {counts[outcome]}")
    failing = [
        f"{outcome:17} {key} {param}={describe(value)}: {detail}"
        for (key, param, value), (outcome, detail, _) in zip(tasks, results)
        if outcome not in ("ok", "refused")
    ]
    if args.details:
        with open(args.details, "w", encoding="utf-8") as out:
            out.write("\n".join(failing) + "\n")
    else:
        print("\n".join(failing))


if __name__ == "__main__":
    main()
