"""Near-G-optimal designs (core sets) by Frank–Wolfe, and ζ-nets of continuous action sets.

Both linear-bandit papers (Hanna et al. 2022, Lemma 2; Li, Zhou & Ji 2022, Alg. 1 line 4) play, in
every phase, a **design** π on the active actions: a probability vector with

.. math::

    V(π) = \\sum_x π(x)\\, x x^\\top, \\qquad
    g(π) = \\max_{x} \\|x\\|^2_{V(π)^{-1}} \\le 2d,
    \\qquad |\\operatorname{supp} π| \\le 4d\\log\\log d + 16

(Kiefer–Wolfowitz: the G-optimal design has g = d; Lattimore, Szepesvári &
Weisz 2020, Prop. 3.7: a design with g <= 2d and the support bound exists;
as quoted by Li, Zhou & Ji). :func:`g_optimal_design` computes one by Frank–Wolfe on
``log det V(π)`` (whose gradient is ``‖x‖²_{V(π)^{-1}}``) with the
Fedorov–Wynn exact line-search step

.. math:: π \\leftarrow (1 - γ)π + γ e_{x_k},\\quad
          x_k = \\arg\\max_x \\|x\\|^2_{V(π)^{-1}},\\quad
          γ = \\frac{g_k/m - 1}{g_k - 1},

starting (by default) from a **sparse** design — uniform on ``m`` spanning
actions picked by pivoted Gram–Schmidt — so that the support stays small
(Hanna et al.'s uniform start π_0 gives full support: every action gets a pull), then prunes: it drops
the smallest weights one by one while ``g <= target`` still holds.

**Span** (Hanna et al., §3: 𝒜_i may span only some R^k, k <= d; Li, Zhou & Ji, Remark 2): when the actions
do not span R^d,
the design is computed in ``span(D)`` — the actions are expressed in an
orthonormal basis of their span (:func:`span_basis`, SVD with a relative
rank tolerance) and ``m = dim span(D)`` replaces ``d`` in every bound.

**Support bound reading**: ``log log d`` (natural logs) is undefined for d = 1
and negative for d < e; :func:`support_size_bound` clips it at 0, so the bound is
``⌊4d·max(ln ln d, 0) + 16⌋`` (16 for d <= e; 103 for d = 20).

ζ-nets (Hanna et al., Lemma 1; Vershynin 2018 Cor. 4.2.13): :func:`ball_net` and
:func:`sphere_net` cover the unit ball / sphere of R^d to within ζ (grid of
the cube projected back; deterministic), :func:`greedy_net` thins a finite set,
and :func:`net_size_bound` is Lemma 1's ``(3/ζ)^d + d``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpverify._deprecation import renamed_parameters, renamed_property
from dpverify._validation import (
    check_choice,
    check_in_range,
    check_positive,
    check_positive_int,
    value_error,
)

__all__ = [
    "Design",
    "g_optimal_design",
    "span_basis",
    "support_size_bound",
    "design_budget",
    "g_value",
    "ball_net",
    "sphere_net",
    "greedy_net",
    "net_size_bound",
]

#: Relative tolerance (on singular values) of the rank decision in :func:`span_basis`.
RANK_TOLERANCE = 1e-6


@renamed_parameters(d="dimension")
def design_budget(dimension: int) -> float:
    """``4d·max(ln ln d, 0) + 16``: Prop. 3.7's support bound as a real (``h_1`` of Li, Zhou & Ji 2022).

    d = ``dimension``.

    >>> round(design_budget(20), 2), design_budget(2)
    (103.78, 16.0)
    """
    d = check_positive_int(dimension, "dimension")
    loglog = math.log(math.log(d)) if d > math.e else 0.0
    return 4 * d * loglog + 16


@renamed_parameters(d="dimension")
def support_size_bound(dimension: int) -> int:
    """``⌊4d·max(ln ln d, 0) + 16⌋`` (Lattimore et al. 2020 Prop. 3.7; log log clipped at 0).

    >>> support_size_bound(2), support_size_bound(20)
    (16, 103)
    """
    return int(math.floor(design_budget(dimension)))


def _check_actions(actions: Any) -> NDArray[np.float64]:
    try:
        points = np.asarray(actions, dtype=float)
    except (TypeError, ValueError):
        raise value_error("actions", actions, "a (k, d) array of real action vectors") from None
    if points.ndim != 2 or points.shape[0] < 1 or points.shape[1] < 1 or not np.all(
            np.isfinite(points)):
        raise value_error("actions", f"<array of shape {points.shape}>",
                          "a non-empty (k, d) array of finite action vectors")
    return points


def span_basis(actions: Any, *, tolerance: float = RANK_TOLERANCE) -> NDArray[np.float64]:
    """An orthonormal basis (columns, shape ``(d, m)``) of ``span(actions)``.

    Singular values below ``tolerance × largest`` count as zero (m >= 1 unless
    every action is 0, which raises). Computed from the eigen-decomposition of
    the smaller Gram matrix (squared singular values are resolved to ~1e-16 of
    the largest, hence the default tolerance 1e-6): for k >= d the d × d matrix
    AᵀA, whose eigenvectors are the basis; for k < d the k × k matrix AAᵀ = UΛUᵀ,
    whose kept eigenvectors give the basis as the orthonormalised (QR) columns of
    AᵀU — the same span, in O(k²d) time and O(kd) memory instead of O(d³) and
    O(d²) (a few actions in 10^4 dimensions).

    >>> span_basis([[1.0, 0.0, 0.0], [2.0, 0.0, 0.0]]).shape
    (3, 1)
    """
    points = _check_actions(actions)
    wide = points.shape[0] < points.shape[1]
    eigenvalues, vectors = np.linalg.eigh(points @ points.T if wide else points.T @ points)
    eigenvalues, vectors = eigenvalues[::-1], vectors[:, ::-1]
    if eigenvalues[0] <= 0:
        raise value_error("actions", "<all zero>", "at least one non-zero action")
    rank = int(np.sum(eigenvalues > tolerance ** 2 * eigenvalues[0]))
    if wide:
        return np.linalg.qr(points.T @ vectors[:, :rank])[0]
    return vectors[:, :rank].copy()


@renamed_parameters(weights="probabilities")
def g_value(coordinates: NDArray[np.float64],
            probabilities: NDArray[np.float64]) -> NDArray[np.float64]:
    """``‖x‖²_{V(π)^{-1}}`` for every row ``x`` of ``coordinates`` (V must be invertible);
    π = ``probabilities``, the design's probability of each row."""
    matrix = (coordinates * probabilities[:, None]).T @ coordinates
    inverse = np.linalg.inv(matrix)
    if not np.all(np.isfinite(inverse)):
        raise np.linalg.LinAlgError("singular design matrix")
    return ((coordinates @ inverse) * coordinates).sum(axis=1)


@renamed_parameters(g="g_value", weights="probabilities")
@dataclass(frozen=True, eq=False)
class Design:
    """A design π on ``k`` actions, computed in their span.

    ``probabilities`` (π) has length k (zeros off the support); ``support`` the indices
    with positive weight (increasing); ``g_value`` the achieved
    ``g(π) = max ‖x‖²_{V(π)^{-1}}``;
    ``dimension`` m = dim span; ``basis`` the ``(d, m)`` orthonormal basis;
    ``iterations`` the Frank–Wolfe steps taken.
    """

    probabilities: NDArray[np.float64] = field(repr=False)
    support: NDArray[np.int64] = field(repr=False)
    g_value: float
    dimension: int
    basis: NDArray[np.float64] = field(repr=False)
    iterations: int

    # the old spellings, read-only, for one release
    g = renamed_property("g", "g_value")
    weights = renamed_property("weights", "probabilities")

    @property
    def support_size(self) -> int:
        return int(self.support.size)


def _sparse_start(coordinates: NDArray[np.float64]) -> NDArray[np.float64]:
    """Uniform on m actions chosen greedily by largest residual norm (pivoted Gram–Schmidt)."""
    k, m = coordinates.shape
    residual = coordinates.copy()
    weights = np.zeros(k)
    for _ in range(m):
        pick = int(np.argmax(np.einsum("ij,ij->i", residual, residual)))
        direction = residual[pick] / np.linalg.norm(residual[pick])
        residual -= np.outer(residual @ direction, direction)
        weights[pick] = 1.0 / m
    return weights


def _prune(coordinates: NDArray[np.float64], weights: NDArray[np.float64], target: float
           ) -> NDArray[np.float64]:
    """Drop the smallest weights one at a time while ``g <= target`` still holds."""
    m = coordinates.shape[1]
    while True:
        support = np.flatnonzero(weights)
        if support.size <= m:
            return weights
        smallest = support[np.argmin(weights[support])]
        trial = weights.copy()
        trial[smallest] = 0.0
        trial /= trial.sum()
        try:
            if g_value(coordinates, trial).max() > target:
                return weights
        except (np.linalg.LinAlgError, ValueError):
            return weights
        weights = trial


def g_optimal_design(actions: Any, *, factor: float = 2.0, start: str = "sparse",
                     prune: bool = True, max_iterations: int = 100_000) -> Design:
    """A design with ``g(π) <= factor·m`` on ``actions`` (rows), m = dim span(actions).

    Parameters
    ----------
    actions
        ``(k, d)`` array of action vectors.
    factor
        Stop when ``g <= factor·m`` (>= 1; 2 is Prop. 3.7's; values close to 1
        approach the G-optimal g* = m of Kiefer–Wolfowitz).
    start
        ``"sparse"`` (uniform on m QR-pivoted spanning actions; small support)
        or ``"uniform"`` (Hanna et al. 2022's π_0, uniform over all actions: full support).
    prune
        Remove small weights afterwards while ``g <= factor·m`` holds.
    max_iterations
        Frank–Wolfe step limit (raises ``ValueError`` if not reached).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> points = rng.normal(size=(200, 3))
    >>> design = g_optimal_design(points)
    >>> design.g_value <= 6.0, design.support_size <= support_size_bound(3), design.dimension
    (True, True, 3)
    >>> round(float(design.probabilities.sum()), 12)
    1.0
    """
    points = _check_actions(actions)
    factor = check_in_range(factor, "factor", 1.0, math.inf, low_closed=False)
    start = check_choice(start, "start", ("sparse", "uniform"))
    max_iterations = check_positive_int(max_iterations, "max_iterations")
    basis = span_basis(points)
    coordinates = points @ basis
    k, m = coordinates.shape
    target = factor * m
    weights = _sparse_start(coordinates) if start == "sparse" else np.full(k, 1.0 / k)
    iterations = 0
    while True:
        scores = g_value(coordinates, weights)
        best = int(np.argmax(scores))
        g = float(scores[best])
        if g <= target:
            break
        if iterations >= max_iterations:
            raise value_error("max_iterations", max_iterations,
                              f"enough Frank–Wolfe steps to reach g <= {target} (g = {g:.4g})")
        step = (g / m - 1) / (g - 1)
        weights *= 1 - step
        weights[best] += step
        iterations += 1
    if prune:
        weights = _prune(coordinates, weights, target)
        g = float(g_value(coordinates, weights).max())
    weights = np.where(weights > 0, weights, 0.0)
    weights /= weights.sum()
    support = np.flatnonzero(weights).astype(np.int64)
    return Design(weights, support, g, m, basis, iterations)


# --------------------------------------------------------------------------- ζ-nets


@renamed_parameters(d="dimension")
def net_size_bound(dimension: int, zeta: float) -> float:
    """Hanna et al. 2022, Lemma 1: a ζ-net of the unit ball with ``<= (3/ζ)^d + d`` points (spanning).

    d = ``dimension``.

    >>> net_size_bound(2, 0.5)
    38.0
    """
    d = check_positive_int(dimension, "dimension")
    zeta = check_in_range(zeta, "zeta", 0.0, 1.0, low_closed=False)
    return (3.0 / zeta) ** d + d


def _cube_grid(d: int, spacing: float) -> NDArray[np.float64]:
    count = int(math.ceil(1.0 / spacing))
    ticks = (np.arange(-count, count + 1) * spacing).clip(-1.0, 1.0)
    if d * math.log(ticks.size) > math.log(5e6):
        raise value_error("zeta", spacing, f"coarse enough for a grid in d={d} (over 5e6 points)")
    return np.stack(np.meshgrid(*[ticks] * d, indexing="ij"), axis=-1).reshape(-1, d)


@renamed_parameters(d="dimension")
def ball_net(dimension: int, zeta: float) -> NDArray[np.float64]:
    """A ζ-net of the unit ball of R^d: every ``‖x‖ <= 1`` is within ζ of a net point.

    d = ``dimension``.

    The cube grid of spacing ``2ζ/√d`` (every point within ζ of a grid node),
    keeping nodes within ζ of the ball, projected onto the ball (projection on
    a convex set does not increase distances to its points). Deterministic;
    for small d (the grid has ``(√d/ζ + 1)^d`` nodes).

    >>> net = ball_net(2, 0.25)
    >>> bool(np.all(np.linalg.norm(net, axis=1) <= 1 + 1e-12)), len(net) <= net_size_bound(2, 0.25)
    (True, True)
    """
    d = check_positive_int(dimension, "dimension")
    zeta = check_in_range(zeta, "zeta", 0.0, 1.0, low_closed=False)
    grid = _cube_grid(d, 2 * zeta / math.sqrt(d))
    norms = np.linalg.norm(grid, axis=1)
    grid, norms = grid[norms <= 1 + zeta], norms[norms <= 1 + zeta]
    return np.unique(grid / np.maximum(norms, 1.0)[:, None], axis=0)


@renamed_parameters(d="dimension")
def sphere_net(dimension: int, zeta: float) -> NDArray[np.float64]:
    """A ζ-net of the unit sphere of R^d (unit vectors; every unit x within ζ of one).

    d = ``dimension``.

    d = 2: ``⌈π/(2 asin(ζ/2))⌉`` equally spaced angles (chord to the nearest <= ζ).
    d >= 3: cube grid of spacing ``ζ/√d`` (grid node within ζ/2 of x),
    nodes within ζ/2 of the sphere, normalised (``‖g/‖g‖ − x‖ <= 2‖g − x‖``).

    >>> net = sphere_net(2, 0.1)
    >>> bool(np.allclose(np.linalg.norm(net, axis=1), 1.0)), len(net)
    (True, 32)
    """
    d = check_positive_int(dimension, "dimension")
    zeta = check_in_range(zeta, "zeta", 0.0, 1.0, low_closed=False)
    if d == 1:
        return np.array([[-1.0], [1.0]])
    if d == 2:
        count = int(math.ceil(math.pi / (2 * math.asin(zeta / 2)))) if zeta < 2 else 3
        angles = 2 * math.pi * np.arange(count) / count
        return np.column_stack([np.cos(angles), np.sin(angles)])
    grid = _cube_grid(d, zeta / math.sqrt(d))
    norms = np.linalg.norm(grid, axis=1)
    keep = np.abs(norms - 1.0) <= zeta / 2
    return np.unique(grid[keep] / norms[keep, None], axis=0)


def greedy_net(points: Any, zeta: float) -> NDArray[np.int64]:
    """Indices of a ζ-net of a finite set (greedy: keep a point unless one kept is within ζ).

    Every point is within ζ of a kept one. ``O(k·|net|)`` distance evaluations.

    >>> greedy_net([[0.0, 0.0], [0.05, 0.0], [1.0, 0.0]], 0.1).tolist()
    [0, 2]
    """
    cloud = _check_actions(points)
    zeta = check_positive(zeta, "zeta")
    kept: list[int] = []
    centres = np.empty_like(cloud)  # the kept points, filled in order (no re-allocation)
    for index, point in enumerate(cloud):
        if kept and np.min(np.linalg.norm(centres[:len(kept)] - point, axis=1)) <= zeta:
            continue
        centres[len(kept)] = point
        kept.append(index)
    return np.asarray(kept, dtype=np.int64)
