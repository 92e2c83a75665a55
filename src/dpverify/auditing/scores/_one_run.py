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

A fixed set of ``(k+, k−)`` (:func:`_grid_pairs`: one tail, or both equally, k
on a geometric grid; fixed by m and δ alone) is audited with one Bonferroni
split. At δ = 0 the bound is closed-form:
``ε_lb = logit(q_low)`` with ``q_low`` the Clopper–Pearson lower bound on the
guesses' accuracy (``β ≤ level`` exactly when ``q_ε ≤ q_low``). For δ > 0 the
p-value need not be monotone in ε, so the reported ε is the end of an interval
``[0, ε_lb]`` covered by cells of ε on each of which an **upper bound** of the
p-value stays below the level (``docs/proofs/auditing.md`` §15).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np
from scipy import special, stats

from dpverify._numeric import round_down, working_precision
from dpverify.auditing.estimators import BETA_SLACK
from dpverify.auditing.scores._guess_counts import correct_guesses

__all__ = ["guess_grid", "OneRunBound", "one_run_bound", "one_run_split_bound",
           "one_run_pvalue_upper", "SPLIT_FROM_CANARIES_TIMES_DELTA"]

#: Growth of the grids of ``k+`` and ``k−``.
GUESS_RATIO = 2.0
#: Growth of the one grid of k of the δ > 0 candidates ``(k, 0)``, ``(0, k)``, ``(k, k)``.
DELTA_GUESS_RATIO = 4.0
#: ``thresholds="auto"`` splits the canaries of one run when ``m·δ`` is at least this
#: (``benchmarks/auditing.py --only scores``: split is then the tighter on Gaussian and
#: randomized-response canaries alike; below it, the two trade places).
SPLIT_FROM_CANARIES_TIMES_DELTA = 0.1
#: Equal ε cells of the first pass over ``[0, δ = 0 bound]`` at δ > 0.
FIRST_CELLS = 16
#: Halvings of the first failing cell at δ > 0 (resolution: the δ = 0 bound / 4096).
HALVINGS = 8
#: Least gain in ε for which another candidate is searched at δ > 0 (a ranking choice only).
IMPROVEMENT = 1e-3
#: Relative widening of scipy's binomial tails (their error is a few ulps).
_TAIL_SLACK = 1e-9
#: Relative widening of ``expit``'s accuracies (its error is an ulp or two).
_ACCURACY_SLACK = 1e-14


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


def _tail(counts: np.ndarray | int, trials: int, accuracy: Any) -> np.ndarray:
    """``P[Bin(trials, accuracy) >= counts]`` (1 for counts ≤ 0): scipy's ``bdtrc``, as
    ``scipy.stats.binom.sf`` computes it, without its argument checks."""
    return special.bdtrc(np.asarray(counts) - 1, trials, accuracy)


def one_run_pvalue_upper(canaries: int, guesses: int, correct: int, delta: float,
                         accuracy_low: float, accuracy_high: float) -> float:
    """Upper bound on Steinke et al.'s p-value over every ε with accuracy ``e^ε/(1+e^ε)`` in ``[low, high]``.

    ``β`` is increasing in the accuracy (taken at ``high``); in the δ term each
    ``P[v − i ≤ B < v] = P[B ≥ v − i] − P[B ≥ v]`` is at most
    ``P_high[B ≥ v − i] − P_low[B ≥ v]``, and the maximum over i is bounded on
    blocks of i (every i up to 64, then 2 % wide): on a block ``[a, b]`` the
    numerator is at most its value at ``b`` and ``i ≥ a``. Tails are widened by a
    relative 1e-9.
    """
    bound = _pvalue_upper(canaries, guesses, correct, delta, np.array([accuracy_low]),
                          np.array([accuracy_high]))
    return min(1.0, float(bound[0]))


def _pvalue_upper(canaries: int, guesses: int, correct: int, delta: float,
                  accuracy_low: np.ndarray, accuracy_high: np.ndarray) -> np.ndarray:
    """:func:`one_run_pvalue_upper` for many accuracy intervals at once (not capped at 1)."""
    beta = _tail(correct, guesses, accuracy_high) * (1 + _TAIL_SLACK)
    if delta == 0.0 or correct == 0:
        return beta
    # max over i in [1, v] of (P_high[B >= v - i] - P_low[B >= v]) / i, bounded blockwise: on a
    # block [a, b] of i the numerator is at most its value at b (it increases with i) and i >= a
    starts = _blocks(correct)
    ends = np.append(starts[1:] - 1, correct)
    upper = _tail((correct - ends)[None, :], guesses, accuracy_high[:, None]) * (1 + _TAIL_SLACK)
    lower = _tail(correct, guesses, accuracy_low)[:, None] * (1 - _TAIL_SLACK)
    spread = np.max(np.maximum(upper - lower, 0.0) / starts[None, :], axis=1)
    return beta + 2 * canaries * delta * spread * (1 + _TAIL_SLACK)


@functools.lru_cache(maxsize=64)
def _blocks(correct: int) -> np.ndarray:
    """Starts of blocks covering ``[1, correct]``: every i up to 64, then growing by 2 %
    (cached, read-only)."""
    small = np.arange(1, min(correct, 64) + 1)
    if correct <= 64:
        small.flags.writeable = False
        return small
    steps = math.ceil(math.log(correct / 64) / math.log(1.02)) + 1
    large = np.unique(np.floor(64 * 1.02 ** np.arange(steps)).astype(np.int64))
    starts = np.unique(np.concatenate([small, large[(large > 64) & (large <= correct)]]))
    starts.flags.writeable = False
    return starts


def _accuracies(low_epsilons: np.ndarray, high_epsilons: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``e^ε/(1 + e^ε)`` at the ends of ε intervals, widened outwards past ``expit``'s float error."""
    low = special.expit(low_epsilons) * (1 - _ACCURACY_SLACK)
    high = np.minimum(1.0, special.expit(high_epsilons) * (1 + _ACCURACY_SLACK))
    return low, high


def _delta_bound(canaries: int, guesses: int, correct: int, delta: float, level: float,
                 ceiling: float) -> float:
    """An ε ≤ ``ceiling`` such that the p-value is ≤ ``level`` at every ε' in ``[0, ε]``.

    ``[0, ceiling]`` is cut into :data:`FIRST_CELLS` equal cells, each checked by
    :func:`one_run_pvalue_upper` over its accuracy interval (vectorised); the
    passing cells before the first failing one are certified, and the failing cell
    is then halved :data:`HALVINGS` times (keep the left half when it passes and
    move on, else shrink to it). Every certified ε lies in a checked cell that
    passed (``docs/proofs/auditing.md`` §15).
    """
    if not ceiling > 0.0:
        return 0.0
    ceiling = min(ceiling, 50.0)
    edges = np.linspace(0.0, ceiling, FIRST_CELLS + 1)
    low, high = _accuracies(edges[:-1], edges[1:])
    failing = np.flatnonzero(_pvalue_upper(canaries, guesses, correct, delta, low, high) > level)
    if failing.size == 0:
        return float(edges[-1])
    reached, end = float(edges[failing[0]]), float(edges[failing[0] + 1])
    for _ in range(HALVINGS):
        middle = (reached + end) / 2
        low, high = _accuracies(np.array([reached]), np.array([middle]))
        if _pvalue_upper(canaries, guesses, correct, delta, low, high)[0] <= level:
            reached = middle
        else:
            end = middle
    return reached


def _grid_pairs(canaries: int, delta: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """The ``(k+, k−)`` candidates, fixed by ``canaries`` and ``delta`` alone (never by the scores).

    One tail or both tails equally: ``(k, 0)``, ``(0, k)`` and ``(k, k)`` for ``k`` in
    :func:`guess_grid`, at ratio :data:`GUESS_RATIO` (δ = 0) or
    :data:`DELTA_GUESS_RATIO` (δ > 0), and ``(⌊m/2⌋, ⌊m/2⌋)`` (every canary, or all
    but one, guessed: the best rule when the scores take two values) — a few dozen candidates, where every pair of
    the grid would be a few hundred. Fewer candidates mean a larger level each; at
    δ > 0 the δ term puts a floor ``≈ 2mδ/v`` under the p-value, and a level divided
    by many candidates sinks below it (``docs/proofs/auditing.md`` §15).

    >>> [len(pairs) for pairs in _grid_pairs(1000)], [len(pairs) for pairs in _grid_pairs(1000, 1e-5)]
    ([32, 32], [18, 18])
    """
    grid = guess_grid(canaries, DELTA_GUESS_RATIO if delta > 0.0 else GUESS_RATIO)
    grid = grid[grid > 0]
    both = np.union1d(grid[2 * grid <= canaries], [canaries // 2])  # k = m/2: guess (nearly) all
    both = both[both > 0]
    plus = np.concatenate([grid, np.zeros_like(grid), both])
    minus = np.concatenate([np.zeros_like(grid), grid, both])
    return plus, minus


def one_run_bound(in_scores: np.ndarray, out_scores: np.ndarray, *, delta: float,
                  failure_probability: float, rng: np.random.Generator,
                  pairs: tuple[np.ndarray, np.ndarray] | None = None) -> OneRunBound:
    """The best ε lower bound over ``pairs`` of ``(k+, k−)`` (default: the grid), Bonferroni over them."""
    canaries = in_scores.size + out_scores.size
    plus, minus = _grid_pairs(canaries, delta) if pairs is None else pairs
    # ties in a uniform order independent of inclusion: counts drawn with that rule's law
    correct, highest = correct_guesses(in_scores, out_scores, rng, plus, minus)
    guesses = plus + minus
    level = failure_probability / plus.size
    accuracy_lower = _accuracy_lower(correct, guesses, level)
    if delta == 0.0:
        best = int(np.argmax(accuracy_lower))
        epsilon = _logit_down(float(accuracy_lower[best]))
    else:
        best, epsilon = _delta_search(canaries, guesses, correct, accuracy_lower, delta, level)
    k_plus, k_minus = int(plus[best]), int(minus[best])
    return OneRunBound(
        epsilon_lower_bound=epsilon, in_guesses=k_plus, out_guesses=k_minus,
        correct=int(correct[best]), candidates=int(plus.size),
        upper_threshold=highest(k_plus) if k_plus else math.inf,
        lower_threshold=highest(canaries - k_minus + 1) if k_minus else -math.inf)


def one_run_split_bound(in_scores: np.ndarray, out_scores: np.ndarray, *, delta: float,
                        failure_probability: float, rng: np.random.Generator) -> OneRunBound:
    """Half of the canaries (a seeded random half) choose ``(k+, k−)``; the other half certify it.

    Given the first half's inclusion bits, the run is still (ε, δ)-DP in each canary
    of the second half and their inclusion is still a fair coin each, so Steinke et
    al.'s test runs on the second half alone (its m is that half's size) with the
    whole level and no Bonferroni split (``docs/proofs/auditing.md`` §15).
    """
    labels = np.concatenate([np.ones(in_scores.size, dtype=bool), np.zeros(out_scores.size, dtype=bool)])
    scores = np.concatenate([in_scores, out_scores])
    order = rng.permutation(scores.size)
    choose, certify = order[: scores.size // 2], order[scores.size // 2:]
    chosen = one_run_bound(scores[choose][labels[choose]], scores[choose][~labels[choose]],
                           delta=delta, failure_probability=failure_probability, rng=rng)
    scale = certify.size / max(choose.size, 1)
    k_plus = min(certify.size, round(chosen.in_guesses * scale))
    k_minus = min(certify.size - k_plus, round(chosen.out_guesses * scale))
    if k_plus + k_minus == 0:
        k_plus = 1
    bound = one_run_bound(scores[certify][labels[certify]], scores[certify][~labels[certify]],
                          delta=delta, failure_probability=failure_probability, rng=rng,
                          pairs=(np.array([k_plus]), np.array([k_minus])))
    return bound


def _delta_search(canaries: int, guesses: np.ndarray, correct: np.ndarray,
                  accuracy_lower: np.ndarray, delta: float, level: float) -> tuple[int, float]:
    """δ > 0: candidates in decreasing order of their δ = 0 bound (which caps the δ > 0 one).

    A candidate is searched (:func:`_delta_bound`) only if its δ = 0 bound exceeds
    the best so far and its p-value at :data:`IMPROVEMENT` above the best so far is
    ≤ ``level`` (else its certified interval cannot reach that far). Which candidates are searched is a
    ranking only: every candidate counts in the Bonferroni split.
    """
    with np.errstate(divide="ignore"):
        ceilings = np.minimum(np.maximum(special.logit(accuracy_lower), 0.0), 50.0)
    hopeful = np.flatnonzero(ceilings > 0)
    if hopeful.size == 0:
        return int(np.argmax(accuracy_lower)), 0.0
    hopeful = hopeful[np.argsort(-ceilings[hopeful], kind="stable")]
    index, epsilon = int(hopeful[0]), 0.0
    for candidate in hopeful.tolist():
        if ceilings[candidate] <= epsilon:
            break
        guesses_here, correct_here = int(guesses[candidate]), int(correct[candidate])
        # worth a search only if it passes a little above the best so far
        accuracy = np.array([special.expit(epsilon + IMPROVEMENT)])
        if _pvalue_upper(canaries, guesses_here, correct_here, delta, accuracy, accuracy)[0] > level:
            continue
        value = _delta_bound(canaries, guesses_here, correct_here, delta, level,
                             float(ceilings[candidate]))
        if value > epsilon:
            index, epsilon = candidate, value
    return index, epsilon


def _accuracy_lower(correct: np.ndarray, guesses: np.ndarray, level: float) -> np.ndarray:
    """Clopper–Pearson lower bounds on each candidate's accuracy (``clopper_pearson_lower``
    vectorised over the trials too), widened like it by :data:`~dpverify.auditing.estimators.BETA_SLACK`."""
    with np.errstate(all="ignore"):
        bound = np.where(correct > 0, stats.beta.ppf(level, np.maximum(correct, 1),
                                                     guesses - correct + 1), 0.0)
    return np.clip(bound * (1 - BETA_SLACK), 0.0, 1.0)
