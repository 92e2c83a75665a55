"""Resource limits of the bandit simulators, checked before any work starts.

Each limit names what grows with the parameter and what to do beyond it. They
are generous for the papers' experiments (T <= 10^7 per run, <= 100 runs,
K <= 10^3 arms) and stop a mistyped exponent before it exhausts the machine.
"""

from __future__ import annotations

from typing import Any

from dpverify._validation import check_positive_int

__all__ = ["MAX_ARMS", "MAX_HORIZON", "MAX_RUNS", "MAX_CHECKPOINTS", "MAX_REPRODUCTION_RUNS",
           "check_arms", "check_horizon", "check_runs", "check_reproduction_runs"]

#: Policies keep per-arm statistics in memory.
MAX_ARMS = 10**6
#: Rounds per run: batched algorithms draw batch totals from exact aggregate laws, so time grows
#: with the number of batches, but per-round bookkeeping (contexts, per-user randomizers, linear
#: designs) grows with T.
MAX_HORIZON = 10**10
#: Runs are held in memory as (runs × checkpoints) regret arrays and seeds.
MAX_RUNS = 10**5
#: Checkpoints per run (log-spaced by default).
MAX_CHECKPOINTS = 10**5
#: Runs per curve of a paper reproduction: 5x the papers' 20. Every run is simulated once per
#: algorithm and panel (DP-DPE Fig. 2(c) also calibrates U on up to 12 simulations of them),
#: so at the quick preset 100 runs take seconds to a few minutes, and at the full preset 5x
#: the paper's own experiment.
MAX_REPRODUCTION_RUNS = 100


def check_arms(value: Any, name: str = "n_arms") -> int:
    return check_positive_int(value, name, maximum=MAX_ARMS,
                              instead="policies keep per-arm statistics in memory")


def check_horizon(value: Any, name: str = "horizon", *, maximum: int = MAX_HORIZON,
                  instead: str = "simulate shorter horizons (regret curves are log-spaced)") -> int:
    return check_positive_int(value, name, maximum=maximum, instead=instead)


def check_runs(value: Any, name: str = "runs") -> int:
    return check_positive_int(value, name, maximum=MAX_RUNS,
                              instead="split the runs into several calls with different seeds")


def check_reproduction_runs(value: Any, name: str = "runs") -> int:
    return check_positive_int(value, name, maximum=MAX_REPRODUCTION_RUNS,
                              instead="the papers average 20 runs; for more, run several "
                                      "reproductions with different seeds")
