"""Fuzz rows for :mod:`dpverify.mechanisms`."""

from __future__ import annotations

import dpverify.mechanisms as MODULE
from dpverify import PureDP
from dpverify.mechanisms import (
    BinaryRandomizedResponse,
    BinarySummation,
    BinomialNoise,
    DiscreteGaussian,
    DiscreteLaplace,
    Gaussian,
    Laplace,
    LocalPrivatizer,
    NoisyBitSummation,
    PolyaDifference,
    RandomizedResponse,
    SecureAggregation,
    Shuffler,
    Skellam,
    VectorSummation,
)
from fuzz._harness import RNG, Row


class _NewMechanism:
    """A mechanism type with no privacy map or sampler yet (for the registries)."""


ROWS = {
    "Laplace": Row(Laplace, {"scale": 1.0}),
    "Gaussian": Row(Gaussian, {"sigma": 1.0}),
    "DiscreteLaplace": Row(DiscreteLaplace, {"scale": 1.0}),
    "DiscreteGaussian": Row(DiscreteGaussian, {"sigma": 1.0}),
    "Skellam": Row(Skellam, {"mu": 1.0}),
    "PolyaDifference": Row(PolyaDifference, {"shares": 4, "scale": 2.0}),
    "BinomialNoise": Row(BinomialNoise, {"trials": 8, "probability": 0.5}),
    "BinaryRandomizedResponse": Row(BinaryRandomizedResponse, {"randomization_probability": 0.25}),
    "RandomizedResponse": Row(RandomizedResponse, {"categories": 3, "epsilon": 1.0}),
    "binary_randomization_probability": Row(MODULE.binary_randomization_probability, {"epsilon": 1.0}),
    "randomized_rounding": Row(MODULE.randomized_rounding, {"x": 0.5, "precision": 8, "rng": RNG},
                               kinds={"x": "array"}),
    "unary_encoding": Row(MODULE.unary_encoding, {"x": 0.5, "bits": 8, "rng": RNG},
                          kinds={"x": "array"}),
    "LocalPrivatizer": Row(LocalPrivatizer, {"dimension": 2, "bits": 1, "local_epsilon": 1.0,
                                             "context_bound": 1.0}),
    "m_ldp": Row(MODULE.m_ldp, {"context": [0.5, 0.5], "reward": 0.5, "context_bound": 1.0,
                                "local_epsilon": 1.0, "bits": 1, "rng": RNG},
                 kinds={"reward": "array", "context": "array"}),
    "mldp_randomization_probability": Row(MODULE.mldp_randomization_probability,
                                 {"local_epsilon": 1.0, "bits": 2, "dimension": 2}),
    "Shuffler": Row(Shuffler, {}),
    "SecureAggregation": Row(SecureAggregation, {"modulus": 97}, kinds={"modulus": "count"}),
    "secure_aggregation_modulus": Row(MODULE.secure_aggregation_modulus,
                                      {"users": 10, "precision": 8, "tau": 5}),
    "BinarySummation": Row(BinarySummation, {"users": 10, "randomization_probability": 0.25}),
    "NoisyBitSummation": Row(NoisyBitSummation, {"users": 10, "noise_bits": 2}),
    "VectorSummation": Row(VectorSummation, {"users": 10, "dimension": 2, "norm_bound": 1.0,
                                             "precision": 10, "trials": 1000,
                                             "probability": 0.5}),
    "vector_summation_parameters": Row(MODULE.vector_summation_parameters,
                                       {"epsilon": 1.0, "delta": 1e-6, "users": 1000,
                                        "dimension": 4},
                                       # issue 28: refused naming epsilon for a huge dimension
                                       cases={"dimension": (2**62,)}),
    "MixtureOfGaussians": Row(MODULE.MixtureOfGaussians,
                              {"sigma": 1.0, "sensitivities": (0.0, 1.0), "probabilities": (0.5, 0.5)},
                              kinds={"sensitivities": "array", "probabilities": "array"}),
    "mixture_gaussian_delta": Row(MODULE.mixture_gaussian_delta,
                                  {"mechanism": MODULE.MixtureOfGaussians(1.0, (0.0, 1.0), (0.5, 0.5)),
                                   "epsilon": 1.0, "sensitivity": 1.0},
                                  kinds={"mechanism": "object"}),
    "mixture_gaussian_rdp": Row(MODULE.mixture_gaussian_rdp,
                                {"mechanism": MODULE.MixtureOfGaussians(1.0, (0.0, 1.0), (0.5, 0.5)),
                                 "orders": (2.0, 4.0), "sensitivity": 1.0},
                                kinds={"mechanism": "object"}),
    "TruncatedDiscreteGaussian": Row(MODULE.TruncatedDiscreteGaussian, {"sigma": 1.0, "support_bound": 5},
                                     kinds={"support_bound": "count"}),
    "truncated_discrete_gaussian_delta": Row(MODULE.truncated_discrete_gaussian_delta,
                                             {"sigma": 1.0, "support_bound": 5, "epsilon": 1.0,
                                              "sensitivity": 1},
                                             kinds={"support_bound": "count", "sensitivity": "count"}),
    "privacy_map": Row(MODULE.privacy_map, {"mechanism": Laplace(1.0), "sensitivity": 1.0,
                                            "neighbouring": "replace-one", "target": PureDP},
                       kinds={"target": "object"}),
    "register_privacy_map": Row(MODULE.register_privacy_map,
                                {"mechanism_type": _NewMechanism, "guarantee_type": PureDP}),
    # any object may be asked; a non-mechanism honestly supports no guarantee: ()
    "supported_guarantees": Row(MODULE.supported_guarantees, {"mechanism": Laplace(1.0)},
                                kinds={"mechanism": "anything"}),
    "pmf_pair_profile": Row(MODULE.pmf_pair_profile, {"pmf": [0.5, 0.5], "pmf_prime": [0.25, 0.75]},
                            kinds={"description": "text"}),
    # δ(ε) is defined for every real ε (negative ε: the hockey-stick at e^ε < 1)
    "gaussian_delta": Row(MODULE.gaussian_delta, {"mu": 1.0, "epsilon": 1.0},
                          kinds={"epsilon": "real"}),
    "gaussian_privacy_profile": Row(MODULE.gaussian_privacy_profile,
                                    {"sigma": 1.0, "sensitivity": 1.0}),
    "laplace_delta": Row(MODULE.laplace_delta, {"pure_epsilon": 1.0, "epsilon": 0.5},
                         kinds={"epsilon": "real"}),
    "laplace_privacy_profile": Row(MODULE.laplace_privacy_profile,
                                   {"scale": 1.0, "sensitivity": 1.0}),
    "discrete_laplace_delta": Row(MODULE.discrete_laplace_delta,
                                  {"scale": 1.0, "epsilon": 0.5, "sensitivity": 1},
                                  kinds={"sensitivity": "count", "epsilon": "real"}),
    "discrete_gaussian_delta": Row(MODULE.discrete_gaussian_delta,
                                   {"sigma": 1.0, "epsilon": 0.5, "sensitivity": 1},
                                   kinds={"sensitivity": "count", "epsilon": "real"}),
    "skellam_rdp": Row(MODULE.skellam_rdp, {"order": 2, "l1_sensitivity": 1.0,
                                            "l2_sensitivity": 1.0, "variance": 10.0}),
    "sample": Row(MODULE.sample, {"mechanism": DiscreteGaussian(2.0), "x": 0, "rng": RNG,
                                  "size": 5}, kinds={"x": "array"},
                  cases={"size": ((),)}),  # a scalar, as numpy's size=() gives
    "sample_aggregate": Row(MODULE.sample_aggregate, {"mechanism": DiscreteGaussian(2.0),
                                                      "x_sum": 0, "users": 3, "rng": RNG,
                                                      "size": 5}, kinds={"x_sum": "array"},
                             cases={"size": ((),)}),
    "sample_users": Row(MODULE.sample_users, {"mechanism": DiscreteGaussian(2.0), "x": 0,
                                              "users": 3, "rng": RNG, "size": 5},
                        kinds={"x": "array"}, cases={"size": ((),)}),
    "register_sampler": Row(MODULE.register_sampler, {"mechanism_type": _NewMechanism}),
}
NOT_FUZZED: dict[str, str] = {
    "MAX_BINOMIAL_TRIALS": "an integer constant (the limit of binomial_noise_delta's trials)",
}
ROWS["binomial_noise_delta"] = Row(MODULE.binomial_noise_delta, {"trials": 40, "epsilon": 0.5})
# Z ≈ σ√(2π) is a finite mpf beyond the float range above σ ≈ 7e307 (float() of it is inf)
ROWS["discrete_gaussian_normaliser"] = Row(MODULE.discrete_gaussian_normaliser, {"sigma": 1.0},
                                           allow_infinite=True)
