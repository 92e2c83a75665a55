"""The fast paths of a per-step PLD query (issue 30 §1) against the slow, direct evaluations.

Negligible frequencies of the spectral product, the sparse ℓ2 norm, the hockey-stick sum
without ``expm1`` far above ε, the ε guess from the top of the grid, the shared table of
exponentials of the Chernoff window and the split normal tails of the subsampled-Gaussian
grid: each is compared with the computation it replaces (or with mpmath), and must be
sound (never below the exact value) and as tight as before.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.accountants.pld import PrivacyLossDistribution, dp_sgd_interval
from dpverify.accountants.pld import _fft as pld_fft
from dpverify.accountants.pld import _grid as pld_grid
from dpverify.accountants.pld import _losses as pld_losses
from dpverify.accountants.pld import _spectra as pld_spectra

RATE = 256 / 60000


def _dp_sgd_base(sigma: float = 1.1, rate: float = RATE) -> PrivacyLossDistribution:
    return PrivacyLossDistribution.from_subsampled_gaussian(
        sigma, rate, value_discretization_interval=dp_sgd_interval(sigma, rate)
    )


# --------------------------------------------------------------------------- negligible frequencies
@pytest.mark.parametrize("count", [500, 2000])
def test_negligible_frequencies_move_the_masses_less_than_the_error_bounds(count, monkeypatch):
    """Powering every frequency (the old path) and only the non-negligible ones: the two grids
    differ by less than their error bounds, and the sparse path really skips most frequencies."""
    grid = _dp_sgd_base().directions[0]
    low, high = pld_fft._chernoff_window([grid], [count], 1e-15 / 2)
    length = 1 << (max(high - low + 1, len(grid.probabilities)) - 1).bit_length()
    _, _, _, active = pld_spectra._spectral_product([grid], [count], length)
    assert active is not None and len(active) < (length // 2 + 1) // 2
    sparse = pld_fft.compose_grids([grid], [count], tail=1e-15)
    pld_spectra._MEMO.clear()
    monkeypatch.setattr(pld_spectra, "_NEGLIGIBLE_LOG", -math.inf)
    assert pld_spectra._spectral_product([grid], [count], length)[3] is None
    dense = pld_fft.compose_grids([grid], [count], tail=1e-15)
    pld_spectra._MEMO.clear()
    assert (sparse.offset, len(sparse.probabilities)) == (dense.offset, len(dense.probabilities))
    gap = float(np.sum(np.abs(sparse.probabilities - dense.probabilities)))
    assert gap <= sparse.error + dense.error
    assert sparse.error <= 2 * dense.error  # the sparse bound is no looser in substance


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 12), st.data())
def test_sparse_hermitian_norm_bounds_the_dense_one(log_length, data):
    """Entries left out are at most 1e-140: the sparse norm bounds the dense one, and is close."""
    n = 2**log_length
    half = np.array(data.draw(st.lists(st.floats(0, 10), min_size=n // 2 + 1, max_size=n // 2 + 1)))
    kept = np.array(sorted(data.draw(st.sets(st.integers(0, n // 2), min_size=1))), dtype=np.intp)
    dense = half.copy()
    left_out = np.ones(n // 2 + 1, dtype=bool)
    left_out[kept] = False
    dense[left_out] = data.draw(st.floats(0, 1e-140))
    sparse_norm = pld_spectra._hermitian_norm(half[kept], n, kept)
    dense_norm = pld_spectra._hermitian_norm(dense, n)
    assert dense_norm <= sparse_norm * (1 + 1e-12)
    assert sparse_norm <= dense_norm * (1 + 1e-12) + 1e-139 * math.sqrt(n)


# --------------------------------------------------------------------------- hockey-stick sum
def _exact_hockey_stick(grid: pld_grid.LossGrid, epsilon: float) -> mpmath.mpf:
    with mpmath.workdps(40):
        h, e = mpmath.mpf(grid.interval), mpmath.mpf(epsilon)
        return mpmath.fsum(
            mpmath.mpf(p) * -mpmath.expm1(e - (grid.offset + i) * h)
            for i, p in enumerate(grid.probabilities.tolist())
            if (grid.offset + i) * h > e
        )


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.floats(0, 1), min_size=1, max_size=400), st.floats(1e-3, 0.5), st.integers(-300, 50), st.floats(0, 20)
)
def test_hockey_stick_sum_is_within_its_relative_error(masses, interval, offset, epsilon):
    """Terms above x = 1 use the memoised e^{−sh}: still within 200 u of the exact sum."""
    grid = pld_grid.LossGrid(interval, offset, pld_grid.frozen(masses), 0.0, 0.0)
    ours = pld_grid._hockey_stick_sum(grid, epsilon)
    exact = _exact_hockey_stick(grid, epsilon)
    assert abs(ours - exact) <= 200 * 2.0**-53 * exact + 1e-300


# --------------------------------------------------------------------------- the ε guess
@pytest.mark.parametrize("count", [1, 40, 3000])
@pytest.mark.parametrize("delta", [1e-3, 1e-5, 1e-10])
def test_guess_from_the_top_of_the_grid_is_the_whole_grid_guess(count, delta):
    """The suffix sums of the top of the grid give the closed-form ε of the whole grid."""
    for grid in _dp_sgd_base().self_compose(count).directions:
        target = (delta - grid.infinity_mass) / (1 + pld_grid.SUM_SLACK)
        whole = pld_grid._closed_form_epsilon(grid, pld_grid._suffix_sums(grid), target)
        sums = pld_grid._guess_sums(grid, target)
        top = pld_grid._closed_form_epsilon(grid, sums, target)
        assert (top is None) == (whole is None)
        if whole is not None:
            assert top == pytest.approx(whole, rel=1e-11, abs=1e-13)
    if count == 3000:  # a long grid: only its top is summed
        grid = _dp_sgd_base().self_compose(count).directions[0]
        sums = pld_grid._guess_sums(grid, 1e-5)
        assert len(sums[1]) < 0.75 * (len(grid.probabilities) + grid.offset)


@pytest.mark.parametrize("count", [1, 300])
def test_epsilon_is_verified_whatever_the_guess(count, monkeypatch):
    """A useless guess (none) falls back to the bisection over the whole range: a value that meets
    δ and that is within the tolerance of the guessed one."""
    pld = _dp_sgd_base().self_compose(count)
    guessed = [pld_grid.epsilon_upper(d, 1e-5) for d in pld.directions]
    monkeypatch.setattr(pld_grid, "_closed_form_epsilon", lambda *args: None)
    searched = [pld_grid.epsilon_upper(d, 1e-5) for d in pld.directions]
    for grid, a, b in zip(pld.directions, guessed, searched):
        assert pld_grid.delta_upper(grid, a) <= 1e-5 and pld_grid.delta_upper(grid, b) <= 1e-5
        assert a == pytest.approx(b, rel=1e-12)


# --------------------------------------------------------------------------- Chernoff window
@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.floats(1e-9, 1), min_size=2, max_size=200),
    st.floats(1e-4, 0.1),
    st.integers(-200, 200),
    st.floats(0.01, 5),
)
def test_shared_exponential_table_gives_sound_log_mgfs(masses, interval, offset, scale):
    """The shared table's log-MGFs bound the exact ones (mpmath) and match the log-sum-exp path."""
    grid = pld_grid.LossGrid(interval, offset, pld_grid.frozen(masses), 0.0, 0.0)
    ts = scale * np.array([-2.0, -0.5, 0.3, 1.0, 2.0])
    shared = pld_fft._shared_log_mgfs(grid, ts)
    assert shared is not None
    with mpmath.workdps(40):
        for t, value in zip(ts.tolist(), shared.tolist()):
            exact = mpmath.log(
                mpmath.fsum(
                    mpmath.mpf(p) * mpmath.exp(t * (offset + i) * mpmath.mpf(interval)) for i, p in enumerate(masses)
                )
            )
            assert value >= exact
            assert value == pytest.approx(float(exact), rel=1e-8, abs=1e-8)


def test_exponential_table_entries_do_not_depend_on_the_range_tabulated():
    """A table grown for another grid holds the same bits: compositions share it safely."""
    pld_fft._EXP_TABLES.clear()
    ts = np.array([0.5, 1.5, -1.0])
    small = pld_fft._exponential_table(0.01, ts, -5, 20).copy()
    grown = pld_fft._exponential_table(0.01, ts, -100, 300)[95:121]
    pld_fft._EXP_TABLES.clear()
    assert np.array_equal(small, grown)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(-300, 300), st.integers(-300, 300)), min_size=1, max_size=6),
       st.lists(st.floats(-1.0, 1.0), min_size=1, max_size=4, unique=True))
def test_exponential_table_grown_piece_by_piece_is_one_fresh_table_bit_for_bit(ranges, scales):
    """Grown to new rows on either side, in any order, the table holds the bits of one table
    computed at once over its final range."""
    pld_fft._EXP_TABLES.clear()
    ts = np.array(scales) * 0.7
    low = high = None
    for a, b in ranges:
        a, b = min(a, b), max(a, b)
        pld_fft._exponential_table(0.013, ts, a, b)
        low, high = (a, b) if low is None else (min(low, a), max(high, b))
    grown = pld_fft._exponential_table(0.013, ts, low, high).copy()
    pld_fft._EXP_TABLES.clear()
    fresh = pld_fft._exponential_table(0.013, ts, low, high)
    pld_fft._EXP_TABLES.clear()
    assert grown.tobytes() == fresh.tobytes()


@settings(max_examples=80, deadline=None)
@given(st.integers(-1000, 1000), st.lists(st.sampled_from([0.0, 0.0, 1e-300, 0.25]), min_size=1, max_size=40))
def test_lattice_factor_shortcut_is_the_lowest_set_bit_of_every_index(offset, masses):
    """Two neighbouring points with mass give 1 at once: the lowest set bit of their indices' OR."""
    grid = pld_grid.LossGrid(0.01, offset, pld_grid.frozen(masses), 0.0, 0.0)
    indices = offset + np.flatnonzero(np.array(masses))
    combined = int(np.bitwise_or.reduce(np.abs(indices))) if len(indices) else None
    expected = 1 if combined is None else (2 ** 30 if combined == 0 else min(combined & -combined, 2 ** 30))
    assert pld_grid.lattice_factor(grid) == expected


def test_heterogeneous_schedule_queried_per_epoch_equals_a_cold_one_shot_query():
    """Per-epoch queries of a 4-σ schedule (shared tables filled in another order) give the bits
    of a cold one-shot composition."""
    from dpverify.accountants.accountant import PrivacyAccountant

    sigmas = [0.9, 1.3, 1.1, 2.0]
    looped = PrivacyAccountant("pld")
    answers = []
    for sigma in sigmas:
        for _ in range(30):
            looped.step(noise_multiplier=sigma, sample_rate=0.01)
        answers.append(looped.get_epsilon(1e-5))
    pld_spectra._MEMO.clear()
    pld_fft._EXP_TABLES.clear()
    fresh = PrivacyAccountant("pld")
    for sigma in sigmas:
        fresh.step(noise_multiplier=sigma, sample_rate=0.01)  # the same events, counts added below
    for event in list(fresh._counts):
        fresh.compose(event, 29)
    assert fresh.get_epsilon(1e-5) == answers[-1]


# --------------------------------------------------------------------------- split normal tails
@pytest.mark.parametrize("swapped", [False, True])
@pytest.mark.parametrize("sigma, rate", [(1.1, RATE), (0.7, 0.3), (2.0, 1.0)])
def test_split_tails_give_interval_masses_above_the_exact_ones(sigma, rate, swapped):
    """Each interval mass (lower tails below the split, upper tails above) bounds the exact P-mass
    of the interval (mpmath, 40 digits) and is within 1e-6 of it where it is not tiny."""
    spec = pld_losses.SubsampledGaussian(sigma, rate, swapped=swapped)
    step = dp_sgd_interval(sigma, rate) * 3
    first, last = pld_losses._grid_indices(*spec.support_hint(1e-12), step)
    losses = np.arange(first, last + 1) * step
    cdfs = spec.log_cdfs(losses)
    split = cdfs["split"]
    assert 0 < split < len(losses) - 1
    law = pld_losses.interval_law_from_cdfs(cdfs, losses)
    upper = np.exp(law.log_mass_upper)
    with mpmath.workdps(40):
        s2, q = mpmath.mpf(sigma) ** 2, mpmath.mpf(rate)

        def threshold(g):  # the output x with g(x) = ln(1 − q + q e^{(2x−1)/(2σ²)}) = g
            return s2 * (mpmath.log(mpmath.expm1(g) + q) - mpmath.log(q)) + mpmath.mpf(1) / 2

        def p_below(loss):  # P[L <= loss]
            g = -loss if swapped else loss
            if rate < 1 and g <= mpmath.log1p(-q):
                return mpmath.mpf(1) if swapped else mpmath.mpf(0)
            x = threshold(g) if rate < 1 else s2 * g + mpmath.mpf(1) / 2
            sd = mpmath.sqrt(s2)
            if swapped:  # P = N(0, σ²), L <= l <=> X >= x(−l)
                return mpmath.ncdf(-x / sd)
            return (1 - q) * mpmath.ncdf(x / sd) + q * mpmath.ncdf((x - 1) / sd)

        for i in sorted({1, split - 1, split, split + 1, len(losses) // 3, len(losses) - 3}):
            exact = p_below(mpmath.mpf(losses[i + 1])) - p_below(mpmath.mpf(losses[i]))
            assert upper[i] >= exact * (1 - 1e-15)
            if exact > 1e-12:
                assert upper[i] <= exact * (1 + 1e-6)


# --------------------------------------------------------------------------- loss-std quadrature
@pytest.mark.parametrize("swapped", [False, True])
def test_the_loss_std_quadrature_is_the_twenty_thousand_point_one(swapped):
    """2001 points (the grid-spacing heuristic's quadrature) give the std of 20001 points (the
    count it replaces) to 2e-15 relative for σ in [0.05, 100] and q in [1e-6, 0.999] (1e-9
    where the std is below 1e-6: its variance loses digits to cancellation either way): the
    trapezoid rule on this Gaussian-weighted analytic integrand has long converged."""

    def reference(sigma: float, q: float) -> float:   # the former quadrature, 20001 points
        xs = np.linspace(-12 * sigma, 1 + 12 * sigma, 20001)
        losses = np.logaddexp(math.log1p(-q), math.log(q) + (xs - 0.5) / sigma / sigma)
        base = np.exp(-((xs / sigma) ** 2) / 2)
        density = base if swapped else (1 - q) * base + q * np.exp(-(((xs - 1) / sigma) ** 2) / 2)
        losses = -losses if swapped else losses
        weights = density / density.sum()
        mean = float(np.sum(weights * losses))
        return math.sqrt(float(np.sum(weights * (losses - mean) ** 2)))

    assert pld_losses.LOSS_STD_QUADRATURE_POINTS == 2001
    for sigma in (0.05, 0.3, 0.8, 1.1, 2.0, 5.0, 20.0, 100.0):
        for q in (1e-6, 1e-3, RATE, 0.01, 0.1, 0.5, 0.9, 0.999):
            fast = pld_losses._subsampled_loss_std.__wrapped__(sigma, q, swapped)
            expected = reference(sigma, q)
            tolerance = 2e-15 if expected > 1e-6 else 1e-9
            assert fast == pytest.approx(expected, rel=tolerance, abs=0), (sigma, q)


# --------------------------------------------------------------------------- in-place arithmetic
# Issue 30 (stop 35): log_difference, connect_the_dots and the spectrum bound of compose_grids
# compute in place; each must give the same bits as the expressions it replaced (kept here).
def _reference_log_difference(log_a, log_b, error_a, error_b):
    u, safety = 2.0 ** -53, 2.0
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        gap = np.minimum(log_b - log_a, 0.0)
        gap = np.where(np.isnan(gap), -np.inf, gap)
        one_minus = -np.expm1(gap)
        value = log_a + np.log(one_minus)
        condition = np.exp(gap) / one_minus
        relative = error_a + condition * (error_a + error_b) + 4 * u * (1 + condition)
        error = np.where(relative < 0.5, relative / (1 - relative), np.inf)
        error = np.where(np.isneginf(log_a), 0.0, error)
        upper = np.where(np.isfinite(error), value + safety * error, log_a + safety * error_a)
    return value, error, upper


def _reference_connect_the_dots(first_index, interval, law, *, lower_tail, upper_tail):
    u = 2.0 ** -53
    one_minus = -math.expm1(-interval) * (1 - 2 * u)
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        mass = np.exp(law.log_mass_upper) * (1 + 4 * u) + 1e-300
        tilt_low = np.exp(law.log_tilt - law.log_tilt_error) * (1 - 2 * u)
    tilt_low = np.nan_to_num(tilt_low, nan=0.0, posinf=1.0)
    to_upper = np.clip((1.0 - tilt_low + 2 * u) / one_minus, 0.0, 1.0)
    masses = np.zeros(mass.size + 1)
    masses[1:] += mass * to_upper
    masses[:-1] += mass * (1.0 - to_upper)
    masses[0] += lower_tail
    masses *= 1 + 8 * u
    return masses


def _same_bits(left, right) -> bool:
    left, right = np.asarray(left, dtype=np.float64), np.asarray(right, dtype=np.float64)
    return left.shape == right.shape and bool(np.all(left.view(np.int64) == right.view(np.int64)))


_SPECIAL = st.sampled_from([-np.inf, np.inf, np.nan, 0.0, -0.0, -745.0, -1e-300, 1e-17])


def _log_values(size):
    return st.lists(st.one_of(st.floats(-800.0, 50.0), _SPECIAL), min_size=size, max_size=size)


@settings(max_examples=150, deadline=None)
@given(data=st.data(), size=st.integers(1, 40))
def test_in_place_log_difference_is_the_expression_bit_for_bit(data, size):
    log_a = np.array(data.draw(_log_values(size)))
    gaps = np.array(data.draw(st.lists(st.one_of(st.floats(0.0, 60.0), _SPECIAL),
                                       min_size=size, max_size=size)))
    with np.errstate(invalid="ignore"):
        below = log_a - np.abs(gaps)
    log_b = data.draw(st.sampled_from([below, np.array(data.draw(_log_values(size)))]))
    errors = st.lists(st.one_of(st.floats(0.0, 1.0), st.just(np.inf), st.just(1e-13)),
                      min_size=size, max_size=size)
    error_a, error_b = np.array(data.draw(errors)), np.array(data.draw(errors))
    for got, expected in zip(pld_losses.log_difference(log_a, log_b, error_a, error_b),
                             _reference_log_difference(log_a, log_b, error_a, error_b)):
        assert _same_bits(got, expected)
    # inputs are not written to; broadcast scalars still work
    before = log_a.copy()
    pld_losses.log_difference(log_a, log_b, error_a, error_b)
    assert _same_bits(log_a, before)
    for got, expected in zip(pld_losses.log_difference(log_a, -30.0, 1e-13, error_b),
                             _reference_log_difference(log_a, -30.0, 1e-13, error_b)):
        assert _same_bits(got, expected)


@settings(max_examples=150, deadline=None)
@given(data=st.data(), size=st.integers(1, 40), interval=st.floats(1e-6, 2.0),
       lower_tail=st.floats(0.0, 1e-3), upper_tail=st.floats(0.0, 1e-3))
def test_in_place_connect_the_dots_is_the_expression_bit_for_bit(data, size, interval,
                                                                 lower_tail, upper_tail):
    # log mass upper bounds: finite or -inf (+inf or NaN is not a mass; both paths then warn)
    log_mass = np.array(data.draw(st.lists(st.one_of(st.floats(-800.0, 50.0), st.just(-np.inf)),
                                           min_size=size, max_size=size)))
    log_tilt = np.array(data.draw(st.lists(st.one_of(st.floats(-3.0, 0.5), _SPECIAL),
                                           min_size=size, max_size=size)))
    tilt_error = np.array(data.draw(st.lists(st.one_of(st.floats(0.0, 2.0), st.just(np.inf)),
                                             min_size=size, max_size=size)))
    law = pld_grid.IntervalLaw(log_mass, log_tilt, tilt_error)
    grid = pld_grid.connect_the_dots(3, interval, law, lower_tail=lower_tail, upper_tail=upper_tail)
    expected = _reference_connect_the_dots(3, interval, law, lower_tail=lower_tail,
                                           upper_tail=upper_tail)
    assert _same_bits(grid.probabilities, expected)
    assert not grid.probabilities.flags.writeable


@pytest.mark.parametrize("sigma, rate", [(0.8, RATE), (1.37, RATE), (2.0, RATE), (0.5, 0.3)])
def test_in_place_spectrum_bound_is_the_expression_bit_for_bit(sigma, rate):
    grid = _dp_sgd_base(sigma, rate).directions[0]
    length = pld_fft.fft_length(2 * len(grid.probabilities))
    spectrum, exponents, perturbation = pld_spectra._spectrum(grid, length)
    bound = pld_spectra._bounds(spectrum, perturbation)
    expected = np.abs(spectrum) * (1 + 2 * 2.0 ** -53) + perturbation
    assert _same_bits(bound, expected)
    selected = np.arange(0, len(spectrum), 7)
    assert _same_bits(pld_spectra._bounds(spectrum[selected], perturbation), expected[selected])
    # the binary exponent bound: ln b < e ln 2, and within ln 2 of it (b >= 2^{e − 1}: b >= π is normal)
    assert np.all(np.log(bound) < exponents * math.log(2))
    assert np.all(np.log(bound) >= (exponents.astype(np.int64) - 1) * math.log(2) * (1 + 1e-15))


@settings(max_examples=40, deadline=None)
@given(sigmas=st.lists(st.sampled_from([0.7, 0.9, 1.1, 1.6, 2.5]), min_size=1, max_size=4, unique=True),
       counts=st.lists(st.integers(1, 3000), min_size=4, max_size=4))
def test_spectral_product_from_exponent_candidates_is_the_full_log_sum_bit_for_bit(sigmas, counts):
    """The logs taken only at the exponent-bound candidates give the frequencies and bits of
    the float sum of logs formed at every frequency (the expression they replace)."""
    interval = dp_sgd_interval(min(sigmas), RATE)
    grids = [pld_grid.spread(_dp_sgd_base(s).directions[0], interval) for s in sigmas]
    counts = counts[:len(grids)]
    length = pld_fft.fft_length(4 * max(len(g.probabilities) for g in grids))
    got = pld_spectra._spectral_product(grids, counts, length)
    spectra = [pld_spectra._spectrum(g, length) for g in grids]
    log_upper = 0.0
    for (spectrum, _, perturbation), k in zip(spectra, counts):
        log_upper = log_upper + k * np.log(np.abs(spectrum) * (1 + 2 * 2.0**-53) + perturbation)
    active = np.flatnonzero(log_upper >= pld_spectra._NEGLIGIBLE_LOG)
    if len(active) == length // 2 + 1:
        assert got[3] is None
    else:
        assert np.array_equal(got[3], active)
        assert got[1].tobytes() == _expected_error(spectra, counts, active, log_upper[active])


def test_spectral_product_of_huge_flattened_counts_takes_every_frequency_as_a_candidate():
    """Counts beyond 2^40 (nested self-compositions flatten to their product) skip the integer
    screen: every frequency is a candidate, and the product is formed as before."""
    grid = _dp_sgd_base().directions[0]
    length = pld_fft.fft_length(4 * len(grid.probabilities))
    spectra = [pld_spectra._spectrum(grid, length)]
    assert len(pld_spectra._candidates(spectra, [2 ** 41])) == length // 2 + 1
    assert len(pld_spectra._candidates(spectra, [2 ** 12])) < length // 2 + 1


def _expected_error(spectra, counts, active, log_upper) -> bytes:
    """The per-frequency error bound of ``_spectral_product`` at ``active``, from full-length logs."""
    u = 2.0 ** -53
    log_gap, log_computed, multiplications, product = 0.0, 0.0, 0, None
    for (spectrum, _, perturbation), k in zip(spectra, counts):
        magnitude = np.abs(spectrum[active]) * (1 + 2 * u)
        with np.errstate(divide="ignore"):
            log_gap = log_gap + k * np.log1p(perturbation / magnitude)
            log_computed = log_computed + k * np.log(magnitude)
        used = pld_spectra._power(spectrum[active], k)[1]
        multiplications += used + (product is not None)
        product = True
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        error = np.exp(log_upper) * -np.expm1(-log_gap) * (1 + 1e-9)
        error += ((1 + 4 * u) ** multiplications - 1) * np.exp(log_computed)
    return (error + multiplications * 1e-300).tobytes()


def _reference_normal_log_tail(sigma, x, dx, shift, upper):
    from scipy.special import log_ndtr

    sign = -1.0 if upper else 1.0
    z = sign * (x - shift) / sigma
    value = log_ndtr(z)
    dz = dx / sigma + 2 * 2.0 ** -53 * np.abs(z)
    return value, (pld_losses._LOG_NDTR_ABSOLUTE + pld_losses._LOG_NDTR_RELATIVE * np.abs(value)
                   + (np.abs(z) + 1.0) * dz)


@settings(max_examples=100, deadline=None)
@given(sigma=st.floats(0.05, 50.0), shift=st.sampled_from([0.0, 1.0, -1.0]), upper=st.booleans(),
       xs=st.lists(st.one_of(st.floats(-1e4, 1e4), st.sampled_from([-np.inf, np.inf, 0.0, -0.0])),
                   min_size=1, max_size=30),
       dx_scale=st.floats(0.0, 1e-10))
def test_in_place_normal_log_tail_is_the_expression_bit_for_bit(sigma, shift, upper, xs, dx_scale):
    x = np.array(xs)
    dx = dx_scale * (1.0 + np.abs(np.nan_to_num(x)))
    spec = pld_losses.SubsampledGaussian(sigma, 0.01)
    with np.errstate(invalid="ignore", over="ignore"):
        got = spec.normal_log_tail(x, dx, shift=shift, upper=upper)
        expected = _reference_normal_log_tail(sigma, x, dx, shift, upper)
    assert all(_same_bits(a, b) for a, b in zip(got, expected))


@settings(max_examples=100, deadline=None)
@given(data=st.data(), size=st.integers(1, 30))
def test_in_place_interval_law_from_masses_is_the_expression_bit_for_bit(data, size):
    def triple():
        logs = np.array(data.draw(_log_values(size)))
        errors = np.array(data.draw(st.lists(st.one_of(st.floats(0.0, 1.0), st.just(np.inf)),
                                             min_size=size, max_size=size)))
        with np.errstate(invalid="ignore"):
            return logs, errors, logs + 2 * errors

    p_masses, q_masses = triple(), triple()
    losses = np.array(data.draw(st.lists(st.floats(-50.0, 50.0), min_size=size + 1,
                                         max_size=size + 1)))
    with np.errstate(invalid="ignore", over="ignore"):
        law = pld_losses.interval_law_from_masses(p_masses, q_masses, losses)
    log_p, error_p, upper_p = p_masses
    log_q, error_q, _ = q_masses
    left, u = losses[:-1], 2.0 ** -53
    with np.errstate(invalid="ignore", over="ignore"):
        tilt = left + log_q - log_p
        tilt_error = error_p + error_q + 4 * u * (np.abs(left) + np.abs(log_q) + np.abs(log_p))
    known = np.isfinite(tilt) & np.isfinite(log_p) & np.isfinite(log_q)
    assert _same_bits(law.log_mass_upper, upper_p)
    assert _same_bits(law.log_tilt, np.where(known, tilt, 0.0))
    assert _same_bits(law.log_tilt_error, np.where(known, 2.0 * tilt_error, np.inf))
