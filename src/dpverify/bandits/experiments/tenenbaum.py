"""tenenbaum 2021 has no experiments (CATALOGUE 002.5): ours.

* ``tenenbaum2021-scaling`` — final regret against ε ∈ {0.005, …, 0.2} of SDP-AE
  (m = ⌈σ²⌉) and VB-SDP-AE at T = 10^7 on Bernoulli easy instances, K = 10,
  δ = 10^-6, with the non-private AE for reference: the additive privacy
  costs ``Σ_a Δ_a m ∝ log(1/δ)/ε²`` (Cor. 3.2) and ``kσ log T ∝ 1/ε`` (Thm 3.3).
  With the width's constants (``2√t σ √(2 log T)``) VB-SDP-AE's cost is about
  ``100σ`` per arm against SDP-AE's ``Δ_a σ²``, so VB-SDP-AE only wins for
  σ >~ 100/Δ, i.e. ε <~ 0.02 here; above, SDP-AE's cost hides under its
  non-private part.
"""

from __future__ import annotations

from dpverify.bandits.environments import InstanceFamily
from dpverify.bandits.experiments._spec import AlgorithmSpec, Experiment, Panel

__all__ = ["SCALING_EPSILONS", "TENENBAUM_EXPERIMENTS"]


#: ε grid of the tenenbaum scaling experiment.
SCALING_EPSILONS = (0.005, 0.01, 0.02, 0.05, 0.1, 0.2)


def _scaling() -> Experiment:
    family = InstanceFamily("easy", 10, "bernoulli")
    algorithms = (AlgorithmSpec("sdp-ae", "SDP-AE (m = ⌈σ²⌉)"),
                  AlgorithmSpec("vb-sdp-ae", "VB-SDP-AE (m^t = 2^t)"),
                  AlgorithmSpec("ae", "AE (non-private, 2^t)"))
    panels = tuple(Panel(f"eps={e:g}", f"ε = {e:g}", family, e, 10 ** 7, algorithms)
                   for e in SCALING_EPSILONS)
    return Experiment("tenenbaum2021-scaling",
                      "tenenbaum 2021: final regret vs ε, additive 1/ε² (SDP-AE) vs 1/ε (VB-SDP-AE)",
                      panels, runs=20, kind="scaling", quick_divisor=1)


#: tenenbaum 2021's experiments (ours), by name.
TENENBAUM_EXPERIMENTS: dict[str, Experiment] = {e.name: e for e in (_scaling(),)}
