"""Goodness-of-fit helpers shared by the statistical tests (imported as ``_gof``).

Test directories are not packages; ``pythonpath`` in pyproject.toml puts
``tests/`` on ``sys.path``.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.stats

#: False-failure probability of each statistical test under a fresh seed.
P_MIN = 1e-4


def gof_pvalue(draws: np.ndarray, pmf, low: int, high: int) -> float:
    """Chi-square GOF p-value of integer ``draws`` against ``pmf`` on [low, high].

    Mass outside [low, high] is folded into the edge bins; adjacent bins are
    merged from the left until each expected count is at least 5 (the rest
    goes into the last bin).
    """
    support = np.arange(low, high + 1)
    probabilities = np.array([pmf(int(k)) for k in support], dtype=float)
    probabilities[0] += max(0.0, 1.0 - probabilities.sum())  # tails folded (tiny by choice)
    counts = np.bincount(np.clip(draws, low, high) - low, minlength=support.size).astype(float)
    expected = probabilities / probabilities.sum() * draws.size
    merged_obs, merged_exp, obs, exp = [], [], 0.0, 0.0
    for o, e in zip(counts, expected):
        obs, exp = obs + o, exp + e
        if exp >= 5:
            merged_obs.append(obs), merged_exp.append(exp)
            obs = exp = 0.0
    merged_obs[-1] += obs
    merged_exp[-1] += exp
    assert len(merged_obs) >= 2, "too few bins for a chi-square test"
    return scipy.stats.chisquare(merged_obs, merged_exp).pvalue


def discrete_laplace_pmf(scale: float):
    beta = math.exp(-1 / scale)
    return lambda k: (1 - beta) / (1 + beta) * beta ** abs(k)
