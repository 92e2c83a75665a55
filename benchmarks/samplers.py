"""Samplers benchmark: draws/s and peak memory at 10^6 draws, next to numpy's float samplers.

Run: ``PYTHONPATH=src python benchmarks/samplers.py [--draws N] [--repeats R]``.
Each row is the best of R timed runs (after one warm-up); peak memory is the
tracemalloc peak of one separate run (numpy allocations are traced). OpenDP's
samplers are timed if ``import opendp`` works (``pip install ".[bench]"``);
otherwise the output says so.
"""

from __future__ import annotations

import argparse
import time
import tracemalloc
from collections.abc import Callable
from fractions import Fraction

import numpy as np

from dpverify.mechanisms import samplers, simulation
from dpverify.mechanisms.discrete import PolyaDifference
from dpverify.mechanisms.sampling import sample_aggregate


def rows(n: int) -> list[tuple[str, str, Callable[[np.random.Generator], object]]]:
    return [
        ("exact", "bernoulli_exp(1/2)", lambda r: samplers.bernoulli_exp(Fraction(1, 2), rng=r, size=n)),
        ("exact", "bernoulli_exp(5/2)", lambda r: samplers.bernoulli_exp(Fraction(5, 2), rng=r, size=n)),
        ("exact", "geometric(8)", lambda r: samplers.geometric(8, rng=r, size=n)),
        ("exact", "discrete_laplace(3/2)", lambda r: samplers.discrete_laplace(Fraction(3, 2), rng=r, size=n)),
        ("exact", "discrete_laplace(8)", lambda r: samplers.discrete_laplace(8, rng=r, size=n)),
        ("exact", "discrete_laplace(40.000000000000014)",
         lambda r: samplers.discrete_laplace(0.1 * 400, rng=r, size=n)),
        ("exact", "discrete_gaussian(2)", lambda r: samplers.discrete_gaussian(2, rng=r, size=n)),
        ("exact", "discrete_gaussian(10)", lambda r: samplers.discrete_gaussian(10, rng=r, size=n)),
        ("exact", "discrete_gaussian(13/10)",
         lambda r: samplers.discrete_gaussian(Fraction(13, 10), rng=r, size=n)),
        ("exact", "discrete_gaussian(1.3 float: big ints)",
         lambda r: samplers.discrete_gaussian(1.3, rng=r, size=n)),
        ("exact", "binomial(64, 1/2)", lambda r: samplers.binomial(64, rng=r, size=n)),
        ("exact", "binomial(10, 3/10)", lambda r: samplers.binomial(10, Fraction(3, 10), rng=r, size=n)),
        ("exact", "sum of 64 Polya diffs (aggregate)",
         lambda r: sample_aggregate(PolyaDifference(64, 8.0), users=64, rng=r, size=n)),
        ("simulation", "simulation_skellam(4)", lambda r: simulation.simulation_skellam(4.0, rng=r, size=n)),
        ("simulation", "simulation_polya(1/64, e^-1/8)",
         lambda r: simulation.simulation_polya(1 / 64, np.exp(-1 / 8), rng=r, size=n)),
        ("simulation", "simulation_polya_difference(64, 8)",
         lambda r: simulation.simulation_polya_difference(64, 8.0, rng=r, size=n)),
        ("simulation", "simulation_laplace(1)", lambda r: simulation.simulation_laplace(1.0, rng=r, size=n)),
        ("simulation", "simulation_gaussian(1)", lambda r: simulation.simulation_gaussian(1.0, rng=r, size=n)),
        ("numpy", "rng.laplace", lambda r: r.laplace(0.0, 1.0, n)),
        ("numpy", "rng.normal", lambda r: r.normal(0.0, 1.0, n)),
        ("numpy", "rng.poisson(4)", lambda r: r.poisson(4.0, n)),
        ("numpy", "rng.geometric(1-e^-1/8)", lambda r: r.geometric(1 - np.exp(-1 / 8), n)),
    ]


def opendp_rows(n: int) -> list[tuple[str, str, Callable[[np.random.Generator], object]]]:
    """OpenDP's exact samplers (Rust, OS randomness; the ``rng`` argument is unused).

    Vector measurements over ``n`` zeros, so one call draws ``n`` values; the
    time includes OpenDP's conversion of the Python list.
    """
    import opendp.prelude as dp

    dp.enable_features("contrib")
    zeros = [0] * n
    laplace = dp.m.make_laplace(dp.vector_domain(dp.atom_domain(T=int)), dp.l1_distance(T=int),
                                scale=8.0)
    gaussian = dp.m.make_gaussian(dp.vector_domain(dp.atom_domain(T=int)), dp.l2_distance(T=int),
                                  scale=10.0)
    return [
        ("opendp", "make_laplace (integer, scale 8)", lambda r: laplace(zeros)),
        ("opendp", "make_gaussian (integer, scale 10)", lambda r: gaussian(zeros)),
    ]


def measure(draw: Callable[[np.random.Generator], object], repeats: int) -> tuple[float, float]:
    draw(np.random.default_rng(0))  # warm-up
    best = min(_timed(draw, seed) for seed in range(1, repeats + 1))
    tracemalloc.start()
    draw(np.random.default_rng(99))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return best, peak / 2**20


def _timed(draw: Callable[[np.random.Generator], object], seed: int) -> float:
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    draw(rng)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=10**6)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"{args.draws:,} draws per call; best of {args.repeats}; numpy {np.__version__}")
    print(f"{'kind':<11} {'sampler':<38} {'seconds':>8} {'Mdraws/s':>9} {'peak MiB':>9}")
    table = rows(args.draws)
    try:
        table += opendp_rows(args.draws)
    except ImportError:
        print("OpenDP: not installed (pip install opendp); no OpenDP rows.")
    for kind, name, draw in table:
        seconds, peak = measure(draw, args.repeats)
        print(f"{kind:<11} {name:<38} {seconds:8.3f} {args.draws / seconds / 1e6:9.2f} {peak:9.1f}")


if __name__ == "__main__":
    main()
