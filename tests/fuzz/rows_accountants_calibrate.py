"""Fuzz rows for :mod:`dpverify.accountants.calibrate`.

Names it shares with :mod:`dpverify.accountants` are the same objects, fuzzed by
``rows_accountants.py``; they are listed in ``NOT_FUZZED`` (by identity, so a name
that stops being the same object gets a "no fuzz row" failure).
"""

from __future__ import annotations

import dpverify.accountants as ACCOUNTANTS
import dpverify.accountants.calibrate as MODULE
from fuzz._harness import Row

ROWS = {
    "classical_gaussian_sigma": Row(MODULE.classical_gaussian_sigma,
                                    {"epsilon": 1.0, "delta": 1e-5, "sensitivity": 1.0}),
    "min_binomial_trials": Row(MODULE.min_binomial_trials,
                               {"epsilon": 1.0, "delta": 1e-2, "sensitivity": 1}),
}
NOT_FUZZED = {
    name: f"the same object as dpverify.accountants.{name}, fuzzed there"
    for name in MODULE.__all__
    if name in ACCOUNTANTS.__all__ and getattr(ACCOUNTANTS, name) is getattr(MODULE, name)
}
NOT_FUZZED.update({
    "GAUSSIAN_METHODS": "a tuple constant",
    "LAPLACE_METHODS": "a tuple constant",
})
