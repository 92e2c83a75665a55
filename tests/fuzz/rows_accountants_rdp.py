"""Fuzz rows for :mod:`dpverify.accountants.rdp`.

Its ``__all__`` lists names of :mod:`dpverify.accountants`: the same objects, fuzzed by
``rows_accountants.py`` (``fuzzed_in_parent`` checks the identity).
"""

from __future__ import annotations

import dpverify.accountants as ACCOUNTANTS
import dpverify.accountants.rdp as MODULE
from fuzz._registry import Row, fuzzed_in_parent

ROWS: dict = {
    # names of this family that dpverify.accountants does not export
    "bounded_range_kl": Row(MODULE.bounded_range_kl, {"epsilon": 1.0}),
    "truncated_poisson_gaussian_rdp": Row(MODULE.truncated_poisson_gaussian_rdp,
                                          {"sigma": 1.0, "sampling_probability": 0.1,
                                           "max_sample_size": 5, "population_size": 40,
                                           "orders": (2.0, 4.0)},
                                          kinds={"max_sample_size": "count",
                                                 "population_size": "count"}),
}
NOT_FUZZED = fuzzed_in_parent(MODULE, ACCOUNTANTS)
