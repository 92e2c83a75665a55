"""One-run f-DP audits (Mahloujifar, Melis & Chaudhuri 2024): ``method="one-run-fdp"``.

Design ``"one-run"`` as in :mod:`~dpverify.auditing.scores._one_run`: m canaries,
each included independently with probability ½; the auditor guesses *in* for the
``k+`` highest scores and *out* for the ``k−`` lowest (ties in a seeded random
order), ``c' = k+ + k−`` guesses, ``W`` of them correct. If the run is f-DP in
each canary (both orders of the neighbours; ``f`` a trade-off function, Dong,
Roth & Su 2022), write ``g(x) = inf{α : 1 − f(α) ≥ x}`` for the inverse of its
blow-up. Mahloujifar, Melis & Chaudhuri (2024, arXiv 2410.22235, their
Algorithm 3, "audit_rh_with_cap") run, from ``r_c = τc/m`` and
``h_c = τ(c' − c)/m``,

.. math:: h_i = \\max\\bigl(h_{i+1},\\ g(r_{i+1})\\bigr), \\qquad
          r_i = r_{i+1} + \\frac{i}{c' - i}\\,(h_i - h_{i+1}), \\qquad i = c-1, \\dots, 0,

and ``r_0 + h_0 > c'/m`` proves ``P[W ≥ c] < τ``: ``r_i`` and ``h_i`` lower-bound
``E[W·1{W ≥ i}]/m`` and ``E[(c' − W)·1{W ≥ i}]/m``, whose sum at ``i = 0`` is
``c'/m`` exactly (``docs/proofs/auditing.md`` §16, with the proof). Any ``f`` the
run satisfies can be tested: the (ε, δ)-DP curve ``f_{ε,δ}``, the Gaussian
``G_μ``, or a claim's own curve (from a profile, PLD or accountant), which is
where this goes beyond jax_privacy's ``_epsilon_one_run_fdp`` (Gaussian curves
only).

Every test uses the count ``W`` of one fixed guess rule, so the rejections of all
the hypotheses a true claim implies (every ``f_{ε',δ}`` with ``ε' ≥ ε``) are one
event ``{W ≥ min c*}`` of probability below the level: the reported ε is the largest
refuted ε of a grid with no monotonicity needed. The ``(k+, k−)`` candidates of
the SNJ audit (:func:`~dpverify.auditing.scores._one_run._grid_pairs`: one tail or
both tails equally, and every canary guessed; fixed by m and δ alone) share the
budget by one Bonferroni split; only the most promising pairs are evaluated (all are counted).
Every step errs low: ``g`` is lowered by a relative 1e-9, the level by 1e-7 and
each ``r_i`` by 1e-12, ``r_i`` enters ``g`` capped at 1, and a rejection needs
``r_0 + h_0`` above ``c'/m`` by a relative 1e-9 (§16, float safety). The ε and μ
searches run the recursion in chunks of many steps (:mod:`._fdp_chunked`, §16 *chunks*),
side by side in one loop (§16, *Searches side by side*); ties across a split are
resolved by exact draws of their counts (:mod:`._guess_counts`, §16 *Ties*);
:func:`recursion_total` and :func:`refuted` are the plain stepwise recursion (the
claim's curve, :func:`probability_upper`, and the tests' reference).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
from scipy import special

from dpverify.auditing.scores._fdp_chunked import (
    Curve,
    chunked_refutes_groups,
    epsilon_curve,
    gaussian_curve,
)
from dpverify.auditing.scores._guess_counts import correct_guesses
from dpverify.auditing.scores._one_run import _grid_pairs

__all__ = ["FdpOneRunBound", "fdp_one_run_bound", "fdp_one_run_split_bound", "recursion_total",
           "refuted", "probability_upper", "epsilon_inverse", "gaussian_inverse", "curve_inverse",
           "FDP_CANDIDATES", "MU_CANDIDATES", "GRID_POINTS"]

#: ``(k+, k−)`` pairs evaluated by the recursion (the most accurate by a Clopper–Pearson screen).
FDP_CANDIDATES = 8
#: Pairs evaluated for μ-GDP (the screen's best, and the pair that certified ε).
MU_CANDIDATES = 3
#: Points of each ε (or μ) grid; a coarse grid, then a finer one inside the best bracket.
GRID_POINTS = 40
#: Relative amount by which ``g`` is lowered (the float error of its closed forms is ~1e-15).
_INVERSE_SLACK = 1e-9
#: Relative lowering of the level at the start (covers its rounding for c up to 10^7).
_START_SLACK = 1e-7
#: Relative lowering of each r_i (covers the roundings of one step, a few ulps).
_STEP_SLACK = 1e-12
#: Relative margin by which r_0 + h_0 must exceed c'/m.
_TOTAL_MARGIN = 1e-9
#: α grid on which a general trade-off curve is read (log-spaced: the recursion starts near 0).
_CURVE_ALPHAS = np.concatenate([[0.0], np.logspace(-16, 0, 4001)])

Inverse = Callable[[np.ndarray], np.ndarray]


def epsilon_inverse(epsilons: Any, delta: float) -> Inverse:
    """``g`` of ``f_{ε,δ}`` for each ε (columns): ``max(0, (x − δ)e^{−ε}, 1 − δ − e^{ε}(1 − x))``.

    From ``1 − f_{ε,δ}(α) = min(1, δ + e^{ε}α, 1 − e^{−ε}(1 − δ − α))`` (Kairouz, Oh &
    Viswanath 2015; Dong, Roth & Su 2022, Prop. 2.5), lowered by a relative 1e-9.

    >>> float(epsilon_inverse([0.0], 0.0)(np.array([[0.3]]))[0, 0]) <= 0.3
    True
    """
    factor = np.exp(np.asarray(epsilons, dtype=float))

    def inverse(x: np.ndarray) -> np.ndarray:
        value = np.maximum(np.maximum((x - delta) / factor, 1.0 - delta - factor * (1.0 - x)), 0.0)
        return value * (1 - _INVERSE_SLACK)
    return inverse


def gaussian_inverse(mus: Any) -> Inverse:
    """``g`` of ``G_μ`` for each μ (columns): ``Φ(Φ^{-1}(x) − μ)`` (Dong, Roth & Su 2022, Def. 2.5)."""
    mus = np.asarray(mus, dtype=float)

    def inverse(x: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore"):
            return special.ndtr(special.ndtri(x) - mus) * (1 - _INVERSE_SLACK)
    return inverse


def curve_inverse(tradeoff: Callable[[np.ndarray], np.ndarray]) -> Inverse:
    """``g`` of the largest convex function below a nonincreasing curve read on a grid.

    ``tradeoff`` is (a lower bound on) a trade-off function, so nonincreasing: on
    ``(α_k, α_{k+1}]`` it is at least ``f(α_{k+1})``. The lower convex hull of the
    points ``(α_k, f(α_{k+1}))`` lies below that step function, hence below ``f``;
    its blow-up is concave (the recursion's Jensen step needs that) and at least
    ``f``'s, so its inverse is at most ``g``: the safe side.
    """
    alphas = _CURVE_ALPHAS
    values = np.clip(np.asarray(tradeoff(alphas), dtype=float), 0.0, 1.0)
    values = np.minimum.accumulate(values)  # a nonincreasing lower bound at the grid points
    points_x = alphas
    points_y = np.append(values[1:], values[-1])  # f(α_{k+1}) at α_k; the last point as is
    hull_x, hull_y = _lower_hull(points_x, points_y)
    lowest = int(np.argmin(hull_y))  # the hull falls to its minimum, then is flat
    hull_x, hull_y = hull_x[:lowest + 1], hull_y[:lowest + 1]
    floor = float(hull_y[-1])

    def inverse(x: np.ndarray) -> np.ndarray:
        target = 1.0 - x
        value = np.interp(target, hull_y[::-1], hull_x[::-1])  # hull_y decreasing
        value = np.where(target < floor, np.inf, value)
        return value * (1 - _INVERSE_SLACK)
    return inverse


def _lower_hull(xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Vertices of the lower convex hull of points sorted by x (Andrew's monotone chain)."""
    hull: list[int] = []
    for index in range(xs.size):
        while len(hull) >= 2:
            a, b = hull[-2], hull[-1]
            cross = (xs[b] - xs[a]) * (ys[index] - ys[a]) - (ys[b] - ys[a]) * (xs[index] - xs[a])
            if cross <= 0:
                hull.pop()
            else:
                break
        hull.append(index)
    return xs[hull], ys[hull]


def recursion_total(canaries: int, guesses: np.ndarray, correct: np.ndarray, level: float,
                    inverse: Inverse, hypotheses: int = 1) -> np.ndarray:
    """``r_0 + h_0`` of the recursion for each pair (rows) and hypothesis (columns), rounded low.

    Vectorised over pairs (each starts at its own ``c``) and over the hypotheses
    ``inverse`` maps column-wise; stops early once no column grows (the exact ``r_i``
    and ``h_i`` only grow as i falls, so stopping errs low). Every float value is at
    most the exact recursion's (``docs/proofs/auditing.md`` §16, float safety): the
    level is lowered by a relative 1e-7 (the start's rounding), ``h_i`` is an exact
    maximum, each ``r_i`` is lowered by a relative 1e-12 (its few roundings), and
    ``r`` enters ``g`` capped at 1 (``g`` is nondecreasing).
    """
    guesses = np.asarray(guesses, dtype=float)[:, None]
    correct_counts = np.asarray(correct, dtype=np.int64)
    start = correct_counts.astype(float)[:, None]
    scale = level * (1 - _START_SLACK)
    r = np.broadcast_to(scale * start / canaries, (start.shape[0], hypotheses)).copy()
    h = np.broadcast_to(scale * (guesses - start) / canaries, r.shape).copy()
    top = int(correct_counts.max(initial=0))
    for i in range(top - 1, -1, -1):
        active = (correct_counts > i)[:, None]
        raised = np.where(active, np.maximum(h, inverse(np.minimum(r, 1.0))), h)
        grow = raised - h
        if active.all() and not grow.any():
            break  # every pair has started and none grows: the state is final
        # inactive rows: grow = 0 (their divisor is kept away from 0)
        r = (r + grow * (i / np.maximum(guesses - i, 1.0))) * (1 - _STEP_SLACK)
        h = raised
    return r + h


def refuted(canaries: int, guesses: np.ndarray, correct: np.ndarray, level: float,
            inverse: Inverse, hypotheses: int = 1) -> np.ndarray:
    """Whether each pair (rows) refutes each hypothesis (columns) at ``level``: ``P[W ≥ c] < level``.

    A refutation needs ``r_0 + h_0 > (c'/m)(1 + 10⁻⁹)``: the margin covers the
    rounding of the sum and of ``c'/m``.
    """
    total = recursion_total(canaries, guesses, correct, level, inverse, hypotheses)
    bound = np.asarray(guesses, dtype=float)[:, None] / canaries
    return total > bound * (1 + _TOTAL_MARGIN)


def probability_upper(canaries: int, guesses: int, correct: int, inverse: Inverse,
                      iterations: int = 60) -> float:
    """An upper bound on ``P[W ≥ c]`` under the hypothesis: the least τ the recursion refutes.

    ``r_0 + h_0`` increases with τ (``docs/proofs/auditing.md`` §16), so a bisection
    on τ; the returned end is one at which the hypothesis is not refuted, or 1.
    """
    if correct == 0:
        return 1.0
    args = (canaries, np.array([guesses]), np.array([correct]))
    low, high = 0.0, 1.0
    if not refuted(*args, 1.0, inverse)[0, 0]:
        return 1.0
    for _ in range(iterations):
        middle = 0.5 * (low + high)
        if refuted(*args, middle, inverse)[0, 0]:
            high = middle
        else:
            low = middle
    return high


@dataclass(frozen=True)
class FdpOneRunBound:
    """The result of :func:`fdp_one_run_bound`."""

    epsilon_lower_bound: float
    mu_lower_bound: float
    claim_refuted: bool | None
    in_guesses: int
    out_guesses: int
    correct: int
    candidates: int
    upper_threshold: float
    lower_threshold: float


def _counts(in_scores: np.ndarray, out_scores: np.ndarray, rng: np.random.Generator,
            pairs: tuple[np.ndarray, np.ndarray] | None = None, delta: float = 0.0):
    """``(k+, k−)`` (default: the grid of :func:`~dpverify.auditing.scores._one_run._grid_pairs`,
    fixed by m and δ alone), their guesses and correct guesses, and the k-th highest score
    as a function of k (ties broken in a uniform order independent of inclusion, the counts
    drawn by ``rng`` with that rule's law: :func:`~dpverify.auditing.scores._guess_counts.top_counts`)."""
    plus, minus = _grid_pairs(in_scores.size + out_scores.size, delta) if pairs is None else pairs
    correct, highest = correct_guesses(in_scores, out_scores, rng, plus, minus)
    return plus, minus, plus + minus, correct, highest


def _screen(guesses: np.ndarray, correct: np.ndarray, level: float,
            accuracy: np.ndarray | None = None) -> np.ndarray:
    """Indices of the most promising pairs: highest Clopper–Pearson lower accuracy at ``level``
    (``accuracy``: those lower accuracies, when already computed by :func:`_accuracy_lower`)."""
    if accuracy is None:
        accuracy = _accuracy_lower(guesses, correct, level)
    order = np.argsort(-accuracy, kind="stable")
    return order[:FDP_CANDIDATES]


def _accuracy_lower(guesses: np.ndarray, correct: np.ndarray, level: float) -> np.ndarray:
    """The Clopper–Pearson lower accuracy of each pair at ``level`` (0 without a correct guess)."""
    with np.errstate(all="ignore"):
        # stats.beta.ppf(level, c, c' − c + 1) without the distribution object's overhead
        accuracy = np.where(correct > 0, special.betaincinv(np.maximum(correct, 1),
                                                            guesses - correct + 1, level), 0.0)
    return np.nan_to_num(accuracy)


#: One grid search: ``(guesses, correct, (curve, map of the grid to its parameter), grid end)``.
Search = tuple[np.ndarray, np.ndarray, tuple[Curve, Callable[[np.ndarray], np.ndarray]], float]


def _largest_refuted(canaries: int, level: float,
                     searches: list[Search]) -> list[tuple[int, float]]:
    """For each search, the largest parameter of a grid on ``[0, top]`` (then refined) refuted
    by some pair, and that pair.

    Each family is a curve (``g(x, parameter)`` and its slope) and the map of the grid to
    its parameter; the recursion runs in chunks (:mod:`._fdp_chunked`), the searches'
    grids in one loop, each with the decisions it has alone.
    """
    states = [(0, 0.0, np.arange(guesses.size), np.linspace(0.0, top, GRID_POINTS + 1)[1:])
              for guesses, _, _, top in searches]
    for _ in range(2):
        groups = [(guesses[active], correct[active], level, curve, transform(grid))
                  for (guesses, correct, (curve, transform), _), (_, _, active, grid)
                  in zip(searches, states)]
        decisions = chunked_refutes_groups(canaries, groups, largest_only=True)
        states = [_refine(*state, rejected) for state, rejected in zip(states, decisions)]
    return [(best_pair, _lowered(best) if best > 0 else 0.0) for best_pair, best, _, _ in states]


#: ``1 − 10⁻¹²`` exactly (the float 10⁻¹² as :func:`~dpverify._numeric.round_down` reads it).
_LOWERING = 1 - Fraction(1e-12)


def _lowered(value: float) -> float:
    """``round_down(value, relative_error=1e-12)`` for a finite float ``value > 0``, in fractions.

    The largest float at most ``value·(1 − 10⁻¹²)`` (exact: ``round_down``'s 50-digit
    mpmath sum is exact too, its terms spanning fewer than 150 bits), without mpmath's
    overhead.
    """
    exact = Fraction(value) * _LOWERING
    lowered = value * (1 - 1e-12)
    while Fraction(lowered) > exact:
        lowered = math.nextafter(lowered, -math.inf)
    while Fraction(math.nextafter(lowered, math.inf)) <= exact:
        lowered = math.nextafter(lowered, math.inf)
    return lowered


def _refine(best_pair: int, best: float, active: np.ndarray, grid: np.ndarray,
            rejected: np.ndarray) -> tuple[int, float, np.ndarray, np.ndarray]:
    """The best so far after one grid, the pairs worth the next grid, and that grid."""
    if active.size:
        # each pair's largest refuted point (-inf if none); the first pair with the largest wins
        last = grid.size - 1 - np.argmax(rejected[:, ::-1], axis=1)
        largest = np.where(rejected.any(axis=1), grid[last], -np.inf)
        row = int(np.argmax(largest))
        if largest[row] > best:
            best_pair, best = int(active[row]), float(largest[row])
    step = grid[1] - grid[0]
    if best > 0:
        # r_0 + h_0 falls as the parameter grows (g does), so only the pairs that refuted
        # `best` can refute the finer grid above it (a ranking: fewer pairs only err low)
        active = active[rejected[:, int(np.argmin(np.abs(grid - best)))]]
    if best >= grid[-1]:  # the whole grid is refuted: extend it
        grid = np.linspace(best, 2 * best + 1.0, GRID_POINTS + 1)[1:]
    else:
        grid = np.linspace(best, best + step, GRID_POINTS + 1)[1:]
    return best_pair, best, active, grid


def _search_top(guesses: np.ndarray, correct: np.ndarray) -> float:
    """The end of the first search grid: 1.5 times the largest plug-in log-odds, plus 1 (≤ 40)."""
    with np.errstate(divide="ignore"):
        plug_in = np.log((correct + 1.0) / np.maximum(guesses - correct, 0.5))
    return float(min(40.0, max(1.0, 1.5 * float(np.max(plug_in)) + 1.0)))


def fdp_one_run_bound(in_scores: np.ndarray, out_scores: np.ndarray, *, delta: float,
                      failure_probability: float, rng: np.random.Generator,
                      claim_tradeoff: Callable[[np.ndarray], np.ndarray] | None = None,
                      claimed_epsilon: float | None = None,
                      pairs: tuple[np.ndarray, np.ndarray] | None = None) -> FdpOneRunBound:
    """The f-DP one-run audit over ``pairs`` of ``(k+, k−)`` (default: the grid; one Bonferroni split).

    Returns the largest refuted ε of ``f_{ε,δ}`` (certified, at ``delta``), the
    largest refuted μ of ``G_μ``, and, with ``claim_tradeoff`` (a lower bound on the
    claimed trade-off curve) or ``claimed_epsilon`` (the claim's ε at ``delta``),
    whether the claim is refuted.
    """
    canaries = in_scores.size + out_scores.size
    plus, minus, guesses, correct, highest = _counts(in_scores, out_scores, rng, pairs, delta)
    level = failure_probability / plus.size
    # f_{eps,delta}'s g vanishes below delta: a pair whose start r_c = level*c/m is at most
    # delta never grows and refutes no epsilon, so the epsilon search screens the others
    useful = np.flatnonzero(level * correct / canaries > delta)
    accuracy = _accuracy_lower(guesses, correct, level)  # one screen of all the pairs
    chosen = useful[_screen(guesses[useful], correct[useful], level, accuracy[useful])]
    if chosen.size == 0:
        chosen = _screen(guesses, correct, level, accuracy)[:1]
    epsilon_search = (guesses[chosen], correct[chosen], (epsilon_curve(delta), np.exp),
                      _search_top(guesses[chosen], correct[chosen]))

    def mu_search(pairs: np.ndarray) -> Search:
        return (guesses[pairs], correct[pairs], (gaussian_curve(), np.asarray),
                _search_top(guesses[pairs], correct[pairs]))

    # mu-GDP: the screen's best pairs and the pair that certified epsilon (all pairs still
    # count in the Bonferroni split); run beside the epsilon search on the screen's best
    # alone, which holds the certifying pair in every case seen, else again on its own
    best_screened = _screen(guesses, correct, level, accuracy)[:MU_CANDIDATES]
    guessed = np.unique(best_screened)
    (pair, epsilon), (_, mu) = _largest_refuted(canaries, level,
                                                [epsilon_search, mu_search(guessed)])
    for_mu = np.unique(np.append(best_screened, chosen[pair]))
    if not np.array_equal(for_mu, guessed):
        [(_, mu)] = _largest_refuted(canaries, level, [mu_search(for_mu)])
    claim_refuted: bool | None = None
    if claim_tradeoff is not None or claimed_epsilon is not None:
        claim_refuted = claimed_epsilon is not None and epsilon > claimed_epsilon
        if claim_tradeoff is not None and not claim_refuted:
            tested = np.unique(np.concatenate([chosen, for_mu]))
            claim_refuted = bool(refuted(canaries, guesses[tested], correct[tested], level,
                                         curve_inverse(claim_tradeoff)).any())
    index = int(chosen[pair])
    k_plus, k_minus = int(plus[index]), int(minus[index])
    return FdpOneRunBound(
        epsilon_lower_bound=epsilon, mu_lower_bound=mu, claim_refuted=claim_refuted,
        in_guesses=k_plus, out_guesses=k_minus, correct=int(correct[index]),
        candidates=int(plus.size),
        upper_threshold=highest(k_plus) if k_plus else math.inf,
        lower_threshold=highest(canaries - k_minus + 1) if k_minus else -math.inf)


def fdp_one_run_split_bound(in_scores: np.ndarray, out_scores: np.ndarray, *, delta: float,
                            failure_probability: float, rng: np.random.Generator,
                            claim_tradeoff: Callable[[np.ndarray], np.ndarray] | None = None,
                            claimed_epsilon: float | None = None) -> FdpOneRunBound:
    """A seeded random half of the canaries chooses ``(k+, k−)``; the other half certifies it.

    As :func:`~dpverify.auditing.scores._one_run.one_run_split_bound`: given the first
    half's bits, the run is still f-DP in each canary of the second half and their
    inclusion is still a fair coin each, so the recursion runs on the second half
    alone (its m is that half's size) at the whole level, with no Bonferroni split
    (``docs/proofs/auditing.md`` §15–16).
    """
    labels = np.concatenate([np.ones(in_scores.size, dtype=bool),
                             np.zeros(out_scores.size, dtype=bool)])
    scores = np.concatenate([in_scores, out_scores])
    order = rng.permutation(scores.size)
    choose, certify = order[: scores.size // 2], order[scores.size // 2:]
    chosen = fdp_one_run_bound(scores[choose][labels[choose]], scores[choose][~labels[choose]],
                               delta=delta, failure_probability=failure_probability, rng=rng)
    scale = certify.size / max(choose.size, 1)
    k_plus = min(certify.size, round(chosen.in_guesses * scale))
    k_minus = min(certify.size - k_plus, round(chosen.out_guesses * scale))
    if k_plus + k_minus == 0:
        k_plus = 1
    return fdp_one_run_bound(scores[certify][labels[certify]], scores[certify][~labels[certify]],
                             delta=delta, failure_probability=failure_probability, rng=rng,
                             claim_tradeoff=claim_tradeoff, claimed_epsilon=claimed_epsilon,
                             pairs=(np.array([k_plus]), np.array([k_minus])))
