"""Amplification by sampling *without replacement* (a batch of m of n records) as a PLD.

Relation: replace-one (substitution), the only one under which a fixed batch
size is meaningful. Let ``(P, Q)`` be a dominating pair of ``M`` under
replace-one that is symmetric (``Q`` is ``P`` with the outcomes relabelled, as
for every pair of :func:`~dpverify.accountants.subsampling.dominating_pair`),
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
``M∘S`` under replace-one at every ``α``. One PLD direction suffices
(the pair is symmetric).
"""

from __future__ import annotations

from typing import Any

import mpmath

from dpverify._numeric import working_precision
from dpverify._validation import check_int_at_least, check_positive, check_positive_int, value_error
from dpverify.accountants._pld_grid import grid_from_atoms
from dpverify.accountants.pld import DEFAULT_TAIL_MASS_TRUNCATION, PrivacyLossDistribution
from dpverify.accountants.subsampling import POINTS_PER_LOSS, dominating_pair

__all__ = ["symmetric_profile_pair", "without_replacement_pld"]


def symmetric_profile_pair(first: list, second: list) -> tuple[list, list]:
    """Atoms ``(losses, masses under P*)`` of the symmetric pair whose profile (ε ≥ 0) is that of ``(first, second)``.

    ``first`` and ``second`` are mpmath pmfs over the same outcomes. The
    returned pair's trade-off curve is ``sup_{ε≥0} f_{ε, δ(ε)}`` with ``δ`` the
    profile ``H_{e^ε}(first ‖ second)`` (module docstring); losses may be
    ``±inf``.

    >>> losses, masses = symmetric_profile_pair([mpmath.mpf(3) / 4, mpmath.mpf(1) / 4],
    ...                                         [mpmath.mpf(1) / 4, mpmath.mpf(3) / 4])
    >>> [round(float(x), 4) for x in losses], [float(m) for m in masses]
    ([1.0986, -1.0986, 0.0], [0.75, 0.25, 0.0])
    """
    with working_precision():
        atoms = []
        for a, b in zip(first, second):
            if a > b:
                atoms.append((mpmath.log(a / b) if b > 0 else mpmath.inf, a, b))
        atoms.sort(key=lambda atom: -atom[0])
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
    (:func:`~dpverify.accountants.subsampling.dominating_pair`: ``PureDP``,
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
    population_size = check_positive_int(population_size, "population_size")
    sample_size = check_int_at_least(sample_size, "sample_size", 1)
    if sample_size > population_size:
        raise value_error("sample_size", sample_size, f"at most population_size ({population_size})")
    p_pair, q_pair = dominating_pair(value, sensitivity=sensitivity)
    with working_precision():
        rate = mpmath.mpf(sample_size) / population_size
        mixture = [rate * a + (1 - rate) * b for a, b in zip(p_pair, q_pair)]
        losses, masses = symmetric_profile_pair(mixture, q_pair)
        finite = [abs(loss) for loss in losses if mpmath.isfinite(loss)]
        largest = float(max(finite)) if finite else 1.0
    interval = value_discretization_interval
    if interval is None:
        interval = max(largest, 1e-12) / POINTS_PER_LOSS
    interval = check_positive(interval, "value_discretization_interval")
    with working_precision():
        inflated = [m * (1 + mpmath.mpf(10) ** -40) + mpmath.mpf(10) ** -45 for m in masses]
        keep = [(loss, m) for loss, m in zip(losses, inflated) if not (mpmath.isinf(loss) and loss < 0)]
        direction = grid_from_atoms([k[0] for k in keep], [k[1] for k in keep], interval=interval)
    return PrivacyLossDistribution((direction, direction), DEFAULT_TAIL_MASS_TRUNCATION)
