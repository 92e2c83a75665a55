"""Fuzz rows for :mod:`dpverify.auditing.recipes` (issue 26)."""

from __future__ import annotations

import dpverify.auditing.recipes as MODULE
from dpverify import PureDP
from dpverify.auditing.adapters import sampler_from_calls
from fuzz._harness import Row


def _release(data, rng):
    return data + rng.random()


ROWS = {
    # x and x' are the user's data, handed to the sampler as they are
    "Recipe": Row(MODULE.Recipe, {"name": "a release", "sampler": sampler_from_calls(_release),
                                  "x": 0.0, "x_prime": 1.0, "guarantee": PureDP(1.0)},
                  kinds={"x": "anything", "x_prime": "anything", "name": "text"}),
}
NOT_FUZZED: dict[str, str] = {}
