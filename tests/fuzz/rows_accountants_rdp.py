"""Fuzz rows for :mod:`dpverify.accountants.rdp`.

Its ``__all__`` lists names of :mod:`dpverify.accountants`: the same objects, fuzzed by
``rows_accountants.py``. They are listed in ``NOT_FUZZED`` by identity, so a name that
stops being the same object (or a new name) gets a "no fuzz row" failure here.
"""

from __future__ import annotations

import dpverify.accountants as ACCOUNTANTS
import dpverify.accountants.rdp as MODULE

ROWS: dict = {}
NOT_FUZZED = {
    name: f"the same object as dpverify.accountants.{name}, fuzzed there"
    for name in MODULE.__all__
    if name in ACCOUNTANTS.__all__ and getattr(ACCOUNTANTS, name) is getattr(MODULE, name)
}
