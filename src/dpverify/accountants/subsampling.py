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
the PLD is a rigorous upper bound. Finite dominating pairs
(:func:`dominating_pair`):

* ε-DP (``PureDP``, ``Laplace`` via its ε, k-ary/binary randomized response
  with their exact laws): the two-point pair ``(e^ε, 1)/(1 + e^ε)`` and its
  reverse, or the randomized response's own pair of output laws;
* (ε, δ)-DP: the four-point pair of Kairouz, Oh, Viswanath (2015, Thm 2.1).

(The Laplace mechanism's own pair is continuous; its ε-DP pair is a looser
but sound stand-in.)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import mpmath

from dpverify._numeric import round_up, working_precision
from dpverify._validation import check_positive, check_probability
from dpverify.accountants._pld_grid import grid_from_atoms
from dpverify.accountants.pld import DEFAULT_TAIL_MASS_TRUNCATION, PrivacyLossDistribution
from dpverify.errors import UnsupportedError
from dpverify.guarantees import ApproxDP, PureDP
from dpverify.mechanisms import BinaryRandomizedResponse, Laplace, RandomizedResponse

__all__ = ["dominating_pair", "poisson_subsampled_pld"]

#: Grid points per unit of the largest finite loss of the subsampled pair (default spacing).
POINTS_PER_LOSS = 1024


def dominating_pair(value: Any, *, sensitivity: float = 1.0) -> tuple[list, list]:
    """A finite dominating pair ``(P, Q)`` (mpmath lists over the same outcomes) of ``value``.

    ``value`` is a ``PureDP``, ``ApproxDP``, ``RandomizedResponse``,
    ``BinaryRandomizedResponse`` or ``Laplace`` (ε = sensitivity/scale).

    >>> p, q = dominating_pair(PureDP(1.0))
    >>> [round(float(x), 4) for x in p]
    [0.7311, 0.2689]
    """
    with working_precision():
        if isinstance(value, RandomizedResponse):
            weight = mpmath.exp(mpmath.mpf(value.epsilon))
            total = weight + value.k - 1
            rest = [1 / total] * (value.k - 2)
            return [weight / total, 1 / total, *rest], [1 / total, weight / total, *rest]
        if isinstance(value, BinaryRandomizedResponse):
            p = mpmath.mpf(value.flip_probability) / 2
            return [1 - p, p], [p, 1 - p]
        if isinstance(value, Laplace):
            sensitivity = check_positive(sensitivity, "sensitivity")
            value = PureDP(round_up(Fraction(sensitivity) / Fraction(value.scale)))
        if isinstance(value, PureDP):
            weight = mpmath.exp(mpmath.mpf(value.epsilon))
            return [weight / (1 + weight), 1 / (1 + weight)], [1 / (1 + weight), weight / (1 + weight)]
        if isinstance(value, ApproxDP):
            weight, rest = mpmath.exp(mpmath.mpf(value.epsilon)), 1 - mpmath.mpf(value.delta)
            delta = mpmath.mpf(value.delta)
            return ([delta, rest * weight / (1 + weight), rest / (1 + weight), mpmath.mpf(0)],
                    [mpmath.mpf(0), rest / (1 + weight), rest * weight / (1 + weight), delta])
    raise UnsupportedError(f"no finite dominating pair for {value!r}; supported: PureDP, ApproxDP, "
                           "RandomizedResponse, BinaryRandomizedResponse, Laplace")


def _direction(first: list, second: list, interval: float):
    """Connect-the-dots grid of the loss ``ln(first/second)`` under ``first`` (masses inflated)."""
    losses, masses = [], []
    for a, b in zip(first, second):
        if a > 0:
            losses.append(mpmath.log(a / b) if b > 0 else mpmath.inf)
            masses.append(a * (1 + mpmath.mpf(10) ** -40))
    return grid_from_atoms(losses, masses, interval=interval)


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
    interval = value_discretization_interval
    if interval is None:
        interval = max(largest, 1e-12) / POINTS_PER_LOSS
    interval = check_positive(interval, "value_discretization_interval")
    with working_precision():
        directions = (_direction(mixture, q_pair, interval), _direction(q_pair, mixture, interval))
    return PrivacyLossDistribution(directions, DEFAULT_TAIL_MASS_TRUNCATION)
