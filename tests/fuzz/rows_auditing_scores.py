"""Fuzz rows for :mod:`dpverify.auditing.scores` (issue 27).

``audit_scores``, ``audit_training`` and ``ScoreAuditReport`` are the objects
:mod:`dpverify.auditing` exports, fuzzed through its rows (``rows_auditing.py``);
``EstimateInterval`` is a record the report's ``bootstrap_interval`` returns, and the
others are constants.
"""

from __future__ import annotations

import dpverify.auditing as AUDITING
import dpverify.auditing.scores as MODULE
from fuzz._registry import fuzzed_in_parent

ROWS: dict = {}
NOT_FUZZED = {
    **fuzzed_in_parent(MODULE, AUDITING, "fuzzed through dpverify.auditing (rows_auditing.py)"),
    "EstimateInterval": "a record of bootstrap estimates (not bounds) built by "
                        "ScoreAuditReport.bootstrap_interval; not fuzzed on its own yet",
    "DESIGNS": "a tuple constant",
    "SCORE_METHODS": "a tuple constant",
}
