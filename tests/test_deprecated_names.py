"""Every name renamed for the vocabulary (house v3) still works for one release, loudly.

One row per renamed parameter: the call with the old keyword gives the same result as
the call with the new one, with a :class:`DeprecationWarning` naming the new one; giving
both is a :class:`TypeError`. Then the renamed attributes, module names and CLI options.
The list of renames is the CHANGELOG's "Unreleased — renamed (house v3)" section.
"""

from __future__ import annotations

import importlib
import json
import re
import warnings
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
import pytest
from hypothesis import find
from hypothesis import strategies as st

from dpverify.accountants.pld import PrivacyLossDistribution as PLD
from dpverify.auditing.events import ClassifierScore
from dpverify.bandits.privatizers import ShuffledRandomizedResponse
from dpverify.cli import main
from dpverify.mechanisms import (
    BinaryRandomizedResponse,
    BinarySummation,
    BinomialNoise,
    DiscreteGaussian,
    DiscreteLaplace,
    Gaussian,
    Laplace,
    LocalPrivatizer,
    PolyaDifference,
    RandomizedResponse,
    Skellam,
    TruncatedDiscreteGaussian,
)


def _resolve(path: str) -> Any:
    module, _, name = path.rpartition(".")
    try:
        return getattr(importlib.import_module(module), name)
    except ModuleNotFoundError:  # a method: module.Class.method
        return getattr(_resolve(module), name)


def _delta_at_0(value: Any) -> float:
    return float(value.delta_for_epsilon(0.0))


def _minimal(strategy: Any) -> Any:
    return find(strategy, lambda _: True)


class Row(NamedTuple):
    function: Any            # the callable, or its dotted path
    args: tuple
    kwargs: dict[str, Any]   # new names; a value "RNG" becomes a fresh seeded generator
    old: str                 # the deprecated name of one of ``kwargs``
    new: str
    compare: Callable[[Any], Any] = lambda value: value


ACC = "dpverify.accountants"
PMFS = {"pmf": [0.5, 0.5], "pmf_prime": [0.25, 0.75]}
GARCELON = {"delta": 1e-6, "horizon": 10**4, "bits": 1, "dimension": 1,
            "randomization_probability": 0.5}
FLIP = ("flip_probability", "randomization_probability")
TOTAL = {"bits": 1, "dimension": 1, "delta": 1e-6, "delta_slack": 1e-6}
_SCORE_FIELDS = {"centre": np.zeros(1), "divisor": np.full(1, 2.0),
                 "weights": np.array([1.0, 0.5, 0.0, 1.0, 0.0]),
                 "bias": 0.0, "flags": ((0, -1.0),), "masked": (0,), "masked_centre": np.zeros(1),
                 "masked_divisor": np.full(1, 4.0)}
_SCORE = ClassifierScore(**_SCORE_FIELDS)
_OUTPUTS = np.array([[1.0], [-1.0], [3.0]])
_SEARCH = {"samples": np.repeat([0.0, 1.0], 200), "samples_prime": np.repeat([0.0, 1.0], [300, 100]),
           "families": "threshold", "certify_samples": 10_000, "targets": [("delta", 0.0)],
           "normal_quantile": 2.0, "extra_candidates": ()}

ROWS = [
    Row("dpverify.are_neighbours", ([1, 2], [1, 3]), {"neighbouring": "replace-one"},
        "relation", "neighbouring"),
    Row("dpverify.mechanisms.privacy_map", (Laplace(1.0),), {"neighbouring": "add-remove"},
        "relation", "neighbouring"),
    Row("dpverify.testing.strategies.neighbouring_datasets", (st.integers(0, 3),),
        {"neighbouring": "add-remove"}, "relation", "neighbouring", _minimal),
    Row(PLD.from_subsampled_gaussian, (1.0, 0.1), {"neighbouring": "replace-one"}, "relation",
        "neighbouring", _delta_at_0),
    *(Row(f"{ACC}.shuffle_papers.garcelon_per_batch_epsilon", (10**6, 0.5),
          {"bits": 1, "dimension": 1, "delta": 1e-6}, old, new)
      for old, new in (("m", "bits"), ("d", "dimension"), ("delta0", "delta"))),
    *(Row(f"{ACC}.shuffle_papers.garcelon_batch_length_ok", (10**6, 0.5), GARCELON, old, new)
      for old, new in (("delta0", "delta"), ("T", "horizon"), ("m", "bits"), ("d", "dimension"))),
    *(Row(f"{ACC}.shuffle_papers.min_shuffler_batch_length", (0.5,), GARCELON, old, new)
      for old, new in (("delta0", "delta"), ("T", "horizon"), ("m", "bits"), ("d", "dimension"))),
    *(Row(f"{ACC}.shuffle_papers.garcelon_total_guarantee", (10**7, 10**8, 0.5), TOTAL, old, new)
      for old, new in (("m", "bits"), ("d", "dimension"), ("delta0", "delta"))),
    Row(f"{ACC}.shuffle_papers.hanna_shuffle_epsilon", (1.0,), {"users": 10**6, "delta": 1e-6},
        "n", "users"),
    Row(f"{ACC}.advanced_composition", (0.1, 1e-6), {"count": 10, "delta_slack": 1e-6}, "k",
        "count"),
    Row(f"{ACC}.optimal_composition", (0.1, 0.0), {"count": 10, "target_delta": 1e-6}, "k",
        "count"),
    Row(f"{ACC}.optimal_composition_delta", (0.1, 0.0), {"count": 10, "target_epsilon": 0.5},
        "k", "count"),
    Row(f"{ACC}.composition.max_step_epsilon", (1.0, 1e-6), {"count": 10}, "k", "count"),
    Row(f"{ACC}.gaussian_epsilon", (2.0,), {"delta": 1e-5, "count": 3}, "compositions", "count"),
    Row(f"{ACC}.min_gaussian_sigma", (1.0, 1e-5), {"count": 10, "method": "rdp"},
        "compositions", "count"),
    Row(f"{ACC}.laplace_epsilon", (10.0,), {"count": 10}, "compositions", "count"),
    Row(f"{ACC}.min_laplace_scale", (1.0,), {"count": 10, "method": "pure"}, "compositions",
        "count"),
    Row(f"{ACC}.amplified_epsilon", (1.0,), {"users": 10**6, "delta": 1e-6}, "n", "users"),
    Row(f"{ACC}.amplified_delta", (1.0,), {"users": 10**6, "epsilon": 0.05}, "n", "users"),
    Row(f"{ACC}.max_local_epsilon", (0.1,), {"users": 10**5, "delta": 1e-6}, "n", "users"),
    Row(f"{ACC}.shuffled_binary_rr_delta", (0.5,), {"users": 100, "epsilon": 0.5}, "n", "users"),
    Row(f"{ACC}.shuffled_binary_rr_epsilon", (0.5,), {"users": 100, "delta": 1e-6}, "n", "users"),
    Row(f"{ACC}.min_randomization_probability", (), {"users": 100, "epsilon": 1.0, "delta": 1e-6},
        "n", "users"),
    # garcelon's p is the probability of replacing the bit by a fair coin (issue 24/30)
    Row(f"{ACC}.shuffled_binary_rr_delta", (),
        {"randomization_probability": 0.5, "users": 100, "epsilon": 0.5}, *FLIP),
    Row(f"{ACC}.shuffled_binary_rr_epsilon", (),
        {"randomization_probability": 0.5, "users": 100, "delta": 1e-6}, *FLIP),
    Row(f"{ACC}.shuffle_papers.garcelon_per_batch_epsilon", (10**6,),
        {"randomization_probability": 0.5, "bits": 1, "dimension": 1, "delta": 1e-6}, *FLIP),
    Row(f"{ACC}.shuffle_papers.garcelon_batch_length_ok", (10**6, 0.5), GARCELON, *FLIP),
    Row(f"{ACC}.shuffle_papers.min_shuffler_batch_length", (0.5,), GARCELON, *FLIP),
    Row(f"{ACC}.shuffle_papers.garcelon_total_guarantee", (10**7, 10**8),
        {**TOTAL, "randomization_probability": 0.5}, *FLIP),
    Row("dpverify.mechanisms.BinaryRandomizedResponse", (), {"randomization_probability": 0.5},
        *FLIP),
    Row("dpverify.mechanisms.BinarySummation", (), {"users": 4, "randomization_probability": 0.5},
        *FLIP),
    Row(PLD.from_pmfs, (), PMFS, "p", "pmf", _delta_at_0),
    Row(PLD.from_pmfs, (), PMFS, "q", "pmf_prime", _delta_at_0),
    Row(PLD.from_randomized_response, (1.0,), {"categories": 3}, "k", "categories", _delta_at_0),
    Row(f"{ACC}.randomized_response_rdp", (1.0,), {"categories": 3, "orders": [2.0]}, "k",
        "categories"),
    Row(RandomizedResponse, (), {"categories": 3, "epsilon": 1.0}, "k", "categories"),
    Row("dpverify.mechanisms.pmf_pair_profile", (), PMFS, "p", "pmf", _delta_at_0),
    Row("dpverify.mechanisms.pmf_pair_profile", (), PMFS, "q", "pmf_prime", _delta_at_0),
    Row("dpverify.auditing.exact_epsilon", (), PMFS, "p", "pmf"),
    Row("dpverify.auditing.exact_epsilon", (), PMFS, "q", "pmf_prime"),
    Row("dpverify.auditing.exact_delta", (), {**PMFS, "epsilon": 0.0}, "p", "pmf"),
    Row("dpverify.auditing.exact_delta", (), {**PMFS, "epsilon": 0.0}, "q", "pmf_prime"),
    Row("dpverify.mechanisms.laplace_delta", (), {"pure_epsilon": 1.0, "epsilon": 0.5},
        "epsilon_0", "pure_epsilon"),
    Row(LocalPrivatizer, (), {"dimension": 2, "bits": 1, "local_epsilon": 1.0,
                              "context_bound": 1.0}, "epsilon_0", "local_epsilon"),
    Row(LocalPrivatizer(1, 1, 1.0, 1.0).privacy_loss_between, (),
        {"x": ([0.5], 0.0), "x_prime": ([0.5], 1.0)}, "first", "x"),
    Row(LocalPrivatizer(1, 1, 1.0, 1.0).privacy_loss_between, (),
        {"x": ([0.5], 0.0), "x_prime": ([0.5], 1.0)}, "second", "x_prime"),
    Row("dpverify.mechanisms.mldp_randomization_probability", (),
        {"local_epsilon": 1.0, "bits": 1, "dimension": 1}, "epsilon_0", "local_epsilon"),
    Row("dpverify.mechanisms.m_ldp", ([0.5, 0.5], 0.3),
        {"context_bound": 1.0, "local_epsilon": 1.0, "bits": 2, "rng": "RNG"}, "epsilon_0",
        "local_epsilon", lambda bw: [a.tolist() for a in bw]),
    *(Row("dpverify.mechanisms.simulation.simulation_polya", (),
          {"shape": 1.0, "probability": 0.5, "rng": "RNG", "size": 5}, old, new, np.ndarray.tolist)
      for old, new in (("r", "shape"), ("beta", "probability"))),
    Row("dpverify.auditing.clopper_pearson_lower", (50, 100), {"failure_probability": 0.025},
        "alpha", "failure_probability"),
    Row("dpverify.auditing.clopper_pearson_upper", (50, 100), {"failure_probability": 0.025},
        "alpha", "failure_probability"),
    *(Row("dpverify.auditing.estimators.conditional_ratio_lower", (600,),
          {"successes_prime": 400, "failure_probability": 0.05}, old, new)
      for old, new in (("other", "successes_prime"), ("alpha", "failure_probability"))),
    *(Row("dpverify.auditing.events.search_events", (), _SEARCH, old, new,
          lambda found: [c.event.description for c in found])
      for old, new in (("a", "samples"), ("b", "samples_prime"), ("n_certify", "certify_samples"),
                       ("z", "normal_quantile"), ("extra", "extra_candidates"))),
    Row("dpverify.auditing.largest_certifiable_epsilon", (), {"certify_samples": 10},
        "n_certify", "certify_samples"),
    Row("dpverify.auditing.sequential.stage_sizes", (), {"first_samples": 10, "max_samples": 100},
        "first", "first_samples"),
    Row(_SCORE.plain_values, (), {"samples": np.array([[1.0], [-1.0]])}, "table", "samples",
        lambda values: np.nan_to_num(values, nan=-7.0).tolist()),
    # issue 24, one word one meaning: bound, scale
    Row(TruncatedDiscreteGaussian, (1.0,), {"support_bound": 3}, "bound", "support_bound"),
    Row("dpverify.mechanisms.truncated_discrete_gaussian_delta", (1.0,),
        {"support_bound": 3, "epsilon": 0.5}, "bound", "support_bound"),
    *(Row(ClassifierScore, (), _SCORE_FIELDS, old, new, lambda score: score(_OUTPUTS).tolist())
      for old, new in (("scale", "divisor"), ("masked_scale", "masked_divisor"))),
    Row("dpverify.testing.strategies.bounded_vectors", (2,), {"norm": "l1", "norm_bound": 2.0},
        "bound", "norm_bound", lambda strategy: find(strategy, lambda v: v[0] > 1.5).tolist()),
    Row("dpverify.testing.strategies.neighbouring_bounded_vectors", (2,), {"norm_bound": 2.0},
        "bound", "norm_bound",
        lambda strategy: [a.tolist() for a in find(strategy, lambda p: p[1][0, 0] > 1.5)]),
    *(Row("dpverify.testing.assert_conservative", (1.0, 1.0),
          {"name": "eps", "rtol": 0.1, "atol": 0.1}, old, new)
      for old, new in (("rel_tol", "rtol"), ("abs_tol", "atol"))),
]

_DISCRETE = (DiscreteLaplace(1.0), DiscreteGaussian(1.0), Skellam(1.0), BinomialNoise(10),
             PolyaDifference(shares=4, scale=2.0), TruncatedDiscreteGaussian(1.0, 3),
             DiscreteLaplace(1.0).law_on(2), RandomizedResponse(3, 1.0).law_on(0))
_CONTINUOUS = (Laplace(1.0), Gaussian(1.0), Laplace(1.0).law_on(0.5))
LAW_ROWS = [
    *(Row(getattr(law, method), (), {"outcome": 1}, "k", "outcome")
      for law in _DISCRETE for method in ("pmf", "logpmf", "cdf", "sf") if hasattr(law, method)),
    *(Row(law.pmf_array, (), {"outcomes": np.array([0.0, 1.0])}, "ks", "outcomes",
          np.ndarray.tolist) for law in _DISCRETE if hasattr(law, "pmf_array")),
    *(Row(getattr(law, method), (), {"outcome": 0.5}, "x", "outcome")
      for law in _CONTINUOUS for method in ("pdf", "logpdf", "cdf", "sf")),
    *(Row(law.pdf_array, (), {"outcomes": np.array([0.0, 1.0])}, "xs", "outcomes",
          np.ndarray.tolist) for law in _CONTINUOUS),
]


def _row_id(row: Row) -> str:
    function = row.function
    name = function.rsplit(".", 1)[-1] if isinstance(function, str) else getattr(
        function, "__qualname__", type(function).__name__)
    return f"{name}.{row.old}"


def _call(row: Row, names: dict[str, str]) -> Any:
    function = _resolve(row.function) if isinstance(row.function, str) else row.function
    kwargs = {names.get(key, key): np.random.default_rng(5) if isinstance(value, str)
              and value == "RNG" else value for key, value in row.kwargs.items()}
    return function(*row.args, **kwargs)


@pytest.mark.slow
@pytest.mark.parametrize("row", ROWS + LAW_ROWS, ids=[_row_id(r) for r in ROWS + LAW_ROWS])
def test_the_old_name_still_works_with_a_warning(row: Row) -> None:
    assert row.new in row.kwargs
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        expected = row.compare(_call(row, {}))
    with pytest.warns(DeprecationWarning, match=f"'{row.old}' is deprecated.*'{row.new}'"):
        old = row.compare(_call(row, {row.new: row.old}))
    assert old == expected or (isinstance(old, float) and np.isnan(old) and np.isnan(expected))


@pytest.mark.parametrize("row", ROWS[:6] + LAW_ROWS[:1], ids=_row_id)
def test_both_names_is_a_type_error(row: Row) -> None:
    function = _resolve(row.function) if isinstance(row.function, str) else row.function
    with pytest.raises(TypeError, match=f"both '{row.old}'.*'{row.new}'"):
        function(*row.args, **row.kwargs, **{row.old: row.kwargs[row.new]})


# --------------------------------------------------------------------------- attributes and names

@pytest.mark.parametrize("value, old, new", [
    (RandomizedResponse(3, 1.0), "k", "categories"),
    (LocalPrivatizer(1, 1, 1.0, 1.0), "epsilon_0", "local_epsilon"),
    (LocalPrivatizer(1, 1, 1.0, 1.0), *FLIP),
    (BinaryRandomizedResponse(0.5), *FLIP),
    (BinarySummation(4, 0.5), *FLIP),
    (TruncatedDiscreteGaussian(1.0, 3), "bound", "support_bound"),
    (_SCORE, "scale", "divisor"),
    (_SCORE, "masked_scale", "masked_divisor"),
])
def test_a_renamed_field_reads_under_its_old_name(value: Any, old: str, new: str) -> None:
    with pytest.warns(DeprecationWarning, match=f"{old} is deprecated.*{new}"):
        assert np.array_equal(getattr(value, old), getattr(value, new))


@pytest.mark.parametrize("module, old, new", [
    ("dpverify.accountants", "min_flip_probability", "min_randomization_probability"),
    ("dpverify.accountants.shuffle", "min_flip_probability", "min_randomization_probability"),
    ("dpverify.accountants.shuffle.amplification", "min_flip_probability",
     "min_randomization_probability"),
    ("dpverify.mechanisms", "binary_flip_probability", "binary_randomization_probability"),
    ("dpverify.mechanisms.randomized_response", "binary_flip_probability",
     "binary_randomization_probability"),
    ("dpverify.mechanisms", "mldp_flip_probability", "mldp_randomization_probability"),
    ("dpverify.mechanisms.encoding", "mldp_flip_probability", "mldp_randomization_probability"),
    ("dpverify.bandits.contextual.parameters", "flip_probability", "randomization_probability"),
])
def test_a_renamed_function_reads_under_its_old_name(module: str, old: str, new: str) -> None:
    imported = importlib.import_module(module)
    with pytest.warns(DeprecationWarning, match=f"{module}.{old} is deprecated.*{new}"):
        assert getattr(imported, old) is getattr(imported, new)
    assert old not in imported.__all__ and new in imported.__all__


def test_shuffled_randomized_response_flip_probability_is_the_randomization_probability() -> None:
    privatizer = ShuffledRandomizedResponse(epsilon=1.0, delta=1e-6)
    with pytest.warns(DeprecationWarning, match="flip_probability is deprecated.*"
                                                "randomization_probability"):
        old = privatizer.flip_probability(1000)
    assert old == privatizer.randomization_probability(1000)
    deployment = privatizer.deployment(1000)
    assert deployment["flip_probability"] == deployment["randomization_probability_p"] / 2 == old / 2


@pytest.mark.parametrize("module", ["dpverify.auditing", "dpverify.auditing.events"])
def test_event_is_output_event(module: str) -> None:
    imported = importlib.import_module(module)
    with pytest.warns(DeprecationWarning, match=f"{module}.Event is deprecated.*OutputEvent"):
        assert imported.Event is imported.OutputEvent
    assert "Event" not in imported.__all__


# --------------------------------------------------------------------------- the command line

CLI_ROWS = [
    (["account", "gaussian", "--sigma", "2", "--delta", "1e-5", "--json"], "--compositions",
     "--count", "3"),
    (["account", "dp-sgd", "--steps", "100", "--noise-multiplier", "1.1", "--delta", "1e-5",
      "--json"], "--sampling-rate", "--sampling-probability", "0.01"),
    (["shuffle", "--local-epsilon", "1", "--delta", "1e-6", "--json"], "--n", "--users", "100000"),
    (["plan", "gaussian", "--epsilon", "1", "--delta", "1e-5", "--json"], "--compositions",
     "--count", "10"),
    (["plan", "shuffle", "--epsilon", "0.5", "--delta", "1e-6", "--json"], "--n", "--users",
     "100000"),
    (["plan", "shuffle", "--epsilon", "0.5", "--delta", "1e-6", "--users", "100000",
      "--randomizer", "k-rr", "--json"], "--k", "--categories", "3"),
]


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[dict[str, Any], str]:
    assert main(argv) == 0
    out, err = capsys.readouterr()
    result = json.loads(out)
    result.pop("seconds")
    return result, err


@pytest.mark.parametrize("argv, old, new, value", CLI_ROWS,
                         ids=[f"{row[0][0]}-{row[0][1]}{row[1]}" for row in CLI_ROWS])
@pytest.mark.slow
def test_a_renamed_cli_option_still_works_hidden_and_with_a_warning(
        argv: list[str], old: str, new: str, value: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    expected, err = _run([*argv, new, value], capsys)
    assert "deprecated" not in err
    result, err = _run([*argv, old, value], capsys)
    assert result == expected
    assert f"{old} is deprecated" in err and f"use {new}" in err
    command = argv[:1] if argv[0] == "shuffle" else argv[:2]
    with pytest.raises(SystemExit):
        main([*command, "--help"])
    shown = capsys.readouterr().out
    assert new in shown and not re.search(rf"{re.escape(old)}(?![\w-])", shown)
