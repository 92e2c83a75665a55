"""Count fuzz outcomes over every row, parameter and fixed hostile value (no pytest).

Usage: ``PYTHONPATH=src:tests python tests/fuzz/count.py [--details FILE] [--only SUBSTRING]``
"""

from __future__ import annotations

import argparse
import collections
import time

from fuzz._harness import CANONICAL, CLI_HOSTILE, OUTCOMES, Worker, avoided, cli_options, describe
from fuzz._registry import load_cli_rows, load_rows
from fuzz.known_failures import KNOWN_FAILURES


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--details", help="write every non-passing call to this file")
    parser.add_argument("--only", default="", help="rows whose key contains this")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per call")
    parser.add_argument("--skip-known", action="store_true",
                        help="skip the pairs of known_failures.py (as the test does)")
    args = parser.parse_args()
    rows = {k: v for k, v in {**load_rows(), **load_cli_rows()}.items() if args.only in k}
    counts: collections.Counter[str] = collections.Counter()
    lines = []
    worker = Worker(rows, timeout=args.timeout)
    start = time.perf_counter()
    try:
        for key, row in sorted(rows.items()):
            if key.startswith("cli:"):
                params, values = sorted(set(cli_options(row.argv)) - set(row.skip)), CLI_HOSTILE
            else:
                params, values = sorted(row.parameters()), CANONICAL
            for param in params:
                if args.skip_known and (key, param) in KNOWN_FAILURES:
                    continue
                for value in values:
                    if avoided(row, param, value):
                        continue
                    outcome, detail = worker.run(key, param, value)
                    counts[outcome] += 1
                    if outcome not in ("ok", "refused"):
                        lines.append(f"{outcome:17} {key} {param}={describe(value)}: {detail}")
    finally:
        worker.close()
    seconds = time.perf_counter() - start
    total = sum(counts.values())
    print(f"{len(rows)} rows, {total} calls in {seconds:.0f} s")
    for outcome in OUTCOMES:
        print(f"  {outcome:17} {counts[outcome]}")
    if args.details:
        with open(args.details, "w", encoding="utf-8") as out:
            out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
