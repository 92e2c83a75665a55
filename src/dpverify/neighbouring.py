"""Neighbouring relations between datasets.

One enum, :class:`Neighbouring`, names the relation a guarantee is stated
under; :func:`are_neighbours` checks a concrete pair of datasets;
:func:`query_vector_patterns` lists StatDP's neighbouring pairs of query-answer
vectors (the candidates of a worst-pair search, :mod:`dpverify.auditing.search`).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from dpverify._validation import check_int_at_least, check_positive, check_text, value_error
from dpverify.errors import DpverifyTypeError

__all__ = ["Neighbouring", "are_neighbours", "InputPair", "query_vector_patterns"]


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


@dataclass(frozen=True, eq=False)
class InputPair:
    """A neighbouring pair with a name (``"one above"``, ``"half half"``, ...).

    Compared by identity (the inputs may be arrays). ``x`` and ``x_prime`` are
    the user's inputs to the mechanism under audit, held as given and never
    validated or converted: any value the mechanism accepts is a legitimate
    audit input, NaN and infinities included (how a mechanism treats a NaN
    record is exactly what an audit may need to probe). Only ``name`` is checked.
    """

    x: Any
    x_prime: Any
    name: str = ""

    def __post_init__(self) -> None:
        check_text(self.name, "name")


def query_vector_patterns(length: int, *, sensitivity: float = 1.0,
                          norm: str = "linf") -> list[InputPair]:
    """StatDP's input patterns for mechanisms over a vector of query answers.

    Around the base vector ``x = (s, …, s)`` (``s`` the sensitivity of each
    answer), ``x'`` moves answers by ``±s`` (Ding et al. 2018, §5.1):
    *one above* ``(2s, s, …)``, *one below* ``(0, s, …)``, *one above rest
    below* ``(2s, 0, …, 0)``, *one below rest above* ``(0, 2s, …, 2s)``, *half
    half* ``(2s, …, 2s, 0, …, 0)``, *all above* ``(2s, …)``, *all below*
    ``(0, …)``, and *X shape* ``x = (s, …, s, 0, …, 0)``,
    ``x' = (0, …, 0, s, …, s)``. These are neighbours when every answer has
    ℓ∞-sensitivity ``s`` (``norm="linf"``, e.g. counting queries on one
    changed record, or SVT's queries). With ``norm="l1"`` the total change is
    at most ``s``: only *one above*, *one below*, and half-half/X-shape splits
    of ``s`` over the coordinates are returned.

    >>> [p.name for p in query_vector_patterns(4)][:3]
    ['one above', 'one below', 'one above rest below']
    >>> query_vector_patterns(4)[4].x_prime.tolist()
    [2.0, 2.0, 0.0, 0.0]
    """
    length = check_int_at_least(length, "length", 1)
    if length > 10_000:
        raise value_error("length", length, "<= 10000")
    s = check_positive(sensitivity, "sensitivity")
    if norm not in ("linf", "l1"):
        raise value_error("norm", norm, "'linf' or 'l1'")
    half = max(1, length // 2)
    base = np.full(length, s)

    def moved(first: float, rest: float, count: int = 1) -> np.ndarray:
        vector = np.full(length, rest)
        vector[:count] = first
        return vector

    if norm == "l1":
        share = s / length
        up_down = np.where(np.arange(length) < half, share, -share)
        pairs = [InputPair(base, moved(2 * s, s), "one above"),
                 InputPair(base, moved(0.0, s), "one below"),
                 InputPair(base, base + up_down, "half half"),
                 InputPair(base, base + share, "all above"),
                 InputPair(base, base - share, "all below")]
    else:
        x_shape = np.where(np.arange(length) < half, s, 0.0)
        pairs = [InputPair(base, moved(2 * s, s), "one above"),
                 InputPair(base, moved(0.0, s), "one below"),
                 InputPair(base, moved(2 * s, 0.0), "one above rest below"),
                 InputPair(base, moved(0.0, 2 * s), "one below rest above"),
                 InputPair(base, moved(2 * s, 0.0, half), "half half"),
                 InputPair(base, np.full(length, 2 * s), "all above"),
                 InputPair(base, np.zeros(length), "all below"),
                 InputPair(x_shape, x_shape[::-1].copy(), "X shape")]
    return [p for p in pairs if length > 1 or p.name in ("one above", "one below")]
