"""Fuzz rows for :mod:`dpverify.accountants.rdp`.

Names it shares with :mod:`dpverify.accountants` are the same objects, fuzzed by
``rows_accountants.py``; they are listed in ``NOT_FUZZED`` (by identity, so a name
that stops being the same object gets a "no fuzz row" failure).
"""

from __future__ import annotations

import dpverify.accountants as ACCOUNTANTS
import dpverify.accountants.rdp as MODULE

ROWS: dict = {}   # every callable it exports is dpverify.accountants' own
NOT_FUZZED = {
    name: f"the same object as dpverify.accountants.{name}, fuzzed there"
    for name in MODULE.__all__
    if name in ACCOUNTANTS.__all__ and getattr(ACCOUNTANTS, name) is getattr(MODULE, name)
}
