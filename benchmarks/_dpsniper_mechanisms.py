"""DP-Sniper's benchmark mechanisms (Bichsel et al. 2021, §VI), re-implemented from their papers.

Written from the mechanisms' papers (Lyu, Su & Li 2017 for the sparse-vector
variants; Dwork & Roth 2014 for noisy max and histograms; Balcer & Vadhan 2018,
Alg. 4.8, for the truncated geometric; Erlingsson et al. 2014 for RAPPOR; Wang
et al. 2019 for NumericalSVT and PrefixSum) with the parameters of DP-Sniper's evaluation
(eth-sri/dp-sniper:dpsniper/experiments/exp_default.py): ε = 0.1; SVT1–SVT6 with
cutoff c = 1 and threshold T = 1 (T = 0.5 for SVT1); SVT34Parallel and
NumericalSVT with the classes' defaults c = 2, T = 1; 5 or 10 queries; so that
the published lower bounds are comparable. Every sampler is vectorised and
draws from its ``rng``.

``PUBLISHED`` holds DP-Sniper's final ``eps_lcb`` (confidence 0.9) for each,
from eth-sri/dp-sniper:eval_sp2021/reference-results/dd_search_reg_data.log
(logistic-regression attack), each from n_final = 2·10^8 samples per side plus
3 × 1.07·10^7 per input pair for training, threshold and check.
"""

from __future__ import annotations

import hashlib
import math

import numpy as np

EPSILON = 0.1
#: Cutoff and threshold of SVT34Parallel and NumericalSVT (the classes' defaults).
CUTOFF = 2
THRESHOLD = 1.0
#: (cutoff, threshold) DP-Sniper's evaluation passes to SVT1..SVT6 (exp_default.py).
SVT_PARAMETERS = {1: (1, 0.5), 2: (1, 1.0), 3: (1, 1.0), 4: (1, 1.0), 5: (1, 1.0), 6: (1, 1.0)}

#: DP-Sniper's published certified lower bounds (eps_lcb), logistic regression attack.
PUBLISHED = {
    "LaplaceMechanism": 0.09680, "TruncatedGeometric": 0.11556, "NoisyHist1": 0.09779,
    "NoisyHist2": 4.60202, "ReportNoisyMax1": 0.09225, "ReportNoisyMax2": 0.09750,
    "ReportNoisyMax3": 0.24782, "ReportNoisyMax4": 0.34634, "SVT1": 0.08580, "SVT2": 0.08593,
    "SVT3": 0.17157, "SVT4": 0.16868, "SVT5": 1.76119, "SVT6": 0.27204, "Rappor": 0.29298,
    "OneTimeRappor": 0.59778, "LaplaceParallel": 0.03495, "SVT34Parallel": 0.26104,
    "PrefixSum": 0.50401, "NumericalSVT": 0.03432,
}


def laplace(a, size, rng):
    return np.asarray(a, float)[0] + rng.laplace(0.0, 1 / EPSILON, size)


def _geo_cdf(count: int, n: int, k: int) -> np.ndarray:
    """Balcer & Vadhan's F(z) (Alg. 4.8, step 2) for z = 0..n, as exact integers."""
    d = (2 ** (k + 1) + 1) * (2 ** k + 1) ** (n - 1)
    values = []
    for z in range(n + 1):
        if z < count:
            values.append(2 ** (k * (count - z)) * (2 ** k + 1) ** (n - (count - z)))
        elif z < n:
            values.append(d - 2 ** (k * (z - count + 1)) * (2 ** k + 1) ** (n - 1 - (z - count)))
        else:
            values.append(d)
    return np.array(values, dtype=np.int64), d


def truncated_geometric(a, size, rng, n: int = 5):
    """GeoSample(ε, n): ln(1 + 2^−k)-DP, k = ⌈ln(2/ε)⌉ (Balcer & Vadhan 2018, Thm 4.7)."""
    k = math.ceil(math.log(2 / EPSILON))
    cdf, d = _geo_cdf(int(np.asarray(a).reshape(-1)[0]), n, k)
    u = rng.integers(1, d + 1, size)
    return np.searchsorted(cdf, u, side="left")


def noisy_hist(scale_is_epsilon: bool):
    def sampler(a, size, rng):
        a = np.asarray(a, float)
        scale = EPSILON if scale_is_epsilon else 1 / EPSILON
        return a + rng.laplace(0.0, scale, (size, len(a)))
    return sampler


def report_noisy_max(noise: str, release_value: bool):
    def sampler(a, size, rng):
        a = np.asarray(a, float)
        shape = (size, len(a))
        noisy = a + (rng.laplace(0.0, 2 / EPSILON, shape) if noise == "laplace"
                     else rng.exponential(2 / EPSILON, shape))
        return noisy.max(axis=1) if release_value else np.argmax(noisy, axis=1)
    return sampler


def _abort_after_cutoff(above: np.ndarray, fill: np.ndarray | float, values: np.ndarray,
                        aborted_value: float, cutoff: int = CUTOFF) -> np.ndarray:
    """Answers stop after the c-th ⊤: later columns get ``aborted_value``."""
    count = np.cumsum(above, axis=1)
    aborted = np.concatenate([np.zeros((len(above), 1), bool), count[:, :-1] >= cutoff], axis=1)
    result = np.where(above, values, fill)
    return np.where(aborted, aborted_value, result)


def svt(variant: int, cutoff: int | None = None, threshold: float | None = None):
    """Lyu, Su & Li 2017, Algorithms 1–6 (ε1 = ε/2 except Alg. 4: ε/4).

    ``cutoff`` and ``threshold`` default to DP-Sniper's evaluation's
    (:data:`SVT_PARAMETERS`).
    """
    c, t = SVT_PARAMETERS[variant]
    c = c if cutoff is None else cutoff
    t = t if threshold is None else threshold

    def sampler(a, size, rng):
        a = np.asarray(a, float)
        shape = (size, len(a))
        e1 = EPSILON / 4 if variant == 4 else EPSILON / 2
        e2 = EPSILON - e1
        if variant == 2:
            return _svt2(a, size, rng, e1, e2, c, t)
        rho = rng.laplace(0.0, 1 / e1, (size, 1))
        if variant == 5:
            return (a >= rho + t).astype(np.int8)
        scale = {1: 2 * c / e2, 3: c / e2, 4: 1 / e2, 6: 1 / e2}[variant]
        noisy = a + rng.laplace(0.0, scale, shape)
        above = noisy >= rho + t
        if variant == 6:
            return above.astype(np.int8)
        if variant == 3:
            return _abort_after_cutoff(above, -1000.0, noisy, -2000.0, c)
        return _abort_after_cutoff(above, 0.0, np.ones(shape), -1.0, c).astype(np.int8)
    return sampler


def _svt2(a, size, rng, e1, e2, c, t):
    """Alg. 2: the threshold noise is redrawn after every ⊤."""
    rho = rng.laplace(0.0, c / e1, size)
    noisy = a + rng.laplace(0.0, 2 * c / e2, (size, len(a)))
    result = np.empty((size, len(a)), dtype=np.int8)
    count = np.zeros(size, dtype=np.int64)
    for column in range(len(a)):
        above = noisy[:, column] >= rho + t
        result[:, column] = np.where(count >= c, -1, above)
        count += above
        rho = np.where(above, rng.laplace(0.0, c / e1, size), rho)
    return result


def numerical_svt(a, size, rng):
    """Wang et al. 2019: releases a fresh noisy value for each ⊤ (0 for ⊥, −1000 aborted)."""
    a = np.asarray(a, float)
    shape = (size, len(a))
    rho = rng.laplace(0.0, 3 / EPSILON, (size, 1))
    above = a + rng.laplace(0.0, 6 * CUTOFF / EPSILON, shape) >= THRESHOLD + rho
    values = a + rng.laplace(0.0, 3 * CUTOFF / EPSILON, shape)
    return _abort_after_cutoff(above, 0.0, values, -1000.0)


def _bloom_positions(value, hashes: int = 4, size: int = 20) -> list[int]:
    return [int.from_bytes(hashlib.sha256(f"{value}/{i}".encode()).digest()[:4], "little") % size
            for i in range(hashes)]


def rappor(instantaneous: bool):
    """Erlingsson et al. 2014, steps 1–3 (f = 0.75, p = 0.45, q = 0.55) or 1–2 (f = 0.95)."""
    f = 0.75 if instantaneous else 0.95

    def sampler(a, size, rng):
        bloom = np.zeros(20, dtype=np.int8)
        bloom[_bloom_positions(int(np.asarray(a).reshape(-1)[0]))] = 1
        choice = rng.random((size, 20))
        permanent = np.where(choice < f / 2, 1, np.where(choice < f, 0, bloom)).astype(np.int8)
        if not instantaneous:
            return permanent
        probability = np.where(permanent == 1, 0.55, 0.45)
        return (rng.random((size, 20)) < probability).astype(np.int8)
    return sampler


def laplace_parallel(a, size, rng, copies: int = 20):
    return np.asarray(a, float)[0] + rng.laplace(0.0, 1 / 0.005, (size, copies))


def svt34_parallel(a, size, rng):
    """SVT3 and SVT4 run side by side, both with the default c = 2, T = 1 (DP-Sniper's class)."""
    return np.concatenate([svt(3, CUTOFF, THRESHOLD)(a, size, rng),
                           svt(4, CUTOFF, THRESHOLD)(a, size, rng).astype(float)], axis=1)


def prefix_sum(a, size, rng):
    a = np.asarray(a, float)
    return np.cumsum(a + rng.laplace(0.0, 1 / EPSILON, (size, len(a))), axis=1)


#: name -> (sampler, input length; 1 = scalar input, pairs differ by 1). Histograms are
#: neighbours in ℓ1 (one record moves one count), query vectors in ℓ∞ (each answer moves <= 1).
L1_INPUTS = {"NoisyHist1", "NoisyHist2"}
MECHANISMS = {
    "LaplaceMechanism": (laplace, 1), "TruncatedGeometric": (truncated_geometric, 1),
    "NoisyHist1": (noisy_hist(False), 5), "NoisyHist2": (noisy_hist(True), 5),
    "ReportNoisyMax1": (report_noisy_max("laplace", False), 5),
    "ReportNoisyMax2": (report_noisy_max("exponential", False), 5),
    "ReportNoisyMax3": (report_noisy_max("laplace", True), 5),
    "ReportNoisyMax4": (report_noisy_max("exponential", True), 5),
    "SVT1": (svt(1), 10), "SVT2": (svt(2), 10), "SVT3": (svt(3), 10), "SVT4": (svt(4), 10),
    "SVT5": (svt(5), 10), "SVT6": (svt(6), 10), "Rappor": (rappor(True), 1),
    "OneTimeRappor": (rappor(False), 1), "LaplaceParallel": (laplace_parallel, 1),
    "SVT34Parallel": (svt34_parallel, 10), "PrefixSum": (prefix_sum, 10),
    "NumericalSVT": (numerical_svt, 10),
}


#: Mechanisms DP-Sniper audits with StatDP's two single-entry patterns (and their swaps, so
#: 4 input pairs); the others get all 8 component-wise patterns and their swaps (16 pairs).
SINGLE_ENTRY = {"LaplaceMechanism", "TruncatedGeometric", "NoisyHist1", "NoisyHist2", "Rappor",
                "OneTimeRappor", "LaplaceParallel"}
#: DP-Sniper's sample sizes (eth-sri/dp-sniper:dpsniper/search/ddconfig.py): per input pair
#: n_train outputs of each input, n of the second and n_check of each; n_final of each input
#: for the final bound of the best pair.
N_TRAIN = N_THRESHOLD = N_CHECK = 10_700_000
N_FINAL = 200_000_000


def dpsniper_samples(name: str) -> int:
    """Outputs DP-Sniper drew in total (both inputs, all pairs) for ``name``'s published bound."""
    pairs = 4 if name in SINGLE_ENTRY else 16
    return pairs * (2 * N_TRAIN + N_THRESHOLD + 2 * N_CHECK) + 2 * N_FINAL


def input_pairs(length: int, norm: str = "linf") -> list:
    """StatDP's patterns (both directions are searched, so swaps are implied).

    Scalars: neighbours at distance 1 around 1. Query vectors in ℓ∞ also get
    two patterns outside StatDP's — *last above rest below* ``(0, …, 0, 2)``
    and *last below rest above* ``(2, …, 2, 0)`` — the classic worst case of
    the sparse vector technique (every ⊥ more likely under ``x'``, then its ⊤).
    """
    from dpverify.neighbouring import InputPair, query_vector_patterns

    if length == 1:
        return [InputPair(np.array([1.0]), np.array([2.0]), "1 vs 2"),
                InputPair(np.array([1.0]), np.array([0.0]), "1 vs 0"),
                InputPair(np.array([2.0]), np.array([1.0]), "2 vs 1"),
                InputPair(np.array([0.0]), np.array([1.0]), "0 vs 1")]
    pairs = query_vector_patterns(length, norm=norm)
    if norm == "linf":
        base = np.ones(length)
        pairs += [InputPair(base, np.r_[np.zeros(length - 1), 2.0], "last above rest below"),
                  InputPair(base, np.r_[np.full(length - 1, 2.0), 0.0], "last below rest above")]
    return pairs
