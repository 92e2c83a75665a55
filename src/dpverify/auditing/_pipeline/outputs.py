"""Sampler outputs as numeric arrays: records with categorical and numeric fields flattened.

A sampler may return, for ``size`` outputs,

* an array of shape ``(size,)`` or ``(size, d)`` (numbers, bools or strings);
* a tuple or list of such arrays (one per field: ``(index, value)``);
* a dict of such arrays (fields in the dict's order);
* a numpy structured array (its fields in order).

:func:`as_columns` turns any of them into one ``(size,)`` or ``(size, k)``
numeric array: numbers as they are, bools as 0/1, strings as integer codes
(:class:`CategoryCodes`, shared by both sides of an audit so a category has
one code). The event search later recognises categorical columns (integral,
few distinct values) and conditions on them (:mod:`dpverify.auditing.events`).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

import numpy as np

from dpverify.errors import AuditError

__all__ = ["CategoryCodes", "as_columns", "same_outputs"]


class CategoryCodes:
    """Integer codes for string categories, assigned on first sight (thread-safe).

    After :meth:`freeze` (the audit calls it when its event search ends) no
    new code is assigned: every category not seen so far gets the one code
    :attr:`unseen` ``= len(codes)``. The certification split's columns are
    then a fixed function of the outputs, the same whatever order threads or
    chunk workers meet new categories in, so events chosen on the search split
    (which never saw those categories) classify them identically on every
    path — one thread, two threads, or chunks on other processes. A frozen
    instance pickles (for :mod:`dpverify.auditing._pipeline.chunked`'s workers).
    """

    def __init__(self) -> None:
        self._codes: dict[str, int] = {}
        self._lock = threading.Lock()
        self._frozen = False

    def __getstate__(self) -> dict[str, Any]:
        with self._lock:
            return {"codes": dict(self._codes), "frozen": self._frozen}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._codes, self._frozen = state["codes"], state["frozen"]
        self._lock = threading.Lock()

    def freeze(self) -> None:
        """Assign no new codes from now on: unseen categories share :attr:`unseen`."""
        with self._lock:
            self._frozen = True

    @property
    def unseen(self) -> int:
        """The code of every category first met after :meth:`freeze`."""
        return len(self._codes)

    def encode(self, values: np.ndarray) -> np.ndarray:
        """The codes of ``values`` (any string array), new values getting the next codes."""
        distinct, inverse = np.unique(values.astype(str), return_inverse=True)
        with self._lock:
            if self._frozen:
                table = np.array([self._codes.get(v, len(self._codes)) for v in distinct.tolist()],
                                 dtype=np.int64)
            else:
                for value in distinct.tolist():
                    self._codes.setdefault(value, len(self._codes))
                table = np.array([self._codes[v] for v in distinct.tolist()], dtype=np.int64)
        return table[inverse].reshape(values.shape)

    def names(self) -> dict[int, str]:
        """Code → category, for readable event descriptions."""
        with self._lock:
            names = {code: name for name, code in self._codes.items()}
            if self._frozen:
                names[len(self._codes)] = "<unseen>"
            return names


def _field(values: Any, size: int, codes: CategoryCodes, name: str) -> np.ndarray:
    array = np.asarray(values)
    if array.dtype.kind == "O" and all(isinstance(v, str) for v in array.flat):
        array = array.astype(str)
    if array.dtype.kind in "US":
        array = codes.encode(array)
    elif array.dtype.kind not in "biuf":
        raise AuditError(f"{name} holds {array.dtype} values; expected numbers (or strings as "
                         f"categories)")
    elif array.dtype == bool:
        array = array.astype(np.int8)
    if array.ndim == 0 or array.shape[0] != size:
        raise AuditError(f"{name} has shape {array.shape} for size={size}; the first axis "
                         f"must index the {size} independent outputs")
    return array.reshape(size, -1)


def as_columns(values: Any, size: int, codes: CategoryCodes) -> Any:
    """One numeric array for a sampler's ``size`` outputs (records flattened to columns).

    Plain numeric arrays are returned untouched (the fast path); fields of a
    record are stacked as float64 columns.

    >>> codes = CategoryCodes()
    >>> as_columns((np.array([0, 1]), np.array([0.5, 2.5])), 2, codes).tolist()
    [[0.0, 0.5], [1.0, 2.5]]
    >>> as_columns({"arm": np.array(["b", "a"]), "v": np.array([1.5, 2.0])}, 2, codes).tolist()
    [[1.0, 1.5], [0.0, 2.0]]
    """
    if isinstance(values, np.ndarray) and values.dtype.names is None:
        if values.dtype.kind in "USOV":
            return _field(values, size, codes, "the sampler's output")
        return values
    if isinstance(values, np.ndarray):
        fields = [(f"field {name!r}", values[name]) for name in values.dtype.names]
    elif isinstance(values, Mapping):
        fields = [(f"field {key!r}", value) for key, value in values.items()]
    elif isinstance(values, tuple) or (isinstance(values, list) and values
                                        and all(np.ndim(v) >= 1 for v in values)
                                        and len(values) != size):
        fields = [(f"field {index}", value) for index, value in enumerate(values)]
    else:
        return values
    if not fields:
        raise AuditError("the sampler returned an empty record (no fields)")
    columns = [_field(value, size, codes, name) for name, value in fields]
    return np.concatenate([c.astype(np.float64) for c in columns], axis=1)


def same_outputs(first: Any, second: Any) -> bool:
    """Whether two normalised output arrays are identical (NaNs equal)."""
    a, b = np.asarray(first), np.asarray(second)
    if a.shape != b.shape:
        return False
    if a.dtype.kind == "f" or b.dtype.kind == "f":
        return bool(np.array_equal(a, b, equal_nan=True))
    return bool(np.array_equal(a, b))
