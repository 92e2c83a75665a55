"""Fuzz rows for :mod:`dpverify.accountants.shuffle`.

Names it shares with :mod:`dpverify.accountants` are the same objects, fuzzed by
``rows_accountants.py``; they are listed in ``NOT_FUZZED`` (by identity, so a name
that stops being the same object gets a "no fuzz row" failure).
"""

from __future__ import annotations

import dpverify.accountants as ACCOUNTANTS
import dpverify.accountants.shuffle as MODULE
from fuzz._harness import Row

ROWS = {
    "max_local_epsilons": Row(MODULE.max_local_epsilons,
                              {"epsilon": 0.1, "batch_sizes": [10**4, 10**5], "delta": 1e-6,
                               "bound": "fmt2021"}),
}
NOT_FUZZED = {
    name: f"the same object as dpverify.accountants.{name}, fuzzed there"
    for name in MODULE.__all__
    if name in ACCOUNTANTS.__all__ and getattr(ACCOUNTANTS, name) is getattr(MODULE, name)
}
NOT_FUZZED.update({
    "SHUFFLE_BOUNDS": "a dict constant (the registry of bounds)",
    "ShuffleBound": "the record type of a registered bound (built by register_shuffle_bound)",
    "register_shuffle_bound": "extends the process-wide registry of bounds with callables "
                              "(fuzzing it would register hostile bounds)",
})
