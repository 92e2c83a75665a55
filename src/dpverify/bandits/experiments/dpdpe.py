"""dpdpe's experiments (§7), registered into :data:`~dpverify.bandits.experiments.EXPERIMENTS`.

* ``dpdpe-fig2a`` — final regret against ε ∈ :data:`DPDPE_EPSILONS` of CDP-,
  LDP- and SDP-DPE at δ = 0.25; ``dpdpe-fig2b`` — time-average regret curves of
  DPE, CDP-, LDP-, SDP-DPE at ε = 10, δ = 0.25; ``dpdpe-fig2c`` — DPE vs DPE-FixedU
  (U for equal total communication). All: T = 10^6, |U| = 10^5, d = 20,
  k = 1000, σ = 0.1, α = 0.8, β = 1/(kT), 20 runs; paper mode (classical
  Gaussian calibration, as the figures).

``scale="quick"`` divides T by 10 (also for the ε sweep) and uses 5 runs.
"""

from __future__ import annotations

import math

from dpverify.bandits.experiments._spec import Experiment, LinearAlgorithmSpec, Panel
from dpverify.bandits.linear.environments import LinearInstanceFamily

__all__ = ["DPDPE_EPSILONS", "DPDPE_EXPERIMENTS"]

#: ε grid of dpdpe-fig2a (ours; SDP needs ε < 15).
DPDPE_EPSILONS = (1.0, 2.0, 5.0, 10.0, 14.0)


_DPDPE = LinearInstanceFamily("dpdpe", 1000, 20)


def _dpdpe_fig2a() -> Experiment:
    algorithms = (LinearAlgorithmSpec("dpdpe-central", "CDP-DPE"),
                  LinearAlgorithmSpec("dpdpe-local", "LDP-DPE"),
                  LinearAlgorithmSpec("dpdpe-shuffle", "SDP-DPE"))
    panels = tuple(Panel(f"eps={e:g}", f"ε = {e:g}", _DPDPE, e, 10 ** 6, algorithms, delta=0.25)
                   for e in DPDPE_EPSILONS)
    return Experiment("dpdpe-fig2a", "dpdpe Fig. 2(a): R(T) vs ε (δ = 0.25)", panels, runs=20,
                      kind="scaling", quick_divisor=10)


def _dpdpe_fig2b() -> Experiment:
    algorithms = (LinearAlgorithmSpec("dpe", "DPE"),
                  LinearAlgorithmSpec("dpdpe-central", "CDP-DPE"),
                  LinearAlgorithmSpec("dpdpe-local", "LDP-DPE"),
                  LinearAlgorithmSpec("dpdpe-shuffle", "SDP-DPE"))
    panels = (Panel("b", "(b) ε = 10, δ = 0.25", _DPDPE, 10.0, 10 ** 6, algorithms, delta=0.25),)
    return Experiment("dpdpe-fig2b", "dpdpe Fig. 2(b): per-round regret", panels, runs=20)


def _dpdpe_fig2c() -> Experiment:
    algorithms = (LinearAlgorithmSpec("dpe", "DPE"),
                  LinearAlgorithmSpec("dpe-fixedu", "DPE-FixedU (equal communication)"))
    panels = (Panel("c", "(c) DPE vs DPE-FixedU", _DPDPE, math.inf, 10 ** 6, algorithms,
                    delta=0.25),)
    return Experiment("dpdpe-fig2c", "dpdpe Fig. 2(c): DPE vs DPE-FixedU", panels, runs=20)


#: dpdpe's experiments, by name.
DPDPE_EXPERIMENTS: dict[str, Experiment] = {e.name: e for e in (
    _dpdpe_fig2a(), _dpdpe_fig2b(), _dpdpe_fig2c())}
