"""Each class of bug of issue 16, flagged by its mode within 10^7 samples per side, on more cases than the catalogue holds.

* a record (index, value) leaking through its numeric field: plain audits with mixed events;
* a shuffle protocol whose ε0 was calibrated for more users than the batch: sequential;
* the classical Gaussian σ outside ε < 1: model-based (tests/auditing/test_model.py varies ε, δ);
* naive float Laplace: the float-bits events (Mironov 2012).
The correct counterparts pass.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpverify.auditing import audit
from dpverify.auditing.examples import (
    CATALOGUE,
    _naive_float_laplace,
    _noisy_max_with_value,
    _noisy_max_with_value_true,
    _shuffled_rr,
)
from dpverify.auditing.model import audit_model

CONFIDENCE = 0.999


def _flag(mechanism, seed: int):
    kwargs = dict(epsilon=mechanism.epsilon, delta=mechanism.delta, confidence=CONFIDENCE,
                  seed=seed)
    if mechanism.mode == "sequential":
        return audit(mechanism.sampler, mechanism.x, mechanism.x_prime, samples="auto",
                     max_samples=10_000_000, **kwargs)
    if mechanism.mode == "model":
        return audit_model(mechanism.sampler, mechanism.x, mechanism.x_prime,
                           samples=1_000_000, **mechanism.model, **kwargs)
    events = "float" if mechanism.mode == "float" else "auto"
    return audit(mechanism.sampler, mechanism.x, mechanism.x_prime, samples=1_000_000,
                 events=events, **kwargs)


@pytest.mark.parametrize("name", [n for n, m in CATALOGUE.items() if not m.correct and
                                  m.mode != "plain"] + ["noisy_max_value_low_noise"])
@pytest.mark.slow
def test_each_new_bug_is_flagged_by_its_mode(name: str) -> None:
    mechanism = CATALOGUE[name]
    report = _flag(mechanism, seed=7)
    assert report.violation, str(report)
    assert report.epsilon_lower_bound <= mechanism.true_epsilon


@pytest.mark.parametrize("value_scale, flagged", [(0.25, True), (0.4, True), (2.0, False),
                                                  (4.0, False)])
@pytest.mark.slow
def test_records_leaking_through_their_value(value_scale: float, flagged: bool) -> None:
    truth = _noisy_max_with_value_true(value_scale)
    assert (truth > 1.0) == flagged
    report = audit(_noisy_max_with_value(value_scale), (0.0, 1.0), (1.0, 0.0), epsilon=1.0,
                   samples=1_000_000, confidence=CONFIDENCE, seed=3)
    assert report.violation == flagged and report.epsilon_lower_bound <= truth
    if flagged:
        assert report.epsilon_lower_bound > 0.8 * truth
        conditional = audit(_noisy_max_with_value(value_scale), (0.0, 1.0), (1.0, 0.0),
                            epsilon=1.0, samples=1_000_000, confidence=CONFIDENCE, seed=3,
                            events="mixed")
        assert conditional.violation and conditional.event.family == "mixed"
        assert conditional.epsilon_lower_bound <= truth


@pytest.mark.slow
def test_records_may_be_dicts_with_string_categories() -> None:
    def arms(data, size, rng):
        index = rng.random(size) < 0.5
        return {"arm": np.where(index, "left", "right"),
                "value": np.where(index, data, 0.0) + rng.laplace(0.0, 0.25, size)}

    report = audit(arms, 0.0, 1.0, epsilon=1.0, samples=300_000, seed=4)
    assert report.violation and report.event.family == "mixed"


@pytest.mark.slow
@pytest.mark.parametrize("calibrated_for", [400, 1000])
def test_miscalibrated_shuffle_batches_are_flagged_sequentially(calibrated_for: int) -> None:
    sampler, pmfs = _shuffled_rr(calibrated_for=calibrated_for)
    from dpverify.auditing.exact import exact_epsilon

    truth = exact_epsilon(*pmfs(), delta=1e-6)
    report = audit(sampler, 1, 0, epsilon=1.0, delta=1e-6, samples="auto",
                   max_samples=10_000_000, confidence=CONFIDENCE, seed=5)
    assert report.violation and report.epsilon_lower_bound <= truth


@pytest.mark.slow
def test_a_correctly_calibrated_batch_passes_sequentially() -> None:
    mechanism = CATALOGUE["shuffled_binary_rr"]
    report = audit(mechanism.sampler, mechanism.x, mechanism.x_prime, epsilon=1.0, delta=1e-6,
                   samples="auto", max_samples=2_000_000, confidence=CONFIDENCE, seed=6)
    assert not report.violation


@pytest.mark.parametrize("scale, x, x_prime", [(0.5, 0.0, 1.0), (2.0, 0.0, 1.0), (1.0, 5.0, 6.0),
                                               (10.0, 1.0, 0.0)])
@pytest.mark.slow
def test_naive_float_laplace_is_refuted_by_its_low_bits(scale, x, x_prime) -> None:
    report = audit(_naive_float_laplace(scale), x, x_prime, epsilon=1 / scale, samples=1_000_000,
                   confidence=CONFIDENCE, seed=8, events="float")
    assert report.violation and report.event.family == "float"
    plain = audit(_naive_float_laplace(scale), x, x_prime, epsilon=1 / scale, samples=1_000_000,
                  confidence=CONFIDENCE, seed=8)
    assert not plain.violation  # the real-valued law is fine: only the float bits leak


@pytest.mark.slow
def test_float_events_leave_integer_noise_alone() -> None:
    """The discrete Laplace (integers as floats) has no float artefact to find."""
    def geometric(data, size, rng):
        p = 1 - math.exp(-1.0)
        return (data + rng.geometric(p, size) - rng.geometric(p, size)).astype(np.float64)

    report = audit(geometric, 0.0, 1.0, epsilon=1.0, samples=1_000_000, confidence=CONFIDENCE,
                   seed=9, events="float")
    assert not report.violation
