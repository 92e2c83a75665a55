"""Canary-score audits in one training run (Steinke, Nasr & Jagielski 2023), both tails.

Design ``"one-run"``: m canaries, each included in the one training run
independently with probability ½; ``in_scores`` are the scores of the included
ones, ``out_scores`` of the others. The auditor ranks all m scores (ties broken
by a seeded random order, independent of the inclusion) and guesses *in* for the
``k+`` highest and *out* for the ``k−`` lowest, abstaining on the rest:
``r = k+ + k−`` guesses, ``v`` of them correct. If the run is (ε, δ)-DP in each
canary, Steinke, Nasr & Jagielski (2023, Thm. 3.1 with their p-value procedure,
Algorithm 2) give

.. math:: P[V \\ge v] \\le β + 2mδ\\,\\max_{1 \\le i \\le v}\\frac{P[v - i \\le B < v]}{i},
          \\qquad β = P[B \\ge v],\\ B \\sim \\mathrm{Bin}(r, \\tfrac{e^ε}{1 + e^ε}).

A fixed grid of ``(k+, k−)`` (:func:`guess_grid`, fixed by m alone) is audited
with one Bonferroni split. At δ = 0 the bound is closed-form:
``ε_lb = logit(q_low)`` with ``q_low`` the Clopper–Pearson lower bound on the
guesses' accuracy (``β ≤ level`` exactly when ``q_ε ≤ q_low``). For δ > 0 the
p-value need not be monotone in ε, so the reported ε is the end of an interval
``[0, ε_lb]`` on which a **monotone upper envelope** of it stays below the level
(``docs/proofs/auditing.md`` §13).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import mpmath
import numpy as np
from scipy import stats

from dpverify._numeric import round_down, working_precision
from dpverify.auditing.estimators import BETA_SLACK

__all__ = ["guess_grid", "OneRunBound", "one_run_bound", "one_run_pvalue_upper"]

#: Growth of the grids of ``k+`` and ``k−``.
GUESS_RATIO = 2.0
#: Most (k+, k−) candidates evaluated exactly at δ > 0 (all of them count in the Bonferroni split).
DELTA_CANDIDATES = 6
#: ε points of the quick screen that ranks the candidates at δ > 0.
SCREEN_POINTS = 12
#: Relative widening of scipy's binomial tails (their error is a few ulps).
_TAIL_SLACK = 1e-9


def guess_grid(canaries: int, ratio: float = GUESS_RATIO) -> np.ndarray:
    """Guess counts for one tail: 0, then geometric (×``ratio``) from 1, and ``canaries``.

    >>> guess_grid(12).tolist()
    [0, 1, 2, 4, 8, 12]
    """
    steps = max(1, math.ceil(math.log(max(canaries, 2)) / math.log(ratio)) + 1)
    counts = np.concatenate([[0], np.ceil(ratio ** np.arange(steps)),
                             [canaries]]).astype(np.int64)
    counts = np.unique(counts)
    return counts[counts <= canaries]


@dataclass(frozen=True)
class OneRunBound:
    """The best certified ``(k+, k−)`` of a one-run audit."""

    epsilon_lower_bound: float
    in_guesses: int
    out_guesses: int
    correct: int
    candidates: int
    upper_threshold: float
    lower_threshold: float


def _logit_down(accuracy_lower: float) -> float:
    """``ln(q/(1 − q))`` rounded down, 0 for ``q ≤ ½``."""
    if not accuracy_lower > 0.5:
        return 0.0
    if accuracy_lower >= 1.0:
        return math.inf
    with working_precision(100):
        complement = mpmath.fsub(1, accuracy_lower, rounding="c")
        value = mpmath.log(mpmath.fdiv(accuracy_lower, complement, rounding="f"))
    return max(0.0, round_down(value, relative_error=1e-40))


def _tail(counts: np.ndarray | int, trials: int, accuracy: float) -> np.ndarray:
    """``P[Bin(trials, accuracy) >= counts]`` (1 for counts ≤ 0)."""
    return stats.binom.sf(np.asarray(counts) - 1, trials, accuracy)


def one_run_pvalue_upper(canaries: int, guesses: int, correct: int, delta: float,
                         accuracy_low: float, accuracy_high: float) -> float:
    """Upper bound on Steinke et al.'s p-value over every ε with accuracy ``e^ε/(1+e^ε)`` in ``[low, high]``.

    ``β`` is increasing in the accuracy (taken at ``high``); in the δ term each
    ``P[v − i ≤ B < v] = P[B ≥ v − i] − P[B ≥ v]`` is at most
    ``P_high[B ≥ v − i] − P_low[B ≥ v]``. Tails are widened by a relative 1e-9.
    """
    beta = float(_tail(correct, guesses, accuracy_high)) * (1 + _TAIL_SLACK)
    if delta == 0.0 or correct == 0:
        return min(1.0, beta)
    steps = np.arange(1, correct + 1)
    upper = _tail(correct - steps, guesses, accuracy_high) * (1 + _TAIL_SLACK)
    lower = float(_tail(correct, guesses, accuracy_low)) * (1 - _TAIL_SLACK)
    spread = float(np.max(np.maximum(upper - lower, 0.0) / steps))
    return min(1.0, beta + 2 * canaries * delta * spread * (1 + _TAIL_SLACK))


def _delta_bound(canaries: int, guesses: int, correct: int, delta: float, level: float,
                 ceiling: float) -> float:
    """Largest ε on a grid of ``[0, ceiling]`` below which the monotone envelope stays ≤ ``level``."""
    if ceiling <= 0.0:
        return 0.0
    if not math.isfinite(ceiling):
        ceiling = 50.0
    points = np.linspace(0.0, ceiling, 257)
    accuracies = 1.0 / (1.0 + np.exp(-points))
    spread_so_far = 0.0
    reached = 0.0
    for low, high, epsilon in zip(accuracies[:-1], accuracies[1:], points[1:]):
        p_value = one_run_pvalue_upper(canaries, guesses, correct, 0.0, low, high)
        envelope = one_run_pvalue_upper(canaries, guesses, correct, delta, low, high) - p_value
        spread_so_far = max(spread_so_far, envelope)
        if p_value + spread_so_far > level:
            break
        reached = float(epsilon)
    return reached


def one_run_bound(in_scores: np.ndarray, out_scores: np.ndarray, *, delta: float,
                  failure_probability: float, rng: np.random.Generator) -> OneRunBound:
    """The best ε lower bound over the grid of ``(k+, k−)``, Bonferroni over the whole grid."""
    canaries = in_scores.size + out_scores.size
    scores = np.concatenate([in_scores, out_scores])
    included = np.concatenate([np.ones(in_scores.size, dtype=np.int64),
                               np.zeros(out_scores.size, dtype=np.int64)])
    grid = guess_grid(canaries)
    shuffle = rng.permutation(canaries)  # a uniform order of the ties, independent of inclusion
    # descending order, exact at every boundary k (top) and canaries - k (bottom) of the grid:
    # a partition, not a sort (the counts below are read at those boundaries only)
    boundaries = np.unique(np.concatenate([grid[grid > 0] - 1, canaries - grid[grid > 0]]))
    order = shuffle[np.argpartition(-scores[shuffle], boundaries)]
    ranked = included[order]
    in_top = np.zeros(canaries + 1, dtype=np.int64)
    in_top[1:] = np.cumsum(ranked)  # included among the k highest
    in_top, out_bottom = in_top[grid], grid - (in_top[-1] - in_top[canaries - grid])
    # out_bottom[g]: excluded among the g lowest = g − (included among them)
    slots = np.arange(grid.size)
    plus_slot, minus_slot = np.meshgrid(slots, slots, indexing="ij")
    keep = (grid[plus_slot] + grid[minus_slot] <= canaries) & (grid[plus_slot] + grid[minus_slot] > 0)
    plus_slot, minus_slot = plus_slot[keep], minus_slot[keep]
    plus, minus = grid[plus_slot], grid[minus_slot]
    guesses = plus + minus
    correct = in_top[plus_slot] + out_bottom[minus_slot]
    level = failure_probability / plus.size
    accuracy_lower = _accuracy_lower(correct, guesses, level)
    with np.errstate(divide="ignore"):
        plug_in = np.log(accuracy_lower) - np.log1p(-np.minimum(accuracy_lower, 1 - 1e-16))
    candidates = np.argsort(-plug_in, kind="stable")
    if delta == 0.0:
        best = int(candidates[0])
        epsilon = _logit_down(float(accuracy_lower[best]))
    else:
        best, epsilon = int(candidates[0]), 0.0
        for index in _screen(canaries, guesses, correct, accuracy_lower, delta, level):
            ceiling = _logit_down(float(accuracy_lower[index]))
            if ceiling <= epsilon:
                break
            value = _delta_bound(canaries, int(guesses[index]), int(correct[index]), delta,
                                 level, ceiling)
            if value > epsilon:
                best, epsilon = int(index), value
    descending = scores[order]  # exact at the grid's boundaries
    k_plus, k_minus = int(plus[best]), int(minus[best])
    return OneRunBound(
        epsilon_lower_bound=epsilon, in_guesses=k_plus, out_guesses=k_minus,
        correct=int(correct[best]), candidates=int(plus.size),
        upper_threshold=float(descending[k_plus - 1]) if k_plus else math.inf,
        lower_threshold=float(descending[canaries - k_minus]) if k_minus else -math.inf)


def _screen(canaries: int, guesses: np.ndarray, correct: np.ndarray, accuracy_lower: np.ndarray,
            delta: float, level: float) -> np.ndarray:
    """The candidates most promising at δ > 0, by the p-value at a few ε (a ranking only)."""
    ceilings = np.log(accuracy_lower) - np.log1p(-np.minimum(accuracy_lower, 1 - 1e-16))
    hopeful = np.flatnonzero(ceilings > 0)
    reached = np.zeros(hopeful.size)
    for slot, index in enumerate(hopeful):
        for epsilon in np.linspace(0.0, ceilings[index], SCREEN_POINTS + 1)[1:]:
            accuracy = 1.0 / (1.0 + math.exp(-epsilon))
            if one_run_pvalue_upper(canaries, int(guesses[index]), int(correct[index]), delta,
                                    accuracy, accuracy) > level:
                break
            reached[slot] = epsilon
    return hopeful[np.argsort(-reached, kind="stable")[:DELTA_CANDIDATES]]


def _accuracy_lower(correct: np.ndarray, guesses: np.ndarray, level: float) -> np.ndarray:
    """Clopper–Pearson lower bounds on each candidate's accuracy (``clopper_pearson_lower``
    vectorised over the trials too), widened like it by :data:`~dpverify.auditing.estimators.BETA_SLACK`."""
    with np.errstate(all="ignore"):
        bound = np.where(correct > 0, stats.beta.ppf(level, np.maximum(correct, 1),
                                                     guesses - correct + 1), 0.0)
    return np.clip(bound * (1 - BETA_SLACK), 0.0, 1.0)
