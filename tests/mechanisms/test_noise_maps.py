"""Privacy maps of the noise mechanisms, each checked against the exact profile or Rényi
divergence computed from the pmfs of the worst neighbouring pair (a shift by Δ)."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.errors import UnsupportedError
from dpverify.guarantees import ZCDP, ApproxDP, PrivacyProfile, PureDP, RDPCurve
from dpverify.mechanisms._noise_maps import (
    SKELLAM_ORDERS,
    discrete_gaussian_delta,
    discrete_laplace_delta,
    skellam_rdp,
)
from dpverify.mechanisms.continuous import Gaussian, Laplace
from dpverify.mechanisms.discrete import (
    BinomialNoise,
    DiscreteGaussian,
    DiscreteLaplace,
    PolyaDifference,
    Skellam,
)
from dpverify.mechanisms.privacy_maps import pmf_pair_profile, privacy_map, supported_guarantees
from dpverify.neighbouring import Neighbouring
from dpverify.testing import strategies as dst

DELTAS = (1e-2, 1e-4, 1e-6)


def _pair(law, shift: int, width: int) -> tuple[list, list]:
    """pmfs of noise and noise + shift on [−width, width + shift] (truncated), at 50 digits."""
    with mpmath.workdps(50):
        p = [law.pmf(k) for k in range(-width, width + shift + 1)]
        q = [law.pmf(k - shift) for k in range(-width, width + shift + 1)]
    return p, q


def _renyi(p: list, q: list, order: int) -> mpmath.mpf:
    with mpmath.workdps(50):
        total = mpmath.fsum(a ** order * b ** (1 - order) for a, b in zip(p, q) if a > 0 and b > 0)
        return mpmath.log(total) / (order - 1)


def test_default_targets_and_registration_order() -> None:
    assert supported_guarantees(Laplace(1.0)) == (PureDP, PrivacyProfile)
    assert supported_guarantees(Gaussian(1.0)) == (PrivacyProfile, ZCDP)
    assert supported_guarantees(DiscreteLaplace(1.0)) == (PureDP, PrivacyProfile)
    assert supported_guarantees(DiscreteGaussian(1.0)) == (PrivacyProfile, ZCDP)
    assert supported_guarantees(Skellam(1.0)) == (RDPCurve,)
    assert supported_guarantees(PolyaDifference(2, 1.0)) == (PureDP,)
    assert supported_guarantees(BinomialNoise(4)) == (PrivacyProfile, ApproxDP)


@pytest.mark.parametrize("scale, sensitivity", [(0.7, 1), (2.0, 3), (10.0, 1)])
def test_discrete_laplace_pure_epsilon_equals_exact_max_log_ratio(scale: float, sensitivity: int) -> None:
    law = DiscreteLaplace(scale)
    with mpmath.workdps(50):
        exact = max(law.logpmf(k) - law.logpmf(k - sensitivity) for k in range(-20, 21))
    epsilon = privacy_map(law, sensitivity=sensitivity).epsilon
    assert epsilon >= exact and epsilon == pytest.approx(float(exact), rel=1e-15)
    aggregate = privacy_map(PolyaDifference(shares=5, scale=scale), sensitivity=sensitivity)
    assert aggregate.epsilon == epsilon


@pytest.mark.parametrize("mechanism, sensitivity, width", [
    (DiscreteLaplace(1.5), 1, 120), (DiscreteLaplace(3.0), 4, 250),
    (DiscreteGaussian(0.8), 1, 20), (DiscreteGaussian(2.5), 3, 40),
])
@pytest.mark.slow
def test_profile_equals_pmf_pair_profile_within_truncation(mechanism, sensitivity: int, width: int) -> None:
    """Truncated support loses < 1e-20 of mass, so the two exact profiles agree to 1e-20."""
    profile = privacy_map(mechanism, sensitivity=sensitivity, target=PrivacyProfile)
    reference = pmf_pair_profile(*_pair(mechanism, sensitivity, width))
    with mpmath.workdps(50):
        for epsilon in (0.0, 0.1, 0.5, 1.0, 2.0):
            assert abs(profile.curve(mpmath.mpf(epsilon)) - reference.curve(mpmath.mpf(epsilon))) < 1e-20
    for delta in DELTAS:
        assert profile.epsilon_for_delta(delta) >= reference.epsilon_for_delta(delta) * (1 - 1e-9)


@pytest.mark.parametrize("sigma, sensitivity", [(0.6, 1), (1.0, 2), (4.0, 1)])
def test_discrete_gaussian_delta_matches_the_cks_tail_formula(sigma: float, sensitivity: int) -> None:
    """CKS Thm 7 through the law's own sf: P[Y > εσ²/Δ − Δ/2] − e^ε P[Y > εσ²/Δ + Δ/2]."""
    law = DiscreteGaussian(sigma)
    with mpmath.workdps(50):
        for epsilon in (0.0, 0.3, 1.5):
            c = mpmath.mpf(epsilon) * sigma ** 2 / sensitivity - mpmath.mpf(sensitivity) / 2
            upper = lambda x: 1 - law.cdf(int(mpmath.floor(x)))  # P[Y > x]
            tail = upper(c) - mpmath.exp(epsilon) * upper(c + sensitivity)
            assert abs(discrete_gaussian_delta(sigma, epsilon, sensitivity=sensitivity) - tail) < 1e-35


@pytest.mark.parametrize("delta_function, parameter", [(discrete_gaussian_delta, 1.3),
                                                       (discrete_laplace_delta, 2.0)])
def test_smaller_shifts_are_dominated(delta_function, parameter: float) -> None:
    with mpmath.workdps(50):
        for epsilon in (0.0, 0.4, 1.2):
            values = [delta_function(parameter, epsilon, sensitivity=d) for d in (1, 2, 3, 5)]
            assert values == sorted(values)


@pytest.mark.parametrize("sigma, sensitivity", [(0.7, 1), (2.0, 1), (3.0, 2)])
def test_discrete_gaussian_zcdp_bounds_exact_renyi(sigma: float, sensitivity: int) -> None:
    rho = privacy_map(DiscreteGaussian(sigma), sensitivity=sensitivity, target=ZCDP).rho
    p, q = _pair(DiscreteGaussian(sigma), sensitivity, 40)
    for order in (2, 5, 20):
        exact = _renyi(p, q, order)
        assert rho * order >= exact
    assert rho == pytest.approx(sensitivity ** 2 / (2 * sigma ** 2), rel=1e-15)


@pytest.mark.parametrize("mu, sensitivity", [(0.25, 1), (0.5, 1), (2.0, 1), (2.0, 3), (5.0, 2),
                                              (50.0, 5), (200.0, 20)])
@pytest.mark.slow
def test_skellam_rdp_bounds_exact_renyi(mu: float, sensitivity: int) -> None:
    """Variance 2μ: Agarwal et al.'s bound >= D_α from Bessel pmfs."""
    curve = privacy_map(Skellam(mu), sensitivity=sensitivity)
    width = int(25 * math.sqrt(2 * mu) + 60 + 4 * sensitivity)
    p, q = _pair(Skellam(mu), sensitivity, width)
    for order in (2, 3, 5, 20, 64):
        exact = _renyi(p, q, order)
        assert curve.epsilon_at(order) >= exact, (order, curve.epsilon_at(order), float(exact))
    assert curve.orders == tuple(float(a) for a in SKELLAM_ORDERS)


def test_skellam_rdp_formula_value() -> None:
    """αΔ²/(2v) + min(((2α−1)Δ² + 6Δ)/(4v²), 3Δ/(2v)) at α = 3, Δ = 2, v = 10."""
    assert skellam_rdp(3, l1_sensitivity=2, l2_sensitivity=2, variance=10) == (
        pytest.approx(3 * 4 / 20 + min((5 * 4 + 12) / 400, 6 / 20)))
    with pytest.raises(ValueError, match="order"):
        skellam_rdp(2.5, l1_sensitivity=1, l2_sensitivity=1, variance=1)


@pytest.mark.parametrize("trials, probability, sensitivity",
                         [(8, 0.5, 1), (12, 0.5, 2), (7, 0.3, 1), (300, 0.3, 3), (1000, 0.5, 1)])
@pytest.mark.slow
def test_binomial_maps_against_pmf_pairs(trials: int, probability: float, sensitivity: int) -> None:
    mechanism = BinomialNoise(trials, probability)
    profile = privacy_map(mechanism, sensitivity=sensitivity)
    counts = [mechanism.pmf(j - mechanism._offset()) for j in range(trials + 1)]
    p = counts + [0] * sensitivity
    q = [0] * sensitivity + counts
    forward, backward = pmf_pair_profile(p, q), pmf_pair_profile(q, p)
    with mpmath.workdps(50):
        for epsilon in (0.0, 0.05, 0.5, 1.0, 3.0):
            e = mpmath.mpf(epsilon)
            exact = max(forward.curve(e), backward.curve(e))
            tolerance = exact * mpmath.mpf(10) ** -30  # the profile's stated relative_error
            assert exact - tolerance <= profile.curve(e) <= exact + tolerance + 1e-60
    corner = privacy_map(mechanism, sensitivity=sensitivity, target=ApproxDP)
    assert corner.delta >= max(forward.delta_for_epsilon(corner.epsilon),
                               backward.delta_for_epsilon(corner.epsilon))
    assert corner.delta == pytest.approx(profile.delta_for_epsilon(corner.epsilon + 5.0), rel=1e-12)
    ratio = max(Fraction(a) / b for pair in ((p, q), (q, p)) for a, b in zip(*pair) if a and b)
    with mpmath.workdps(50):
        assert corner.epsilon >= mpmath.log(ratio.numerator) - mpmath.log(ratio.denominator)
    if probability == 0.5 and sensitivity == 1:
        assert corner.epsilon == pytest.approx(math.log(trials), rel=1e-15)  # max ratio n at j = 1
        assert corner.delta == pytest.approx(2.0 ** -trials, rel=1e-15)


@pytest.mark.slow
def test_pure_maps_leave_no_delta_on_the_exact_pair() -> None:
    """At the map's ε the exact profile of the worst pair is 0 (up to truncation)."""
    for mechanism, sensitivity in [(DiscreteLaplace(1.2), 2), (PolyaDifference(1, 1.2), 2)]:
        epsilon = privacy_map(mechanism, sensitivity=sensitivity).epsilon
        exact = pmf_pair_profile(*_pair(mechanism, sensitivity, 80))
        assert exact.delta_for_epsilon(epsilon) < 1e-25
        assert exact.delta_for_epsilon(epsilon * 0.99) > 1e-3  # and it is tight


def test_continuous_maps() -> None:
    assert privacy_map(Laplace(2.0), sensitivity=3).epsilon == 1.5
    laplace = privacy_map(Laplace(2.0), sensitivity=3, target=PrivacyProfile)
    assert laplace.delta_for_epsilon(1.5) == 0.0 and laplace.delta_for_epsilon(1.0) > 0
    assert privacy_map(Gaussian(2.0), sensitivity=1, target=ZCDP).rho == 0.125
    gaussian = privacy_map(Gaussian(1.0))
    assert gaussian.epsilon_for_delta(1e-5) == pytest.approx(4.377178, abs=1e-6)
    assert privacy_map(Laplace(3.0), sensitivity=1).epsilon >= 1 / 3  # rounded up


def test_both_relations_give_the_same_guarantee() -> None:
    for mechanism in (DiscreteLaplace(1.0), DiscreteGaussian(1.0), Skellam(1.0), Laplace(1.0)):
        for target in supported_guarantees(mechanism):
            a = privacy_map(mechanism, neighbouring=Neighbouring.REPLACE_ONE, target=target)
            b = privacy_map(mechanism, neighbouring="add-remove", target=target)
            if target is not PrivacyProfile:
                assert a == b
            else:
                assert a.delta_for_epsilon(0.5) == b.delta_for_epsilon(0.5)


@pytest.mark.parametrize("mechanism, target, supported", [
    (Skellam(1.0), PureDP, "RDPCurve"),
    (Skellam(1.0), ZCDP, "RDPCurve"),
    (BinomialNoise(4), ZCDP, "PrivacyProfile, ApproxDP"),
    (BinomialNoise(4), PureDP, "PrivacyProfile, ApproxDP"),
])
def test_unsupported_target_names_the_supported_ones(mechanism, target, supported: str) -> None:
    with pytest.raises(UnsupportedError, match=supported):
        privacy_map(mechanism, target=target)


def test_targets_reachable_along_the_lattice_are_converted() -> None:
    """(Issue 15: converted soundly instead of refused; tests/mechanisms/test_lattice.py checks values.)"""
    assert privacy_map(PolyaDifference(2, 1.0), target=ZCDP) == ZCDP(
        privacy_map(PolyaDifference(2, 1.0)).epsilon ** 2 / 2)
    assert privacy_map(Laplace(1.0), target=RDPCurve).epsilons[0] > 0


@pytest.mark.parametrize("call", [
    lambda: privacy_map(DiscreteLaplace(1.0), sensitivity=1.5),
    lambda: privacy_map(Skellam(1.0), sensitivity=0.5),
    lambda: privacy_map(DiscreteGaussian(1.0), sensitivity=2.5, target=ZCDP),
    lambda: privacy_map(BinomialNoise(3), sensitivity=4, target=ApproxDP),
    lambda: privacy_map(Gaussian(1.0), sensitivity=-1.0),
    lambda: discrete_gaussian_delta(1.0, 0.5, sensitivity=0),
])
def test_bad_sensitivity_is_named(call) -> None:
    with pytest.raises(ValueError, match="sensitivity"):
        call()


_NOISE = st.floats(0.3, 30.0)
_GROWTH = st.floats(1.01, 5.0)


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(_NOISE, _GROWTH, dst.sensitivities(max_value=5, integers=True))
def test_epsilon_decreases_as_noise_grows_and_scales_with_sensitivity(noise: float, growth: float,
                                                                      sensitivity: int) -> None:
    for make in (Laplace, DiscreteLaplace, lambda s: PolyaDifference(3, s)):
        small, large = (privacy_map(make(s), sensitivity=sensitivity).epsilon for s in (noise, noise * growth))
        assert large <= small
        double = privacy_map(make(noise), sensitivity=2 * sensitivity).epsilon
        assert double == pytest.approx(2 * small, rel=1e-14) and double >= small
    for make in (Gaussian, DiscreteGaussian):
        small, large = (privacy_map(make(s), sensitivity=sensitivity, target=ZCDP).rho
                        for s in (noise, noise * growth))
        assert large <= small <= privacy_map(make(noise), sensitivity=sensitivity + 1, target=ZCDP).rho
    small, large = (privacy_map(Skellam(s), sensitivity=sensitivity) for s in (noise, noise * growth))
    larger_shift = privacy_map(Skellam(noise), sensitivity=sensitivity + 1)
    assert all(b <= a <= c for a, b, c in zip(small.epsilons, large.epsilons, larger_shift.epsilons))


@settings(max_examples=15, deadline=None)
@given(st.floats(0.3, 4.0), _GROWTH, dst.sensitivities(max_value=3, integers=True),
       dst.epsilons(max_value=3.0))
def test_exact_profiles_decrease_with_noise_and_grow_with_sensitivity(noise: float, growth: float,
                                                                      sensitivity: int, epsilon: float) -> None:
    """More sensitivity, larger δ(ε), for both; more noise, smaller δ(ε), for the discrete Laplace
    only. The discrete Gaussian's exact δ(ε) is not monotone in σ: outputs cross the loss level ε
    one lattice point at a time (Δ = 1, ε = 1.75: δ = 0.008222 at σ = 1.2, 0.008358 at σ = 1.2407,
    0.008255 at σ = 1.26 — exact sums at 50 digits), and a larger discrete Gaussian is not a
    post-processing of a smaller one as it is for the continuous Gaussian."""
    for delta_function in (discrete_gaussian_delta, discrete_laplace_delta):
        with mpmath.workdps(50):
            base = delta_function(noise, epsilon, sensitivity=sensitivity)
            if delta_function is discrete_laplace_delta:
                assert delta_function(noise * growth, epsilon, sensitivity=sensitivity) <= base
            assert delta_function(noise, epsilon, sensitivity=sensitivity + 1) >= base


def test_the_discrete_gaussians_delta_is_not_monotone_in_sigma() -> None:
    with mpmath.workdps(50):
        deltas = [discrete_gaussian_delta(sigma, 1.75, sensitivity=1) for sigma in (1.2, 1.2407, 1.26)]
    assert deltas[0] < deltas[1] > deltas[2]


def test_closed_form_maps_take_any_integer_sensitivity() -> None:
    """Closed forms take Δ up to 10^7: Δ = 128,000 (the secure-aggregation precision of
    Chowdhury & Zhou 2023, Fig. 1(c) at T = 10^7) is accepted where the summed exact profiles refuse
    it, and the values are the formulas' (Δ/t, Δ²/(2σ²), Thm 3.5)."""
    big = 128_000
    curve = privacy_map(Skellam(1e12), sensitivity=big, target=RDPCurve)
    assert curve.epsilon_at(2) == pytest.approx(float(skellam_rdp(
        2, l1_sensitivity=big, l2_sensitivity=big, variance=2e12)), rel=1e-15)
    assert privacy_map(DiscreteLaplace(1e6), sensitivity=big, target=PureDP).epsilon >= 0.128
    assert privacy_map(PolyaDifference(3, 1e6), sensitivity=big, target=PureDP).epsilon >= 0.128
    assert privacy_map(DiscreteGaussian(1e6), sensitivity=big, target=ZCDP).rho == pytest.approx(
        big ** 2 / 2e12, rel=1e-15)
    with pytest.raises(ValueError, match="sensitivity"):
        privacy_map(DiscreteLaplace(1e6), sensitivity=big, target=PrivacyProfile)
    with pytest.raises(ValueError, match="sensitivity"):  # bounded work: 10^7 at most
        privacy_map(Skellam(1e12), sensitivity=10 ** 7 + 1, target=RDPCurve)


def test_the_exact_profiles_other_packages_read_are_public() -> None:
    """accountants.calibrate, auditing and claims read them from ``dpverify.mechanisms``."""
    import dpverify.mechanisms as mechanisms
    from dpverify.mechanisms import _discrete_series, _noise_maps

    for name in ("binomial_noise_delta", "discrete_gaussian_delta", "discrete_laplace_delta"):
        assert name in mechanisms.__all__
        assert getattr(mechanisms, name) is getattr(_noise_maps, name)
    assert "discrete_gaussian_normaliser" in mechanisms.__all__
    assert mechanisms.discrete_gaussian_normaliser is _discrete_series.discrete_gaussian_normaliser
    # Z(σ) = σ√(2π) Σ_m e^{−2π²σ²m²} (Poisson summation): above σ√(2π), by 2σ√(2π)e^{−2π²σ²}
    z = mechanisms.discrete_gaussian_normaliser(1.0)
    assert z - math.sqrt(2 * math.pi) == pytest.approx(2 * math.sqrt(2 * math.pi)
                                                        * math.exp(-2 * math.pi ** 2), rel=1e-6)
