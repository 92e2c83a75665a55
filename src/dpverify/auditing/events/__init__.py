"""Distinguishing events, and their search on a split disjoint from the certifying one.

Every event of an audit has one shape: a 1-D *statistic* ``s`` of an output
and an interval, ``S = {y : low < s(y) <= high}``. The families differ only in
the statistic:

* **threshold** and **interval** events on scalar outputs: ``s(y) = y``,
  ``S = {y > t}``, ``{y <= t}`` or ``{a < y <= b}`` with cut points at
  quantiles of the search split (geometrically dense in both tails);
  :mod:`dpverify.auditing.events._candidates` and
  :mod:`dpverify.auditing.events._scalar_families`;
* **histogram** (and **float**) events on discrete outputs: likelihood-ratio
  top-k sets (:mod:`dpverify.auditing.events._scalar_families`);
* **classifier** events on vector outputs: thresholds on a logistic score, a
  mean-difference projection and a per-coordinate likelihood-ratio sum
  (:mod:`dpverify.auditing.events._vector_families`);
* **mixed** events on records with categorical and numeric fields: values
  within a category, top-k categories, top-k (category, bin) cells
  (:mod:`dpverify.auditing.events._vector_families`);
* **sentinel** events on vectors whose numeric columns hold recurring
  sentinel values (⊥, "aborted") beside released numbers: the same mixed
  events on the *sentinel view* ``(which sentinel per column, first
  non-sentinel values)``, fixed on the search split, and top-k sets of the
  categorical columns alone
  (:mod:`dpverify.auditing.events._sentinel_families`).
  ``events="mixed"`` runs them too.

**Sample splitting.** :func:`search_events` sees only the *search* split. For
each direction — ``(x, x')``, events likely under ``M(x)``, and ``(x', x)`` —
it scores every candidate by the ε lower bound it *would* certify on the
certification split (Wilson bounds from pessimistic plug-ins) and keeps a few
diverse ones. The certification split is drawn afterwards, independently, so
given the search split the chosen events are fixed and Clopper–Pearson bounds
on them are valid (Bichsel et al. 2021, §5). How the bounds are corrected for
multiplicity is in :func:`dpverify.auditing._pipeline.engine.certified_bounds`.
"""

from dpverify._deprecation import renamed_attributes
from dpverify.auditing.events._candidates import (
    PER_FAMILY,
    Candidate,
    OutputEvent,
    Target,
    predicted_at,
)
from dpverify.auditing.events._learned_statistics import ClassifierScore
from dpverify.auditing.events._search import (
    FAMILIES,
    MAX_PER_DIRECTION,
    PER_DIRECTION,
    search_events,
    user_events,
)
from dpverify.auditing.events._statistics import (
    HistogramRank,
    Identity,
    Indicator,
    output_kind,
)
from dpverify.auditing.events._vector_families import (
    CLASSIFIER_ROWS,
    MIXED_CATEGORIES,
    MIXED_FIELDS,
)

__all__ = [
    "FAMILIES",
    "OutputEvent",
    "Candidate",
    "Target",
    "Identity",
    "ClassifierScore",
    "HistogramRank",
    "Indicator",
    "search_events",
    "user_events",
    "output_kind",
    "predicted_at",
    "PER_FAMILY",
    "PER_DIRECTION",
    "MAX_PER_DIRECTION",
    "CLASSIFIER_ROWS",
    "MIXED_CATEGORIES",
    "MIXED_FIELDS",
]

#: ``Event`` (dpverify 0.1) is :class:`OutputEvent`, for one release.
__getattr__ = renamed_attributes(__name__, {"Event": ("OutputEvent", OutputEvent)})
