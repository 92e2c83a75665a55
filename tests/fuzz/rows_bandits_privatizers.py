"""Fuzz rows for :mod:`dpverify.bandits.privatizers`."""

from __future__ import annotations

import dpverify.bandits.privatizers as MODULE
from dpverify import PureDP
from fuzz._harness import Row

ROWS = {
    "ErrorLaw": Row(MODULE.ErrorLaw, {"sigma": 1.0, "sub_exponential_scale": 1.0},
                    kinds={"sub_exponential_scale": "positive", "noise": "any", "description": "text",
                           "sub_gaussian_variance": "positive"}),
    "ProtocolParameters": Row(MODULE.ProtocolParameters, {"users": 10, "precision": 8, "tau": 5}),
    "NonPrivate": Row(MODULE.NonPrivate, {}),
    "CentralLaplace": Row(MODULE.CentralLaplace, {"epsilon": 1.0}),
    "PolyaSecureAggregation": Row(MODULE.PolyaSecureAggregation,
                                  {"epsilon": 1.0, "failure_probability": 0.1}),
    "SkellamSecureAggregation": Row(MODULE.SkellamSecureAggregation,
                                    {"epsilon": 1.0, "scale_factor": 10.0},
                                    kinds={"scale_factor": "positive"}),
    "DiscreteGaussianSecureAggregation": Row(MODULE.DiscreteGaussianSecureAggregation,
                                             {"epsilon": 0.5}, kinds={"scale_factor": "positive"}),
    "PolyaShuffle": Row(MODULE.PolyaShuffle, {"epsilon": 1.0}),
    "CentralDiscreteLaplace": Row(MODULE.CentralDiscreteLaplace, {"epsilon": 1.0}),
    "LocalDiscreteLaplace": Row(MODULE.LocalDiscreteLaplace, {"epsilon": 1.0}),
    "ShuffledNoisyBits": Row(MODULE.ShuffledNoisyBits, {"epsilon": 1.0, "delta": 1e-6}),
    "ShuffledRandomizedResponse": Row(MODULE.ShuffledRandomizedResponse,
                                      {"epsilon": 1.0, "delta": 1e-6}),
    "distributed_dp_parameters": Row(MODULE.distributed_dp_parameters,
                                     {"epsilon": 1.0, "users": 4, "failure_probability": 1e-3}),
    "distributed_rdp_parameters": Row(MODULE.distributed_rdp_parameters,
                                      {"epsilon": 1.0, "users": 10, "failure_probability": 0.01,
                                       "scale_factor": 10.0}, kinds={"scale_factor": "positive"}),
    "distributed_cdp_parameters": Row(MODULE.distributed_cdp_parameters,
                                      {"epsilon": 0.5, "users": 10, "failure_probability": 0.01,
                                       "scale_factor": 10.0}, kinds={"scale_factor": "positive"}),
    "worst_case_guarantee": Row(MODULE.worst_case_guarantee,
                                {"guarantees": [PureDP(1.0), PureDP(0.5)]}),
    "as_approx_dp": Row(MODULE.as_approx_dp, {"guarantee": PureDP(1.0), "delta": 1e-6}),
}
NOT_FUZZED = {"Privatizer": "a typing.Protocol (structural type), not called"}
