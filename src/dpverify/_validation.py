"""NaN-safe argument checks shared by every public function.

Each helper returns the validated value (as a Python ``float`` or ``int``) so
callers can write ``epsilon = check_epsilon(epsilon)``. Every message follows
one template, ``"{name}={value!r} must be {rule}"``, optionally followed by a
hint, and comes from :func:`value_error` so the wording stays uniform.

The comparisons are written so that NaN fails them: ``not (value >= 0)`` rather
than ``value < 0``.

What counts as a number (one policy for every public function):

* real numbers are instances of :class:`numbers.Real`: Python ``int`` and
  ``float``, numpy integer and floating scalars, and :class:`fractions.Fraction`
  (deliberately: an exact rational is a real number; it is rounded to the
  nearest float where a float is needed);
* refused with :class:`TypeError`: ``bool`` and ``numpy.bool_`` (``True`` is far
  more often a mistake than the number 1), ``str``, ``None``, ``complex`` and
  :class:`decimal.Decimal` (not a :class:`numbers.Real`; convert it explicitly);
* integers beyond the float range (``10**400``) are refused where a float is
  needed, and integers are bounded above (by default by ``2**63 - 1``, the
  largest numpy ``int64``; work-scaling parameters by a stated resource limit).

Messages show a value by :func:`shown`, which never prints a 4,000-digit integer.
"""

from __future__ import annotations

import math
import numbers
import os
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from dpverify.errors import DpverifyTypeError, DpverifyValueError

__all__ = [
    "MAX_INTEGER",
    "MAX_FORMULA_INTEGER",
    "shown",
    "value_error",
    "limit_error",
    "check_real",
    "check_finite",
    "check_positive",
    "check_nonnegative",
    "check_epsilon",
    "check_confidence",
    "check_delta",
    "check_probability",
    "check_failure_probability",
    "check_positive_int",
    "check_int_at_least",
    "check_in_range",
    "check_choice",
    "check_increasing_sequence",
    "check_nonempty_items",
    "check_real_array",
    "check_callable",
    "check_instance",
    "check_flag",
    "check_mp_real",
    "check_rng",
    "check_real_input",
    "check_n_jobs",
    "max_jobs",
    "check_text",
    "check_has",
    "check_seed",
    "check_sequence_of_pairs",
]

MAX_INTEGER = 2**63 - 1
#: Largest integer a closed-form formula takes (a horizon T in a bound): it must convert to a float.
MAX_FORMULA_INTEGER = 10**300


def shown(value: Any) -> str:
    """``repr(value)`` for a message: huge integers summarised, long reprs cut."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"<{'-' if value < 0 else ''}integer of {value.bit_length()} bits>"
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a broken __repr__ must not hide the real error
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 120 else text[:117] + "..."


def value_error(name: str, value: Any, rule: str, hint: str = "") -> DpverifyValueError:
    message = f"{name}={shown(value)} must be {rule}"
    if hint:
        message += f"; {hint}"
    return DpverifyValueError(message)


def limit_error(name: str, value: Any, limit: Any, instead: str) -> DpverifyValueError:
    """A refusal *before* work starts: ``name`` exceeds a resource limit; say what to use."""
    return DpverifyValueError(
        f"{name}={shown(value)} exceeds the limit {shown(limit)} of this computation "
        f"(its time or memory grows with {name}); {instead}")


def _type_error(name: str, value: Any, expected: str) -> DpverifyTypeError:
    return DpverifyTypeError(f"{name}={shown(value)} must be {expected}, "
                             f"not {type(value).__name__}")


def check_real(value: Any, name: str) -> float:
    """Return ``value`` as a float, or raise :class:`TypeError` if it is not a real number.

    Booleans are refused: ``True`` is far more often a mistake than the number 1.
    An integer too large for a float is a :class:`ValueError`.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise _type_error(name, value, "a real number")
    try:
        return float(value)
    except OverflowError:
        raise value_error(name, value, "a real number within the float range (|x| < 1.8e308)"
                          ) from None


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


def check_confidence(value: Any, name: str = "confidence") -> float:
    """Return a confidence: the probability, in [0.5, 1), that a stated bound holds.

    A value below 1/2 is almost always a failure probability passed by mistake
    (``confidence=0.05`` for a 95% bound): the message says so.
    """
    x = check_real(value, name)
    if not 0.5 <= x < 1:
        raise value_error(name, value, "in [0.5, 1) (the probability that the bound holds)",
                          "for the probability that it fails, use failure_probability "
                          "(confidence = 1 - failure_probability)" if 0 < x < 0.5 else "")
    return x


def check_failure_probability(value: Any, name: str = "failure_probability") -> float:
    """Return a failure probability in (0, 0.5]: the probability that a high-probability
    statement (a confidence radius, a noise tail bound) fails.

    Values above 1/2 are refused: they are almost always a confidence level (the
    probability that the statement *holds*) passed by mistake.

    >>> check_failure_probability(0.05)
    0.05
    >>> check_failure_probability(0.95)
    Traceback (most recent call last):
    ...
    dpverify.errors.DpverifyValueError: failure_probability=0.95 must be in (0, 0.5]; it is the probability that the high-probability statement fails, e.g. 0.05 (not a confidence level such as 0.95)
    """
    x = check_real(value, name)
    if not (0 < x <= 0.5):
        raise value_error(name, value, "in (0, 0.5]",
                          "it is the probability that the high-probability statement fails, "
                          "e.g. 0.05 (not a confidence level such as 0.95)")
    return x


def check_int_at_least(value: Any, name: str, minimum: int, *,
                       maximum: int | None = MAX_INTEGER, instead: str = "") -> int:
    """Return ``value`` as an int if it is an integer in [``minimum``, ``maximum``].

    Integral floats such as ``1e5`` are accepted (the CLI and users write them);
    booleans and non-integral numbers are refused. ``maximum`` is a resource
    limit when ``instead`` says what to use beyond it (the refusal then comes from
    :func:`limit_error`); otherwise it is the domain's upper end (by default the
    largest int64, so the value is safe to hand to numpy); ``None`` for exact
    closed-form uses (Python integers of any size).
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise _type_error(name, value, "an integer")
    rule = f"an integer >= {minimum}" if maximum in (MAX_INTEGER, None) else (
        f"an integer in [{minimum}, {maximum}]")
    if isinstance(value, numbers.Integral):
        n = int(value)
    else:
        x = check_real(value, name)
        if not (math.isfinite(x) and x == math.floor(x)):
            raise value_error(name, value, rule)
        n = int(x)
    if n < minimum:
        raise value_error(name, value, rule)
    if maximum is not None and n > maximum:
        if instead:
            raise limit_error(name, value, maximum, instead)
        raise value_error(name, value, rule if maximum != MAX_INTEGER else
                          f"an integer in [{minimum}, 2**63 - 1]")
    return n


def check_positive_int(value: Any, name: str, *, maximum: int | None = MAX_INTEGER,
                       instead: str = "") -> int:
    """Return ``value`` as an int if it is an integer in [1, ``maximum``]."""
    return check_int_at_least(value, name, 1, maximum=maximum, instead=instead)


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
            f"{name}={shown(value)} must be a string, one of {', '.join(map(repr, options))}"
        )
    if value not in options:
        raise value_error(name, value, f"one of {', '.join(map(repr, options))}")
    return value


def check_increasing_sequence(values: Any, name: str, *, low: float,
                              low_closed: bool = False) -> tuple[float, ...]:
    """Return a non-empty, strictly increasing tuple of finite floats above ``low``."""
    if type(values) is tuple and values and all(type(v) is float for v in values):
        # fast path (order grids are validated on every curve): the same checks, no messages
        first = values[0]
        if ((first >= low if low_closed else first > low) and math.isfinite(values[-1])
                and all(b > a for a, b in zip(values, values[1:]))):
            return values
    if isinstance(values, (str, bytes)) or not isinstance(values, (Sequence, Iterable)):
        raise _type_error(name, values, "a sequence of real numbers")
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
        raise DpverifyTypeError(f"{name}={shown(values)} must be a sequence, e.g. {example}")
    items = tuple(values)
    if not items:
        raise value_error(name, items, "non-empty", "there is nothing to combine")
    return items


def check_real_array(values: Any, name: str, *, ndim: int | None = None,
                     shape: tuple[int | None, ...] | None = None, low: float | None = None,
                     high: float | None = None, allow_empty: bool = False,
                     max_size: int | None = None, copy: bool = True) -> np.ndarray:
    """Return ``values`` as a float64 array of finite numbers, checked for shape and range.

    Refused: strings, booleans, ``None``, complex or object entries, NaN and ±inf,
    a number of dimensions other than ``ndim``, a shape not matching ``shape``
    (``None`` entries match any length), entries outside [``low``, ``high``],
    an empty array (unless ``allow_empty``) and more than ``max_size`` entries.
    The result is a new array unless ``copy=False`` and ``values`` is already a float64
    array (then ``values`` itself: for callers that only read it).
    """
    if isinstance(values, (str, bytes)) or values is None or isinstance(values, (bool, np.bool_)):
        raise _type_error(name, values, "an array of real numbers")
    if max_size is not None and hasattr(values, "__len__") and not isinstance(
            values, np.ndarray) and len(values) > max_size:
        raise limit_error(name, f"<{len(values)} entries>", max_size, "pass fewer entries")
    try:
        array = np.asarray(values)
    except (ValueError, TypeError):
        raise _type_error(name, values, "a rectangular array of real numbers") from None
    if array.dtype.kind not in "iuf":
        if array.dtype.kind == "O":
            try:
                array = np.asarray([check_real(v, f"{name}[{i}]") for i, v in
                                    enumerate(array.ravel())], dtype=float).reshape(array.shape)
            except DpverifyTypeError:
                raise
        else:
            raise _type_error(name, values, "an array of real numbers")
    if max_size is not None and array.size > max_size:
        raise limit_error(name, f"<{array.size} entries>", max_size, "pass fewer entries")
    array = array.astype(float, copy=copy)
    if ndim is not None and array.ndim != ndim:
        raise value_error(name, values, f"a {ndim}-dimensional array (got {array.ndim} "
                                        f"dimensions)")
    if shape is not None:
        if array.ndim != len(shape) or any(
                want is not None and got != want for got, want in zip(array.shape, shape)):
            wanted = "(" + ", ".join("any" if s is None else str(s) for s in shape) + ")"
            raise value_error(name, values, f"of shape {wanted}, not {array.shape}")
    if array.size == 0 and not allow_empty:
        raise value_error(name, values, "non-empty")
    if not np.isfinite(array).all():
        raise value_error(name, values, "finite in every entry")
    if low is not None and not (array >= low).all():
        raise value_error(name, values, f">= {low} in every entry")
    if high is not None and not (array <= high).all():
        raise value_error(name, values, f"<= {high} in every entry")
    return array


def check_callable(value: Any, name: str, expected: str = "a callable") -> Any:
    """Return ``value`` if it can be called (a sampler, a statistic, ...)."""
    if not callable(value):
        raise _type_error(name, value, expected)
    return value


def check_instance(value: Any, name: str, types: type | tuple[type, ...],
                   expected: str) -> Any:
    """Return ``value`` if it is an instance of ``types``; ``expected`` describes them."""
    if not isinstance(value, types):
        raise _type_error(name, value, expected)
    return value


def check_flag(value: Any, name: str) -> bool:
    """Return ``value`` if it is a bool (or ``numpy.bool_``), as a Python bool."""
    if not isinstance(value, (bool, np.bool_)):
        raise _type_error(name, value, "True or False")
    return bool(value)


def check_mp_real(value: Any, name: str, *, low: float | None = None, low_closed: bool = True,
                  allow_inf: bool = False) -> Any:
    """Return ``value`` as an :class:`mpmath.mpf`; it may be an mpf or any accepted real.

    For the exact profile functions, which take mpmath values from their callers
    and floats from users. NaN is refused; +inf only with ``allow_inf``.
    """
    import mpmath  # deferred: mpmath is heavy; most importers never need it

    if isinstance(value, mpmath.mpf):
        x = value
    else:
        x = mpmath.mpf(check_real(value, name))
    if mpmath.isnan(x) or (mpmath.isinf(x) and not (allow_inf and x > 0)):
        rule = "a real number" + (" or +inf" if allow_inf else " (finite)")
        if low is not None:
            rule = f"in {'[' if low_closed else '('}{low}, {'inf]' if allow_inf else 'inf)'}"
        raise value_error(name, value, rule)
    if low is not None and not (x >= low if low_closed else x > low):
        interval = f"{'[' if low_closed else '('}{low}, {'inf]' if allow_inf else 'inf)'}"
        raise value_error(name, value, f"in {interval}")
    return x


def check_rng(value: Any, name: str = "rng") -> Any:
    """Return ``value`` if it is a :class:`numpy.random.Generator` (SPEC 7 ``default_rng``)."""
    if not isinstance(value, np.random.Generator):
        raise _type_error(name, value, "a numpy.random.Generator, e.g. "
                                       "numpy.random.default_rng(seed)")
    return value


def check_real_input(value: Any, name: str) -> Any:
    """Check a query answer (a finite real scalar or array of them); return it unchanged.

    Integers stay exact (within int64); arrays keep their dtype.
    """
    if isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)):
        n = int(value)
        if abs(n) > MAX_INTEGER:
            raise value_error(name, value, "an integer within int64 (|x| <= 2**63 - 1)")
        return value
    if isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_)):
        check_finite(value, name)
        return value
    check_real_array(value, name, allow_empty=True)
    return value


def usable_cores() -> int:
    """Cores this process may run on: its CPU affinity where the OS has one, else ``os.cpu_count()``.

    On a machine where the process is pinned (``taskset``, a container's
    cpuset, a batch scheduler) this is what ``n_jobs=-1`` should fill, not the
    machine's total.
    """
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1  # pragma: no cover - macOS, Windows


def max_jobs() -> int:
    """Most worker processes any runner starts: four per usable core (at least 8)."""
    return max(8, 4 * usable_cores())


def check_n_jobs(value: Any, name: str = "n_jobs") -> int:
    """Return a worker count: an integer in [1, :func:`max_jobs`], or -1 for every core."""
    jobs = check_int_at_least(value, name, -1)
    if jobs == 0:
        raise value_error(name, value, "an integer >= 1, or -1 for every core")
    if jobs == -1:
        return usable_cores()
    if jobs > max_jobs():
        raise limit_error(name, value, max_jobs(),
                          "each job is a process; more than four per core only adds overhead")
    return jobs


def check_text(value: Any, name: str) -> str:
    """Return ``value`` if it is a string (a name, a label, a description)."""
    if not isinstance(value, str):
        raise _type_error(name, value, "a string")
    return value


def check_has(value: Any, name: str, attributes: Iterable[str], expected: str) -> Any:
    """Return ``value`` if it has every attribute in ``attributes`` (a structural type check).

    For protocol-typed parameters (an algorithm, an environment, a privatizer):
    the message says what was expected instead of an ``AttributeError`` later.
    """
    missing = [a for a in attributes if not hasattr(value, a)]
    if missing:
        raise _type_error(name, value, f"{expected} (it has no {', '.join(missing)})")
    return value


def check_seed(seed: Any, name: str = "seed") -> Any:
    """``None``, a non-negative int, a sequence of them, or a ``numpy.random.SeedSequence``.

    (The entropy ``numpy.random.SeedSequence`` accepts; a sequence such as
    ``[seed, panel]`` keys a stream by several integers.)
    """
    def integer(value: Any) -> bool:
        return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))

    if seed is None or isinstance(seed, np.random.SeedSequence):
        return seed
    if isinstance(seed, (list, tuple)) and seed and all(integer(v) for v in seed):
        if any(v < 0 for v in seed):
            raise value_error(name, seed, "a sequence of non-negative ints")
        return seed
    if not integer(seed):
        raise DpverifyTypeError(f"{name}={shown(seed)} must be None, a non-negative int (or a "
                                f"sequence of them) or a numpy SeedSequence")
    if seed < 0:
        raise value_error(name, seed, "a non-negative int")
    return seed


def check_sequence_of_pairs(values: Any, name: str, expected: str) -> tuple[tuple[Any, Any], ...]:
    """Return ``values`` as a tuple of 2-tuples (e.g. ``(panel, simulations)`` pairs)."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise _type_error(name, values, f"a sequence of {expected}")
    items = tuple(values)
    for i, item in enumerate(items):
        if not (isinstance(item, (tuple, list)) and len(item) == 2):
            raise _type_error(f"{name}[{i}]", item, f"a pair: {expected}")
    return tuple(tuple(item) for item in items)
