"""Amplification by sampling *without replacement* (a batch of m of n records) as a PLD.

Relation: replace-one (substitution), the only one under which a fixed batch
size is meaningful. Let ``(P, Q)`` be a dominating pair of ``M`` under
replace-one that is symmetric (``Q`` is ``P`` with the outcomes relabelled, as
for every pair of :func:`~dpverify.accountants.dominating_pairs.dominating_pair`),
and ``q = m/n``.

**Profile (ε ≥ 0).** By the advanced joint convexity of Balle, Barthe,
Gaboardi (NeurIPS 2018, Thm 2 with the coupling of their Thm 10), for both
orders of two neighbouring data sets and every ``ε' ≥ 0``::

    H_{e^ε'}(M∘S(x) ‖ M∘S(x')) ≤ q · H_{e^ε}(P ‖ Q),   e^ε = 1 + (e^ε' − 1)/q,

and the right side is exactly ``δ'(ε') = H_{e^ε'}(qP + (1 − q)Q ‖ Q)``.

**A pair for all α (composition).** Composing dominating pairs needs
domination of ``H_α`` for every ``α ≥ 0`` (Zhu, Dong, Wang, AISTATS 2022,
Def. 7, Thm 10), i.e. of the trade-off curve. A mechanism meeting ``δ'`` in
both orders has trade-off curve at least ``g = sup_{ε≥0} f_{ε, δ'(ε)}``
(Dong, Roth, Su 2022, Prop. 2.12), which is symmetric. The pair realising
``g`` is built from the atoms of ``(qP + (1 − q)Q, Q)`` with positive loss
``L_i`` (masses ``p_i, q_i``), taken in decreasing ``L_i`` while
``Σ (p_i + q_i) ≤ 1`` (the last one split): ``P*`` puts ``p_i`` at loss
``L_i``, ``q_i`` at loss ``−L_i`` and the rest at loss 0; ``Q*`` mirrors it.
Its profile is ``δ'`` (or below it only where ``g`` itself is, when the
split occurs), and its trade-off curve is ``g``, so ``(P*, Q*)`` dominates
``M∘S`` under replace-one at every ``α``. One PLD direction describes both
(the pair is symmetric).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from dpverify._numeric import round_up, working_precision
from dpverify._validation import check_int_at_least, check_positive, check_positive_int, value_error
from dpverify.accountants.dominating_pairs import dominating_pair
from dpverify.accountants.pld._constructors import DEFAULT_TAIL_MASS_TRUNCATION
from dpverify.accountants.pld._grid import LossGrid, frozen, grid_from_atoms
from dpverify.accountants.pld.distribution import PrivacyLossDistribution
from dpverify.accountants.pld.subsampling import loss_grid_interval
from dpverify.errors import UnsupportedError

__all__ = ["without_replacement_gaussian_pld", "without_replacement_pld"]


def _symmetric_profile_pair(first: list, second: list) -> tuple[list, list]:
    """Atoms ``(losses, masses under P*)`` of the symmetric pair with the ε >= 0 profile of ``(first, second)``.

    ``first`` and ``second`` are mpmath pmfs over the same outcomes. The
    returned pair's trade-off curve is ``sup_{ε≥0} f_{ε, δ(ε)}`` with ``δ`` the
    profile ``H_{e^ε}(first ‖ second)`` (module docstring); losses may be
    ``±inf``.

    >>> losses, masses = _symmetric_profile_pair([mpmath.mpf(3) / 4, mpmath.mpf(1) / 4],
    ...                                         [mpmath.mpf(1) / 4, mpmath.mpf(3) / 4])
    >>> [round(float(x), 4) for x in losses], [float(m) for m in masses]
    ([1.0986, -1.0986, 0.0], [0.75, 0.25, 0.0])
    """
    with working_precision():
        atoms = [(mpmath.log(a / b) if b > 0 else mpmath.inf, a, b)
                 for a, b in zip(first, second) if a > b]
        return _symmetric_atoms(atoms)


def _symmetric_atoms(atoms: list) -> tuple[list, list]:
    """``(losses, masses under P*)`` from positive-loss atoms ``(L_i, p_i, q_i)`` (module docstring)."""
    atoms = sorted(atoms, key=lambda atom: -atom[0])
    losses, masses, used = [], [], mpmath.mpf(0)
    for loss, a, b in atoms:
        share = min(mpmath.mpf(1), (1 - used) / (a + b))
        if share <= 0:
            break
        losses.append(loss)
        masses.append(a * share)
        if b > 0:
            losses.append(-loss)
            masses.append(b * share)
        used += (a + b) * share
    losses.append(mpmath.mpf(0))
    masses.append(max(mpmath.mpf(0), 1 - used))
    return losses, masses


def without_replacement_pld(value: Any, sample_size: int, population_size: int, *,
                            sensitivity: float = 1.0,
                            value_discretization_interval: float | None = None,
                            ) -> PrivacyLossDistribution:
    """PLD of ``value``'s mechanism run on a uniformly random batch of ``sample_size`` of ``population_size``.

    Replace-one relation; ``value`` is anything with a finite dominating pair
    (:func:`~dpverify.accountants.dominating_pairs.dominating_pair`: ``PureDP``,
    ``ApproxDP``, randomized response, ``Laplace`` via its ε), its pair taken
    under replace-one (pass the replace-one ``sensitivity``).

    **Soundness.** Upper bound (module docstring: Balle et al. 2018, Thm 2
    and 10; the symmetric pair dominating at every α); the pair is exact to
    50 digits, masses inflated, atoms split connect-the-dots. Default
    spacing: the largest finite loss / 1024.

    >>> from dpverify.guarantees import PureDP
    >>> pld = without_replacement_pld(PureDP(1.0), 10, 1000)
    >>> pld.delta_for_epsilon(0.0175) <= 1e-12   # ln(1 + q(e − 1)) = 0.01703
    True
    """
    sample_size, population_size = _check_sizes(sample_size, population_size)
    p_pair, q_pair = dominating_pair(value, sensitivity=sensitivity)
    with working_precision():
        rate = mpmath.mpf(sample_size) / population_size
        mixture = [rate * a + (1 - rate) * b for a, b in zip(p_pair, q_pair)]
        losses, masses = _symmetric_profile_pair(mixture, q_pair)
        finite = [abs(loss) for loss in losses if mpmath.isfinite(loss)]
        largest = float(max(finite)) if finite else 1.0
    interval = loss_grid_interval(largest, value_discretization_interval,
                                  sensitivity=sensitivity, value=value)
    with working_precision():
        inflated = [m * (1 + mpmath.mpf(10) ** -40) + mpmath.mpf(10) ** -45 for m in masses]
        keep = [(loss, m) for loss, m in zip(losses, inflated) if not (mpmath.isinf(loss) and loss < 0)]
        direction = grid_from_atoms([k[0] for k in keep], [k[1] for k in keep], interval=interval)
    return PrivacyLossDistribution((direction,), DEFAULT_TAIL_MASS_TRUNCATION)


def _check_sizes(sample_size: int, population_size: int) -> tuple[int, int]:
    population_size = check_positive_int(population_size, "population_size")
    sample_size = check_int_at_least(sample_size, "sample_size", 1)
    if sample_size > population_size:
        raise value_error("sample_size", sample_size, f"at most population_size ({population_size})")
    return sample_size, population_size


def _symmetrise_grid(grid: LossGrid) -> LossGrid:
    """The symmetric pair (module docstring) of a pessimistic direction, on the same grid.

    The direction's atoms ``(l_j, ω_j)`` are read as a pair with masses
    ``p_j = ω_j`` and ``q_j = ω_j e^{−l_j}``, whose profile at ε >= 0 is the
    direction's; the float error bound (plain ℓ1 only) is added to the mass at
    infinity so that profile is an upper bound.
    """
    if grid.tilt != 0:
        raise UnsupportedError("a tilted error bound cannot be symmetrised; use the default grid")
    indices = grid.offset + np.arange(len(grid.probabilities))
    positive = indices > 0
    losses = indices[positive] * grid.interval
    masses = grid.probabilities[positive]
    mirrored = masses * np.exp(-losses) * (1 + 1e-14)     # exp to within a few ulps: rounded up
    infinity = float(grid.infinity_mass) + float(grid.error)
    used = math.fsum(masses) + math.fsum(mirrored) + infinity
    if used <= 1 - 1e-9:
        # no atom is split: P* keeps the positive atoms, mirrors them, and puts the rest at 0; every
        # loss (and its negative) is a grid point, so no mass moves
        low = -int(indices[positive].max()) if positive.any() else 0
        high = max(int(indices.max()), 0)
        probabilities = np.zeros(high - low + 1)
        probabilities[indices[positive] - low] = masses
        probabilities[-indices[positive] - low] += mirrored
        probabilities[-low] += (1 - used) * (1 + 1e-12) + 1e-15
        return LossGrid(grid.interval, low, frozen(probabilities), round_up(infinity), 0.0)
    with working_precision():
        step = mpmath.mpf(grid.interval)
        atoms = [(mpmath.inf, mpmath.mpf(grid.infinity_mass) + mpmath.mpf(grid.error), mpmath.mpf(0))]
        for index in np.flatnonzero(grid.probabilities > 0):
            loss = (grid.offset + int(index)) * step
            if loss > 0:
                mass = mpmath.mpf(float(grid.probabilities[index]))
                atoms.append((loss, mass, mass * mpmath.exp(-loss) * (1 + mpmath.mpf(10) ** -40)))
        losses, masses = _symmetric_atoms(atoms)
        return grid_from_atoms(losses, masses, interval=grid.interval, exact_losses=True)


def without_replacement_gaussian_pld(sigma: float, sample_size: int, population_size: int, *,
                                     sensitivity: float = 1.0,
                                     value_discretization_interval: float | None = None,
                                     ) -> PrivacyLossDistribution:
    """PLD of the Gaussian mechanism (sum of contributions of norm <= Δ) on a batch of m of n records.

    Replace-one relation: a batch holding the replaced record moves the sum by
    at most ``2Δ``, so the base pair is ``(N(2Δ, σ²), N(0, σ²))`` and the
    profile is that of ``(qN(2Δ, σ²) + (1 − q)N(0, σ²), N(0, σ²))``, ``q = m/n``
    (Balle et al. 2018, Thm 10; as in Wang, Balle, Kasiviswanathan 2019). The
    pessimistic remove direction of
    :meth:`~dpverify.accountants.pld.distribution.PrivacyLossDistribution.from_subsampled_gaussian`
    (sensitivity 2Δ) is symmetrised (module docstring) so the result
    dominates at every α and composes.

    **Soundness.** Upper bound; the grid's own float error bound is added to
    the mass at infinity.

    >>> pld = without_replacement_gaussian_pld(1.0, 10, 1000)
    >>> pld.symmetric
    True
    """
    sigma = check_positive(sigma, "sigma")
    sensitivity = check_positive(sensitivity, "sensitivity")
    sample_size, population_size = _check_sizes(sample_size, population_size)
    remove = PrivacyLossDistribution.from_subsampled_gaussian(
        sigma, _round_up_rate(sample_size, population_size), sensitivity=2 * sensitivity,
        value_discretization_interval=value_discretization_interval).directions[0]
    direction = _symmetrise_grid(remove)
    return PrivacyLossDistribution((direction,), DEFAULT_TAIL_MASS_TRUNCATION)


def _round_up_rate(sample_size: int, population_size: int) -> float:
    """``m/n`` rounded up to a float (a larger rate dominates)."""
    return min(1.0, round_up(Fraction(sample_size, population_size)))
