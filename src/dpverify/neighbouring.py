"""Neighbouring relations between datasets.

One enum, :class:`Neighbouring`, names the relation a guarantee is stated
under; every function that takes a relation takes it as ``neighbouring=``, a
member or its string (:meth:`Neighbouring.parse`). :func:`are_neighbours`
checks a concrete pair of datasets; :func:`query_vector_patterns` lists
StatDP's neighbouring pairs of query-answer vectors (the candidates of a
worst-pair search, :mod:`dpverify.auditing.search`).

The relations
-------------
``"add-remove"`` (:attr:`Neighbouring.ADD_REMOVE`)
    One dataset is the other with one record added or removed ("unbounded" DP).
``"replace-one"`` (:attr:`Neighbouring.REPLACE_ONE`)
    Datasets of the same size differing in one record, replaced by any other
    record ("bounded" DP; dp_accounting's ``REPLACE_ONE``).
``"replace-special"`` (:attr:`Neighbouring.REPLACE_SPECIAL`)
    Datasets of the same size where one record is replaced by a special
    record that contributes nothing (a zero gradient, a null report): the
    accountant accounts it by the add-remove dominating pairs, since adding
    or removing a contribution is what it changes (Zhu, Dong & Wang 2022,
    Prop. 30; dp_accounting's ``REPLACE_SPECIAL``).

The default rule
----------------
Where a dataset's size can change, the default is **add-remove**: the
:class:`~dpverify.accountants.PrivacyAccountant` and the constructors of
subsampled mechanisms (Poisson subsampling changes the batch size), as in
dp_accounting and Opacus. Where the input is a pair of the same size, the
default is **replace-one**: :func:`are_neighbours`, privacy maps of
mechanisms (:func:`dpverify.mechanisms.privacy_map`; a local randomizer's
guarantee is for replacing its one input), auditing and the testing
strategies. A function supporting only some relations raises
:class:`~dpverify.errors.UnsupportedError` naming the ones it supports.

The spellings of dpverify 0.1, ``Neighbouring.REPLACE`` and the string
``"replace"``, still mean replace-one for one release, with a
:class:`DeprecationWarning`.
"""

from __future__ import annotations

import enum
import sys
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from dpverify._deprecation import renamed_parameters
from dpverify._validation import check_int_at_least, check_positive, check_text, value_error
from dpverify.errors import DpverifyTypeError, UnsupportedError

__all__ = ["Neighbouring", "are_neighbours", "InputPair", "query_vector_patterns"]

#: Spellings of dpverify 0.1: old member name or string -> the member's value now.
_DEPRECATED_MEMBERS = {"REPLACE": "replace-one"}
_DEPRECATED_VALUES = {"replace": "replace-one"}


def _deprecated(old: str, new: str) -> None:
    """Warn, attributing the warning to the first caller outside dpverify (and enum)."""
    level, frame = 2, sys._getframe(1)
    while frame.f_back is not None and frame.f_globals.get("__name__", "").split(".")[0] in (
            "dpverify", "enum"):
        level, frame = level + 1, frame.f_back
    warnings.warn(f"the neighbouring relation {old} is deprecated and will be removed in the "
                  f"next release; use {new}", DeprecationWarning, stacklevel=level)


class _NeighbouringType(enum.EnumMeta):
    """Serves ``Neighbouring.REPLACE`` (dpverify 0.1) with a deprecation warning."""

    def __getattr__(cls, name: str) -> Any:
        if name in _DEPRECATED_MEMBERS:
            member = cls(_DEPRECATED_MEMBERS[name])
            _deprecated(f"Neighbouring.{name}", f"Neighbouring.{member.name}")
            return member
        if not name.startswith("_") and name in cls._member_map_:  # Python 3.10 looks here
            return cls._member_map_[name]
        raise AttributeError(f"type object {cls.__name__!r} has no attribute {name!r}")


class Neighbouring(str, enum.Enum, metaclass=_NeighbouringType):
    """The neighbouring relation of a privacy guarantee (see the module docstring).

    ``ADD_REMOVE``
        One dataset is the other with one record added or removed ("unbounded" DP).
    ``REPLACE_ONE``
        Datasets of the same size differing in one record ("bounded" DP).
    ``REPLACE_SPECIAL``
        One record replaced by a special record that contributes nothing.

    A member is its string: ``Neighbouring.ADD_REMOVE == "add-remove"``.

    >>> Neighbouring.parse("replace-one")
    <Neighbouring.REPLACE_ONE: 'replace-one'>
    """

    ADD_REMOVE = "add-remove"
    REPLACE_ONE = "replace-one"
    REPLACE_SPECIAL = "replace-special"

    @classmethod
    def _missing_(cls, value: Any) -> Neighbouring:
        """``Neighbouring(value)`` with an old or unknown value."""
        if isinstance(value, str) and value in _DEPRECATED_VALUES:
            member = cls(_DEPRECATED_VALUES[value])
            _deprecated(repr(value), repr(member.value))
            return member
        raise value_error("value", value, f"one of {cls._choices()}")

    @classmethod
    def _choices(cls, members: Iterable[Neighbouring] | None = None) -> str:
        return ", ".join(repr(m.value) for m in (cls if members is None else members))

    @classmethod
    def parse(cls, value: Any, name: str = "neighbouring") -> Neighbouring:
        """Return the relation named by ``value`` (an enum member or its string)."""
        if isinstance(value, cls):
            return value
        if isinstance(value, str):
            for member in cls:
                if value == member.value:
                    return member
            if value in _DEPRECATED_VALUES:
                return cls(value)
            raise value_error(name, value, f"one of {cls._choices()}")
        raise DpverifyTypeError(f"{name}={value!r} must be a Neighbouring or a string")

    @classmethod
    def require(cls, value: Any, supported: Iterable[Neighbouring], subject: str,
                name: str = "neighbouring") -> Neighbouring:
        """Parse ``value`` and check that ``subject`` (the function or mechanism) supports it.

        Raises :class:`~dpverify.errors.UnsupportedError` naming the supported relations.

        >>> Neighbouring.require("add-remove", [Neighbouring.REPLACE_ONE], "a local randomizer")
        Traceback (most recent call last):
        ...
        dpverify.errors.UnsupportedError: a local randomizer supports neighbouring='replace-one' only, not 'add-remove'
        """
        relation = cls.parse(value, name)
        supported = tuple(supported)
        if relation not in supported:
            listed = (f"{name}={supported[0].value!r} only" if len(supported) == 1
                      else f"{name} in ({cls._choices(supported)})")
            raise UnsupportedError(f"{subject} supports {listed}, not {relation.value!r}")
        return relation


def _records(data: Any, name: str) -> list[Any]:
    if isinstance(data, (str, bytes)) or not isinstance(data, (Sequence, np.ndarray)):
        raise DpverifyTypeError(f"{name}={data!r} must be a sequence of records")
    return list(data)


def _equal(a: Any, b: Any) -> bool:
    return bool(np.array_equal(np.asarray(a), np.asarray(b)))


@renamed_parameters(relation="neighbouring")
def are_neighbours(x: Any, x_prime: Any,
                   neighbouring: Neighbouring | str = Neighbouring.REPLACE_ONE) -> bool:
    """Return whether two datasets (sequences of records) are neighbours.

    Under ``"replace-one"`` (the default) and ``"replace-special"`` they have
    the same length and differ in at most one position (a dataset does not
    say which record is special); under ``"add-remove"`` one is the other
    with exactly one record removed (order of the remaining records
    preserved).

    >>> are_neighbours([0, 1, 1], [0, 0, 1])
    True
    >>> are_neighbours([0, 1, 1], [0, 1], "add-remove")
    True
    >>> are_neighbours([0, 1, 1], [1, 0, 0])
    False
    """
    relation = Neighbouring.parse(neighbouring)
    a, b = _records(x, "x"), _records(x_prime, "x_prime")
    if relation is not Neighbouring.ADD_REMOVE:
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
