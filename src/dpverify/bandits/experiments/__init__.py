"""The papers' experiments: a registry of named figures, one module per paper family, the runner.

* :mod:`~dpverify.bandits.experiments.registry` — :data:`EXPERIMENTS`, assembled
  from :mod:`.chowdhury`, :mod:`.tenenbaum`, :mod:`.hanna`, :mod:`.dpdpe`, :mod:`.garcelon`;
* :mod:`~dpverify.bandits.experiments.reproduction` — :func:`reproduce` (a named sweep);
* :mod:`~dpverify.bandits.experiments.sweeps` — :func:`sweep` of a :class:`SweepSpec` on any
  executor (:mod:`dpverify.execution`), cached in a :class:`ResultStore`
  (:mod:`~dpverify.bandits.store`); specs from TOML or the registry
  (:mod:`~dpverify.bandits.experiments.spec_files`); tables and files
  (:mod:`~dpverify.bandits.experiments.tables`);
* :mod:`~dpverify.bandits.experiments._spec` — the values (:class:`AlgorithmSpec`,
  :class:`Panel`, :class:`Experiment`, :class:`ExperimentResult`).

Figures come from :mod:`dpverify.bandits.plots`, which works on result tables
and never imports this package.
"""

from dpverify.bandits.experiments._spec import (
    SCALES,
    AlgorithmSpec,
    Experiment,
    ExperimentResult,
    LinearAlgorithmSpec,
    Panel,
)
from dpverify.bandits.experiments.dpdpe import DPDPE_EPSILONS
from dpverify.bandits.experiments.hanna import HANNA_EPSILONS
from dpverify.bandits.experiments.registry import EXPERIMENTS
from dpverify.bandits.experiments.reproduction import reproduce, scaling_rows
from dpverify.bandits.experiments.spec_files import experiment_spec, load_sweep_spec
from dpverify.bandits.experiments.sweeps import SweepResult, SweepSpec, sweep
from dpverify.bandits.experiments.tenenbaum import SCALING_EPSILONS
from dpverify.bandits.store import ResultStore, default_cache_dir

__all__ = [
    "AlgorithmSpec",
    "LinearAlgorithmSpec",
    "Panel",
    "Experiment",
    "ExperimentResult",
    "EXPERIMENTS",
    "SCALES",
    "SCALING_EPSILONS",
    "HANNA_EPSILONS",
    "DPDPE_EPSILONS",
    "reproduce",
    "scaling_rows",
    "SweepSpec",
    "SweepResult",
    "sweep",
    "load_sweep_spec",
    "experiment_spec",
    "ResultStore",
    "default_cache_dir",
]
