"""Neighbouring relations between datasets.

One enum, :class:`Neighbouring`, names the relation a guarantee is stated
under; :func:`are_neighbours` checks a concrete pair of datasets.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Any

import numpy as np

from dpverify._validation import value_error
from dpverify.errors import DpverifyTypeError

__all__ = ["Neighbouring", "are_neighbours"]


class Neighbouring(str, enum.Enum):
    """The neighbouring relation of a privacy guarantee.

    ``REPLACE``
        Datasets of the same size differing in one record (replace-one,
        "bounded" DP). The default throughout dpverify.
    ``ADD_REMOVE``
        One dataset is the other with one record added or removed
        ("unbounded" DP).
    """

    REPLACE = "replace"
    ADD_REMOVE = "add-remove"

    @classmethod
    def _missing_(cls, value: Any) -> "Neighbouring":
        """``Neighbouring(value)`` with an unknown value: a message naming ``value``."""
        raise value_error("value", value,
                          f"one of {', '.join(repr(m.value) for m in cls)}")

    @classmethod
    def parse(cls, value: Any, name: str = "relation") -> "Neighbouring":
        """Return the relation named by ``value`` (an enum member or its string)."""
        if isinstance(value, cls):
            return value
        if isinstance(value, str):
            for member in cls:
                if value == member.value:
                    return member
            raise value_error(name, value, f"one of {', '.join(repr(m.value) for m in cls)}")
        raise DpverifyTypeError(f"{name}={value!r} must be a Neighbouring or a string")


def _records(data: Any, name: str) -> list[Any]:
    if isinstance(data, (str, bytes)) or not isinstance(data, (Sequence, np.ndarray)):
        raise DpverifyTypeError(f"{name}={data!r} must be a sequence of records")
    return list(data)


def _equal(a: Any, b: Any) -> bool:
    return bool(np.array_equal(np.asarray(a), np.asarray(b)))


def are_neighbours(x: Any, x_prime: Any, relation: Neighbouring | str = Neighbouring.REPLACE) -> bool:
    """Return whether two datasets (sequences of records) are neighbours.

    Under ``REPLACE`` they have the same length and differ in at most one
    position; under ``ADD_REMOVE`` one is the other with exactly one record
    removed (order of the remaining records preserved).

    >>> are_neighbours([0, 1, 1], [0, 0, 1])
    True
    >>> are_neighbours([0, 1, 1], [0, 1], "add-remove")
    True
    >>> are_neighbours([0, 1, 1], [1, 0, 0])
    False
    """
    relation = Neighbouring.parse(relation)
    a, b = _records(x, "x"), _records(x_prime, "x_prime")
    if relation is Neighbouring.REPLACE:
        return len(a) == len(b) and sum(not _equal(u, v) for u, v in zip(a, b)) <= 1
    longer, shorter = (a, b) if len(a) > len(b) else (b, a)
    if len(longer) != len(shorter) + 1:
        return False
    i = 0
    while i < len(shorter) and _equal(longer[i], shorter[i]):
        i += 1
    return all(_equal(longer[j + 1], shorter[j]) for j in range(i, len(shorter)))
