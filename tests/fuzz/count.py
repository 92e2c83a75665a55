"""Count fuzz outcomes over every row, parameter and fixed hostile value (no pytest).

Usage: ``PYTHONPATH=src:tests python tests/fuzz/count.py [--details FILE] [--only SUBSTRING]
[--workers N] [--timeout SECONDS] [--slowest N] [--skip-known]``

``--slowest N`` lists the N slowest calls and rows (where the fuzz test's time goes).
"""

from __future__ import annotations

import argparse
import collections
import time

from fuzz._harness import (
    CANONICAL,
    CLI_HOSTILE,
    OUTCOMES,
    avoided,
    cli_options,
    describe,
)
from fuzz._registry import load_cli_rows, load_rows
from fuzz._worker import machine_timeout, run_all
from fuzz.known_failures import KNOWN_FAILURES


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--details", help="write every non-passing call to this file")
    parser.add_argument("--only", default="", help="rows whose key contains this")
    parser.add_argument("--timeout", type=float, default=None,
                        help="seconds per call (default: the test's, scaled to this machine)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes at once")
    parser.add_argument("--slowest", type=int, default=0, help="list the N slowest calls and rows")
    parser.add_argument("--skip-known", action="store_true",
                        help="skip the pairs of known_failures.py (as the test does)")
    args = parser.parse_args()
    rows = {k: v for k, v in {**load_rows(), **load_cli_rows()}.items() if args.only in k}
    tasks = []
    for key, row in sorted(rows.items()):
        if key.startswith("cli:"):
            params, values = sorted(set(cli_options(row.argv)) - set(row.skip)), CLI_HOSTILE
        else:
            params, values = sorted(row.parameters()), CANONICAL
        tasks += [(key, param, value) for param in params for value in values
                  if not (args.skip_known and (key, param) in KNOWN_FAILURES)
                  and not avoided(row, param, value)]
    timeout = machine_timeout() if args.timeout is None else args.timeout
    start = time.perf_counter()
    results = run_all(rows, tasks, workers=args.workers, timeout=timeout)
    seconds = time.perf_counter() - start
    counts = collections.Counter(outcome for outcome, _, _ in results)
    print(f"{len(rows)} rows, {len(tasks)} calls in {seconds:.0f} s "
          f"({args.workers} workers, timeout {timeout:.0f} s)")
    for outcome in OUTCOMES:
        print(f"  {outcome:17} {counts[outcome]}")
    if args.slowest:
        by_row: collections.Counter[str] = collections.Counter()
        for (key, _, _), (_, _, took) in zip(tasks, results):
            by_row[key] += took
        print("slowest rows (seconds, all their calls):")
        for key, took in by_row.most_common(args.slowest):
            print(f"  {took:7.1f}  {key}")
        print("slowest calls:")
        ranked = sorted(zip(tasks, results), key=lambda pair: -pair[1][2])[:args.slowest]
        for (key, param, value), (outcome, _, took) in ranked:
            print(f"  {took:7.1f}  {key} {param}={describe(value)} ({outcome})")
    if args.details:
        lines = [f"{outcome:17} {key} {param}={describe(value)}: {detail}"
                 for (key, param, value), (outcome, detail, _) in zip(tasks, results)
                 if outcome not in ("ok", "refused")]
        with open(args.details, "w", encoding="utf-8") as out:
            out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
