"""Regressions of issue 17: every case its "Why" lists is refused clearly and fast.

Each case used to return NaN, accept an invalid value, hang, exhaust memory or
crash with an internal traceback. Each must now raise ValueError/TypeError
naming the parameter (or, through the CLI, exit 2 naming the option) within a
second, before any work starts. The broad sweep is ``tests/fuzz``.
"""

from __future__ import annotations

import json
import math
import time

import numpy as np
import pytest

from dpverify.accountants import (
    advanced_composition,
    optimal_composition,
    optimal_composition_delta,
    scale_rdp,
    shuffled_binary_rr_epsilon,
)
from dpverify.auditing import audit, audit_interactive, clopper_pearson_lower
from dpverify.bandits.linear import make_linear_algorithm
from dpverify.bandits.linear.environments import LinearInstanceFamily
from dpverify.bandits.mab import make_algorithm
from dpverify.bandits.simulate import simulate
from dpverify.bandits.environments import BernoulliBandit
from dpverify.cli import main
from dpverify.guarantees import RDPCurve
from dpverify.mechanisms import (
    DiscreteGaussian,
    discrete_gaussian_delta,
    discrete_laplace_delta,
    gaussian_delta,
    laplace_delta,
    sample,
)

SECOND = 1.0  # every refusal comes before the work: well under a second


def _refused(call, name: str, errors=(ValueError, TypeError)) -> None:
    start = time.perf_counter()
    with pytest.raises(errors) as info:
        call()
    assert name in str(info.value), f"message does not name {name!r}: {info.value}"
    assert time.perf_counter() - start < SECOND, "the refusal came after the work"


def _coin(data, size, rng):
    return rng.random(size) < (0.75 if data else 0.25)


def _run(stream, rng):
    return [int(rng.random() < (0.75 if stream else 0.25))]


# --- the exported profile functions validate ε (NaN in no longer gives NaN out) ---------------

@pytest.mark.parametrize("function, first", [
    (gaussian_delta, 1.0), (laplace_delta, 1.0), (discrete_laplace_delta, 1.0),
    (discrete_gaussian_delta, 1.0),
])
@pytest.mark.parametrize("bad", [math.nan, "1.0", True, None, -math.inf])
def test_profile_functions_refuse_a_bad_epsilon(function, first, bad) -> None:
    _refused(lambda: function(first, bad), "epsilon")


@pytest.mark.parametrize("mu", [math.nan, -1.0, 0.0, math.inf])
def test_gaussian_delta_with_a_bad_mu_is_refused_not_looped(mu) -> None:
    """``gaussian_delta(nan, 1.0)`` and a negative μ used to loop forever."""
    _refused(lambda: gaussian_delta(mu, 1.0), "mu")


def test_profile_functions_keep_their_values() -> None:
    assert float(gaussian_delta(1.0, 0.0)) == pytest.approx(0.3829249225480262, rel=1e-15)
    assert float(gaussian_delta(1.0, math.inf)) == 0.0
    assert float(laplace_delta(1.0, 0.5)) == pytest.approx(-math.expm1(-0.25), rel=1e-15)


# --- NaN and invalid values accepted silently ------------------------------------------------

def test_sample_refuses_a_nan_input() -> None:
    _refused(lambda: sample(DiscreteGaussian(2.0), math.nan, rng=np.random.default_rng(0),
                            size=3), "x")


def test_linear_instance_family_refuses_nan_heterogeneity() -> None:
    _refused(lambda: LinearInstanceFamily("dpdpe", dimension=2, actions=3, heterogeneity=math.nan),
             "heterogeneity")


def test_clopper_pearson_refuses_absurd_trials() -> None:
    _refused(lambda: clopper_pearson_lower(3, 1e300, alpha=0.05), "trials")


# --- huge integers refused before work -------------------------------------------------------

@pytest.mark.parametrize("k", [2**63, 10**1000])
def test_composition_counts_beyond_int64_are_refused(k) -> None:
    _refused(lambda: advanced_composition(0.1, 1e-6, k, delta_slack=1e-6), "k")
    _refused(lambda: optimal_composition(0.1, 0.0, k, target_delta=1e-6), "k")
    _refused(lambda: scale_rdp(RDPCurve((2.0,), (1.0,)), k), "count")


def test_optimal_composition_refuses_a_billion_compositions_and_names_the_alternative() -> None:
    _refused(lambda: optimal_composition_delta(0.1, 0.0, 10**9, target_epsilon=1.0), "k")
    with pytest.raises(ValueError, match="advanced_composition"):
        optimal_composition_delta(0.1, 0.0, 10**9, target_epsilon=1.0)


def test_exact_shuffled_rr_refuses_a_hundred_million_users() -> None:
    """n = 10^8 used to take over 5 minutes and 2.7 GiB."""
    _refused(lambda: shuffled_binary_rr_epsilon(0.5, 10**8, 1e-6), "n")
    with pytest.raises(ValueError, match="amplified_epsilon"):
        shuffled_binary_rr_epsilon(0.5, 10**8, 1e-6)


def test_audit_refuses_absurd_samples() -> None:
    _refused(lambda: audit(_coin, 1, 0, epsilon=1.0, samples=10**30, seed=0), "samples")


def test_interactive_audit_refuses_a_hundred_thousand_processes() -> None:
    _refused(lambda: audit_interactive(_run, 1, 0, statistic=lambda t: t[0], epsilon=1.0,
                                       runs=100, seed=0, n_jobs=10**5), "n_jobs")


@pytest.mark.parametrize("argument, value", [("horizon", 2**63), ("runs", 10**30)])
def test_simulate_refuses_absurd_horizons_and_runs(argument, value) -> None:
    arguments = {"horizon": 100, "runs": 1, argument: value}
    _refused(lambda: simulate(make_algorithm("se"), BernoulliBandit((0.2, 0.8)),
                              arguments["horizon"], runs=arguments["runs"], seed=0), argument)


def test_linear_simulation_memory_is_bounded_before_it_starts() -> None:
    """T = 10^9 hanna-central used to end in a MemoryError after 7.6 GiB and minutes."""
    _refused(lambda: simulate(make_linear_algorithm("hanna-central", epsilon=1.0),
                              LinearInstanceFamily("sphere", dimension=2, actions=3), 10**9, seed=0),
             "horizon")


# --- the CLI ---------------------------------------------------------------------------------

@pytest.mark.parametrize("argv, option", [
    (["account", "gaussian", "--sigma", "1", "--delta", "1e-5", "--count", "inf"],
     "--count"),
    (["shuffle", "--local-epsilon", "1", "--n", "inf", "--delta", "1e-6"], "--n"),
    (["simulate", "--algorithm", "se", "--horizon", "inf"], "--horizon"),
    (["audit", "laplace_half_scale", "--samples", "inf"], "--samples"),
    (["account", "gaussian", "--sigma", "1e-300", "--delta", "1e-5"], "--sigma"),
    (["simulate", "--algorithm", "se", "--horizon", "100", "--jobs", "1e8"], "--jobs"),
])
def test_cli_refuses_with_exit_2_naming_the_option(argv, option, capsys) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert option in err and "Traceback" not in err


def test_cli_json_is_strict(capsys) -> None:
    """``--json`` never prints ``Infinity`` or ``NaN`` (not JSON)."""
    def refuse(constant: str) -> None:
        raise ValueError(constant)

    status = main(["account", "laplace", "--scale", "1", "--count", "1", "--delta", "0.5",
                   "--method", "rdp", "--json"])
    assert status in (0, 1)
    json.loads(capsys.readouterr().out, parse_constant=refuse)
