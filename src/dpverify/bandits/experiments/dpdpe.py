"""DP-DPE's experiments (Li, Zhou & Ji 2022, §7), registered into :data:`~dpverify.bandits.experiments.EXPERIMENTS`.

* ``dpdpe-fig2a`` — final regret against ε ∈ :data:`DPDPE_EPSILONS` of CDP-,
  LDP- and SDP-DPE at δ = 0.25; ``dpdpe-fig2b`` — time-average regret curves of
  DPE, CDP-, LDP-, SDP-DPE at ε = 10, δ = 0.25; ``dpdpe-fig2c`` — DPE vs DPE-FixedU
  at equal total communication: U is calibrated on the communication the runs
  actually use (:func:`~dpverify.bandits.linear.fixed_users.equal_communication_users`:
  the mean simulated C(T) of DPE-FixedU against DPE's, on the experiment's own
  seeds; ``make_linear_algorithm("dpe-fixedu")`` does the same by default);
  the nominal rule (a constant support of ⌊h_1⌋ = 103) gives U = 245 at
  T = 10^6 and 2.8x DPE's communication, because the real design support is
  about 25 and shrinks. All: T = 10^6, ``|U| = 10^5``, d = 20,
  k = 1000, σ = 0.1, α = 0.8, β = 1/(kT), 20 runs; paper mode (classical
  Gaussian calibration, as the figures).

``preset="quick"`` divides T by 10 (also for the ε sweep) and uses 5 runs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from dpverify.bandits.experiments._spec import Experiment, LinearAlgorithmSpec, Panel
from dpverify.bandits.linear.environments import LinearInstanceFamily
from dpverify.bandits.linear.fixed_users import equal_communication_users, mean_communication
from dpverify.errors import DpverifyValueError

__all__ = ["DPDPE_EPSILONS", "DPDPE_EXPERIMENTS", "EqualCommunicationSpec",
           "equal_communication_users", "mean_communication"]

#: ε grid of dpdpe-fig2a (ours; SDP needs ε < 15).
DPDPE_EPSILONS = (1.0, 2.0, 5.0, 10.0, 14.0)


_DPDPE = LinearInstanceFamily("dpdpe", dimension=20, n_arms=1000)


def _dpdpe_fig2a() -> Experiment:
    algorithms = (LinearAlgorithmSpec("dpdpe-central", "CDP-DPE"),
                  LinearAlgorithmSpec("dpdpe-local", "LDP-DPE"),
                  LinearAlgorithmSpec("dpdpe-shuffle", "SDP-DPE"))
    panels = tuple(Panel(f"eps={e:g}", f"ε = {e:g}", _DPDPE, e, 10 ** 6, algorithms, delta=0.25)
                   for e in DPDPE_EPSILONS)
    return Experiment("dpdpe-fig2a", "Li, Zhou & Ji 2022 Fig. 2(a): R(T) vs ε (δ = 0.25)", panels, runs=20,
                      kind="scaling", quick_divisor=10)


def _dpdpe_fig2b() -> Experiment:
    algorithms = (LinearAlgorithmSpec("dpe", "DPE"),
                  LinearAlgorithmSpec("dpdpe-central", "CDP-DPE"),
                  LinearAlgorithmSpec("dpdpe-local", "LDP-DPE"),
                  LinearAlgorithmSpec("dpdpe-shuffle", "SDP-DPE"))
    panels = (Panel("b", "(b) ε = 10, δ = 0.25", _DPDPE, 10.0, 10 ** 6, algorithms, delta=0.25),)
    return Experiment("dpdpe-fig2b", "Li, Zhou & Ji 2022 Fig. 2(b): per-round regret", panels, runs=20)


@dataclass(frozen=True)
class EqualCommunicationSpec:
    """DPE-FixedU with U calibrated on the runs' communication: resolved per panel by
    :meth:`resolve` (in :func:`~dpverify.bandits.experiments.spec_files.experiment_spec`)."""

    label: str
    name: str = "dpe-fixedu"

    def resolve(self, panel: Panel, seed: list[int], runs: int) -> LinearAlgorithmSpec:
        users = equal_communication_users(panel.horizon, panel.instances, tuple(seed), runs)
        return LinearAlgorithmSpec("dpe-fixedu", f"{self.label} (U = {users})", (("users", users),))

    def build(self, epsilon: float, delta: float) -> Any:
        raise DpverifyValueError("EqualCommunicationSpec is resolved per panel before building")


def _dpdpe_fig2c() -> Experiment:
    algorithms = (LinearAlgorithmSpec("dpe", "DPE"),
                  EqualCommunicationSpec("DPE-FixedU (equal communication)"))
    panels = (Panel("c", "(c) DPE vs DPE-FixedU", _DPDPE, math.inf, 10 ** 6, algorithms,
                    delta=0.25),)
    return Experiment("dpdpe-fig2c", "Li, Zhou & Ji 2022 Fig. 2(c): DPE vs DPE-FixedU", panels, runs=20)


#: The DP-DPE experiments (Li, Zhou & Ji 2022), by name.
DPDPE_EXPERIMENTS: dict[str, Experiment] = {e.name: e for e in (
    _dpdpe_fig2a(), _dpdpe_fig2b(), _dpdpe_fig2c())}
