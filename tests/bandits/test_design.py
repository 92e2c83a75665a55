"""Near-G-optimal designs and ζ-nets (dpverify.bandits.design)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.bandits.design import (
    ball_net,
    design_budget,
    g_optimal_design,
    g_value,
    greedy_net,
    net_size_bound,
    span_basis,
    sphere_net,
    support_size_bound,
)


@st.composite
def action_sets(draw):
    d = draw(st.integers(1, 6))
    rank = draw(st.integers(1, d))
    k = draw(st.integers(rank, 60))
    seed = draw(st.integers(0, 2 ** 32 - 1))
    rng = np.random.default_rng(seed)
    points = rng.normal(size=(k, rank)) @ np.linalg.qr(rng.normal(size=(d, d)))[0][:rank]
    points /= np.maximum(np.linalg.norm(points, axis=1, keepdims=True), 1e-12)
    return points, rank


@settings(max_examples=60, deadline=None)
@given(action_sets())
def test_design_reaches_g_at_most_2m_with_small_support(case):
    points, rank = case
    design = g_optimal_design(points)
    assert design.dimension == rank  # worked in span(D)
    coordinates = points @ design.basis
    g = g_value(coordinates, design.probabilities).max()
    assert g <= 2 * rank * (1 + 1e-9) and abs(g - design.g_value) <= 1e-6 * g
    assert g >= rank * (1 - 1e-9)  # Σ π(x)‖x‖² = trace = m, so max >= m
    assert design.support_size <= support_size_bound(rank)
    assert np.all(design.probabilities >= 0) and math.isclose(design.probabilities.sum(), 1.0)
    assert set(np.flatnonzero(design.probabilities)) == set(design.support.tolist())


@pytest.mark.parametrize("d", [2, 3, 5])
def test_kiefer_wolfowitz_g_star_equals_d(d):
    # the standard basis plus random points: the G-optimal value is d (Kiefer–Wolfowitz)
    rng = np.random.default_rng(d)
    points = np.vstack([np.eye(d), rng.normal(size=(30, d)) / math.sqrt(3 * d)])
    design = g_optimal_design(points, factor=1.0005)
    assert d * (1 - 1e-9) <= design.g_value <= 1.0005 * d


def test_orthonormal_basis_design_is_uniform():
    design = g_optimal_design(np.eye(4), factor=1.0001)
    assert np.allclose(design.probabilities, 0.25) and math.isclose(design.g_value, 4.0)


def test_span_is_used_when_actions_do_not_span():
    rng = np.random.default_rng(0)
    plane = rng.normal(size=(40, 2)) @ np.array([[1.0, 0, 0, 0, 0], [0, 0, 1.0, 0, 0]])
    assert span_basis(plane).shape == (5, 2)
    design = g_optimal_design(plane)
    assert design.dimension == 2 and design.g_value <= 4.0


def test_uniform_start_without_pruning_keeps_full_support():
    rng = np.random.default_rng(1)
    points = rng.normal(size=(50, 3))
    assert g_optimal_design(points, start="uniform", prune=False).support_size == 50
    assert g_optimal_design(points).support_size < 50


def test_support_bound_reading():
    assert support_size_bound(1) == support_size_bound(2) == 16  # log log d clipped at 0
    assert math.isclose(design_budget(20), 4 * 20 * math.log(math.log(20)) + 16)
    assert support_size_bound(20) == 103


@pytest.mark.parametrize("net, d, zeta", [(ball_net, 2, 0.2), (ball_net, 3, 0.5),
                                          (sphere_net, 2, 0.05), (sphere_net, 3, 0.4)])
def test_nets_cover(net, d, zeta):
    points = net(d, zeta)
    rng = np.random.default_rng(7)
    probes = rng.normal(size=(3000, d))
    probes /= np.linalg.norm(probes, axis=1, keepdims=True)
    if net is ball_net:
        probes *= rng.random((3000, 1)) ** (1 / d)
        assert np.all(np.linalg.norm(points, axis=1) <= 1 + 1e-12)
    else:
        assert np.allclose(np.linalg.norm(points, axis=1), 1.0)
    distances = np.min(np.linalg.norm(probes[:, None, :] - points[None], axis=2), axis=1)
    assert distances.max() <= zeta
    if net is ball_net:
        assert len(points) <= net_size_bound(d, zeta)


def test_greedy_net_covers_and_separates():
    rng = np.random.default_rng(3)
    cloud = rng.normal(size=(400, 2))
    kept = greedy_net(cloud, 0.3)
    centres = cloud[kept]
    assert np.min(np.linalg.norm(cloud[:, None] - centres[None], axis=2), axis=1).max() <= 0.3
    gaps = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    assert gaps[np.triu_indices(len(kept), 1)].min() > 0.3


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 8), st.integers(0, 30), st.integers(0, 2 ** 32 - 1))
def test_a_few_actions_in_many_dimensions_span_the_same_space(rank, extra, seed):
    """k < d uses the k × k Gram matrix (O(k²d), not O(d³)): the basis is orthonormal and its
    projector equals the d × d path's (the actions stacked under zero rows, k >= d)."""
    rng = np.random.default_rng(seed)
    k, d = rank + extra // 3, rank + extra + 1 + extra // 3
    points = rng.normal(size=(k, rank)) @ np.linalg.qr(rng.normal(size=(d, d)))[0][:rank]
    basis = span_basis(points)
    tall = span_basis(np.vstack([points, np.zeros((d, d))]))   # same span, k >= d
    assert basis.shape == tall.shape == (d, rank)
    np.testing.assert_allclose(basis.T @ basis, np.eye(rank), atol=1e-12)
    np.testing.assert_allclose(basis @ basis.T, tall @ tall.T, atol=1e-8)
    np.testing.assert_allclose(points @ basis @ basis.T, points, atol=1e-10)


def test_three_actions_in_ten_thousand_dimensions_need_no_d_by_d_matrix():
    points = np.random.default_rng(3).normal(size=(3, 10**4))
    points[2] = points[0] - 2 * points[1]
    basis = span_basis(points)                    # the d × d path needed 800 MB here
    assert basis.shape == (10**4, 2)
    np.testing.assert_allclose(points @ basis @ basis.T, points, atol=1e-10)
