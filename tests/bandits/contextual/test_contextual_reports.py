"""The shuffler's release (Z, U): exact-law fast path vs per-user path (same law); debiasing is unbiased."""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.bandits.contextual import reports
from dpverify.mechanisms.encoding import LocalPrivatizer

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from _stats import P_MIN, two_sample_chisquare  # noqa: E402


def _batch(users: int, d: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    x = rng.standard_normal((users, d))
    x *= rng.uniform(0, 1, (users, 1)) / np.linalg.norm(x, axis=1, keepdims=True)
    return x, rng.uniform(0, 1, users)


@pytest.mark.slow
def test_fast_path_and_per_user_path_have_the_same_law() -> None:
    """Every entry of the release, 4000 draws per path, chi-square homogeneity at P_MIN/E each.

    Bonferroni over the E = 9 entries plus two totals: false failure <= 3e-3 with a fresh
    seed (fixed here).
    """
    d, users, draws = 3, 12, 4000
    mech = LocalPrivatizer(dimension=d, bits=3, local_epsilon=4.0, context_bound=1.0)
    x, r = _batch(users, d, np.random.default_rng(0))
    rng = np.random.default_rng(1)
    # the per-user path, vectorised over draws (shuffling does not change the sums)
    slow = reports.per_user_counts(mech, np.tile(x, (draws, 1)), np.tile(r, draws),
                                   rng=rng).reshape(draws, users, -1).sum(axis=1)
    fast = np.stack([reports.shuffler_release(mech, x, r, rng=rng, per_user=False)
                     for _ in range(draws)])
    entries = reports.entry_count(d)
    assert slow.shape == fast.shape == (draws, entries)
    for entry in range(entries):
        assert two_sample_chisquare(slow[:, entry], fast[:, entry]) > P_MIN / entries, entry
    # a joint statistic too (entries are dependent only through the encoding; a sum mixes them)
    assert two_sample_chisquare(slow.sum(axis=1), fast.sum(axis=1)) > P_MIN
    # and the release function's own per-user path (with the Shuffler), on the total
    direct = np.stack([reports.shuffler_release(mech, x, r, rng=rng, per_user=True)
                       for _ in range(1500)])
    assert two_sample_chisquare(direct.sum(axis=1), fast.sum(axis=1)) > P_MIN


def test_the_test_can_fail_on_a_wrong_randomization_probability() -> None:
    d, users, draws = 2, 12, 4000
    mech = LocalPrivatizer(dimension=d, bits=2, local_epsilon=4.0, context_bound=1.0)
    x, r = np.tile([1.0, 0.0], (users, 1)), np.ones(users)  # ỹ_0 = 1: every bit encodes a one
    rng = np.random.default_rng(2)
    ones = reports.encoded_ones(mech, np.repeat(x[None], draws, 0).reshape(-1, d),
                                np.tile(r, draws), rng=rng).reshape(draws, users, -1).sum(axis=1)
    right = reports.randomize_totals(ones, users, bits=2, randomization_probability=mech.randomization_probability, rng=rng)
    wrong = reports.randomize_totals(ones, users, bits=2, randomization_probability=mech.randomization_probability * 0.8, rng=rng)
    assert two_sample_chisquare(right[:, 0], wrong[:, 0]) < P_MIN


def _exact_expected_counts(mech: LocalPrivatizer, x: np.ndarray, r: np.ndarray) -> np.ndarray:
    """E[release] = m (users p/2 + (1 − p) Σ v) per entry, with Fractions."""
    p = Fraction(mech.randomization_probability)
    values = [mech.exact_entries(xi, ri) for xi, ri in zip(x, r)]
    totals = [sum(column, Fraction(0)) for column in zip(*values)]
    users = len(x)
    return np.array([float(mech.bits * (users * p / 2 + (1 - p) * s)) for s in totals])


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 3), st.integers(1, 4), st.integers(1, 6), st.floats(0.2, 8.0),
       st.integers(0, 2**32 - 1))
def test_debiasing_is_unbiased(d, bits, users, epsilon_0, seed) -> None:
    """debias(E[counts]) = (Σ x xᵀ/(2L²), Σ r x/(2L)) exactly (debias is affine; E from exact laws)."""
    mech = LocalPrivatizer(dimension=d, bits=bits, local_epsilon=epsilon_0, context_bound=1.5)
    x, r = _batch(users, d, np.random.default_rng(seed))
    x *= 1.5
    gram, vector = reports.debias(_exact_expected_counts(mech, x, r), users, dimension=d, bits=bits,
                                  randomization_probability=mech.randomization_probability)
    np.testing.assert_allclose(gram, x.T @ x / (2 * 1.5 ** 2), atol=1e-9)
    np.testing.assert_allclose(vector, (r[:, None] * x).sum(0) / (2 * 1.5), atol=1e-9)


@pytest.mark.slow
def test_debiased_release_mean_matches_by_monte_carlo() -> None:
    """20000 fast releases: the mean of the debiased estimate is within 5 standard errors (false failure < 1e-4)."""
    d, users, draws = 2, 30, 20000
    mech = LocalPrivatizer(dimension=d, bits=2, local_epsilon=5.0, context_bound=1.0)
    x, r = _batch(users, d, np.random.default_rng(5))
    rng = np.random.default_rng(6)
    ones = reports.encoded_ones(mech, np.tile(x, (draws, 1)), np.tile(r, draws), rng=rng)
    releases = reports.randomize_totals(ones.reshape(draws, users, -1).sum(axis=1), users, bits=2,
                                        randomization_probability=mech.randomization_probability, rng=rng)
    gram, vector = reports.debias(releases, users, dimension=d, bits=2,
                                  randomization_probability=mech.randomization_probability)
    target = (r[:, None] * x).sum(0) / 2
    se = vector.std(axis=0) / np.sqrt(draws)
    assert np.all(np.abs(vector.mean(axis=0) - target) < 5 * se)
    se_gram = gram.std(axis=0) / np.sqrt(draws)
    assert np.all(np.abs(gram.mean(axis=0) - x.T @ x / 2) < 5 * se_gram + 1e-12)


def test_randomize_totals_refuses_impossible_counts() -> None:
    with pytest.raises(ValueError, match="ones"):
        reports.randomize_totals([[5]], 2, bits=2, randomization_probability=0.5, rng=np.random.default_rng(0))
