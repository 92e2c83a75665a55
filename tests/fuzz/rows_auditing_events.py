"""Fuzz rows for :mod:`dpverify.auditing.events` (a package since house v3).

``FAMILIES`` and ``OutputEvent`` are the objects :mod:`dpverify.auditing` exports, fuzzed
through its rows. The other names are the event search's building blocks and constants,
which ``audit``, ``audit_search`` and ``audit_sequential`` (fuzzed in ``rows_auditing.py``)
call after validating their own arguments; they are not fuzzed on their own yet.
"""

from __future__ import annotations

import dpverify.auditing as AUDITING
import dpverify.auditing.events as MODULE
from fuzz._registry import fuzzed_in_parent

ROWS: dict = {}
NOT_FUZZED = fuzzed_in_parent(
    MODULE, AUDITING,
    "a building block or constant of the event search, reached through the fuzzed audit entry "
    "points (rows_auditing.py); not fuzzed on its own yet")
