"""Discretised privacy losses of specific mechanisms, for :mod:`dpverify.accountants.pld`.

Each function returns connect-the-dots :class:`~dpverify.accountants.pld._grid.LossGrid`
values that dominate the exact loss (``docs/proofs/pld.md``, §2): interval
masses and tilts are computed in log space with explicit error bounds, and
every uncertainty is resolved by moving mass up or adding mass.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np
from numpy.typing import NDArray
from scipy.special import log_ndtr, ndtri

from dpverify._numeric import working_precision
from dpverify._validation import check_nonnegative, value_error
from dpverify.accountants.pld._grid import (
    IntervalLaw,
    LossGrid,
    check_grid_size,
    connect_the_dots,
    grid_from_atoms,
)
from dpverify.errors import DpverifyTypeError

__all__ = [
    "SubsampledGaussian",
    "ReplaceSubsampledGaussian",
    "monotone_grid",
    "interval_law_from_cdfs",
    "interval_law_from_masses",
    "laplace_grid",
    "bounded_range_grid",
    "pmf_items",
    "check_normalised",
    "pmf_loss_atoms",
]

FloatArray = NDArray[np.float64]
_U = 2.0 ** -53
#: Safety factor on error bounds that are themselves evaluated in floats.
_SAFETY = 2.0
#: Assumption: |fl(log_ndtr(z)) − ln Φ(z)| <= 1e-13 + 1e-14 |ln Φ(z)| (checked against
#: mpmath at 40 digits on 20 000 points of [−1e4, 40]: the error stays below 1/19 of it).
_LOG_NDTR_ABSOLUTE = 1e-13
_LOG_NDTR_RELATIVE = 1e-14


def log_difference(log_a: FloatArray, log_b: FloatArray, error_a: FloatArray,
                   error_b: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray]:
    """``log(e^a - e^b)`` for ``a >= b``, a bound on its absolute error, and an upper bound.

    The relative error of the difference is ``error_a + c (error_a + error_b)``
    (plus rounding) with the condition number ``c = e^b / (e^a - e^b)``; it is
    ``inf`` where the two values cannot be told apart, and the upper bound then
    falls back on ``a + error_a`` (the difference is at most ``e^a``).

    The arithmetic is done in place on a few work arrays (these are 1-D arrays of tens of
    thousands of entries, four per subsampled-Gaussian PLD), operation for operation that of
    ``gap = min(b − a, 0)`` (``−inf`` where NaN), ``1 − e^gap = −expm1(gap)``,
    ``value = a + ln(1 − e^gap)``, ``c = e^gap / (1 − e^gap)``, ``relative = error_a +
    c (error_a + error_b) + 4u (1 + c)``, ``error = relative / (1 − relative)`` (``inf``
    unless ``relative < 0.5``; ``0`` where ``a = −inf``), ``upper = value + 2 error`` (or
    ``a + 2 error_a`` where ``error`` is infinite): the same bits as the expressions
    (a test compares it with them).
    """
    log_a, log_b, error_a, error_b = np.broadcast_arrays(*(
        np.asarray(v, dtype=np.float64) for v in (log_a, log_b, error_a, error_b)))
    gap, one_minus, value, relative = (np.empty(log_a.shape) for _ in range(4))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        np.minimum(np.subtract(log_b, log_a, out=gap), 0.0, out=gap)
        gap[np.isnan(gap)] = -np.inf
        np.negative(np.expm1(gap, out=one_minus), out=one_minus)
        np.add(log_a, np.log(one_minus, out=value), out=value)
        condition = np.divide(np.exp(gap, out=gap), one_minus, out=gap)
        np.multiply(condition, np.add(error_a, error_b, out=relative), out=relative)
        np.add(error_a, relative, out=relative)
        relative += np.multiply(4 * _U, np.add(1, condition, out=condition), out=condition)
        error = np.divide(relative, np.subtract(1, relative, out=one_minus), out=condition)
        error[~(relative < 0.5)] = np.inf
        error[np.isneginf(log_a)] = 0.0
        fallback = ~np.isfinite(error)
        upper = np.add(value, np.multiply(_SAFETY, error, out=relative), out=relative)
        upper[fallback] = log_a[fallback] + _SAFETY * error_a[fallback]
    return value, error, upper



@dataclass(frozen=True, slots=True)
class SubsampledGaussian:
    """Privacy loss of ``P = (1-q) N(0, σ²) + q N(1, σ²)`` against ``Q = N(0, σ²)``.

    ``swapped=False`` is that pair (the record is present in P); ``swapped=True``
    is ``(Q, P)``. With q = 1 this is the Gaussian mechanism with μ = 1/σ, whose
    two orientations have the same loss law. The loss ``g(x) = log(1 - q + q
    e^{(2x-1)/(2σ²)})`` is increasing in the output x, so every loss probability
    is a normal tail at the threshold ``x(l) = g^{-1}(l)``.
    """

    sigma: float
    q: float
    swapped: bool = False

    @property
    def loss_floor(self) -> float:
        """Infimum of g (``log(1 - q)``; ``-inf`` for q = 1)."""
        return math.log1p(-self.q) if self.q < 1 else -math.inf

    def _threshold(self, g_value: FloatArray) -> tuple[FloatArray, FloatArray]:
        """x with g(x) = g_value (g_value > loss_floor), and a bound on its absolute error."""
        if self.q == 1.0:
            s2 = self.sigma ** 2
            x = s2 * g_value + 0.5
            return x, 4 * _U * (s2 * np.abs(g_value) + np.abs(x))
        return self.threshold_from_ratio(*self.log_ratio(g_value))

    def log_ratio(self, g_value: FloatArray) -> tuple[FloatArray, FloatArray]:
        """``t = ln(1 + (e^g − 1)/q)`` (so that ``x = σ² t + 1/2``) and a bound on its absolute
        error, for ``q < 1``: the part of :meth:`_threshold` that does not depend on σ (each
        entry an elementwise function of ``g_value`` and q, so noise multipliers on one grid
        share it; :func:`~dpverify.accountants.pld._poisson_gaussian.subsampled_gaussian_grids`)."""
        q = self.q
        with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
            small = g_value < 700.0
            g_small = np.where(small, g_value, 0.0)
            growth = np.expm1(g_small)   # e^g − 1, computed once
            y = growth / q
            one_plus_y = (growth + q) / q
            t_small = np.log1p(y)
            dt_small = (3 * _U * np.abs(y) + _U * np.abs(g_small) * np.exp(g_small) / q) / one_plus_y
            if small.all():   # (the usual case: no loss near e^700)
                t, dt = t_small, dt_small
            else:
                t_large = g_value - math.log(q) + np.log1p(-(1 - q) * np.exp(-g_value))
                t = np.where(small, t_small, t_large)
                dt = np.where(small, dt_small, 4 * _U * (np.abs(g_value) + abs(math.log(q)) + 1))
        return t, dt

    def threshold_from_ratio(self, t: FloatArray, dt: FloatArray) -> tuple[FloatArray, FloatArray]:
        """:meth:`_threshold` from :meth:`log_ratio`'s ``(t, dt)``: ``x = σ² t + 1/2`` and its error."""
        s2 = self.sigma ** 2
        x = s2 * t + 0.5
        return x, s2 * (dt + 2 * _U * np.abs(t)) + 2 * _U * np.abs(x)

    def _log_tails(self, x: FloatArray, dx: FloatArray, *, mixture: bool,
                   upper: bool) -> tuple[FloatArray, FloatArray]:
        """log of P[X <= x] (or P[X > x] if ``upper``) for X ~ the mixture or N(0, σ²)."""
        value, error = self.normal_log_tail(x, dx, shift=0.0, upper=upper)
        if not mixture:
            return 0.0 + value, error
        return self.mixture_log_tail(value, error, x, dx, upper=upper)

    def normal_log_tail(self, x: FloatArray, dx: FloatArray, *, shift: float,
                        upper: bool) -> tuple[FloatArray, FloatArray]:
        """log of P[X <= x] (or P[X > x] if ``upper``) for X ~ N(shift, σ²), and a bound on its
        error (x known within ``dx``; assumption: :data:`_LOG_NDTR_ABSOLUTE`, ``_RELATIVE``)."""
        # in place, operation for operation (+ and × commute exactly in floats): z = sign (x −
        # shift) / σ, dz = dx/σ + 2u|z|, error = A + R |value| + (|z| + 1) dz
        sign = -1.0 if upper else 1.0
        z = np.subtract(x, shift, dtype=np.float64)
        z *= sign
        z /= self.sigma
        value = log_ndtr(z)
        dz = np.divide(dx, self.sigma, dtype=np.float64)
        work = np.abs(z)
        work *= 2 * _U
        dz += work
        error = np.abs(value)
        error *= _LOG_NDTR_RELATIVE
        error += _LOG_NDTR_ABSOLUTE
        work = np.abs(z, out=work)
        work += 1.0
        work *= dz
        error += work
        return value, error

    def mixture_log_tail(self, plain: FloatArray, plain_error: FloatArray, x: FloatArray,
                         dx: FloatArray, *, upper: bool) -> tuple[FloatArray, FloatArray]:
        """The mixture's log tail from N(0, σ²)'s (``plain``, by :meth:`normal_log_tail` at the
        same x): ``ln((1 − q) e^plain + q e^shifted)``, and a bound on its error."""
        shifted, shifted_error = self.normal_log_tail(x, dx, shift=1.0, upper=upper)
        first = (math.log1p(-self.q) if self.q < 1 else -np.inf) + plain
        with np.errstate(invalid="ignore"):
            total = np.logaddexp(first, math.log(self.q) + shifted)
        total = np.where(np.isnan(total), -np.inf, total)
        return total, np.maximum(plain_error, shifted_error) + 4 * _U * (1 + np.abs(total))

    def log_cdfs(self, losses: FloatArray) -> dict[str, Any]:
        """log P[L <= l] below a split point, log P[L > l] from it on, the same for Q, and
        their errors at the grid ``losses``.

        Interval masses are differences of the smaller of the two tails
        (:func:`interval_law_from_cdfs`), so each tail is evaluated only where it is
        used: the lower one on ``losses[:split + 1]``, the upper one on
        ``losses[split:]``, ``split`` the first point where P's upper tail is about 1/2
        or less (the output threshold passes q, the mixture's mean, unswapped; 0,
        swapped). Any split is exact: it only chooses which difference is computed.
        """
        floor = self.loss_floor
        g = -losses if self.swapped else losses
        inside = g > floor
        x, dx = self._threshold(np.where(inside, g, floor + 1.0 if floor > -np.inf else 0.0))
        # Unswapped: L <= l  <=>  X <= x(l), X ~ mixture under P and N(0, σ²) under Q.
        # Swapped:   L <= l  <=>  X >= x(-l), X ~ N(0, σ²) under P and the mixture under Q.
        upper_half = ~inside | (x < 0.0) if self.swapped else inside & (x > self.q)
        split = int(np.argmax(upper_half)) if upper_half.any() else len(losses) - 1
        low, high = slice(0, split + 1), slice(split, len(losses))
        sides = (("P", not self.swapped), ("Q", self.swapped))
        out: dict[str, Any] = {"split": split}
        cdf_outside, sf_outside = (0.0, -np.inf) if self.swapped else (-np.inf, 0.0)
        for side, mixture in sides:
            cdf, cdf_error = self._log_tails(x[low], dx[low], mixture=mixture, upper=self.swapped)
            sf, sf_error = self._log_tails(x[high], dx[high], mixture=mixture,
                                           upper=not self.swapped)
            out[f"{side}_cdf"] = np.where(inside[low], cdf, cdf_outside)
            out[f"{side}_cdf_error"] = np.where(inside[low], cdf_error, 0.0)
            out[f"{side}_sf"] = np.where(inside[high], sf, sf_outside)
            out[f"{side}_sf_error"] = np.where(inside[high], sf_error, 0.0)
        return out

    def support_hint(self, tail_mass: float) -> tuple[float, float]:
        """Losses outside of which P has mass below ``tail_mass`` on each side (a hint only)."""
        z = -float(ndtri(tail_mass))
        if self.swapped:
            return -self._g(self.sigma * z), -self._g(-self.sigma * z)
        return self._g(-self.sigma * z), self._g(1.0 + self.sigma * z)

    def _g(self, x: float) -> float:
        exponent = (2 * x - 1) / (2 * self.sigma ** 2)
        if self.q == 1.0:
            return exponent
        return float(np.logaddexp(math.log1p(-self.q), math.log(self.q) + exponent))

    def loss_std(self) -> float:
        """Standard deviation of the loss under P, by quadrature (used to pick a grid step;
        memoised: the accountant's grid and its constructor both ask for it)."""
        return _subsampled_loss_std(self.sigma, self.q, self.swapped)


#: Points of the quadrature of :func:`_subsampled_loss_std`. The sum is the trapezoid rule for
#: a Gaussian-weighted integrand analytic in a strip, which converges geometrically: 2001 points
#: agree with 20001 to 1.2e-15 relative for σ in [0.05, 100] and q in [1e-6, 0.999] (1e-9 where
#: the std is below 1e-6 and cancellation costs digits either way; a test),
#: at a tenth of the cost (60 noise multipliers of an epoch schedule: ~0.1 s to ~0.01 s).
LOSS_STD_QUADRATURE_POINTS = 2001


@functools.lru_cache(maxsize=256)
def _subsampled_loss_std(sigma: float, q: float, swapped: bool) -> float:
    """:meth:`SubsampledGaussian.loss_std` (a pure function of its fields)."""
    if q == 1.0:
        return 1.0 / sigma
    xs = np.linspace(-12 * sigma, 1 + 12 * sigma, LOSS_STD_QUADRATURE_POINTS)
    # divided by σ twice, never by σ² (which overflows for σ > 1.3e154)
    losses = np.logaddexp(math.log1p(-q), math.log(q) + (xs - 0.5) / sigma / sigma)
    base = np.exp(-(xs / sigma) ** 2 / 2)
    shifted = np.exp(-((xs - 1) / sigma) ** 2 / 2)
    density = base if swapped else (1 - q) * base + q * shifted
    losses = -losses if swapped else losses
    weights = density / density.sum()
    mean = float(np.sum(weights * losses))
    return math.sqrt(max(float(np.sum(weights * (losses - mean) ** 2)), 1e-300))


@dataclass(frozen=True, slots=True)
class ReplaceSubsampledGaussian:
    """Poisson-subsampled Gaussian under replace-one: ``P = (1−q)N(0, σ²) + qN(1, σ²)``
    against ``Q = (1−q)N(0, σ²) + qN(−1, σ²)``.

    The pair of dp_accounting's ``REPLACE_ONE`` relation (its
    ``GaussianPrivacyLoss`` with ``AdjacencyType.REPLACE``; Zhu, Dong, Wang 2022):
    the record is in the sample w.p. q on both sides, contributing +1 or −1
    (clipped contributions differ by at most 2). The pair is its own
    reflection (``x ↦ −x`` swaps P and Q), so one direction describes both.
    With ``s = 1 − q``, ``c = q e^{−1/(2σ²)}`` and ``u = e^{x/σ²}`` the loss is
    ``g(x) = ln((s + cu)/(s + c/u))``, increasing in x, and ``g(x) = l`` solves
    ``c u² + s(1 − e^l) u − e^l c = 0``: ``u = e^l B`` with
    ``B = (s w + √(s²w² + 4c²e^{−l}))/(2c)``, ``w = 1 − e^{−l}`` for ``l ≥ 0``, and
    ``u = 2 e^l c / (s v + √(s²v² + 4c²e^l))``, ``v = 1 − e^l`` for ``l < 0``
    (sums of non-negative terms only, evaluated in log space: no cancellation).
    """

    sigma: float
    q: float
    swapped: bool = False

    @property
    def loss_floor(self) -> float:
        return -math.inf

    def _log_c(self) -> float:
        return math.log(self.q) - 1.0 / (2 * self.sigma ** 2)

    def _threshold(self, losses: FloatArray) -> tuple[FloatArray, FloatArray]:
        """x with g(x) = l, and a bound on its absolute error (relative errors of a few ulps per step)."""
        log_s = math.log1p(-self.q) if self.q < 1 else -np.inf
        log_c = self._log_c()
        with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
            positive = losses >= 0
            gap = -np.expm1(-np.abs(losses))                 # w = 1 − e^{−l} or v = 1 − e^l
            log_sw = log_s + np.log(gap)                      # ln(s w) or ln(s v)
            log_square = np.logaddexp(2 * log_sw, math.log(4) + 2 * log_c - np.abs(losses))
            log_bracket = np.logaddexp(log_sw, 0.5 * log_square)
            log_u = np.where(positive, losses + log_bracket - math.log(2) - log_c,
                             losses + math.log(2) + log_c - log_bracket)
        x = self.sigma ** 2 * log_u
        error = 64 * _U * (4 + np.abs(losses) + 4 * abs(log_c) + abs(log_s if self.q < 1 else 0.0))
        return x, self.sigma ** 2 * error + 4 * _U * np.abs(x)

    def _mixture(self) -> SubsampledGaussian:
        return SubsampledGaussian(self.sigma, self.q)

    def log_cdfs(self, losses: FloatArray) -> dict[str, FloatArray]:
        """log P[L <= l], log P[L > l], log Q[...] and their errors at the grid ``losses``."""
        x, dx = self._threshold(losses)
        mixture = self._mixture()
        p_cdf, p_cdf_error = mixture._log_tails(x, dx, mixture=True, upper=False)
        p_sf, p_sf_error = mixture._log_tails(x, dx, mixture=True, upper=True)
        # Q is P reflected: Q[X <= x] = P[X >= −x].
        q_cdf, q_cdf_error = mixture._log_tails(-x, dx, mixture=True, upper=True)
        q_sf, q_sf_error = mixture._log_tails(-x, dx, mixture=True, upper=False)
        return {"P_cdf": p_cdf, "P_sf": p_sf, "P_error": np.maximum(p_cdf_error, p_sf_error),
                "Q_cdf": q_cdf, "Q_sf": q_sf, "Q_error": np.maximum(q_cdf_error, q_sf_error)}

    def _g(self, x: float) -> float:
        log_s = math.log1p(-self.q) if self.q < 1 else -math.inf
        log_c = self._log_c()
        scaled = x / self.sigma ** 2
        return float(np.logaddexp(log_s, log_c + scaled) - np.logaddexp(log_s, log_c - scaled))

    def support_hint(self, tail_mass: float) -> tuple[float, float]:
        """Losses outside of which P has mass below ``tail_mass`` on each side (a hint only)."""
        z = -float(ndtri(tail_mass))
        return self._g(-self.sigma * z), self._g(1.0 + self.sigma * z)

    def loss_std(self) -> float:
        """Standard deviation of the loss under P, by quadrature (used to pick a grid step)."""
        xs = np.linspace(-12 * self.sigma - 1, 1 + 12 * self.sigma, 20001)
        base = np.exp(-xs ** 2 / (2 * self.sigma ** 2))
        shifted = np.exp(-(xs - 1) ** 2 / (2 * self.sigma ** 2))
        density = (1 - self.q) * base + self.q * shifted
        losses = np.array([self._g(x) for x in xs[::20]])
        weights = density[::20] / density[::20].sum()
        mean = float(np.sum(weights * losses))
        return math.sqrt(max(float(np.sum(weights * (losses - mean) ** 2)), 1e-300))


def interval_law_from_cdfs(cdfs: dict[str, Any], losses: FloatArray) -> IntervalLaw:
    """Interval masses and tilts from log-cdfs at consecutive grid points (upper tails where small).

    With a ``split`` (:meth:`SubsampledGaussian.log_cdfs`) the intervals below it are
    differences of lower tails and the others of upper tails; without one, the upper
    tails are used where P's is below 1/2.
    """
    log_half = math.log(0.5)
    parts = {}
    for side in ("P", "Q"):
        cdf, sf = cdfs[f"{side}_cdf"], cdfs[f"{side}_sf"]
        if "split" in cdfs:
            cdf_error, sf_error = cdfs[f"{side}_cdf_error"], cdfs[f"{side}_sf_error"]
            from_cdf = log_difference(cdf[1:], cdf[:-1], cdf_error[1:], cdf_error[:-1])
            from_sf = log_difference(sf[:-1], sf[1:], sf_error[:-1], sf_error[1:])
            parts[side] = tuple(np.concatenate((a, b)) for a, b in zip(from_cdf, from_sf))
            continue
        error = cdfs[f"{side}_error"]
        from_sf = log_difference(sf[:-1], sf[1:], error[:-1], error[1:])
        from_cdf = log_difference(cdf[1:], cdf[:-1], error[1:], error[:-1])
        use_sf = sf[:-1] < log_half
        parts[side] = tuple(np.where(use_sf, a, b) for a, b in zip(from_sf, from_cdf))
    return interval_law_from_masses(parts["P"], parts["Q"], losses)


def interval_law_from_masses(p_masses: tuple[FloatArray, FloatArray, FloatArray],
                             q_masses: tuple[FloatArray, FloatArray, FloatArray],
                             losses: FloatArray) -> IntervalLaw:
    """The :class:`IntervalLaw` on the intervals between consecutive ``losses`` from P's and Q's
    log interval masses (each the ``(value, error, upper bound)`` of :func:`log_difference`):
    P's upper bounds, and the tilts ``l_i + ln Q(I_i) − ln P(I_i)`` with their errors."""
    log_p, error_p, upper_p = p_masses
    log_q, error_q, _ = q_masses
    left = losses[:-1]
    # in place, operation for operation: tilt = (l + ln Q) − ln P, error = (e_P + e_Q) +
    # 4u ((|l| + |ln Q|) + |ln P|), both replaced (0, inf) where not finite, error doubled
    with np.errstate(invalid="ignore"):
        tilt = np.add(left, log_q, dtype=np.float64)
        tilt -= log_p
        size = np.abs(left)
        size += np.abs(log_q)
        size += np.abs(log_p)
        size *= 4 * _U
        tilt_error = np.add(error_p, error_q, dtype=np.float64)
        tilt_error += size
    unknown = ~(np.isfinite(tilt) & np.isfinite(log_p) & np.isfinite(log_q))
    tilt[unknown] = 0.0
    tilt_error *= _SAFETY
    tilt_error[unknown] = np.inf
    return IntervalLaw(upper_p, tilt, tilt_error)



def _grid_indices(low: float, high: float, step: float) -> tuple[int, int]:
    """First and last grid index ``floor(low/step)``, ``ceil(high/step)`` (exact; at least two points)."""
    first = math.floor(Fraction(low) / Fraction(step))
    last = max(first + 1, math.ceil(Fraction(high) / Fraction(step)))
    check_grid_size(last - first + 1, step)
    return first, last


def check_loss_floor(floor: float, losses: FloatArray, step: float) -> None:
    """Refuse a grid with a point within 8 ulps of the loss bound ``floor`` (``±ln(1 − q)``)."""
    if math.isfinite(floor) and np.any(np.abs(losses - floor) <= 8 * _U * abs(floor) + 1e-300):
        raise value_error("value_discretization_interval", step,
                          "such that no grid point is within 8 ulps of the loss bound ln(1 − q)",
                          "perturb the interval slightly")


def monotone_grid(spec: SubsampledGaussian, step: float, tail: float) -> LossGrid:
    """Connect-the-dots grid of a loss that is monotone in the output (Gaussian, subsampled).

    The grid covers the losses where P has all but ``tail`` mass on each side;
    the mass at or below the first point (an upper bound) goes to it, the mass
    above the last point to ``+inf``.
    """
    first, last = _grid_indices(*spec.support_hint(tail), step)
    losses = np.arange(first, last + 1) * step
    check_loss_floor(-spec.loss_floor if spec.swapped else spec.loss_floor, losses, step)
    return grid_from_log_cdfs(first, step, spec.log_cdfs(losses), losses)


def grid_from_log_cdfs(first: int, step: float, cdfs: dict[str, Any], losses: FloatArray) -> LossGrid:
    """The connect-the-dots grid of :meth:`SubsampledGaussian.log_cdfs` output at ``losses``
    (``= (first + i) · step``): the interval law, the mass at or below the first point (an
    upper bound) to it, the mass above the last point to ``+inf``."""
    lower_slack = 2 * cdfs.get("P_cdf_error", cdfs.get("P_error"))[0]
    upper_slack = 2 * cdfs.get("P_sf_error", cdfs.get("P_error"))[-1]
    with np.errstate(under="ignore"):
        lower_tail = float(np.exp(cdfs["P_cdf"][0] + lower_slack)) * 1.000001
        upper_tail = float(np.exp(cdfs["P_sf"][-1] + upper_slack)) * 1.000001
    return connect_the_dots(first, step, interval_law_from_cdfs(cdfs, losses),
                            lower_tail=lower_tail, upper_tail=upper_tail)


def laplace_grid(epsilon_0: float, step: float) -> LossGrid:
    """Loss of ``Lap(0, b)`` vs ``Lap(Δ, b)``, ``ε0 = Δ/b`` (a float, taken as exact).

    Atoms ½ at ε0 and ``e^{−ε0}/2`` at −ε0 (split exactly in mpmath), density
    ``e^{(l − ε0)/2}/4`` on ``(−ε0, ε0)`` (connect-the-dots on each interval).
    """
    first, last = _grid_indices(-epsilon_0, epsilon_0, step)
    losses = np.arange(first, last + 1) * step
    continuous = connect_the_dots(first, step, _laplace_interval_law(losses, epsilon_0),
                                  lower_tail=0.0, upper_tail=0.0)
    with working_precision():
        low_atom = mpmath.exp(-mpmath.mpf(epsilon_0)) / 2 * (1 + mpmath.mpf(10) ** -40)
    atoms = grid_from_atoms([mpmath.mpf(epsilon_0), -mpmath.mpf(epsilon_0)],
                            [mpmath.mpf(0.5), low_atom], interval=step, exact_losses=True)
    return _add_grids(continuous, atoms)


def bounded_range_grid(epsilon: float, step: float) -> LossGrid:
    """Loss of the dominating pair of every ε-bounded-range mechanism (ε a float, taken as exact).

    The loss has density ``e^{(l − ε)/2} / (2(1 − e^{−ε}))`` on ``(−ε, ε)`` and no
    atoms: the Laplace loss's continuous part (:func:`_laplace_interval_law`)
    scaled by ``2/(1 − e^{−ε})``, with the same tilts (``dQ = e^{−L} dP``).
    """
    first, last = _grid_indices(-epsilon, epsilon, step)
    losses = np.arange(first, last + 1) * step
    law = _laplace_interval_law(losses, epsilon)
    with working_precision():
        shift = mpmath.log(2) - mpmath.log(-mpmath.expm1(-mpmath.mpf(epsilon)))
        shift = float(shift) + 1e-15 * (1 + abs(float(shift)))        # an upper bound
    log_mass = law.log_mass_upper + shift
    with np.errstate(invalid="ignore"):  # an empty interval's log mass stays -inf (mass 0)
        log_mass = np.where(np.isneginf(log_mass), log_mass,   # the float sum, rounded up
                            log_mass + 4 * _U * (np.abs(log_mass) + abs(shift) + 1))
    return connect_the_dots(first, step, IntervalLaw(log_mass, law.log_tilt, law.log_tilt_error),
                            lower_tail=0.0, upper_tail=0.0)


def _add_grids(first: LossGrid, second: LossGrid) -> LossGrid:
    """Sum of two grids with the same spacing (float sums inflated to bound the exact ones)."""
    low = min(first.offset, second.offset)
    high = max(g.offset + len(g.probabilities) for g in (first, second))
    masses = np.zeros(high - low)
    for grid in (first, second):
        start = grid.offset - low
        masses[start:start + len(grid.probabilities)] += grid.probabilities
    return LossGrid(first.interval, low, masses * (1 + 2 * _U),
                    (first.infinity_mass + second.infinity_mass) * (1 + 2 * _U),
                    (first.error + second.error) * (1 + 2 * _U))


def _laplace_interval_law(losses: np.ndarray, epsilon_0: float) -> IntervalLaw:
    """Interval masses ``½ e^{(a−ε0)/2}(e^{(b−a)/2} − 1)`` on ``[a, b] = I ∩ [−ε0, ε0]``
    and exact tilts ``ln ρ = l_i − (a+b)/2`` (P's density is ``e^l`` times Q's there);
    the error terms cover the float grid points (within u/2 relative of ``i h``)."""
    u = _U
    left, right = losses[:-1], losses[1:]
    a, b = np.maximum(left, -epsilon_0), np.minimum(right, epsilon_0)
    inside = a < b
    width = np.where(inside, b - a, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        log_mass = np.where(inside, math.log(0.5) + (a - epsilon_0) / 2 + np.log(np.expm1(width / 2)),
                            -np.inf)
    mass_error = 8 * u * (np.abs(a) + epsilon_0 + 2) + 8 * u * (np.abs(a) + np.abs(b)) / width
    tilt = np.where(inside, left - (a + b) / 2, 0.0)
    tilt_error = np.where(inside, 16 * u * (np.abs(left) + np.abs(a) + np.abs(b) + 1), np.inf)
    return IntervalLaw(log_mass + 2 * mass_error, tilt, tilt_error)


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
