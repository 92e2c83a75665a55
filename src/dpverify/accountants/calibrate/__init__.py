"""Calibration: the smallest noise (or the largest budget use) that meets an (ε, δ) budget.

Public modules:

* ``noise`` — Gaussian (analytic, classical, composed by PLD or RDP), Laplace and
  binomial noise for a budget, and the ε they give;
* ``discrete`` — the least discrete-Gaussian σ such that every larger σ meets the budget;
* ``dp_sgd`` — DP-SGD: ε of Poisson-subsampled Gaussian steps and the noise multiplier
  for a budget.

Every search returns the passing end of a verified bracket (the private ``_search``);
``_noise_multiplier_search`` seeds DP-SGD's search (speed only, not soundness).
"""

from dpverify.accountants.calibrate.discrete import min_discrete_gaussian_sigma
from dpverify.accountants.calibrate.dp_sgd import dp_sgd_epsilon, min_noise_multiplier
from dpverify.accountants.calibrate.noise import (
    GAUSSIAN_METHODS,
    LAPLACE_METHODS,
    analytic_gaussian_sigma,
    classical_gaussian_sigma,
    gaussian_epsilon,
    laplace_epsilon,
    min_binomial_trials,
    min_gaussian_sigma,
    min_laplace_scale,
)

__all__ = [
    "GAUSSIAN_METHODS",
    "LAPLACE_METHODS",
    "analytic_gaussian_sigma",
    "classical_gaussian_sigma",
    "gaussian_epsilon",
    "laplace_epsilon",
    "min_binomial_trials",
    "min_gaussian_sigma",
    "min_laplace_scale",
    "min_noise_multiplier",
    "dp_sgd_epsilon",
    "min_discrete_gaussian_sigma",
]
