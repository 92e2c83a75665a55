"""Canary-score audits: certified ε lower bounds from the scores of training canaries.

* :func:`~dpverify.auditing.scores.audit.audit_scores` — scores on disk or in memory,
  under a stated design (``"independent-runs"`` or ``"one-run"``);
* :func:`~dpverify.auditing.scores.training.audit_training` — dpverify draws the
  canaries' inclusion itself, calls the user's training code, and audits;
* :class:`~dpverify.auditing.scores.report.ScoreAuditReport` — the result.

Modules: ``audit`` (the entry point and the design/method rules), ``independent``
(Clopper–Pearson over thresholds, the conditional ratio test), ``band`` (every
threshold at once by an exact simultaneous band), ``one_run``
(Steinke, Nasr & Jagielski 2023, both tails), ``claims`` (any claim as a
trade-off curve), ``report``, ``training``. Proofs: ``docs/proofs/auditing.md`` §14–15.
"""

from dpverify.auditing.scores.audit import DESIGNS, SCORE_METHODS, audit_scores
from dpverify.auditing.scores.report import EstimateInterval, ScoreAuditReport
from dpverify.auditing.scores.training import audit_training

__all__ = ["audit_scores", "audit_training", "ScoreAuditReport", "EstimateInterval", "DESIGNS",
           "SCORE_METHODS"]
