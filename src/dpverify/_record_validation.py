"""Validation of result records (frozen dataclasses) from their field annotations: :func:`check_record`.

One rule per annotation and field name, so every record the library returns
(and users may build) is checked alike; the scalar checks it applies are
:mod:`dpverify._validation`'s.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import sys
import weakref
from collections.abc import Mapping
from typing import Any

import numpy as np

from dpverify._validation import (
    _type_error,
    check_callable,
    check_delta,
    check_epsilon,
    check_flag,
    check_instance,
    check_int_at_least,
    check_nonnegative,
    check_probability,
    check_real,
    check_real_array,
    check_text,
    value_error,
)

__all__ = ["check_record"]


_PROBABILITY_FIELDS = frozenset({"p", "p_hat", "p_prime_hat", "confidence", "claimed_delta",
                                 "delta_lower_bound", "probability", "flip_probability",
                                 "randomization_probability"})


def _field_rule(name: str, annotation: str, namespace: Mapping[str, Any]) -> Any:
    """A checker ``(value, name) -> None`` for a record field, from its annotation and name."""
    text = annotation.replace(" ", "")
    if text in ("Any", "object"):
        return None
    if text.endswith("|None") or text.startswith("None|"):
        inner = _field_rule(name, text.replace("|None", "").replace("None|", ""), namespace)
        return lambda value, label: None if value is None else inner(value, label)
    if text == "float":
        if name in _PROBABILITY_FIELDS:
            return lambda value, label: check_probability(value, label)
        if "delta" in name and not name.endswith("s"):
            return lambda value, label: check_delta(value, label)
        if "epsilon" in name and not name.endswith("s"):
            return lambda value, label: check_epsilon(value, label, allow_inf=True)
        if name in ("seconds", "sigma", "lam", "eta", "L", "S", "h", "regularization",
                    "context_bound", "theta_bound", "sub_exponential_scale"):
            return lambda value, label: check_nonnegative(value, label, allow_inf=True)

        def real(value: Any, label: str) -> None:
            if math.isnan(check_real(value, label)):
                raise value_error(label, value, "a real number (not NaN)")
        return real
    if text == "int":
        return lambda value, label: check_int_at_least(value, label, 0)
    if text == "str":
        return lambda value, label: check_text(value, label)
    if text == "bool":
        return lambda value, label: check_flag(value, label)
    if text.startswith("NDArray"):
        def array(value: Any, label: str) -> None:
            values = check_real_array(value, label, allow_empty=True) if not isinstance(
                value, np.ndarray) or value.dtype.kind in "iuf" else None
            if values is None:
                raise _type_error(label, value, "a numeric array")
        return array
    if text.startswith(("tuple[", "tuple")):
        return lambda value, label: check_instance(value, label, tuple, "a tuple")
    if text.startswith("Mapping"):
        return lambda value, label: check_instance(value, label, Mapping, "a mapping")
    if text.startswith("Callable"):
        return lambda value, label: check_callable(value, label)
    target = namespace.get(text)
    union = getattr(target, "__args__", None)  # a typing.Union alias such as Guarantee
    if "|" in text and target is None:  # an inline union of classes: "PureDP | ApproxDP"
        members = tuple(namespace.get(part) for part in text.split("|"))
        union = members if all(isinstance(m, type) for m in members) else None
    if isinstance(target, type) or (union and all(isinstance(t, type) for t in union)):
        kinds = union if union else (target,)
        attributes = {f.name for k in kinds if dataclasses.is_dataclass(k)
                      for f in dataclasses.fields(k)}

        def structured(value: Any, label: str) -> None:
            # duck typing is welcome (a stand-in sharing one of the class's fields); plain
            # data (a number, a string, a list) or an unrelated object is not
            if isinstance(value, kinds):
                return
            if isinstance(value, (numbers.Number, str, bytes, list, dict, set)) or value is None \
                    or (attributes and not any(hasattr(value, a) for a in attributes)):
                raise _type_error(label, value, f"a {text}")
        return structured
    return None


def check_record(record: Any) -> None:
    """Validate a result record's fields (a frozen dataclass) from their annotations and names.

    One rule for every record the library returns (and users may build): ``float``
    fields are real numbers, never NaN (``±inf`` allowed: an unbounded event, an
    infinite ε lower bound), δ-named fields in [0, 1), probability-named fields in
    [0, 1], ε-named fields in [0, inf]; ``int`` fields are integers >= 0; ``str``
    and ``bool`` fields have those types; arrays are numeric and finite; fields
    typed with a class (or a union of classes) hold an object, not plain data (a
    number, string, list or dict: duck-typed stand-ins are welcome). ``Any``
    fields are not checked.
    """
    for name, rule in _record_rules(type(record)):
        rule(getattr(record, name), name)


#: ``class -> (size of its module's namespace, its fields' rules)``: the rules of a class are
#: built once its module has finished importing (names its annotations refer to may be
#: defined after the class; a namespace that grew since is read afresh).
_RULES: weakref.WeakKeyDictionary[type, tuple[int, tuple[tuple[str, Any], ...]]] = (
    weakref.WeakKeyDictionary())


def _record_rules(kind: type) -> tuple[tuple[str, Any], ...]:
    """``(field name, checker)`` of a record class's checked fields (memoised per class)."""
    namespace = vars(sys.modules[kind.__module__])
    cached = _RULES.get(kind)
    if cached is not None and cached[0] == len(namespace):
        return cached[1]
    rules = []
    for field in dataclasses.fields(kind):
        if not field.init or not isinstance(field.type, str):
            continue
        rule = _field_rule(field.name, field.type, namespace)
        if rule is not None:
            rules.append((field.name, rule))
    _RULES[kind] = (len(namespace), tuple(rules))
    return tuple(rules)
