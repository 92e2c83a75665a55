"""Exact output laws of the catalogue's finite-output examples (for their true ε).

* the sparse-vector answer patterns, by one-dimensional quadrature over the
  noisy threshold (the answers are independent given it);
* the M_LDP bits of one report, as the product of the entries' exact laws;
* report-noisy-max with exponential noise on two candidates, in closed form.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any

import numpy as np
from scipy import integrate

__all__ = ["svt_pattern_pmf", "mldp_report_pmf", "noisy_max_pmf"]


def _laplace_sf(t: float, scale: float) -> float:
    """``P[Lap(scale) >= t]``."""
    return 0.5 * math.exp(-t / scale) if t >= 0 else 1 - 0.5 * math.exp(t / scale)


def _laplace_pdf(t: float, scale: float) -> float:
    return math.exp(-abs(t) / scale) / (2 * scale)


def _pattern_probability(pattern: tuple[int, ...], queries: tuple[float, ...], threshold: float,
                         threshold_scale: float, query_scale: float) -> float:
    """``∫ f_ρ(r) Π_i P[answer_i = pattern_i | ρ = r] dr`` with ``answer_i = 1[q_i + ν_i >= r]``."""
    def integrand(r: float) -> float:
        value = _laplace_pdf(r - threshold, threshold_scale)
        for answer, query in zip(pattern, queries):
            above = _laplace_sf(r - query, query_scale)
            value *= above if answer else 1 - above
        return value

    breaks = sorted({threshold, *queries})
    pieces = [(-math.inf, breaks[0]), *zip(breaks[:-1], breaks[1:]), (breaks[-1], math.inf)]
    return sum(integrate.quad(integrand, low, high, epsabs=1e-17, epsrel=1e-12, limit=200)[0]
               for low, high in pieces if low < high)


def svt_pattern_pmf(queries: tuple[float, ...], *, threshold: float, threshold_scale: float,
                    query_scale: float) -> dict[tuple[int, ...], float]:
    """Law of the answer pattern of sparse vector with no cutoff (Lyu, Su & Li 2017, Alg. 6).

    ``ρ = threshold + Lap(threshold_scale)``, answer ``i`` is 1 iff
    ``q_i + Lap(query_scale) >= ρ``; every query is answered. Patterns with
    the same number of ones per distinct query value have equal probability,
    so each class is integrated once (``quad``, relative error ~1e-12).
    """
    values = sorted(set(queries))
    groups = [tuple(i for i, q in enumerate(queries) if q == v) for v in values]
    cache: dict[tuple[int, ...], float] = {}
    law = {}
    for pattern in itertools.product((0, 1), repeat=len(queries)):
        key = tuple(sum(pattern[i] for i in group) for group in groups)
        if key not in cache:
            cache[key] = _pattern_probability(pattern, queries, threshold, threshold_scale,
                                              query_scale)
        law[pattern] = cache[key]
    total = sum(law.values())
    return {pattern: mass / total for pattern, mass in law.items()}


def mldp_report_pmf(privatizer: Any, context: Any, reward: float) -> list[Fraction]:
    """Exact law of Garcelon et al. 2022's M_LDP report on one input, as a product over its entries.

    Outcomes are the concatenated bits of the ``d + d(d+1)/2`` entries (in
    :meth:`LocalPrivatizer.exact_entries` order), entry-major.
    """
    law = [Fraction(1)]
    for value in privatizer.exact_entries(np.asarray(context, dtype=float), reward):
        entry = privatizer.entry_law(value).probabilities
        law = [a * b for a in law for b in entry]
    return law


def noisy_max_pmf(scores: tuple[float, float], rate: float) -> tuple[float, float]:
    """``(P[argmax = 0], P[argmax = 1])`` for two scores plus i.i.d. Exp(rate) noise.

    ``E_0 − E_1`` is Laplace(1/rate), so ``P[argmax = 0] = P[L > s_1 − s_0]``.
    """
    upper = _laplace_sf(scores[1] - scores[0], 1 / rate)
    return upper, 1 - upper
