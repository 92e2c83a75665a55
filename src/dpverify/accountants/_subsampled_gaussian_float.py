"""Rényi moments of the Poisson-subsampled Gaussian in floats, with a proven error bound.

The fast path of :func:`dpverify.accountants.rdp.curves.subsampled_gaussian_rdp`: the
same expansions as :mod:`dpverify.accountants.rdp._subsampled_gaussian` (Mironov,
Talwar & Zhang 2019, Sec. 3.3), evaluated in numpy for all orders at once
(one matrix of terms), in log space. Every term's logarithm carries an
absolute error bound, so each term is known within a relative error
``e^E − 1``:

* integer α: ``A_α − 1`` is a sum of positive terms; each log is raised by its
  bound before a log-sum-exp (no overflow, no cancellation);
* fractional α: the two series split at ``z0`` (any float ``z0`` is an exact
  split, and the Taylor remainder bound ``0 ≤ R ≤ C(α,N) r^N``, ``N > α``,
  holds for every ``r ≥ 0``), summed exactly with :func:`math.fsum` together
  with ``−1``, plus ``Σ |term| (e^E − 1)`` and the positive remainder term.

Orders whose certified error exceeds :data:`MAX_RELATIVE_ERROR` of ``A_α − 1``
(heavy cancellation near α = 1 with tiny q) come back as ``nan``: the caller
evaluates those in mpmath. At 5e-8 the float values are as tight as the
mpmath ones (within 1e-7 of the exact moments).

Assumptions: scipy's ``log_ndtr`` within :func:`log_ndtr_error` and
``gammaln`` within ``16 u |value| + 1e-15`` (both checked against mpmath in
``tests/accountants/rdp/test_rdp_float.py``); numpy's ``exp``, ``log``, ``log1p``,
``expm1`` within 1 ulp; a sum of ``n`` float terms within ``n u`` of their
magnitudes (each log term is a sum of at most 6 rounded components: 6u).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

import numpy as np
from scipy.special import gammaln, log_ndtr

__all__ = ["log_moments_upper_float", "MAX_RELATIVE_ERROR"]

_U = 2.0 ** -53
#: Give up on an order (nan) when the certified error exceeds this fraction of ``A_α − 1``.
MAX_RELATIVE_ERROR = 5e-8
#: Terms of the fractional series beyond ``⌊α⌋ + 1`` (the last one bounds the remainder).
_EXTRA_TERMS = 48
#: Orders above this are left to mpmath.
_MAX_FLOAT_ORDER = 4096


def log_ndtr_error(z: np.ndarray, value: np.ndarray) -> np.ndarray:
    """Assumed bound on ``|log_ndtr(z) − ln Φ(z)|``: ``1e-12 |ln Φ| + 1e-300`` for ``z >= 0``,
    ``1e-15 + 2e-15 |ln Φ|`` below (measured against mpmath at 60 digits on [−40, 38.5]: at
    most 0.26 of it; ``tests/accountants/rdp/test_rdp_float.py`` re-checks it)."""
    magnitude = np.abs(value)
    return np.where(z >= 0, 1e-12 * magnitude + 1e-300, 1e-15 + 2e-15 * magnitude)


def _argument_error(z: np.ndarray) -> np.ndarray:
    """Error in ``ln Φ(z)`` from the rounding of ``z = (z0 − i)/σ`` (``<= 3u(|z| + 1)``), times
    ``(ln Φ)'(z) = φ(z)/Φ(z)``: at most ``|z| + 1`` (Mills) and, for ``z >= 0``, ``2φ(z)``."""
    slope = np.where(z >= 0, 0.8 * np.exp(-0.5 * np.minimum(z, 40.0) ** 2), np.abs(z) + 1)
    return slope * 3 * _U * (np.abs(z) + 1)


def _log_binomial(alpha: np.ndarray, i: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``ln |C(α, i)|`` (broadcast), its sign, and a bound on the absolute error of the log."""
    parts = (gammaln(alpha + 1), gammaln(i + 1.0), gammaln(alpha - i + 1.0))
    value = parts[0] - parts[1] - parts[2]
    error = 20 * _U * (np.abs(parts[0]) + np.abs(parts[1]) + np.abs(parts[2])) + 3e-15
    # C(α, 0) = 1 and C(α, 1) = α exactly: no gammaln error on the largest terms
    value = np.where(i == 0, 0.0, np.where(i == 1, np.log(alpha) + 0 * i, value))
    error = np.where(i == 0, 0.0, np.where(i == 1, 2 * _U * np.abs(np.log(alpha)) + 1e-300, error))
    negative_factors = np.maximum(0, i - np.floor(alpha) - 1)  # factors α − m < 0 for m < i
    sign = np.where(negative_factors % 2 == 1, -1.0, 1.0)
    return value, sign, error


@functools.lru_cache(maxsize=64)
def _binomial_table(alphas: tuple[float, ...], start: int, width: int,
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_log_binomial` of the orders (rows) and ``i = start, …, start + width − 1``
    (columns), cached: it depends on neither q nor σ."""
    i = np.arange(start, start + width, dtype=np.float64)[None, :]
    alpha = np.asarray(alphas)[:, None]
    alpha = np.where(i <= alpha, alpha, i) if start == 2 else alpha   # integer rows: k <= α only
    tables = _log_binomial(alpha, i)
    for table in tables:
        table.setflags(write=False)
    return tables


def _integer_orders(q: float, sigma: float, alphas: np.ndarray) -> np.ndarray:
    """Upper bounds on ``ln A_α`` for integer orders (rows), by log-sum-exp of raised logs."""
    k = np.arange(2, int(alphas.max()) + 1, dtype=np.float64)[None, :]
    alpha = alphas[:, None]
    valid = k <= alpha
    alpha_safe = np.where(valid, alpha, k)
    log_c, _, c_error = _binomial_table(tuple(alphas.tolist()), 2, k.size)
    exponent = (k * k - k) / (2 * sigma ** 2)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):   # (unused branches)
        log_excess = np.where(exponent < 30, np.log(np.expm1(np.minimum(exponent, 30.0))),
                              exponent + np.log1p(-np.exp(-exponent)))
    log_terms = log_c + (alpha_safe - k) * math.log1p(-q) + k * math.log(q) + log_excess
    error = (c_error + 8 * _U * (np.abs(log_c) + np.abs((alpha_safe - k) * math.log1p(-q))
                                 + np.abs(k * math.log(q)) + 2 * exponent + np.abs(log_excess) + 4))
    raised = np.where(valid, log_terms + error + 2 * _U * (np.abs(log_terms) + 1), -np.inf)
    top = raised.max(axis=1)
    with np.errstate(over="ignore", invalid="ignore"):
        total = np.exp(raised - top[:, None]).sum(axis=1) * (1 + (k.size + 4) * _U)
        log_excess_upper = top + np.log(total)
        log_upper = np.logaddexp(0.0, log_excess_upper) * (1 + 8 * _U) + 1e-300
    return np.where(np.isfinite(log_upper), log_upper, np.nan)


def _fractional_orders(q: float, sigma: float, alphas: np.ndarray,
                       extra: int = _EXTRA_TERMS) -> np.ndarray:
    """Upper bounds on ``ln A_α`` for fractional orders (rows), or nan where imprecise
    (float error above :data:`MAX_RELATIVE_ERROR`, or a remainder above 1e-9 of the result)."""
    z0 = sigma ** 2 * math.log(1 / q - 1) + 0.5
    first_after = np.floor(alphas) + 1                        # N0 = the smallest integer > α
    width = int(first_after.max()) + extra + 1
    i = np.arange(width, dtype=np.float64)[None, :]
    alpha = alphas[:, None]
    j = alpha - i
    log_c, sign, c_error = _binomial_table(tuple(alphas.tolist()), 0, width)
    z_low, z_high = (z0 - i) / sigma, (j - z0) / sigma
    tail_low, tail_high = log_ndtr(z_low), log_ndtr(z_high)
    log_q, log_p = math.log(q), math.log1p(-q)
    log_low = log_c + (alpha - i) * log_p + i * log_q + (i * i - i) / (2 * sigma ** 2) + tail_low
    log_high = log_c + j * log_q + i * log_p + (j * j - j) / (2 * sigma ** 2) + tail_high
    # each log term is a sum of 5 rounded components: error <= 6u · Σ |component| (+ tails)
    size_low = (np.abs(log_c) + np.abs((alpha - i) * log_p) + i * abs(log_q)
                + (i * i + i) / (2 * sigma ** 2) + np.abs(tail_low))
    size_high = (np.abs(log_c) + np.abs(j * log_q) + i * abs(log_p)
                 + (j * j + np.abs(j)) / (2 * sigma ** 2) + np.abs(tail_high))
    error_low = (c_error + 6 * _U * size_low
                 + log_ndtr_error(z_low, tail_low) + _argument_error(z_low))
    error_high = (c_error + 6 * _U * size_high
                  + log_ndtr_error(z_high, tail_high) + _argument_error(z_high))
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        low, high = np.exp(log_low), np.exp(log_high)
        spread = (np.expm1(error_low + 2 * _U * (np.abs(log_low) + 1)) * low
                  + np.expm1(error_high + 2 * _U * (np.abs(log_high) + 1)) * high)
        remainder_bound = (np.exp(log_low + error_low) + np.exp(log_high + error_high)) * (1 + 4 * _U)
    out = np.full(len(alphas), np.nan)
    all_terms = sign * (low + high)
    finite = np.all(np.isfinite(all_terms), axis=1) & np.all(np.isfinite(spread), axis=1)
    magnitudes = np.abs(all_terms)
    with np.errstate(invalid="ignore"):   # (rows that are not finite are skipped below)
        # where the series is cut: a float estimate of A_α − 1 only picks the stopping term
        # (the remainder bound at the stop makes any choice sound)
        guesses = np.maximum(np.sum(all_terms, axis=1) - 1.0, 1e-300)
        small = (magnitudes <= 1e-9 * guesses[:, None]) & (i >= first_after[:, None])
    has_stop = small.any(axis=1)
    stops = np.where(has_stop, np.argmax(small, axis=1), width - 1)
    for row in np.flatnonzero(finite):
        terms, magnitude, stop = all_terms[row], magnitudes[row], int(stops[row])
        partial = math.fsum([*terms[:stop].tolist(), -1.0])
        error = float(spread[row, :stop].sum()) * (1 + 1e-6) + 4 * _U * abs(partial) + 1e-300
        remainder = float(remainder_bound[row, stop]) if sign[row, stop] > 0 else 0.0
        excess = partial + remainder
        converged = bool(has_stop[row]) and float(magnitude[stop]) <= 2e-9 * excess
        if excess > 0 and error <= MAX_RELATIVE_ERROR * excess and converged:
            out[row] = math.log1p(excess + error) * (1 + 4 * _U) + 1e-300
    return out


def log_moments_upper_float(q: float, sigma: float, alphas: Sequence[float]) -> np.ndarray:
    """Upper bounds on ``ln A_α`` of the sampled Gaussian (``0 < q < 1``) for each α; nan where
    the float evaluation cannot certify 1e-4 relative precision (the caller uses mpmath there)."""
    alphas = np.asarray(alphas, dtype=np.float64)
    out = np.full(len(alphas), np.nan)
    integer = (alphas == np.floor(alphas)) & (alphas <= _MAX_FLOAT_ORDER)
    fractional = (alphas != np.floor(alphas)) & (alphas <= 64)
    if integer.any():   # rows grouped by size (a 1024-wide row for order 11 would waste time)
        positions = np.flatnonzero(integer)
        buckets = np.ceil(np.log2(alphas[positions])).astype(int)
        for bucket in np.unique(buckets):
            chosen = positions[buckets == bucket]
            out[chosen] = _integer_orders(q, sigma, alphas[chosen])
    positions = np.flatnonzero(fractional)
    for extra in (_EXTRA_TERMS, 8 * _EXTRA_TERMS, 64 * _EXTRA_TERMS):   # slow series: more terms
        if not len(positions):
            break
        out[positions] = _fractional_orders(q, sigma, alphas[positions], extra)
        positions = positions[np.isnan(out[positions])]
    return out
