"""Auditing benchmark: end-to-end throughput, and the ε lower bounds the catalogue reaches.

Run on demand: ``python benchmarks/auditing.py [--sizes 1e5 1e6 1e7] [--repeats 3]``.

Two markdown tables:

* **throughput** — end-to-end samples per second *per side* of
  :func:`dpverify.auditing.audit` on vectorised scalar mechanisms built on
  :mod:`dpverify.mechanisms.simulation` (sampling both sides, the event
  search, chunked certification and the bounds all included; the two sides
  run in two threads), next to the time the sampler alone takes for both
  sides in one thread;
* **catalogue** — the certified ε lower bound at 10^5, 10^6 and 10^7 samples
  per side for every built-in example, with its claim and true ε
  (confidence 0.95, seed 1), and the verdict at 10^7.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from dpverify.auditing import audit
from dpverify.auditing.examples import CATALOGUE
from dpverify.mechanisms.simulation import simulation_gaussian, simulation_laplace


def _laplace(data, size, rng):
    return data + simulation_laplace(1.0, rng=rng, size=size)


def _gaussian(data, size, rng):
    return data + simulation_gaussian(1.0, rng=rng, size=size)


def _sampling_seconds(sampler, samples: int) -> float:
    """Time to draw ``samples`` outputs per side in the audit's chunk size, nothing else."""
    rng = np.random.default_rng(0)
    chunk = 1 << 16
    start = time.perf_counter()
    for _ in range(2):
        done = 0
        while done < samples:
            size = min(chunk, samples - done)
            sampler(0.0, size, rng)
            done += size
    return time.perf_counter() - start


def throughput(samples: int, repeats: int) -> list[str]:
    rows = ["| mechanism | samples per side | audit seconds (best of %d) | samples/s per side "
            "| sampling alone, both sides, one thread (s) | claim | ε lower bound |" % repeats,
            "|---|---:|---:|---:|---:|---:|---:|"]
    for name, sampler in (("Laplace(1), simulation_laplace", _laplace),
                          ("Gaussian(1), simulation_gaussian", _gaussian)):
        best, report = math.inf, None
        for repeat in range(repeats):
            start = time.perf_counter()
            claim = 1.0 if name.startswith("L") else 5.0
            report = audit(sampler, 0.0, 1.0, epsilon=claim, samples=samples, seed=repeat)
            best = min(best, time.perf_counter() - start)
        sampling = _sampling_seconds(sampler, samples)
        rows.append(f"| {name} | {samples:.0e} | {best:.3f} | {samples / best:.3g} | "
                    f"{sampling:.3f} | {claim:g} | {report.epsilon_lower_bound:.4f} |")
    return rows


def catalogue(sizes: list[int]) -> list[str]:
    header = " | ".join(f"ε_lb @ {n:.0e}" for n in sizes)
    rows = [f"| mechanism | correct | claim (ε, δ) | true ε | {header} | verdict @ {sizes[-1]:.0e} "
            f"| seconds @ {sizes[-1]:.0e} |",
            "|---|---|---|---:|" + "---:|" * len(sizes) + "---|---:|"]
    for name, mechanism in CATALOGUE.items():
        bounds, verdict, seconds = [], "", 0.0
        for n in sizes:
            start = time.perf_counter()
            report = audit(mechanism.sampler, mechanism.x, mechanism.x_prime,
                           epsilon=mechanism.epsilon, delta=mechanism.delta, samples=n, seed=1)
            seconds = time.perf_counter() - start
            bounds.append(f"{report.epsilon_lower_bound:.4f}")
            verdict = "violation" if report.violation else "ok"
        claim = f"({mechanism.epsilon:g}, {mechanism.delta:g})"
        rows.append(f"| {name} | {'yes' if mechanism.correct else 'no'} | {claim} | "
                    f"{mechanism.true_epsilon:.4f} | {' | '.join(bounds)} | {verdict} | "
                    f"{seconds:.2f} |")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[1e5, 1e6, 1e7])
    parser.add_argument("--throughput-samples", type=float, default=1e7)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print("## Throughput\n")
    print("\n".join(throughput(int(args.throughput_samples), args.repeats)))
    print("\n## Catalogue: certified ε lower bounds (confidence 0.95, seed 1)\n")
    print("\n".join(catalogue([int(s) for s in args.sizes])))


if __name__ == "__main__":
    main()
