"""``thresholds="band"``: Clopper–Pearson bounds at **every** threshold at once, by an exact band.

Independent runs (``docs/proofs/auditing.md`` §14): the out-scores are n i.i.d.
draws from Q. For per-count levels ``a_c``, let ``h_c = B⁻¹(1 − a_c; c + 1, n − c)``
(Clopper–Pearson's upper bound at c counts of n; ``h_n = 1``). The band claims

.. math:: Q[Y \\ge t] \\le h_{c(t)} \\quad\\text{for every } t \\text{ at once}, \\qquad
          c(t) = \\#\\{i : Y_i \\ge t\\},

and fails with probability at most ``P[∃ c < n: W_{(c+1)} > h_c]`` for n i.i.d.
uniforms ``W`` (whatever Q, atoms included). That probability is computed
exactly (up to dropped tail mass, which only raises it) by a Poisson process of
rate n on [0, 1] conditioned on n points: the count below ``h_c`` must be at
least c + 1 for every c, the counts in disjoint intervals are independent
Poisson, and ``P[· | N(1) = n] = P[·, N(1) = n] / P[N(1) = n]``. The levels are
``a_c = A · min(c + 1, n − c)^(−s)``: ``s = 0`` (every count alike, Berk–Jones's
shape) at δ = 0, where pure-DP audits are decided in the bulk of the scores, and
``s =`` :data:`TAIL_EXPONENT` at δ > 0, where the ε of Gaussian-like mechanisms
is decided in the tails — a choice fixed by δ and n, never by the scores. The
largest ``A`` on a geometric ladder whose band fails with probability ≤ the
level is kept (a bisection on a verified bracket whose low end passes by the
union bound, ``Σ_c a_c = level``). The in-scores get the mirror band
(lower bounds on ``P[X ≥ t]`` at every t), so every threshold is certified
without dividing the level by a grid. References: Owen (1995) and Berk & Jones
(1979) for such bands; Moscovich, Nadler & Spiegelman (2016) for their exact
computation.
"""

from __future__ import annotations

import functools
import math

import numpy as np
from scipy import stats

from dpverify._numeric import bisect_passing
from dpverify.auditing.scores._independent import ThresholdBounds

__all__ = ["BAND_MAX_SCORES", "TAIL_EXPONENT", "band_level", "band_upper", "crossing_probability_upper", "band_bounds"]

#: Most scores on a side for which ``thresholds="auto"`` uses the band (its level costs
#: about ``size^1.5`` work once per size and level, then is cached).
BAND_MAX_SCORES = 5000
#: Steps of the geometric ladder of scales ``A`` between the union bound's and ``level``.
LADDER_STEPS = 128
#: The band's tail weight ``s`` at δ > 0: ``a_c ∝ min(c + 1, n − c)^(−s)`` (0 at δ = 0).
TAIL_EXPONENT = 0.5
#: Relative and absolute slack on the computed crossing probability (float sums).
_CROSSING_SLACK = 1e-9


def _count_weights(size: int, tail_exponent: float) -> np.ndarray:
    """``min(c + 1, size − c)^(−s)`` for ``c = 0 … size − 1``."""
    counts = np.arange(size)
    return np.minimum(counts + 1, size - counts).astype(float) ** -tail_exponent


def band_upper(size: int, count_level: float, tail_exponent: float = 0.0) -> np.ndarray:
    """``h_c`` for ``c = 0 … size``: Clopper–Pearson upper bounds at levels
    ``a_c = count_level · min(c + 1, size − c)^(−tail_exponent)`` (``h_size = 1``)."""
    counts = np.arange(size)
    levels = count_level * _count_weights(size, tail_exponent)
    upper = np.ones(size + 1)
    upper[:size] = stats.beta.ppf(1.0 - levels, counts + 1, size - counts)
    return np.maximum.accumulate(np.clip(upper, 0.0, 1.0))


def crossing_probability_upper(upper: np.ndarray) -> float:
    """Upper bound on ``P[∃ c < n: W_(c+1) > upper[c]]`` for n = ``len(upper) − 1`` uniforms.

    The Poisson-process recursion of the module docstring: after boundary c the
    state is the count below ``upper[c]``, kept in a window ``[c + 1, c + 1 + w]``
    (``w = 12√n + 60``; mass above it, and Poisson kernels past
    ``μ + 10√μ + 20``, are dropped, which lowers the computed probability of no
    crossing and so raises the returned bound).
    """
    size = upper.size - 1
    rate = float(size)
    width = int(12 * math.sqrt(size)) + 60
    means = rate * np.diff(np.concatenate([[0.0], upper[:size]]))
    length = int(means.max() + 10 * math.sqrt(means.max()) + 20)
    kernels = stats.poisson.pmf(np.arange(length)[None, :], means[:, None])
    lowest, mass = 0, np.ones(1)  # mass[i]: probability of count lowest + i, no crossing so far
    for boundary in range(size):
        mass = np.convolve(mass, kernels[boundary])
        drop = boundary + 1 - lowest  # counts below boundary + 1 cross at this boundary
        mass, lowest = mass[drop:], boundary + 1
        mass = mass[: min(width, size - lowest) + 1]
        if mass.size == 0:
            return 1.0
    counts = lowest + np.arange(mass.size)
    final = float(np.dot(mass, stats.poisson.pmf(size - counts, rate * (1.0 - upper[size - 1]))))
    no_crossing = final / float(stats.poisson.pmf(size, rate)) * (1 - _CROSSING_SLACK)
    return min(1.0, max(0.0, 1.0 - no_crossing + _CROSSING_SLACK))


@functools.lru_cache(maxsize=64)
def band_level(size: int, failure_probability: float, tail_exponent: float = 0.0) -> float:
    """The scale ``A`` of the band on ``size`` scores that fails w.p. ≤ ``failure_probability``.

    The largest ``A = top · (bottom/top)^(j/LADDER_STEPS)`` (j = 0 … LADDER_STEPS) whose
    band passes :func:`crossing_probability_upper`, with ``top = failure_probability``
    and ``bottom = failure_probability / Σ_c weight_c``, which passes by the union
    bound over the counts (j = LADDER_STEPS is not computed).
    """
    top = failure_probability
    bottom = failure_probability / float(_count_weights(size, tail_exponent).sum())
    if size == 1 or bottom >= top:
        return bottom

    def level(step: int) -> float:
        return top * (bottom / top) ** (step / LADDER_STEPS)

    def passes(step: int) -> bool:
        if step == LADDER_STEPS:
            return True  # the union bound over the counts
        upper = band_upper(size, level(step), tail_exponent)
        return crossing_probability_upper(upper) <= failure_probability

    if passes(0):  # possible for tiny sizes only
        return level(0)
    return level(bisect_passing(passes, 0, LADDER_STEPS, integer=True))


def _above(sorted_scores: np.ndarray, thresholds: np.ndarray) -> np.ndarray:
    return sorted_scores.size - np.searchsorted(sorted_scores, thresholds, side="left")


def band_bounds(
    in_scores: np.ndarray, out_scores: np.ndarray, *, failure_probability: float, delta: float = 0.0
) -> ThresholdBounds:
    """(TPR_low, FPR_high) at every distinct score (rule: score ≥ t), each side's band at half the level
    (tail-weighted at ``delta > 0``: :data:`TAIL_EXPONENT`).

    ``FPR_high = h_{c_out(t)}`` from the out-scores' band; ``TPR_low = 1 − h'_{n − c_in(t)}``
    (rounded down) from the in-scores' mirror band (``h'`` on the in-scores' size: the
    count below t bounds ``P[X < t]`` from above).
    """
    out_sorted, in_sorted = np.sort(out_scores), np.sort(in_scores)
    half = failure_probability / 2
    shape = TAIL_EXPONENT if delta > 0.0 else 0.0
    out_upper = band_upper(out_sorted.size, band_level(out_sorted.size, half, shape), shape)
    in_upper = band_upper(in_sorted.size, band_level(in_sorted.size, half, shape), shape)
    thresholds = np.unique(np.concatenate([in_sorted, out_sorted]))
    in_counts = _above(in_sorted, thresholds)
    out_counts = _above(out_sorted, thresholds)
    return ThresholdBounds(
        thresholds=thresholds,
        in_counts=in_counts,
        out_counts=out_counts,
        tpr_lower=np.clip(np.nextafter(1.0 - in_upper[in_sorted.size - in_counts], 0.0), 0.0, 1.0),
        fpr_upper=out_upper[out_counts],
        bounds=2,
    )
