"""Fuzz rows for :mod:`dpverify.testing`."""

from __future__ import annotations

import dpverify.testing as MODULE
from fuzz._harness import Row


def _coin(data, size, rng):
    return rng.random(size) < (0.75 if data else 0.25)


ROWS = {
    "assert_satisfies": Row(MODULE.assert_satisfies,
                            {"sampler": _coin, "x": 1, "x_prime": 0, "epsilon": 2.0,
                             "samples": 1000, "seed": 0},
                            kinds={"x": "any", "x_prime": "any", "label": "any", "events": "any"}),
    "assert_conservative": Row(MODULE.assert_conservative,
                               {"upper_bound": 1.0, "exact": 1.0, "name": "eps"},
                               kinds={"upper_bound": "real", "exact": "real",
                                      "rel_tol": "positive", "abs_tol": "positive"}),
}
NOT_FUZZED: dict[str, str] = {}
