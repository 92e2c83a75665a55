"""Model-based audits of the integer families: discrete Laplace, discrete Gaussian, binomial.

The bounds come from the collision rate of output pairs (exact Clopper–Pearson) mapped through
the exact profiles of :mod:`dpverify.mechanisms._noise_maps`; the monotonicity they rely on is
checked here on grids.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from dpverify.auditing import audit_curve
from dpverify.auditing._model_discrete import (
    collision_probability,
    count_ties,
    delta_function,
    interval_delta_lower,
    interval_epsilon_lower,
    largest_epsilon_at_delta,
    parameter_bound,
)
from dpverify.auditing.model import audit_model, weakest_profile
from dpverify.errors import AuditError
from dpverify.mechanisms import BinomialNoise, DiscreteGaussian, DiscreteLaplace, samplers


def discrete_laplace(scale: float):
    return lambda data, size, rng: data + stats.dlaplace.rvs(1 / scale, size=size,
                                                             random_state=rng)


def discrete_gaussian(sigma: float):
    """Simulation only: inverse-cdf draws from the float pmf on ±40σ (fast, for the tests)."""
    support = np.arange(-math.ceil(40 * sigma), math.ceil(40 * sigma) + 1)
    weights = np.exp(-support.astype(float) ** 2 / (2 * sigma * sigma))
    cdf = np.cumsum(weights / weights.sum())
    return lambda data, size, rng: data + support[np.minimum(np.searchsorted(cdf, rng.random(size)),
                                                             len(support) - 1)]


@pytest.mark.slow
def test_the_fast_discrete_gaussian_has_the_exact_law() -> None:
    sigma, rng = 1.3, np.random.default_rng(0)
    draws = discrete_gaussian(sigma)(0, 200_000, rng)
    exact_draws = samplers.discrete_gaussian(sigma, rng=rng, size=200_000)
    assert stats.ks_2samp(draws, exact_draws).pvalue > 1e-4


def binomial(trials: int, p: float):
    return lambda data, size, rng: data + rng.binomial(trials, p, size) - trials // 2


def true_epsilon(family: str, parameter: float, delta: float, sensitivity: int = 1,
                 trials: int | None = None) -> float:
    return largest_epsilon_at_delta(delta_function(family, parameter, sensitivity, trials), delta)


# --------------------------------------------------------------------------- exact ingredients


@pytest.mark.parametrize("law, family, parameter, trials", [
    (DiscreteLaplace(0.7), "discrete_laplace", 0.7, None),
    (DiscreteLaplace(4.0), "discrete_laplace", 4.0, None),
    (DiscreteGaussian(0.6), "discrete_gaussian", 0.6, None),
    (DiscreteGaussian(5.0), "discrete_gaussian", 5.0, None),
    (BinomialNoise(30, 0.5), "binomial", 0.5, 30),
])
def test_collision_probability_is_the_sum_of_squared_exact_pmf(law, family, parameter,
                                                               trials) -> None:
    exact = sum(float(law.pmf(k)) ** 2 for k in range(-200, 201))
    assert collision_probability(family, parameter, trials) == pytest.approx(exact, rel=1e-12)


def test_binomial_collision_probability_matches_the_exact_rational_pmf() -> None:
    law = BinomialNoise(12, 0.25)  # atoms at j - 3
    exact = sum(float(law.pmf(j - 3)) ** 2 for j in range(13))
    assert collision_probability("binomial", 0.25, 12) == pytest.approx(exact, rel=1e-12)


@pytest.mark.parametrize("family, grid, trials", [
    ("discrete_laplace", np.geomspace(0.05, 200, 60), None),
    ("discrete_gaussian", np.geomspace(0.2, 200, 60), None),  # below 0.2, τ = 1 in floats
    ("binomial", np.linspace(0.01, 0.5, 50), 7),
    ("binomial", np.linspace(0.01, 0.5, 50), 400),
])
def test_collision_probability_falls_as_the_noise_spreads(family, grid, trials) -> None:
    """The inversion of τ needs it strictly decreasing in t, σ and p on (0, 1/2]."""
    values = [collision_probability(family, value, trials) for value in grid]
    assert all(a > b for a, b in zip(values, values[1:]))


@pytest.mark.parametrize("family, first, second, sensitivity, epsilon, trials", [
    ("discrete_gaussian", 2.916, 2.917, 1, 3.0, None),
    ("discrete_gaussian", 0.82, 0.825, 2, 3.0, None),
    ("binomial", 0.229, 0.23, 1, 1.0, 60),
])
def test_the_exact_profiles_are_not_monotone_in_the_parameter(family, first, second, sensitivity,
                                                              epsilon, trials) -> None:
    """Why the audit bounds δ over the whole interval: more noise can mean a larger δ(ε)."""
    values = [float(delta_function(family, value, sensitivity, trials)(epsilon))
              for value in (first, second)]
    assert values[1] > values[0]


CASES = [("discrete_laplace", 0.8, None), ("discrete_laplace", 6.0, None),
         ("discrete_gaussian", 0.7, None), ("discrete_gaussian", 2.9, None),
         ("binomial", 0.23, 60), ("binomial", 0.5, 9)]


@pytest.mark.parametrize("family, parameter, trials", CASES)
@pytest.mark.parametrize("sensitivity", [1, 2])
def test_a_point_interval_gives_the_exact_profile(family, parameter, trials, sensitivity) -> None:
    """Tail events are optimal for these laws: the bound is the exact accountant's δ(ε)."""
    bound = interval_delta_lower(family, parameter, parameter, sensitivity, trials)
    exact = delta_function(family, parameter, sensitivity, trials)
    for epsilon in (0.05, 0.5, 2.0):
        value = float(exact(epsilon))
        assert bound(epsilon) <= value * (1 + 1e-12)
        assert bound(epsilon) == pytest.approx(value, rel=1e-6, abs=1e-280)


@pytest.mark.slow
@pytest.mark.parametrize("family, parameter, trials", CASES)
def test_the_interval_bound_is_below_the_exact_profile_everywhere_inside(family, parameter,
                                                                         trials) -> None:
    low, high = parameter * 0.9, min(parameter * 1.1, 0.5) if trials else parameter * 1.1
    for sensitivity in (1, 2):
        bound = interval_delta_lower(family, low, high, sensitivity, trials)
        for theta in np.linspace(low, high, 41):
            exact = delta_function(family, float(theta), sensitivity, trials)
            for epsilon in (0.05, 0.5, 2.0):
                assert bound(epsilon) <= float(exact(epsilon)) * (1 + 1e-12)


@pytest.mark.slow
def test_interval_epsilon_is_below_every_exact_epsilon_inside() -> None:
    for family, parameter, trials in CASES:
        low, high = parameter * 0.95, min(parameter * 1.05, 0.5) if trials else parameter * 1.05
        lower = interval_epsilon_lower(family, low, high, 1, 1e-5, trials)
        truths = [true_epsilon(family, float(t), 1e-5, trials=trials)
                  for t in np.linspace(low, high, 21)]
        assert 0 < lower <= min(truths)


def test_ties_are_counted_within_each_side_only() -> None:
    first, second = np.array([1, 1, 2, 3, 5]), np.array([4, 4, 4, 4])
    assert count_ties([first, second]) == (1 + 2, 2 + 2)
    with pytest.raises(AuditError, match="non-integer"):
        count_ties([np.array([0.5, 1.0]), second])
    with pytest.raises(AuditError, match="scalar"):
        count_ties([np.zeros((4, 2)), second])


@pytest.mark.parametrize("family, parameter, trials", [
    ("discrete_laplace", 2.0, None), ("discrete_gaussian", 2.0, None), ("binomial", 0.2, 50)])
def test_parameter_bound_covers_and_inverts_tau(family, parameter, trials) -> None:
    tau = collision_probability(family, parameter, trials)
    ties = int(round(tau * 100_000))
    estimate, bound = parameter_bound(family, ties, 100_000, 0.05, trials)
    assert estimate == pytest.approx(parameter, rel=1e-3)
    assert bound > estimate and collision_probability(family, bound, trials) < \
        float(stats.beta.ppf(0.05, ties, 100_000 - ties + 1))


# --------------------------------------------------------------------------- audits


UNDER_NOISED = [  # (family, implementation, claim kwargs, samples): each is 25-40% under-noised
    ("discrete_laplace", discrete_laplace(0.8), {"epsilon": 1.0}, 200_000),
    ("discrete_laplace", discrete_laplace(3.0), {"epsilon": 0.25, "delta": 1e-6,
                                                 "sensitivity": 1}, 1_000_000),
    ("discrete_gaussian", discrete_gaussian(0.7 * 3.7404847), {"epsilon": 1.0, "delta": 1e-5},
     200_000),
    ("binomial", binomial(62, 0.25), {"epsilon": 1.0, "delta": 1e-5, "trials": 62}, 200_000),
]


@pytest.mark.parametrize("family, sampler, claim, samples", UNDER_NOISED,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(UNDER_NOISED)])
@pytest.mark.slow
def test_under_noised_integer_mechanisms_are_flagged(family, sampler, claim, samples) -> None:
    claim = {"sensitivity": 1, **claim}
    report = audit_model(sampler, 3, 4, family=family, samples=samples, seed=7, **claim)
    assert report.violation, str(report)
    assert "under the stated model" in str(report) and report.to_dict()["family"] == family


@pytest.mark.slow
def test_the_weakest_integer_mechanisms_pass_and_are_tight() -> None:
    """The least noisy members meeting (1, 1e-5) (weakest_profile's calibrations) pass."""
    cases = [("discrete_laplace", discrete_laplace(1.0), {}, 1.0),
             ("discrete_gaussian", discrete_gaussian(3.7404847), {}, 3.7404847),
             ("binomial", binomial(62, 0.5), {"trials": 62}, 0.5)]
    for family, sampler, extra, parameter in cases:
        delta = 0.0 if family == "discrete_laplace" else 1e-5
        report = audit_model(sampler, 0, 1, family=family, epsilon=1.0, delta=delta,
                             sensitivity=1, samples=400_000, seed=8, **extra)
        assert not report.violation, str(report)
        assert report.epsilon_lower_bound <= true_epsilon(family, parameter, delta,
                                                          trials=extra.get("trials"))
        assert report.epsilon_lower_bound > 0.9  # tight under the model


@settings(max_examples=12, deadline=None, derandomize=True)
@given(family=st.sampled_from(["discrete_laplace", "discrete_gaussian", "binomial"]),
       parameter=st.floats(0.3, 6.0), sensitivity=st.integers(1, 3),
       delta=st.sampled_from([0.0, 1e-6, 1e-3]), seed=st.integers(0, 2 ** 32 - 1))
@pytest.mark.slow
def test_the_bound_never_exceeds_the_true_epsilon(family, parameter, sensitivity, delta,
                                                  seed) -> None:
    """At confidence 1 - 1e-9 a bound above the truth would be a bug, not bad luck."""
    trials = None
    if family == "binomial":
        trials, parameter = 40, min(parameter / 12, 0.5)  # p in (0.025, 0.5]
        sampler = binomial(trials, parameter)
        if delta == 0:
            delta = 1e-6  # binomial noise is not pure DP: its ε at δ = 0 is infinite
    elif family == "discrete_laplace":
        sampler = discrete_laplace(parameter)
    else:
        sampler, delta = discrete_gaussian(parameter), delta or 1e-6
    report = audit_model(sampler, 0, sensitivity, family=family, epsilon=1.0, delta=delta,
                         sensitivity=sensitivity, trials=trials, samples=20_000,
                         confidence=1 - 1e-9, seed=seed, threads=False)
    truth = true_epsilon(family, parameter, delta, sensitivity, trials)
    assert report.epsilon_lower_bound <= truth * (1 + 1e-9)


AUDITS, RATE, FAILURE = 200, 0.05, 1e-3
CRITICAL = int(stats.binom.isf(FAILURE, AUDITS, RATE)) + 1


@pytest.mark.parametrize("family, sampler, parameter, extra, audits", [
    ("discrete_laplace", discrete_laplace(1.5), 1.5, {}, AUDITS),
    ("binomial", binomial(40, 0.3), 0.3, {"trials": 40}, AUDITS),
    ("discrete_gaussian", discrete_gaussian(2.0), 2.0, {}, 60),
])
@pytest.mark.slow
def test_false_alarms_of_tight_integer_audits_are_at_most_five_percent(family, sampler,
                                                                        parameter, extra,
                                                                        audits) -> None:
    """Audits whose claim is the true ε(δ): at most 5% flag it (binomial test at 1e-3)."""
    delta = 1e-5
    truth = true_epsilon(family, parameter, delta, trials=extra.get("trials"))
    seeds = np.random.SeedSequence(21).spawn(audits)
    violations = sum(audit_model(sampler, 0, 1, family=family, epsilon=truth, delta=delta,
                                 sensitivity=1, samples=4_000, seed=seed, threads=False,
                                 **extra).violation for seed in seeds)
    assert violations < int(stats.binom.isf(FAILURE, audits, RATE)) + 1


@pytest.mark.slow
def test_weakest_integer_profiles_meet_the_claim_tightly() -> None:
    for family in ("discrete_laplace", "discrete_gaussian", "binomial"):
        profile = weakest_profile(family, 1.0, 1e-5)
        assert profile.delta_for_epsilon(1.0) <= 1e-5
        assert profile.delta_for_epsilon(0.95) > 1e-5 or family == "binomial"
    assert weakest_profile("discrete_laplace", 0.5, sensitivity=2).delta_for_epsilon(0.5) == 0.0


@pytest.mark.slow
def test_audit_curve_against_the_weakest_discrete_gaussian_flags_less_noise() -> None:
    profile = weakest_profile("discrete_gaussian", 1.0, 1e-5)
    report = audit_curve(discrete_gaussian(1.0), 0, 1, profile=profile, samples=300_000, seed=3)
    assert report.violation


@pytest.mark.parametrize("kwargs, name", [
    ({"family": "binomial", "sensitivity": 1}, "trials"),
    ({"family": "binomial", "sensitivity": 1, "trials": 0}, "trials"),
    ({"family": "discrete_laplace", "sensitivity": 1, "trials": 4}, "trials"),
    ({"family": "discrete_laplace", "sensitivity": 1.5}, "sensitivity"),
    ({"family": "discrete_gaussian"}, "sensitivity"),
])
def test_bad_integer_family_arguments(kwargs, name) -> None:
    with pytest.raises(ValueError, match=name):
        audit_model(discrete_laplace(1.0), 0, 1, epsilon=1.0, **kwargs)
    if name == "sensitivity" and "sensitivity" in kwargs:
        with pytest.raises(ValueError, match="sensitivity"):
            weakest_profile("discrete_laplace", 1.0, sensitivity=1.5)
