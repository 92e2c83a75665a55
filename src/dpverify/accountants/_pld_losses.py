"""Discretised privacy losses of specific mechanisms, for :mod:`dpverify.accountants.pld`.

Each function returns pessimistic :class:`~dpverify.accountants._pld_grid.LossGrid`
values whose survival function dominates the exact loss's (``docs/proofs/pld.md``, §2).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np
from scipy.special import ndtr, ndtri

from dpverify._numeric import working_precision
from dpverify._validation import check_nonnegative, value_error
from dpverify.accountants._pld_grid import LossGrid, grid_from_survival
from dpverify.errors import DpverifyTypeError

__all__ = [
    "gaussian_grid",
    "laplace_grid",
    "subsampled_gaussian_grids",
    "pmf_items",
    "check_normalised",
    "pmf_loss_atoms",
]

#: Relative inflation of survival values from scipy's ``ndtr``/``exp`` (assumed error <= 1e-12).
_SURVIVAL_SLACK = 1e-10


def gaussian_grid(mu: float, interval: float, tail: float) -> LossGrid:
    """Loss ``N(μ²/2, μ²)`` of ``N(0, 1)`` vs ``N(μ, 1)``: ``S(t) = Φ̄((t − μ²/2)/μ)``."""
    mean, z_tail = mu * mu / 2, -float(ndtri(tail))

    def survival(indices: np.ndarray, t: np.ndarray) -> np.ndarray:
        z = (t - mean) / mu
        z = z - 1e-12 * (1 + (np.abs(t) + mean) / mu + np.abs(z))  # z̃ <= z: S̃ >= S
        return ndtr(-z) * (1 + _SURVIVAL_SLACK)

    return grid_from_survival(survival, lower_index=math.floor((mean - z_tail * mu) / interval),
                              upper_index=math.ceil((mean + z_tail * mu) / interval),
                              interval=interval)


def laplace_grid(sensitivity: float, scale: float, interval: float) -> LossGrid:
    """Loss of ``Lap(0, b)`` vs ``Lap(Δ, b)``: ``S(t) = 1 − e^{−(ε0 − t)/2}/2`` on ``[−ε0, ε0)``.

    The atoms at ±ε0 decide which grid points have ``S = 1`` or ``S = 0``;
    those thresholds are found in exact rational arithmetic, so an ε0 that
    is a grid point stays one.
    """
    epsilon_0 = Fraction(sensitivity) / Fraction(scale)
    top = math.ceil(epsilon_0 / Fraction(interval))       # first i with i h >= ε0: S = 0
    bottom = math.ceil(-epsilon_0 / Fraction(interval))   # first i with i h >= −ε0
    above = math.nextafter(float(epsilon_0), math.inf)

    def survival(indices: np.ndarray, t: np.ndarray) -> np.ndarray:
        inside = 1 - 0.5 * np.exp(-(above - np.minimum(t, above)) / 2)
        values = np.where(indices < bottom, 1.0, np.where(indices >= top, 0.0, inside))
        return values * (1 + _SURVIVAL_SLACK)

    return grid_from_survival(survival, lower_index=bottom - 1, upper_index=top,
                              interval=interval)


class _MixtureLoss:
    """``L(y) = ln(1 − q + q e^{μ y − μ²/2})``: loss of ``(1−q)N(0,1) + qN(μ,1)`` vs ``N(0,1)``."""

    def __init__(self, q: float, mu: float) -> None:
        self.q, self.mu, self.shift = q, mu, mu * mu / 2
        self.log_q, self.log_1m_q = math.log(q), math.log1p(-q)

    def forward(self, y: np.ndarray) -> np.ndarray:
        with np.errstate(over="ignore"):
            return np.logaddexp(self.log_1m_q, self.log_q + self.mu * y - self.shift)

    def forward_error(self, y: np.ndarray) -> np.ndarray:
        """Generous bound (≈ 100× the rounding analysis) on the float error of :meth:`forward`."""
        finite_y = np.where(np.isfinite(y), np.abs(y), 0.0)
        return 1e-13 * (1 + abs(self.log_q) + self.mu * finite_y + self.shift)

    def inverse(self, loss: np.ndarray) -> np.ndarray:
        """Float estimate of the y with ``L(y) = loss`` (``-inf`` below ``ln(1 − q)``)."""
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            ratio = np.maximum(np.expm1(loss) / self.q, -1.0)
            return (np.log1p(ratio) + self.shift) / self.mu

    def verified_bound(self, loss: np.ndarray, *, upper: bool) -> np.ndarray:
        """A y proven (under the float model) to be >= (upper) or <= (lower) ``L⁻¹(loss)``.

        Starting from the float inverse, the margin is multiplied by 4 until
        the forward map, with its error bound, certifies the side; what never
        certifies becomes ``±inf`` (the pessimistic extreme).
        """
        sign = 1.0 if upper else -1.0
        result = np.full(np.shape(loss), sign * np.inf)
        pending = np.arange(result.size)
        start = np.maximum(self.inverse(loss), -40.0)
        margin = 1e-9 * (1 + np.abs(start))
        for _ in range(64):
            candidate = start[pending] + sign * margin[pending]
            value, slack = self.forward(candidate), self.forward_error(candidate)
            target = loss[pending]
            certified = value - slack >= target if upper else value + slack <= target
            result[pending[certified]] = candidate[certified]
            pending = pending[~certified]
            if not len(pending):
                break
            margin[pending] *= 4
        return result


def subsampled_gaussian_grids(mu: float, q: float, interval: float,
                               tail: float) -> tuple[LossGrid, LossGrid]:
    """Remove direction (mixture vs N(0,1)) and add direction (N(0,1) vs mixture)."""
    loss, z_tail = _MixtureLoss(q, mu), -float(ndtri(tail))

    def remove_survival(indices: np.ndarray, t: np.ndarray) -> np.ndarray:  # P(L > t) = P_mix(Y > L⁻¹(t))
        y = loss.verified_bound(t, upper=False)
        return ((1 - q) * ndtr(-y) + q * ndtr(mu - y)) * (1 + _SURVIVAL_SLACK)

    def add_survival(indices: np.ndarray, t: np.ndarray) -> np.ndarray:  # P(−L > t) = P_N(0,1)(Y < L⁻¹(−t))
        return ndtr(loss.verified_bound(-t, upper=True)) * (1 + _SURVIVAL_SLACK)

    top = float(loss.forward(np.array(mu + z_tail))) + 1e-9
    remove = grid_from_survival(remove_survival, interval=interval,
                                lower_index=math.floor(loss.log_1m_q / interval) - 1,
                                upper_index=math.ceil(top / interval))
    bottom = -float(loss.forward(np.array(z_tail))) - 1e-9
    add = grid_from_survival(add_survival, interval=interval,
                             lower_index=math.floor(bottom / interval),
                             upper_index=math.ceil(-loss.log_1m_q / interval) + 1)
    return remove, add


def pmf_items(pmf: Any, name: str) -> dict[Any, float]:
    """Validate a pmf (1-D array-like or dict outcome -> probability) into a dict."""
    if isinstance(pmf, Mapping):
        items = dict(pmf)
    elif isinstance(pmf, (str, bytes)) or np.ndim(pmf) != 1:
        raise DpverifyTypeError(f"{name}={pmf!r} must be a 1-D array-like or a dict of probabilities")
    else:
        items = dict(enumerate(pmf))
    if not items:
        raise value_error(name, pmf, "non-empty")
    return {key: check_nonnegative(value, f"{name}[{key!r}]") for key, value in items.items()}


def check_normalised(items: dict[Any, float], name: str) -> None:
    total = math.fsum(items.values())
    if not abs(total - 1.0) <= 1e-9:
        raise value_error(name, f"<pmf summing to {total!r}>", "a pmf summing to 1 (within 1e-9)")


def pmf_loss_atoms(first: dict, second: dict) -> tuple[list, list]:
    """Exact (mpmath) losses ``ln(first/second)`` and masses ``first`` over first's support."""
    with working_precision():
        losses, masses = [], []
        for key, mass in first.items():
            if mass > 0:
                other = mpmath.mpf(second[key])
                losses.append(mpmath.log(mpmath.mpf(mass) / other) if other > 0 else mpmath.inf)
                masses.append(mpmath.mpf(mass))
        return losses, masses
