"""The report's next step: counting's blind spot for Gaussians, and the audits that can refute."""

from __future__ import annotations

import ast
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from dpverify.accountants.calibrate import analytic_gaussian_sigma, classical_gaussian_sigma
from dpverify.auditing import audit, audit_model
from dpverify.auditing.next_steps import HINT_MARGIN, CountingHint, counting_hint
from dpverify.mechanisms.continuous import gaussian_privacy_profile


def gaussian(sigma: float):
    return lambda data, size, rng: data + rng.normal(0.0, sigma, size)


def test_the_classical_gaussian_at_epsilon_10_gets_the_hint_in_report_and_json() -> None:
    sigma = classical_gaussian_sigma(10.0, 1e-5)  # calibrated for epsilon < 1; true 10.39
    report = audit(gaussian(sigma), 0.0, 1.0, epsilon=10.0, delta=1e-5, samples=1_000_000,
                   seed=1)
    assert not report.violation
    hint = report.next_step
    assert isinstance(hint, CountingHint)
    truth = gaussian_privacy_profile(sigma).epsilon_for_delta(1e-5)
    assert hint.blind_epsilon > truth > 10.0  # counting could not have refuted it
    assert hint.ceiling > 10.0  # although disjoint outputs could be refuted at this size
    text = str(report)
    for words in ("audit_model(", "family='gaussian'", "audit_curve(", "weakest_profile(",
                  f"samples={hint.model_samples:,}", "cannot refute a Gaussian"):
        assert words in text
    assert report.to_dict()["next_step"]["model_samples"] == hint.model_samples


def test_prose_wraps_at_100_columns_and_each_suggested_call_is_python_on_its_own_line() -> None:
    hint = counting_hint(epsilon=10.0, delta=1e-5, certify_samples=200_000, confidence=0.95,
                         bounds=12)
    lines = hint.lines()
    calls = [line.strip() for line in lines if line.strip().startswith(("audit_model(",
                                                                         "audit_curve("))]
    assert len(calls) == 2
    assert all(len(line) <= 100 for line in lines if line.strip() not in calls)
    for call in calls:  # the placeholders a user fills in, then it parses as a call
        code = call.replace("<|f(x) - f(x')|_2>", "1.0").replace("sensitivity=...", "sensitivity=1")
        tree = ast.parse(code, mode="eval")
        samples = {k.arg: k.value for k in tree.body.keywords}["samples"]
        assert isinstance(samples, ast.Constant) and isinstance(samples.value, int)
    assert f"samples={hint.curve_samples:_}" in calls[1]  # 22_978: a literal, not "22,978"


def test_no_hint_where_counting_sees_gaussian_violations() -> None:
    report = audit(gaussian(analytic_gaussian_sigma(1.0, 1e-5)), 0.0, 1.0, epsilon=1.0,
                   delta=1e-5, samples=200_000, seed=2)
    assert report.next_step is None and report.to_dict()["next_step"] is None
    assert counting_hint(epsilon=1.0, delta=0.0, certify_samples=10, confidence=0.95,
                         bounds=2) is None  # pure claims: no Gaussian reference


def test_the_model_audit_it_names_refutes_the_classical_gaussian_at_a_few_times_the_count():
    """The count is for a reference 5 % above the claim (the mechanism is 3.9 % above)."""
    hint = counting_hint(epsilon=10.0, delta=1e-5, certify_samples=666_667, confidence=0.95,
                         bounds=12)
    assert hint.reference_epsilon == pytest.approx(10.0 * (1 + HINT_MARGIN))
    sigma = classical_gaussian_sigma(10.0, 1e-5)
    report = audit_model(gaussian(sigma), 0.0, 1.0, family="gaussian", sensitivity=1.0,
                         epsilon=10.0, delta=1e-5, samples=4 * hint.model_samples, seed=3)
    assert report.violation


@settings(max_examples=25, deadline=None)
@given(epsilon=st.floats(2.0, 20.0), exponent=st.integers(-9, -3),
       samples=st.integers(10 ** 3, 10 ** 9))
def test_blindness_is_checked_by_brute_force_over_threshold_events(epsilon, exponent, samples):
    """Just inside the blind spot no threshold event (Neyman–Pearson: the best) can certify.

    Certifying needs ``P > δ + e^ε (1 − α^{1/n})`` and ``P − e^ε P' > δ``
    (``next_steps`` module docstring); checked on a fine grid of thresholds,
    independently of the closed form the module uses.
    """
    delta = 10.0 ** exponent
    hint = counting_hint(epsilon=epsilon, delta=delta, certify_samples=samples,
                         confidence=0.95, bounds=12)
    if hint is None:
        return
    # the Gaussian whose epsilon at delta is just below blind_epsilon
    mu = 1 / analytic_gaussian_sigma(hint.blind_epsilon * (1 - 1e-6), delta)
    reach = -math.expm1(math.log(0.05 / 12) / samples)
    smallest = delta + math.exp(epsilon) * reach
    thresholds = np.linspace(-10, mu + 40, 200_001)
    p = stats.norm.sf(thresholds - mu)
    gap = p - np.exp(epsilon + stats.norm.logsf(thresholds))
    assert not np.any((p > smallest * (1 + 1e-9)) & (gap > delta * (1 + 1e-6)))
    assert hint.blind_epsilon >= hint.reference_epsilon


@pytest.mark.parametrize("kwargs, name", [
    ({"epsilon": -1.0}, "epsilon"), ({"delta": 1.0}, "delta"), ({"certify_samples": 0},
                                                                  "certify_samples"),
    ({"confidence": 1.5}, "confidence"), ({"bounds": 0}, "bounds")])
def test_bad_arguments_name_the_parameter(kwargs, name) -> None:
    arguments = {"epsilon": 10.0, "delta": 1e-5, "certify_samples": 1000, "confidence": 0.95,
                 "bounds": 12, **kwargs}
    with pytest.raises(ValueError, match=name):
        counting_hint(**arguments)
