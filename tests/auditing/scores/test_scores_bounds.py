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
    _delta_bound,
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
