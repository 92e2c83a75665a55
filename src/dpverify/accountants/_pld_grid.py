"""Engine of the PLD accountant: pessimistic loss grids, FFT composition, δ(ε) and ε(δ).

A :class:`LossGrid` is one direction of a privacy-loss distribution: float
masses on the grid ``{i h}``, a mass at ``+inf`` and an ℓ1 error bound. The
invariant every function here preserves (proved in ``docs/proofs/pld.md``):

    there is a non-negative measure ``D*`` on ``h Z ∪ {+inf}`` whose survival
    function dominates that of the true privacy loss at every point, and
    ``‖D̃ − D*‖₁ <= error``, where ``D̃`` is the grid (finite masses and the
    mass at ``+inf``).

Hence ``δ_true(ε) <= δ_{D̃}(ε) + error`` for every ε, because
``l ↦ (1 − e^{ε−l})₊`` is non-decreasing with values in ``[0, 1]``.
Operations that only *raise* the survival function of ``D̃`` (rounding
losses up, moving mass up or to ``+inf``, inflating masses) keep the
invariant with the same error; float errors that can go either way are added
to ``error``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import mpmath
import numpy as np
from numpy.typing import NDArray
from scipy.signal import lfilter

from dpverify._numeric import bisect_passing, round_up, working_precision
from dpverify._validation import value_error

__all__ = [
    "LossGrid",
    "grid_from_survival",
    "grid_from_atoms",
    "compose_grids",
    "self_compose_grid",
    "delta_upper",
    "epsilon_upper",
    "MAX_GRID_POINTS",
    "check_grid_size",
    "HARD_LIMIT_GRID_POINTS",
]

#: Unit roundoff of IEEE double precision.
UNIT_ROUNDOFF = 2.0 ** -53
#: ``fl(x * _INFLATE) >= fl-input * (1 + 2u)``: absorbs one rounding of a non-negative sum.
_INFLATE = 1.0 + 2.0 ** -50
#: Relative slack on float sums of non-negative terms (true error < 200 u < 5e-14).
SUM_SLACK = 1e-12
#: Per-butterfly error constant assumed for the FFT (Higham 2002, Thm 24.2 gives ~7.7 u).
_FFT_ETA = 16 * UNIT_ROUNDOFF
#: Up to this many non-zero masses in one operand, convolve directly instead of by FFT.
_DIRECT_CONVOLUTION_LENGTH = 64
#: Support size above which composition coarsens the grid (``h -> 2h``, losses rounded up).
MAX_GRID_POINTS = 2 ** 19
#: A single grid may not be built larger than this (memory guard).
HARD_LIMIT_GRID_POINTS = 2 ** 25
#: Bound on the total mass lost to subnormal underflow in one grid operation.
_UNDERFLOW_SLACK = 1e-290


@dataclass(frozen=True, slots=True, eq=False)
class LossGrid:
    """One direction of a pessimistic privacy-loss distribution (see the module docstring).

    ``probabilities[j]`` is the mass at loss ``(offset + j) * interval``.
    """

    interval: float
    offset: int
    probabilities: NDArray[np.float64]
    infinity_mass: float
    error: float

    @property
    def finite_mass(self) -> float:
        """Float sum of the finite masses (use with :data:`SUM_SLACK` when it must bound)."""
        return float(np.sum(self.probabilities))

    @property
    def largest_loss(self) -> float:
        """The largest finite grid loss (float)."""
        return (self.offset + len(self.probabilities) - 1) * self.interval


def _frozen(array: NDArray[np.float64]) -> NDArray[np.float64]:
    array = np.ascontiguousarray(array, dtype=np.float64)
    array.setflags(write=False)
    return array


def _mass_upper(array: NDArray[np.float64]) -> mpmath.mpf:
    """An upper bound (mpmath) on the exact sum of a non-negative float array."""
    return mpmath.mpf(float(np.sum(array))) * (1 + mpmath.mpf(SUM_SLACK)) + _UNDERFLOW_SLACK


def check_grid_size(points: int, interval: float) -> None:
    """Refuse to build grids that would exhaust memory; name the parameter to change."""
    if points > HARD_LIMIT_GRID_POINTS:
        raise value_error("value_discretization_interval", interval,
                          f"large enough for at most {HARD_LIMIT_GRID_POINTS} grid points",
                          f"this distribution needs {points}; increase the interval")


def grid_from_survival(survival_upper, *, lower_index: int, upper_index: int,
                       interval: float) -> LossGrid:
    """Discretise a loss given an upper bound on its survival function ``S(t) = P(L > t)``.

    ``survival_upper(indices, t)`` must return, for the integer grid indices
    and floats ``t`` at or below the exact losses ``indices * interval``,
    values ``>= P(L > indices * interval)`` (elementwise). The grid point ``i h`` receives the mass of
    ``((i−1)h, ih]``; everything at or below the lowest point goes to it (mass
    moved up), everything above the highest point goes to ``+inf``.
    """
    check_grid_size(upper_index - lower_index + 1, interval)
    indices = np.arange(lower_index, upper_index + 1, dtype=np.int64)
    # fl(i*h) is within half an ulp of i*h, so one step down is <= the exact grid loss.
    below = np.nextafter(indices.astype(np.float64) * interval, -np.inf)
    survival = np.asarray(survival_upper(indices, below), dtype=np.float64)
    survival = np.clip(np.nan_to_num(survival, nan=1.0), 0.0, 1.0)
    survival = np.maximum.accumulate(survival[::-1])[::-1]  # non-increasing, still >= S
    probabilities = -np.diff(survival, prepend=1.0) * _INFLATE
    grid = LossGrid(interval, lower_index, _frozen(probabilities), float(survival[-1]),
                    _UNDERFLOW_SLACK)
    return _truncate_tails(grid, 0.0)  # drops zero masses at both ends only


def grid_from_atoms(losses: list, masses: list, *, interval: float) -> LossGrid:
    """Discretise a finite loss distribution given exactly (mpmath losses and masses).

    Each loss is rounded *up* onto the grid, with a margin against mpmath's
    own rounding; ``+inf`` losses go to the mass at infinity. Bins are summed
    in mpmath and rounded up.
    """
    with working_precision():
        bins: dict[int, mpmath.mpf] = {}
        infinity = mpmath.mpf(0)
        for loss, mass in zip(losses, masses):
            if mpmath.isinf(loss):
                infinity += mass
                continue
            scaled = mpmath.mpf(loss) / mpmath.mpf(interval)
            index = int(mpmath.ceil(scaled + mpmath.mpf(10) ** -30 * (1 + abs(scaled))))
            bins[index] = bins.get(index, mpmath.mpf(0)) + mass
        if not bins:
            bins[0] = mpmath.mpf(0)
        low, high = min(bins), max(bins)
        check_grid_size(high - low + 1, interval)
        probabilities = np.zeros(high - low + 1)
        for index, mass in bins.items():
            probabilities[index - low] = round_up(mass)
        return LossGrid(interval, low, _frozen(probabilities), round_up(infinity), 0.0)


def _regrid(grid: LossGrid, factor: int) -> LossGrid:
    """Coarsen ``h -> factor h``, sending loss ``i h`` to ``ceil(i / factor) factor h`` (up)."""
    if factor == 1:
        return grid
    first = -((-grid.offset) // factor)  # ceil(offset / factor)
    lead = grid.offset - ((first - 1) * factor + 1)
    padded = np.concatenate([np.zeros(lead), grid.probabilities])
    padded = np.concatenate([padded, np.zeros(-len(padded) % factor)])
    sums = padded.reshape(-1, factor).sum(axis=1)
    # fl-sum of `factor` terms is >= exact (1 - (factor-1) u); the factor makes it >= exact.
    sums = sums * (1.0 + math.ldexp(4 * factor, -53))
    return LossGrid(grid.interval * factor, first, _frozen(sums), grid.infinity_mass,
                    grid.error + _UNDERFLOW_SLACK)


def _common_interval(first: LossGrid, second: LossGrid) -> tuple[LossGrid, LossGrid]:
    """Regrid the finer grid onto the coarser one when the ratio is an integer."""
    coarse, fine = sorted((first.interval, second.interval), reverse=True)
    ratio = Fraction(coarse) / Fraction(fine)
    if ratio.denominator != 1:
        raise value_error("value_discretization_interval", (first.interval, second.interval),
                          "the same for both distributions, or integer multiples of each other",
                          "build both with the same value_discretization_interval")
    factor = int(ratio)
    return (_regrid(first, factor) if first.interval == fine else first,
            _regrid(second, factor) if second.interval == fine else second)


def _fft_error_l1(first: NDArray[np.float64], second: NDArray[np.float64], size: int,
                  kept: int) -> float:
    """ℓ1 bound on the float error of ``irfft(rfft(a) * rfft(b))`` (docs/proofs/pld.md, §3)."""
    with working_precision():
        norm1_a, norm1_b = _mass_upper(first), _mass_upper(second)
        norm2_a = mpmath.mpf(float(np.linalg.norm(first))) * (1 + mpmath.mpf(SUM_SLACK))
        norm2_b = mpmath.mpf(float(np.linalg.norm(second))) * (1 + mpmath.mpf(SUM_SLACK))
        levels = max(1, int(size).bit_length() - 1)
        rho = levels * mpmath.mpf(_FFT_ETA) / (1 - levels * mpmath.mpf(_FFT_ETA))
        root, u = mpmath.sqrt(size), mpmath.mpf(UNIT_ROUNDOFF)
        product = (rho * root * (norm2_a * norm1_b + norm1_a * norm2_b)
                   + rho ** 2 * size * norm2_a * norm2_b
                   + 3 * u * (norm1_a + rho * root * norm2_a) * (1 + rho) * root * norm2_b)
        l2 = (1 + rho) * product / root + rho * norm1_a * norm2_b
        return round_up(2 * mpmath.sqrt(kept) * l2)


def _convolve(first: NDArray[np.float64], second: NDArray[np.float64]) -> tuple[NDArray, float]:
    """Linear convolution of two non-negative arrays and an ℓ1 bound on its float error."""
    kept = len(first) + len(second) - 1
    sparse, dense = sorted((first, second), key=np.count_nonzero)
    support = np.flatnonzero(sparse)
    if len(support) <= _DIRECT_CONVOLUTION_LENGTH:
        # Each entry is a sum of <= m non-negative products: relative error <= (m + 1) u.
        result = np.zeros(kept)
        for index in support:
            result[index:index + len(dense)] += sparse[index] * dense
        terms = len(support) + 1
        error = round_up(2 * terms * UNIT_ROUNDOFF * _mass_upper(first) * _mass_upper(second))
        return result, error
    size = 1 << (kept - 1).bit_length()
    first_spectrum = np.fft.rfft(first, size)
    if second is first:  # squaring: one forward transform
        spectrum = first_spectrum * first_spectrum
    else:
        spectrum = first_spectrum * np.fft.rfft(second, size)
    result = np.maximum(np.fft.irfft(spectrum, size)[:kept], 0.0)
    return result, _fft_error_l1(first, second, size, kept)


def _truncate_tails(grid: LossGrid, tail: float) -> LossGrid:
    """Move at most ``tail`` lower mass up to the lowest kept point and upper mass to ``+inf``."""
    p = grid.probabilities
    low = min(int(np.searchsorted(np.cumsum(p), tail, side="right")), len(p) - 1)
    top = int(np.searchsorted(np.cumsum(p[::-1]), tail, side="right"))
    top = min(top, len(p) - 1 - low)
    kept = np.array(p[low:len(p) - top])
    with working_precision():
        moved_down = _mass_upper(p[:low]) if low else mpmath.mpf(0)
        kept[0] = (kept[0] + round_up(moved_down)) * _INFLATE
        infinity = grid.infinity_mass
        if top:
            infinity = round_up(mpmath.mpf(infinity) + _mass_upper(p[len(p) - top:]))
    return LossGrid(grid.interval, grid.offset + low, _frozen(kept), infinity, grid.error)


def compose_grids(first: LossGrid, second: LossGrid, *, tail: float,
                  max_points: int | None = None) -> LossGrid:
    """The pessimistic grid of the sum of two independent losses (one direction).

    Error propagation (``D* = D̃ + E``):
    ``err ≤ err_a ‖b‖₁ + err_b ‖a‖₁ + err_a err_b + fft_err``.
    """
    max_points = MAX_GRID_POINTS if max_points is None else max_points
    first, second = _common_interval(first, second)
    finite, fft_error = _convolve(first.probabilities, second.probabilities)
    with working_precision():
        mass_a, mass_b = _mass_upper(first.probabilities), _mass_upper(second.probabilities)
        inf_a, inf_b = mpmath.mpf(first.infinity_mass), mpmath.mpf(second.infinity_mass)
        infinity = round_up(inf_a * (mass_b + inf_b) + inf_b * mass_a)
        err_a, err_b = mpmath.mpf(first.error), mpmath.mpf(second.error)
        error = round_up(err_a * (mass_b + inf_b) + err_b * (mass_a + inf_a) + err_a * err_b
                         + fft_error + _UNDERFLOW_SLACK)
    grid = LossGrid(first.interval, first.offset + second.offset, _frozen(finite),
                    infinity, error)
    grid = _truncate_tails(grid, tail)
    while len(grid.probabilities) > max_points:
        grid = _regrid(grid, 2)
    return grid


def self_compose_grid(grid: LossGrid, count: int, *, tail: float,
                      max_points: int | None = None) -> LossGrid:
    """``count``-fold composition by exponentiation by squaring."""
    result, base = None, grid
    while True:
        if count & 1:
            result = base if result is None else compose_grids(result, base, tail=tail,
                                                               max_points=max_points)
        count >>= 1
        if not count:
            return result
        base = compose_grids(base, base, tail=tail, max_points=max_points)


def _hockey_stick_sum(grid: LossGrid, epsilon: float) -> mpmath.mpf:
    """``Σ_{l_i > ε} p_i (1 − e^{ε − l_i})`` with relative float error < 200 u.

    The exponent is formed as ``(i − j0) h + r`` with ``j0`` the first index
    above ε and ``r = j0 h − ε`` computed in mpmath, so it carries a *relative*
    error of a few ulps even when the losses are ~10⁴.
    """
    with working_precision():
        scaled = mpmath.mpf(epsilon) / mpmath.mpf(grid.interval)
        first_index = int(mpmath.floor(scaled)) + 1
        remainder = float(first_index * mpmath.mpf(grid.interval) - mpmath.mpf(epsilon))
        start = max(first_index - grid.offset, 0)
        tail = grid.probabilities[start:]
        if not len(tail):
            return mpmath.mpf(0)
        steps = np.arange(grid.offset + start - first_index,
                          grid.offset + len(grid.probabilities) - first_index, dtype=np.float64)
        terms = tail * -np.expm1(-(steps * grid.interval + remainder))
        return mpmath.mpf(float(np.sum(terms)))


def delta_upper(grid: LossGrid, epsilon: float) -> mpmath.mpf:
    """Upper bound (mpmath) on the true δ(ε) of the direction ``grid`` describes."""
    with working_precision():
        return (_hockey_stick_sum(grid, epsilon) * (1 + mpmath.mpf(SUM_SLACK))
                + mpmath.mpf(grid.infinity_mass) + mpmath.mpf(grid.error))


def _closed_form_epsilon(grid: LossGrid, target: float) -> float | None:
    """Float estimate of the ε with δ_grid(ε) = target, by suffix sums (no rigour needed).

    On ``[l_{j−1}, l_j]``, ``δ(ε) = S_j − e^{ε − l_{j−1}} U_{j−1}`` with
    ``S_j = Σ_{i≥j} p_i`` and ``U_j = Σ_{i>j} p_i e^{−(l_i − l_j)}``, computed by
    the stable reverse recurrence ``U_j = e^{−h} (p_{j+1} + U_{j+1})``.
    """
    p = grid.probabilities
    decay = math.exp(-grid.interval)
    reverse_u = lfilter([0.0, decay], [1.0, -decay], p[::-1])
    weighted = reverse_u[::-1]                      # U_j
    suffix = np.cumsum(p[::-1])[::-1]               # S_j
    at_grid = np.append(suffix[1:], 0.0) - weighted  # δ(l_j) = S_{j+1} − U_j
    passing = np.nonzero(at_grid <= target)[0]
    if not len(passing) or passing[0] == 0:
        return None
    j = int(passing[0])
    ratio = (suffix[j] - target) / weighted[j - 1] if weighted[j - 1] > 0 else 0.0
    if not ratio > 0:
        return None
    return (grid.offset + j - 1) * grid.interval + math.log(ratio)


def epsilon_upper(grid: LossGrid, delta: float) -> float:
    """Smallest ε >= 0 (to 1e-12 relative, rounded up) with ``delta_upper(grid, ε) <= delta``.

    Returns ``inf`` when no finite ε qualifies (the mass at ``+inf`` plus the
    error bound already exceeds ``delta``).
    """
    def meets(epsilon: float) -> bool:
        return delta_upper(grid, epsilon) <= delta

    if meets(0.0):
        return 0.0
    top = max(grid.largest_loss, 0.0) + grid.interval
    if not meets(top):
        return math.inf
    target = (delta - grid.infinity_mass - grid.error) / (1 + SUM_SLACK)
    guess = _closed_form_epsilon(grid, target)
    if guess is not None and guess > 0:
        width = 1e-9 * (1 + guess) + 4 * grid.interval * 1e-9
        low, high = max(0.0, guess - width), min(top, guess + width)
        if not meets(low) and meets(high):
            return bisect_passing(meets, low, high, rtol=1e-13, atol=1e-15)
    return bisect_passing(meets, 0.0, top, rtol=1e-13, atol=1e-15)
