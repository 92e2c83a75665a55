"""Fuzz rows for :mod:`dpverify.accountants`."""

from __future__ import annotations

import dpverify.accountants as MODULE
from dpverify import ApproxDP, PureDP, RDPCurve, ZCDP
from dpverify.accountants import PrivacyLossDistribution as PLD
from fuzz._harness import Row

_CURVE = RDPCurve((2.0, 4.0), (0.5, 1.0))
_PLD = PLD.from_laplace(1.0, value_discretization_interval=1e-2)

ROWS = {
    "basic_composition": Row(MODULE.basic_composition,
                             {"guarantees": [PureDP(1.0), ApproxDP(0.5, 1e-6)]}),
    "advanced_composition": Row(MODULE.advanced_composition,
                                {"epsilon": 0.1, "delta": 1e-6, "k": 10, "delta_slack": 1e-6}),
    "optimal_composition": Row(MODULE.optimal_composition,
                               {"epsilon": 0.1, "delta": 0.0, "k": 10, "target_delta": 1e-6}),
    "optimal_composition_delta": Row(MODULE.optimal_composition_delta,
                                     {"epsilon": 0.1, "delta": 0.0, "k": 10,
                                      "target_epsilon": 0.5}),
    "gaussian_rdp": Row(MODULE.gaussian_rdp, {"sigma": 1.0, "sensitivity": 1.0,
                                              "orders": (2.0, 4.0)}),
    "laplace_rdp": Row(MODULE.laplace_rdp, {"scale": 1.0, "sensitivity": 1.0,
                                            "orders": (2.0, 4.0)}),
    "randomized_response_rdp": Row(MODULE.randomized_response_rdp,
                                   {"epsilon": 1.0, "orders": (2.0, 4.0)}),
    "pure_dp_rdp": Row(MODULE.pure_dp_rdp, {"epsilon": 1.0, "orders": (2.0, 4.0)}),
    "subsampled_gaussian_rdp": Row(MODULE.subsampled_gaussian_rdp,
                                   {"sigma": 1.0, "sampling_probability": 0.01,
                                    "orders": (2.0, 4.0)}),
    "compose_rdp": Row(MODULE.compose_rdp, {"curves": [_CURVE, _CURVE]}),
    "scale_rdp": Row(MODULE.scale_rdp, {"curve": _CURVE, "count": 3}),
    "rdp_to_dp": Row(MODULE.rdp_to_dp, {"curve": _CURVE, "delta": 1e-5, "method": "tight"}),
    "rdp_to_dp_delta": Row(MODULE.rdp_to_dp_delta, {"curve": _CURVE, "epsilon": 1.0,
                                                    "method": "tight"}),
    "compose_zcdp": Row(MODULE.compose_zcdp, {"guarantees": [ZCDP(0.5), ZCDP(0.25)]}),
    "pure_to_zcdp": Row(MODULE.pure_to_zcdp, {"guarantee": PureDP(1.0)},
                        kinds={"guarantee": "epsilon"}),  # a PureDP or its ε
    "zcdp_to_rdp": Row(MODULE.zcdp_to_rdp, {"zcdp": ZCDP(0.5), "orders": (2.0, 4.0)}),
    "zcdp_to_dp": Row(MODULE.zcdp_to_dp, {"zcdp": ZCDP(0.5), "delta": 1e-5, "method": "tight"}),
    "zcdp_to_dp_delta": Row(MODULE.zcdp_to_dp_delta, {"zcdp": ZCDP(0.5), "epsilon": 1.0}),
    "PrivacyLossDistribution": Row(PLD, {"directions": _PLD.directions,
                                         "tail_mass_truncation": 1e-15},
                                   kinds={"tail_mass_truncation": "probability"}),
    "PrivacyLossDistribution.from_gaussian": Row(
        PLD.from_gaussian, {"sigma": 1.0, "sensitivity": 1.0,
                            "value_discretization_interval": 1e-2},
        kinds={"value_discretization_interval": "positive",
               "tail_mass_truncation": "probability"}),
    "PrivacyLossDistribution.from_laplace": Row(
        PLD.from_laplace, {"scale": 1.0, "value_discretization_interval": 1e-2},
        kinds={"value_discretization_interval": "positive",
               "tail_mass_truncation": "probability"}),
    "PrivacyLossDistribution.from_randomized_response": Row(
        PLD.from_randomized_response, {"epsilon": 1.0, "k": 2},
        kinds={"value_discretization_interval": "positive",
               "tail_mass_truncation": "probability"}),
    "PrivacyLossDistribution.from_approx_dp": Row(
        PLD.from_approx_dp, {"epsilon": 1.0, "delta": 1e-6},
        kinds={"value_discretization_interval": "positive",
               "tail_mass_truncation": "probability"}),
    "PrivacyLossDistribution.from_pmfs": Row(
        PLD.from_pmfs, {"p": [0.5, 0.5], "q": [0.25, 0.75]},
        kinds={"value_discretization_interval": "positive",
               "tail_mass_truncation": "probability"}),
    "PrivacyLossDistribution.from_subsampled_gaussian": Row(
        PLD.from_subsampled_gaussian, {"sigma": 1.0, "sampling_probability": 0.1,
                                       "value_discretization_interval": 1e-2},
        kinds={"value_discretization_interval": "positive",
               "tail_mass_truncation": "probability"}),
    "PrivacyLossDistribution.self_compose": Row(_PLD.self_compose, {"count": 4}),
    "PrivacyLossDistribution.compose": Row(_PLD.compose, {"other": _PLD}),
    "compose_plds": Row(MODULE.compose_plds, {"plds": [_PLD, _PLD]}),
    "epsilon_for_delta": Row(MODULE.epsilon_for_delta, {"pld": _PLD, "delta": 1e-6}),
    "delta_for_epsilon": Row(MODULE.delta_for_epsilon, {"pld": _PLD, "epsilon": 0.5}),
    "amplified_epsilon": Row(MODULE.amplified_epsilon,
                             {"local_epsilon": 1.0, "n": 10**5, "delta": 1e-6,
                              "bound": "fmt2021"}, kinds={"randomizer": "object"}),
    "amplified_delta": Row(MODULE.amplified_delta,
                           {"local_epsilon": 1.0, "n": 10**5, "epsilon": 0.1,
                            "bound": "fmt2021"}, kinds={"randomizer": "object"}),
    "max_local_epsilon": Row(MODULE.max_local_epsilon,
                             {"epsilon": 0.1, "n": 10**5, "delta": 1e-6, "bound": "fmt2021"},
                             kinds={"randomizer_family": "object"}),
    "min_batch_size": Row(MODULE.min_batch_size,
                          {"local_epsilon": 1.0, "epsilon": 0.1, "delta": 1e-6,
                           "bound": "fmt2021"}, kinds={"randomizer": "object"}),
    "shuffled_binary_rr_epsilon": Row(MODULE.shuffled_binary_rr_epsilon,
                                      {"flip_probability": 0.5, "n": 100, "delta": 1e-6},
                                      kinds={"rtol": "positive"}),
    "shuffled_binary_rr_delta": Row(MODULE.shuffled_binary_rr_delta,
                                    {"flip_probability": 0.5, "n": 100, "epsilon": 0.5},
                                    kinds={"rtol": "positive"}),
    "min_flip_probability": Row(MODULE.min_flip_probability,
                                {"n": 100, "epsilon": 1.0, "delta": 1e-6, "rtol": 1e-3},
                                kinds={"rtol": "positive"}),
    "analytic_gaussian_sigma": Row(MODULE.analytic_gaussian_sigma,
                                   {"epsilon": 1.0, "delta": 1e-5, "sensitivity": 1.0}),
    "gaussian_epsilon": Row(MODULE.gaussian_epsilon,
                            {"sigma": 1.0, "delta": 1e-5, "compositions": 4, "method": "rdp"}),
    "laplace_epsilon": Row(MODULE.laplace_epsilon,
                           {"scale": 1.0, "delta": 1e-6, "compositions": 4, "method": "rdp"}),
    "min_gaussian_sigma": Row(MODULE.min_gaussian_sigma,
                              {"epsilon": 1.0, "delta": 1e-5, "compositions": 4,
                               "method": "analytic"}),
    "min_laplace_scale": Row(MODULE.min_laplace_scale,
                             {"epsilon": 1.0, "delta": 1e-6, "compositions": 4,
                              "method": "pld"}),
    "min_noise_multiplier": Row(MODULE.min_noise_multiplier,
                                {"epsilon": 1.0, "delta": 1e-5, "sampling_probability": 0.01,
                                 "steps": 10, "method": "rdp", "orders": (2.0, 4.0, 8.0, 16.0)},
                                kinds={"value_discretization_interval": "positive"}),
}
NOT_FUZZED = {"DEFAULT_ORDERS": "a tuple constant"}

# ---- events, the PrivacyAccountant, subsampling, group privacy, trade-off curves (issue 15)
from dpverify.accountants import (  # noqa: E402
    ComposedEvent, ExponentialMechanismEvent, MechanismEvent, PoissonSampledEvent,
    RepeatAndSelectEvent, SampledWithoutReplacementEvent, SelfComposedEvent,
    TreeAggregationEvent,
)
from dpverify.mechanisms import Gaussian, Laplace  # noqa: E402

_GAUSSIAN = Gaussian(sigma=2.0)
_EVENT = PoissonSampledEvent(Laplace(scale=1.0), 0.1)

ROWS.update({
    "PrivacyAccountant": Row(MODULE.PrivacyAccountant, {"method": "pld"},
                             kinds={"neighbouring": "text", "orders": "any"}),
    "from_dp_accounting": Row(MODULE.from_dp_accounting,
                              lambda: {"event": __import__("dp_accounting").GaussianDpEvent(1.0)},
                              kinds={"event": "object"}),
    "MechanismEvent": Row(MechanismEvent, {"mechanism": _GAUSSIAN, "sensitivity": 1.0}),
    "ComposedEvent": Row(ComposedEvent, {"events": (_GAUSSIAN, Laplace(scale=1.0))}),
    "SelfComposedEvent": Row(SelfComposedEvent, {"event": _GAUSSIAN, "count": 3}),
    "PoissonSampledEvent": Row(PoissonSampledEvent, {"event": _GAUSSIAN,
                                                     "sampling_probability": 0.1}),
    "SampledWithoutReplacementEvent": Row(SampledWithoutReplacementEvent,
                                          {"event": _GAUSSIAN, "sample_size": 10,
                                           "population_size": 100},
                                          kinds={"sample_size": "count",
                                                 "population_size": "count"}),
    "TreeAggregationEvent": Row(TreeAggregationEvent, {"noise_multiplier": 1.0,
                                                       "step_counts": (7, 3)},
                                kinds={"noise_multiplier": "positive"}),
    "RepeatAndSelectEvent": Row(RepeatAndSelectEvent, {"event": _GAUSSIAN, "mean": 2.0,
                                                       "shape": 1.0},
                                kinds={"mean": "positive", "shape": "positive"}),
    "ExponentialMechanismEvent": Row(ExponentialMechanismEvent, {"epsilon": 1.0}),
    "event_to_dict": Row(MODULE.event_to_dict, {"event": _EVENT}, kinds={"event": "object"}),
    "event_from_dict": Row(MODULE.event_from_dict, lambda: {"data": MODULE.event_to_dict(_EVENT)},
                           kinds={"data": "object"}),
    "dominating_pair": Row(MODULE.dominating_pair, {"value": Laplace(scale=1.0),
                                                    "sensitivity": 1.0},
                           kinds={"value": "object"}),
    "poisson_subsampled_pld": Row(MODULE.poisson_subsampled_pld,
                                  {"value": Laplace(scale=1.0), "sampling_probability": 0.1,
                                   "value_discretization_interval": 1e-2},
                                  kinds={"value": "object",
                                         "value_discretization_interval": "positive"}),
    "group_privacy": Row(MODULE.group_privacy, {"guarantee": PureDP(1.0), "group_size": 2},
                         kinds={"group_size": "count"}),
    "tradeoff_curve": Row(MODULE.tradeoff_curve, {"pld": _PLD, "false_positive_rates": [0.1, 0.5],
                                                  "points": 50},
                          kinds={"points": "count", "pld": "object"}),
    "true_positive_rate": Row(MODULE.true_positive_rate, {"pld": _PLD,
                                                          "false_positive_rate": 0.1,
                                                          "points": 50},
                              kinds={"points": "count", "false_positive_rate": "probability",
                                     "pld": "object"}),
})
NOT_FUZZED["ACCOUNTING_METHODS"] = "a tuple constant"
