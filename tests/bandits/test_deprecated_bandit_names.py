"""Every parameter renamed in bandits/ and claims/ (house v3) still works for one release.

One row per renamed callable: a valid call under the new names. For each of the
callable's renames (its ``__renamed_parameters__``), the same call with the old
spelling returns what the new one returns, with a DeprecationWarning naming both;
a completeness check makes sure no renamed callable lacks a row.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
import re
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import dpverify.bandits
import dpverify.claims
from dpverify.bandits import design, environments, instance_files, mslr, plan, plots, registry, simulate, store
from dpverify.bandits.contextual import (
    SBLB,
    ContextualInstanceFamily,
    LDPLinUCB,
    LinUCB,
    SBLBParameters,
    linucb,
    parameters,
    reports,
)
from dpverify.bandits.experiments import EXPERIMENTS, ExperimentResult, SweepSpec, experiment_spec, reproduce
from dpverify.bandits.experiments import garcelon as garcelon_experiments
from dpverify.bandits.experiments.spec_files import sweep_spec_from_mapping
from dpverify.bandits.linear import (
    DistributedPhasedElimination,
    PhasedElimination,
    fixed_users,
    make_linear_algorithm,
    phased_elimination,
)
from dpverify.bandits.linear import (
    distributed_phased_elimination as dpdpe,
)
from dpverify.bandits.linear import (
    environments as linear_env,
)
from dpverify.bandits.linear import (
    privatizers as linear_privatizers,
)
from dpverify.bandits.mab import (
    DPSE,
    BatchedSuccessiveElimination,
    ShuffleArmElimination,
    batched_elimination,
    dp_se,
    secure_aggregation_plans,
)
from dpverify.bandits.privatizers import (
    CentralDiscreteLaplace,
    DiscreteGaussianSecureAggregation,
    ErrorLaw,
    LocalDiscreteLaplace,
    NonPrivate,
    PolyaSecureAggregation,
    PolyaShuffle,
    SkellamSecureAggregation,
    distributed_cdp_parameters,
    distributed_dp_parameters,
    distributed_rdp_parameters,
)
from dpverify.claims import garcelon, hanna, report
from dpverify.claims import regret_bounds as rb

_RNG_SEED = 3


def _caption_of(plot: Callable[..., Any]) -> Callable[..., Any]:
    """``plot`` returning its figure's caption line (figures compare by what they say)."""
    def caption(**kwargs: Any) -> str:
        import matplotlib.pyplot as pyplot

        figure = plot(**kwargs)
        text = figure.texts[-1].get_text()
        pyplot.close(figure)
        return text

    caption.__renamed_parameters__ = plot.__renamed_parameters__  # type: ignore[attr-defined]
    return caption

_SBLB_FIELDS = {f.name: getattr(parameters.sblb_parameters(0.001, 1e-6, 10**4, 2), f.name)
                for f in dataclasses.fields(SBLBParameters)}
_MSLR_ROWS = "\n".join(f"{label} qid:1 1:{10.0 * (i % 3)} 2:{i % 5}.0" for i, label in
                       enumerate([0, 1, 2, 3, 4] * 6)) + "\n"

#: name -> (callable, valid keyword arguments under the new names).
ROWS: dict[str, tuple[Callable[..., Any], dict[str, Any]]] = {
    # multi-armed
    "DPSE": (DPSE, {"epsilon": 0.5, "failure_probability": 0.1}),
    "DPSE.plan": (DPSE(0.5).plan, {"horizon": 1000, "n_arms": 3}),
    "dp_se_epoch_length": (dp_se.dp_se_epoch_length,
                           {"epoch": 1, "active_arms": 3, "epsilon": 0.5, "failure_probability": 0.1}),
    "dp_se_radius": (dp_se.dp_se_radius, {"epoch": 1, "epoch_length": 100, "active_arms": 3,
                                          "epsilon": 0.5, "failure_probability": 0.1}),
    "BatchedSuccessiveElimination": (BatchedSuccessiveElimination,
                                     {"privatizer": NonPrivate(), "failure_probability": 0.1}),
    "BatchedSuccessiveElimination.plan": (BatchedSuccessiveElimination(NonPrivate()).plan,
                                          {"horizon": 1000, "n_arms": 3}),
    "ShuffleArmElimination.plan": (ShuffleArmElimination(NonPrivate(), 4).plan,
                                   {"horizon": 1000, "n_arms": 3}),
    **{name: (getattr(batched_elimination, name),
              {"epsilon": 0.5, "noise_failure_probability": 0.01})
       for name in ("dist_dp_se", "dist_rdp_se", "dist_cdp_se", "shuffle_dp_se", "cdp_se", "ldp_se")},
    "secure_aggregation_plans": (secure_aggregation_plans,
                                 {"epsilon": 1.0, "delta": 1e-6, "users": 100,
                                  "failure_probability": 1e-6, "value_bound": 2.0}),
    # privatizers
    "ErrorLaw": (ErrorLaw, {"sigma": 1.0, "sub_exponential_scale": 0.5}),
    **{cls.__name__: (cls, {"epsilon": 0.5, "failure_probability": 0.01})
       for cls in (PolyaSecureAggregation, PolyaShuffle, SkellamSecureAggregation,
                   DiscreteGaussianSecureAggregation, CentralDiscreteLaplace, LocalDiscreteLaplace)},
    "distributed_dp_parameters": (distributed_dp_parameters,
                                  {"epsilon": 1.0, "users": 16, "failure_probability": 1e-3}),
    "distributed_rdp_parameters": (distributed_rdp_parameters,
                                   {"epsilon": 1.0, "users": 16, "failure_probability": 1e-3,
                                    "scale_factor": 10.0}),
    "distributed_cdp_parameters": (distributed_cdp_parameters,
                                   {"epsilon": 0.5, "users": 16, "failure_probability": 1e-3,
                                    "scale_factor": 10.0}),
    # instances
    "easy_instance": (environments.easy_instance, {"n_arms": 4, "rng": _RNG_SEED}),
    "hard_instance": (environments.hard_instance, {"n_arms": 4, "rng": _RNG_SEED}),
    "mslr_synthetic_instance": (environments.mslr_synthetic_instance,
                                {"n_arms": 4, "rng": _RNG_SEED}),
    "instance_family": (environments.instance_family, {"name": "easy", "n_arms": 4}),
    "ClippedGaussianBandit": (environments.ClippedGaussianBandit, {"means": (0.3, 0.6), "sigma": 0.2}),
    "clipped_normal_mean": (environments.clipped_normal_mean, {"mu": 0.3, "sigma": 0.2}),
    "FixedInstance": (instance_files.FixedInstance,
                      {"name": "two", "means": (0.3, 0.6), "rewards": "clipped-gaussian",
                       "sigma": 0.2}),
    "mslr_instance": (mslr.mslr_instance, {"path": "MSLR", "n_arms": 3, "features": 2}),
    "instance_sizes": (plan.instance_sizes, {"family": "linear", "n_arms": 5, "dimension": 2}),
    "plan_deployment": (registry.plan_deployment,
                        {"name": "hanna-central", "epsilon": 1.0, "horizon": 1000, "dimension": 2,
                         "n_arms": 5}),
    # linear
    "sphere_instance": (linear_env.sphere_instance, {"n_arms": 5, "dimension": 2, "rng": _RNG_SEED}),
    "dpdpe_instance": (linear_env.dpdpe_instance,
                       {"n_arms": 5, "dimension": 2, "rng": _RNG_SEED, "population_size": 100}),
    "DistributedLinearBandit": (linear_env.DistributedLinearBandit,
                                {"actions": np.eye(2), "theta": [0.6, 0.0], "population_size": 100,
                                 "sigma": 0.5}),
    "LinearInstanceFamily": (linear_env.LinearInstanceFamily,
                             {"kind": "dpdpe", "dimension": 2, "n_arms": 5, "population_size": 100}),
    "DistributedPhasedElimination": (DistributedPhasedElimination,
                                     {"model": "none", "client_sampling_exponent": 0.5,
                                      "failure_probability": 0.01}),
    "DistributedPhasedElimination.plan": (DistributedPhasedElimination("none").plan,
                                          {"horizon": 1000, "n_arms": 5, "dimension": 2}),
    "PhasedElimination.plan": (PhasedElimination("none").plan,
                               {"horizon": 1000, "n_arms": 5, "dimension": 2}),
    "dpdpe_width": (dpdpe.dpdpe_width, {"dimension": 2, "users": 2, "plays": 20.0,
                                        "heterogeneity": 0.1, "width_sigma": 0.0,
                                        "failure_probability": 0.01}),
    "phase_schedule": (dpdpe.phase_schedule,
                       {"horizon": 1000, "dimension": 2, "client_sampling_exponent": 0.8}),
    "fixed_users_for_equal_communication": (dpdpe.fixed_users_for_equal_communication,
                                            {"horizon": 1000, "dimension": 2,
                                             "client_sampling_exponent": 0.8}),
    "fixed_users": (fixed_users, {"horizon": 1000, "rule": "nominal", "dimension": 2, "n_arms": 5}),
    "make_linear_algorithm": (make_linear_algorithm,
                              {"name": "dpe-fixedu", "horizon": 1000, "users": "nominal",
                               "dimension": 2, "n_arms": 5}),
    "batch_pulls": (phased_elimination.batch_pulls,
                    {"probabilities": [0.5, 0.5], "batch_base": 2.0, "batch_index": 3}),
    "hanna_width": (phased_elimination.hanna_width,
                    {"model": "none", "mode": "paper", "dimension": 2, "batch_base": 2.0,
                     "batch_index": 1, "active": 4, "horizon": 1000, "action_sizes": [2, 2],
                     "epsilon": None}),
    "LocalGaussianAverage": (linear_privatizers.LocalGaussianAverage,
                             {"epsilon": 1.0, "delta": 1e-5, "local_constant": "thm2",
                              "value_bound": 2.0}),
    **{cls.__name__: (cls, {"epsilon": 1.0, "delta": 1e-5, "value_bound": 2.0})
       for cls in (linear_privatizers.CentralGaussianAverage, linear_privatizers.ShuffleVectorAverage)},
    "ExactAverage": (linear_privatizers.ExactAverage, {"value_bound": 2.0}),
    **{f"{cls.__name__}.width_sigma": (cls(1.0, 1e-5).width_sigma if cls is not
                                       linear_privatizers.ExactAverage else cls().width_sigma,
                                       {"users": 4, "dimension": 3, "span_dimension": 2})
       for cls in (linear_privatizers.CentralGaussianAverage, linear_privatizers.LocalGaussianAverage,
                   linear_privatizers.ShuffleVectorAverage, linear_privatizers.ExactAverage)},
    # designs and nets
    "Design": (design.Design, {"probabilities": np.array([0.5, 0.5]), "support": np.array([0, 1]),
                               "g_value": 2.0, "dimension": 2, "basis": np.eye(2),
                               "iterations": 1}),
    "g_value": (design.g_value, {"coordinates": np.eye(2), "probabilities": np.array([0.5, 0.5])}),
    **{name: (getattr(design, name), {"dimension": 2}) for name in ("design_budget",
                                                                    "support_size_bound")},
    **{name: (getattr(design, name), {"dimension": 2, "zeta": 0.5}) for name in (
        "net_size_bound", "ball_net", "sphere_net")},
    # contextual
    "LinUCB": (LinUCB, {"failure_probability": 0.05, "regularization": 2.0, "context_bound": 1.0,
                        "theta_bound": 0.5}),
    "LinUCB.plan": (LinUCB().plan, {"horizon": 100, "n_arms": 3, "dimension": 2}),
    "LDPLinUCB": (LDPLinUCB, {"epsilon": 1.0, "bits": 2, "context_bound": 1.0, "theta_bound": 0.5}),
    "LDPLinUCB.plan": (LDPLinUCB(1.0).plan, {"horizon": 100, "n_arms": 3, "dimension": 2}),
    "SBLB": (SBLB, {"epsilon": 0.01, "batch_form": "printed", "context_bound": 1.0,
                    "theta_bound": 0.5}),
    "SBLB.plan": (SBLB(0.01).plan, {"horizon": 1000, "n_arms": 3, "dimension": 2}),
    "SBLBParameters": (SBLBParameters, _SBLB_FIELDS),
    "ContextualInstanceFamily": (ContextualInstanceFamily,
                                 {"n_arms": 3, "dimension": 2, "theta_bound": 0.5}),
    "oful_radius": (linucb.oful_radius, {"samples": 10, "failure_probability": 0.05, "sigma": 0.5,
                                         "dimension": 2, "context_bound": 1.0, "theta_bound": 0.5,
                                         "regularization": 2.0}),
    "number_of_bits": (parameters.number_of_bits, {"bits": 2, "dimension": 3}),
    "randomization_probability": (parameters.randomization_probability,
                         {"local_epsilon": 1.0, "bits": 1, "dimension": 2}),
    "local_epsilon": (parameters.local_epsilon,
                      {"randomization_probability": 0.5, "bits": 1, "dimension": 2}),
    "regularizer": (parameters.regularizer,
                    {"samples": 100, "failure_probability": 0.1, "bits": 1,
                     "randomization_probability": 0.5, "regularization": 1.0}),
    "confidence_radius": (parameters.confidence_radius,
                          {"samples": 10, "failure_probability": 0.1, "sigma": 0.5, "dimension": 2,
                           "context_bound": 1.0, "theta_bound": 1.0, "bits": 1,
                           "randomization_probability": 0.5, "regularization": 1.0}),
    "batch_length": (parameters.batch_length,
                     {"epsilon": 0.5, "shuffle_delta": 1e-6, "horizon": 10**6, "bits": 1,
                      "dimension": 1, "randomization_probability": 0.5, "batch_form": "printed"}),
    "cor8_epsilon_limit": (parameters.cor8_epsilon_limit, {"horizon": 10**4}),
    "sblb_parameters": (parameters.sblb_parameters,
                        {"epsilon": 0.001, "delta": 1e-6, "horizon": 10**4, "dimension": 2,
                         "batch_form": "printed", "context_bound": 1.0, "theta_bound": 1.0}),
    "entry_count": (reports.entry_count, {"dimension": 3}),
    "debias": (reports.debias, {"counts": [[4, 3]], "users": 2, "dimension": 1, "bits": 2,
                                "randomization_probability": 0.5}),
    "randomize_totals": (reports.randomize_totals,
                         {"ones": [[3, 0]], "users": 3, "bits": 1, "randomization_probability": 0.5,
                          "rng": _RNG_SEED}),
    # claims
    "dpdpe_sigma0": (rb.dpdpe_sigma0, {"epsilon": 1.0, "delta": 0.25, "reward_bound": 2.0}),
    **{name: (getattr(rb, name), {"horizon": 10**4, "dimension": 2, "n_arms": 5, "epsilon": 10.0,
                                  "delta": 0.25, "reward_bound": 1.0,
                                  "client_sampling_exponent": 0.7, "heterogeneity": 0.2,
                                  **({"constant": 1.0} if name == "dpdpe_thm7" else {})})
       for name in ("dpdpe_thm5", "dpdpe_thm6", "dpdpe_thm7")},
    "dpdpe_thm4": (rb.dpdpe_thm4, {"horizon": 10**4, "dimension": 2, "n_arms": 5,
                                   "client_sampling_exponent": 0.7, "heterogeneity": 0.2}),
    "garcelon_thm10": (rb.garcelon_thm10,
                       {"horizon": 10**4, "dimension": 2, "context_bound": 1, "theta_bound": 1,
                        "bits": 1, "randomization_probability": 0.9, "eta": 0.5,
                        "regularization": 100, "epsilon": 0.5, "delta": 0.1, "shuffle_delta": 0.1}),
    "garcelon_cor8": (rb.garcelon_cor8, {"horizon": 10**4, "epsilon": 0.003, "dimension": 2,
                                         "context_bound": 1.0, "theta_bound": 1.0,
                                         "shuffle_delta": 1e-6}),
    "garcelon_cor7": (rb.garcelon_cor7, {"horizon": 10**4, "local_epsilon": 1.0, "constant": 1.0}),
    "garcelon_fixed_batch": (rb.garcelon_fixed_batch,
                             {"horizon": 100, "radius": 1.0, "batches": 10, "dimension": 1}),
    "hanna_thm1": (rb.hanna_thm1, {"horizon": 10**4, "epsilon": 1.0, "constant": 1.0,
                                   "dimension": 2}),
    "hanna_thm2": (rb.hanna_thm2, {"horizon": 10**4, "local_epsilon": 1.0, "dimension": 2,
                                   "constant": 1.0}),
    "hanna_thm3": (rb.hanna_thm3, {"horizon": 10**4, "epsilon": 1.0, "delta": 1e-6,
                                   "constant": 1.0, "dimension": 2}),
    **{name: (getattr(rb, name), {"gaps": [0.0, 0.5], "horizon": 10**4, "sigma": 1.0,
                                  "batch_size": 4, "constant": 1.0})
       for name in ("tenenbaum_thm31",)},
    "tenenbaum_cor32": (rb.tenenbaum_cor32, {"gaps": [0.0, 0.5], "horizon": 10**4, "epsilon": 1.0,
                                             "delta": 1e-6, "constant": 1.0}),
    "tenenbaum_thm33": (rb.tenenbaum_thm33, {"gaps": [0.0, 0.5], "horizon": 10**4, "sigma": 1.0,
                                             "constant": 1.0}),
    "tenenbaum_cor34": (rb.tenenbaum_cor34, {"gaps": [0.0, 0.5], "horizon": 10**4, "epsilon": 1.0,
                                             "delta": 1e-6, "constant": 1.0}),
    "chowdhury_lemma2": (rb.chowdhury_lemma2, {"gaps": [0.0, 0.5], "horizon": 10**4, "sigma": 1.0,
                                               "sub_exponential_scale": 1.0, "constant": 1.0}),
    "chowdhury_theorem": (rb.chowdhury_theorem, {"variant": "dist-dp-se", "gaps": [0.0, 0.5],
                                                 "horizon": 10**4, "epsilon": 1.0,
                                                 "constant": 1.0}),
    "first_release_horizon": (garcelon.first_release_horizon,
                              {"batch_form": "printed", "dimension": 1, "shuffle_delta": 1e-6}),
    "prop13_against_exact": (garcelon.prop13_against_exact,
                             {"batch_length": 200, "randomization_probability": 0.5,
                              "dimension": 1, "shuffle_delta": 0.01}),
    "net_bandit": (hanna.net_bandit, {"dimension": 2, "zeta": 0.5, "theta": [0.6, 0.8]}),
    "check_paper": (report.check_paper, {"paper": "tenenbaum", "claim_keys": ["cor32-batch"],
                                         "preset": "quick"}),
    "PaperReport": (report.PaperReport, {"paper": "tenenbaum", "preset": "full", "results": (),
                                         "seconds": 0.0}),
    # runs, results and figures
    "ResultStore.put": (store.ResultStore("store").put, {"key": "ab" * 32, "record": (1.0, None)}),
    "assemble_result": (simulate.assemble_result,
                        {"algorithm": DPSE(0.5), "environment": environments.BernoulliBandit((0.2, 0.7)),
                         "horizon": 10, "seed": 0, "checkpoints": np.array([10]),
                         "records": [(np.zeros(1), np.zeros(1), np.array([5, 5]), None)],
                         "seconds": 0.0}),
    "fit_slopes": (garcelon_experiments.fit_slopes,
                   {"rows": [{"algorithm": "a", "dimension": 2, "horizon": h, "final_regret": h ** 0.5}
                             for h in (10, 100, 1000)], "min_horizon": 10}),
    "plot_contextual": (plots.plot_contextual,
                        {"rows": [{"algorithm": "a", "dimension": 2, "horizon": h, "epsilon": 1.0,
                                   "final_regret": 1.0 + h, "standard_error": 0.1, "runs": 2}
                                  for h in (10, 100)], "path": "figure.png", "x": "horizon",
                         "preset_label": "quick preset"}),
    "caption": (plots.caption, {"runs": [5, 5], "preset_label": "quick preset"}),
    "plot_regret_table": (plots.plot_regret_table,
                          {"rows": [{"panel": "p", "algorithm": "a", "epsilon": 1.0, "round": t,
                                     "runs": 2.0, "horizon": 100,
                                     "time_average_pseudo_regret": 1.0 / t, "standard_error": 0.1}
                                    for t in (10.0, 100.0)],
                           "path": "table.png", "preset_label": "quick preset"}),
    "plot_scaling": (plots.plot_scaling,
                     {"rows": [{"algorithm": "a", "epsilon": e, "final_regret": 10.0 / e,
                                "standard_error": 0.1, "runs": 2, "horizon": 100}
                               for e in (0.5, 1.0)], "path": "scaling.png",
                      "preset_label": "quick preset"}),
    "plot_results": (_caption_of(plots.plot_results),
                     {"results": simulate.simulate(registry.make_algorithm("se"),
                                                   environments.BernoulliBandit((0.2, 0.7)), 50,
                                                   runs=2, seed=0, checkpoints=5),
                      "preset_label": "quick preset"}),
    # experiments: the run-size preset
    "reproduce": (reproduce, {"name": "chowdhury2023-fig1", "preset": "full", "panels": ()}),
    "experiment_spec": (experiment_spec, {"name": "hanna2022-fig2", "preset": "full", "runs": 2}),
    "sweep_spec_from_mapping": (sweep_spec_from_mapping,
                                {"data": {"experiment": "hanna2022-fig2", "runs": 2},
                                 "directory": Path("specs")}),
    "SweepSpec": (SweepSpec, {"name": "s", "panels": EXPERIMENTS["hanna2022-fig2"].panels,
                              "preset_label": "quick preset"}),
    "ExperimentResult": (ExperimentResult, {"experiment": EXPERIMENTS["hanna2022-fig2"],
                                            "preset": "full", "results": (), "files": (),
                                            "seconds": 0.0}),
    "run_contextual": (garcelon_experiments.run_contextual,
                       {"name": "garcelon2022-scaling", "preset": "full", "seed": 0,
                        "out_dir": None, "n_jobs": 1, "cells": ("none",)}),
}

#: (row, old name, new name) for every rename of every row.
RENAMES = [(row, old, new) for row, (function, _) in ROWS.items()
           for old, new in function.__renamed_parameters__.items()]


def _fresh(kwargs: dict[str, Any]) -> dict[str, Any]:
    """The arguments with a fresh generator for ``rng`` (so both calls draw the same numbers)."""
    return {key: np.random.default_rng(value) if key == "rng" else value
            for key, value in kwargs.items()}


def _timeless(text: str) -> str:
    return re.sub(r"seconds=[0-9.e-]+", "seconds=…", text)


def _same(first: Any, second: Any) -> bool:
    if dataclasses.is_dataclass(first) and not isinstance(first, type):
        return _timeless(repr(first)) == _timeless(repr(second)) or first == second
    if isinstance(first, (np.ndarray, list, tuple)):
        return bool(np.array_equal(np.asarray(first, dtype=object), np.asarray(second, dtype=object)))
    if hasattr(first, "to_dict"):
        return first.to_dict() == second.to_dict()
    if hasattr(first, "__dict__") and not callable(first):
        return repr(first) == repr(second) or first == second
    return first == second or repr(first) == repr(second)


@pytest.fixture(autouse=True)
def _mslr_file(tmp_path, monkeypatch) -> None:
    (tmp_path / "MSLR").write_text(_MSLR_ROWS)
    monkeypatch.chdir(tmp_path)


@pytest.mark.parametrize("row, old, new", RENAMES, ids=[f"{r}:{o}->{n}" for r, o, n in RENAMES])
def test_the_old_name_works_with_a_warning_naming_the_new_one(row: str, old: str, new: str) -> None:
    function, kwargs = ROWS[row]
    assert new in kwargs, f"the row of {row} must give {new}"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        expected = function(**_fresh(kwargs))
    old_kwargs = {(old if key == new else key): value for key, value in _fresh(kwargs).items()}
    with pytest.warns(DeprecationWarning, match=f"'{old}' is deprecated.*use '{new}'"):
        result = function(**old_kwargs)
    assert _same(result, expected)


@pytest.mark.parametrize("row", ["DPSE", "oful_radius", "DistributedPhasedElimination"])
def test_both_names_is_a_type_error(row: str) -> None:
    function, kwargs = ROWS[row]
    old, new = next(iter(function.__renamed_parameters__.items()))
    with pytest.raises(TypeError, match=f"both '{old}'"):
        function(**kwargs, **{old: kwargs[new]})


def _renamed_callables() -> set[str]:
    found = set()
    for root in (dpverify.bandits, dpverify.claims):
        for info in pkgutil.walk_packages(root.__path__, root.__name__ + "."):
            if any(part.startswith("_") for part in info.name.split(".")):
                continue
            module = importlib.import_module(info.name)
            for name in getattr(module, "__all__", ()):
                obj = getattr(module, name)
                members = [(name, obj)]
                if inspect.isclass(obj):
                    members += [(f"{name}.{attribute}", value)
                                for attribute, value in vars(obj).items()
                                if not attribute.startswith("_") and callable(value)]
                found |= {label for label, member in members
                          if getattr(member, "__renamed_parameters__", None)}
    return found


def test_every_renamed_public_callable_has_a_row() -> None:
    assert _renamed_callables() <= set(ROWS)


# --- the command line and the files users write ------------------------------------------

#: (command line with the old option, the old option, its new spelling).
CLI_RENAMES = [
    (["simulate", "--algorithm", "se", "--horizon", "200", "--arms", "3"], "--arms", "--n-arms"),
    (["simulate", "--algorithm", "dpe", "--horizon", "300", "--dim", "2", "--actions", "4"],
     "--actions", "--n-arms"),
    (["simulate", "--algorithm", "dpe", "--horizon", "300", "--dim", "2", "--n-arms", "4"],
     "--dim", "--dimension"),
    (["simulate", "--algorithm", "dp-se", "--epsilon", "1", "--horizon", "200", "--confidence",
      "0.1"], "--confidence", "--failure-probability"),
    (["plan", "dist-dp-se", "--epsilon", "1", "--horizon", "1000", "--arms", "3"], "--arms",
     "--n-arms"),
    (["plan", "hanna-central", "--epsilon", "1", "--horizon", "1000", "--dim", "2", "--actions",
      "5"], "--actions", "--n-arms"),
    (["plan", "sblb", "--epsilon", "1", "--horizon", "1000", "--dim", "2"], "--dim",
     "--dimension"),
    (["plan", "secure-aggregation", "--epsilon", "1", "--users", "100", "--tail-probability",
      "1e-5"], "--tail-probability", "--failure-probability"),
    (["plan", "secure-aggregation", "--epsilon", "1", "--users", "100", "--bound", "2"],
     "--bound", "--value-bound"),
]


#: (command, its arguments): the run-size preset of a reproduction and of the claims.
PRESET_COMMANDS = [("reproduce", ["chowdhury2023-fig1"]), ("claims", ["tenenbaum"])]


@pytest.mark.parametrize("command, arguments", PRESET_COMMANDS, ids=[c for c, _ in PRESET_COMMANDS])
def test_the_old_scale_option_is_the_preset_hidden_and_warning(capsys, command: str,
                                                              arguments: list[str]) -> None:
    from dpverify.cli import build_parser

    parser = build_parser([command])
    new = parser.parse_args([command, *arguments, "--preset", "full"])
    assert capsys.readouterr().err == ""
    old = parser.parse_args([command, *arguments, "--scale", "full"])
    err = capsys.readouterr().err
    assert "--scale is deprecated" in err and "use --preset" in err
    assert old.preset == new.preset == "full" and not hasattr(old, "scale")
    helps = _subparser(parser, [command]).format_help()
    assert "--preset" in helps and not re.search(r"--scale(?![\w-])", helps)
    with pytest.raises(SystemExit):
        parser.parse_args([command, *arguments, "--scale", "full", "--preset", "full"])


def _cli(capsys, argv: list[str]) -> tuple[Any, str]:
    import json

    from dpverify.cli import main

    try:
        main([*argv, "--json"])
    except SystemExit as error:  # exit 1 (budget not met) is a result here
        assert error.code in (0, 1, None)
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    for volatile in ("seconds", "simulation_seconds"):
        out.pop(volatile, None)
    return out, captured.err


@pytest.mark.parametrize("argv, old, new", CLI_RENAMES,
                         ids=[f"{a[0]} {a[1]} {o}" for a, o, _ in CLI_RENAMES])
def test_an_old_cli_option_is_hidden_warns_on_stderr_and_acts_as_the_new_one(
        capsys, argv: list[str], old: str, new: str) -> None:
    from dpverify.cli import build_parser

    old_out, err = _cli(capsys, argv)
    assert f"{old} is deprecated" in err and f"use {new}" in err
    new_out, _ = _cli(capsys, [new if token == old else token for token in argv])
    assert old_out == new_out
    parser = build_parser([argv[0]])
    # the command's own help (the top-level examples may use the same spelling for another
    # command's option: shuffle's --bound is the named amplification bound)
    helps = _subparser(parser, argv).format_help()
    assert not re.search(rf"{old}(?![\w-])", helps)


def _subparser(parser: Any, argv: list[str]) -> Any:
    import argparse

    for token in argv[:2]:
        actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not actions or token not in actions[0].choices:
            break
        parser = actions[0].choices[token]
    return parser


def test_old_spec_file_keys_are_read_with_a_warning(tmp_path) -> None:
    from dpverify.bandits.experiments import load_sweep_spec

    new = tmp_path / "new.toml"
    old = tmp_path / "old.toml"
    body = ('name = "s"\nepsilons = [1.0]\nhorizons = [100]\nruns = 1\n'
            '[[algorithms]]\nname = "dp-se"\noptions = {{ {option} = 0.1 }}\n'
            '[[instances]]\nfamily = "easy"\n{arms} = 3\n'
            '[[instances]]\nname = "two"\nmeans = [0.2, 0.6]\nrewards = "clipped-gaussian"\n'
            '{sd} = 0.2\n')
    new.write_text(body.format(option="failure_probability", arms="n_arms", sd="sigma"))
    old.write_text(body.format(option="confidence", arms="arms", sd="sd"))
    with pytest.warns(FutureWarning) as caught:
        read_old = load_sweep_spec(old)
    messages = " ".join(str(w.message) for w in caught)
    for name, spelled in (("confidence", "failure_probability"), ("arms", "n_arms"),
                          ("sd", "sigma")):
        assert f"'{name}' is deprecated" in messages and f"use '{spelled}'" in messages
    assert read_old == load_sweep_spec(new)


def test_the_old_spec_key_scale_is_read_as_preset_with_a_warning() -> None:
    new = sweep_spec_from_mapping({"experiment": "hanna2022-fig2", "preset": "full", "runs": 2})
    with pytest.warns(FutureWarning, match="'scale' is deprecated.*use 'preset'"):
        old = sweep_spec_from_mapping({"experiment": "hanna2022-fig2", "scale": "full", "runs": 2})
    assert old == new and new.preset_label.startswith("full preset")
    with pytest.raises(ValueError, match="one of 'scale'"):
        sweep_spec_from_mapping({"experiment": "hanna2022-fig2", "scale": "full", "preset": "full"})


#: (value, old attribute, new attribute): renamed fields stay readable under the old name.
ATTRIBUTES = [
    (ROWS["DPSE"][0](**ROWS["DPSE"][1]), "confidence", "failure_probability"),
    (BatchedSuccessiveElimination(NonPrivate(), failure_probability=0.1), "confidence",
     "failure_probability"),
    *[(DistributedPhasedElimination("none", failure_probability=0.01), old, new)
      for old, new in (("alpha", "client_sampling_exponent"), ("confidence", "failure_probability"))],
    *[(LinUCB(), old, new) for old, new in (("confidence", "failure_probability"),
                                             ("lam", "regularization"), ("L", "context_bound"),
                                             ("S", "theta_bound"))],
    *[(LDPLinUCB(1.0), old, new) for old, new in (("m", "bits"), ("L", "context_bound"),
                                                   ("S", "theta_bound"))],
    *[(SBLB(0.01), old, new) for old, new in (("form", "batch_form"), ("L", "context_bound"),
                                               ("S", "theta_bound"))],
    *[(SBLBParameters(**_SBLB_FIELDS), old, new) for old, new in
      SBLBParameters.__renamed_parameters__.items()],
    (ContextualInstanceFamily(n_arms=2, dimension=2), "parameter_bound", "theta_bound"),
    (ContextualInstanceFamily(n_arms=2, dimension=2)(np.random.default_rng(0)), "parameter_bound",
     "theta_bound"),
    (ErrorLaw(1.0, 0.5), "h", "sub_exponential_scale"),
    (ROWS["Design"][0](**ROWS["Design"][1]), "g", "g_value"),
    (environments.ClippedGaussianBandit((0.3,)), "sd", "sigma"),
    (instance_files.FixedInstance("one", means=(0.3,)), "sd", "sigma"),
    *[(linear_env.DistributedLinearBandit(np.eye(2), [0.5, 0.0]), old, new)
      for old, new in (("population", "population_size"), ("noise_sd", "sigma"))],
    *[(linear_env.LinearInstanceFamily("sphere", dimension=2, n_arms=3), old, new)
      for old, new in (("actions", "n_arms"), ("population", "population_size"))],
    (linear_privatizers.LocalGaussianAverage(1.0, 1e-5), "constant", "local_constant"),
    *[(ROWS[cls][0](**ROWS[cls][1]), "bound", "value_bound")
      for cls in ("CentralGaussianAverage", "LocalGaussianAverage", "ShuffleVectorAverage",
                  "ExactAverage")],
    (ROWS["SweepSpec"][0](**ROWS["SweepSpec"][1]), "scale", "preset_label"),
    (ROWS["ExperimentResult"][0](**ROWS["ExperimentResult"][1]), "scale", "preset"),
    (ROWS["PaperReport"][0](**ROWS["PaperReport"][1]), "scale", "preset"),
    *[(cls(0.5, failure_probability=0.01), "tail_probability", "failure_probability")
      for cls in (PolyaSecureAggregation, PolyaShuffle, SkellamSecureAggregation,
                  DiscreteGaussianSecureAggregation, CentralDiscreteLaplace, LocalDiscreteLaplace)],
]


@pytest.mark.parametrize("value, old, new", ATTRIBUTES,
                         ids=[f"{type(v).__name__}.{o}" for v, o, _ in ATTRIBUTES])
def test_an_old_attribute_reads_the_new_one_with_a_warning(value: Any, old: str, new: str) -> None:
    with pytest.warns(DeprecationWarning, match=f"{type(value).__name__}.{old} is deprecated.*"
                                                f"use .{new}"):
        assert _same(getattr(value, old), getattr(value, new))
