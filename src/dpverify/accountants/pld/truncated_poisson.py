"""PLD of the Gaussian mechanism on a truncated Poisson sample (a Poisson sample capped at B records).

See :mod:`dpverify.accountants._truncated_poisson` for the two branches: the release
is dominated by the *revealed* mixture — with weight ``1 − T`` the Poisson-subsampled
Gaussian at rate q and sensitivity Δ, with weight ``T`` the Poisson-subsampled
Gaussian at rate ``p̄`` and sensitivity 2Δ (a record swapped for another) — whose
privacy loss distribution, in each direction, is the weighted sum of the branches'.
"""

from __future__ import annotations

import numpy as np

from dpverify._validation import value_error
from dpverify.accountants._truncated_poisson import checked_truncated_gaussian
from dpverify.accountants.pld._constructors import (
    DEFAULT_TAIL_MASS_TRUNCATION,
    MIN_SAMPLING_PROBABILITY,
    check_grid_options,
)
from dpverify.accountants.pld._grid import LossGrid
from dpverify.accountants.pld.distribution import PrivacyLossDistribution, dp_sgd_interval

__all__ = ["truncated_poisson_gaussian_pld"]

_U = 2.0**-53


def truncated_poisson_gaussian_pld(
    sigma: float,
    sampling_probability: float,
    *,
    max_sample_size: int,
    population_size: int,
    sensitivity: float = 1.0,
    value_discretization_interval: float | None = None,
    tail_mass_truncation: float = DEFAULT_TAIL_MASS_TRUNCATION,
) -> PrivacyLossDistribution:
    """PLD of ``f(S) + N(0, σ²)`` with S a Poisson sample (rate q) of the data capped at B records.

    Each record is kept independently with probability q; if more than
    ``max_sample_size`` B are kept, a uniformly random B of them are used (dp_accounting's
    ``TruncatedSubsampledGaussianDpEvent``, following arXiv:2508.15089).

    Parameters
    ----------
    sigma
        Standard deviation of the Gaussian noise, > 0.
    sampling_probability
        Poisson rate q, in (0, 1].
    max_sample_size
        B >= 1: the most records a sample keeps.
    population_size
        n >= 1: the number of records of the dataset; the guarantee covers its
        add/remove neighbours (n − 1 and n + 1 records), the size being public.
    sensitivity
        Δ: the most one record's contribution moves ``f`` (ℓ2), > 0.
    value_discretization_interval, tail_mass_truncation
        As for :meth:`~dpverify.accountants.pld.distribution.PrivacyLossDistribution.from_subsampled_gaussian`;
        the default grid is DP-SGD's for (σ/Δ, q).

    Notes
    -----
    With ``T = P(Bin(N − 1, q) >= B)`` and ``p̄ = (B/N) P(Bin(N, q) >= B + 1) / T`` (N = n
    for a removal, n + 1 for an addition; :func:`~dpverify.accountants._truncated_poisson.truncation_weights`),
    the pair in each direction is the mixture, index revealed, of

    * weight ``1 − T``: ``(1 − q)N(0, σ²) + qN(Δ, σ²)`` vs ``N(0, σ²)`` (Poisson at rate q);
    * weight ``T``: ``(1 − p̄)N(0, σ²) + p̄N(2Δ, σ²)`` vs ``N(0, σ²)`` (x swapped in for one of
      the B kept records w.p. p̄: the sum moves by at most 2Δ).

    dp_accounting builds the same mixture but takes the second branch's pair under
    ``REPLACE_ONE`` (``(1 − p̄)N(0) + p̄N(Δ')`` vs ``(1 − p̄)N(0) + p̄N(−Δ')``, Δ' = 2Δ) and covers
    N = n only (``pld/privacy_loss_distribution.py``, ``from_truncated_subsampled_gaussian_mechanism``).

    **Soundness.** Upper bound under add/remove with the dataset size public; the
    proof (joint convexity of the hockey-stick divergence, and why K drops out of
    the second branch) is in ``docs/proofs/pld.md``, "Truncated Poisson sampling".
    Weights are rounded outwards (their sum may exceed 1: added mass is
    pessimistic), p̄ up (the subsampled pair's divergences grow with the rate), the
    mixed masses up by the float error of the products and sums.

    >>> pld = truncated_poisson_gaussian_pld(1.0, 0.01, max_sample_size=120, population_size=10_000)
    >>> round(pld.self_compose(100).epsilon_for_delta(1e-5), 2)
    3.59
    """
    sigma, q, sensitivity, weights = checked_truncated_gaussian(
        sigma, sampling_probability, sensitivity, max_sample_size, population_size)
    interval = (
        dp_sgd_interval(sigma / sensitivity, q)
        if value_discretization_interval is None
        else value_discretization_interval
    )
    interval, tail = check_grid_options(interval, tail_mass_truncation, interval)
    untruncated = PrivacyLossDistribution.from_subsampled_gaussian(
        sigma, q, sensitivity=sensitivity, value_discretization_interval=interval, tail_mass_truncation=tail
    )
    if weights.truncated_weight == 0:
        return untruncated
    swapped = PrivacyLossDistribution.from_subsampled_gaussian(
        sigma,
        max(weights.truncated_rate, MIN_SAMPLING_PROBABILITY),
        sensitivity=2 * sensitivity,
        value_discretization_interval=interval,
        tail_mass_truncation=tail,
    )
    directions = tuple(
        _mixed_grid((first, second), (weights.untruncated_weight, weights.truncated_weight))
        for first, second in zip(_both(untruncated), _both(swapped))
    )

    def rebuild(tail_mass_truncation: float) -> PrivacyLossDistribution:   # as refined() calls it
        return truncated_poisson_gaussian_pld(
            sigma,
            q,
            max_sample_size=max_sample_size,
            population_size=population_size,
            sensitivity=sensitivity,
            value_discretization_interval=interval,
            tail_mass_truncation=tail_mass_truncation,
        )

    return PrivacyLossDistribution(directions, tail, rebuild=rebuild)


def _both(pld: PrivacyLossDistribution) -> tuple[LossGrid, LossGrid]:
    """(remove, add) directions of a PLD (a symmetric PLD's one grid twice)."""
    return (pld.directions * 2)[:2]


def _mixed_grid(grids: tuple[LossGrid, ...], weights: tuple[float, ...]) -> LossGrid:
    """``Σ w_i grid_i`` on their common spacing, every float product and sum rounded up.

    Each entry is a sum of at most two products, so the relative error of the float
    result is below ``3u``; the masses, infinite masses, error bounds and truncated
    masses are scaled by ``1 + 4u`` to cover it.
    """
    interval = grids[0].interval
    if any(g.interval != interval or g.tilt != 0 or g.error_log_scale != 0 for g in grids):
        raise value_error("grids", grids, "untilted grids of one spacing (programmer error)")
    low = min(g.offset for g in grids)
    high = max(g.offset + len(g.probabilities) for g in grids)
    masses = np.zeros(high - low)
    for grid, weight in zip(grids, weights):
        start = grid.offset - low
        masses[start : start + len(grid.probabilities)] += weight * grid.probabilities
    inflate = 1 + 4 * _U

    def total(name: str) -> float:
        return sum(w * getattr(g, name) for g, w in zip(grids, weights)) * inflate

    return LossGrid(interval, low, masses * inflate, total("infinity_mass"), total("error"), total("truncation"))
