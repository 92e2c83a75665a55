"""Rigorous hockey-stick divergence of the "clone" pair (private helper).

Both numerical shuffle bounds of :mod:`dpverify.accountants.shuffle._numerical`
reduce to one pair of distributions on pairs of counts. With ``C ~ Bin(n-1, ρ)``
(the other users that are *clones*), ``A | C ~ Bin(C, 1/2)`` and the victim's
``Δ ~ Bern(e^{ε0}/(e^{ε0}+1))``,

.. math::

    P = (A + Δ,\\ C - A + 1 - Δ), \\qquad Q = (A + 1 - Δ,\\ C - A + Δ).

The total ``C + 1`` is observed, so ``δ(ε) = Σ_c Pr[C = c] D_c`` with, writing
``m = c + 1`` and ``h_m = Bin(m, 1/2)``,

.. math::

    D_c = \\frac{2K_ε}{m} \\sum_{a > mβ_ε} h_m(a)\\,(a - mβ_ε), \\quad
    K_ε = \\frac{(e^{ε_0}-1)(1+e^{ε})}{e^{ε_0}+1}, \\quad
    β_ε = \\frac{e^{ε+ε_0}-1}{(e^{ε_0}-1)(1+e^{ε})},

since ``h_{m-1}(a-1) = h_m(a) 2a/m`` and ``h_{m-1}(a) = h_m(a) 2(m-a)/m``.
Swapping the two coordinates maps ``P`` to ``Q`` and ``Q`` to ``P`` (``A`` and
``C - A`` have the same law), so ``D(P||Q) = D(Q||P)``: one direction suffices.

**Monotonicity in c.** ``(P_{c+1}, Q_{c+1})`` is ``(P_c, Q_c)`` plus the same
independent ``(B, 1 - B)``, ``B ~ Bern(1/2)``: post-processing, so ``D_{c+1} <= D_c``.
Hence a block ``[c_0, c_1]`` contributes at most ``D_{c_0} Pr[c_0 <= C <= c_1]``.

**Error accounting.** Outside a window of ``c`` the mass is bounded by the
Chernoff bound ``exp(-N KL(k/N || ρ))`` in mpmath and added (``D_c <= 1``).
Inside, every quantity is a product of float64 factors each with relative error
at most a few units of ``u = 2^{-53}`` (numpy's ``log``/``exp`` are assumed
accurate to 4 ulp, the basic operations are IEEE correctly rounded), anchors
``log h_m(a)`` come from a Stirling series with its remainder bound, and every
inner tail beyond the columns kept is bounded by a geometric series (the term
ratio is decreasing). The counted roundings give one relative error ``η`` that
multiplies the float sum; every dropped or rounded piece is therefore *added*,
so the result is an upper bound on ``δ(ε)``.
"""

from __future__ import annotations

import functools
import math

import mpmath
import numpy as np

from dpverify._numeric import working_precision

__all__ = ["clone_delta_upper", "clone_delta_reference"]

_U = 2.0 ** -53
_TABLE_SIZE = 256
#: Chernoff mass left outside the window of ``c`` (added to δ).
_TAIL_TARGET = 1e-24
#: Relative loss allowed by grouping ``c`` into blocks (documented, not assumed).
_BLOCK_SIGMA_FRACTION = 1.0 / 16.0
#: Below this ε0 the clone bound is replaced by the total-variation bound tanh(ε0/2) (a valid
#: upper bound on δ(ε) for every ε >= 0, and at most 5e-13).
TINY_LOCAL_EPSILON = 1e-12


@functools.lru_cache(maxsize=1)
def _log_factorial_table() -> np.ndarray:
    """``log k!`` for ``k < 256``, computed in mpmath and rounded to nearest."""
    with working_precision(30):
        return np.array([float(mpmath.loggamma(k + 1)) for k in range(_TABLE_SIZE)])


def _log_factorial(k: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return ``log k!`` in float64 and a bound on its absolute error, elementwise."""
    k = np.asarray(k, dtype=np.int64)
    small = k < _TABLE_SIZE
    kf = np.maximum(k, 1).astype(np.float64)
    log_k = np.log(kf)
    inv = 1.0 / kf
    value = ((kf + 0.5) * log_k - kf + 0.5 * math.log(2 * math.pi)
             + inv * (1 / 12 - inv * inv * (1 / 360 - inv * inv / 1260)))
    # Stirling remainder: below the first omitted term 1/(1680 k^7); roundings:
    # 16 u times the sum of the magnitudes of the terms (generous).
    error = 16 * _U * ((kf + 0.5) * log_k + kf + 2.0) + inv ** 7 / 1680
    table = _log_factorial_table()
    value = np.where(small, table[np.minimum(k, _TABLE_SIZE - 1)], value)
    error = np.where(small, _U * np.abs(value), error)
    return value, error


def _chernoff_tails(n_others: int, rho: mpmath.mpf, low: int, high: int) -> mpmath.mpf:
    """Upper bound on ``Pr[C < low] + Pr[C > high]`` for ``C ~ Bin(n_others, rho)``."""
    def bound(k: int) -> mpmath.mpf:
        x = mpmath.mpf(k) / n_others
        if x <= 0:
            return (1 - rho) ** n_others
        if x >= 1:
            return rho ** n_others
        kl = x * mpmath.log(x / rho) + (1 - x) * mpmath.log((1 - x) / (1 - rho))
        return mpmath.exp(-n_others * kl)
    total = mpmath.mpf(0)
    if low > 0:
        total += bound(low - 1)
    if high < n_others:
        total += bound(high + 1)
    return total


def _window(n_others: int, rho: float) -> tuple[int, int]:
    """A window of ``c`` whose Chernoff tail mass is below :data:`_TAIL_TARGET`."""
    mean = n_others * rho
    sigma = math.sqrt(max(n_others * rho * (1 - rho), 1.0))
    width = math.ceil(math.sqrt(2 * math.log(1 / _TAIL_TARGET)) * sigma * 1.1) + 8
    return max(0, math.floor(mean) - width), min(n_others, math.ceil(mean) + width)


def _binomial_pmf_window(n_others: int, rho: mpmath.mpf, low: int,
                         high: int) -> tuple[np.ndarray, int]:
    """Float pmf of ``Bin(n_others, rho)`` on ``[low, high]`` and its rounding count.

    One mpmath anchor at the mode, then ratio recurrences outwards; each step
    costs at most 4 roundings, the returned count is the maximum over entries.
    """
    mode = min(max(int(mpmath.floor((n_others + 1) * rho)), low), high)
    anchor = float(mpmath.exp(mpmath.loggamma(n_others + 1) - mpmath.loggamma(mode + 1)
                              - mpmath.loggamma(n_others - mode + 1)
                              + mode * mpmath.log(rho)
                              + (n_others - mode) * mpmath.log1p(-rho)))
    odds = float(rho / (1 - rho))
    inverse_odds = float((1 - rho) / rho)
    up = np.arange(mode, high, dtype=np.float64)
    up_ratios = (n_others - up) / (up + 1) * odds
    down = np.arange(mode, low, -1, dtype=np.float64)
    down_ratios = down / (n_others - down + 1) * inverse_odds
    pmf = np.concatenate([
        (anchor * np.cumprod(down_ratios))[::-1], [anchor], anchor * np.cumprod(up_ratios)
    ])
    steps = max(high - mode, mode - low)
    return pmf, 4 * steps + 2


def _row_sums(m: np.ndarray, beta: float) -> tuple[np.ndarray, int, float]:
    """Upper bounds on ``S_m = Σ_{a > mβ} h_m(a)(a - mβ)`` for each ``m``.

    Returns the float sums (already including the tail bounds and the
    absolute error of ``mβ``), the number of float roundings along any path,
    and the largest absolute error bound on the log anchors.
    """
    mf = m.astype(np.float64)
    shift = mf * beta
    shift_low = shift - (4 * _U * shift + 1e-300)       # <= m β_ε (β has rel err u)
    start = np.floor(shift_low).astype(np.int64) + 1    # first a with a > shift_low
    start = np.minimum(start, m)
    columns = int(min(int(m.max()) + 1, math.ceil(2.5 * math.sqrt(float(m.max()))) + 16))
    offsets = np.arange(columns, dtype=np.int64)
    a = start[:, None] + offsets[None, :]
    valid = a <= m[:, None]
    af = np.minimum(a, m[:, None]).astype(np.float64)
    ratios = np.ones_like(af)
    ratios[:, 1:] = (mf[:, None] - af[:, :-1]) / (af[:, :-1] + 1.0)
    log_m, err_m = _log_factorial(m)
    log_a, err_a = _log_factorial(start)
    log_b, err_b = _log_factorial(m - start)
    log_anchor = log_m - log_a - log_b - mf * math.log(2.0)
    log_error = err_m + err_a + err_b + 8 * _U * (np.abs(log_m) + np.abs(log_a)
                                                  + np.abs(log_b) + mf)
    h = np.exp(log_anchor)[:, None] * np.cumprod(ratios, axis=1)
    terms = np.where(valid, h * np.maximum(af - shift_low[:, None], 0.0), 0.0)
    sums = terms.sum(axis=1)
    # geometric tail beyond the last column, for rows that did not reach a = m
    last = start + columns                               # first excluded index
    open_rows = last <= m
    lf = last.astype(np.float64)
    rho = (mf - lf) / (lf + 1.0) * (lf + 1.0 - shift_low) / (lf - shift_low)
    if np.any(open_rows & (rho >= 1.0)):                 # never met with the column rule
        raise ArithmeticError("inner tail not geometric after the columns kept")
    h_last = h[:, -1] * (mf - af[:, -1]) / (af[:, -1] + 1.0)
    tails = np.where(open_rows, h_last * (lf - shift_low) / (1.0 - rho), 0.0)
    sums = sums * (1 + 8 * _U) + tails * (1 + (2 * columns + 16) * _U)
    # underflow: anchors below 1e-280 bound the row by m (m + 1) h_m(start); every
    # subnormal or flushed term is below 1e-300 in absolute value
    tiny = log_anchor + log_error < -640.0
    sums = np.where(tiny, mf * (mf + 1.0) * 1e-277, sums) + columns * 1e-300
    roundings = 2 * columns + columns + 32               # cumprod, products, summation
    return sums, roundings, float(np.max(log_error)) + 8 * _U


def _constants(local_epsilon: float, epsilon: float) -> tuple[mpmath.mpf, mpmath.mpf]:
    """``(K_ε, β_ε)`` of the module docstring, in mpmath."""
    # expm1, not exp(x) - 1: the differences stay exact for tiny ε0 (1e-300 would give 0 / 0)
    e0_minus_1, e = mpmath.expm1(local_epsilon), mpmath.exp(epsilon)
    return (e0_minus_1 * (1 + e) / (e0_minus_1 + 2),
            mpmath.expm1(epsilon + local_epsilon) / (e0_minus_1 * (1 + e)))


def clone_delta_upper(local_epsilon: float, n: int, epsilon: float,
                      clone_probability: float | mpmath.mpf) -> mpmath.mpf:
    """Rigorous upper bound on ``δ(ε)`` of the clone pair (see the module docstring)."""
    if epsilon >= local_epsilon:
        return mpmath.mpf(0)
    if local_epsilon < TINY_LOCAL_EPSILON:
        # the clone probability rounds to 1 here; every ε0-DP pair has δ(ε) <= δ(0), its total
        # variation, which is at most tanh(ε0/2) (Kairouz, Oh, Viswanath 2015): rounded up
        with working_precision(30):
            return mpmath.tanh(mpmath.mpf(local_epsilon) / 2) * (1 + mpmath.mpf(10) ** -25)
    with working_precision(30):
        n_others = n - 1
        rho = mpmath.mpf(clone_probability)
        scale, beta = _constants(local_epsilon, epsilon)
        low, high = _window(n_others, float(rho))
        tails = _chernoff_tails(n_others, rho, low, high)
        pmf, pmf_roundings = _binomial_pmf_window(n_others, rho, low, high)
        sigma = math.sqrt(max(n_others * float(rho) * (1 - float(rho)), 1.0))
        block = max(1, int(sigma * _BLOCK_SIGMA_FRACTION))
        count = len(pmf)
        padded = np.concatenate([pmf, np.zeros((-count) % block)])
        masses = padded.reshape(-1, block).sum(axis=1)
        heads = np.arange(low, high + 1, block, dtype=np.int64)   # block lower ends c_0
        m = heads + 1
        sums, row_roundings, log_error = _row_sums(m, float(beta))
        row_values = 2.0 / m.astype(np.float64) * sums
        total = float(np.dot(masses, row_values)) + count * 1e-300   # pmf underflow
        roundings = pmf_roundings + block + row_roundings + 2 * len(heads) + 8
        eta = mpmath.exp(log_error) * (1 + mpmath.mpf(_U)) ** roundings
        return scale * mpmath.mpf(total) * eta + tails


def clone_delta_reference(local_epsilon: float, n: int, epsilon: float,
                          clone_probability: mpmath.mpf, *, dps: int = 40) -> mpmath.mpf:
    """Brute-force ``δ(ε)`` of the clone pair: every ``(c, a)`` term in mpmath.

    For tests at small ``n``; this is the exact value up to ``10^{-dps}``.
    """
    with working_precision(dps):
        rho = mpmath.mpf(clone_probability)
        p = mpmath.exp(local_epsilon) / (mpmath.exp(local_epsilon) + 1)
        e = mpmath.exp(epsilon)
        total = mpmath.mpf(0)
        for c in range(n):
            weight = mpmath.binomial(n - 1, c) * rho ** c * (1 - rho) ** (n - 1 - c)
            half = mpmath.mpf(2) ** (-c)

            def h(a: int, c: int = c, half: mpmath.mpf = half) -> mpmath.mpf:
                return mpmath.binomial(c, a) * half if 0 <= a <= c else mpmath.mpf(0)
            for a in range(c + 2):
                big_p = p * h(a - 1) + (1 - p) * h(a)
                big_q = (1 - p) * h(a - 1) + p * h(a)
                total += weight * max(big_p - e * big_q, 0)
        return total
