"""Fuzz rows for :mod:`dpverify.auditing`."""

from __future__ import annotations

import dataclasses

import numpy as np

import dpverify.auditing as MODULE
from dpverify import PureDP
from fuzz._harness import Row


def _coin(data, size, rng):
    return rng.random(size) < (0.75 if data else 0.25)


def _run(stream, rng):
    return [int(rng.random() < (0.75 if stream else 0.25))]


def _release(data, rng):
    return data + rng.random()


def _first(transcript):
    return transcript[0]


def _fields(value):
    return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}


_REPORT = MODULE.audit(_coin, 1, 0, epsilon=2.0, samples=1000, seed=0)
_CURVE_REPORT = MODULE.audit_curve(_coin, 1, 0, profile=PureDP(2.0), epsilons=[0.5, 1.0],
                                   samples=1000, seed=0)
_DRAWS = np.random.default_rng(0).random(200)
_BOUND = MODULE.hockey_stick_lower_bound(_DRAWS, _DRAWS + 0.1, epsilon=0.5)
# x and x' are the user's data, handed to the user's sampler as they are
_SAMPLE_KINDS = {"x": "anything", "x_prime": "anything", "events": "any", "progress": "any",
                 "threads": "any"}  # threads: "auto", True or False
_LONG_AUDITS = {"samples": (10**8, 10**9)}  # legitimate audits of minutes, not tried

def _supports_differ(kwargs):
    """Whether ε = inf is the exact answer of ``exact_epsilon``: one pmf charges outcomes the
    other does not with more mass than δ (δ(ε) tends to that mass as ε grows)."""
    try:
        p = np.asarray(kwargs["pmf"], dtype=float)
        q = np.asarray(kwargs["pmf_prime"], dtype=float)
        delta = float(kwargs.get("delta", 0.0))
        return p.shape == q.shape and max(p[q == 0].sum(), q[p == 0].sum()) > delta
    except (TypeError, ValueError, KeyError, IndexError):
        return False


ROWS = {
    "audit": Row(MODULE.audit, {"sampler": _coin, "x": 1, "x_prime": 0, "epsilon": 1.0,
                                "samples": 1000, "seed": 0}, kinds=_SAMPLE_KINDS,
                 avoid=_LONG_AUDITS),
    "audit_curve": Row(MODULE.audit_curve, {"sampler": _coin, "x": 1, "x_prime": 0,
                                            "profile": PureDP(1.0), "epsilons": [0.5],
                                            "samples": 1000, "seed": 0}, kinds=_SAMPLE_KINDS,
                 avoid=_LONG_AUDITS),
    "audit_interactive": Row(MODULE.audit_interactive,
                             {"run": _run, "stream": 1, "stream_prime": 0, "statistic": _first,
                              "epsilon": 1.0, "runs": 100, "seed": 0},
                             kinds={"stream": "anything", "stream_prime": "anything",
                                    "events": "any",
                                    "progress": "any"}),  # None: a bar for long audits
    "claimed_delta_curve": Row(MODULE.claimed_delta_curve, {"profile": PureDP(1.0)}),
    "exact_epsilon": Row(MODULE.exact_epsilon, {"pmf": [0.5, 0.5], "pmf_prime": [0.25, 0.75],
                                                "delta": 0.0},
                         allow_infinite=_supports_differ,  # inf is then the exact ε
                         cases={"pmf": ([-0.0, 1.0],), "pmf_prime": ([-0.0, 1.0],)}),
    "exact_delta": Row(MODULE.exact_delta, {"pmf": [0.5, 0.5], "pmf_prime": [0.25, 0.75], "epsilon": 0.1}),
    "hockey_stick_lower_bound": Row(MODULE.hockey_stick_lower_bound,
                                    {"samples": _DRAWS, "samples_prime": _DRAWS + 0.1,
                                     "epsilon": 0.5}, kinds={"samples": "sequence",
                                                             "samples_prime": "sequence",
                                                             "events": "any"}),
    "HockeyStickBound": Row(MODULE.HockeyStickBound, lambda: _fields(_BOUND),
                            kinds={"delta_lower_bound": "probability", "direction": "text"}),
    "AuditReport": Row(MODULE.AuditReport, lambda: _fields(_REPORT),
                       kinds={"seconds": "positive", "p_hat": "probability",
                              "p_prime_hat": "probability"}),
    # guarantee: the claimed profile, any guarantee or profile object (not plain data)
    "CurveAuditReport": Row(MODULE.CurveAuditReport, lambda: _fields(_CURVE_REPORT),
                            kinds={"seconds": "positive", "bounds": "count",
                                   "guarantee": "anything"}),
    "CurvePoint": Row(MODULE.CurvePoint, lambda: _fields(_CURVE_REPORT.points[0]),
                      kinds={"claimed_delta": "probability", "delta_lower_bound": "probability"}),
    "OutputEvent": Row(MODULE.OutputEvent, lambda: _fields(_REPORT.event),
                 kinds={"statistic": "any", "low": "real", "high": "real"}),
    "ConfidenceInterval": Row(MODULE.ConfidenceInterval, {"lower": 0.25, "upper": 0.5},
                              kinds={"lower": "probability", "upper": "probability"}),
    "clopper_pearson": Row(MODULE.clopper_pearson, {"successes": 3, "trials": 10,
                                                    "confidence": 0.95}),
    # vectorised over successes: an array (even empty) is valid
    "clopper_pearson_lower": Row(MODULE.clopper_pearson_lower, {"successes": 3, "trials": 10,
                                                                "failure_probability": 0.05},
                                 kinds={"successes": "array"}),
    "clopper_pearson_upper": Row(MODULE.clopper_pearson_upper, {"successes": 3, "trials": 10,
                                                                "failure_probability": 0.05},
                                 kinds={"successes": "array"}),
    # p' = 0 certifies ε = inf: an honest (and the only sound) answer
    "epsilon_lower_bound": Row(MODULE.epsilon_lower_bound,
                               {"p_lower": 0.5, "p_prime_upper": 0.1, "delta": 0.0},
                               allow_infinite=True),
    "delta_lower_bound": Row(MODULE.delta_lower_bound,
                             {"p_lower": 0.5, "p_prime_upper": 0.1, "epsilon": 0.5}),
    # issue 26: a one-output-per-call mechanism as a sampler (nothing is drawn until it is called)
    "sampler_from_calls": Row(MODULE.sampler_from_calls, {"function": _release},
                              kinds={"seeding": "any"}),  # a name or any seeding callable
}
NOT_FUZZED = {"FAMILIES": "a tuple constant"}

# ---- worst-pair search, sequential and model-based audits, planning (issue 16)
_PAIRS = MODULE.query_vector_patterns(3)
_SEARCH = MODULE.audit_search(_coin, [MODULE.InputPair(1, 0), MODULE.InputPair(0, 1)],
                              epsilon=2.0, samples=2000, seed=0)


def _gaussian(data, size, rng):  # the data are the fuzzed x, x': shift by 1 only for x' = 1.0
    return (1.0 if isinstance(data, float) and data == 1.0 else 0.0) + rng.normal(0.0, 1.0, size)


_MODEL = MODULE.audit_model(_gaussian, 0.0, 1.0, family="gaussian", epsilon=1.0, delta=1e-5,
                            sensitivity=1.0, samples=2000, seed=0)

ROWS.update({
    "audit_search": Row(MODULE.audit_search,
                        {"sampler": _coin, "pairs": [MODULE.InputPair(1, 0)], "epsilon": 1.0,
                         "samples": 2000, "seed": 0},
                        kinds={"events": "any", "progress": "any", "threads": "any"}, avoid=_LONG_AUDITS),
    "audit_sequential": Row(MODULE.audit_sequential,
                            {"sampler": _coin, "x": 1, "x_prime": 0, "epsilon": 1.0,
                             "max_samples": 20000, "seed": 0},
                            kinds={**_SAMPLE_KINDS, "progress": "any"},
                            avoid={"max_samples": (None, 10**8, 10**9)},
                            # issue 28: refused naming samples, not max_samples
                            cases={"max_samples": (2**62,)}),
    "audit_model": Row(MODULE.audit_model,
                       {"sampler": _gaussian, "x": 0.0, "x_prime": 1.0, "family": "gaussian",
                        "epsilon": 1.0, "delta": 1e-5, "sensitivity": 1.0, "samples": 2000,
                        "seed": 0}, kinds={**_SAMPLE_KINDS, "categories": "count"},
                       avoid=_LONG_AUDITS),
    "weakest_profile": Row(MODULE.weakest_profile, {"family": "laplace", "epsilon": 1.0}),
    "query_vector_patterns": Row(MODULE.query_vector_patterns, {"length": 3},
                                 kinds={"length": "count"}),
    "InputPair": Row(MODULE.InputPair, {"x": 1, "x_prime": 0, "name": "p"},
                     kinds={"x": "anything", "x_prime": "anything", "name": "text"},
                     carries=("x", "x_prime")),  # the user's inputs, NaN included (docstring)
    "SearchReport": Row(MODULE.SearchReport, lambda: _fields(_SEARCH),
                        kinds={"seconds": "positive", "pilot_samples": "count"}),
    "ModelAuditReport": Row(MODULE.ModelAuditReport, lambda: _fields(_MODEL),
                            kinds={"seconds": "positive", "estimate": "real",
                                   "parameter_bound": "real"}),
    "samples_to_certify": Row(MODULE.samples_to_certify,
                              {"probability": 0.1, "true_epsilon": 1.2, "epsilon": 1.0},
                              kinds={"true_epsilon": "epsilon", "power": "probability",
                                     "bounds": "count", "search_fraction": "probability"},
                              allow_infinite=True),
    "largest_certifiable_epsilon": Row(MODULE.largest_certifiable_epsilon,
                                       {"certify_samples": 10, "confidence": 0.95},
                                       kinds={"certify_samples": "count", "bounds": "count"}),
})

# ---- canary-score audits (issue 27)
_IN_SCORES = np.random.default_rng(1).normal(2.0, 1.0, 200)
_OUT_SCORES = np.random.default_rng(2).normal(0.0, 1.0, 200)
_SCORE_REPORT = MODULE.audit_scores(_IN_SCORES, _OUT_SCORES, design="one-run", epsilon=1.0, seed=0)


def _train(included, rng):
    return rng.normal(0.0, 1.0, included.size) + 2.0 * included


ROWS.update({
    "audit_scores": Row(MODULE.audit_scores,
                        {"in_scores": _IN_SCORES, "out_scores": _OUT_SCORES, "design": "one-run",
                         "epsilon": 1.0, "seed": 0},
                        # thresholds: a strategy name, a real number or a sequence of them
                        # (stated in advance); guess_counts: (k+, k-) pairs or None;
                        # claim: any privacy statement, or None
                        kinds={"in_scores": "array", "out_scores": "array", "thresholds": "any",
                               "claim": "any"},
                        allow_infinite=True),  # scores that separate perfectly certify ε = inf
    "audit_training": Row(MODULE.audit_training,
                          {"train": _train, "canaries": 200, "epsilon": 1.0, "delta": 0.0,
                           "seed": 0},
                          # epsilon=None: the claim comes by claim= (or there is none)
                          kinds={"canaries": "count", "runs": "count", "claim": "any",
                                 "executor": "any", "epsilon": "any"},
                          avoid={"canaries": (10**8, 10**9), "runs": (10**8, 10**9)},
                          allow_infinite=True),
    "ScoreAuditReport": Row(MODULE.ScoreAuditReport, lambda: _fields(_SCORE_REPORT),
                            # violation: None when no claim was given
                            kinds={"seconds": "positive", "in_scores": "array",
                                   "out_scores": "array", "seed": "any", "claim": "any",
                                   "threshold": "any", "lower_threshold": "any",
                                   "violation": "any"},
                            allow_infinite=True),
})
