"""Bandit simulator benchmark: speed against the targets, and regrets against the reference code.

Run on demand: ``python benchmarks/bandits.py [--jobs 2] [--skip-full]``.

Rows:

* **one run at T = 10^7, K = 10** of VB-SDP-AE (Bernoulli easy instance,
  ε = 0.5, δ = 10^-6) and of Dist-DP-SE (clipped-Gaussian easy instance,
  ε = 0.5, batches 2^b and 4^b): target < 2 s each. Chowdhury & Zhou's public
  reference code takes about 10–14 s per 10^6 rounds per run, i.e. 100–140 s
  for one such run;
* **the full Fig. 1 (a) reproduction** (DP-SE, Dist-DP-SE, Dist-RDP-SE s = 10
  and s = 100; 20 runs each; easy, ε = 0.1, T = 10^6): target < 2 min on 2
  cores (the reference code: 4 × 20 × 10–14 s ≈ 13–19 min on one core);
* **final time-average regrets** on the easy instance (K = 10, T = 10^6,
  20 instances, p = 0.1, batches 4^b as the reference code, and 2^b as
  Algorithm 1) at ε = 0.5 and 0.1, side by side with the reference code's
  (too little Pólya noise, shared DP-SE Laplace draw; issue 7):
  ε = 0.5: DP-SE 0.0034, Dist-DP-SE 0.0056, Dist-RDP-SE (s = 10) 0.0043;
  ε = 0.1: 0.0079, 0.0132, 0.0100; and again on the reference code's own 20
  instances (its ``np.random.seed(r)`` means, recreated here).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from dpverify.bandits.environments import ClippedGaussianBandit, InstanceFamily
from dpverify.bandits.experiments import reproduce
from dpverify.bandits.mab import make_algorithm
from dpverify.bandits.simulate import simulate

REFERENCE = {  # issue 7: the reference code's final time-average regrets (easy, K = 10, T = 10^6, 4^b)
    0.5: {"DP-SE": 0.0034, "Dist-DP-SE": 0.0056, "Dist-RDP-SE (s=10)": 0.0043},
    0.1: {"DP-SE": 0.0079, "Dist-DP-SE": 0.0132, "Dist-RDP-SE (s=10)": 0.0100},
}


def _one_run_rows() -> None:
    print("\n## One run, T = 10^7, K = 10 (target < 2 s; reference code ≈ 100–140 s)")
    print(f"{'algorithm':<34} {'instance':<28} {'seconds':>8} {'Reg(T)/T':>10}")
    cases = [
        ("vb-sdp-ae", {"epsilon": 0.5, "delta": 1e-6}, InstanceFamily("easy", 10, "bernoulli")),
        ("dist-dp-se", {"epsilon": 0.5}, InstanceFamily("easy", 10)),
        ("dist-dp-se", {"epsilon": 0.5, "batch_base": 4}, InstanceFamily("easy", 10)),
    ]
    for name, options, family in cases:
        algorithm = make_algorithm(name, **options)
        algorithm.guarantee(n_arms=10, horizon=10 ** 7)  # accounting outside the timed run
        start = time.perf_counter()
        result = simulate(algorithm, family, 10 ** 7, runs=1, seed=0)
        seconds = time.perf_counter() - start
        label = f"{result.algorithm} (base {options.get('batch_base', 2)})" if name == "dist-dp-se" \
            else result.algorithm
        print(f"{label:<34} {family.describe():<28} {seconds:>8.2f} "
              f"{result.final_regret().mean() / 10 ** 7:>10.5f}")


def _fig1a(jobs: int) -> None:
    print(f"\n## Fig. 1 (a) in full: 4 algorithms × 20 runs, T = 10^6 (target < 120 s; jobs = {jobs})")
    start = time.perf_counter()
    outcome = reproduce("chowdhury2023-fig1", preset="full", seed=0, panels=("a",), n_jobs=jobs)
    seconds = time.perf_counter() - start
    for _, sims in outcome.results:
        for sim in sims:
            print(f"  {sim.algorithm:<22} Reg(T)/T = {sim.final_regret().mean() / sim.horizon:.5f}"
                  f"   ({sim.seconds:.1f} s)")
    print(f"  total {seconds:.1f} s")


def _regret_rows(jobs: int) -> None:
    print("\n## Final time-average regret, easy K = 10, T = 10^6, 20 instances, p = 0.1")
    print(f"{'eps':>4} {'algorithm':<20} {'reference (4^b)':>15} {'ours 4^b':>16} {'ours 2^b':>16}"
          f" {'realised 4^b':>13}")
    family = InstanceFamily("easy", 10)
    for epsilon, reference in REFERENCE.items():
        for label, name, options in (("DP-SE", "dp-se", {}),
                                     ("Dist-DP-SE", "dist-dp-se", None),
                                     ("Dist-RDP-SE (s=10)", "dist-rdp-se", {"scale_factor": 10.0})):
            cells, realised = [], ""
            for base in (4, 2):
                extra = {"failure_probability": 0.1}
                if name != "dp-se":
                    extra.update(batch_base=base, **(options or {}))
                result = simulate(make_algorithm(name, epsilon=epsilon, **extra), family, 10 ** 6,
                                  runs=20, seed=0, n_jobs=jobs, checkpoints=10)
                final = result.final_regret() / 10 ** 6
                cells.append(f"{final.mean():.4f}±{final.std(ddof=1) / 20 ** 0.5:.4f}")
                if base == 4:
                    realised = f"{result.final_regret('realised').mean() / 10 ** 6:.4f}"
            print(f"{epsilon:>4} {label:<20} {reference[label]:>15.4f} {cells[0]:>16} {cells[1]:>16}"
                  f" {realised:>13}")


def reference_instances(runs: int = 20, k: int = 10, gap: float = 0.5) -> list[ClippedGaussianBandit]:
    """The reference code's instances (Chowdhury & Zhou 2023's public code): ``np.random.seed(r)``,
    μ = gap·U[0,1)^K + 0.5 − gap/2.

    Recreated with the legacy MT19937 stream (benchmark only; the package never
    uses global or legacy random state).
    """
    return [ClippedGaussianBandit(tuple(gap * np.random.RandomState(r).rand(k) + (0.5 - gap / 2)))
            for r in range(runs)]


def _on_reference_instances(algorithm, horizon: int) -> np.ndarray:
    """Final pseudo-regret of one run on each reference instance (seed r for instance r)."""
    return np.array([simulate(algorithm, env, horizon, runs=1, seed=r, checkpoints=2).final_regret()[0]
                     for r, env in enumerate(reference_instances())])


def _reference_instance_rows() -> None:
    print("\n## Same, on the reference code's own 20 instances (np.random.seed(r), r = 0..19), 4^b")
    print(f"{'eps':>4} {'algorithm':<20} {'reference':>10} {'ours':>16}")
    for epsilon, reference in REFERENCE.items():
        for label, name, options in (("DP-SE", "dp-se", {"failure_probability": 0.1}),
                                     ("Dist-DP-SE", "dist-dp-se", {"failure_probability": 0.1, "batch_base": 4}),
                                     ("Dist-RDP-SE (s=10)", "dist-rdp-se",
                                      {"failure_probability": 0.1, "batch_base": 4, "scale_factor": 10.0})):
            final = _on_reference_instances(make_algorithm(name, epsilon=epsilon, **options),
                                            10 ** 6) / 10 ** 6
            cell = f"{final.mean():.4f}±{final.std(ddof=1) / 20 ** 0.5:.4f}"
            print(f"{epsilon:>4} {label:<20} {reference[label]:>10.4f} {cell:>16}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--skip-full", action="store_true", help="skip the Fig. 1 (a) row")
    args = parser.parse_args()
    _one_run_rows()
    if not args.skip_full:
        _fig1a(args.jobs)
    _regret_rows(args.jobs)
    _reference_instance_rows()


if __name__ == "__main__":
    main()
