"""Sampling dispatch and the fast aggregate paths (same law as the user-by-user path).

Statistical tests use fixed seeds; with a fresh seed each would fail with
probability at most 1e-4 (chi-square GOF / KS at p > 1e-4). Reference pmfs
come from closed forms or scipy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pytest
import scipy.stats

from dpverify.errors import UnsupportedError
from dpverify.mechanisms import samplers, sampling
from dpverify.mechanisms.continuous import Gaussian, Laplace
from dpverify.mechanisms.discrete import (
    BinomialNoise,
    DiscreteGaussian,
    DiscreteLaplace,
    PolyaDifference,
    Skellam,
)

from _gof import P_MIN, discrete_laplace_pmf, gof_pvalue  # shared helpers

MECHANISMS = [DiscreteLaplace(2.0), DiscreteGaussian(1.5), Skellam(2.0),
              PolyaDifference(shares=4, scale=3.0), BinomialNoise(10), Laplace(1.0), Gaussian(1.0)]


@pytest.mark.parametrize("mechanism", MECHANISMS, ids=lambda m: type(m).__name__)
def test_sample_is_x_plus_the_noise_sampler_bit_for_bit(mechanism) -> None:
    with_x = sampling.sample(mechanism, 1000, rng=np.random.default_rng(5), size=100)
    noise = sampling.sample(mechanism, 0, rng=np.random.default_rng(5), size=100)
    assert with_x.shape == (100,)
    assert np.array_equal(with_x, noise + 1000)
    assert np.isscalar(sampling.sample(mechanism, rng=np.random.default_rng(5)))


def test_sample_uses_the_exact_samplers_for_deployable_laws() -> None:
    draws = sampling.sample(DiscreteLaplace(1.5), 0, rng=np.random.default_rng(12345), size=10)
    expected = samplers.discrete_laplace(Fraction(3, 2), rng=np.random.default_rng(12345),
                                         size=10)
    assert np.array_equal(draws, expected)


def test_supported_samplers_lists_every_noise_law() -> None:
    assert {DiscreteLaplace, DiscreteGaussian, Skellam, PolyaDifference, BinomialNoise, Laplace,
            Gaussian} <= set(sampling.supported_samplers())


def test_unsupported_mechanism_names_the_supported_ones() -> None:
    with pytest.raises(UnsupportedError, match="DiscreteLaplace"):
        sampling.sample(object(), rng=np.random.default_rng(0))


def test_register_sampler_adds_a_type_and_refuses_duplicates() -> None:
    @dataclass(frozen=True)
    class Constant:
        value: int

    @sampling.register_sampler(Constant)
    def _constant(mechanism, x, *, rng, size=None):
        return x + np.full(size, mechanism.value)

    try:
        assert sampling.sample(Constant(3), 1, rng=np.random.default_rng(0), size=2).tolist() == [4, 4]
        with pytest.raises(ValueError, match="already registered"):
            sampling.register_sampler(Constant)(_constant)
    finally:
        del sampling._SAMPLERS[Constant]


def test_sample_users_shape_and_per_user_inputs() -> None:
    draws = sampling.sample_users(DiscreteLaplace(1.0), [0, 100, 200], users=3,
                                  rng=np.random.default_rng(2), size=(5, 2))
    assert draws.shape == (3, 5, 2)
    assert np.abs(draws.mean(axis=(1, 2)) - [0, 100, 200]).max() < 5
    with pytest.raises(ValueError, match="x"):
        sampling.sample_users(DiscreteLaplace(1.0), [1, 2], users=3, rng=np.random.default_rng(2))
    with pytest.raises(ValueError, match="users"):
        sampling.sample_users(DiscreteLaplace(1.0), users=0, rng=np.random.default_rng(2))


# ----------------------------------------------------------------------------- aggregate = user-by-user

def both_paths(mechanism, users: int, n: int, seed: int):
    fast = sampling.sample_aggregate(mechanism, 0, users=users, rng=np.random.default_rng(seed),
                                     size=n)
    slow = sampling.sample_users(mechanism, 0, users=users, rng=np.random.default_rng(seed + 1),
                                 size=n).sum(axis=0)
    return np.asarray(fast), slow


@pytest.mark.slow
def test_polya_aggregate_is_exact_discrete_laplace_like_the_user_path() -> None:
    """Sum of `shares` Pólya differences = Lap_Z(scale): the exact sampler and the user path."""
    mechanism = PolyaDifference(shares=16, scale=3.0)
    fast, slow = both_paths(mechanism, 16, 100_000, seed=7)
    expected = samplers.discrete_laplace(3.0, rng=np.random.default_rng(7), size=100_000)
    assert np.array_equal(fast, expected)  # the fast path *is* the exact sampler
    pmf = discrete_laplace_pmf(3.0)
    assert gof_pvalue(fast, pmf, -80, 80) > P_MIN
    assert gof_pvalue(slow, pmf, -80, 80) > P_MIN


def test_polya_aggregate_with_other_user_counts_sums_the_user_path() -> None:
    mechanism = PolyaDifference(shares=16, scale=3.0)
    fast = sampling.sample_aggregate(mechanism, 5, users=8, rng=np.random.default_rng(3), size=50)
    slow = sampling.sample_users(mechanism, users=8, rng=np.random.default_rng(3),
                                 size=50).sum(axis=0)
    assert np.array_equal(fast, slow + 5)


def test_skellam_aggregate_matches_user_path_and_skellam_of_the_summed_mu() -> None:
    fast, slow = both_paths(Skellam(1.5), 5, 100_000, seed=11)
    law = scipy.stats.skellam(7.5, 7.5)
    assert gof_pvalue(fast, law.pmf, -40, 40) > P_MIN
    assert gof_pvalue(slow, law.pmf, -40, 40) > P_MIN


@pytest.mark.slow
@pytest.mark.parametrize("probability", [0.5, 0.25])
def test_binomial_aggregate_matches_user_path_and_the_summed_binomial(probability) -> None:
    fast, slow = both_paths(BinomialNoise(12, probability), 7, 100_000, seed=13)
    mean = 84 * probability  # an integer here, so the centred draws are integers
    assert fast.dtype == slow.dtype == np.int64
    law = scipy.stats.binom(84, probability)
    assert gof_pvalue(fast + int(mean), law.pmf, 0, 84) > P_MIN
    assert gof_pvalue(slow + int(mean), law.pmf, 0, 84) > P_MIN


def test_binomial_noise_with_a_fractional_mean_is_float() -> None:
    draws = sampling.sample(BinomialNoise(3, 0.5), 0, rng=np.random.default_rng(1), size=1000)
    assert draws.dtype == np.float64 and set(draws + 1.5) <= {0.0, 1.0, 2.0, 3.0}


def test_gaussian_aggregate_matches_user_path() -> None:
    fast, slow = both_paths(Gaussian(2.0), 9, 50_000, seed=17)
    assert scipy.stats.kstest(fast, scipy.stats.norm(scale=6.0).cdf).pvalue > P_MIN
    assert scipy.stats.kstest(slow, scipy.stats.norm(scale=6.0).cdf).pvalue > P_MIN


def test_laplace_aggregate_matches_user_path() -> None:
    fast, slow = both_paths(Laplace(1.5), 6, 50_000, seed=23)
    assert scipy.stats.ks_2samp(fast, slow).pvalue > P_MIN
    assert abs(fast.var() / (6 * 2 * 1.5 ** 2) - 1) < 0.05  # variance n · 2b²


@pytest.mark.parametrize("mechanism", [DiscreteGaussian(1.0), DiscreteLaplace(2.0)],
                         ids=lambda m: type(m).__name__)
def test_sums_without_a_closed_form_use_the_user_path(mechanism) -> None:
    """A sum of discrete Gaussians is not discrete Gaussian: no shortcut."""
    fast = sampling.sample_aggregate(mechanism, 0, users=4, rng=np.random.default_rng(1), size=20)
    slow = sampling.sample_users(mechanism, users=4, rng=np.random.default_rng(1),
                                 size=20).sum(axis=0)
    assert np.array_equal(fast, slow)


def test_aggregate_scalar_and_unsupported() -> None:
    value = sampling.sample_aggregate(Skellam(1.0), 10, users=3, rng=np.random.default_rng(1))
    assert np.isscalar(value)
    with pytest.raises(UnsupportedError):
        sampling.sample_aggregate(object(), users=3, rng=np.random.default_rng(1))
    with pytest.raises(ValueError, match="users"):
        sampling.sample_aggregate(Skellam(1.0), users=math.nan, rng=np.random.default_rng(1))
