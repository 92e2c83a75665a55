"""Engine of the PLD accountant: pessimistic loss grids, connect-the-dots, δ(ε) and ε(δ).

A :class:`LossGrid` is one direction of a privacy-loss distribution: float
masses on the grid ``{i h}``, a mass at ``+inf`` and an ℓ1 error bound. Write
``Y = e^{−L}`` (``Y = 0`` at ``L = +inf``). The invariant every function here
preserves (proved in ``docs/proofs/pld.md``):

    there is a non-negative measure ``D*`` on ``h Z ∪ {+inf}`` that dominates
    the true privacy loss in the order ⪰ below, and ``‖D̃ − D*‖₁ <= error``,
    where ``D̃`` is the grid (finite masses and the mass at ``+inf``).

``D* ⪰ law(L)`` means ``D*`` is obtained from ``law(L)`` by a Markov kernel
that does not increase ``Y`` on average (``E[Y' | Y] <= Y``: mean-preserving
spreads of Y, i.e. connect-the-dots, and moving losses up) plus added
non-negative mass. Since ``y ↦ (1 − e^ε y)₊`` is convex, non-increasing,
non-negative and at most 1, ``δ_true(ε) <= δ_{D̃}(ε) + error`` for every ε;
the order is preserved by convolution (independent products of Y).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import mpmath
import numpy as np
from numpy.typing import NDArray

from dpverify._numeric import bisect_passing, round_up, working_precision
from dpverify._validation import value_error

__all__ = [
    "LossGrid",
    "IntervalLaw",
    "connect_the_dots",
    "grid_from_atoms",
    "regrid",
    "coarsen",
    "spread",
    "lattice_factor",
    "on_lattice",
    "delta_upper",
    "epsilon_upper",
    "check_grid_size",
    "HARD_LIMIT_GRID_POINTS",
    "UNIT_ROUNDOFF",
    "discounted_suffix_sums",
]

#: Unit roundoff of IEEE double precision.
UNIT_ROUNDOFF = 2.0 ** -53
_U = UNIT_ROUNDOFF
#: Relative slack on float sums of non-negative terms (true error < 200 u < 5e-14).
SUM_SLACK = 1e-12
#: A single grid may not be built larger than this (memory guard).
HARD_LIMIT_GRID_POINTS = 2 ** 25
#: Bound on the mass lost to subnormal underflow by one float entry.
_TINY = 1e-300
#: Absolute margin on a connect-the-dots share computed from an approximate (mpmath) loss.
_SHARE_MARGIN = mpmath.mpf(10) ** -25


@dataclass(frozen=True, slots=True, eq=False)
class LossGrid:
    """One direction of a pessimistic privacy-loss distribution (see the module docstring).

    ``probabilities[j]`` is the mass at loss ``(offset + j) * interval``.
    ``infinity_mass`` is an upper bound on the dominating measure's mass at
    ``+inf``, of which at most ``truncation`` was put there by cutting tails
    (the rest belongs to the mechanism). ``error`` bounds the finite part only,
    in the weighted norm ``Σ_j |D̃_j − D*_j| e^{tilt·l_j} <= error · e^{error_log_scale}``
    (``tilt = 0``: plain ℓ1); ``D*`` is supported on the grid's index range, so
    no error applies at ``ε >= largest_loss`` (``docs/proofs/pld.md``, §6).
    """

    interval: float
    offset: int
    probabilities: NDArray[np.float64]
    infinity_mass: float
    error: float
    truncation: float = 0.0
    tilt: float = 0.0
    error_log_scale: float = 0.0

    def error_at(self, epsilon: float) -> mpmath.mpf:
        """Bound (mpmath) on ``Σ_{l_j > ε} |D̃_j − D*_j|``: the float error that δ(ε) can carry."""
        if self.error == 0 or epsilon >= self.largest_loss:
            return mpmath.mpf(0)
        with working_precision():
            if self.tilt == 0 and self.error_log_scale == 0:   # plain ℓ1: the same at every ε
                return mpmath.mpf(self.error) * (1 + mpmath.mpf(10) ** -30)
            scale = mpmath.mpf(self.error_log_scale) - mpmath.mpf(self.tilt) * epsilon  # any real ε
            return mpmath.mpf(self.error) * mpmath.exp(scale) * (1 + mpmath.mpf(10) ** -30)

    @property
    def finite_mass(self) -> float:
        """Float sum of the finite masses (use with :data:`SUM_SLACK` when it must bound)."""
        return float(np.sum(self.probabilities))

    @property
    def largest_loss(self) -> float:
        """The largest finite grid loss (float)."""
        return (self.offset + len(self.probabilities) - 1) * self.interval


def frozen(array: NDArray[np.float64]) -> NDArray[np.float64]:
    """A read-only contiguous float64 copy of ``array``."""
    array = np.array(array, dtype=np.float64)
    array.setflags(write=False)
    return array


def check_grid_size(points: int, interval: float) -> None:
    """Refuse to build grids that would exhaust memory; name the parameter to change."""
    if points > HARD_LIMIT_GRID_POINTS:
        raise value_error("value_discretization_interval", interval,
                          f"large enough for at most {HARD_LIMIT_GRID_POINTS} grid points",
                          f"this distribution needs {points}; increase the interval")


# ----------------------------------------------------------------- connect the dots
@dataclass(frozen=True, slots=True)
class IntervalLaw:
    """Loss law on the intervals ``(l_i, l_{i+1}]`` of a grid, with error bounds.

    ``log_mass_upper[i]`` is an upper bound on ``ln P(L ∈ I_i)``; ``log_tilt[i]``
    approximates ``ln ρ_i``, ``ρ_i = e^{l_i} Q(L ∈ I_i) / P(L ∈ I_i) ∈ [e^{−h}, 1]``,
    within ``log_tilt_error[i]`` (``inf``: unknown, the whole mass then goes up).
    """

    log_mass_upper: NDArray[np.float64]
    log_tilt: NDArray[np.float64]
    log_tilt_error: NDArray[np.float64]


def connect_the_dots(first_index: int, interval: float, law: IntervalLaw, *,
                     lower_tail: float, upper_tail: float) -> LossGrid:
    """Pessimistic grid from interval masses (Doroshenko et al. 2022, connect-the-dots).

    The mass ``m_i = P(L ∈ (l_i, l_{i+1}])`` goes to ``l_{i+1}`` with share
    ``a_i = (1 − ρ_i)/(1 − e^{−h})`` and to ``l_i`` with ``1 − a_i``: this keeps
    ``E[e^{−L}]`` on each interval (a mean-preserving spread of ``Y = e^{−L}``).
    The share uses a *lower* bound on ``ρ_i`` (so ``a_i`` is an upper bound) and
    the lower point receives the remainder of an *upper* bound on ``m_i``:
    uncertainty only moves mass up or adds mass. ``lower_tail`` (mass at or
    below the first point) goes to it, ``upper_tail`` (above the last) to ``+inf``.
    """
    one_minus = -math.expm1(-interval) * (1 - 2 * _U)          # <= 1 − e^{−h}
    # in place, operation for operation ``mass = e^{log_mass_upper} (1 + 4u) + _TINY``,
    # ``tilt_low = e^{log_tilt − error} (1 − 2u)`` (NaN -> 0, +inf -> 1; never −inf: an exp
    # times a positive constant), ``to_upper = clip((1 − tilt_low + 2u) / one_minus, 0, 1)``
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        to_upper = np.asarray(np.subtract(law.log_tilt, law.log_tilt_error, dtype=np.float64))
        mass = np.asarray(np.exp(law.log_mass_upper, dtype=np.float64))
        mass *= 1 + 4 * _U
        mass += _TINY
        to_upper = np.exp(to_upper, out=to_upper)
        to_upper *= 1 - 2 * _U
    to_upper[np.isnan(to_upper)] = 0.0
    to_upper[to_upper == np.inf] = 1.0
    to_upper = np.subtract(1.0, to_upper, out=to_upper)
    to_upper += 2 * _U
    to_upper /= one_minus
    to_upper = np.clip(to_upper, 0.0, 1.0, out=to_upper)   # >= a_i
    masses = np.zeros(mass.size + 1)
    masses[1:] += mass * to_upper
    masses[:-1] += mass * (1.0 - to_upper)
    masses[0] += lower_tail
    masses *= 1 + 8 * _U  # each entry: <= 3 roundings of non-negative terms
    masses.setflags(write=False)   # a fresh contiguous float64 array: frozen in place
    infinity = round_up(mpmath.mpf(upper_tail) * (1 + 4 * _U))
    return LossGrid(interval, first_index, masses, infinity, 0.0, truncation=infinity)


def _atom_shares(loss: mpmath.mpf, interval: float, exact: bool) -> tuple[int, mpmath.mpf]:
    """Upper grid index ``j`` (``j h >= loss``) and an upper bound on the share sent to it.

    For float losses (``exact``) ``loss − j h`` is exact at 50 digits, so ``j``
    is checked exactly; otherwise a relative margin of 10⁻³⁰ covers mpmath's error.
    """
    step = mpmath.mpf(interval)
    scaled = loss / step
    margin = mpmath.mpf(0) if exact else mpmath.mpf(10) ** -30 * (1 + abs(scaled))
    upper = int(mpmath.ceil(scaled + margin))
    if upper * step < loss:
        upper += 1
    gap = loss - (upper - 1) * step            # in (−margin, h]
    share = mpmath.expm1(-gap) / mpmath.expm1(-step)
    share = share * (1 + mpmath.mpf(10) ** -40) + (0 if exact else _SHARE_MARGIN)
    return upper, min(max(share, mpmath.mpf(0)), mpmath.mpf(1))


def grid_from_atoms(losses: list, masses: list, *, interval: float,
                    exact_losses: bool = False) -> LossGrid:
    """Connect-the-dots grid of a finite loss distribution given in mpmath.

    An atom ``w`` at ``l ∈ (l_{j−1}, l_j]`` sends ``w a`` to ``l_j`` and
    ``w (1 − a)`` to ``l_{j−1}``, ``a = (1 − e^{−(l − l_{j−1})})/(1 − e^{−h})``
    (mean-preserving in ``e^{−L}``); an atom on a grid point stays there.
    ``masses`` must be upper bounds on the exact masses (callers inflate
    computed ones by 10⁻⁴⁰ relative). The share is inflated (relative 10⁻⁴⁰, plus 10⁻²⁵ absolute unless
    ``exact_losses`` says the losses are exact floats) and both parts rounded up.
    ``+inf`` losses go to the mass at infinity.
    """
    with working_precision():
        bins: dict[int, mpmath.mpf] = {}
        infinity = mpmath.mpf(0)
        for loss, mass in zip(losses, masses):
            mass = mpmath.mpf(mass)
            if mpmath.isinf(loss):
                infinity += mass
                continue
            upper, share = _atom_shares(mpmath.mpf(loss), interval, exact_losses)
            bins[upper] = bins.get(upper, mpmath.mpf(0)) + mass * share
            bins[upper - 1] = bins.get(upper - 1, mpmath.mpf(0)) + mass * (1 - share)
        bins = {key: value for key, value in bins.items() if value > 0} or {0: mpmath.mpf(0)}
        low, high = min(bins), max(bins)
        check_grid_size(high - low + 1, interval)
        probabilities = np.zeros(high - low + 1)
        for index, mass in bins.items():
            probabilities[index - low] = round_up(mass)
        return LossGrid(interval, low, frozen(probabilities), round_up(infinity), 0.0)


# ----------------------------------------------------------------- regridding
def _coarse_indices(indices: NDArray[np.int64], fine: float, coarse: float) -> NDArray[np.int64]:
    """``ceil(i fine / coarse)`` for each i, exactly: floats where clear, rationals where close."""
    ratio = indices.astype(np.float64) * (fine / coarse)
    margin = 4 * _U * np.abs(ratio) + 1e-300
    low, high = np.ceil(ratio - margin), np.ceil(ratio + margin)
    result = high.astype(np.int64)
    ambiguous = np.flatnonzero(low != high)   # i fine / coarse within 4u of an integer
    if len(ambiguous):
        fine_n, fine_d = Fraction(fine).as_integer_ratio()
        coarse_n, coarse_d = Fraction(coarse).as_integer_ratio()
        candidate = low[ambiguous].astype(np.int64)
        # exact integer test (Python ints in object arrays): i·fine <= candidate·coarse
        fits = (indices[ambiguous].astype(object) * (fine_n * coarse_d)
                <= candidate.astype(object) * (coarse_n * fine_d)).astype(bool)
        result[ambiguous] = np.where(fits, candidate, candidate + 1)
    return result


def regrid(grid: LossGrid, interval: float) -> LossGrid:
    """Move every loss up to the smallest point of the grid ``{j · interval}`` at or above it.

    ``interval`` must be at least ``grid.interval``. The target index is
    ``ceil(i h / H)`` computed exactly (floats where they are conclusive,
    rationals within 4 ulps of an integer); bins are float sums inflated so
    they bound the exact sums.
    """
    if interval == grid.interval:
        return grid
    indices = grid.offset + np.arange(len(grid.probabilities), dtype=np.int64)
    targets = _coarse_indices(indices, grid.interval, interval)
    first = int(targets[0])
    sums = np.bincount(targets - first, weights=grid.probabilities)
    per_bin = int(math.ceil(interval / grid.interval)) + 2
    sums = sums * (1 + 2 * per_bin * _U)   # sequential sum of <= per_bin terms
    # losses move up by < interval: the weighted error norm grows by at most e^{tilt·interval}
    return LossGrid(interval, first, frozen(sums), grid.infinity_mass, grid.error,
                    grid.truncation, grid.tilt, grid.error_log_scale + grid.tilt * interval)


def spread(grid: LossGrid, interval: float) -> LossGrid:
    """Connect-the-dots onto the coarser grid ``{j · interval}`` (any ratio; error-free grids).

    As :func:`coarsen` for a ratio that need not be a power of 2: the coarse
    neighbours of ``l = i h`` come from :func:`_coarse_indices` (exact), the
    gap ``l − (j − 1) H`` is computed in floats and widened by its rounding
    bound (a larger gap sends more mass up: a move up), so the share is an
    upper bound. Grids with a float error, or a finer target, fall back to
    :func:`regrid` (every loss moved up).
    """
    if interval <= grid.interval or grid.error:
        return regrid(grid, interval)
    indices = grid.offset + np.arange(len(grid.probabilities), dtype=np.int64)
    upper = _coarse_indices(indices, grid.interval, interval)
    losses = indices * grid.interval
    below = (upper - 1) * interval
    gap = losses - below
    gap = np.minimum(gap + 4 * _U * (np.abs(losses) + np.abs(below)) + 1e-300, interval)
    up = np.minimum(np.expm1(-gap) / math.expm1(-interval) * (1 + 8 * _U), 1.0)
    first = int(upper[0]) - 1
    size = int(upper[-1]) - first + 1
    sums = np.bincount(upper - first, weights=grid.probabilities * up, minlength=size)
    sums[:size - 1] += np.bincount(upper - 1 - first, weights=grid.probabilities * (1.0 - up),
                                   minlength=size - 1)[:size - 1]
    per_bin = 2 * int(math.ceil(interval / grid.interval)) + 4
    sums = sums * (1 + 2 * per_bin * _U)
    return LossGrid(interval, first, frozen(sums), grid.infinity_mass, 0.0, grid.truncation)


def lattice_factor(grid: LossGrid) -> int:
    """The largest power of 2, ``g``, such that every positive mass lies at an index divisible by ``g``.

    Randomized response's losses ``±ε`` sit on grid points (its grid is ``ε/128``), so
    ``g = 128``: its compositions live on the lattice ``ε Z`` and can be computed
    there exactly (:func:`on_lattice`), on a window ``g`` times narrower. A grid with a
    float error gives 1: its dominating measure need not lie on the lattice.
    """
    if grid.error:
        return 1
    if len(grid.probabilities) > 1 and grid.probabilities[0] > 0 and grid.probabilities[1] > 0:
        return 1   # (connect-the-dots grids: every mass is >= 1e-300) one of two neighbours is odd
    indices = grid.offset + np.flatnonzero(grid.probabilities)
    if not len(indices):
        return 1
    combined = int(np.bitwise_or.reduce(np.abs(indices)))
    if combined == 0:
        return 2 ** 30
    return min(combined & -combined, 2 ** 30)    # lowest set bit of every index at once


def on_lattice(grid: LossGrid, factor: int) -> LossGrid:
    """The same distribution on the grid of spacing ``factor · h`` (every mass must lie on it).

    A pure re-indexing: each loss ``i h`` with ``factor | i`` is ``(i/factor)(factor h)``
    (``factor h`` is exact in floats for a power of 2), so no mass moves and the grid
    is the same measure (``docs/proofs/pld.md``: no step, no error). Checked: a mass
    off the lattice raises ``ValueError``.
    """
    if factor == 1:
        return grid
    indices = grid.offset + np.arange(len(grid.probabilities), dtype=np.int64)
    keep = indices % factor == 0
    if np.any(grid.probabilities[~keep] != 0) or factor & (factor - 1) or grid.error:
        raise ValueError("on_lattice needs an error-free grid and a power-of-2 factor dividing "
                         "every index with mass")
    first = int(indices[keep][0]) // factor
    return LossGrid(grid.interval * factor, first, frozen(grid.probabilities[keep]),
                    grid.infinity_mass, grid.error, grid.truncation, grid.tilt, grid.error_log_scale)


def coarsen(grid: LossGrid, factor: int) -> LossGrid:
    """Connect-the-dots onto the grid of spacing ``factor · h`` (``factor`` a power of 2).

    A mass at ``l_i = i h`` with ``(j − 1) H < l_i <= j H`` goes to ``j H`` with
    share ``a = (1 − e^{−r h})/(1 − e^{−H})``, ``r = i − (j − 1) factor``, and to
    ``(j − 1) H`` otherwise: a mean-preserving spread of ``e^{−L}`` (unlike
    :func:`regrid`, it adds no first-order bias, which matters over 10⁶+
    compositions). ``H = factor · h`` is exact in floats for a power of 2;
    the share is computed in floats and inflated by ``1 + 8u`` (an upper
    bound: the excess is a move up). The grid must carry no float error.
    """
    if factor == 1:
        return grid
    if factor & (factor - 1) or grid.error:
        raise ValueError("coarsen needs a power-of-2 factor and an error-free grid")
    coarse = grid.interval * factor
    indices = grid.offset + np.arange(len(grid.probabilities), dtype=np.int64)
    upper = -((-indices) // factor)                      # ceil(i / factor), exact
    steps = indices - (upper - 1) * factor               # r in [1, factor]
    shares = np.expm1(-np.arange(factor + 1) * grid.interval) / math.expm1(-coarse)
    shares = np.minimum(shares * (1 + 8 * _U), 1.0)
    shares[factor] = 1.0                                 # on a coarse point: stays there
    up = shares[steps]
    first = int(upper[0]) - 1
    sums = np.bincount(upper - first, weights=grid.probabilities * up,
                       minlength=int(upper[-1]) - first + 1)
    sums[:len(sums) - 1] += np.bincount(upper - 1 - first,
                                        weights=grid.probabilities * (1.0 - up),
                                        minlength=len(sums) - 1)[:len(sums) - 1]
    sums = sums * (1 + 2 * (2 * factor + 4) * _U)
    return LossGrid(coarse, first, frozen(sums), grid.infinity_mass, 0.0, grid.truncation)


#: :func:`_hockey_stick_sum` takes ``1 − e^{−x}`` by ``expm1`` below this x, as a product above.
_EXPM1_BELOW = 0.25


def _hockey_stick_sum(grid: LossGrid, epsilon: float) -> mpmath.mpf:
    """``Σ_{l_i > ε} p_i (1 − e^{ε − l_i})`` with relative float error < 200 u.

    The exponent is formed as ``x = (i − j0) h + r`` with ``j0`` the first index
    above ε and ``r = j0 h − ε`` computed in mpmath, so it carries a *relative*
    error of a few ulps even when the losses are ~10⁴. Where ``x < 1/4``,
    ``1 − e^{−x}`` is ``-expm1(−x)``; beyond, it is ``1 − e^{−r} e^{−(i − j0) h}``
    with the memoised ``e^{−s h}`` (:func:`_exponential_weights`): ``y = e^{−x}``
    then errs by at most ``(3 + x) u`` relative and ``1 − y`` by
    ``u + (3 + x) u e^{−x}/(1 − e^{−x}) <= 12.5 u`` for ``x >= 1/4`` (the bound
    decreases in x), so with ``p_i`` each term errs by at most ``14u`` and the sums
    by far less than the ``200u`` (10⁻¹² slack) of ``docs/proofs/pld.md`` §5.
    """
    with working_precision():
        scaled = mpmath.mpf(epsilon) / mpmath.mpf(grid.interval)
        first_index = int(mpmath.floor(scaled)) + 1
        remainder = float(first_index * mpmath.mpf(grid.interval) - mpmath.mpf(epsilon))
    start = max(first_index - grid.offset, 0)
    tail = grid.probabilities[start:]
    if not len(tail):
        return mpmath.mpf(0)
    first_step = grid.offset + start - first_index        # >= 0: the step of tail[0]
    # steps s with s h + r < 1/4 go through expm1 (the +2 covers the rounding of s h)
    near = min(len(tail), max(0, math.ceil((_EXPM1_BELOW - remainder) / grid.interval) + 2 - first_step))
    steps = np.arange(first_step, first_step + near, dtype=np.float64)
    total = float(np.sum(tail[:near] * -np.expm1(-(steps * grid.interval + remainder))))
    if near < len(tail):
        _, falling = _exponential_weights(grid.interval, first_step + len(tail))
        far = falling[first_step + near:first_step + len(tail)] * math.exp(-remainder)
        total += float(np.sum(tail[near:] * (1.0 - far)))
    return mpmath.mpf(total)


def delta_upper(grid: LossGrid, epsilon: float) -> mpmath.mpf:
    """Upper bound (mpmath) on the true δ(ε) of the direction ``grid`` describes."""
    with working_precision():
        return (_hockey_stick_sum(grid, epsilon) * (1 + mpmath.mpf(SUM_SLACK))
                + mpmath.mpf(grid.infinity_mass) + grid.error_at(epsilon))


#: Largest exponent h·m a block of :func:`discounted_suffix_sums` scales by (e^600 < 1.8e308).
_BLOCK_EXPONENT = 600.0


def discounted_suffix_sums(probabilities: np.ndarray, interval: float) -> np.ndarray:
    """``U_j = Σ_{i>j} p_i e^{−h (i − j)}`` for every ``j`` (``h`` = ``interval`` > 0), in floats.

    The first-order recurrence ``U_j = e^{−h} (p_{j+1} + U_{j+1})``, evaluated in numpy
    blocks of ``m`` points with ``h·m <= 600``: inside a block the terms are rescaled by
    ``e^{h(i − start)}`` (at most e^600) and summed cumulatively, so nothing overflows or
    underflows to a wrong value, and all terms are non-negative (no cancellation). It gives
    ``scipy.signal.lfilter([0, e^{−h}], [1, −e^{−h}], p[::-1])[::-1]`` without importing
    scipy.signal, which loads scipy.stats (a second of start-up for ``dpverify account``).
    Blocks are aligned at the *top* of the array, so the ``U_j`` of a suffix of ``p`` are
    the same bits as those of the whole array.
    """
    q = np.asarray(probabilities, dtype=float)[::-1]       # y_k = Σ_{i<k} e^{−h(k−i)} q_i
    y = np.empty_like(q)
    block = max(1, int(_BLOCK_EXPONENT / interval))
    start_value, decay = 0.0, math.exp(-interval)
    rising_weights, falling_weights = _exponential_weights(interval, min(block, len(q)))
    for start in range(0, len(q), block):
        chunk = q[start:start + block]
        rising = np.cumsum(chunk * rising_weights[:len(chunk)])  # Σ_{start<=i<=k} e^{h(i−start)} q_i
        earlier = np.concatenate(([0.0], rising[:-1]))          # the same sum over i < k
        y[start:start + len(chunk)] = falling_weights[:len(chunk)] * (start_value + earlier)
        start_value = decay * (chunk[-1] + y[start + len(chunk) - 1])
    return y[::-1]


_WEIGHTS: dict[float, tuple[NDArray, NDArray]] = {}


def _exponential_weights(interval: float, length: int) -> tuple[NDArray, NDArray]:
    """``e^{h i}`` and ``e^{−h i}`` for ``i < length`` (memoised per ``h``: a training loop's queries
    share one spacing; the entries are elementwise functions of ``i h``, so a longer memoised
    array has the same leading bits)."""
    cached = _WEIGHTS.get(interval)
    if cached is None or len(cached[0]) < length:
        if len(_WEIGHTS) > 64:
            _WEIGHTS.clear()
        steps = np.arange(max(length, 2 * len(cached[0]) if cached else length), dtype=float)
        steps *= interval
        with np.errstate(over="ignore", under="ignore"):   # e^{hi} is used up to e^600 only
            cached = _WEIGHTS[interval] = (np.exp(steps), np.exp(-steps))
    return cached


def _suffix_sums(grid: LossGrid, start: int = 0,
                 tails: NDArray | None = None) -> tuple[int, NDArray, NDArray, NDArray]:
    """``(j0, S_j, U_j, δ(l_j))`` of :func:`_closed_form_epsilon` for the grid points ``j >= j0``.

    ``j0`` is the last point below loss 0 (only ε >= 0 is sought), or ``start`` if larger.
    The sums run from the top of the grid down, so leaving out the points below ``j0``
    changes none of them (``tails``, if given, is ``cumsum`` of the reversed masses: the
    same bits as ``S`` computed here).
    """
    j0 = min(max(0, -grid.offset - 1, start), len(grid.probabilities) - 1)
    p = grid.probabilities[j0:]
    weighted = discounted_suffix_sums(p, grid.interval)  # U_j
    suffix = (np.cumsum(p[::-1]) if tails is None else tails[:len(p)])[::-1]   # S_j
    at_grid = np.append(suffix[1:], 0.0) - weighted  # δ(l_j) = S_{j+1} − U_j
    return j0, suffix, weighted, at_grid


#: :func:`_guess` starts its suffix sums ``m`` points below the last point whose upper tail exceeds
#: ``1/_GUESS_SHARE`` times the target, with ``1 − e^{−hm} >= _GUESS_SHARE``: every point below fails.
_GUESS_SHARE = 0.1


def _guess_sums(grid: LossGrid, target: float) -> tuple[int, NDArray, NDArray, NDArray]:
    """The :func:`_suffix_sums` a guess of the ε at ``target`` (or any smaller target) needs.

    Only the top of the grid is summed: with ``S_j`` the mass above ``l_j``,
    ``δ(l_j) >= (1 − e^{−hm}) S_{j+m+1}``, so no point ``j`` with
    ``S_{j+m+1} > target/_GUESS_SHARE`` can meet the target. If the first point kept
    already meets it (float noise), the whole grid from loss 0 is summed instead. For a
    guess only: the answer is verified by :func:`delta_upper` whatever it is.
    """
    m = math.ceil(-math.log1p(-_GUESS_SHARE) / grid.interval)
    tails = _top_tails(grid.probabilities, target / _GUESS_SHARE, m + 4)
    first_above = int(np.searchsorted(tails, target / _GUESS_SHARE, side="right"))
    start = len(grid.probabilities) - 1 - first_above - m - 3
    if first_above < len(tails) and start > 0:
        sums = _suffix_sums(grid, start, tails)
        if sums[0] == start and not sums[3][0] <= target:   # the first point kept fails
            return sums
    return _suffix_sums(grid, 0, _top_tails(grid.probabilities, math.inf, 0))


#: Points per cumulative sum of :func:`_top_tails` (a sequential ``cumsum`` costs ~4 ns a point).
_TAIL_CHUNK = 4096


def _top_tails(probabilities: NDArray, threshold: float, extra: int) -> NDArray:
    """Cumulative masses from the top of the grid down (``tails[r]``: the top ``r + 1`` points),
    chunk by chunk, until they exceed ``threshold`` and ``extra`` more points are summed (or the
    grid ends): a query at a small δ only sums the top of a long grid. Floats, for guesses."""
    reversed_masses = probabilities[::-1]
    parts, carry, end, stop = [], 0.0, 0, len(reversed_masses)
    while end < stop:
        part = np.cumsum(reversed_masses[end:min(stop, end + _TAIL_CHUNK)]) + carry
        parts.append(part)
        end += len(part)
        carry = float(part[-1])
        if carry > threshold and stop == len(reversed_masses):
            stop = min(stop, end - len(part) + int(np.searchsorted(part, threshold, side="right"))
                       + extra + 1)
    if not parts:
        return np.zeros(0)
    tails = np.concatenate(parts) if len(parts) > 1 else parts[0]
    return tails[:stop]


def _closed_form_epsilon(grid: LossGrid, sums: tuple[int, NDArray, NDArray, NDArray],
                         target: float) -> float | None:
    """Float estimate of the ε >= 0 with δ_grid(ε) = target, by suffix sums (no rigour needed).

    On ``[l_{j−1}, l_j]``, ``δ(ε) = S_j − e^{ε − l_{j−1}} U_{j−1}`` with
    ``S_j = Σ_{i≥j} p_i`` and ``U_j = Σ_{i>j} p_i e^{−(l_i − l_j)}``, computed by
    the stable reverse recurrence ``U_j = e^{−h} (p_{j+1} + U_{j+1})`` (``sums``:
    :func:`_suffix_sums`).
    """
    j0, suffix, weighted, at_grid = sums
    passing = np.nonzero(at_grid <= target)[0]
    if not len(passing) or passing[0] == 0:
        return None
    j = int(passing[0])
    ratio = (suffix[j] - target) / weighted[j - 1] if weighted[j - 1] > 0 else 0.0
    if not ratio > 0:
        return None
    return (grid.offset + j0 + j - 1) * grid.interval + math.log(ratio)


def epsilon_upper(grid: LossGrid, delta: float) -> float:
    """Smallest ε >= 0 (to 1e-12 relative, rounded up) with ``delta_upper(grid, ε) <= delta``.

    Returns ``inf`` when no finite ε qualifies (the mass at ``+inf`` already
    exceeds ``delta``; beyond the largest grid loss no float error applies).
    ``delta_upper`` is non-increasing in ε, so a verified bracket ``(low, high]``
    with ``low > 0`` failing and ``high`` passing holds the answer: the checks
    at 0 and at the top of the grid are then skipped (same answer, fewer sums).
    """
    def meets(epsilon: float) -> bool:
        return delta_upper(grid, epsilon) <= delta

    top = max(grid.largest_loss, 0.0) + grid.interval
    target = (delta - grid.infinity_mass) / (1 + SUM_SLACK)
    sums = _guess_sums(grid, target)
    guess = _closed_form_epsilon(grid, sums, target)
    if guess is not None and guess > 0 and grid.error:   # once more, with the error there
        error = float(grid.error_at(max(0.0, guess - 1e-6 * (1 + guess))))
        guess = _closed_form_epsilon(grid, sums,   # a smaller target: the same sums serve
                                     (delta - grid.infinity_mass - error) / (1 + SUM_SLACK))
    if guess is not None and guess > 0:
        # a bracket already within the tolerance costs two evaluations; wider ones a few more
        for width in (4e-14 * guess + 4e-16, 1e-11 * (1 + guess),
                      1e-9 * (1 + guess) + 4 * grid.interval * 1e-9):
            low, high = max(0.0, guess - width), min(top, guess + width)
            if meets(high):
                if low > 0 and not meets(low):
                    if high - low <= 1e-15 + 1e-13 * high:   # verified: high passes, low fails
                        return high
                    return bisect_passing(meets, low, high, rtol=1e-13, atol=1e-15)
                break   # the root lies below the bracket: search the whole range
    if meets(0.0):
        return 0.0
    if not meets(top):
        return math.inf
    return bisect_passing(meets, 0.0, top, rtol=1e-13, atol=1e-15)
