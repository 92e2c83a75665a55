"""Fuzz rows for :mod:`dpverify.accountants.rdp`.

Its ``__all__`` lists names of :mod:`dpverify.accountants`: the same objects, fuzzed by
``rows_accountants.py`` (``fuzzed_in_parent`` checks the identity).
"""

from __future__ import annotations

import dpverify.accountants as ACCOUNTANTS
import dpverify.accountants.rdp as MODULE
from fuzz._registry import fuzzed_in_parent

ROWS: dict = {}
NOT_FUZZED = fuzzed_in_parent(MODULE, ACCOUNTANTS)
