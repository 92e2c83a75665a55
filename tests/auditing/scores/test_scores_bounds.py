"""The score audits' building blocks: Steinke et al.'s p-value (cross-checked with jax_privacy),
the δ = 0 closed form, the δ > 0 envelope, the order-statistic FPR bound with ties."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from dpverify.auditing.estimators import clopper_pearson_upper
from dpverify.auditing.scores._independent import rank_grid
from dpverify.auditing.scores._one_run import (
    IMPROVEMENT,
    _accuracy_lower,
    _delta_bound,
    _delta_search,
    _grid_pairs,
    _logit_down,
    guess_grid,
    one_run_pvalue_upper,
)


def _q(epsilon: float) -> float:
    return 1.0 / (1.0 + math.exp(-epsilon))


# Values of jax_privacy's _one_run_p_value (google-deepmind/jax_privacy, jax_privacy/auditing.py,
# the p-value of Steinke, Nasr & Jagielski 2023), computed with jax-privacy 2.0.0:
JAX_P_VALUES = [((1000, 100, 98, 0.5, 1e-5), 0.0004389638802639003),
                ((1000, 100, 98, 2.0, 1e-5), 0.0016523613491206068),
                ((1000, 228, 226, 1.0, 1e-5), 0.00027162773612058005)]


@pytest.mark.parametrize(("arguments", "value"), JAX_P_VALUES)
def test_pvalue_bounds_jax_privacys_from_above_and_closely(arguments, value) -> None:
    canaries, guesses, correct, epsilon, delta = arguments
    ours = one_run_pvalue_upper(canaries, guesses, correct, delta, _q(epsilon), _q(epsilon))
    assert value <= ours <= value * 1.03


def test_delta_zero_pvalue_is_the_binomial_tail() -> None:
    assert one_run_pvalue_upper(100, 50, 40, 0.0, 0.7, 0.7) == pytest.approx(
        stats.binom.sf(39, 50, 0.7), rel=1e-8)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 400), st.data())
def test_delta_zero_closed_form_is_the_largest_rejected_epsilon(guesses, data) -> None:
    """logit of the Clopper–Pearson lower bound: β(ε_lb) ≤ level < β(ε_lb + 0.01)."""
    correct = data.draw(st.integers(0, guesses))
    level = 1e-3
    lower = stats.beta.ppf(level, correct, guesses - correct + 1) * (1 - 1e-9) if correct else 0.0
    epsilon = _logit_down(float(lower))
    if epsilon == 0.0 or math.isinf(epsilon):
        return
    assert stats.binom.sf(correct - 1, guesses, _q(epsilon)) <= level * (1 + 1e-6)
    assert stats.binom.sf(correct - 1, guesses, _q(epsilon + 0.01)) > level


def test_delta_envelope_is_below_the_level_on_the_whole_interval() -> None:
    """Every ε in [0, ε_lb] (a fine grid) has p-value ≤ level: the envelope's promise."""
    canaries, guesses, correct, delta, level = 1000, 228, 226, 1e-5, 1e-3
    ceiling = _logit_down(float(stats.beta.ppf(level, correct, guesses - correct + 1)))
    bound = _delta_bound(canaries, guesses, correct, delta, level, ceiling)
    assert 0 < bound < ceiling
    for epsilon in np.linspace(0.0, bound, 400):
        q = _q(float(epsilon))
        assert one_run_pvalue_upper(canaries, guesses, correct, delta, q, q) <= level


@settings(max_examples=40, deadline=None)
@given(st.integers(50, 20_000), st.floats(0.55, 1.0), st.floats(0.3, 1.0),
       st.sampled_from([1e-6, 1e-5, 1e-3]), st.sampled_from([1e-4, 1e-2, 0.05]))
def test_cell_search_certifies_every_epsilon_below_it(canaries, guessed, accuracy, delta,
                                                      level) -> None:
    """The δ > 0 cell search: the p-value is ≤ level at every ε of a fine grid of [0, ε_lb]."""
    guesses = max(1, int(guessed * canaries))
    correct = int(round(accuracy * guesses))
    lower = stats.beta.ppf(level, correct, guesses - correct + 1) if correct else 0.0
    ceiling = _logit_down(float(lower * (1 - 1e-9)))
    bound = _delta_bound(canaries, guesses, correct, delta, level, min(ceiling, 50.0))
    assert 0.0 <= bound <= min(ceiling, 50.0)
    if bound == 0.0:  # the trivial bound claims nothing
        return
    for epsilon in np.linspace(0.0, bound, 60):
        q = _q(float(epsilon))
        assert one_run_pvalue_upper(canaries, guesses, correct, delta, q, q) <= level


@pytest.mark.parametrize("seed", [0, 1])
def test_pruned_delta_search_finds_the_best_candidate(seed) -> None:
    """The pruned search (δ = 0 order, a p-value check just above the best) against every
    candidate searched: within the search's resolution and the pruning's margin."""
    rng = np.random.default_rng(seed)
    canaries = 20_000
    plus, minus = _grid_pairs(canaries)  # the δ = 0 (ratio 2) grid: pruning has most to skip
    guesses = plus + minus
    correct = np.minimum(guesses, np.round(guesses * rng.uniform(0.6, 0.99, guesses.size)))
    correct = correct.astype(np.int64)
    level = 0.05 / guesses.size
    accuracy_lower = _accuracy_lower(correct, guesses, level)
    _, found = _delta_search(canaries, guesses, correct, accuracy_lower, 1e-5, level)
    ceilings = [_logit_down(float(a)) for a in accuracy_lower]
    every = max(_delta_bound(canaries, int(g), int(c), 1e-5, level, min(t, 50.0))
                for g, c, t in zip(guesses, correct, ceilings))
    assert every > 0.0 and found >= every - IMPROVEMENT - every / 4096 - 1e-12


def test_candidates_are_one_tail_or_both_equally_fixed_by_size_and_delta() -> None:
    """(k, 0), (0, k), (k, k): k ×2 at δ = 0, ×4 at δ > 0, and (m/2, m/2); the same for every δ > 0."""
    plus, minus = _grid_pairs(1000, 1e-5)
    pairs = set(zip(plus.tolist(), minus.tolist()))
    assert len(pairs) == plus.size == 18 and (500, 500) in pairs
    assert {(1, 0), (0, 1), (1000, 0), (0, 1000), (256, 256)} <= pairs and (512, 512) not in pairs
    assert all(k == 0 or j == 0 or k == j for k, j in pairs)
    assert _grid_pairs(1000, 1e-3)[0].tolist() == plus.tolist()
    plus, minus = _grid_pairs(1000)
    assert plus.size == 32 and {(512, 0), (256, 256), (500, 500)} <= set(zip(plus.tolist(), minus.tolist()))


def test_grids_depend_on_the_size_only() -> None:
    assert guess_grid(1000).tolist() == [0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1000]
    ranks = rank_grid(1000)
    assert ranks[0] == 1 and ranks[-1] == 1000 and np.all(np.diff(ranks) > 0)


def test_order_statistic_fpr_bound_covers_with_ties() -> None:
    """Q with atoms: P[Q(Y > v_j) > CP_upper(j − 1)] ≤ α at every rank (20,000 draws, 3σ slack)."""
    rng = np.random.default_rng(0)
    support, probabilities = np.array([0.0, 1.0, 2.0, 3.0]), np.array([0.4, 0.3, 0.2, 0.1])
    survival = {v: probabilities[support > v].sum() for v in support}
    n, alpha, draws = 30, 0.1, 20_000
    samples = np.sort(rng.choice(support, size=(draws, n), p=probabilities), axis=1)[:, ::-1]
    for rank in (1, 3, 10, 25):
        bound = clopper_pearson_upper(rank - 1, n, failure_probability=alpha)
        fpr = np.vectorize(survival.get)(samples[:, rank - 1])
        rate = np.mean(fpr > bound)
        assert rate <= alpha + 3 * math.sqrt(alpha * (1 - alpha) / draws), (rank, rate)
