"""Fuzz rows for :mod:`dpverify.bandits.experiments` (the papers' figures as specs)."""

from __future__ import annotations

import dataclasses

import dpverify.bandits.experiments as MODULE
from fuzz._harness import Row

_EXPERIMENT = MODULE.EXPERIMENTS["chowdhury2023-fig1"]
_PANEL = _EXPERIMENT.panels[0]
_SPEC = _PANEL.algorithms[1]
_RESULT = MODULE.reproduce("chowdhury2023-fig1", panels=())


def _fields(value):
    return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}


ROWS = {
    "AlgorithmSpec": Row(MODULE.AlgorithmSpec, lambda: _fields(_SPEC),
                         kinds={"label": "text"}),
    "LinearAlgorithmSpec": Row(MODULE.LinearAlgorithmSpec,
                               {"name": "hanna-central", "label": "Hanna (central)"},
                               kinds={"label": "text"}),
    "Panel": Row(MODULE.Panel, lambda: _fields(_PANEL), kinds={"key": "text", "title": "text"}),
    "Experiment": Row(MODULE.Experiment, lambda: _fields(_EXPERIMENT),
                      kinds={"description": "text", "quick_divisor": "count"}),
    "ExperimentResult": Row(MODULE.ExperimentResult, lambda: _fields(_RESULT),
                            kinds={"seconds": "positive"}),
    "reproduce": Row(MODULE.reproduce, {"name": "chowdhury2023-fig1", "panels": (),
                                        "scale": "quick", "seed": 0},
                     kinds={"out_dir": "any", "runs": "count"},
                     avoid={"panels": (None,)}),  # None runs every panel: minutes of real work
    "scaling_rows": Row(MODULE.scaling_rows, {"results": ()}),
}
NOT_FUZZED = {
    "EXPERIMENTS": "a registry dict",
    "SCALES": "a dict constant",
    "SCALING_EPSILONS": "a tuple constant",
    "HANNA_EPSILONS": "a tuple constant",
    "DPDPE_EPSILONS": "a tuple constant",
}
