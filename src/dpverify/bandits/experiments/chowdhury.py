"""Chowdhury & Zhou 2023's experiments (Sec. 7, App. J): Figs 1–4.

* ``chowdhury2023-fig1`` — Fig. 1 (a)–(f): time-average regret ``Reg(t)/t``
  against t of DP-SE, Dist-DP-SE and Dist-RDP-SE (s = 10, 100), 20 random
  instances each: (a) easy, ε = 0.1, T = 10^6; (b) easy, ε = 0.5, T = 10^6;
  (c) hard, ε = 0.1, T = 10^7; (d–f) the **synthetic MSLR stand-in**
  (:func:`~dpverify.bandits.environments.mslr_synthetic_instance`; the real
  MSLR-WEB10K data cannot be downloaded here), K = 50, ε = 1, 5, 10, T = 10^6.
  Settings of the paper's experiments (Sec. 7, and the authors' public code): clipped
  Gaussian rewards (sd 0.1), failure probability p = 0.1 in β(b) and DP-SE, batches
  ``4^b`` (what produced the figures; Algorithm 1 says 2^b). τ keeps the
  theorems' p = 1/T (the reference code's log(2/0.1) only changes m).
* ``chowdhury2023-fig2`` — App. J Fig. 2: the same four algorithms on the easy
  instance at ε = 0.1, 0.5, 1, T = 10^6;
* ``chowdhury2023-fig3`` — App. J Fig. 3: the hard instance at ε = 0.1, 0.5, 1, T = 10^7;
* ``chowdhury2023-fig4`` — App. J Fig. 4: the trust models on the easy instance at
  ε = 0.1, 0.5, 1, T = 10^6: CDP-SE, LDP-SE, Dist-DP-SE, Dist-RDP-SE (s = 10)
  and Dist-CDP-SE (s = 10), batches 2^b (as in the authors' public code; the code of CDP-SE,
  LDP-SE and Dist-CDP-SE is unpublished: ours, from Thms 4–6). At ε = 1,
  Thms 4–6's regret bounds assume ε < 1; their privacy does not, and the
  guarantees' notes say so.

Panels with the same instance family (differing only in ε) share instances
and reward streams (common random numbers, as the authors' runs do). Dist-RDP-SE
and Dist-CDP-SE are RDP / zCDP: their (ε, δ) at δ = 10^-6 is larger than the
panel's ε, and the legends and CSVs carry it.
"""

from __future__ import annotations

from dpverify.bandits.environments import InstanceFamily
from dpverify.bandits.experiments._spec import AlgorithmSpec, Experiment, Panel

__all__ = ["CHOWDHURY_EXPERIMENTS"]


_FIG1_OPTIONS = (("batch_base", 4), ("failure_probability", 0.1))


def _fig1_algorithms() -> tuple[AlgorithmSpec, ...]:
    return (AlgorithmSpec("dp-se", "DP-SE", (("failure_probability", 0.1),)),
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
    return Experiment("chowdhury2023-fig1", "Chowdhury & Zhou 2023 Fig. 1: time-average regret vs t",
                      panels, runs=20, quick_note=_FIG1_QUICK_NOTE)


#: Why quick scale does not keep Fig. 1's orderings on the MSLR stand-in.
_FIG1_QUICK_NOTE = (
    "quick scale (T/10, 5 runs) does not keep the paper's ordering in (d)-(f): at K = 50 "
    "DP-SE's first epoch alone is about 53,100 rounds, half of T = 10^5; use --preset full")
_EPSILONS = (0.1, 0.5, 1.0)


def _over_epsilon(name: str, description: str, family: InstanceFamily, horizon: int,
                  algorithms: tuple[AlgorithmSpec, ...]) -> Experiment:
    panels = tuple(Panel(key, f"({key}) {family.name}, ε = {e:g}, K = {family.k}", family, e,
                         horizon, algorithms)
                   for key, e in zip("abc", _EPSILONS))
    return Experiment(name, description, panels, runs=20)


def _fig4_algorithms() -> tuple[AlgorithmSpec, ...]:
    options = (("batch_base", 2), ("failure_probability", 0.1))
    return (AlgorithmSpec("cdp-se", "CDP-SE", options),
            AlgorithmSpec("ldp-se", "LDP-SE", options),
            AlgorithmSpec("dist-dp-se", "Dist-DP-SE", options),
            AlgorithmSpec("dist-rdp-se", "Dist-RDP-SE (s=10)", options + (("scale_factor", 10.0),)),
            AlgorithmSpec("dist-cdp-se", "Dist-CDP-SE (s=10)", options + (("scale_factor", 10.0),)))


def _figs_2_to_4() -> tuple[Experiment, ...]:
    easy, hard = InstanceFamily("easy", 10), InstanceFamily("hard", 10)
    return (
        _over_epsilon("chowdhury2023-fig2", "Chowdhury & Zhou 2023 Fig. 2: easy instance, ε = 0.1, 0.5, 1",
                      easy, 10 ** 6, _fig1_algorithms()),
        _over_epsilon("chowdhury2023-fig3", "Chowdhury & Zhou 2023 Fig. 3: hard instance, ε = 0.1, 0.5, 1",
                      hard, 10 ** 7, _fig1_algorithms()),
        _over_epsilon("chowdhury2023-fig4",
                      "Chowdhury & Zhou 2023 Fig. 4: trust models (central, local, distributed), easy",
                      easy, 10 ** 6, _fig4_algorithms()))


#: Chowdhury & Zhou 2023's experiments, by name.
CHOWDHURY_EXPERIMENTS: dict[str, Experiment] = {e.name: e for e in (_fig1(), *_figs_2_to_4())}
