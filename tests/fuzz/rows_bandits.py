"""Fuzz rows for :mod:`dpverify.bandits` (values, environments, the simulator, experiments)."""

from __future__ import annotations

import dataclasses

import dpverify.bandits as MODULE
from dpverify import PureDP
from dpverify.bandits import (
    BanditGuarantee,
    Batch,
    BernoulliBandit,
    CategoricalBandit,
    ClippedGaussianBandit,
    InstanceFamily,
    RewardBatch,
    SimulationResult,
)
from dpverify.bandits.simulate import simulate
from fuzz._harness import Row

_SE = MODULE.make_algorithm("se")
_PLAN = MODULE.plan_deployment("dist-rdp-se", epsilon=1.0, delta=1e-6, horizon=10**4, n_arms=3)
_RESULT = simulate(_SE, BernoulliBandit((0.2, 0.8)), 50, runs=2, seed=0, checkpoints=5)


def _fields(value):
    return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}


ROWS = {
    "BanditGuarantee": Row(BanditGuarantee, {"model": "central", "per_batch": PureDP(1.0),
                                             "total": PureDP(1.0), "approx_dp": None},
                           # None: a non-private algorithm has no guarantee
                           kinds={"per_batch": "any", "total": "any", "approx_dp": "any",
                                  "notes": "text"}),
    "Batch": Row(Batch, {"arm": 0, "size": 4}),
    "RewardBatch": Row(RewardBatch, {"size": 4, "total": 2, "binary": True},
                       kinds={"total": "positive", "values": "sequence"}),
    "BernoulliBandit": Row(BernoulliBandit, {"means": (0.2, 0.8)}),
    "ClippedGaussianBandit": Row(ClippedGaussianBandit, {"means": (0.5,), "sigma": 0.1}),
    "CategoricalBandit": Row(CategoricalBandit,
                             {"label_probabilities": ((0.2,) * 5, (0.1, 0.1, 0.2, 0.2, 0.4))}),
    "InstanceFamily": Row(InstanceFamily, {"name": "easy", "n_arms": 10, "rewards": "bernoulli"}),
    "instance_family": Row(MODULE.instance_family, {"name": "easy", "n_arms": 10,
                                                    "rewards": "bernoulli"}),
    "make_algorithm": Row(MODULE.make_algorithm, {"name": "dist-dp-se", "epsilon": 1.0,
                                                  "delta": 1e-6}),
    "plan_deployment": Row(MODULE.plan_deployment, {"name": "dist-rdp-se", "epsilon": 1.0,
                                                    "delta": 1e-6, "horizon": 10**4, "n_arms": 3}),
    "DeploymentPlan": Row(MODULE.DeploymentPlan, lambda: _fields(_PLAN),
                          # None: a non-private algorithm has no request, guarantee or per-batch one
                          kinds={"requested": "any", "guarantee": "any", "per_batch": "any"}),
    "SimulationResult": Row(SimulationResult, lambda: _fields(_RESULT),
                            kinds={"seconds": "positive", "seed": "any", "guarantee": "any",
                                   "communication_cost": "sequence"}),
    "reproduce": Row(MODULE.reproduce, {"name": "chowdhury2023-fig1", "panels": (),
                                        "preset": "quick", "seed": 0},
                     kinds={"out_dir": "any", "runs": "count"},
                     avoid={"panels": (None,)}),  # None runs every panel: minutes of real work
    # the simulator is reached through dpverify.bandits.simulate
    "simulate.simulate": Row(simulate, {"algorithm": _SE, "environment": BernoulliBandit((0.2, 0.8)),
                               "horizon": 50, "runs": 1, "seed": 0, "checkpoints": 5},
                    kinds={"checkpoints": "count"}),
}
NOT_FUZZED = {
    "BanditAlgorithm": "a typing.Protocol (structural type), not called",
    "Policy": "a typing.Protocol (structural type), not called",
    "ALGORITHM_NAMES": "a tuple constant",
    "EXPERIMENTS": "a registry dict",
    "ALL_ALGORITHM_NAMES": "a tuple constant",
    "ALGORITHM_FAMILIES": "a registry dict (name -> family)",
    "NON_PRIVATE_ALGORITHMS": "a frozenset constant",
}
