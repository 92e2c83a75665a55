"""Fuzz rows for :mod:`dpverify.bandits.linear`."""

from __future__ import annotations

import numpy as np

import dpverify.bandits.linear as MODULE
from dpverify.bandits.linear.environments import DistributedLinearBandit
from fuzz._harness import Row

_HANNA = MODULE.PhasedElimination(model="central", epsilon=1.0)
_DPDPE = MODULE.DistributedPhasedElimination(model="central", epsilon=1.0, delta=0.25)
_ENV = DistributedLinearBandit(actions=[[1.0, 0.0], [0.0, 1.0]], theta=[0.5, 0.5])

ROWS = {
    # delta=None is accepted: make_linear_algorithm passes it where the model uses no δ
    "PhasedElimination": Row(MODULE.PhasedElimination, {"model": "central", "epsilon": 1.0,
                                                        "delta": 1e-6}, kinds={"delta": "any"}),
    "PhasedEliminationPolicy": Row(MODULE.PhasedEliminationPolicy,
                                   {"algorithm": _HANNA,
                                    "actions": np.array([[1.0, 0.0], [0.0, 1.0]]),
                                    "horizon": 100, "per_user": False}),
    "DistributedPhasedElimination": Row(MODULE.DistributedPhasedElimination,
                                        {"model": "central", "epsilon": 1.0, "delta": 0.25},
                                        kinds={"client_sampling_exponent": "probability",
                                               "heterogeneity": "positive",
                                               "reward_bound": "positive"}),
    "DistributedPhasedEliminationPolicy": Row(MODULE.DistributedPhasedEliminationPolicy,
                                              {"algorithm": _DPDPE, "environment": _ENV,
                                               "horizon": 100, "per_user": False}),
    "fixed_users_for_equal_communication": Row(MODULE.fixed_users_for_equal_communication,
                                               {"horizon": 100, "dimension": 2,
                                                "client_sampling_exponent": 0.8},
                                               kinds={"client_sampling_exponent": "probability"}),
    "phase_schedule": Row(MODULE.phase_schedule,
                          {"horizon": 100, "dimension": 2, "client_sampling_exponent": 0.8},
                          kinds={"client_sampling_exponent": "probability"}),
    "fixed_users": Row(MODULE.fixed_users, {"horizon": 1000, "dimension": 2, "n_arms": 5,
                                            "runs": 1},
                       # issue 28: minutes of simulated designs; refused by its work estimate
                       cases={"dimension": (1000, 10**4)}),
    "make_linear_algorithm": Row(MODULE.make_linear_algorithm,
                                 {"name": "hanna-central", "epsilon": 1.0, "delta": 1e-6}),
}
NOT_FUZZED = {
    "FIXED_USERS_RULES": "a tuple constant",
    "LINEAR_ALGORITHM_NAMES": "a tuple constant",
    "NON_PRIVATE_LINEAR_ALGORITHMS": "a frozenset constant",
}
