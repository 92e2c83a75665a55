"""AuditReport and CurveAuditReport: frozen values, readable text, JSON-ready dicts."""

from __future__ import annotations

import dataclasses
import json

import pytest

from dpverify import ApproxDP, PureDP
from dpverify.auditing import audit, audit_curve
from dpverify.auditing.examples import example


@pytest.fixture(scope="module")
def report():
    mechanism = example("noisy_max_value")
    return audit(mechanism.sampler, mechanism.x, mechanism.x_prime, epsilon=1.0,
                 samples=20_000, seed=4)


def test_report_is_frozen_and_consistent(report) -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.violation = False
    assert report.guarantee == PureDP(1.0) and report.delta == 0.0
    assert report.violation == (report.epsilon_lower_bound > 1.0)
    assert report.p_interval.lower <= report.p_hat and report.p_prime_hat <= \
        report.p_prime_interval.upper
    assert report.search_samples + report.certify_samples == report.samples == 20_000
    assert report.seconds > 0 and report.confidence == 0.95


def test_report_text_names_everything(report) -> None:
    text = str(report)
    for fragment in ("VIOLATION", "epsilon lower bound", "event S", "P[M(x) in S]",
                     "samples per side", "Bonferroni over", "confidence 0.95"):
        assert fragment in text, fragment
    assert len(text.splitlines()) >= 8


def test_report_dict_is_json(report) -> None:
    data = json.loads(json.dumps(report.to_dict()))
    assert data["violation"] is True and data["claimed_epsilon"] == 1.0
    assert data["event"] == report.event.description


def test_approx_claim_and_no_violation_text() -> None:
    mechanism = example("gaussian")
    result = audit(mechanism.sampler, 0.0, 1.0, epsilon=1.0, delta=1e-5, samples=10_000, seed=1)
    assert result.guarantee == ApproxDP(1.0, 1e-5)
    assert "no violation found" in str(result) and "(1.0, 1e-05)-DP" in str(result)


def test_curve_report_text_and_dict() -> None:
    result = audit_curve(lambda d, n, rng: d + rng.laplace(0.0, 1.0, n), 0.0, 1.0,
                         profile=PureDP(1.0), epsilons=[0.0, 0.5, 1.0], samples=20_000, seed=2)
    text = str(result)
    assert "curve audit" in text and "(closest)" in text and len(text.splitlines()) == 7
    data = json.loads(json.dumps(result.to_dict()))
    assert [p["epsilon"] for p in data["points"]] == [0.0, 0.5, 1.0]
