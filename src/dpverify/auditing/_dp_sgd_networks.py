"""The reference DP-SGD's models: logistic regression, or a network with one hidden layer.

Both models map a record's features ``x ∈ R^d`` to a logit; the training loss is
the logistic loss ``ln(1 + e^{−(2y − 1) z})``, whose derivative in the logit is the
residual ``σ(z) − y``. The parameters of the **data block** (the model the data
train) are a flat vector ``θ``:

* ``"logistic"`` — ``z = ⟨θ, x⟩`` (``d`` parameters);
* ``"hidden_layer"`` — ``z = ⟨v, tanh(W x + b)⟩ + c`` with ``W ∈ R^{h×d}``,
  ``b, v ∈ R^h``, ``c ∈ R`` (``θ = (W, b, v, c)``, ``h d + 2h + 1`` parameters).

Per-example gradients (Abadi et al. 2016, Alg. 1 needs each example's gradient to
clip it) are rows of a ``(batch, size)`` matrix, vectorised over the batch by the
chain rule: with ``H = tanh(W x + b)`` and residual ``r``,
``∂z/∂v = H``, ``∂z/∂c = 1``, ``∂z/∂b = v ⊙ (1 − H²)``, ``∂z/∂W = (v ⊙ (1 − H²)) xᵀ``.

The hidden layer starts from a fixed draw (:data:`INITIAL_SEED`): the start is public
and the same in every run, as the data are.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["ARCHITECTURES", "INITIAL_SEED", "data_block_size", "initial_data_block", "logits", "per_example_gradients"]

#: The models and what each is.
ARCHITECTURES: dict[str, str] = {
    "logistic": "logistic regression: logit <theta, x>",
    "hidden_layer": "one hidden tanh layer: logit <v, tanh(W x + b)> + c",
}
#: Seed of the hidden layer's fixed starting point.
INITIAL_SEED = 20231129


def data_block_size(architecture: str, dimension: int, hidden_units: int) -> int:
    """Number of parameters of the data block (``d``, or ``h d + 2h + 1``)."""
    if architecture == "logistic":
        return dimension
    return hidden_units * dimension + 2 * hidden_units + 1


def _unpack(theta: np.ndarray, dimension: int, hidden_units: int):
    h, d = hidden_units, dimension
    weights = theta[: h * d].reshape(h, d)
    return weights, theta[h * d : h * d + h], theta[h * d + h : h * d + 2 * h], theta[-1]


def initial_data_block(architecture: str, dimension: int, hidden_units: int) -> np.ndarray:
    """The start: zeros for logistic regression; for the hidden layer ``W`` with entries
    ``N(0, 1/d)``, ``v`` with entries ``N(0, 1/h)`` and ``b = 0``, ``c = 0`` (a fixed draw)."""
    size = data_block_size(architecture, dimension, hidden_units)
    theta = np.zeros(size)
    if architecture == "hidden_layer":
        rng = np.random.default_rng(INITIAL_SEED)
        h, d = hidden_units, dimension
        theta[: h * d] = rng.normal(0.0, 1.0 / math.sqrt(d), h * d)
        theta[h * d + h : h * d + 2 * h] = rng.normal(0.0, 1.0 / math.sqrt(h), h)
    return theta


def logits(architecture: str, theta: np.ndarray, features: np.ndarray, hidden_units: int) -> np.ndarray:
    """The data block's logit of each row of ``features``."""
    if architecture == "logistic":
        return features @ theta
    weights, bias, output, offset = _unpack(theta, features.shape[1], hidden_units)
    return np.tanh(features @ weights.T + bias) @ output + offset


def per_example_gradients(
    architecture: str, theta: np.ndarray, features: np.ndarray, residuals: np.ndarray, hidden_units: int
) -> np.ndarray:
    """``(batch, size)``: row i is ``residuals[i] · ∂z/∂θ`` at ``features[i]`` (the chain rule above)."""
    if architecture == "logistic":
        return residuals[:, None] * features
    batch, dimension = features.shape
    weights, bias, output, _ = _unpack(theta, dimension, hidden_units)
    hidden = np.tanh(features @ weights.T + bias)  # (batch, h)
    pre = residuals[:, None] * output[None, :] * (1.0 - hidden * hidden)  # ∂loss/∂(W x + b)
    rows = np.empty((batch, data_block_size(architecture, dimension, hidden_units)))
    h = hidden_units
    rows[:, : h * dimension] = (pre[:, :, None] * features[:, None, :]).reshape(batch, h * dimension)
    rows[:, h * dimension : h * dimension + h] = pre
    rows[:, h * dimension + h : h * dimension + 2 * h] = residuals[:, None] * hidden
    rows[:, -1] = residuals
    return rows
