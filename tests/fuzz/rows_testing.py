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
                            kinds={"x": "anything", "x_prime": "anything", "label": "any",
                                   "events": "any", "threads": "any"},
                            ok_exceptions=(AssertionError,),  # a refuted claim is its answer
                            avoid={"samples": (10**8, 10**9)}),  # legitimate minute-long audits
    "assert_conservative": Row(MODULE.assert_conservative,
                               {"upper_bound": 1.0, "exact": 1.0, "name": "eps"},
                               kinds={"upper_bound": "array", "exact": "array",
                                      "rtol": "positive", "atol": "positive"},
                               ok_exceptions=(AssertionError,)),  # a non-conservative bound
}
NOT_FUZZED: dict[str, str] = {}
