"""The truncated discrete Gaussian: exact law and profile against brute force, maps, PLD in the accountant."""

from __future__ import annotations

import itertools
import math

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.accountants.accountant import PrivacyAccountant
from dpverify.accountants.events import PoissonSampledEvent
from dpverify.errors import UnsupportedError
from dpverify.guarantees import ApproxDP, PrivacyProfile, PureDP
from dpverify.mechanisms import (
    DiscreteGaussian,
    TruncatedDiscreteGaussian,
    privacy_map,
    truncated_discrete_gaussian_delta,
)


def brute_pmf(sigma, bound, centre=0):
    """{output: probability} at 60 digits, written out independently of the package."""
    with mpmath.workdps(60):
        weights = {k: mpmath.exp(-mpmath.mpf(k) ** 2 / (2 * mpmath.mpf(sigma) ** 2))
                   for k in range(-bound, bound + 1)}
        total = mpmath.fsum(weights.values())
        return {k + centre: w / total for k, w in weights.items()}


def hockey_stick(first, second, epsilon):
    with mpmath.workdps(60):
        factor = mpmath.exp(epsilon) if math.isfinite(epsilon) else mpmath.inf
        total = mpmath.mpf(0)
        for key in set(first) | set(second):
            p, q = first.get(key, mpmath.mpf(0)), second.get(key, mpmath.mpf(0))
            if q == 0:
                total += p
            elif p > factor * q:
                total += p - factor * q
        return total


def brute_delta(sigma, bound, sensitivity, epsilon):
    """max over every shift d = 1..Δ and both orders of the exact hockey-stick divergence."""
    centred = brute_pmf(sigma, bound)
    return max(max(hockey_stick(centred, brute_pmf(sigma, bound, d), epsilon),
                   hockey_stick(brute_pmf(sigma, bound, d), centred, epsilon))
               for d in range(1, sensitivity + 1))


@settings(max_examples=25, deadline=None)
@given(st.floats(0.3, 6.0), st.integers(1, 25), st.integers(1, 6), st.floats(0.0, 6.0))
def test_exact_profile_equals_brute_force_over_every_shift(sigma, bound, sensitivity, epsilon):
    ours = truncated_discrete_gaussian_delta(sigma, bound, epsilon, sensitivity=sensitivity)
    reference = brute_delta(sigma, bound, sensitivity, epsilon)
    with mpmath.workdps(60):
        assert ours >= reference * (1 - mpmath.mpf(10) ** -45)
        assert ours <= reference * (1 + mpmath.mpf(10) ** -35) + mpmath.mpf(10) ** -45


@settings(max_examples=10, deadline=None)
@given(st.floats(0.3, 6.0), st.integers(1, 25))
def test_law_is_the_conditioned_discrete_gaussian(sigma, bound):
    law, reference = TruncatedDiscreteGaussian(sigma, bound), brute_pmf(sigma, bound)
    full = DiscreteGaussian(sigma)
    with mpmath.workdps(50):
        inside = full.cdf(bound) - full.cdf(-bound - 1)
        for k in (-bound - 1, -bound, 0, 1, bound, bound + 1):
            assert abs(law.pmf(k) - reference.get(k, 0)) <= 1e-40
            if abs(k) <= bound:
                assert abs(law.pmf(k) - full.pmf(k) / inside) <= 1e-25
    assert abs(law.cdf(0) + law.sf(0) - 1) < 1e-40
    assert abs(law.cdf(bound) - 1) < 1e-40 and law.sf(bound) == 0
    with mpmath.workdps(60):
        variance = mpmath.fsum(k * k * p for k, p in reference.items())
    assert abs(law.variance() - variance) < 1e-40
    assert law.pmf_array([0, bound + 1, 0.5])[1:].tolist() == [0.0, 0.0]


def test_not_pure_dp_the_infinite_loss_mass_is_in_delta():
    law = TruncatedDiscreteGaussian(2.0, 5)
    with mpmath.workdps(50):
        tail = law.pmf(-5) + law.pmf(-4)                 # outputs the Δ = 2 shift cannot produce
        assert abs(truncated_discrete_gaussian_delta(2.0, 5, math.inf, sensitivity=2) - tail) < 1e-40
    with pytest.raises(UnsupportedError):
        privacy_map(law, sensitivity=2, target=PureDP)
    corner = privacy_map(law, sensitivity=2, target=ApproxDP)
    assert corner.epsilon == 2 * (10 - 2) / (2 * 4.0)      # Δ(2B − Δ)/(2σ²), the largest finite loss
    assert corner.delta == pytest.approx(float(tail), rel=1e-12) and corner.delta >= float(tail)
    profile = privacy_map(law, sensitivity=2)
    assert isinstance(profile, PrivacyProfile)
    assert profile.delta_for_epsilon(corner.epsilon * 2) == corner.delta
    assert truncated_discrete_gaussian_delta(1.0, 3, 0.0, sensitivity=7) == 1   # disjoint supports


def test_large_bound_approaches_the_discrete_gaussian():
    truncated = truncated_discrete_gaussian_delta(1.5, 60, 1.0, sensitivity=1)
    full = privacy_map(DiscreteGaussian(1.5), target=PrivacyProfile).delta_for_epsilon(1.0)
    assert truncated == pytest.approx(full, rel=1e-12)


def test_accountant_pld_bounds_the_exact_composition():
    law = TruncatedDiscreteGaussian(1.2, 4)
    one = PrivacyAccountant("pld").compose(law, 1, )
    two = PrivacyAccountant("pld").compose(law, 2)
    centred, shifted = brute_pmf(1.2, 4), brute_pmf(1.2, 4, 1)
    product = {(a, b): centred[a] * centred[b] for a, b in itertools.product(centred, centred)}
    moved = {(a, b): shifted[a] * shifted[b] for a, b in itertools.product(shifted, shifted)}
    for epsilon in (0.0, 0.5, 1.5, 3.0):
        exact_one = brute_delta(1.2, 4, 1, epsilon)
        assert exact_one <= one.get_delta(epsilon) <= exact_one + 2e-4
        exact_two = max(hockey_stick(product, moved, epsilon), hockey_stick(moved, product, epsilon))
        assert exact_two <= two.get_delta(epsilon) <= exact_two + 5e-4
    assert not PrivacyAccountant("rdp").supports(law)                   # infinite loss: no RDP
    sampled = PrivacyAccountant("pld").compose(PoissonSampledEvent(law, 0.1))
    assert sampled.get_delta(0.5) < one.get_delta(0.5)


@pytest.mark.parametrize("kwargs, name", [
    ({"sigma": 0.0, "support_bound": 3}, "sigma"), ({"sigma": 1.0, "support_bound": 0}, "support_bound"),
    ({"sigma": 1.0, "support_bound": 2.5}, "support_bound"), ({"sigma": 1.0, "support_bound": 10**6}, "support_bound"),
])
def test_refuses_bad_parameters(kwargs, name):
    with pytest.raises((ValueError, TypeError), match=name):
        TruncatedDiscreteGaussian(**kwargs)
    with pytest.raises(ValueError, match="sensitivity"):
        truncated_discrete_gaussian_delta(1.0, 3, 1.0, sensitivity=1.5)
