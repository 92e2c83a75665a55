"""Tests of :mod:`dpverify.accountants.pld.truncated_poisson` (Gaussian on a Poisson sample capped at B)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats

from dpverify.accountants._truncated_poisson import truncation_weights
from dpverify.accountants.pld import PrivacyLossDistribution
from dpverify.accountants.pld.truncated_poisson import truncated_poisson_gaussian_pld

dp_accounting = pytest.importorskip("dp_accounting")
_PLD = dp_accounting.pld.privacy_loss_distribution


def _output_law(records, sampling_probability, max_sample_size):
    """Exact law of the (noise-free) sum of a truncated Poisson sample: {sum: probability}."""
    law: dict[float, float] = {}
    n = len(records)
    for kept in itertools.product((0, 1), repeat=n):
        chosen = [r for r, k in zip(records, kept) if k]
        weight = sampling_probability ** len(chosen) * (1 - sampling_probability) ** (n - len(chosen))
        subsets = list(itertools.combinations(chosen, min(len(chosen), max_sample_size)))
        for subset in subsets:
            total = round(sum(subset), 12)
            law[total] = law.get(total, 0.0) + weight / len(subsets)
    return law


def _hockey_stick(first, second, sigma, epsilon):
    """∫ (p − e^ε q)_+ of two Gaussian mixtures (trapezoid on a fine grid; error far below 1e-9)."""
    y = np.linspace(-12, 12, 120_001)

    def density(law):
        return sum(w * stats.norm.pdf(y, loc=c, scale=sigma) for c, w in law.items())

    return float(np.trapezoid(np.maximum(density(first) - math.exp(epsilon) * density(second), 0.0), y))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_bounds_the_exact_hockey_stick_of_small_datasets(seed):
    """Brute force: 3 other records and x (contributions in [−1, 1], one extremal configuration and
    two random ones), q = 0.5, B = 2, σ = 1: the exact δ(ε) of both directions is below the PLD's."""
    rng = np.random.default_rng(seed)
    others = [-1.0, -1.0, -1.0] if seed == 0 else [float(v) for v in rng.uniform(-1, 1, 3)]
    x = 1.0 if seed == 0 else float(rng.uniform(-1, 1))
    q, cap, sigma = 0.5, 2, 1.0
    without, with_x = _output_law(others, q, cap), _output_law([*others, x], q, cap)
    pld = truncated_poisson_gaussian_pld(sigma, q, max_sample_size=cap, population_size=4)
    for epsilon in (0.0, 0.25, 0.5, 1.0):
        exact = max(_hockey_stick(with_x, without, sigma, epsilon), _hockey_stick(without, with_x, sigma, epsilon))
        assert exact <= pld.delta_for_epsilon(epsilon) + 1e-9


def test_weights_match_the_binomial_formulas():
    # dp_accounting's formulas (pld/privacy_loss_distribution.py, from_truncated_subsampled_gaussian_mechanism):
    # T = P(Bin(N − 1, q) >= B), p̄ = (B/N) P(Bin(N, q) >= B + 1) / T; ours covers N = n and n + 1
    q, cap, n = 0.01, 120, 12_000
    weights = truncation_weights(q, cap, n)
    tails = [stats.binom.sf(cap - 1, size - 1, q) for size in (n, n + 1)]
    rates = [stats.binom.sf(cap, size, q) * cap / size / t for size, t in zip((n, n + 1), tails)]
    assert weights.truncated_weight == pytest.approx(max(tails), rel=1e-9)
    assert weights.untruncated_weight == pytest.approx(1 - min(tails), rel=1e-9)
    assert weights.truncated_rate == pytest.approx(max(rates), rel=1e-9)
    assert weights.truncated_weight >= max(tails) * (1 - 1e-12)


def _peer_mixture(n, q, cap, sigma, *, pessimistic):
    """dp_accounting's construction (pld/privacy_loss_distribution.py, from_truncated_subsampled_gaussian_mechanism,
    v0.6.0 lines 1163-1201) with its second branch under ADD_OR_REMOVE_ONE, the pair dpverify uses."""
    options = {
        "pessimistic_estimate": pessimistic,
        "use_connect_dots": pessimistic,
        "value_discretization_interval": 1e-4,
    }
    first = _PLD.from_gaussian_mechanism(sigma, sampling_prob=q, **options)
    tail = stats.binom.sf(cap - 1, n - 1, q)
    rate = stats.binom.sf(cap, n, q) * cap / tail / n
    return _PLD.from_gaussian_mechanism(sigma / 2, sampling_prob=rate, **options).compute_mixture(first, tail)


# (n, q, B, σ, steps); measured (dpverify PLD / dp_accounting PLDAccountant / peer construction with the
# add/remove pair, optimistic .. pessimistic): (10000, .01, 120, 1, 100): 3.5879 / 3.5983 / 3.5779 .. 3.5829;
# (1000, .05, 60, .8, 50): 11.972 / 12.083 / 11.873 .. 11.875 (ours also covers n + 1: 11.909 there).
_CASES = [(10_000, 0.01, 120, 1.0, 100), (1000, 0.05, 60, 0.8, 50), (10_000, 0.01, 200, 1.0, 100)]


@pytest.mark.slow  # ~35 s each: dp_accounting's PLDs at its default 1e-4 grid
@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(("n", "q", "cap", "sigma", "steps"), _CASES)
def test_against_dp_accounting(n, q, cap, sigma, steps):
    """dpverify's ε >= the peer construction's optimistic ε (same pairs), within 1% of its pessimistic
    ε at the worse of n and n + 1; and at most dp_accounting's own PLDAccountant ε (+1e-4: its second
    branch is the looser REPLACE_ONE pair, 'a (slightly loose) upper bound' in its comment)."""
    delta = 1e-5
    ours = truncated_poisson_gaussian_pld(sigma, q, max_sample_size=cap, population_size=n)
    ours = ours.self_compose(steps).epsilon_for_delta(delta)
    optimistic = _peer_mixture(n, q, cap, sigma, pessimistic=False).self_compose(steps).get_epsilon_for_delta(delta)
    pessimistic = max(
        _peer_mixture(size, q, cap, sigma, pessimistic=True).self_compose(steps).get_epsilon_for_delta(delta)
        for size in (n, n + 1)
    )
    assert optimistic <= ours <= pessimistic * 1.01
    event = dp_accounting.SelfComposedDpEvent(dp_accounting.TruncatedSubsampledGaussianDpEvent(n, q, cap, sigma), steps)
    peer = dp_accounting.pld.PLDAccountant().compose(event).get_epsilon(delta)
    assert ours <= peer * (1 + 1e-4)


def test_untruncated_limit():
    """B > n: no truncation can happen, the PLD is the Poisson-subsampled Gaussian's; B → n: ε → it."""
    q, sigma, n = 0.05, 1.0, 500
    poisson = PrivacyLossDistribution.from_subsampled_gaussian(sigma, q).self_compose(20).epsilon_for_delta(1e-5)
    capped = truncated_poisson_gaussian_pld(sigma, q, max_sample_size=n + 1, population_size=n)
    assert capped.self_compose(20).epsilon_for_delta(1e-5) == pytest.approx(poisson, rel=1e-3)
    previous = math.inf
    for cap in (25, 30, 40, 60):  # mean sample 25: ε falls towards the Poisson value as B grows
        value = truncated_poisson_gaussian_pld(sigma, q, max_sample_size=cap, population_size=n)
        value = value.self_compose(20).epsilon_for_delta(1e-5)
        assert poisson * (1 - 1e-3) <= value <= previous
        previous = value
    assert previous == pytest.approx(poisson, rel=1e-2)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"max_sample_size": 0, "population_size": 10}, "max_sample_size"),
        ({"max_sample_size": 5, "population_size": 0}, "population_size"),
        ({"max_sample_size": 5, "population_size": 10, "sensitivity": -1.0}, "sensitivity"),
    ],
)
def test_invalid_arguments(kwargs, name):
    with pytest.raises(ValueError, match=name):
        truncated_poisson_gaussian_pld(1.0, 0.1, **kwargs)


def test_a_query_below_the_float_error_refines_a_truncated_poisson_composition():
    """δ = 1e-30 recomputes the composition (refined): the rebuild takes its tail by keyword,
    as every base PLD's does (it raised TypeError before)."""
    from dpverify.accountants.pld import truncated_poisson_gaussian_pld

    pld = truncated_poisson_gaussian_pld(1.0, 0.01, max_sample_size=120, population_size=10000)
    composed = pld.self_compose(100)
    assert composed.epsilon_for_delta(1e-30) > composed.epsilon_for_delta(1e-5) > 0
