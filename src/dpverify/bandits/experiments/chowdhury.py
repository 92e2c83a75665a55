"""chowdhury 2023's experiments (Sec. 7): Fig. 1 (a)–(f).

* ``chowdhury2023-fig1`` — Fig. 1 (a)–(f): time-average regret ``Reg(t)/t``
  against t of DP-SE, Dist-DP-SE and Dist-RDP-SE (s = 10, 100), 20 random
  instances each: (a) easy, ε = 0.1, T = 10^6; (b) easy, ε = 0.5, T = 10^6;
  (c) hard, ε = 0.1, T = 10^7; (d–f) the **synthetic MSLR stand-in**
  (:func:`~dpverify.bandits.environments.mslr_synthetic_instance`; the real
  MSLR-WEB10K data cannot be downloaded here), K = 50, ε = 1, 5, 10, T = 10^6.
  Settings of the paper's experiments (Sec. 7, CATALOGUE A5): clipped
  Gaussian rewards (sd 0.1), confidence p = 0.1 in β(b) and DP-SE, batches
  ``4^b`` (what produced the figures; Algorithm 1 says 2^b). τ keeps the
  theorems' p = 1/T (the reference code's log(2/0.1) only changes m).
"""

from __future__ import annotations

from dpverify.bandits.environments import InstanceFamily
from dpverify.bandits.experiments._spec import AlgorithmSpec, Experiment, Panel

__all__ = ["CHOWDHURY_EXPERIMENTS"]


_FIG1_OPTIONS = (("batch_base", 4), ("confidence", 0.1))


def _fig1_algorithms() -> tuple[AlgorithmSpec, ...]:
    return (AlgorithmSpec("dp-se", "DP-SE", (("confidence", 0.1),)),
            AlgorithmSpec("dist-dp-se", "Dist-DP-SE", _FIG1_OPTIONS),
            AlgorithmSpec("dist-rdp-se", "Dist-RDP-SE (s=10)", _FIG1_OPTIONS + (("scale_factor", 10.0),)),
            AlgorithmSpec("dist-rdp-se", "Dist-RDP-SE (s=100)", _FIG1_OPTIONS + (("scale_factor", 100.0),)))


def _fig1() -> Experiment:
    algorithms = _fig1_algorithms()
    easy, hard = InstanceFamily("easy", 10), InstanceFamily("hard", 10)
    mslr = InstanceFamily("mslr-synthetic", 50)
    panels = (Panel("a", "(a) easy, ε = 0.1, K = 10", easy, 0.1, 10 ** 6, algorithms),
              Panel("b", "(b) easy, ε = 0.5, K = 10", easy, 0.5, 10 ** 6, algorithms),
              Panel("c", "(c) hard, ε = 0.1, K = 10", hard, 0.1, 10 ** 7, algorithms),
              Panel("d", "(d) MSLR stand-in, ε = 1, K = 50", mslr, 1.0, 10 ** 6, algorithms),
              Panel("e", "(e) MSLR stand-in, ε = 5, K = 50", mslr, 5.0, 10 ** 6, algorithms),
              Panel("f", "(f) MSLR stand-in, ε = 10, K = 50", mslr, 10.0, 10 ** 6, algorithms))
    return Experiment("chowdhury2023-fig1", "chowdhury 2023 Fig. 1: time-average regret vs t",
                      panels, runs=20)


#: chowdhury 2023's experiments, by name.
CHOWDHURY_EXPERIMENTS: dict[str, Experiment] = {e.name: e for e in (_fig1(),)}
