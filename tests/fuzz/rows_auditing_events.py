"""Fuzz rows for :mod:`dpverify.auditing.events` (a package since house v3).

``FAMILIES`` and ``OutputEvent`` are the objects :mod:`dpverify.auditing` exports, fuzzed
through its rows. The building blocks a user can call on their own have rows here; the
constants, the type alias and the fitted statistics that only the event search builds
(from validated samples) are listed in ``NOT_FUZZED`` with the reason.
"""

from __future__ import annotations

import numpy as np

import dpverify.auditing as AUDITING
import dpverify.auditing.events as MODULE
from fuzz._harness import Row
from fuzz._registry import fuzzed_in_parent

_EVENT = MODULE.OutputEvent(MODULE.Identity(), 0.5, np.inf, "y > 0.5")

ROWS: dict = {
    "Identity": Row(MODULE.Identity, {"description": "y"}),
    "Indicator": Row(MODULE.Indicator, {"function": np.isfinite, "description": "finite"},
                     kinds={"function": "object"}),
    "Candidate": Row(MODULE.Candidate, {"event": _EVENT, "first": 0},
                     kinds={"event": "object", "first": "count", "score": "any",
                            "point": "count", "search_counts": "sequence"}),
    "output_kind": Row(MODULE.output_kind, {"samples": np.arange(10.0)},
                       kinds={"samples": "any"}),  # NaN outputs are data (sentinels)
    "user_events": Row(MODULE.user_events, {"events": [lambda y: y > 0.5]}),
    "predicted_at": Row(MODULE.predicted_at,
                        {"p_hat": 0.5, "p_prime_hat": 0.25, "search_samples": 1000,
                         "certify_samples": 1000, "normal_quantile": 2.0},
                        kinds={"p_hat": "probability", "p_prime_hat": "probability",
                               "search_samples": "count", "normal_quantile": "positive"},
                        allow_infinite=True),  # ±inf: no event / a certain one (a ranking score)
}
_CONSTANT = "a constant of the event search"
NOT_FUZZED = {
    **fuzzed_in_parent(MODULE, AUDITING),
    "Target": "a type alias (tuple[str, float])",
    "PER_FAMILY": _CONSTANT,
    "PER_DIRECTION": _CONSTANT,
    "MAX_PER_DIRECTION": _CONSTANT,
    "CLASSIFIER_ROWS": _CONSTANT,
    "MIXED_CATEGORIES": _CONSTANT,
    "MIXED_FIELDS": _CONSTANT,
    "ClassifierScore": "a statistic fitted by the event search from validated samples (its arrays "
                       "are the search's own); not hardened for hand-made fields yet",
    "HistogramRank": "a statistic fitted by the event search from validated samples (its coder "
                     "and tables are the search's own); not hardened for hand-made fields yet",
    "search_events": "the event search on an audit's search split, reached through the fuzzed "
                     "audit entry points (rows_auditing.py); not fuzzed on its own yet",
}
