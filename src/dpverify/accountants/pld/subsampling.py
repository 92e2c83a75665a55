"""Amplification by Poisson subsampling for mechanisms with a finite dominating pair, as PLDs.

A pair of distributions (P, Q) *dominates* a mechanism M if every hockey-stick
divergence of M on neighbouring inputs is at most that of (P, Q) (Zhu, Dong,
Wang, AISTATS 2022, Def. 7). Under the add/remove relation, running M on a
Poisson sample (each record kept w.p. q) is dominated by

* ``(qP + (1 − q)Q, Q)`` for removal and ``(Q, qP + (1 − q)Q)`` for addition

(ZDW 2022, Thm 11 / Prop. 30), which is what
:meth:`PrivacyLossDistribution.from_subsampled_gaussian` uses for the
Gaussian. Here the pair is finite, computed in mpmath at 50 digits and
discretised connect-the-dots (masses rounded up, losses with a margin), so
the PLD is a rigorous upper bound. The finite dominating pairs of pure DP,
(ε, δ)-DP, randomized response, the Laplace, discrete Laplace, discrete Gaussian
and truncated discrete Gaussian mechanisms are those of
:func:`~dpverify.accountants.dominating_pairs.dominating_pair`.
"""
from __future__ import annotations

from typing import Any

import mpmath

from dpverify._numeric import working_precision
from dpverify._validation import check_positive, check_probability, shown, value_error
from dpverify.accountants.dominating_pairs import dominating_pair
from dpverify.accountants.pld._constructors import DEFAULT_TAIL_MASS_TRUNCATION
from dpverify.accountants.pld._grid import HARD_LIMIT_GRID_POINTS, grid_from_atoms
from dpverify.accountants.pld.distribution import PrivacyLossDistribution

__all__ = ["poisson_subsampled_pld"]

#: Grid points per unit of the largest finite loss of the subsampled pair (default spacing).
POINTS_PER_LOSS = 1024


def pair_loss_grid(first: list, second: list, interval: float):
    """Connect-the-dots grid of the loss ``ln(first/second)`` under ``first`` (masses inflated)."""
    losses, masses = [], []
    for a, b in zip(first, second):
        if a > 0:
            losses.append(mpmath.log(a / b) if b > 0 else mpmath.inf)
            masses.append(a * (1 + mpmath.mpf(10) ** -40))
    return grid_from_atoms(losses, masses, interval=interval)


def loss_grid_interval(largest: float, interval: float | None, *, sensitivity: Any,
                       value: Any) -> float:
    """The grid spacing for losses up to ``largest``: ``interval`` if given (checked > 0), else
    ``largest / POINTS_PER_LOSS``; refused by :func:`check_loss_grid` if the grid is too large."""
    if interval is None:
        interval = max(largest, 1e-12) / POINTS_PER_LOSS
    interval = check_positive(interval, "value_discretization_interval")
    check_loss_grid(largest, interval, sensitivity=sensitivity, value=value)
    return interval


def check_loss_grid(largest: float, interval: float, *, sensitivity: Any, value: Any) -> None:
    """Refuse, before the grid is built, privacy losses up to ``largest`` that need more than
    ``HARD_LIMIT_GRID_POINTS`` points of ``interval`` (the message names ``sensitivity``, the
    parameter that made the losses large)."""
    if not largest / interval <= HARD_LIMIT_GRID_POINTS:
        raise value_error("sensitivity", sensitivity,
                          f"small enough for value={shown(value)} that its privacy losses (up to "
                          f"{largest:.6g}) fit in {HARD_LIMIT_GRID_POINTS} grid points of "
                          f"value_discretization_interval={interval!r}",
                          "use a smaller sensitivity or a larger value_discretization_interval "
                          "(or leave it None)")


def poisson_subsampled_pld(value: Any, sampling_probability: float, *, sensitivity: float = 1.0,
                           value_discretization_interval: float | None = None,
                           ) -> PrivacyLossDistribution:
    """PLD of ``value``'s mechanism run on a Poisson sample of rate q (add/remove relation).

    Both directions ``(qP + (1−q)Q, Q)`` and ``(Q, qP + (1−q)Q)`` of the finite
    dominating pair (:func:`dominating_pair`) are kept. Default spacing: the
    largest finite loss / 1024.

    **Soundness.** Upper bound under add/remove with Poisson sampling (ZDW 2022,
    Thm 11); the pair is exact to 50 digits, masses rounded up, atoms split
    connect-the-dots with a margin for mpmath's error.

    >>> from dpverify.guarantees import PureDP
    >>> pld = poisson_subsampled_pld(PureDP(1.0), 0.01)
    >>> pld.delta_for_epsilon(0.0175) <= 1e-12   # ln(1 + q(e − 1)) = 0.01703
    True
    """
    q = check_probability(sampling_probability, "sampling_probability", open_low=True)
    p_pair, q_pair = dominating_pair(value, sensitivity=sensitivity)
    with working_precision():
        rate = mpmath.mpf(q)
        mixture = [rate * a + (1 - rate) * b for a, b in zip(p_pair, q_pair)]
        finite = [abs(mpmath.log(a / b)) for a, b in zip(mixture, q_pair) if a > 0 and b > 0]
        largest = float(max(finite)) if finite else 1.0
    interval = loss_grid_interval(largest, value_discretization_interval,
                                  sensitivity=sensitivity, value=value)
    with working_precision():
        directions = (pair_loss_grid(mixture, q_pair, interval), pair_loss_grid(q_pair, mixture, interval))
    return PrivacyLossDistribution(directions, DEFAULT_TAIL_MASS_TRUNCATION)
