"""audit_training: dpverify draws the inclusion, calls train, audits; replayable by seed."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from dpverify.auditing import audit_training
from dpverify.auditing.scores.training import draw_inclusion


def _leaky(included, rng):
    return rng.normal(0.0, 1.0, included.size) + 3.0 * included


def _private(included, rng):
    return rng.normal(0.0, 1.0, included.size)


def test_one_run_flags_a_leak_and_replays_by_seed() -> None:
    first = audit_training(_leaky, canaries=1000, epsilon=1.0, delta=0.0, seed=3)
    again = audit_training(_leaky, canaries=1000, epsilon=1.0, delta=0.0, seed=3)
    assert first.violation and first.seed == 3
    assert first.epsilon_lower_bound == again.epsilon_lower_bound
    assert first.in_canaries + first.out_canaries == 1000


def test_seed_none_records_the_entropy() -> None:
    report = audit_training(_private, canaries=50, epsilon=1.0, delta=0.0)
    assert isinstance(report.seed, int) and not report.violation


def test_independent_runs_on_an_executor_match_inline() -> None:
    inline = audit_training(_leaky, canaries=1, design="independent-runs", runs=400,
                            epsilon=1.0, delta=1e-5, seed=4)
    with ThreadPoolExecutor(2) as pool:
        pooled = audit_training(_leaky, canaries=1, design="independent-runs", runs=400,
                                epsilon=1.0, delta=1e-5, seed=4, executor=pool)
    assert inline.epsilon_lower_bound == pooled.epsilon_lower_bound and inline.violation


def test_the_mask_is_a_fair_coin_per_canary() -> None:
    mask = draw_inclusion(100_000, np.random.default_rng(0))
    assert abs(mask.mean() - 0.5) < 0.01


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"canaries": 2, "design": "independent-runs", "runs": 10}, "canaries"),
    ({"canaries": 10, "runs": 3}, "runs"),
    ({"canaries": 0}, "canaries"),
    ({"canaries": 10, "design": "many-runs"}, "design"),
])
def test_bad_arguments(kwargs, match) -> None:
    with pytest.raises((ValueError, TypeError), match=match):
        audit_training(_private, epsilon=1.0, delta=0.0, **kwargs)


def test_wrong_number_of_scores_is_refused() -> None:
    with pytest.raises(ValueError, match="one score per canary"):
        audit_training(lambda included, rng: np.zeros(3), canaries=10, epsilon=1.0, delta=0.0)
