"""Fuzz rows for :mod:`dpverify.bandits.experiments` (the papers' figures as specs)."""

from __future__ import annotations

import dataclasses
import tempfile
from pathlib import Path

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
                                        "preset": "quick", "seed": 0},
                     kinds={"out_dir": "any", "runs": "count"},
                     avoid={"panels": (None,)},  # None runs every panel: minutes of real work
                     cases={"runs": (1000,)}),  # issue 28: beyond the reproduction limit
    "scaling_rows": Row(MODULE.scaling_rows, {"results": ()}),
}
NOT_FUZZED = {
    "EXPERIMENTS": "a registry dict",
    "SCALES": "a dict constant",
    "SCALING_EPSILONS": "a tuple constant",
    "HANNA_EPSILONS": "a tuple constant",
    "DPDPE_EPSILONS": "a tuple constant",
}

# ---- sweeps and the result store (issue 18)
_SWEEP_SPEC = MODULE.experiment_spec("dpdpe-fig2c", panels=("c",), runs=1)
_SPEC_FILE = Path(tempfile.mkdtemp(prefix="dpverify-fuzz-spec-")) / "sweep.toml"
_SPEC_FILE.write_text('experiment = "dpdpe-fig2c"\npanels = ["c"]\nruns = 1\n', encoding="utf-8")

ROWS.update({
    "SweepSpec": Row(MODULE.SweepSpec, lambda: _fields(_SWEEP_SPEC),
                     kinds={"description": "text", "note": "text", "reference": "text"}),
    "SweepResult": Row(MODULE.SweepResult, {"spec": _SWEEP_SPEC, "results": (), "files": (),
                                            "computed": 0, "cached": 0, "seconds": 0.0},
                       kinds={"computed": "count", "cached": "count", "seconds": "positive"}),
    "sweep": Row(MODULE.sweep, {"spec": _SWEEP_SPEC, "cache": False, "figures": False},
                 kinds={"cache_dir": "any", "out_dir": "any", "executor": "any",
                        "scheduler": "any"}),
    "load_sweep_spec": Row(MODULE.load_sweep_spec, {"path": str(_SPEC_FILE)},
                           kinds={"path": "text"}),
    "experiment_spec": Row(MODULE.experiment_spec, {"name": "dpdpe-fig2c", "panels": ("c",),
                                                    "runs": 1},
                           kinds={"runs": "count"}, avoid={"panels": (None,)},
                           cases={"runs": (1000,)}),  # issue 28: U calibrated on 1000 runs
    "ResultStore": Row(MODULE.ResultStore, {"directory": "store"}, kinds={"directory": "any"}),
    "default_cache_dir": Row(MODULE.default_cache_dir, {}),
})
