"""Shuffle-amplification benchmark: values and times of every bound, side by side.

Run on demand: ``python benchmarks/shuffle.py [--exact-max-n N]``.

Rows (ε0 = 2, δ = 1e-6 unless stated):

* each registered bound at n = 10^3 … 10^6 (generic ε0-LDP randomizer, and
  binary randomized response for the RR-only bounds), with the public tools'
  reference values at n = 10^6: FMT's own numerical code ≈ 0.01367, the
  variation-ratio tool with binary RR ≈ 0.00953;
* the exact privacy of the shuffled binary RR (the ground truth), as far as
  ``--exact-max-n`` (its branch-and-bound is slow at large n);
* ``max_local_epsilons`` for 10^4 batch sizes (the inverse of Hanna et al. 2022, Alg. 3).

Each run happens in a forked child with a time limit, so a slow cell cannot
stall the table.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

import numpy as np
from _forked import run_forked

from dpverify.accountants.shuffle import (
    SHUFFLE_BOUNDS,
    amplified_epsilon,
    max_local_epsilons,
    shuffled_binary_rr_epsilon,
)
from dpverify.mechanisms.randomized_response import BinaryRandomizedResponse

LOCAL_EPSILON = 2.0
DELTA = 1e-6
TIME_LIMIT_SECONDS = 300


def _timed(function: Callable[[], float]) -> tuple[str, float]:
    """``(value or error text, seconds)`` of one cell, run in a forked child."""
    status, value, seconds = run_forked(function, seconds=TIME_LIMIT_SECONDS)
    return (f"{value:.6g}" if status == "ok" else status), seconds


def bound_rows(sizes: list[int]) -> list[str]:
    rr = BinaryRandomizedResponse.from_epsilon(LOCAL_EPSILON)
    rows = ["| bound | randomizer | n | ε | seconds |", "|---|---|---|---|---|"]
    for name, bound in SHUFFLE_BOUNDS.items():
        randomizer = None if bound.randomizers is None else rr
        label = "generic" if randomizer is None else "binary RR"
        for n in sizes:
            value, seconds = _timed(lambda: amplified_epsilon(
                LOCAL_EPSILON, n, DELTA, bound=name, randomizer=randomizer))
            rows.append(f"| {name} | {label} | {n} | {value} | {seconds:.3f} |")
    return rows


def exact_rows(sizes: list[int]) -> list[str]:
    p = BinaryRandomizedResponse.from_epsilon(LOCAL_EPSILON).randomization_probability
    rows = ["| exact shuffled binary RR | n | ε | seconds |", "|---|---|---|---|"]
    for n in sizes:
        value, seconds = _timed(lambda: shuffled_binary_rr_epsilon(p, n, DELTA))
        rows.append(f"| exact | {n} | {value} | {seconds:.3f} |")
    return rows


def inverse_row() -> str:
    sizes = np.unique(np.geomspace(2_000, 10**8, 10_000).astype(int))
    value, seconds = _timed(lambda: float(max_local_epsilons(0.1, sizes, DELTA)[-1]))
    return (f"max_local_epsilons(ε = 0.1, δ = 1e-6) for {sizes.size} batch sizes: "
            f"{seconds:.3f} s (ε0 at n = 10^8: {value})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--exact-max-n", type=int, default=10**4)
    args = parser.parse_args()
    sizes = [10**3, 10**4, 10**5, 10**6]
    print(f"ε0 = {LOCAL_EPSILON}, δ = {DELTA}")
    print("\n".join(bound_rows(sizes)), flush=True)
    print("\n".join(exact_rows([n for n in sizes if n <= args.exact_max_n])), flush=True)
    print(inverse_row())


if __name__ == "__main__":
    main()
