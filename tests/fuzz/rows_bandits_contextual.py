"""Fuzz rows for :mod:`dpverify.bandits.contextual`."""

from __future__ import annotations

import dataclasses

import dpverify.bandits.contextual as MODULE
from fuzz._harness import Row

_PARAMETERS = MODULE.sblb_parameters(0.001, 1e-6, 10**4, 2)
_FIELDS = {f.name: getattr(_PARAMETERS, f.name) for f in dataclasses.fields(_PARAMETERS)}
_REAL = {"context_bound": "positive", "theta_bound": "positive", "regularization": "positive",
         "eta": "positive",
         "radius_scale": "positive", "correlation": "probability"}

ROWS = {
    "ContextualLinearBandit": Row(MODULE.ContextualLinearBandit,
                                  {"theta": (0.5, 0.5), "n_arms": 3}, kinds=_REAL),
    "ContextualInstanceFamily": Row(MODULE.ContextualInstanceFamily,
                                    {"dimension": 2, "n_arms": 3}, kinds=_REAL),
    "SBLB": Row(MODULE.SBLB, {"epsilon": 0.01}, kinds=_REAL),
    "LinUCB": Row(MODULE.LinUCB, {}, kinds=_REAL),
    "LDPLinUCB": Row(MODULE.LDPLinUCB, {"epsilon": 1.0}, kinds=_REAL),
    "SBLBParameters": Row(MODULE.SBLBParameters, _FIELDS, kinds=_REAL),
    "sblb_parameters": Row(MODULE.sblb_parameters,
                           {"epsilon": 0.001, "delta": 1e-6, "horizon": 10**4, "dimension": 2},
                           kinds=_REAL),
    "simulate_contextual": Row(MODULE.simulate_contextual,
                               {"algorithm": MODULE.LinUCB(),
                                "environment": MODULE.ContextualInstanceFamily(n_arms=2, dimension=2),
                                "horizon": 50, "runs": 1, "seed": 0, "checkpoints": 5},
                               kinds={"checkpoints": "count"}),
    "make_contextual_algorithm": Row(MODULE.make_contextual_algorithm,
                                     {"name": "ldp-linucb", "epsilon": 1.0, "delta": 1e-6}),
}
NOT_FUZZED = {
    "CONTEXT_GENERATORS": "a tuple constant",
    "CONTEXTUAL_ALGORITHMS": "a tuple constant",
}
