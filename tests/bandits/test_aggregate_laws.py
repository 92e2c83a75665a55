"""Aggregate noise laws: the simulation samplers of sums against exact convolutions.

Goodness-of-fit tests with fixed seeds; false failure 1e-3 each with a fresh seed.
"""

from __future__ import annotations

import math

import numpy as np

from dpverify.bandits.privatizers._aggregate_laws import (
    _discrete_gaussian_sum_cdf,
    simulation_discrete_gaussian_sum,
    simulation_discrete_laplace_sum,
)

from _gof import gof_pvalue
from _stats import P_MIN


def _convolve_power(pmf: np.ndarray, times: int) -> np.ndarray:
    total = pmf
    for _ in range(times - 1):
        total = np.convolve(total, pmf)
    return total


def test_discrete_gaussian_sum_pmf_is_the_convolution() -> None:
    sigma, users = 1.3, 5
    ks = np.arange(-20, 21)
    single = np.exp(-ks ** 2 / (2 * sigma ** 2))
    exact = _convolve_power(single / single.sum(), users)
    cdf, width = _discrete_gaussian_sum_cdf(sigma, users)
    fft_pmf = np.diff(np.concatenate([[0.0], cdf]))
    centre = len(exact) // 2
    assert np.max(np.abs(fft_pmf[width - 30: width + 31] - exact[centre - 30: centre + 31])) < 1e-12


def test_discrete_gaussian_sum_sampler_fits() -> None:
    sigma, users, rng = 1.3, 5, np.random.default_rng(11)
    draws = np.array([simulation_discrete_gaussian_sum(sigma, users, rng=rng) for _ in range(6000)])
    ks = np.arange(-20, 21)
    single = np.exp(-ks ** 2 / (2 * sigma ** 2))
    exact = _convolve_power(single / single.sum(), users)
    centre = len(exact) // 2
    assert gof_pvalue(draws, lambda k: exact[k + centre], -centre, centre) > P_MIN


def test_discrete_laplace_sum_sampler_fits() -> None:
    scale, users, rng = 1.5, 4, np.random.default_rng(12)
    beta = math.exp(-1 / scale)
    ks = np.arange(-60, 61)
    single = (1 - beta) / (1 + beta) * beta ** np.abs(ks)
    exact = _convolve_power(single, users)
    draws = np.array([simulation_discrete_laplace_sum(scale, users, rng=rng) for _ in range(6000)])
    centre = len(exact) // 2
    assert gof_pvalue(draws, lambda k: exact[k + centre], -centre, centre) > P_MIN
