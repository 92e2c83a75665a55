"""Simulation-only samplers: their laws by goodness of fit, and the inverted Pólya scale.

Statistical tests use fixed seeds, so each is deterministic; with a fresh seed
each would fail with probability at most 1e-4. Their bad input is checked with
the exact samplers' in ``test_samplers.py``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.stats

from dpverify.mechanisms import simulation

from _gof import P_MIN, discrete_laplace_pmf, gof_pvalue  # shared helpers

# ----------------------------------------------------------------------------- simulation samplers

def test_simulation_skellam_matches_scipy() -> None:
    draws = simulation.simulation_skellam(3.5, rng=np.random.default_rng(61), size=200_000)
    assert gof_pvalue(draws, scipy.stats.skellam(3.5, 3.5).pmf, -40, 40) > P_MIN


@pytest.mark.parametrize("r, beta", [(0.25, math.exp(-1 / 8)), (1.0, 0.5), (3.0, 0.2)])
def test_simulation_polya_matches_negative_binomial(r: float, beta: float) -> None:
    draws = simulation.simulation_polya(r, beta, rng=np.random.default_rng(71), size=200_000)
    law = scipy.stats.nbinom(r, 1 - beta)
    assert gof_pvalue(draws, law.pmf, 0, int(law.ppf(1 - 1e-12))) > P_MIN


def test_simulation_laplace_and_gaussian_match_their_laws() -> None:
    rng = np.random.default_rng(81)
    laplace = simulation.simulation_laplace(2.0, rng=rng, size=50_000)
    gaussian = simulation.simulation_gaussian(3.0, rng=rng, size=50_000)
    assert scipy.stats.kstest(laplace, scipy.stats.laplace(scale=2.0).cdf).pvalue > P_MIN
    assert scipy.stats.kstest(gaussian, scipy.stats.norm(scale=3.0).cdf).pvalue > P_MIN


# ------------------------------------ the Pólya scale (Chowdhury & Zhou 2023, footnote 3; their code inverts it)

def inverted_polya_difference(shares: int, scale: float, *, rng, size):
    """The public reference code's sampler: Gamma scale (1 − β)/β — WRONG, kept to be caught."""
    beta = math.exp(-1 / scale)
    rates = rng.gamma(1 / shares, (1 - beta) / beta, size=(2, size))
    draws = rng.poisson(rates)
    return draws[0] - draws[1]


@pytest.mark.slow
def test_polya_correct_sum_is_discrete_laplace_and_inverted_is_not() -> None:
    """n = 64 users, ε = 0.5, g = 4, so the sum must be Lap_Z(g/ε = 8) (Chowdhury & Zhou 2023, Fact 1).

    Theory: variance 2β/(1 − β)² ≈ 127.8 with β = e^{−1/8}. The correct
    sampler's sum matches the pmf; the inverted one has variance ≈ 0.30 and fails.
    """
    users, epsilon, g = 64, 0.5, 4
    scale = g / epsilon
    beta = math.exp(-1 / scale)
    variance = 2 * beta / (1 - beta) ** 2
    rng = np.random.default_rng(91)
    correct = sum(simulation.simulation_polya_difference(users, scale, rng=rng, size=50_000)
                  for _ in range(users))
    inverted = sum(inverted_polya_difference(users, scale, rng=rng, size=50_000)
                   for _ in range(users))
    pmf = discrete_laplace_pmf(scale)
    assert variance == pytest.approx(127.8, abs=0.1)
    assert correct.var() == pytest.approx(variance, rel=0.05)
    assert inverted.var() == pytest.approx(0.30, abs=0.03)  # ~400x too small
    assert gof_pvalue(correct, pmf, -250, 250) > P_MIN
    assert gof_pvalue(inverted, pmf, -250, 250) < P_MIN
