"""The linear-bandit experiments (hanna 2022 §6, dpdpe §7), registered into :data:`~dpverify.bandits.experiments.EXPERIMENTS`.

* ``hanna2022-fig2`` — final regret R_T against ε (ε0 for Alg. 2) of Alg. 1
  (central), Alg. 2 (local), Alg. 3 (shuffled, δ = 10^-6) and the non-private
  batched elimination; K = 10 actions and θ* uniform on S^1 (d = 2), T = 10^6,
  20 runs (the paper states none of ε grid, δ, runs: ours, CATALOGUE 001.5).
  ε grid :data:`HANNA_EPSILONS`; paper mode (the algorithms as printed).
* ``hanna2022-fig3b`` — K = 1000, d = 2, T = 10^7, ε = 1: Alg. 1 with a core
  set vs without (whole active set), and the non-private algorithm.
* ``dpdpe-fig2a`` — final regret against ε ∈ :data:`DPDPE_EPSILONS` of CDP-,
  LDP- and SDP-DPE at δ = 0.25; ``dpdpe-fig2b`` — time-average regret curves of
  DPE, CDP-, LDP-, SDP-DPE at ε = 10, δ = 0.25; ``dpdpe-fig2c`` — DPE vs DPE-FixedU
  (U for equal total communication). All: T = 10^6, ``|U| = 10^5``, d = 20,
  k = 1000, σ = 0.1, α = 0.8, β = 1/(kT), 20 runs; paper mode (classical
  Gaussian calibration, as the figures).

``scale="quick"`` divides T by 10 (also for the ε sweeps) and uses 5 runs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from dpverify.bandits.linear.environments import LinearInstanceFamily
from dpverify.bandits.experiments import Experiment, Panel

__all__ = ["LinearAlgorithmSpec", "LINEAR_EXPERIMENTS", "HANNA_EPSILONS", "DPDPE_EPSILONS"]

#: ε grid of hanna2022-fig2 (ours; the paper gives none).
HANNA_EPSILONS = (0.1, 0.3, 1.0, 3.0, 10.0)
#: ε grid of dpdpe-fig2a (ours; SDP needs ε < 15).
DPDPE_EPSILONS = (1.0, 2.0, 5.0, 10.0, 14.0)


@dataclass(frozen=True)
class LinearAlgorithmSpec:
    """A :func:`~dpverify.bandits.linear.make_linear_algorithm` name, options and plot label."""

    name: str
    label: str
    options: tuple[tuple[str, Any], ...] = ()

    @property
    def needs_horizon(self) -> bool:
        return self.name == "dpe-fixedu"

    def build(self, epsilon: float, delta: float, horizon: int | None = None) -> Any:
        from dpverify.bandits.linear import NON_PRIVATE_LINEAR_ALGORITHMS, make_linear_algorithm

        options = dict(self.options)
        if self.needs_horizon:
            options.update(horizon=horizon, dimension=20)
        private = self.name not in NON_PRIVATE_LINEAR_ALGORITHMS
        return make_linear_algorithm(self.name, epsilon=epsilon if private else None,
                                     delta=delta, **options)


def _hanna_fig2() -> Experiment:
    family = LinearInstanceFamily("sphere", 10, 2)
    algorithms = (LinearAlgorithmSpec("hanna-central", "Alg. 1 (central)"),
                  LinearAlgorithmSpec("hanna-local", "Alg. 2 (local, ε0 = ε)"),
                  LinearAlgorithmSpec("hanna-shuffled", "Alg. 3 (shuffled)"),
                  LinearAlgorithmSpec("hanna-nonprivate", "non-private"))
    panels = tuple(Panel(f"eps={e:g}", f"ε = {e:g}", family, e, 10 ** 6, algorithms)
                   for e in HANNA_EPSILONS)
    return Experiment("hanna2022-fig2", "hanna 2022 Fig. 2: R_T vs ε (K = 10, d = 2, T = 10^6)",
                      panels, runs=20, kind="scaling", quick_divisor=10)


def _hanna_fig3b() -> Experiment:
    family = LinearInstanceFamily("sphere", 1000, 2)
    algorithms = (LinearAlgorithmSpec("hanna-central", "Alg. 1 (core set)"),
                  LinearAlgorithmSpec("hanna-central", "Alg. 1 no core set",
                                      (("core_set", False),)),
                  LinearAlgorithmSpec("hanna-nonprivate", "non-private"))
    panels = (Panel("b", "(b) K = 1000, d = 2, ε = 1", family, 1.0, 10 ** 7, algorithms),)
    return Experiment("hanna2022-fig3b", "hanna 2022 Fig. 3(b): core set vs no core set",
                      panels, runs=20)


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


#: The linear experiments, by name.
LINEAR_EXPERIMENTS: dict[str, Experiment] = {e.name: e for e in (
    _hanna_fig2(), _hanna_fig3b(), _dpdpe_fig2a(), _dpdpe_fig2b(), _dpdpe_fig2c())}
