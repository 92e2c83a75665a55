"""One pair of the exact shuffled binary randomized response: its hockey-stick divergence.

With a = p/2, b = 1 − p/2, k ones and z = n − 1 − k zeros among the other users, the
pair is

.. math::

    Y \\mid x_1 = 1 \\sim R * \\mathrm{Ber}(b), \\quad
    Y \\mid x_1 = 0 \\sim R * \\mathrm{Ber}(a), \\quad
    R = \\mathrm{Bin}(k, b) * \\mathrm{Bin}(z, a).

R is a Poisson-binomial law, hence log-concave, so the pair's likelihood ratio is
increasing in y and its hockey-stick divergence is one tail expression at the crossing
point t* (:func:`_pair_delta_bound`). The pmf of R is computed in floats on a window of
the two binomials (Hoeffding or Bernstein tails below 2 e^{-70} outside it, added on),
with a rigorous relative error bound; the candidates t* are preselected in floats and
the final value is computed in mpmath and rounded up. Used by
:mod:`dpverify.accountants.shuffle._exact`, which maximises it over k.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import mpmath
import numpy as np

from dpverify._numeric import bisect_passing, working_precision

_UNIT = 2.0 ** -53
#: Window tails are at most 2 e^{-_TAIL_EXPONENT} < 1e-30 (Hoeffding or Bernstein).
_TAIL_EXPONENT = 70.0
#: Window values below this are dropped (counted in the tail) to avoid subnormals.
_FLOOR = 1e-280


@dataclass(frozen=True, eq=False)
class _Window:
    """pmf values of a binomial on ``[lo, lo + len(values))`` with error bounds.

    ``values[i]`` is within relative ``eta`` of the true pmf; the true mass
    outside the stored (non-zero) values is at most ``tail``.
    """

    lo: int
    values: np.ndarray
    eta: float
    tail: float
    mean: float = 0.0
    variance: float = 0.0

    @functools.cached_property
    def suffix(self) -> np.ndarray:
        return np.cumsum(self.values[::-1])[::-1]


def _window_half_width(m: int, q: float) -> tuple[int, float]:
    """Half-width h of a window around mq and a bound on P(|Bin(m, q) − mq| >= h).

    The narrower of Hoeffding, P(|X − mq| >= h) <= 2 exp(−2h²/m), and
    Bernstein, P(|X − mq| >= h) <= 2 exp(−h²/(2(v + h/3))) with v = mq(1 − q)
    (summands in [0, 1]), each at the width where its exponent reaches 70.
    Bernstein is narrower away from q = 1/2 (by about 35% at q = 0.12). v is
    inflated by 1e-9 against rounding, which only enlarges the bound.
    """
    variance = m * q * (1 - q) * (1 + 1e-9)
    hoeffding = math.ceil(math.sqrt(_TAIL_EXPONENT * m / 2)) + 1
    third = _TAIL_EXPONENT / 3
    bernstein = math.ceil(third + math.sqrt(third * third + 2 * _TAIL_EXPONENT * variance)) + 1
    if bernstein < hoeffding:
        return bernstein, 2 * math.exp(-bernstein * bernstein / (2 * (variance + bernstein / 3)))
    return hoeffding, 2 * math.exp(-2 * hoeffding * hoeffding / m)


@functools.lru_cache(maxsize=1024)
def _binomial_window(m: int, q: mpmath.mpf) -> _Window:
    """pmf of Bin(m, q) on a concentration window (:func:`_window_half_width`), via a float ratio product from an mpmath anchor.

    Each ratio pmf(j ± 1)/pmf(j) costs at most 3 roundings (integer parts are
    exact below 2^53), the anchor 1, so an entry d steps from the anchor is
    within relative (3d + 2)·u·(1 + 1e-6) of the truth (standard γ_n bound).
    """
    if m == 0 or q == 0:
        return _Window(0, np.ones(1), 0.0, 0.0)
    if q == 1:
        return _Window(m, np.ones(1), 0.0, 0.0, mean=float(m))
    half, window_tail = _window_half_width(m, float(q))
    mean = float(m * q)
    lo, hi = max(0, math.floor(mean) - half), min(m, math.ceil(mean) + half)
    mode = min(max(int(mpmath.floor((m + 1) * q)), lo), hi)
    log_anchor = (mpmath.loggamma(m + 1) - mpmath.loggamma(mode + 1)
                  - mpmath.loggamma(m - mode + 1) + mode * mpmath.log(q)
                  + (m - mode) * mpmath.log1p(-q))
    anchor = float(mpmath.exp(log_anchor))
    odds = float(q / (1 - q))
    up_j = np.arange(mode, hi, dtype=np.float64)
    up = anchor * np.cumprod((m - up_j) / (up_j + 1) * odds)
    down_j = np.arange(mode, lo, -1, dtype=np.float64)
    down = anchor * np.cumprod(down_j / (m - down_j + 1) / odds)
    values = np.concatenate([down[::-1], [anchor], up])
    kept = np.flatnonzero(values >= _FLOOR)
    dropped = len(values) - len(kept)
    width = hi - lo + 1
    eta = (3 * width + 2) * _UNIT * (1 + 1e-6)
    # concentration tails, dropped tiny values, and underflow of products in later sums
    tail = window_tail + _FLOOR * (dropped + 1) + 1e-300 * width
    return _Window(lo + int(kept[0]), values[kept[0]:kept[-1] + 1].copy(), eta, tail,
                   mean=mean, variance=mean * float(1 - q))


def _sum_of_products(x: np.ndarray, y: np.ndarray) -> float:
    """Σ x_i y_i of non-negative floats, without BLAS.

    ``np.dot`` hands a long dot to OpenBLAS, which splits it over threads that spin-wait
    when the cores are busy: at a load of 8 on 2 cores the exact binary-RR decisions at
    n = 10^7 took 8x their idle CPU time (``plan shuffle --randomizer binary-rr --users 1e7
    --epsilon 1e-300``: 158 s). Products and a pairwise sum err by at most the recursive
    sum's ``length·2^-53`` relative for non-negative terms, which :attr:`_RestLaw.eta`
    allows for.
    """
    return float(np.multiply(x, y).sum())


@dataclass(frozen=True)
class _RestLaw:
    """Windows of Bin(ones, b) and Bin(zeros, a) and sums of their convolution."""

    ones: _Window
    zeros: _Window

    @property
    def span(self) -> tuple[int, int]:
        lo = self.ones.lo + self.zeros.lo
        return lo, lo + len(self.ones.values) + len(self.zeros.values) - 2

    @property
    def eta(self) -> float:
        """Relative error of :meth:`pmf` and :meth:`tail_at_least` (products, sums)."""
        length = len(self.ones.values) + len(self.zeros.values)
        gamma = 2 * length * _UNIT * (1 + 1e-6)
        return (1 + self.ones.eta) * (1 + self.zeros.eta) * (1 + gamma) ** 2 - 1

    @property
    def tail(self) -> float:
        return self.ones.tail + self.zeros.tail

    def pmf(self, y: int) -> float:
        """Σ_i A(i) B(y − i) over the windows (float, relative error ≤ eta)."""
        a, b = self.ones, self.zeros
        i_lo = max(a.lo, y - (b.lo + len(b.values) - 1))
        i_hi = min(a.lo + len(a.values) - 1, y - b.lo)
        if i_hi < i_lo:
            return 0.0
        left = a.values[i_lo - a.lo:i_hi - a.lo + 1]
        right = b.values[y - i_hi - b.lo:y - i_lo - b.lo + 1][::-1]
        return _sum_of_products(left, right)

    @functools.cached_property
    def trusted_span(self) -> tuple[int, int]:
        """Where to search for t*: the mean ± 8 standard deviations of R, inside the windows.

        Only a guide; every value used in a bound is recomputed by a direct,
        error-bounded sum, and a t* outside the span is handled by the
        callers' tail branches.
        """
        mean = self.ones.mean + self.zeros.mean
        lo, hi = self.span
        half = 8 * math.sqrt(self.ones.variance + self.zeros.variance) + 2
        return max(lo, math.floor(mean - half)), min(hi, math.ceil(mean + half))

    def tail_at_least(self, t: int) -> float:
        """Window part of P(R ≥ t) (a lower bound up to relative eta)."""
        a, b = self.ones, self.zeros
        suffix = self.zeros.suffix  # suffix[j] = Σ_{i ≥ j} B(lo + i)
        index = np.clip(t - np.arange(a.lo, a.lo + len(a.values)) - b.lo, 0, None)
        inside = index < len(b.values)
        return _sum_of_products(a.values[inside], suffix[index[inside]])


@functools.lru_cache(maxsize=256)
def _rest_law(ones: int, zeros: int, p: float) -> _RestLaw:
    """Cached: the ε bisection evaluates the same few populations at many ε."""
    a = mpmath.mpf(p) / 2
    return _RestLaw(_binomial_window(ones, 1 - a), _binomial_window(zeros, a))


def _pair_delta_bound(ones: int, zeros: int, p: float, epsilon: float) -> mpmath.mpf:
    """Upper bound on H_{e^ε}(R * Ber(b) ‖ R * Ber(a)), R = Bin(ones, b) * Bin(zeros, a).

    With c1 = b − e^ε a, c2 = e^ε − 1, c3 = e^ε b − a, the pointwise difference is
    d(y) = c1 R(y−1) − c3 R(y), and the divergence is
    g(t*) = c1 R(t* − 1) − c2 P(R ≥ t*) for t* the first y with d(y) > 0
    (monotone likelihood ratio: R is log-concave, so R(y−1)/R(y) increases in
    y, and (b r + a)/(a r + b) increases in r as b > a). t* is bracketed by a
    float bisection and then *verified*: a certified d(t̂ + 3) > 0 and
    d(t̂ − 3) < 0 place t* in the candidate set, where g is bounded from above.
    """
    with working_precision():
        a = mpmath.mpf(p) / 2
        b, growth = 1 - a, mpmath.exp(epsilon)
        c1, c2, c3 = b - growth * a, growth - 1, growth * b - a
        if c1 <= 0:
            return mpmath.mpf(0)
        law = _rest_law(ones, zeros, p)
        eta, tail = mpmath.mpf(law.eta), mpmath.mpf(law.tail)

        def upper(y: int) -> mpmath.mpf:
            return mpmath.mpf(law.pmf(y)) * (1 + 2 * eta) + tail

        def lower(y: int) -> mpmath.mpf:
            return mpmath.mpf(law.pmf(y)) * (1 - 2 * eta)

        lo, hi = law.trusted_span

        c1_f, c3_f = float(c1), float(c3)

        def positive(y: int) -> bool:
            return c1_f * law.pmf(y - 1) > c3_f * law.pmf(y)

        if not positive(hi):  # t* beyond the trusted span: g(t*) <= c1 P(R >= hi)
            return c1 * (mpmath.mpf(law.tail_at_least(hi)) * (1 + 2 * eta) + tail)
        if positive(lo):  # t* below it: g(t*) <= g(lo) + P(Y < lo)
            below = 1 - mpmath.mpf(law.tail_at_least(lo)) * (1 - 2 * eta)
            first, last, extra = lo, lo, below
        else:
            t_hat = bisect_passing(positive, lo, hi, integer=True)
            first, last, extra = t_hat - 3, t_hat + 3, mpmath.mpf(0)
            certified_high = c1 * lower(last - 1) - c3 * upper(last) > 0
            certified_low = c1 * upper(first - 1) - c3 * lower(first) < 0
            if not (certified_high and certified_low):  # pragma: no cover - float bisection is ±1 off
                first, last = lo - 1, hi + 1
        candidates = range(last, first - 1, -1)
        pmf = {y: law.pmf(y) for y in range(first - 1, last + 1)}
        tails = [mpmath.mpf(law.tail_at_least(last))]  # P(R >= t) = P(R >= t + 1) + R(t)
        for t in candidates[1:]:
            tails.append(tails[-1] + mpmath.mpf(pmf[t]))
        chosen = _float_preselection(candidates, pmf, tails, c1, c2, eta, tail)
        best = max(c1 * (mpmath.mpf(pmf[t - 1]) * (1 + 2 * eta) + tail)
                   - c2 * tails[i] * (1 - 3 * eta) for i, t in chosen)
        return max(best + extra + tail, mpmath.mpf(0))


def _float_preselection(candidates: range, pmf: dict[int, float], tails: list[mpmath.mpf],
                        c1: mpmath.mpf, c2: mpmath.mpf, eta: mpmath.mpf,
                        tail: mpmath.mpf) -> list[tuple[int, int]]:
    """The candidates t* whose bound can be the largest, found in floats.

    The bound at t is g(t) = c1 (R(t−1)(1 + 2η) + tail) − c2 P(R >= t)(1 − 3η),
    a difference of two terms of size at most S = c1 (max R + tail) + c2 max P.
    Its float evaluation errs by a few units of 2^-53 · S (a handful of
    roundings of non-negative terms, with floats' relative error well below
    1e-15), so every t whose float value is more than ``1e-9 · S`` below the
    float maximum has a smaller exact value than the float maximiser: dropping
    it leaves the exact maximum unchanged. Only the rest is evaluated in mpmath.
    """
    c1_f, c2_f, eta_f, tail_f = float(c1), float(c2), float(eta), float(tail)
    tails_f = [float(value) for value in tails]
    values = [c1_f * (pmf[t - 1] * (1 + 2 * eta_f) + tail_f) - c2_f * tails_f[i] * (1 - 3 * eta_f)
              for i, t in enumerate(candidates)]
    scale = c1_f * (max(pmf.values()) + tail_f) + c2_f * max(tails_f)
    cut = max(values) - 1e-9 * scale - 1e-300
    return [(i, t) for i, t in enumerate(candidates) if values[i] >= cut]
