"""Fuzz rows for :mod:`dpverify.accountants.pld`.

Its ``__all__`` lists names of :mod:`dpverify.accountants`: the same objects, fuzzed by
``rows_accountants.py`` (``fuzzed_in_parent`` checks the identity), and ``dp_sgd_interval``.
"""

from __future__ import annotations

import dpverify.accountants as ACCOUNTANTS
import dpverify.accountants.pld as MODULE
from fuzz._registry import Row, fuzzed_in_parent

ROWS: dict = {
    # the one name of this family that dpverify.accountants does not export
    "dp_sgd_interval": Row(MODULE.dp_sgd_interval, {"noise_multiplier": 1.1, "sampling_probability": 0.01}),
    "truncated_poisson_gaussian_pld": Row(MODULE.truncated_poisson_gaussian_pld,
                                          {"sigma": 1.0, "sampling_probability": 0.1,
                                           "max_sample_size": 5, "population_size": 40,
                                           "value_discretization_interval": 1e-2},
                                          kinds={"max_sample_size": "count", "population_size": "count",
                                                 "value_discretization_interval": "positive"}),
}
NOT_FUZZED = fuzzed_in_parent(MODULE, ACCOUNTANTS)
