"""Fuzz rows for :mod:`dpverify.bandits.mab`."""

from __future__ import annotations

import dpverify.bandits.mab as MODULE
from dpverify import ApproxDP
from dpverify.bandits.privatizers import CentralLaplace
from fuzz._harness import Row

_PRIVATIZER = CentralLaplace(epsilon=1.0)
_BATCHED = MODULE.successive_elimination()
_SHUFFLE = MODULE.arm_elimination()
_DPSE = MODULE.DPSE(epsilon=1.0)
_REQUEST = ApproxDP(1.0, 1e-6)
_POLICY = {"n_arms": 3, "horizon": 100, "per_user": False}

ROWS = {
    "BatchedSuccessiveElimination": Row(MODULE.BatchedSuccessiveElimination,
                                        {"privatizer": _PRIVATIZER, "batch_base": 2,
                                         "delta": 1e-6}, kinds={"name": "text"}),
    "BatchedEliminationPolicy": Row(MODULE.BatchedEliminationPolicy,
                                    {"algorithm": _BATCHED, **_POLICY}),
    "ShuffleArmElimination": Row(MODULE.ShuffleArmElimination,
                                 {"privatizer": _PRIVATIZER, "batch_size": 10}),
    "ShuffleEliminationPolicy": Row(MODULE.ShuffleEliminationPolicy,
                                    {"algorithm": _SHUFFLE, **_POLICY}),
    "calibrated_privatizer": Row(MODULE.calibrated_privatizer,
                                 {"privatizer": _PRIVATIZER, "batch_sizes": (2, 4),
                                  "requested": _REQUEST},
                                 kinds={"privatizer": "any", "batch_sizes": "sequence",
                                        "requested": "any"}),
    "secure_aggregation_plans": Row(MODULE.secure_aggregation_plans,
                                    {"epsilon": 1.0, "delta": 1e-6, "users": 100}),
    "DPSE": Row(MODULE.DPSE, {"epsilon": 1.0}),
    "DPSEPolicy": Row(MODULE.DPSEPolicy, {"algorithm": _DPSE, **_POLICY}),
    "successive_elimination": Row(MODULE.successive_elimination, {"batch_base": 2}),
    "arm_elimination": Row(MODULE.arm_elimination, {"batch_size": 10}),
    "sdp_ae": Row(MODULE.sdp_ae, {"epsilon": 1.0, "delta": 1e-6, "batch_size": 10}),
    "vb_sdp_ae": Row(MODULE.vb_sdp_ae, {"epsilon": 1.0, "delta": 1e-6}),
    "dist_dp_se": Row(MODULE.dist_dp_se, {"epsilon": 1.0, "batch_base": 2}),
    "dist_rdp_se": Row(MODULE.dist_rdp_se, {"epsilon": 1.0, "delta": 1e-6},
                       kinds={"scale_factor": "positive"}),
    "dist_cdp_se": Row(MODULE.dist_cdp_se, {"epsilon": 0.5}, kinds={"scale_factor": "positive"}),
    "shuffle_dp_se": Row(MODULE.shuffle_dp_se, {"epsilon": 1.0}),
    "cdp_se": Row(MODULE.cdp_se, {"epsilon": 1.0}),
    "ldp_se": Row(MODULE.ldp_se, {"epsilon": 1.0}),
    "make_algorithm": Row(MODULE.make_algorithm, {"name": "dist-dp-se", "epsilon": 1.0,
                                                  "delta": 1e-6}),
}
NOT_FUZZED = {"ALGORITHM_NAMES": "a tuple constant"}
