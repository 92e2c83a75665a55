"""Fuzz rows for :mod:`dpverify.accountants.pld`.

Names it shares with :mod:`dpverify.accountants` are the same objects, fuzzed by
``rows_accountants.py``; they are listed in ``NOT_FUZZED`` (by identity, so a name
that stops being the same object gets a "no fuzz row" failure).
"""

from __future__ import annotations

import dpverify.accountants as ACCOUNTANTS
import dpverify.accountants.pld as MODULE

ROWS: dict = {}   # every callable it exports is dpverify.accountants' own
NOT_FUZZED = {
    name: f"the same object as dpverify.accountants.{name}, fuzzed there"
    for name in MODULE.__all__
    if name in ACCOUNTANTS.__all__ and getattr(ACCOUNTANTS, name) is getattr(MODULE, name)
}
NOT_FUZZED.update({
    "DEFAULT_TAIL_MASS_TRUNCATION": "a float constant",
    "DEFAULT_VALUE_DISCRETIZATION_INTERVAL": "a float constant",
    "POINTS_PER_EPSILON": "an int constant",
    "POINTS_PER_STANDARD_DEVIATION": "an int constant",
    "MAX_SELF_COMPOSITIONS": "an int constant",
})
