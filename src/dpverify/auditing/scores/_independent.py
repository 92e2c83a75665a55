"""Canary-score audits over independent runs: Clopper–Pearson on (FPR, TPR), and the ratio test.

Design ``"independent-runs"``: each in-score is the score of a canary in its own
training run that included it, each out-score of one in a run that did not,
every run independent. Then the in-scores are i.i.d. from ``P`` and the
out-scores i.i.d. from ``Q``, and a rule "guess *in* when score ≥ t" has
``TPR(t) = P[X ≥ t]`` and ``FPR(t) = Q[Y ≥ t]``. (ε, δ)-DP of the training
run (on the canary's pair of neighbouring datasets) requires, at every t,

.. math:: TPR \\le e^{ε} FPR + δ, \\qquad 1 - FPR \\le e^{ε}(1 - TPR) + δ

(the two orders of the pair; Kairouz, Oh & Viswanath 2015), so certified
``TPR_low`` and ``FPR_high`` give ``ε ≥ max(ln((TPR_low − δ)/FPR_high),
ln((1 − FPR_high − δ)/(1 − TPR_low)))`` (Jagielski, Ullman & Oprea 2020; Nasr
et al. 2021). How t is chosen (``thresholds``):

* ``"bonferroni"`` — t runs over a **fixed grid of ranks** of the out-scores
  (geometric from both ends, :func:`rank_grid`), with one Bonferroni split over
  every bound. At rank j (the j-th largest out-score ``v_j``, rule ``> v_j``)
  the FPR bound is an order-statistic bound, valid whatever ``Q`` (ties
  included), and the TPR bound is Clopper–Pearson given the out-scores
  (``docs/proofs/auditing.md`` §14);
* ``"split"`` — half of each side (a seeded random half) chooses one threshold,
  the other half certifies it with two bounds;
* a number — that threshold, fixed in advance; a sequence of numbers — those
  thresholds, fixed in advance, with one Bonferroni split over their ``2 L`` bounds.

With one fixed threshold and δ = 0, the exact conditional test of the ratio
``p/p'`` on Poisson-sized subsets (:func:`~dpverify.auditing.estimators.conditional_ratio_lower`,
``docs/proofs/auditing.md`` §4a) is computed too, on 90 % of the error budget.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from dpverify.auditing.estimators import (
    clopper_pearson_lower,
    clopper_pearson_upper,
    conditional_ratio_lower,
    epsilon_lower_bound,
    ratio_epsilon,
)
from dpverify.auditing.scores._claims import ScoreClaim

__all__ = ["rank_grid", "ThresholdBounds", "grid_bounds", "threshold_bounds", "split_threshold",
           "ratio_bound", "pair_epsilon", "curve_violated", "RATIO_SHARE"]

#: Share of the error budget the conditional ratio bounds get when they run (as in ``audit``).
RATIO_SHARE = 0.9
#: Growth of the rank grid of ``thresholds="bonferroni"``.
GRID_RATIO = 1.15


def rank_grid(size: int, ratio: float = GRID_RATIO) -> np.ndarray:
    """Ranks in ``[1, size]``: every integer up to 10, then geometric (×``ratio``), from both ends.

    Fixed by ``size`` alone (never by the scores), so a Bonferroni split over it
    is valid.

    >>> rank_grid(12).tolist()
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
    >>> len(rank_grid(1000))
    74
    """
    if size <= 20:
        return np.arange(1, size + 1)
    steps = math.ceil(math.log(size / 10) / math.log(ratio)) + 1
    top = np.unique(np.concatenate([np.arange(1, 11),
                                    np.ceil(10 * ratio ** np.arange(steps)).astype(np.int64)]))
    top = top[top <= (size + 1) // 2]
    ranks = np.unique(np.concatenate([top, size + 1 - top]))
    return ranks[(ranks >= 1) & (ranks <= size)]


@dataclass(frozen=True)
class ThresholdBounds:
    """Certified rates at candidate thresholds (rule: guess *in* when score ≥ ``thresholds``)."""

    thresholds: np.ndarray
    in_counts: np.ndarray
    out_counts: np.ndarray
    tpr_lower: np.ndarray
    fpr_upper: np.ndarray
    bounds: int


def _above(sorted_scores: np.ndarray, thresholds: np.ndarray) -> np.ndarray:
    """How many of the (ascending) scores are ``>= threshold``, for each threshold."""
    return sorted_scores.size - np.searchsorted(sorted_scores, thresholds, side="left")


def grid_bounds(in_scores: np.ndarray, out_scores: np.ndarray, *,
                failure_probability: float) -> ThresholdBounds:
    """Simultaneous (TPR_low, FPR_high) at the rank grid of the out-scores (``"bonferroni"``).

    At rank j the rule is "score > v_j" (threshold ``nextafter(v_j, +inf)``); the
    FPR bound is Clopper–Pearson's upper bound at ``j − 1`` counts (an
    order-statistic bound: at most j − 1 out-scores exceed ``v_j``), the TPR bound
    Clopper–Pearson's lower bound on the in-count. ``2 K`` bounds share
    ``failure_probability``.
    """
    out_sorted = np.sort(out_scores)
    in_sorted = np.sort(in_scores)
    ranks = rank_grid(out_sorted.size)
    values = out_sorted[out_sorted.size - ranks]  # the j-th largest out-score
    thresholds = np.nextafter(values, np.inf)
    level = failure_probability / (2 * ranks.size)
    in_counts = _above(in_sorted, thresholds)
    out_counts = _above(out_sorted, thresholds)
    return ThresholdBounds(
        thresholds=thresholds, in_counts=in_counts, out_counts=out_counts,
        tpr_lower=np.atleast_1d(clopper_pearson_lower(in_counts, in_sorted.size,
                                                      failure_probability=level)),
        fpr_upper=np.atleast_1d(clopper_pearson_upper(ranks - 1, out_sorted.size,
                                                      failure_probability=level)),
        bounds=2 * ranks.size)


def threshold_bounds(in_scores: np.ndarray, out_scores: np.ndarray, threshold: float | np.ndarray,
                     *, failure_probability: float) -> ThresholdBounds:
    """(TPR_low, FPR_high) at thresholds fixed before these scores were seen.

    One threshold (a number) or several (an array, a family stated in advance):
    ``2 L`` Clopper–Pearson bounds for L thresholds, each at ``failure_probability / (2 L)``
    (one Bonferroni split, ``docs/proofs/auditing.md`` §14).
    """
    thresholds = np.atleast_1d(np.asarray(threshold, dtype=float))
    in_counts = _above(np.sort(in_scores), thresholds)
    out_counts = _above(np.sort(out_scores), thresholds)
    level = failure_probability / (2 * thresholds.size)
    return ThresholdBounds(
        thresholds=thresholds, in_counts=in_counts, out_counts=out_counts,
        tpr_lower=np.atleast_1d(clopper_pearson_lower(in_counts, in_scores.size,
                                                      failure_probability=level)),
        fpr_upper=np.atleast_1d(clopper_pearson_upper(out_counts, out_scores.size,
                                                      failure_probability=level)),
        bounds=2 * thresholds.size)


def _plug_in_epsilons(tpr_lower: np.ndarray, fpr_upper: np.ndarray, delta: float) -> np.ndarray:
    """Both orders' ``ln((a − δ)/b)`` in floats (to rank candidates; the reported one is exact)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        first = np.log(np.maximum(tpr_lower - delta, 0.0)) - np.log(fpr_upper)
        second = np.log(np.maximum(1.0 - fpr_upper - delta, 0.0)) - np.log(1.0 - tpr_lower)
    best = np.fmax(first, second)
    return np.where(np.isnan(best), 0.0, np.maximum(best, 0.0))


def pair_epsilon(tpr_lower: float, fpr_upper: float, delta: float) -> float:
    """``max(ln((TPR_low − δ)/FPR_high), ln((1 − FPR_high − δ)/(1 − TPR_low)))``, rounded down."""
    tnr_lower = float(np.nextafter(1.0 - fpr_upper, 0.0)) if fpr_upper > 0 else 1.0
    fnr_upper = min(1.0, float(np.nextafter(1.0 - tpr_lower, 2.0))) if tpr_lower < 1 else 0.0
    return max(epsilon_lower_bound(tpr_lower, fpr_upper, delta=delta),
               epsilon_lower_bound(max(0.0, tnr_lower), fnr_upper, delta=delta))


def best_threshold(bounds: ThresholdBounds, delta: float) -> tuple[int, float]:
    """Index and certified ε of the candidate with the largest ε lower bound at ``delta``."""
    plug_in = _plug_in_epsilons(bounds.tpr_lower, bounds.fpr_upper, delta)
    order = np.argsort(-plug_in, kind="stable")[:5]  # exact re-evaluation of the leaders
    exact = [pair_epsilon(float(bounds.tpr_lower[i]), float(bounds.fpr_upper[i]), delta)
             for i in order]
    best = int(np.argmax(exact))
    return int(order[best]), exact[best]


def curve_violated(bounds: ThresholdBounds, claim: ScoreClaim) -> np.ndarray:
    """Where a certified point lies above the claimed ROC: ``TPR_low > 1 − f(FPR_high)``.

    Also the other order's form ``FPR_high < f(1 − TPR_low)``; ``f`` is a lower
    bound on the claim's trade-off function, so both tests are conservative.
    """
    tradeoff = claim.tradeoff(bounds.fpr_upper)
    fnr_upper = np.minimum(1.0, np.nextafter(1.0 - bounds.tpr_lower, 2.0))
    reverse = claim.tradeoff(fnr_upper)
    return (bounds.tpr_lower > 1.0 - tradeoff) | (bounds.fpr_upper < reverse)


def split_threshold(in_scores: np.ndarray, out_scores: np.ndarray, *, delta: float,
                    failure_probability: float) -> float:
    """The threshold a held-out part of the scores prefers (every rank of its out-scores, plug-in)."""
    out_sorted = np.sort(out_scores)
    in_sorted = np.sort(in_scores)
    thresholds = np.nextafter(np.unique(out_sorted), np.inf)
    in_counts = _above(in_sorted, thresholds)
    out_counts = _above(out_sorted, thresholds)
    tpr = np.atleast_1d(clopper_pearson_lower(in_counts, in_sorted.size,
                                              failure_probability=failure_probability / 2))
    fpr = np.atleast_1d(clopper_pearson_upper(out_counts, out_sorted.size,
                                              failure_probability=failure_probability / 2))
    return float(thresholds[int(np.argmax(_plug_in_epsilons(tpr, fpr, delta)))])


def ratio_bound(in_scores: np.ndarray, out_scores: np.ndarray, threshold: float, *,
                failure_probability: float, rng: np.random.Generator) -> float | None:
    """ε lower bound at δ = 0 from the conditional test on Poisson-sized subsets (both orders).

    ``λ = n − 4√n`` with ``n`` the smaller side; ``M, M' ~ Poisson(λ)`` and a
    uniformly random subset of that size of each side (drawn from ``rng``,
    independent of the scores): the counts above ``threshold`` are then
    independent Poisson with means ``λ p`` and ``λ p'``, and given their sum the
    first is binomial with ``r = p/(p + p')`` (``docs/proofs/auditing.md`` §4a).
    A subset larger than its side gives the trivial bound 0. ``None`` when the
    sides are too small for it (``λ < 10``).
    """
    size = min(in_scores.size, out_scores.size)
    rate = size - 4 * math.sqrt(size)
    if rate < 10:
        return None
    prefix_in, prefix_out = rng.poisson(rate), rng.poisson(rate)
    order_in, order_out = rng.permutation(in_scores.size), rng.permutation(out_scores.size)
    if prefix_in > in_scores.size or prefix_out > out_scores.size:
        return 0.0
    subset_in = in_scores[order_in[:prefix_in]]
    subset_out = out_scores[order_out[:prefix_out]]
    above_in = int(np.count_nonzero(subset_in >= threshold))
    above_out = int(np.count_nonzero(subset_out >= threshold))
    level = failure_probability / 2
    forward = conditional_ratio_lower(above_in, above_out, failure_probability=level)
    backward = conditional_ratio_lower(prefix_out - above_out, prefix_in - above_in,
                                       failure_probability=level)
    return max(ratio_epsilon(forward), ratio_epsilon(backward))
