"""The reference DP-SGD's models: the per-example gradients are the loss's, checked by finite
differences (central, step 1e-6: agreement to 1e-5 relative), and the start is fixed."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.auditing._dp_sgd_networks import (
    ARCHITECTURES,
    data_block_size,
    initial_data_block,
    logits,
    per_example_gradients,
)


def _loss(architecture: str, theta: np.ndarray, x: np.ndarray, y: float, hidden: int) -> float:
    z = float(logits(architecture, theta, x[None, :], hidden)[0])
    return float(np.logaddexp(0.0, -(2 * y - 1) * z))


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(sorted(ARCHITECTURES)), st.integers(1, 5), st.integers(1, 6), st.integers(0, 2**32 - 1))
def test_per_example_gradients_are_the_logistic_losses(architecture, dimension, hidden, seed) -> None:
    rng = np.random.default_rng(seed)
    theta = rng.normal(size=data_block_size(architecture, dimension, hidden))
    features = rng.normal(size=(3, dimension))
    labels = (rng.random(3) < 0.5).astype(float)
    residuals = 1 / (1 + np.exp(-logits(architecture, theta, features, hidden))) - labels
    rows = per_example_gradients(architecture, theta, features, residuals, hidden)
    assert rows.shape == (3, theta.size)
    step = 1e-6
    for i in range(3):
        numeric = np.empty(theta.size)
        for j in range(theta.size):
            shift = np.zeros(theta.size)
            shift[j] = step
            numeric[j] = (
                _loss(architecture, theta + shift, features[i], labels[i], hidden)
                - _loss(architecture, theta - shift, features[i], labels[i], hidden)
            ) / (2 * step)
        assert np.allclose(rows[i], numeric, rtol=1e-5, atol=1e-7)


def test_sizes_and_fixed_start() -> None:
    assert data_block_size("logistic", 8, 16) == 8
    assert data_block_size("hidden_layer", 8, 16) == 16 * 8 + 2 * 16 + 1
    assert not initial_data_block("logistic", 8, 16).any()
    first = initial_data_block("hidden_layer", 8, 16)
    assert np.array_equal(first, initial_data_block("hidden_layer", 8, 16))  # public, fixed
    assert first[: 16 * 8].std() > 0.1 and not first[16 * 8 : 16 * 8 + 16].any()  # W random, b = 0
