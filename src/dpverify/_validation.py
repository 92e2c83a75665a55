"""NaN-safe argument checks shared by every public function.

Each helper returns the validated value (as a Python ``float`` or ``int``) so
callers can write ``epsilon = check_epsilon(epsilon)``. Every message follows
one template, ``"{name}={value!r} must be {rule}"``, optionally followed by a
hint, and comes from :func:`value_error` so the wording stays uniform.

The comparisons are written so that NaN fails them: ``not (value >= 0)`` rather
than ``value < 0``.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Sequence
from typing import Any

from dpverify.errors import DpverifyTypeError, DpverifyValueError

__all__ = [
    "value_error",
    "check_real",
    "check_finite",
    "check_positive",
    "check_nonnegative",
    "check_epsilon",
    "check_delta",
    "check_probability",
    "check_positive_int",
    "check_int_at_least",
    "check_in_range",
    "check_choice",
    "check_increasing_sequence",
    "check_nonempty_items",
]


def value_error(name: str, value: Any, rule: str, hint: str = "") -> DpverifyValueError:
    message = f"{name}={value!r} must be {rule}"
    if hint:
        message += f"; {hint}"
    return DpverifyValueError(message)


def check_real(value: Any, name: str) -> float:
    """Return ``value`` as a float, or raise :class:`TypeError` if it is not a real number.

    Booleans are refused: ``True`` is far more often a mistake than the number 1.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise DpverifyTypeError(
            f"{name}={value!r} must be a real number, not {type(value).__name__}"
        )
    return float(value)


def check_finite(value: Any, name: str) -> float:
    """Return ``value`` as a float if it is a finite real number."""
    x = check_real(value, name)
    if not math.isfinite(x):
        raise value_error(name, value, "finite")
    return x


def check_positive(value: Any, name: str, *, allow_inf: bool = False) -> float:
    """Return ``value`` if it is in (0, inf) (or (0, inf] with ``allow_inf``)."""
    x = check_real(value, name)
    upper = "inf]" if allow_inf else "inf)"
    if not (x > 0) or (math.isinf(x) and not allow_inf):
        raise value_error(name, value, f"in (0, {upper}")
    return x


def check_nonnegative(value: Any, name: str, *, allow_inf: bool = False) -> float:
    """Return ``value`` if it is in [0, inf) (or [0, inf] with ``allow_inf``)."""
    x = check_real(value, name)
    upper = "inf]" if allow_inf else "inf)"
    if not (x >= 0) or (math.isinf(x) and not allow_inf):
        raise value_error(name, value, f"in [0, {upper}")
    return x


def check_epsilon(value: Any, name: str = "epsilon", *, allow_zero: bool = True,
                  allow_inf: bool = False) -> float:
    """Return a privacy parameter ε, which must be in [0, inf) (or (0, inf))."""
    x = check_real(value, name)
    lower_ok = x >= 0 if allow_zero else x > 0
    if not lower_ok or (math.isinf(x) and not allow_inf):
        bracket = "[0" if allow_zero else "(0"
        closing = "inf]" if allow_inf else "inf)"
        raise value_error(name, value, f"in {bracket}, {closing}")
    return x


def check_delta(value: Any, name: str = "delta", *, allow_zero: bool = True) -> float:
    """Return a failure probability δ, which must be in [0, 1) (or (0, 1))."""
    x = check_real(value, name)
    lower_ok = x >= 0 if allow_zero else x > 0
    if not (lower_ok and x < 1):
        if allow_zero:
            raise value_error(name, value, "in [0, 1)")
        raise value_error(name, value, "in (0, 1)", "pure DP (delta=0) has no finite answer here")
    return x


def check_probability(value: Any, name: str, *, open_low: bool = False,
                      open_high: bool = False) -> float:
    """Return a probability in [0, 1], with either end optionally open."""
    x = check_real(value, name)
    low_ok = x > 0 if open_low else x >= 0
    high_ok = x < 1 if open_high else x <= 1
    if not (low_ok and high_ok):
        interval = ("(" if open_low else "[") + "0, 1" + (")" if open_high else "]")
        raise value_error(name, value, f"in {interval}")
    return x


def check_int_at_least(value: Any, name: str, minimum: int) -> int:
    """Return ``value`` as an int if it is an integer >= ``minimum``.

    Integral floats such as ``1e5`` are accepted (the CLI and users write them);
    booleans and non-integral numbers are refused.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise DpverifyTypeError(
            f"{name}={value!r} must be an integer, not {type(value).__name__}"
        )
    if isinstance(value, numbers.Integral):
        n = int(value)
    else:
        x = float(value)
        if not (math.isfinite(x) and x == math.floor(x)):
            raise value_error(name, value, f"an integer >= {minimum}")
        n = int(x)
    if n < minimum:
        raise value_error(name, value, f"an integer >= {minimum}")
    return n


def check_positive_int(value: Any, name: str) -> int:
    """Return ``value`` as an int if it is an integer >= 1."""
    return check_int_at_least(value, name, 1)


def check_in_range(value: Any, name: str, low: float, high: float, *,
                   low_closed: bool = True, high_closed: bool = True) -> float:
    """Return ``value`` if it lies in the interval from ``low`` to ``high``."""
    x = check_real(value, name)
    low_ok = x >= low if low_closed else x > low
    high_ok = x <= high if high_closed else x < high
    if not (low_ok and high_ok):
        interval = f"{'[' if low_closed else '('}{low}, {high}{']' if high_closed else ')'}"
        raise value_error(name, value, f"in {interval}")
    return x


def check_choice(value: Any, name: str, choices: Iterable[str]) -> str:
    """Return ``value`` if it is one of ``choices`` (strings)."""
    options = tuple(choices)
    if not isinstance(value, str):
        raise DpverifyTypeError(
            f"{name}={value!r} must be a string, one of {', '.join(map(repr, options))}"
        )
    if value not in options:
        raise value_error(name, value, f"one of {', '.join(map(repr, options))}")
    return value


def check_increasing_sequence(values: Any, name: str, *, low: float,
                              low_closed: bool = False) -> tuple[float, ...]:
    """Return a non-empty, strictly increasing tuple of finite floats above ``low``."""
    if isinstance(values, (str, bytes)) or not isinstance(values, (Sequence, Iterable)):
        raise DpverifyTypeError(
            f"{name}={values!r} must be a sequence of real numbers"
        )
    items = tuple(values)
    if not items:
        raise value_error(name, items, "non-empty")
    floats = tuple(check_finite(v, f"{name}[{i}]") for i, v in enumerate(items))
    for i, x in enumerate(floats):
        if not (x >= low if low_closed else x > low):
            bound = f"{'>=' if low_closed else '>'} {low}"
            raise value_error(f"{name}[{i}]", items[i], bound)
    for i in range(1, len(floats)):
        if not floats[i] > floats[i - 1]:
            raise value_error(name, items, "strictly increasing",
                        f"{name}[{i}]={items[i]!r} does not exceed {name}[{i - 1}]={items[i - 1]!r}")
    return floats


def check_nonempty_items(values: Any, name: str, *, single: type | tuple[type, ...],
                         example: str) -> tuple[Any, ...]:
    """Return the items of a non-empty iterable of values to combine (compose, sum, ...).

    A bare string, or a single value of the ``single`` type(s) passed where a
    sequence of them is needed, is a :class:`TypeError` whose message shows
    ``example``; an empty iterable is a :class:`ValueError`. The items
    themselves are checked by the caller.
    """
    if isinstance(values, (str, bytes)) or isinstance(values, single) or not isinstance(
            values, Iterable):
        raise DpverifyTypeError(f"{name}={values!r} must be a sequence, e.g. {example}")
    items = tuple(values)
    if not items:
        raise value_error(name, items, "non-empty", "there is nothing to combine")
    return items
