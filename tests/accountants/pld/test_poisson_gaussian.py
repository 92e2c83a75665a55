"""Both directions of the Poisson-subsampled Gaussian's PLD from one set of normal tails
(``pld/_poisson_gaussian.py``, issue 30 §1): the same bits as two ``monotone_grid`` builds."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.accountants.pld import PrivacyLossDistribution, dp_sgd_interval
from dpverify.accountants.pld import _poisson_gaussian as pg
from dpverify.accountants.pld._grid import LossGrid
from dpverify.accountants.pld._losses import SubsampledGaussian, monotone_grid
from dpverify.accountants.pld._poisson_gaussian import subsampled_gaussian_grids


def _fields(grid: LossGrid) -> tuple:
    """Every field of a grid, the masses as their bytes (so ``==`` is bit identity, -0.0 included)."""
    return (
        grid.interval,
        grid.offset,
        grid.probabilities.tobytes(),
        grid.infinity_mass,
        grid.error,
        grid.truncation,
        grid.tilt,
        grid.error_log_scale,
    )


def _separately(sigma: float, q: float, step: float, tail: float) -> tuple[LossGrid, LossGrid]:
    """The two directions built one by one (the construction the shared one replaces)."""
    return (
        monotone_grid(SubsampledGaussian(sigma, q), step, tail),
        monotone_grid(SubsampledGaussian(sigma, q, swapped=True), step, tail),
    )


@settings(max_examples=40, deadline=None)
@given(
    sigma=st.floats(0.2, 40.0),
    q=st.floats(1e-6, 0.999),
    coarseness=st.floats(1.0, 300.0),
    tail=st.sampled_from([1e-15, 1e-10, 1e-30]),
)
def test_shared_tails_give_the_bits_of_two_separate_builds(sigma, q, coarseness, tail):
    """Any σ, rate, spacing (fine to a few points per direction) and tail: bit for bit."""
    step = dp_sgd_interval(sigma, q) * coarseness
    try:
        expected = _separately(sigma, q, step, tail)
    except ValueError as error:  # a grid point on the loss floor: refused the same way
        with pytest.raises(ValueError, match=f"^{error.args[0][:40]}"):
            subsampled_gaussian_grids(sigma, q, step, tail)
        return
    shared = subsampled_gaussian_grids(sigma, q, step, tail)
    assert [_fields(g) for g in shared] == [_fields(g) for g in expected]


@pytest.mark.parametrize("sigma, q", [(0.8, 256 / 60000), (1.1, 0.01), (0.5, 0.5), (3.0, 0.99)])
def test_the_constructor_builds_the_two_separate_grids(sigma, q):
    """``from_subsampled_gaussian`` (add-remove) is the two separate builds, on the DP-SGD grid."""
    step = dp_sgd_interval(sigma, q)
    pld = PrivacyLossDistribution.from_subsampled_gaussian(sigma, q, value_discretization_interval=step)
    expected = _separately(sigma, q, step, pld.tail_mass_truncation)
    assert [_fields(g) for g in pld.directions] == [_fields(g) for g in expected]
    assert len(pld.directions[0].probabilities) > 100  # a real grid, not a degenerate one


def test_a_grid_point_on_the_loss_floor_is_refused_by_name():
    """A spacing that puts a grid point on ln(1 − q) is refused (naming the interval), as before."""
    q = 0.5
    floor = math.log1p(-q)
    step = -floor / 1000  # the point −1000 · step is the floor (within 8 ulps)
    with pytest.raises(ValueError, match="^value_discretization_interval="):
        subsampled_gaussian_grids(1.0, q, step, 1e-15)
    with pytest.raises(ValueError, match="^value_discretization_interval="):
        monotone_grid(SubsampledGaussian(1.0, q), step, 1e-15)


# --------------------------------------------------------------------------- σ-independent parts shared
def _reference_threshold(sigma: float, q: float, g_value: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``SubsampledGaussian._threshold`` for q < 1 as one function (before its σ-free part was split off)."""
    u = 2.0**-53
    s2 = sigma**2
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        small = g_value < 700.0
        g_small = np.where(small, g_value, 0.0)
        growth = np.expm1(g_small)
        y = growth / q
        one_plus_y = (growth + q) / q
        t_small = np.log1p(y)
        dt_small = (3 * u * np.abs(y) + u * np.abs(g_small) * np.exp(g_small) / q) / one_plus_y
        if small.all():
            t, dt = t_small, dt_small
        else:
            t_large = g_value - math.log(q) + np.log1p(-(1 - q) * np.exp(-g_value))
            t = np.where(small, t_small, t_large)
            dt = np.where(small, dt_small, 4 * u * (np.abs(g_value) + abs(math.log(q)) + 1))
    x = s2 * t + 0.5
    return x, s2 * (dt + 2 * u * np.abs(t)) + 2 * u * np.abs(x)


@settings(max_examples=60, deadline=None)
@given(
    sigma=st.floats(0.05, 100.0),
    q=st.floats(1e-6, 0.999),
    values=st.lists(st.floats(-0.7, 1e4), min_size=1, max_size=40),
)
def test_threshold_from_its_sigma_free_part_is_the_one_expression_bit_for_bit(sigma, q, values):
    spec = SubsampledGaussian(sigma, q)
    g_value = np.maximum(np.array(values), spec.loss_floor + 1e-12)
    got = spec._threshold(g_value)
    expected = _reference_threshold(sigma, q, g_value)
    assert all(a.tobytes() == b.tobytes() for a, b in zip(got, expected))


@settings(max_examples=15, deadline=None)
@given(
    sigmas=st.lists(st.floats(0.5, 4.0), min_size=2, max_size=5),
    q=st.sampled_from([256 / 60000, 0.01, 0.3]),
    coarseness=st.floats(1.0, 20.0),
)
def test_noise_multipliers_on_one_grid_share_their_sigma_free_part_bit_for_bit(sigmas, q, coarseness):
    """Built in turn on one spacing (the memo of σ-free parts warm, grown to the union of the
    ranges, in any order), each σ's grids are the bits of a build with a cold memo."""
    step = dp_sgd_interval(sigmas[0], q) * coarseness
    pg._SHARED.clear()
    warm = [subsampled_gaussian_grids(sigma, q, step, 1e-15) for sigma in sigmas]
    for sigma, grids in zip(sigmas, warm):
        pg._SHARED.clear()
        cold = subsampled_gaussian_grids(sigma, q, step, 1e-15)
        assert [_fields(g) for g in grids] == [_fields(g) for g in cold]
