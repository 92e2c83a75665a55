"""Linear-bandit benchmark: one Hanna et al. 2022 run and one DP-DPE run against the speed targets.

Run on demand: ``python benchmarks/linear.py``. Each cell runs in a forked child
with a time limit (:mod:`_forked`), so a regression reports "timeout".

Rows:

* **Hanna et al. Alg. 1 (central, paper mode, ε = 1), Alg. 3 (shuffled) and Fig. 3(b)'s
  no-core-set variant**, one run each at T = 10^7, K = 1000, d = 2 (sphere
  instance): target < 10 s;
* **CDP-DPE, SDP-DPE and DPE**, one run each at T = 10^6, d = 20, k = 1000,
  |U| = 10^5 (Li, Zhou & Ji 2022's setting, ε = 10, δ = 0.25): target < 30 s.

Accounting (the guarantee) is computed outside the timed region. Vectorised:
every pull of an action in a phase is one draw; client averages are drawn
from their exact law N(⟨θ_u, x⟩, 1/T_l(x)); aggregate noise from its exact law.
"""

from __future__ import annotations

import time

from _forked import run_forked

from dpverify.bandits.linear import make_linear_algorithm
from dpverify.bandits.linear.environments import LinearInstanceFamily
from dpverify.bandits.simulate import simulate

CASES = [
    ("hanna-central", {"epsilon": 1.0}, LinearInstanceFamily("sphere", dimension=2, n_arms=1000), 10 ** 7, 10.0),
    ("hanna-shuffled", {"epsilon": 1.0}, LinearInstanceFamily("sphere", dimension=2, n_arms=1000), 10 ** 7, 10.0),
    ("hanna-central", {"epsilon": 1.0, "core_set": False}, LinearInstanceFamily("sphere", dimension=2, n_arms=1000),
     10 ** 7, 10.0),
    ("dpdpe-central", {"epsilon": 10.0}, LinearInstanceFamily("dpdpe", dimension=20, n_arms=1000), 10 ** 6, 30.0),
    ("dpdpe-shuffle", {"epsilon": 10.0}, LinearInstanceFamily("dpdpe", dimension=20, n_arms=1000), 10 ** 6, 30.0),
    ("dpe", {}, LinearInstanceFamily("dpdpe", dimension=20, n_arms=1000), 10 ** 6, 30.0),
]


def _cell(name: str, options: dict, family: LinearInstanceFamily, horizon: int):
    def run() -> float:
        algorithm = make_linear_algorithm(name, **options)
        algorithm.guarantee(n_arms=family.actions, horizon=horizon)  # accounting outside the timing
        start = time.perf_counter()
        simulate(algorithm, family, horizon, runs=1, seed=0)
        return time.perf_counter() - start
    return run


def main() -> None:
    print(f"{'algorithm':<40} {'instance':<26} {'T':>9} {'seconds':>8} {'target':>7}")
    for name, options, family, horizon, target in CASES:
        label = make_linear_algorithm(name, **options).name
        status, seconds, _ = run_forked(_cell(name, options, family, horizon), seconds=10 * target)
        shown = f"{seconds:8.2f}" if status == "ok" else status
        print(f"{label:<40} {family.describe():<26} {horizon:>9} {shown:>8} {target:>6.0f}s")


if __name__ == "__main__":
    main()
