"""Event families: statistics, likelihood-ratio orderings, the classifier, the search."""

from __future__ import annotations

import numpy as np
import pytest

from dpverify.auditing.events import (
    Candidate,
    HistogramRank,
    Identity,
    OutputEvent,
    output_kind,
    search_events,
    user_events,
)
from dpverify.auditing.events._search import _prune
from dpverify.auditing.events._statistics import KeyCoder

Z = 3.0  # normal quantile used for scoring in these tests


def test_event_is_an_interval_of_its_statistic() -> None:
    event = OutputEvent(Identity(), -1.0, 2.0, "-1 < y <= 2")
    assert event(np.array([-1.0, -0.5, 2.0, 2.5])).tolist() == [False, True, True, False]
    assert str(event) == "-1 < y <= 2"


@pytest.mark.parametrize("values, kind", [
    (np.array([0.5, 1.5]), "continuous scalar"),
    (np.array([1.0, 2.0]), "discrete scalar"),
    (np.array([[1, 0], [0, 1]]), "discrete vector"),
    (np.array([[0.5], [1.0]]), "continuous scalar"),
    (np.array([True, False]), "discrete scalar"),
])
def test_output_kind(values: np.ndarray, kind: str) -> None:
    assert output_kind(values) == kind


def test_key_coder_is_injective_and_marks_unseen_rows() -> None:
    rows = np.array([[0, 5], [1, 5], [0, 6], [1, 6]])
    coder = KeyCoder.fit(rows)
    assert sorted(coder(rows).tolist()) == [0, 1, 2, 3]
    assert coder(np.array([[2, 5], [0, 4], [0.5, 5]])).tolist() == [-1, -1, -1]


def test_histogram_orders_values_by_likelihood_ratio() -> None:
    """Three values with ratios 4, 1, 1/4: top-1 is {0} for (x, x'), {2} for (x', x)."""
    a = np.repeat([0, 1, 2], [400, 200, 100])
    b = np.repeat([0, 1, 2], [100, 200, 400])
    candidates = search_events(a, b, families="histogram", certify_samples=10_000,
                               targets=[("delta", 0.0)], normal_quantile=Z)
    assert {c.first for c in candidates} == {0, 1}
    for candidate in candidates:
        statistic = candidate.event.statistic
        assert isinstance(statistic, HistogramRank)
        favourite = 0 if candidate.first == 0 else 2
        assert statistic(np.array([favourite]))[0] == 0.0
        assert np.isinf(statistic(np.array([7]))[0])  # unseen: never in a top-k set
    best = max(candidates, key=lambda c: c.score)
    assert best.event(np.array([0, 1, 2])).sum() == 1


def test_thresholds_find_the_shifted_tail() -> None:
    rng = np.random.default_rng(0)
    a, b = rng.laplace(0.0, 1.0, 30_000), rng.laplace(1.0, 1.0, 30_000)
    candidates = search_events(a, b, families="threshold", certify_samples=60_000,
                               targets=[("delta", 0.0)], normal_quantile=Z)
    forward = [c for c in candidates if c.first == 0]
    backward = [c for c in candidates if c.first == 1]
    assert forward and backward and len(candidates) <= 6
    # x = 0 favours low outputs; x' = 1 high ones
    assert all(c.event.high < np.inf for c in forward)
    assert all(c.event.low > -np.inf for c in backward)


def test_classifier_separates_vectors() -> None:
    rng = np.random.default_rng(1)
    a = rng.normal(0.0, 1.0, (20_000, 3))
    b = rng.normal(0.0, 1.0, (20_000, 3)) + np.array([0.0, 1.0, 0.0])
    candidates = search_events(a, b, families="classifier", certify_samples=40_000,
                               targets=[("delta", 0.0)], normal_quantile=Z)
    score = candidates[0].event.statistic
    assert score(b).mean() < score(a).mean()  # label 1 is x: higher scores for x's outputs
    weights = score.weights[:3]
    assert abs(weights[1]) > 5 * max(abs(weights[0]), abs(weights[2]))


def test_epsilon_targets_prefer_mass_over_ratio() -> None:
    """For δ(ε) at large ε the best event is the rare tail; at ε = 0 a broad one."""
    rng = np.random.default_rng(2)
    a, b = rng.laplace(0.0, 1.0, 50_000), rng.laplace(1.0, 1.0, 50_000)
    broad = search_events(a, b, families="threshold", certify_samples=100_000,
                          targets=[("epsilon", 0.0)], normal_quantile=Z)
    best = max(broad, key=lambda c: c.score)
    assert 0.2 < best.event(a).mean() < 0.8


def test_user_events_come_in_both_directions() -> None:
    def positive(samples):
        return samples > 0

    candidates = user_events([positive])
    assert [c.first for c in candidates] == [0, 1]
    assert candidates[0].event(np.array([-1.0, 1.0])).tolist() == [False, True]


def _candidate(low: float, high: float, first: int, score: float, counts: tuple[float, float]):
    return Candidate(OutputEvent(Identity(), low, high, f"{low} < y <= {high}"), first, score,
                     0, counts)


def test_prune_keeps_the_best_and_only_real_hedges() -> None:
    rng = np.random.default_rng(0)
    a, b = rng.laplace(0.0, 1.0, 100_000), rng.laplace(1.0, 1.0, 100_000)
    best = _candidate(-np.inf, -1.0, 0, 0.90, (18_000.0, 6_700.0))
    near_copy = _candidate(-np.inf, -1.1, 0, 0.89, (16_600.0, 6_100.0))   # Jaccard ~0.92
    other_event = _candidate(-np.inf, -3.0, 0, 0.895, (2_500.0, 900.0))   # overlap 0.14
    far_below = _candidate(2.0, np.inf, 1, 0.40, (6_700.0, 18_000.0))     # 0.5 below: > 1 s.e.
    kept = _prune([near_copy, far_below, best, other_event], a, b)
    assert kept == [best, other_event]
    # the other direction at the same predicted level is a hedge, whatever its overlap
    mirror = _candidate(-np.inf, -1.0, 1, 0.90, (6_700.0, 18_000.0))
    assert _prune([best, mirror], a, b) == [best, mirror]
    assert _prune([best], a, b) == [best]


def test_one_point_search_certifies_fewer_candidates() -> None:
    """A clear winner in one direction: the near copies and the other direction are dropped."""
    rng = np.random.default_rng(1)
    a, b = rng.laplace(0.0, 1.0, 300_000), rng.laplace(1.0, 1.0, 300_000)
    one = search_events(a, b, families="threshold", certify_samples=10**6, targets=[("delta", 0.0)],
                        normal_quantile=Z)
    curve = search_events(a, b, families="threshold", certify_samples=10**6,
                          targets=[("delta", 0.0), ("delta", 0.1)], normal_quantile=Z)
    assert 1 <= len(one) < len(curve)


@pytest.mark.parametrize("first", ["int", "integral float", "float", "bool"])
@pytest.mark.parametrize("second", ["int", "integral float", "float", "bool"])
@pytest.mark.parametrize("shape", [(), (1,), (3,)])
def test_pooled_kind_is_the_kind_of_the_concatenated_outputs(first, second, shape) -> None:
    """Both sides' kind without concatenating them equals ``output_kind`` of the pooled array;
    outputs that do not stack still get the pooled check's error."""
    from dpverify.auditing.events._search import _pooled_kind

    rng = np.random.default_rng(len(first) + 7 * len(second) + len(shape))

    def side(kind: str, size: int) -> np.ndarray:
        values = rng.integers(-5, 5, (size, *shape))
        if kind == "bool":
            return values > 0
        if kind == "int":
            return values
        return values + (0.0 if kind == "integral float" else rng.random(values.shape) * 0.5 + 0.25)

    a, b = side(first, 5000), side(second, 300)
    assert _pooled_kind(a, b) == output_kind(np.concatenate([a, b]))
    with pytest.raises(ValueError):
        _pooled_kind(a, np.zeros((10, 7, 2)))
