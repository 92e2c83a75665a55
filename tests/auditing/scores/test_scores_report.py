"""ScoreAuditReport: estimates (cross-checked with jax_privacy's doctest values), output."""

from __future__ import annotations

import json

import numpy as np
import pytest

from dpverify.auditing import audit_scores


def _report():
    # jax_privacy's CanaryScoreAuditor doctest (google-deepmind/jax_privacy,
    # jax_privacy/auditing.py): out = arange(100), in = arange(100) + 9.5 give
    # tpr_at_given_fpr(0.01) = 0.11 and AUROC 0.595 (randomised classifiers)
    return audit_scores(np.arange(100) + 9.5, np.arange(100.0), design="independent-runs",
                        epsilon=1.0, seed=0)


def test_tpr_at_fpr_matches_jax_privacy() -> None:
    assert round(_report().tpr_at_fpr(0.01), 2) == 0.11


def test_auroc_is_mann_whitney() -> None:
    # Mann–Whitney of these scores: P[X > Y] = (100*100 - sum of 90..1 ... ) computed directly
    report = _report()
    a, b = report.in_scores, report.out_scores
    assert report.auroc == pytest.approx(np.mean(a[:, None] > b[None, :]))
    assert 0.59 < report.auroc < 0.6  # jax_privacy's hull area: 0.595


def test_max_accuracy_and_bootstrap_interval_contain_estimate() -> None:
    report = _report()
    assert 0.5 <= report.max_accuracy <= 1.0
    interval = report.bootstrap_interval("auroc", resamples=200, seed=0)
    assert interval.lower <= interval.estimate <= interval.upper


def test_summary_and_json() -> None:
    report = _report()
    assert "epsilon lower bound" in report.summary() and str(report) == report.summary()
    json.dumps(report.to_dict())


def test_tpr_at_fpr_refuses_rates_outside_unit_interval() -> None:
    with pytest.raises(ValueError, match="false_positive_rate"):
        _report().tpr_at_fpr(1.5)
