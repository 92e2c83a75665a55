"""Sequential audits (samples="auto") and sample planning."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from dpverify.auditing import audit
from dpverify.auditing.planning import (
    check_samples_can_certify,
    largest_certifiable_epsilon,
    samples_to_certify,
)
from dpverify.auditing.sequential import audit_sequential, planned_stages, stage_sizes
from dpverify.errors import AuditWarning


def laplace(scale: float):
    return lambda data, size, rng: data + rng.laplace(0.0, scale, size)


def test_a_clear_violation_stops_at_the_first_stage() -> None:
    report = audit(laplace(0.5), 0.0, 1.0, epsilon=1.0, samples="auto", seed=1)
    assert report.violation and report.mode == "sequential"
    assert len(report.stages) == 1 and report.samples == report.stages[0][0]
    assert report.to_dict()["stages"] == [list(report.stages[0])]
    assert "sequential stages" in str(report)


@pytest.mark.slow
def test_a_small_violation_needs_more_stages_and_gets_there() -> None:
    report = audit(laplace(1 / 1.02), 0.0, 1.0, epsilon=1.0, samples="auto", max_samples=2_000_000,
                   seed=2)
    assert report.violation and len(report.stages) >= 2
    assert report.samples == sum(n for n, _ in report.stages) <= 2_000_000


def test_a_correct_mechanism_spends_the_budget_and_passes() -> None:
    report = audit_sequential(laplace(1.0), 0.0, 1.0, epsilon=1.0, max_samples=200_000, seed=3)
    assert not report.violation
    assert [n for n, _ in report.stages] == stage_sizes(10_000, 200_000)
    assert report.samples <= 200_000 and report.confidence == 0.95


def test_stage_sizes_double_and_respect_the_budget() -> None:
    for budget in (10_000, 55_555, 10 ** 6, 10 ** 7 + 1):
        sizes = stage_sizes(10_000, budget)
        assert sum(sizes) <= budget
        assert all(b == 2 * a for a, b in zip(sizes[:-2], sizes[1:-1]))
    assert planned_stages(1.0)[0] == 10_000


@pytest.mark.parametrize("kwargs, name", [({"max_samples": 5}, "max_samples"),
                                          ({"max_samples": 1000}, "max_samples"),
                                          ({"samples": "auto", "max_samples": 1.5}, "max_samples")])
def test_bad_budgets(kwargs, name) -> None:
    kwargs.setdefault("samples", "auto")
    with pytest.raises(ValueError, match=name):
        audit(laplace(1.0), 0.0, 1.0, epsilon=1.0, seed=1, **kwargs)


def test_max_samples_needs_auto() -> None:
    with pytest.raises(ValueError, match="max_samples"):
        audit(laplace(1.0), 0.0, 1.0, epsilon=1.0, samples=10_000, max_samples=10 ** 6)


AUDITS, RATE, FAILURE = 200, 0.05, 1e-3
CRITICAL = int(stats.binom.isf(FAILURE, AUDITS, RATE)) + 1


@pytest.mark.slow
def test_sequential_false_alarms_are_at_most_five_percent() -> None:
    """200 sequential audits of tight claims (Laplace(1) on (0, 1) is exactly 1-DP).

    Each looks at up to three stages and stops at the first 'violation': the
    per-stage levels must absorb the optional stopping. Binomial test at 1e-3.
    """
    seeds = np.random.SeedSequence(5).spawn(AUDITS)
    reports = [audit_sequential(laplace(1.0), 0.0, 1.0, epsilon=1.0, max_samples=40_000,
                                first_samples=10_000, seed=seed) for seed in seeds]
    assert all(len(r.stages) <= 3 for r in reports)
    violations = sum(r.violation for r in reports)
    assert violations < CRITICAL, f"{violations} false alarms in {AUDITS} sequential audits"


def test_samples_that_cannot_certify_anything_get_a_hint() -> None:
    """The library warns (the audit cannot fail); check_samples_can_certify (the CLI) refuses."""
    hint = r"samples=10 must be.*samples=\d+ or more.*samples='auto'"
    with pytest.warns(AuditWarning, match="this audit cannot fail: " + hint):
        report = audit(laplace(0.1), 0.0, 1.0, epsilon=1.0, samples=10)
    assert not report.violation  # Laplace(0.1) is 10-DP, yet 10 samples cannot show it
    with pytest.raises(ValueError, match=hint):
        check_samples_can_certify(10, epsilon=1.0, delta=0.0, confidence=0.95, events="auto")
    assert largest_certifiable_epsilon(7, confidence=0.95) < 1.0


def test_largest_certifiable_epsilon_is_the_all_or_nothing_event() -> None:
    alpha = 0.05 / 2
    n = 100
    low = alpha ** (1 / n)
    assert largest_certifiable_epsilon(n) == pytest.approx(math.log(low / (1 - low)), rel=1e-6)


@pytest.mark.slow
def test_planned_samples_certify_about_half_the_time() -> None:
    """At the planned n (power 1/2) the audit with user events certifies in roughly half the runs."""
    true_epsilon = 1.3
    scale = 1 / true_epsilon
    p = 0.5  # the event {y > 1}: probability 1/2 on x = 1, e^{-1.3}/2 on x' = 0
    n = samples_to_certify(p, true_epsilon, epsilon=1.0, bounds=4, search_fraction=0.0)
    hits = 0
    seeds = np.random.SeedSequence(8).spawn(40)
    for seed in seeds:
        report = audit(laplace(scale), 1.0, 0.0, epsilon=1.0, samples=int(n), seed=seed,
                       events=[lambda y: y > 1.0])
        hits += report.violation
    assert 8 <= hits <= 32
    assert samples_to_certify(p, true_epsilon, epsilon=1.0, power=0.9, bounds=4,
                              search_fraction=0.0) > n


def test_samples_to_certify_rejects_a_non_violation() -> None:
    with pytest.raises(ValueError, match="true_epsilon"):
        samples_to_certify(0.5, 1.0, epsilon=1.0)
    assert samples_to_certify(0.5, math.inf, epsilon=1.0) < 100


def test_max_samples_beyond_the_audit_limit_is_refused_by_its_own_name() -> None:
    """Issue 28: the refusal named ``samples``, a parameter the caller never passed."""
    def coin(data, size, rng):
        return rng.random(size) < (0.6 if data else 0.4)

    for call in (lambda: audit_sequential(coin, 1, 0, epsilon=1.0, max_samples=2**62, seed=0),
                 lambda: planned_stages(1.0, max_samples=2**62)):
        with pytest.raises(ValueError, match=r"^max_samples=4611686018427387904 exceeds the "
                                             r"limit 1000000000"):
            call()


@settings(max_examples=200, deadline=None)
@given(samples=st.integers(10, 10**9), epsilon=st.floats(0, 30),
       delta=st.sampled_from([0.0, 1e-9, 1e-5, 0.01, 0.3]),
       confidence=st.sampled_from([0.5, 0.9, 0.95, 0.999999]))
def test_the_closed_form_shortcut_passes_only_audits_the_exact_bound_passes(
        samples: int, epsilon: float, delta: float, confidence: float) -> None:
    """``check_samples_can_certify`` skips the exact quantiles only when the closed-form
    separate bound at the extreme counts is above the claim; the exact largest certifiable
    ε is then above it too."""
    from dpverify.auditing.planning import _clearly_certifiable, certify_split_size

    n_certify = certify_split_size(samples, "auto")
    if _clearly_certifiable(n_certify, epsilon, delta, confidence):
        assert largest_certifiable_epsilon(n_certify, confidence=confidence, delta=delta) > epsilon
