"""Hanna et al. 2022's experiments (§6).

* ``hanna2022-fig2`` — final regret R_T against ε (ε0 for Alg. 2) of Alg. 1
  (central), Alg. 2 (local), Alg. 3 (shuffled, δ = 10^-6) and the non-private
  batched elimination; K = 10 actions and θ* uniform on S^1 (d = 2), T = 10^6,
  20 runs (the paper states none of ε grid, δ, runs: ours).
  ε grid :data:`HANNA_EPSILONS`; paper mode (the algorithms as printed).
* ``hanna2022-fig3b`` — Fig. 3(b) is a regret-vs-privacy figure (Fig. 3:
  "Regret-privacy trade-offs"): final regret R_T against ε ∈ :data:`HANNA_EPSILONS`
  at K = 1000, d = 2, T = 10^7 of Alg. 1 with a core set vs without (whole
  active set), and the non-private algorithm. The core set wins at small ε
  and loses for ε >= 1 (where the full-support design also plays
  near-optimal actions and the extra Laplace terms matter less): the sweep
  shows both regimes.

``preset="quick"`` divides T by 10 (also for the ε sweep) and uses 5 runs.
"""

from __future__ import annotations

from dpverify.bandits.experiments._spec import Experiment, LinearAlgorithmSpec, Panel
from dpverify.bandits.linear.environments import LinearInstanceFamily

__all__ = ["HANNA_EPSILONS", "HANNA_EXPERIMENTS"]

#: ε grid of hanna2022-fig2 (ours; the paper gives none).
HANNA_EPSILONS = (0.1, 0.3, 1.0, 3.0, 10.0)


def _hanna_fig2() -> Experiment:
    family = LinearInstanceFamily("sphere", dimension=2, n_arms=10)
    algorithms = (LinearAlgorithmSpec("hanna-central", "Alg. 1 (central)"),
                  LinearAlgorithmSpec("hanna-local", "Alg. 2 (local, ε0 = ε)"),
                  LinearAlgorithmSpec("hanna-shuffled", "Alg. 3 (shuffled)"),
                  LinearAlgorithmSpec("hanna-nonprivate", "non-private"))
    panels = tuple(Panel(f"eps={e:g}", f"ε = {e:g}", family, e, 10 ** 6, algorithms)
                   for e in HANNA_EPSILONS)
    return Experiment("hanna2022-fig2", "Hanna et al. 2022 Fig. 2: R_T vs ε (K = 10, d = 2, T = 10^6)",
                      panels, runs=20, kind="scaling", quick_divisor=10)


def _hanna_fig3b() -> Experiment:
    family = LinearInstanceFamily("sphere", dimension=2, n_arms=1000)
    algorithms = (LinearAlgorithmSpec("hanna-central", "Alg. 1 (core set)"),
                  LinearAlgorithmSpec("hanna-central", "Alg. 1 no core set",
                                      (("core_set", False),)),
                  LinearAlgorithmSpec("hanna-nonprivate", "non-private"))
    panels = tuple(Panel(f"eps={e:g}", f"ε = {e:g}", family, e, 10 ** 7, algorithms)
                   for e in HANNA_EPSILONS)
    return Experiment("hanna2022-fig3b",
                      "Hanna et al. 2022 Fig. 3(b): R_T vs ε, core set vs no core set (K = 1000, T = 10^7)",
                      panels, runs=20, kind="scaling", quick_divisor=10,
                      quick_note="quick scale (T/10, 5 runs): the crossing of the core-set and "
                                 "no-core-set curves is checked at T = 10^7 only")


#: Hanna et al. 2022's experiments, by name.
HANNA_EXPERIMENTS: dict[str, Experiment] = {e.name: e for e in (_hanna_fig2(), _hanna_fig3b())}
