"""The simultaneous band of ``thresholds="band"``: its crossing probability against Monte Carlo
and the union bound, its level, and its coverage at every threshold (ties included)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from dpverify.auditing.scores._band import (
    LADDER_STEPS,
    TAIL_EXPONENT,
    band_bounds,
    band_level,
    band_upper,
    crossing_probability_upper,
)


@pytest.mark.parametrize(("size", "count_level"), [(30, 0.01), (200, 0.002)])
def test_crossing_probability_matches_monte_carlo(size, count_level) -> None:
    """200,000 samples of ``size`` sorted uniforms: the computed probability is within 5 standard
    errors of the observed frequency (false failure < 1e-6) and not below it by more."""
    upper = band_upper(size, count_level)
    rng = np.random.default_rng(0)
    crossed = 0
    for _ in range(4):
        sample = np.sort(rng.random((50_000, size)), axis=1)
        crossed += int((sample > upper[None, :size]).any(axis=1).sum())
    frequency = crossed / 200_000
    error = math.sqrt(frequency * (1 - frequency) / 200_000)
    computed = crossing_probability_upper(upper)
    assert abs(computed - frequency) < 5 * error, (computed, frequency)


def test_crossing_probability_of_one_point_and_the_union_bound() -> None:
    """n = 1: the band fails exactly when W > h_0 = 1 − a, probability a. Larger n: between the
    first count's own probability a and the union bound n a."""
    assert crossing_probability_upper(band_upper(1, 0.03)) == pytest.approx(0.03, rel=1e-6)
    for size in (10, 100, 1000):
        value = crossing_probability_upper(band_upper(size, 1e-4))
        assert 1e-4 <= value <= size * 1e-4


@pytest.mark.parametrize("tail_exponent", [0.0, TAIL_EXPONENT])
def test_band_level_is_the_largest_passing_step_of_the_ladder(tail_exponent) -> None:
    for size in (5, 100, 1000):
        level = band_level(size, 0.025, tail_exponent)
        assert crossing_probability_upper(band_upper(size, level, tail_exponent)) <= 0.025
        weights = np.minimum(np.arange(size) + 1, size - np.arange(size)) ** -tail_exponent
        bottom = 0.025 / weights.sum()
        assert bottom <= level < 0.025
        step = round(math.log(level / 0.025) / math.log(bottom / 0.025) * LADDER_STEPS)
        larger = 0.025 * (bottom / 0.025) ** ((step - 1) / LADDER_STEPS)
        assert crossing_probability_upper(band_upper(size, larger, tail_exponent)) > 0.025


def test_the_tail_weighted_band_gives_the_extreme_counts_more() -> None:
    """At δ > 0 the extreme counts get ~4.7x the flat band's level at n = 1000 (the middle less)."""
    flat, tail = band_level(1000, 0.025), band_level(1000, 0.025, TAIL_EXPONENT)
    assert tail > 4 * flat and tail * 500**-TAIL_EXPONENT < flat


def test_band_level_at_1000_beats_the_rank_grid() -> None:
    """At n = 1000 the band's per-count level is ~1.5x the rank grid's α/(2·74) (and covers
    every count, not 74)."""
    assert band_level(1000, 0.025) > 1.4 * 0.05 / (2 * 74)


def _atom_survival(weights: np.ndarray):
    """``t ↦ P[score ≥ t]`` for a law on 0, 1, 2 with these weights."""
    return lambda t: np.array([weights[np.arange(weights.size) >= x].sum() for x in t])


@pytest.mark.parametrize(("law", "delta"), [("normal", 0.0), ("atoms", 0.0), ("normal", 1e-5)])
def test_every_threshold_is_covered_with_probability_at_least_confidence(law, delta) -> None:
    """1,000 audits' bands (40 and 60 scores a side; a continuous law, and a law on 3 atoms;
    the flat band, and at δ > 0 the tail-weighted one): the fraction in which some threshold
    has TPR_low > TPR or FPR_high < FPR is not significantly above 5 % (one-sided binomial
    test at 1e-3). The true rates come from the laws."""
    rng = np.random.default_rng(1)
    in_weights, out_weights = np.array([0.2, 0.3, 0.5]), np.array([0.5, 0.3, 0.2])
    if law == "normal":
        tpr, fpr = (lambda t: stats.norm.sf(t, loc=1.0)), stats.norm.sf
    else:
        tpr, fpr = _atom_survival(in_weights), _atom_survival(out_weights)
    failures = 0
    for _ in range(1000):
        if law == "normal":
            a, b = rng.normal(1.0, 1.0, 40), rng.normal(0.0, 1.0, 60)
        else:
            a = rng.choice(3, size=40, p=in_weights).astype(float)
            b = rng.choice(3, size=60, p=out_weights).astype(float)
        bounds = band_bounds(a, b, failure_probability=0.05, delta=delta)
        failures += bool(
            np.any(bounds.tpr_lower > tpr(bounds.thresholds)) or np.any(bounds.fpr_upper < fpr(bounds.thresholds))
        )
    assert stats.binom.sf(failures - 1, 1000, 0.05) >= 1e-3, failures


def test_the_coverage_test_can_fail() -> None:
    """The same check rejects a band at 20 times its level (a Bonferroni-free 'band')."""
    rng = np.random.default_rng(2)
    failures = 0
    for _ in range(1000):
        a, b = rng.normal(1.0, 1.0, 40), rng.normal(0.0, 1.0, 60)
        bounds = band_bounds(a, b, failure_probability=0.05 * 20)
        failures += bool(
            np.any(bounds.tpr_lower > stats.norm.sf(bounds.thresholds, loc=1.0))
            or np.any(bounds.fpr_upper < stats.norm.sf(bounds.thresholds))
        )
    assert stats.binom.sf(failures - 1, 1000, 0.05) < 1e-3, failures
