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

import math
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
#: Grid points per standard deviation of the loss (default spacing, when finer than the above):
#: a spacing set by the largest loss alone is far too coarse when most mass sits at small losses
#: (a Poisson rate q = 0.001 put ε 54% above dp_accounting's after 1000 steps).
POINTS_PER_STANDARD_DEVIATION = 100
#: The default spacing is never finer than the largest finite loss / this (bounds the grid's size).
MAX_DEFAULT_GRID_POINTS = 2 ** 18


def pair_loss_grid(first: list, second: list, interval: float):
    """Connect-the-dots grid of the loss ``ln(first/second)`` under ``first`` (masses inflated)."""
    losses, masses = [], []
    for a, b in zip(first, second):
        if a > 0:
            losses.append(mpmath.log(a / b) if b > 0 else mpmath.inf)
            masses.append(a * (1 + mpmath.mpf(10) ** -40))
    return grid_from_atoms(losses, masses, interval=interval)


def pair_loss_spread(first: list, second: list) -> float:
    """The smaller standard deviation of the finite loss ``ln(first/second)`` over both directions.

    Under ``first`` the loss is ``L = ln(a_i/b_i)`` with mass ``a_i``; under ``second`` it is
    ``−L`` with mass ``b_i``. Atoms with an infinite loss are left out (they are kept exactly, at
    ±∞, by the grid). Returns ``inf`` when neither direction has two distinct finite losses.
    """
    spreads = []
    with working_precision():
        for masses in (first, second):
            points = [(m, mpmath.log(a / b)) for m, a, b in zip(masses, first, second) if a > 0 and b > 0 and m > 0]
            total = mpmath.fsum(m for m, _ in points)
            if not points or total == 0:
                continue
            mean = mpmath.fsum(m * loss for m, loss in points) / total
            variance = mpmath.fsum(m * (loss - mean) ** 2 for m, loss in points) / total
            if variance > 0:
                spreads.append(float(mpmath.sqrt(variance)))
    return min(spreads, default=math.inf)


def loss_grid_interval(largest: float, interval: float | None, *, sensitivity: Any,
                       value: Any, spread: float = math.inf, value_name: str = "value",
                       sensitivity_name: str = "sensitivity") -> float:
    """The grid spacing for losses up to ``largest``: ``interval`` if given (checked > 0), else
    ``min(largest / POINTS_PER_LOSS, spread / POINTS_PER_STANDARD_DEVIATION)`` and no finer than
    ``largest / MAX_DEFAULT_GRID_POINTS`` (``spread``: the loss's standard deviation,
    :func:`pair_loss_spread`); refused by :func:`check_loss_grid` if the grid is too large.

    The spacing only decides how much the connect-the-dots grid overstates the loss (every choice
    is an upper bound); the spread term keeps that overstatement small next to the loss itself."""
    if interval is None:
        largest = max(largest, 1e-12)
        interval = max(min(largest / POINTS_PER_LOSS, spread / POINTS_PER_STANDARD_DEVIATION),
                       largest / MAX_DEFAULT_GRID_POINTS)
    interval = check_positive(interval, "value_discretization_interval")
    check_loss_grid(largest, interval, sensitivity=sensitivity, value=value, value_name=value_name,
                    sensitivity_name=sensitivity_name)
    return interval


def check_loss_grid(largest: float, interval: float, *, sensitivity: Any, value: Any,
                    value_name: str = "value", sensitivity_name: str = "sensitivity") -> None:
    """Refuse, before the grid is built, privacy losses up to ``largest`` that need more than
    ``HARD_LIMIT_GRID_POINTS`` points of ``interval`` (the message names ``sensitivity``, the
    parameter that made the losses large, and the noise parameter by the caller's name
    ``value_name``: ``sigma`` for a Gaussian mixture, whose sensitivities are
    ``sensitivity_name="sensitivities"``)."""
    if not largest / interval <= HARD_LIMIT_GRID_POINTS:
        raise value_error(sensitivity_name, sensitivity,
                          f"small enough for {value_name}={shown(value)} that its privacy losses (up to "
                          f"{largest:.6g}) fit in {HARD_LIMIT_GRID_POINTS} grid points of "
                          f"value_discretization_interval={interval!r}",
                          f"use a smaller sensitivity, a larger {value_name} or a larger "
                          "value_discretization_interval (or leave it None)")


def poisson_subsampled_pld(value: Any, sampling_probability: float, *, sensitivity: float = 1.0,
                           value_discretization_interval: float | None = None,
                           ) -> PrivacyLossDistribution:
    """PLD of ``value``'s mechanism run on a Poisson sample of rate q (add/remove relation).

    Both directions ``(qP + (1−q)Q, Q)`` and ``(Q, qP + (1−q)Q)`` of the finite
    dominating pair (:func:`dominating_pair`) are kept. Default spacing: the
    smaller of the largest finite loss / 1024 and the loss's standard deviation / 100
    (:func:`loss_grid_interval`).

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
    interval = loss_grid_interval(largest, value_discretization_interval, sensitivity=sensitivity,
                                  value=value, spread=pair_loss_spread(mixture, q_pair))
    with working_precision():
        directions = (pair_loss_grid(mixture, q_pair, interval), pair_loss_grid(q_pair, mixture, interval))
    return PrivacyLossDistribution(directions, DEFAULT_TAIL_MASS_TRUNCATION)
