"""Composition plans of :class:`~dpverify.accountants.pld.distribution.PrivacyLossDistribution` values.

A composed PLD remembers its *recipe*: the base mechanisms (PLDs built by a
constructor) and how many times each is composed. Compositions of
compositions are flattened into one recipe (one FFT over the base grids), and
a query that needs more precision than the eager grid has recomputes the
recipe with smaller tails and an exponential tilt (``docs/proofs/pld.md``, §6).
The functions here work on any object with the PLD attributes
(``directions``, ``value_discretization_interval``, ``tail_mass_truncation``,
``recipe``, ``rebuild``), so this module does not import :mod:`.distribution`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from dpverify.accountants.pld._fft import choose_tilt, compose_grids
from dpverify.accountants.pld._grid import LossGrid, lattice_factor, on_lattice, spread

__all__ = ["flatten", "common_interval", "compose_directions", "refined_directions"]


def flatten(factors: Sequence[tuple[Any, int]]) -> list[tuple[Any, int]]:
    """``(base PLD, count)`` pairs: compositions replaced by their recipes, counts multiplied.

    The same base object given several times is one factor with the summed count.
    """
    flat: dict[int, list] = {}
    for pld, count in factors:
        for base, inner in (pld.recipe or ((pld, 1),)):
            flat.setdefault(id(base), [base, 0])[1] += inner * count
    return [(base, count) for base, count in flat.values()]


def common_interval(factors: Sequence[tuple[Any, int]]) -> float:
    """Grid spacing of a composition: the coarsest among the factors composed most often.

    The many-fold factor keeps its own grid (no regridding error multiplied by
    its count); finer factors are spread onto it connect-the-dots, coarser
    ones moved up to it.
    """
    most = max(count for _, count in factors)
    return max(pld.value_discretization_interval for pld, count in factors if count == most)


def _grids(factors: Sequence[tuple[Any, int]], direction: int, interval: float) -> list[LossGrid]:
    """Each factor's grid for ``direction`` on the common spacing (a symmetric PLD serves both),
    then on the coarsest lattice every factor's masses lie on (:func:`~._grid.on_lattice`: exact)."""
    grids = [spread(pld.directions[min(direction, len(pld.directions) - 1)], interval)
             for pld, _ in factors]
    factor = min(lattice_factor(grid) for grid in grids)
    return [on_lattice(grid, factor) for grid in grids]


def compose_directions(factors: Sequence[tuple[Any, int]], tail: float) -> tuple[LossGrid, ...]:
    """The eager composition (no tilt) of flattened factors, direction by direction."""
    interval = common_interval(factors)
    counts = [k for _, k in factors]
    count = max(len(pld.directions) for pld, _ in factors)
    return tuple(compose_grids(_grids(factors, d, interval), counts, tail=tail) for d in range(count))


def refined_directions(factors: Sequence[tuple[Any, int]], tail_truncation: float, *,
                       epsilon: float | None = None, delta: float | None = None,
                       ) -> tuple[tuple[LossGrid, ...], float]:
    """The composition recomputed for a δ(ε) query (``epsilon``) or an ε(δ) query (``delta``).

    The base mechanisms are rebuilt with tails cut below ``1e-8`` of the δ in
    question over all compositions (for a δ query: of its Chernoff estimate),
    and each direction is composed with the tilt minimising Chernoff's bound
    for the query. Returns the grids and the tail truncation used.
    """
    total = sum(count for _, count in factors)
    interval = common_interval(factors)
    counts = [count for _, count in factors]
    directions = max(len(pld.directions) for pld, _ in factors)
    if delta is None:
        level = max(math.exp(max(-700.0, choose_tilt(_grids(factors, d, interval), counts,
                                                      epsilon=epsilon)[1]))
                    for d in range(directions))
    else:
        level = delta
    tail = min(tail_truncation, max(1e-300, 1e-8 * level / (total + 1)))
    rebuilt = [(pld.rebuild(tail_mass_truncation=tail) if pld.rebuild else pld, count)
               for pld, count in factors]
    out = []
    for d in range(directions):
        grids = _grids(rebuilt, d, interval)
        if len(grids) == 1 and counts[0] == 1:
            out.append(grids[0])
            continue
        tilt, _ = choose_tilt(grids, counts, epsilon=epsilon, delta=delta)
        out.append(compose_grids(grids, counts, tail=tail, tilt=tilt))
    return tuple(out), tail
