"""Vector event families: likelihood-ratio sums, the non-sentinel features, category top-k sets."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from dpverify.auditing import audit
from dpverify.auditing.events._candidates import Plan
from dpverify.auditing.events._learned_statistics import ClassifierScore, CoordinateRatios
from dpverify.auditing.events._vector_families import mixed_family

Z = 3.0  # normal quantile used for scoring in these tests


def test_two_bin_ratios_count_the_coordinates_above_their_median() -> None:
    rng = np.random.default_rng(3)
    a = rng.laplace(0.0, 1.0, (50_000, 4))
    b = rng.laplace(0.3, 1.0, (50_000, 4))
    ratios = CoordinateRatios.fit(a, b, 2)
    assert all(len(c) == 1 for c in ratios.cuts)           # one cut: the pooled median
    assert all(abs(c[0] - 0.15) < 0.05 for c in ratios.cuts)
    assert all(t[0] > 0 > t[1] for t in ratios.tables)      # below the median favours x
    sample = np.array([[-5.0, -5.0, 5.0, 5.0], [-5.0, -5.0, -5.0, 5.0]])
    values = ratios(sample)
    # the score is a function of how many coordinates fall below their median
    assert values[1] > values[0]
    expected = sum(t[0] if v <= c[0] else t[1]
                   for v, c, t in zip(sample[1], ratios.cuts, ratios.tables))
    assert np.isclose(values[1], expected)


def test_flagged_values_get_their_own_bins() -> None:
    rng = np.random.default_rng(4)
    a = np.where(rng.random((20_000, 2)) < 0.5, -1000.0, rng.normal(0.0, 1.0, (20_000, 2)))
    b = np.where(rng.random((20_000, 2)) < 0.3, -1000.0, rng.normal(0.0, 1.0, (20_000, 2)))
    ratios = CoordinateRatios.fit(a, b, 2, flags=((0, -1000.0), (1, -1000.0)))
    sentinel = ratios(np.array([[-1000.0, -1000.0]]))[0]
    # P[-1000] is 0.5 under x and 0.3 under x': ln(5/3) per coordinate
    assert abs(sentinel - 2 * np.log(0.5 / 0.3)) < 0.1


def test_sentinel_masked_values_are_features() -> None:
    score = ClassifierScore(np.zeros(2), np.ones(2), np.zeros(0), 0.0, flags=((0, -1000.0),),
                            masked=(0,), masked_centre=np.array([1.0]),
                            masked_divisor=np.array([2.0]))
    features = score.features(np.array([[-1000.0, 0.5], [3.0, 0.5]]))
    assert features.shape == (2, score.width) == (2, 7)
    assert features[0, 4:].tolist() == [1.0, 0.0, 0.0]     # flag on, masked value and square 0
    assert features[1, 4:].tolist() == [0.0, 1.0, 1.0]     # (3 - 1)/2 = 1


def parallel_laplace(copies: int, scale: float):
    return lambda data, size, rng: data + rng.laplace(0.0, scale, (size, copies))


@pytest.mark.slow
def test_parallel_laplace_is_audited_through_the_count_above_the_median() -> None:
    """20 Laplace(20) copies of a shifted answer: true ε = 1. At this size the logistic score
    and the mean-difference projection certify 0.25-0.27 (seeds 1-3); the sign count
    0.37-0.46."""
    report = audit(parallel_laplace(20, 20.0), 0.0, 1.0, epsilon=1.0, samples=200_000, seed=2)
    assert "log-likelihood ratios" in report.event.statistic.description
    assert 0.33 < report.epsilon_lower_bound <= 1.0


def sentinel_svt(data, size, rng):
    """A category that leaks (ε = 2 on its own) beside numeric columns of pure noise with a sentinel."""
    flip = rng.random(size) < (np.e ** 2 if data else 1.0) / (1 + np.e ** 2)
    numeric = np.where(rng.random((size, 3)) < 0.4, -1000.0, rng.normal(0.0, 1.0, (size, 3)))
    return np.column_stack([numeric, flip.astype(float), rng.integers(0, 3, size)])


@pytest.mark.slow
def test_mixed_search_offers_the_categorical_part_alone() -> None:
    rng = np.random.default_rng(5)
    a, b = sentinel_svt(0.0, 60_000, rng), sentinel_svt(1.0, 60_000, rng)
    candidates = mixed_family(a, b, Plan(len(a), 100_000, (("delta", 0.0),), Z))
    assert any(c.event.description.startswith("category in") for c in candidates)
    report = audit(sentinel_svt, 0.0, 1.0, epsilon=0.2, samples=200_000, seed=1)
    assert report.violation


# --------------------------------------------------------------------------- false alarms

def tight_vector(data, size, rng):
    """(x + Lap(1), Lap(1) noise): exactly 1-DP on x ∈ {0, 1}, a vector output."""
    return np.column_stack([data + rng.laplace(0.0, 1.0, size), rng.laplace(0.0, 1.0, size)])


def tight_mixed(data, size, rng):
    """(4-ary RR at ε = 1, Gaussian noise with a sentinel): exactly 1-DP, a mixed output."""
    keep = rng.random(size) < np.e / (np.e + 3)
    other = (data + 1 + rng.integers(0, 3, size)) % 4
    value = np.where(rng.random(size) < 0.2, -1.0, rng.normal(0.0, 1.0, size))
    return np.column_stack([np.where(keep, data, other), value])


AUDITS, RATE, FAILURE = 200, 0.05, 1e-3
CRITICAL = int(stats.binom.isf(FAILURE, AUDITS, RATE)) + 1


@pytest.mark.slow
def test_vector_families_false_alarms_are_at_most_five_percent() -> None:
    """200 tight audits (claim = true ε = 1) of vector and mixed outputs at confidence 0.95.

    The classifier family (logistic, projection, likelihood-ratio sums) and the
    mixed family (values within categories, category and cell top-k sets)
    choose their events on the search split only; one-sided binomial test of
    "violation rate <= 5%" at level 1e-3.
    """
    seeds = np.random.SeedSequence(31).spawn(AUDITS)
    reports = [audit(tight_vector if i % 2 else tight_mixed, 0, 1, epsilon=1.0, samples=6_000,
                     confidence=0.95, seed=seed) for i, seed in enumerate(seeds)]
    violations = sum(r.violation for r in reports)
    assert violations < CRITICAL, f"{violations} false alarms in {AUDITS} audits"
    families = {r.event.family for r in reports}
    assert {"classifier", "mixed"} <= families
    assert np.median([r.epsilon_lower_bound for r in reports]) > 0.3  # not vacuous


def test_the_logistic_fit_budget_grows_with_the_samples() -> None:
    """Rows fitted per side: the whole search split when small, else ∝ samples (up to a cap)."""
    from dpverify.auditing.events import _vector_families as family

    rng = np.random.default_rng(9)
    a, b = rng.normal(0.0, 1.0, (120_000, 10)), rng.normal(0.1, 1.0, (120_000, 10))
    width = 2 * 10  # standardised coordinates and their squares (no flags)

    def fitted(samples: int) -> int:
        plan = Plan(len(a), samples - len(a), (("delta", 0.0),), 2.0)
        scores = [c.event.statistic for c in family.classifier_family(a, b, plan)
                  if isinstance(c.event.statistic, ClassifierScore)]
        return int(scores[0].description.split("(")[1].split(" rows")[0])

    assert fitted(150_000) == family.MIN_FIT_ROWS  # 2 x 150k / 20 = 15k: the floor
    assert fitted(1_000_000) == family.FIT_ELEMENTS_PER_SAMPLE * 1_000_000 // width  # 100k
    assert fitted(10 ** 8) == len(a)  # budget capped by CLASSIFIER_ELEMENTS, rows by the split


def test_a_classifier_score_evaluated_block_by_block_equals_its_features_times_weights() -> None:
    rng = np.random.default_rng(10)
    table = rng.normal(size=(2_000, 4))
    table[rng.random(2_000) < 0.3, 1] = -1000.0
    score = ClassifierScore(np.zeros(4), np.ones(4), np.zeros(0), 0.0, flags=((1, -1000.0),),
                            masked=(1,), masked_centre=np.zeros(1), masked_divisor=np.ones(1))
    weights = rng.normal(size=score.width)
    from dataclasses import replace

    score = replace(score, weights=weights, bias=0.3)
    np.testing.assert_allclose(score(table), score.features(table) @ weights + 0.3, rtol=1e-12,
                               atol=1e-9)
