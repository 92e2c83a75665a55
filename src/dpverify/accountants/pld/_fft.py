"""Composition of PLD grids by FFT with a rigorous float-error bound (``docs/proofs/pld.md``, §4).

:func:`compose_grids` computes the loss distribution of ``Σ_r k_r`` independent
copies of grids with a common spacing: one real FFT per distinct factor on a
window chosen by Chernoff bounds, the spectra raised to the powers ``k_r`` and
multiplied, one inverse FFT. The float error is bounded per frequency from
the actual spectrum and added to the grid's ℓ1 error.
"""

from __future__ import annotations

import bisect
import functools
import math
from collections import OrderedDict
from collections.abc import Sequence

import mpmath
import numpy as np
from numpy.typing import NDArray

from dpverify._numeric import round_up, working_precision
from dpverify.accountants.pld._grid import UNIT_ROUNDOFF, LossGrid, coarsen, frozen, regrid
from dpverify.accountants.pld._spectra import _hermitian_norm, _memo, _spectral_product

__all__ = ["compose_grids", "choose_tilt", "fft_length", "next_smooth", "MAX_WINDOW_POINTS"]

_U = UNIT_ROUNDOFF
#: Safety factor on error bounds that are themselves evaluated in floats.
_SAFETY = 2.0
#: Composed windows wider than this are computed on a coarser grid (memory and time guard).
MAX_WINDOW_POINTS = 2 ** 22


def _log_mgfs(grid: LossGrid, ts: NDArray[np.float64]) -> NDArray[np.float64]:
    """Upper bounds on ``ln Σ_i p_i e^{t l_i}`` for each t (float evaluation, 1e-9 relative slack)."""
    return _memo(grid, ("mgf", ts.tobytes()), lambda: _compute_log_mgfs(grid, ts))


#: :func:`_shared_log_mgfs` is used when ``|t l| <= this`` on the whole grid (no overflow, and a
#: term is lost to underflow only below 1e-308, against a sum above 1e-277), the grid's
#: finite mass is at least 1e-10 and it has at most 10^6 points (float sum within 1.2e-10).
_SHARED_MGF_EXPONENT = 600.0
#: ``e^{t i h}`` tables of :func:`_exponential_table`: (interval, ts) -> (first index, table).
_EXP_TABLES: OrderedDict[tuple, tuple[int, NDArray]] = OrderedDict()


def _exponential_table(interval: float, ts: NDArray[np.float64], low: int,
                       high: int) -> NDArray[np.float64]:
    """``e^{t_j · (i h)}`` for grid indices ``low <= i <= high`` (rows) and each t (columns).

    Memoised per ``(h, ts)`` and grown as needed (only the rows missing are computed): each
    entry is an elementwise function of ``i``, ``h`` and ``t_j`` (the same bits whichever
    range is tabulated), so the factors of a composition on one spacing share one table of
    exponentials instead of one each.
    """
    key = (interval, ts.tobytes())
    cached = _EXP_TABLES.get(key)
    if cached is not None and cached[0] <= low and cached[0] + len(cached[1]) - 1 >= high:
        _EXP_TABLES.move_to_end(key)
    else:
        def rows(start: int, stop: int) -> NDArray[np.float64]:
            losses = np.arange(start, stop + 1, dtype=np.float64) * interval
            return np.exp(np.multiply.outer(losses, ts))

        if cached is None:
            cached = (low, rows(low, high))
        else:
            first, last = cached[0], cached[0] + len(cached[1]) - 1
            parts = [rows(low, first - 1)] if low < first else []
            parts.append(cached[1])
            if high > last:
                parts.append(rows(last + 1, high))
            cached = (min(low, first), np.concatenate(parts))
        _EXP_TABLES[key] = cached
        while len(_EXP_TABLES) > 8:
            _EXP_TABLES.popitem(last=False)
    first, table = cached
    return table[low - first:high - first + 1]


def _shared_log_mgfs(grid: LossGrid, ts: NDArray[np.float64]) -> NDArray[np.float64] | None:
    """:func:`_log_mgfs` from the shared table of exponentials, or ``None`` outside its range of use."""
    size = len(grid.probabilities)
    high = grid.offset + size - 1
    reach = float(np.max(np.abs(ts))) * max(abs(grid.offset), abs(high)) * grid.interval
    if not (reach <= _SHARED_MGF_EXPONENT and size <= 10 ** 6
            and float(np.sum(grid.probabilities)) >= 1e-10):
        return None
    table = _exponential_table(grid.interval, ts, grid.offset, high)
    sums = np.einsum("i,ij->j", grid.probabilities, table)   # sequential sums, no BLAS
    if not np.all(sums > 0):
        return None
    values = np.log(sums)
    values = values + 1e-9 * (1 + np.abs(values))
    values.setflags(write=False)
    return values


def _compute_log_mgfs(grid: LossGrid, ts: NDArray[np.float64]) -> NDArray[np.float64]:
    shared = _shared_log_mgfs(grid, ts)
    if shared is not None:
        return shared
    positive = grid.probabilities > 0
    losses = (grid.offset + np.flatnonzero(positive)) * grid.interval
    log_masses = np.log(grid.probabilities[positive])
    values = np.empty(len(ts))
    rows = max(1, 2 ** 22 // max(1, len(losses)))  # bound the temporary's size
    for start in range(0, len(ts), rows):
        exponents = ts[start:start + rows, None] * losses[None, :] + log_masses[None, :]
        top = exponents.max(axis=1)
        values[start:start + rows] = top + np.log(np.exp(exponents - top[:, None]).sum(axis=1))
    values = values + 1e-9 * (1 + np.abs(values))
    values.setflags(write=False)
    return values


def _composed_std(grids: Sequence[LossGrid], counts: Sequence[int]) -> float:
    """Standard deviation of the composed finite loss (a float estimate, to scale searches)."""
    variance = sum(k * _memo(g, ("variance",), lambda g=g: _variance(g)) for g, k in zip(grids, counts))
    return math.sqrt(variance) if variance > 0 else grids[0].interval


def _variance(grid: LossGrid) -> float:
    """Variance of one grid's normalised finite loss.

    Sums by ``np.sum`` rather than ``np.dot``: OpenBLAS threads its dot products, which on a
    busy machine costs milliseconds per call instead of microseconds.
    """
    weights = grid.probabilities / max(float(grid.probabilities.sum()), 1e-300)
    losses = (grid.offset + np.arange(len(weights))) * grid.interval
    mean = float(np.sum(weights * losses))
    return float(np.sum(weights * (losses - mean) ** 2))


def _quantised(value: float) -> float:
    """``value`` rounded down to a power of ``2^(1/4)``: a search scale that changes in steps.

    Scales derived from a composition's count change at every count; quantised,
    the per-grid values they key (:func:`_memo`) are reused over ranges of counts.
    """
    return 2.0 ** (math.floor(4 * math.log2(value)) / 4)


def _chernoff_window(grids: Sequence[LossGrid], counts: Sequence[int],
                     tail: float) -> tuple[int, int]:
    """Indices ``[low, high]`` outside which the composed finite masses are <= ``tail`` per side.

    Markov's inequality for the non-negative measure ``D̃^{*k}``:
    ``D̃(S > x) <= e^{−tx} Π_r M_r(t)^{k_r}`` for every ``t > 0`` (and ``S < x``
    with ``−t``); the best of 9 values of t around the Gaussian optimum is taken.
    """
    h = grids[0].interval
    support_low = sum(k * g.offset for g, k in zip(grids, counts))
    support_high = sum(k * (g.offset + len(g.probabilities) - 1) for g, k in zip(grids, counts))
    scale = _composed_std(grids, counts)
    # the optimal t for a Gaussian-like sum is about sqrt(2 ln(1/tail)) / std: 9 values around it
    centre = _quantised(math.sqrt(2 * math.log(1 / tail)) / scale)
    ts = centre * np.array([0.05, 0.15, 0.3, 0.5, 0.7, 0.85, 1.0, 1.3, 2.0])
    up = sum(k * _log_mgfs(g, ts) for g, k in zip(grids, counts))
    down = sum(k * _log_mgfs(g, -ts) for g, k in zip(grids, counts))
    log_tail = math.log(tail)
    best_high = float(np.min((up - log_tail) / ts))
    best_low = float(np.max((log_tail - down) / ts))
    high = support_high if not math.isfinite(best_high) else min(
        support_high, math.ceil(best_high / h))
    low = support_low if not math.isfinite(best_low) else max(
        support_low, math.floor(best_low / h))
    return low, max(low, high)


def choose_tilt(grids: Sequence[LossGrid], counts: Sequence[int], *,
                epsilon: float | None = None, delta: float | None = None) -> tuple[float, float]:
    """Tilt ``t >= 0`` for a query, and the log of the Chernoff bound it gives (a hint only).

    With ``K(t) = Σ_r k_r ln M_r(t)`` the cumulant of the composed loss,
    ``P(L > ε) <= e^{K(t) − tε}``. For a δ(ε) query ``t`` minimises
    ``K(t) − tε``; for an ε(δ) query it minimises ``(K(t) − ln δ)/t`` (the
    Chernoff ε at δ) and that ε is used. The FFT error of a composition
    tilted by ``t`` is then of the order of this bound times 1e-12.
    """
    scale = _composed_std(grids, counts)
    ts = np.logspace(-3, 3, 121) / scale
    cumulant = sum(k * _log_mgfs(g, ts) for g, k in zip(grids, counts))
    if epsilon is None:
        epsilon_values = (cumulant - math.log(delta)) / ts
        best = int(np.argmin(epsilon_values))
        epsilon = float(epsilon_values[best])
        return float(ts[best]), float(cumulant[best] - ts[best] * epsilon)
    exponents = cumulant - ts * epsilon
    best = int(np.argmin(exponents))
    return float(ts[best]), float(exponents[best])


def fft_length(points: int) -> int:
    """The FFT length of a composition: the smallest even 5-smooth number >= ``points`` (>= 2).

    pocketfft factors it into radix-4, 2, 3 and 5 passes. Powers of two are not used: they
    are up to twice as long as needed and, measured, no faster per point (a length-65536
    inverse transform took 1.2 ms, one of length 45000 0.4 ms).
    """
    return 2 * next_smooth(max(1, -(-points // 2)))


def next_smooth(target: int) -> int:
    """The smallest 5-smooth number (``2^a 3^b 5^c``) >= ``target`` >= 1.

    What ``scipy.fft.next_fast_len(target, real=True)`` returns (a test compares them), in
    pure Python: importing ``scipy.fft`` for it cost a fresh process ~50 ms at its first
    composition. Targets up to ``2^24`` are a bisection in the sorted table of the 5-smooth
    numbers there (:func:`_smooth_numbers`, ~1 µs a call); larger ones take, for each ``3^b 5^c``
    below the best length so far, the smallest power of 2 that lifts it to ``target``.
    """
    table = _smooth_numbers()
    if target <= table[-1]:
        return table[bisect.bisect_left(table, target)]
    best = 1 << (target - 1).bit_length()   # the power of 2 >= target
    fives = 1
    while fives < best:
        odd = fives
        while odd < best:
            best = min(best, odd << (-(-target // odd) - 1).bit_length())
            odd *= 3
        fives *= 5
    return best


@functools.cache
def _smooth_numbers() -> tuple[int, ...]:
    """The 5-smooth numbers up to ``2^24``, sorted (836 of them, built once)."""
    limit, numbers = 1 << 24, []
    fives = 1
    while fives <= limit:
        odd = fives
        while odd <= limit:
            power = odd
            while power <= limit:
                numbers.append(power)
                power <<= 1
            odd *= 3
        fives *= 5
    return tuple(sorted(numbers))


def _finish(grids: Sequence[LossGrid], counts: Sequence[int], masses: NDArray, low: int,
            fft_error: float, *, lower_cut: bool, upper_cut: bool, tail: float,
            tilt: float = 0.0, log_scale: float = 0.0) -> LossGrid:
    """Mass at ``+inf``, propagated error and moved tails of a composition, rounded up.

    The mass at ``+inf`` of a sum of independent losses is ``1 − Π(1 − m_r)^{k_r}``
    (increasing in each ``m_r``, so upper bounds may be used; exact in
    mpmath at 50 digits, then rounded up). The finite part's propagated error
    is ``Π(f_r + e_r)^{k_r} − Π f_r^{k_r}`` (``f_r`` the finite masses, ``e_r``
    their errors) in plain ℓ1, and ``0`` for error-free factors in any tilt.
    A cut upper tail (``<= tail`` of the exact convolution of the float
    factors, by Chernoff, plus the propagated error) goes to ``+inf``.
    """
    with working_precision():
        ones = mpmath.mpf(1)
        infinity = ones - mpmath.fprod((ones - mpmath.mpf(g.infinity_mass)) ** k
                                       for g, k in zip(grids, counts))
        truncation = mpmath.fsum(k * mpmath.mpf(g.truncation) for g, k in zip(grids, counts))
        propagated = mpmath.mpf(0)
        if any(g.error for g in grids):
            finite = [mpmath.mpf(_fsum(g)) * (1 + 2 * _U) for g in grids]
            propagated = (mpmath.fprod((f + g.error) ** k for f, g, k in zip(finite, grids, counts))
                          - mpmath.fprod(f ** k for f, k in zip(finite, counts)))
        if upper_cut:
            infinity += tail + propagated
            truncation += tail + propagated
        if lower_cut:
            masses[0] = np.nextafter(masses[0] + tail, np.inf)
        slack = mpmath.mpf(10) ** -30
        error = mpmath.mpf(fft_error) + propagated + (slack if fft_error else 0)
        masses.setflags(write=False)   # a fresh array of this composition's: frozen in place
        return LossGrid(grids[0].interval, low, masses,
                        min(1.0, round_up(infinity + infinity * slack)),
                        round_up(error), round_up(truncation), tilt, log_scale)


def _fsum(grid: LossGrid) -> float:
    """The correctly rounded sum of a grid's masses (memoised)."""
    return _memo(grid, ("fsum",), lambda: math.fsum(grid.probabilities.tolist()))


def _coarsened(grids: Sequence[LossGrid], counts: Sequence[int],
               tail: float) -> tuple[list[LossGrid], int, int]:
    """Regrid (losses rounded up) by an integer factor until the window fits; return it."""
    while True:
        low, high = _chernoff_window(grids, counts, tail / 2)
        width = high - low + 1
        if width <= MAX_WINDOW_POINTS:
            return list(grids), low, high
        factor = 1 << (math.ceil(width / MAX_WINDOW_POINTS) - 1).bit_length()
        grids = [coarsen(g, factor) if not g.error else regrid(g, g.interval * factor)
                 for g in grids]


def _tilted(grid: LossGrid, tilt: float) -> tuple[LossGrid, float]:
    """``p_i e^{tilt · l_i}`` scaled to sum 1 (so no power of its spectrum overflows), and the log of the scale."""
    if tilt == 0.0:
        return grid, 0.0
    losses = (grid.offset + np.arange(len(grid.probabilities))) * grid.interval
    with np.errstate(divide="ignore"):
        logs = np.log(grid.probabilities) + tilt * losses
    top = float(np.max(logs))
    scale = top + math.log(float(np.sum(np.exp(logs - top))))
    return LossGrid(grid.interval, grid.offset, frozen(np.exp(logs - scale)), 0.0, 0.0), scale


def compose_grids(grids: Sequence[LossGrid], counts: Sequence[int], *, tail: float,
                  tilt: float = 0.0) -> LossGrid:
    """The pessimistic grid of ``Σ_r k_r`` independent losses (one direction, common spacing).

    The composed masses are the circular convolution of the factors (length
    N ≥ the window) read on a Chernoff window ``[low, high]``; the exact circular
    convolution is >= the linear one there (aliasing only adds mass). Mass
    outside the window (<= ``tail/2`` per side) is added to the first point and
    to ``+inf``. Error: per-frequency bound, Parseval, the inverse FFT's
    normwise error, ``‖·‖₁ <= √width ‖·‖₂``, times 2.

    With ``tilt = t > 0`` (error-free factors only) the convolution is computed
    on the exponentially tilted masses ``p_i e^{t l_i}`` (convolution commutes
    with the tilt) and tilted back, so the float error is bounded in the
    weighted norm ``Σ |·| e^{t l}``: at a loss ``l`` it is ``e^{−t l}`` times
    smaller, and δ(ε) for large ε keeps a *relative* precision instead of an
    absolute floor of ~1e-12 (``docs/proofs/pld.md``, §6). Entries tilted back
    are clipped to ``[0, Π f_r^{k_r}]`` (every entry of the exact convolution
    lies there, so clipping never increases the error).
    """
    if len(grids) == 1 and counts[0] == 1 and tilt == 0.0:
        return grids[0]
    if tilt and any(g.error for g in grids):
        raise ValueError("a tilted composition needs error-free factors")
    grids, low, high = _coarsened(grids, counts, tail)
    base = sum(k * g.offset for g, k in zip(grids, counts))
    support_high = sum(k * (g.offset + len(g.probabilities) - 1) for g, k in zip(grids, counts))
    width = high - low + 1
    length = fft_length(max(width, *(len(g.probabilities) for g in grids)))
    tilted = [_tilted(g, tilt) for g in grids]
    log_scale = sum(k * scale for (_, scale), k in zip(tilted, counts))
    product, spectral_error, beta, active = _spectral_product([g for g, _ in tilted], counts, length)
    circular = np.fft.irfft(product, n=length)
    magnitudes = np.abs(product if active is None else product[active])
    fft_error = (math.sqrt(width / length) * _SAFETY
                 * (_hermitian_norm(spectral_error, length, active)
                    + beta * _hermitian_norm(magnitudes, length, active)))
    start = (low - base) % length   # the window, read circularly: one or two slices
    window = (circular[start:start + width] if start + width <= length
              else np.concatenate((circular[start:], circular[:start + width - length])))
    masses = np.maximum(window, 0.0)
    if tilt:
        losses = np.arange(low, high + 1) * grids[0].interval
        ceiling = math.exp(min(700.0, sum(
            k * math.log(max(_fsum(g), 1e-300))
            for g, k in zip(grids, counts)))) * (1 + 1e-12)
        with np.errstate(divide="ignore", over="ignore", under="ignore", invalid="ignore"):
            exponents = np.log(masses) + (log_scale - tilt * losses)
            # exp of an argument with absolute error a has relative error <= a + u
            relative = 4 * _U * (np.abs(np.log(masses)) + abs(log_scale) + np.abs(tilt * losses) + 2)
            fft_error += float(np.sum(np.where(masses > 0, masses * relative, 0.0))) * 2
            masses = np.exp(exponents)
        masses = np.nan_to_num(np.minimum(masses, ceiling), nan=ceiling, posinf=ceiling)
    return _finish(grids, counts, masses, low, fft_error, lower_cut=low > base,
                   upper_cut=high < support_high, tail=tail / 2, tilt=tilt, log_scale=log_scale)
