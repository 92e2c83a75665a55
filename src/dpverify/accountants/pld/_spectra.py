"""Spectra of PLD grids and their product, with per-frequency error bounds (``docs/proofs/pld.md``, §4).

The frequency-domain half of :func:`~dpverify.accountants.pld._fft.compose_grids`: each
distinct factor's real FFT and a componentwise bound on its error (:func:`_spectrum`),
raised to its count and multiplied (:func:`_spectral_product`), only at the frequencies
where the product is not negligible; the ℓ2 norms of the error (:func:`_hermitian_norm`);
and the per-grid memo (:func:`_memo`) that makes a query after every training step cost a
fraction of the first one.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpverify.accountants.pld._grid import UNIT_ROUNDOFF, LossGrid

__all__: list[str] = []   # the private engine of _fft

_U = UNIT_ROUNDOFF
#: Assumption: error of one level of numpy's pocketfft (a radix-r pass counts as log₂ r levels:
#: 2 for radix 4, 1.58 for radix 3, 2.32 for radix 5), in units of the inputs' magnitude
#: (Higham 2002, Thm 24.2 derives η ≈ 7.7u for radix 2).
_FFT_PASS_ERROR = 16 * _U
#: Bound on the mass lost to subnormal underflow by one float entry.
_TINY = 1e-300
#: Frequencies whose spectral product is bounded by e^this (< 1e-347) are left out of the
#: powering and set to 0 (:func:`_spectral_product`).
_NEGLIGIBLE_LOG = -800.0
#: Bytes of arrays the per-grid memo (:func:`_memo`) keeps, least recently used first out.
MEMO_BYTES = 2 ** 27
_MEMO: OrderedDict[tuple, tuple[LossGrid, Any, int]] = OrderedDict()
_MEMO_SIZE = [0]


def _memo(grid: LossGrid, key: tuple, compute: Callable[[], Any]) -> Any:
    """``compute()``, memoised per (grid object, ``key``): a pure function of an immutable grid.

    A grid's masses are read-only and every memoised value is a deterministic function
    of the grid and the key, so a memoised answer is bit-identical to a recomputed one
    (what makes a query after every training step cost a fraction of the first one). The
    entry holds the grid, so its ``id`` cannot be reused while the entry lives; at most
    :data:`MEMO_BYTES` of arrays are kept.
    """
    full = (id(grid), *key)
    entry = _MEMO.get(full)
    if entry is not None:
        _MEMO.move_to_end(full)
        return entry[1]
    value = compute()
    size = sum(item.nbytes for item in (value if isinstance(value, tuple) else (value,))
               if isinstance(item, np.ndarray))
    _MEMO[full] = (grid, value, size)
    _MEMO_SIZE[0] += size
    while _MEMO_SIZE[0] > MEMO_BYTES and len(_MEMO) > 1:
        _MEMO_SIZE[0] -= _MEMO.popitem(last=False)[1][2]
    return value


def _hermitian_norm(half: NDArray[np.float64], n: int,
                    indices: NDArray[np.intp] | None = None) -> float:
    """Upper bound on the ℓ2 norm over the full spectrum of a real signal of even length n, from
    its (non-negative) rfft half. Entries are raised to 1e-140 first: no square is subnormal
    (subnormal arithmetic is ~100x slower), and the norm only grows. With ``indices``, ``half``
    holds the entries at those frequencies only, and every other entry is at most 1e-140."""
    squares = np.square(np.maximum(half, 1e-140))   # np.sum, not a (threaded) BLAS dot
    if indices is None:
        return math.sqrt(float(squares[0] + squares[-1] + 2 * squares[1:n // 2].sum()))
    weights = np.where((indices == 0) | (indices == n // 2), 1.0, 2.0)
    others = n - float(weights.sum())               # the mirrored weight of the frequencies left out
    return math.sqrt(float(np.sum(weights * squares)) + others * 1e-280)


def _beta(length: int) -> float:
    """β: the relative error of a length-``length`` FFT (``⌊log₂ N⌋ + 1`` levels).

    **Assumption A2** (``docs/proofs/pld.md`` §4): a radix-r pass of pocketfft counts as
    ``log₂ r`` levels, each erring by at most :data:`_FFT_PASS_ERROR` times the magnitude
    of its inputs; a 5-smooth length has at most ``⌊log₂ N⌋ + 1`` levels.
    """
    levels = int(math.log2(length)) + 1
    return levels * _FFT_PASS_ERROR / (1 - levels * _FFT_PASS_ERROR)


def _spectrum(grid: LossGrid, length: int) -> tuple[NDArray, NDArray, float]:
    """``rfft(p, length)``, an integer ``e`` with ``ln b < e ln 2`` at each frequency for
    ``b = |Â|(1 + 2u) + π``, and ``π = β ‖p‖₁ (1 + n u) + _TINY`` (a componentwise bound on
    the FFT's error), memoised.

    ``e`` is the binary exponent of ``b`` read from its bits (``b = 1.f · 2^{E − 1023}`` with
    the biased exponent ``E``, so ``ln b < (E − 1022) ln 2``; a subnormal has ``E = 0`` and
    ``b < 2^{−1022}``), as 16-bit integers: :func:`_spectral_product` takes ``ln b`` only
    where these bounds say the product may not be negligible, from ``b`` recomputed there
    (:func:`_bounds`: the same bits); the logs of ``1 + π/|Â|`` and ``|Â|`` are needed only
    there too. The memo keeps ``Â`` and ``e`` (120 spectra of an epoch schedule: 47 MB).
    """
    def compute() -> tuple[NDArray, NDArray, float]:
        beta = _beta(length)
        spectrum = np.fft.rfft(grid.probabilities, n=length)
        size = len(grid.probabilities)
        perturbation = beta * float(grid.probabilities.sum()) * (1 + size * _U) + _TINY
        bound = _bounds(spectrum, perturbation)
        exponents = np.right_shift(bound.view(np.int64), 52, out=bound.view(np.int64))
        exponents -= 1022                       # E − 1022 (b > 0: the sign bit is 0)
        return spectrum, exponents.astype(np.int16), perturbation

    return _memo(grid, ("spectrum", length), compute)


def _bounds(spectrum: NDArray[np.complex128], perturbation: float) -> NDArray[np.float64]:
    """``|Â|(1 + 2u) + π`` for each entry of ``spectrum`` (in place, op for op: the same bits at a
    frequency whether computed on the whole spectrum or on a selection)."""
    bound = np.abs(spectrum)
    bound *= 1 + 2 * _U
    bound += perturbation
    return bound


def _power(values: NDArray[np.complex128], exponent: int) -> tuple[NDArray, int]:
    """``values ** exponent`` by binary powering (lowest bit first), and the number of complex
    multiplications. Only the frequencies of :func:`_spectral_product` that are not negligible
    are powered (a few hundred late in a training loop), so squares are not memoised."""
    result, base, multiplications = None, values, 0
    while exponent:
        if exponent & 1:
            multiplications += result is not None
            result = base if result is None else result * base
        exponent >>= 1
        if exponent:
            base, multiplications = base * base, multiplications + 1
    return result, multiplications


#: :func:`_candidates` keeps the frequencies where ``Σ_r k_r e_r ln 2`` is at least
#: :data:`_NEGLIGIBLE_LOG` minus this margin (room for the float sum's error, far below 1).
_CANDIDATE_MARGIN = 20.0


def _candidates(spectra: Sequence[tuple[NDArray, NDArray, float]],
                counts: Sequence[int]) -> NDArray[np.intp]:
    """The frequencies where the spectral product may not be negligible, by exact integer sums of
    the binary exponent bounds of :func:`_spectrum` (a superset of those :func:`_spectral_product`
    finds active: there the float sum of the logs is formed as before, in the same order, so
    the same frequencies come out, with the same bits; the logs are taken only here)."""
    size = len(spectra[0][1])
    threshold = (_NEGLIGIBLE_LOG - _CANDIDATE_MARGIN) / math.log(2)   # −1183.03 at −800
    if not math.isfinite(threshold) or sum(counts) > 2 ** 40:   # (int64 sums stay exact below)
        return np.arange(size)
    score = np.zeros(size, dtype=np.int64)
    for (_, exponents, _), k in zip(spectra, counts):
        score += np.multiply(exponents, np.int64(k), dtype=np.int64)
    # integers below ⌈threshold⌉ = −1183 are <= −1184: Σ k ln b < −1184 ln 2 < −820.7 there
    return np.flatnonzero(score >= math.ceil(threshold))


def _spectral_product(grids: Sequence[LossGrid], counts: Sequence[int],
                      length: int) -> tuple[NDArray, NDArray, float, NDArray | None]:
    """``Π_r rfft(p_r)^{k_r}``, a per-frequency bound on its error, the inverse FFT's β, and the
    frequencies computed (``None``: all).

    With ``|Â − A| <= π = β ‖p‖₁`` componentwise (β from the pass error over
    ``log₂ N + 1`` passes), ``|Π Â^k − Π A^k| <= Π(|Â| + π)^k − Π|Â|^k``;
    powering rounds each complex product within ``4u`` relative.

    **Negligible frequencies.** Where ``Σ_r k_r ln(|Â_r| + π_r) < −800`` (most
    frequencies of a many-fold composition: its spectrum is narrow) the exact
    product ``|Π A^k| <= Π(|Â| + π)^k < e^{−799} < 10^{−347}`` (the float sum of
    logs errs by far less than 1) is not computed: the entry is set to 0, and the
    norms of :func:`compose_grids` count its error as 1e-140, the floor of
    :func:`_hermitian_norm`. Only the other frequencies are powered and bounded, so
    a query late in a training loop costs a few hundred complex products instead
    of ``N/2`` (``docs/proofs/pld.md``, §4). The logs of the bounds are taken only at the
    frequencies :func:`_candidates` keeps (a superset of those active, from exact integer
    sums of binary exponents): the same frequencies and bits as taking them everywhere.
    """
    beta = _beta(length)
    spectra = [_spectrum(grid, length) for grid in grids]
    half = length // 2 + 1
    candidates = _candidates(spectra, counts)
    log_upper = 0.0
    for (spectrum, _, perturbation), k in zip(spectra, counts):
        log_upper = log_upper + k * np.log(_bounds(spectrum[candidates], perturbation))
    active = candidates[log_upper >= _NEGLIGIBLE_LOG]
    indices: NDArray[np.intp] | slice = slice(None) if len(active) == half else active
    if len(active) < len(candidates):
        log_upper = log_upper[log_upper >= _NEGLIGIBLE_LOG]
    log_gap, log_computed, product, multiplications = 0.0, 0.0, None, 0
    for (spectrum, _, perturbation), k in zip(spectra, counts):
        selected = spectrum[indices]
        magnitude = np.abs(selected) * (1 + 2 * _U)
        with np.errstate(divide="ignore"):
            log_gap = log_gap + k * np.log1p(perturbation / magnitude)
            log_computed = log_computed + k * np.log(magnitude)
        powered, used = _power(selected, k)
        multiplications += used + (product is not None)
        product = powered if product is None else product * powered
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        error = np.exp(log_upper) * -np.expm1(-log_gap) * (1 + 1e-9)
        error += ((1 + 4 * _U) ** multiplications - 1) * np.exp(log_computed)
    error = error + multiplications * _TINY
    if isinstance(indices, slice):
        return product, error, beta, None
    full = np.zeros(half, dtype=np.complex128)
    full[active] = product
    return full, error, beta, active
