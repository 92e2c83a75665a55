"""Tests of dpverify.accountants.pld: exact cross-checks, peers, properties, invalid input.

Exact references: ``gaussian_privacy_profile`` / ``laplace_privacy_profile``
(closed forms in mpmath), binomial hockey-stick sums and the
Kairouz–Oh–Viswanath formula computed here in mpmath at 50 digits.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.accountants.pld import (
    PrivacyLossDistribution as PLD,
)
from dpverify.accountants.pld import _fft as _pld_fft
from dpverify.accountants.pld import _grid as _pld_grid
from dpverify.accountants.pld import (
    compose_plds,
    delta_for_epsilon,
    epsilon_for_delta,
)
from dpverify.mechanisms.continuous import (
    gaussian_delta,
    gaussian_privacy_profile,
    laplace_delta,
    laplace_privacy_profile,
)


@pytest.fixture(scope="module")
def gaussian() -> PLD:
    return PLD.from_gaussian(1.0)


@functools.cache
def _gaussian_composed(count: int) -> PLD:
    """σ = 1 Gaussian PLD composed ``count`` times (default settings); timings live in
    ``benchmarks/accounting.py``, not here."""
    return PLD.from_gaussian(1.0).self_compose(count)


# --------------------------------------------------------------------------- Gaussian vs exact
@pytest.mark.parametrize("count", [1, 10, 100, 1000, 10000])
def test_gaussian_composition_is_tight_and_sound(gaussian, count):
    """k Gaussians with σ = 1 are one Gaussian with σ/√k (exact ≈ 633.93 at 1000, 5425.5 at 10⁴)."""
    exact = gaussian_privacy_profile(1 / math.sqrt(count)).epsilon_for_delta(1e-5)
    ours = _gaussian_composed(count).epsilon_for_delta(1e-5)
    assert exact <= ours <= exact * (1 + 1e-4)


def test_gaussian_delta_bounds_exact_profile(gaussian):
    profile = gaussian_privacy_profile(1.0)
    for epsilon in (0.0, 0.5, 1.0, 2.0, 4.0, 6.0):
        exact = profile.delta_for_epsilon(epsilon)
        ours = gaussian.delta_for_epsilon(epsilon)
        assert exact <= ours <= float(gaussian_delta(1.0, epsilon - 1e-4)) * (1 + 1e-12) + 1e-12


def test_sensitivity_is_the_same_as_scaling_sigma():
    scaled = PLD.from_gaussian(2.0, sensitivity=2.0).epsilon_for_delta(1e-6)
    plain = PLD.from_gaussian(1.0).epsilon_for_delta(1e-6)
    assert scaled == pytest.approx(plain, abs=2e-4)


# --------------------------------------------------------------------------- Laplace
def test_laplace_single_is_above_exact_and_tight():
    exact = laplace_privacy_profile(10.0).epsilon_for_delta(1e-6)
    ours = PLD.from_laplace(10.0).epsilon_for_delta(1e-6)
    assert exact <= ours <= exact + 2e-4


def test_laplace_atom_on_grid_point_is_not_pushed_up():
    """ε0 = 0.1 is the grid point 1000 h exactly (h = 1e-4 as a float exceeds 1e-4)."""
    pld = PLD.from_laplace(10.0)
    assert pld.delta_for_epsilon(0.1) <= 1e-12
    assert pld.delta_for_epsilon(0.0999) > 0.0


# --------------------------------------------------------------------------- pmfs, RR, approx DP
def _hockey_stick(p, q, epsilon):
    with mpmath.workdps(50):
        return sum(max(mpmath.mpf(0), mpmath.mpf(a) - mpmath.exp(epsilon) * mpmath.mpf(b))
                   for a, b in zip(p, q))


def test_from_pmfs_matches_direct_hockey_stick():
    rng = np.random.default_rng(20240601)
    p, q = rng.dirichlet(np.ones(12)), rng.dirichlet(np.ones(12))
    q[3] = 0.0
    q /= q.sum()
    pld = PLD.from_pmfs(list(p), list(q), value_discretization_interval=1e-4)
    for epsilon in (0.0, 0.1, 0.5, 1.0, 2.0):
        exact = max(_hockey_stick(p, q, epsilon), _hockey_stick(q, p, epsilon))
        ours = pld.delta_for_epsilon(epsilon)
        # Rounding losses up by < h multiplies each e^{-l} by at most e^{h}... in δ: <= h.
        assert exact <= ours <= exact + 1e-4
    assert pld.epsilon_for_delta(p[3] * 0.5) == math.inf  # p > 0 = q puts p[3] at +inf


def test_from_pmfs_accepts_dicts_with_missing_outcomes():
    pld = PLD.from_pmfs({"a": 0.5, "b": 0.5}, {"a": 0.25, "b": 0.5, "c": 0.25})
    assert 0.25 <= pld.delta_for_epsilon(0.0) <= 0.25 + 1e-4


@pytest.mark.parametrize("count", [1, 5, 40])
def test_binary_randomized_response_composition_matches_binomial(count):
    epsilon_0, h = 0.5, 1e-4
    pld = PLD.from_randomized_response(epsilon_0, value_discretization_interval=h)
    composed = pld.self_compose(count)
    with mpmath.workdps(50):
        p = mpmath.exp(epsilon_0) / (1 + mpmath.exp(epsilon_0))
        p_pmf = [mpmath.binomial(count, j) * p ** j * (1 - p) ** (count - j) for j in range(count + 1)]
        q_pmf = p_pmf[::-1]
        for epsilon in (0.0, 0.3, 1.0, 2.5):
            exact = _hockey_stick(p_pmf, q_pmf, epsilon)
            ours = composed.delta_for_epsilon(epsilon)
            shifted = _hockey_stick(p_pmf, q_pmf, epsilon - count * h)
            assert exact <= ours <= shifted + 1e-12


def test_k_ary_randomized_response():
    epsilon, k = 1.0, 4
    pld = PLD.from_randomized_response(epsilon, categories=k)
    z = math.exp(epsilon) + k - 1
    p = [math.exp(epsilon) / z, 1 / z, 1 / z, 1 / z]
    q = [1 / z, math.exp(epsilon) / z, 1 / z, 1 / z]
    for eps in (0.0, 0.5):
        exact = _hockey_stick(p, q, eps)
        assert exact <= pld.delta_for_epsilon(eps) <= exact + 1e-4
    assert pld.delta_for_epsilon(1.0 + 1e-4) == 0.0


def _optimal_composition_delta(epsilon, delta, count, epsilon_total):
    """Kairouz, Oh, Viswanath 2015, Thm 3.3, in mpmath at 50 digits."""
    with mpmath.workdps(50):
        p = mpmath.exp(epsilon) / (1 + mpmath.exp(epsilon))
        q = 1 - p
        pure = sum(max(mpmath.mpf(0), mpmath.binomial(count, i) * (p ** (count - i) * q ** i
                   - mpmath.exp(epsilon_total) * p ** i * q ** (count - i)))
                   for i in range(count + 1))
        return 1 - (1 - mpmath.mpf(delta)) ** count * (1 - pure)


@pytest.mark.parametrize("count", [1, 10, 50])
def test_approx_dp_composition_reproduces_optimal_composition(count):
    epsilon, delta, h = 0.3, 1e-6, 1e-4
    pld = PLD.from_approx_dp(epsilon, delta, value_discretization_interval=h).self_compose(count)
    for epsilon_total in (0.5, 1.0, 2.0, 3.0):
        exact = _optimal_composition_delta(epsilon, delta, count, epsilon_total)
        ours = pld.delta_for_epsilon(epsilon_total)
        shifted = _optimal_composition_delta(epsilon, delta, count, epsilon_total - count * h)
        assert exact <= ours <= shifted + 1e-12


# --------------------------------------------------------------------------- subsampled Gaussian
def _subsampled_exact_delta(sigma, q, epsilon):
    """Exact δ of both directions of the Poisson-subsampled Gaussian (one step), in mpmath."""
    with mpmath.workdps(50):
        mu, eps = mpmath.mpf(1) / sigma, mpmath.mpf(epsilon)
        inverse = lambda s: (mpmath.log((mpmath.exp(s) - 1 + q) / q) + mu ** 2 / 2) / mu  # noqa: E731
        y = inverse(eps)  # remove: A = {y > y*}
        remove = ((1 - q) * mpmath.ncdf(-y) + q * mpmath.ncdf(mu - y) - mpmath.exp(eps) * mpmath.ncdf(-y))
        add = mpmath.mpf(0)
        if -eps > mpmath.log(1 - q):  # add: A = {y < L⁻¹(−ε)}
            y = inverse(-eps)
            add = mpmath.ncdf(y) - mpmath.exp(eps) * ((1 - q) * mpmath.ncdf(y) + q * mpmath.ncdf(y - mu))
        return max(remove, add)


def test_subsampled_gaussian_single_step_bounds_exact():
    pld = PLD.from_subsampled_gaussian(0.8, 0.05)
    for epsilon in (0.0, 0.01, 0.05, 0.2, 1.0):
        exact = _subsampled_exact_delta(0.8, 0.05, epsilon)
        assert exact <= pld.delta_for_epsilon(epsilon) <= _subsampled_exact_delta(
            0.8, 0.05, epsilon - 1e-4) + 1e-12


def test_subsampled_gaussian_with_rate_one_is_the_gaussian(gaussian):
    full = PLD.from_subsampled_gaussian(1.0, 1.0)
    assert full.epsilon_for_delta(1e-5) == gaussian.epsilon_for_delta(1e-5)
    explicit = PLD.from_subsampled_gaussian(1.0, 1.0, value_discretization_interval=1e-4)
    assert explicit.epsilon_for_delta(1e-5) == PLD.from_gaussian(
        1.0, value_discretization_interval=1e-4).epsilon_for_delta(1e-5)


def test_subsampling_amplifies(gaussian):
    assert PLD.from_subsampled_gaussian(1.0, 0.1).epsilon_for_delta(1e-5) < \
        gaussian.epsilon_for_delta(1e-5)


# --------------------------------------------------------------------------- mechanics
def test_epsilon_for_delta_edge_cases():
    pld = PLD.from_approx_dp(1.0, 1e-3)
    assert pld.epsilon_for_delta(1e-4) == math.inf
    assert pld.epsilon_for_delta(0.9) == 0.0
    assert epsilon_for_delta(pld, 1e-3) == pytest.approx(1.0, abs=2e-4)
    assert delta_for_epsilon(pld, 1.0001) <= 1.0000001e-3


def test_epsilon_for_delta_inverts_delta_for_epsilon(gaussian):
    composed = gaussian.self_compose(7)
    epsilon = composed.epsilon_for_delta(1e-6)
    assert composed.delta_for_epsilon(epsilon) <= 1e-6
    assert composed.delta_for_epsilon(epsilon * (1 - 1e-9)) > 1e-6


def test_huge_losses_do_not_underflow(gaussian):
    """At k = 10⁴ the losses are ~5000: e^{-l} underflows, the log-space solver must not."""
    composed = _gaussian_composed(10000)
    epsilon = composed.epsilon_for_delta(1e-5)
    assert math.isfinite(epsilon) and composed.delta_for_epsilon(epsilon) <= 1e-5


def test_composition_tracks_a_positive_error_bound(gaussian):
    assert gaussian.error_bound < 1e-280
    composed = gaussian.self_compose(4)
    assert 0 < composed.error_bound < 1e-10


def _exact_composition(grids, counts):
    """Linear convolution in long double (the reference for the FFT's float error)."""
    result = np.ones(1, dtype=np.longdouble)
    for grid, count in zip(grids, counts):
        for _ in range(count):
            result = np.convolve(result, grid.probabilities.astype(np.longdouble))
    return result


@pytest.mark.parametrize("counts", [(1, 1), (3, 1), (5, 2)])
def test_fft_error_bound_covers_actual_error(counts):
    rng = np.random.default_rng(7)
    grids = []
    for size in (300, 200):
        masses = rng.random(size) ** 8
        grids.append(_pld_grid.LossGrid(0.01, -size // 2, masses / masses.sum(), 0.0, 0.0))
    composed = _pld_fft.compose_grids(grids, list(counts), tail=1e-300)
    exact = _exact_composition(grids, counts)
    start = composed.offset - sum(k * g.offset for g, k in zip(grids, counts))
    assert start == 0 and len(composed.probabilities) == len(exact)  # tail 1e-300: nothing cut
    actual = float(np.abs(composed.probabilities - exact).sum())
    assert actual <= composed.error < 1e-9


def test_compose_and_self_compose_agree(gaussian):
    twice = gaussian.compose(gaussian).epsilon_for_delta(1e-5)
    assert twice == pytest.approx(gaussian.self_compose(2).epsilon_for_delta(1e-5), rel=1e-9)
    assert compose_plds([gaussian, gaussian]).epsilon_for_delta(1e-5) == pytest.approx(twice, rel=1e-9)


def test_compose_regrids_integer_multiples_pessimistically():
    fine = PLD.from_laplace(1.0, value_discretization_interval=1e-4)
    coarse = PLD.from_laplace(1.0, value_discretization_interval=4e-4)
    mixed = fine.compose(coarse)
    assert mixed.value_discretization_interval == 4e-4
    exact_fine = fine.compose(fine).epsilon_for_delta(1e-6)
    assert mixed.epsilon_for_delta(1e-6) >= exact_fine


@pytest.mark.slow
@pytest.mark.parametrize("fine", [3e-4 / 7, 1e-5, 2.5e-5])
def test_compose_regrids_any_ratio_pessimistically(fine):
    """1e-4 / 1e-5 is not an integer in floats: regridding must still work, and stay sound."""
    a = PLD.from_gaussian(4.0, value_discretization_interval=1e-4)
    b = PLD.from_gaussian(4.0, value_discretization_interval=fine)
    mixed = a.compose(b)
    assert mixed.value_discretization_interval == 1e-4
    exact = gaussian_privacy_profile(4 / math.sqrt(2)).epsilon_for_delta(1e-5)
    assert exact <= mixed.epsilon_for_delta(1e-5) <= exact + 2e-4


def test_regrid_rounds_every_loss_up_to_the_nearest_coarse_point():
    for fine, coarse in ((1e-5, 1e-4), (1e-4, 4e-4), (3e-4 / 7, 1e-4), (0.1, 0.3)):
        indices = np.arange(-5000, 5000, dtype=np.int64)
        targets = _pld_grid._coarse_indices(indices, fine, coarse)
        for i, j in zip(indices.tolist()[::7], targets.tolist()[::7]):
            loss = i * Fraction(fine)
            assert j * Fraction(coarse) >= loss > (j - 1) * Fraction(coarse)


def test_compose_default_grids_of_different_mechanisms():
    sub = PLD.from_subsampled_gaussian(1.0, 0.01)
    both = sub.compose(PLD.from_gaussian(4.0))
    assert both.epsilon_for_delta(1e-5) >= PLD.from_gaussian(4.0).epsilon_for_delta(1e-5)


def test_asymmetric_compose_with_symmetric(gaussian):
    sub = PLD.from_subsampled_gaussian(1.0, 0.1, value_discretization_interval=1e-4)
    both = sub.compose(gaussian)
    assert not both.symmetric
    assert both.epsilon_for_delta(1e-5) >= gaussian.epsilon_for_delta(1e-5)


def test_to_privacy_profile(gaussian):
    profile = gaussian.to_privacy_profile()
    assert profile.delta_for_epsilon(1.0) == pytest.approx(gaussian.delta_for_epsilon(1.0), rel=1e-12)
    assert profile.epsilon_for_delta(1e-5) >= gaussian.epsilon_for_delta(1e-5) * (1 - 1e-11)


# --------------------------------------------------------------------------- properties
SMALL = PLD.from_gaussian(1.3, value_discretization_interval=1e-3).self_compose(3)
RR = PLD.from_randomized_response(0.7)


@given(st.floats(0, 20), st.floats(0, 20))
def test_delta_is_non_increasing_in_epsilon(a, b):
    low, high = sorted((a, b))
    assert SMALL.delta_for_epsilon(low) >= SMALL.delta_for_epsilon(high)
    assert RR.delta_for_epsilon(low) >= RR.delta_for_epsilon(high)


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 30), st.integers(1, 30))
def test_epsilon_grows_with_count(a, b):
    low, high = sorted((a, b))
    assert RR.self_compose(low).epsilon_for_delta(1e-6) <= RR.self_compose(high).epsilon_for_delta(1e-6)


@settings(max_examples=15, deadline=None)
@given(st.floats(0.5, 5), st.floats(0.5, 5))
def test_epsilon_decreases_as_noise_grows(a, b):
    low, high = sorted((a, b))
    noisy = PLD.from_gaussian(high, value_discretization_interval=1e-3).epsilon_for_delta(1e-5)
    assert noisy <= PLD.from_gaussian(low, value_discretization_interval=1e-3).epsilon_for_delta(1e-5)


@settings(max_examples=15, deadline=None)
@given(st.floats(0.5, 5), st.floats(0.05, 3), st.floats(0, 3))
def test_composition_costs_at_least_each_part(sigma, scale, epsilon):
    a = PLD.from_gaussian(sigma, value_discretization_interval=1e-3)
    b = PLD.from_laplace(scale, value_discretization_interval=1e-3)
    both = a.compose(b)
    assert both.epsilon_for_delta(1e-6) >= max(a.epsilon_for_delta(1e-6), b.epsilon_for_delta(1e-6))
    assert both.delta_for_epsilon(epsilon) >= max(a.delta_for_epsilon(epsilon), b.delta_for_epsilon(epsilon))


@settings(max_examples=12, deadline=None)
@given(st.floats(0.5, 5), st.integers(1, 50))
def test_epsilon_is_at_least_exact_gaussian(sigma, count):
    pld = PLD.from_gaussian(sigma, value_discretization_interval=1e-3).self_compose(count)
    exact = gaussian_privacy_profile(sigma / math.sqrt(count)).epsilon_for_delta(1e-5)
    assert pld.epsilon_for_delta(1e-5) >= exact


# --------------------------------------------------------------------------- tightness table
#: (constructor, count, reference ε at δ = 1e-5, relative tolerance). References: the exact
#: Gaussian ε (one Gaussian with σ/√k); dp-accounting at a fine grid (1.828244) and
#: prv-accountant (0.17331) for the subsampled rows, which the peer tests bound from below.
TABLE = {
    "subsampled σ=2 q=0.001 k=10⁴": (lambda: PLD.from_subsampled_gaussian(2.0, 0.001), 10000, 0.17331),
    "subsampled σ=1 q=0.01 k=1000": (lambda: PLD.from_subsampled_gaussian(1.0, 0.01), 1000, 1.828244),
    "Gaussian σ=37.3 k=100": (lambda: PLD.from_gaussian(37.3), 100, None),
    "Gaussian σ=1 k=10⁴": (lambda: PLD.from_gaussian(1.0), 10000, None),
}


@functools.cache
def _table_epsilon(name: str) -> float:
    make, count, _ = TABLE[name]
    return make().self_compose(count).epsilon_for_delta(1e-5)


@pytest.mark.parametrize("name", list(TABLE))
def test_default_settings_are_within_half_a_percent_of_the_reference(name):
    _, count, reference = TABLE[name]
    ours = _table_epsilon(name)
    if reference is None:  # Gaussian: exact, and within 1e-3 relative
        sigma = 37.3 if "37.3" in name else 1.0
        exact = gaussian_privacy_profile(sigma / math.sqrt(count)).epsilon_for_delta(1e-5)
        assert exact <= ours <= exact * (1 + 1e-3)
    else:  # the reference is a peer's estimate: ours within 0.5 % (lower bound: peer tests)
        assert reference * (1 - 1e-4) <= ours <= reference * 1.005


@pytest.mark.slow
@settings(max_examples=20, deadline=None)
@given(st.floats(0.3, 50), st.integers(1, 2000))
def test_default_epsilon_is_at_least_exact_gaussian(sigma, count):
    pld = PLD.from_gaussian(sigma).self_compose(count)
    exact = gaussian_privacy_profile(sigma / math.sqrt(count)).epsilon_for_delta(1e-5)
    assert exact <= pld.epsilon_for_delta(1e-5) <= exact * (1 + 1e-3) + 1e-9


EPSILONS = [0.0, 0.003, 0.01, 0.0337, 0.05, 0.1, 0.2, 0.31, 0.5, 0.77, 1.0, 1.5, 2.0, 3.0, 4.2]


@pytest.mark.parametrize("interval", [None, 0.05])
def test_connect_the_dots_delta_bounds_exact_delta(interval):
    """δ of the connect-the-dots grid is >= the exact δ at every ε (grid points or between)."""
    gauss = PLD.from_gaussian(1.3, value_discretization_interval=interval)
    laplace = PLD.from_laplace(0.8, value_discretization_interval=interval)
    sub = PLD.from_subsampled_gaussian(0.8, 0.05, value_discretization_interval=interval)
    for epsilon in EPSILONS:
        assert gauss.delta_for_epsilon(epsilon) >= gaussian_delta(1 / 1.3, epsilon)
        assert laplace.delta_for_epsilon(epsilon) >= laplace_delta(1 / 0.8, epsilon)
        assert sub.delta_for_epsilon(epsilon) >= _subsampled_exact_delta(0.8, 0.05, epsilon)
        if interval is None:  # and tight: the chord in e^ε of a grid of h = std/100
            assert gauss.delta_for_epsilon(epsilon) <= gaussian_delta(1 / 1.3, epsilon) + 1e-4


# --------------------------------------------------------------------------- invalid arguments
BAD_CALLS = [
    (PLD.from_gaussian, (math.nan,), {}, "sigma"),
    (PLD.from_gaussian, (-1.0,), {}, "sigma"),
    (PLD.from_gaussian, (math.inf,), {}, "sigma"),
    (PLD.from_gaussian, ("1",), {}, "sigma"),
    (PLD.from_gaussian, (1.0,), {"sensitivity": 0.0}, "sensitivity"),
    (PLD.from_gaussian, (1.0,), {"value_discretization_interval": math.nan}, "value_discretization_interval"),
    (PLD.from_gaussian, (1.0,), {"value_discretization_interval": 1e-12}, "value_discretization_interval"),
    (PLD.from_gaussian, (1.0,), {"tail_mass_truncation": -1e-3}, "tail_mass_truncation"),
    (PLD.from_laplace, (0.0,), {}, "scale"),
    (PLD.from_laplace, (True,), {}, "scale"),
    (PLD.from_randomized_response, (-0.1,), {}, "epsilon"),
    (PLD.from_randomized_response, (1.0,), {"categories": 1}, "categories"),
    (PLD.from_randomized_response, (1.0,), {"categories": 2.5}, "categories"),
    (PLD.from_approx_dp, (1.0, 1.0), {}, "delta"),
    (PLD.from_approx_dp, (1.0, -1e-9), {}, "delta"),
    (PLD.from_approx_dp, (math.nan, 0.0), {}, "epsilon"),
    (PLD.from_subsampled_gaussian, (1.0, 0.0), {}, "sampling_probability"),
    (PLD.from_subsampled_gaussian, (1.0, 1.5), {}, "sampling_probability"),
    (PLD.from_subsampled_gaussian, (-1.0, 0.5), {}, "sigma"),
    (PLD.from_pmfs, ([0.5, 0.5], [0.2, 0.3, 0.5]), {}, "pmf_prime"),
    (PLD.from_pmfs, ([0.5, 0.6], [0.5, 0.5]), {}, "pmf"),
    (PLD.from_pmfs, ([1.5, -0.5], [0.5, 0.5]), {}, "pmf"),
    (PLD.from_pmfs, ([0.5, 0.5], [math.nan, 0.5]), {}, "pmf_prime"),
    (PLD.from_pmfs, ([[0.5, 0.5]], [[0.5, 0.5]]), {}, "pmf"),
    (PLD.from_pmfs, ([], []), {}, "pmf"),
    (PLD.from_pmfs, ([1.0], [1.0]), {"symmetric": 1}, "symmetric"),
    (compose_plds, ([],), {}, "plds"),
    (compose_plds, ([1.0],), {}, "plds"),
    (epsilon_for_delta, (None, 1e-5), {}, "pld"),
]


@pytest.mark.parametrize(("function", "args", "kwargs", "name"), BAD_CALLS)
def test_invalid_arguments_name_the_parameter(function, args, kwargs, name):
    with pytest.raises((ValueError, TypeError), match=name):
        function(*args, **kwargs)


@pytest.mark.parametrize(("method", "value", "name"), [
    ("delta_for_epsilon", -1.0, "epsilon"), ("delta_for_epsilon", math.nan, "epsilon"),
    ("delta_for_epsilon", math.inf, "epsilon"), ("epsilon_for_delta", 1.0, "delta"),
    ("epsilon_for_delta", -0.1, "delta"), ("epsilon_for_delta", math.nan, "delta"),
    ("self_compose", 0, "count"), ("self_compose", 2.5, "count"), ("compose", 1.0, "other"),
])
def test_invalid_query_arguments(method, value, name):
    with pytest.raises((ValueError, TypeError), match=name):
        getattr(RR, method)(value)


# --------------------------------------------------------------------------- peers
def _dp_accounting_epsilon(event, count, delta):
    pld_accountant = pytest.importorskip("dp_accounting.pld.pld_privacy_accountant")
    accountant = pld_accountant.PLDAccountant()  # default value_discretization_interval=1e-4
    accountant.compose(event, count)
    return accountant.get_epsilon(delta)


def _prv_bounds(mechanism, count, delta):
    prv = pytest.importorskip("prv_accountant")
    accountant = prv.PRVAccountant(prvs=[mechanism], max_self_compositions=[count],
                                   eps_error=0.01, delta_error=delta * 1e-3)
    return accountant.compute_epsilon(delta, [count])  # (lower, estimate, upper)


@pytest.mark.slow
@pytest.mark.peer
@pytest.mark.parametrize("count", [1, 10, 100, 1000])
def test_gaussian_peers(gaussian, count):
    """dp-accounting runs at its default grid; at k = 1000 it takes ~50 s, so k <= 100 there."""
    dp_accounting = pytest.importorskip("dp_accounting")
    prv_rv = pytest.importorskip("prv_accountant.privacy_random_variables")
    ours = _gaussian_composed(count).epsilon_for_delta(1e-5)
    lower, _, upper = _prv_bounds(prv_rv.GaussianMechanism(1.0), count, 1e-5)
    assert lower <= ours <= 1.005 * upper
    if count <= 100:
        assert ours <= 1.005 * _dp_accounting_epsilon(dp_accounting.GaussianDpEvent(1.0), count, 1e-5)


@pytest.mark.slow
@pytest.mark.peer
@pytest.mark.parametrize("count", [10, 100, 1000])
def test_laplace_peers(count):
    dp_accounting = pytest.importorskip("dp_accounting")
    prv_rv = pytest.importorskip("prv_accountant.privacy_random_variables")
    ours = PLD.from_laplace(10.0).self_compose(count).epsilon_for_delta(1e-6)
    peer = _dp_accounting_epsilon(dp_accounting.LaplaceDpEvent(noise_multiplier=10.0), count, 1e-6)
    lower, _, upper = _prv_bounds(prv_rv.LaplaceMechanism(0.1), count, 1e-6)
    assert ours <= 1.005 * peer
    assert lower <= ours <= 1.005 * upper


def _dp_accounting_subsampled(sigma, q, count, *, pessimistic, interval):
    dp_accounting = pytest.importorskip("dp_accounting")
    pld_accountant = pytest.importorskip("dp_accounting.pld.pld_privacy_accountant")
    accountant = pld_accountant.PLDAccountant(value_discretization_interval=interval)
    if not pessimistic:  # optimistic estimate: a lower bound on the true ε
        from dp_accounting.pld import privacy_loss_distribution as pld_module
        lower = pld_module.from_gaussian_mechanism(
            sigma, pessimistic_estimate=False, use_connect_dots=False,
            value_discretization_interval=interval,
            sampling_prob=q).self_compose(count)
        return lower.get_epsilon_for_delta(1e-5)
    event = dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(sigma))
    accountant.compose(event, count)
    return accountant.get_epsilon(1e-5)


@pytest.mark.peer
@pytest.mark.parametrize(("sigma", "q", "count", "interval"), [
    (1.0, 0.01, 1000, 1e-4), (2.0, 0.001, 10000, 2e-5)])
@pytest.mark.slow
def test_subsampled_gaussian_peers(sigma, q, count, interval):
    """Default settings against dp-accounting (optimistic PLD: a lower bound on ε; pessimistic:
    its estimate) and prv-accountant's lower and upper bounds."""
    prv_rv = pytest.importorskip("prv_accountant.privacy_random_variables")
    ours = PLD.from_subsampled_gaussian(sigma, q).self_compose(count).epsilon_for_delta(1e-5)
    lower = _dp_accounting_subsampled(sigma, q, count, pessimistic=False, interval=interval)
    upper = _dp_accounting_subsampled(sigma, q, count, pessimistic=True, interval=interval)
    assert lower <= ours <= 1.005 * upper
    prv_lower, _, prv_upper = _prv_bounds(
        prv_rv.PoissonSubsampledGaussianMechanism(q, sigma), count, 1e-5)
    assert prv_lower <= ours <= 1.005 * prv_upper


@pytest.mark.parametrize("noise_multiplier", [5e-324, 1e-300, 1e308])
def test_dp_sgd_interval_refuses_a_sigma_whose_loss_spread_is_not_a_float(noise_multiplier):
    """Found by the fuzz harness: these returned nan."""
    from dpverify.accountants.pld import dp_sgd_interval

    with pytest.raises(ValueError, match="noise_multiplier"):
        dp_sgd_interval(noise_multiplier, 0.01)
