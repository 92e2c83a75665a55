"""Sweep specs: from a TOML file (:func:`load_sweep_spec`) or from the registry (:func:`experiment_spec`).

A spec file is a grid, expanded into one panel per (instance, horizon, ε, δ)::

    name = "easy-vs-eps"              # output files <name>.csv, <name>-runs.csv, ...
    kind = "curves"                   # or "scaling" (final regret against ε)
    runs = 10
    seed = 0
    checkpoints = 100
    epsilons = [0.5, 1.0]
    horizons = [100000]
    deltas = [1e-6]                   # optional (default 1e-6)

    [[algorithms]]
    name = "dist-dp-se"               # a make_algorithm or make_linear_algorithm name
    label = "Dist-DP-SE"              # optional (default: the name)
    options = { batch_base = 4, failure_probability = 0.1 }

    [[instances]]
    family = "easy"                   # random instances: easy | hard | mslr-synthetic
    n_arms = 10                       # optional; rewards = "bernoulli" | "clipped-gaussian"

    [[instances]]
    name = "three arms"               # an explicit instance (the same in every run)
    means = [0.2, 0.5, 0.7]
    rewards = "bernoulli"

    [[instances]]
    file = "my_instance.json"         # means, or theta and actions (dpverify.bandits.instance_files),
                                      # relative to the spec file

    [[instances]]
    linear_family = "sphere"          # Hanna et al. 2022's random instances (or "dpdpe"): n_arms, dimension

Or a registered experiment, run as a sweep: ``experiment = "chowdhury2023-fig1"``
with optional ``preset``, ``runs``, ``seed``, ``panels``.

Keys renamed in house v3 are still read for one release, with a ``FutureWarning``
naming the new key: ``arms`` (now ``n_arms``), ``scale`` (now ``preset``) and the algorithm
options of :data:`RENAMED_OPTIONS` (``confidence`` is now ``failure_probability``, ...).
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Any

from dpverify._deprecation import renamed_parameters
from dpverify._validation import (
    check_choice,
    check_delta,
    check_epsilon,
    check_instance,
    check_int_at_least,
    shown,
    value_error,
)
from dpverify.bandits._limits import check_horizon, check_reproduction_runs, check_runs
from dpverify.bandits.environments import instance_family
from dpverify.bandits.experiments._spec import SCALES, AlgorithmSpec, LinearAlgorithmSpec, Panel
from dpverify.bandits.experiments.registry import EXPERIMENTS
from dpverify.bandits.experiments.sweeps import SweepSpec, instance_entropy
from dpverify.bandits.instance_files import (
    _renamed_keys,
    instance_from_mapping,
    load_instance,
    read_toml,
)
from dpverify.bandits.linear import LINEAR_ALGORITHM_NAMES
from dpverify.bandits.linear.environments import LinearInstanceFamily
from dpverify.bandits.mab import ALGORITHM_NAMES
from dpverify.errors import DpverifyTypeError, DpverifyValueError

__all__ = ["load_sweep_spec", "sweep_spec_from_mapping", "experiment_spec", "RENAMED_OPTIONS"]

#: Algorithm options renamed in house v3 (old spelling -> new), read from spec files with a
#: warning for one release.
RENAMED_OPTIONS = {
    "confidence": "failure_probability",
    "tail_probability": "noise_failure_probability",
    "alpha": "client_sampling_exponent",
    "actions": "n_arms",
    "population": "population_size",
    "form": "batch_form",
    "L": "context_bound",
    "S": "theta_bound",
    "lam": "regularization",
    "m": "bits",
}

_TOP_KEYS = {"name", "kind", "runs", "seed", "checkpoints", "epsilons", "horizons", "deltas",
             "algorithms", "instances", "description", "per_user", "note", "reference",
             "experiment", "preset", "panels"}


#: Said on a quick-preset figure whose experiment states no check of its orderings at T/10.
_QUICK_NOTE = ("quick preset (reduced T and runs): the paper's orderings are checked at the full "
               "preset only; use --preset full")


@renamed_parameters(scale="preset")
def experiment_spec(name: str, *, preset: str = "quick", seed: int = 0, runs: int | None = None,
                    panels: tuple[str, ...] | None = None) -> SweepSpec:
    """The registered experiment ``name`` as a sweep at ``preset`` (``quick`` or ``full``).

    ``quick`` divides the horizons by the experiment's ``quick_divisor`` and
    uses 5 runs, and carries the experiment's ``quick_note`` when the reduced
    preset does not keep the paper's orderings (or a note that they are checked
    at the full preset only, when the horizons are reduced and the experiment says
    nothing).
    """
    experiment = EXPERIMENTS[check_choice(name, "name", tuple(EXPERIMENTS))]
    if experiment.kind == "contextual":
        raise value_error("name", name, "an experiment of bandit panels",
                          "the contextual experiments (garcelon2022-*) run through reproduce()")
    divisor, preset_runs = SCALES[check_choice(preset, "preset", tuple(SCALES))]
    divisor = experiment.quick_divisor if preset == "quick" else divisor
    runs = (check_reproduction_runs(runs) if runs is not None
            else (preset_runs or experiment.runs))
    check_panel_keys(panels)
    chosen = tuple(p for p in experiment.panels if panels is None or p.key in panels)
    if not chosen:
        raise value_error("panels", panels, "keys among " + ", ".join(p.key for p in experiment.panels))
    chosen = tuple(replace(p, horizon=max(p.horizon // divisor, 10)) for p in chosen)
    spec = SweepSpec(name=experiment.name, panels=chosen, runs=runs, seed=seed,
                     kind="scaling" if experiment.kind == "scaling" else "curves",
                     description=experiment.description,
                     note=(experiment.quick_note or (_QUICK_NOTE if divisor > 1 else ""))
                     if preset == "quick" else "",
                     reference=experiment.reference,
                     preset_label=(f"quick preset: horizons 1/{divisor} of the paper's"
                                   if divisor > 1 else "quick preset: the paper's horizons, fewer runs")
                     if preset == "quick" else "full preset: the paper's horizons and runs")
    # specs calibrated on the runs themselves (DPE-FixedU's U) are resolved here, once
    resolved = tuple(
        replace(panel, algorithms=tuple(a.resolve(panel, entropy, runs) if hasattr(a, "resolve")
                                        else a for a in panel.algorithms))
        for panel, entropy in zip(spec.panels, instance_entropy(spec)))
    return replace(spec, panels=resolved)


def check_panel_keys(panels: Any) -> Any:
    """Return ``panels`` if it is ``None`` or a tuple (or list) of panel keys (strings)."""
    if panels is not None and (isinstance(panels, str) or not isinstance(panels, (tuple, list))
                               or not all(isinstance(p, str) for p in panels)):
        raise DpverifyTypeError(f"panels={shown(panels)} must be None or a tuple of panel keys "
                                f"(strings)")
    return panels


def load_sweep_spec(path: str | Path) -> SweepSpec:
    """Read a sweep spec from a TOML file (module docstring)."""
    path = Path(check_instance(path, "path", (str, os.PathLike), "a TOML file path"))
    if not path.is_file():
        raise value_error("path", str(path), "an existing TOML file")
    data = read_toml(path)
    try:  # the whole spec is checked before anything runs; the message names the file and key
        return sweep_spec_from_mapping(data, directory=path.parent, default_name=path.stem)
    except (DpverifyValueError, DpverifyTypeError) as error:
        raise type(error)(f"{path}: {error}") from None


@renamed_parameters(base="directory")
def sweep_spec_from_mapping(data: dict[str, Any], *, directory: Path = Path("."),
                            default_name: str = "sweep") -> SweepSpec:
    """A :class:`SweepSpec` from the parsed TOML mapping (paths relative to ``directory``)."""
    data = _renamed_keys(data, {"scale": "preset"}, "spec")
    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        raise value_error("spec", unknown, f"keys among {sorted(_TOP_KEYS)}")
    if "experiment" in data:
        panels = data.get("panels")
        return experiment_spec(data["experiment"], preset=data.get("preset", "quick"),
                               seed=data.get("seed", 0), runs=data.get("runs"),
                               panels=None if panels is None else tuple(panels))
    algorithms = tuple(_algorithm(a) for a in _list(data, "algorithms"))
    instances = [_instances(i, directory) for i in _list(data, "instances")]
    epsilons = [check_epsilon(e, f"epsilons[{i}]", allow_zero=False)
                for i, e in enumerate(_list(data, "epsilons"))]
    horizons = [check_horizon(t, f"horizons[{i}]") for i, t in enumerate(_list(data, "horizons"))]
    deltas = [check_delta(d, f"deltas[{i}]", allow_zero=False)
              for i, d in enumerate(_list(data, "deltas") if "deltas" in data else [1e-6])]
    runs = check_runs(data.get("runs", 20), "runs")
    seed = check_int_at_least(data.get("seed", 0), "seed", 0)
    panels = []
    for label, family in instances:
        for horizon in horizons:
            for epsilon in epsilons:
                for delta in deltas:
                    key = f"{label}, T={horizon}, ε={epsilon:g}" + (
                        f", δ={delta:g}" if len(deltas) > 1 else "")
                    panels.append(Panel(key, key, family, epsilon, horizon, algorithms, delta))
    return SweepSpec(name=str(data.get("name", default_name)), panels=tuple(panels),
                     runs=runs, seed=seed,
                     kind=data.get("kind", "curves"), checkpoints=data.get("checkpoints", 200),
                     per_user=bool(data.get("per_user", False)),
                     description=str(data.get("description", "")), note=str(data.get("note", "")),
                     reference=str(data.get("reference", "")))


def _list(data: dict[str, Any], key: str) -> list[Any]:
    values = data.get(key)
    if not isinstance(values, list) or not values:
        raise value_error(key, values, "a non-empty list")
    return values


def _algorithm(entry: Any) -> Any:
    if not isinstance(entry, dict) or "name" not in entry:
        raise value_error("algorithms", entry, "tables with a name (and optional label, options)")
    name = check_choice(entry["name"], "algorithms.name", ALGORITHM_NAMES + LINEAR_ALGORITHM_NAMES)
    options = entry.get("options", {})
    if not isinstance(options, dict):
        raise value_error("algorithms.options", options, "a table of constructor options")
    options = _renamed_keys(options, RENAMED_OPTIONS, "algorithms.options")
    spec = AlgorithmSpec if name in ALGORITHM_NAMES else LinearAlgorithmSpec
    return spec(name, str(entry.get("label", name)), tuple(sorted(options.items())))


def _instances(entry: Any, base: Path) -> tuple[str, Any]:
    if not isinstance(entry, dict):
        raise value_error("instances", entry, "tables (family, linear_family, means/theta or file)")
    if "family" in entry or "linear_family" in entry:
        entry = _renamed_keys(entry, {"arms": "n_arms"}, "instances")
    if "family" in entry:
        family = instance_family(entry["family"], n_arms=entry.get("n_arms"),
                                 rewards=entry.get("rewards", "clipped-gaussian"))
        return entry.get("name", family.describe()), family
    if "linear_family" in entry:
        family = LinearInstanceFamily(entry["linear_family"], dimension=entry.get("dimension", 2),
                                      n_arms=entry.get("n_arms", 10))
        return entry.get("name", family.describe()), family
    if "file" in entry:
        instance = load_instance(base / entry["file"])
        return entry.get("name", instance.name), instance
    instance = instance_from_mapping(entry)
    return instance.name, instance
