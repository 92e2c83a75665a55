"""Sound numerics: directed rounding, log-space arithmetic and the one calibration engine.

Conventions
-----------
* Upper bounds on ε or δ are computed in mpmath (or exact rationals) and turned
  into floats with :func:`round_up`; lower bounds with :func:`round_down`. The
  rounding direction is therefore visible at every call site.
* Every ``min_*``/``max_*`` search in dpverify goes through
  :func:`bisect_passing`: a boolean *meets-the-budget* predicate, a bracket
  whose two ends are verified to disagree, and the passing end returned
  (OpenDP's ``binary_search``; dp_accounting re-checks Brent roots for the same
  reason).
"""

from __future__ import annotations

import contextlib
import math
import sys
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import TypeVar

import mpmath

from dpverify.errors import CalibrationError

__all__ = [
    "DEFAULT_DPS",
    "working_precision",
    "round_up",
    "round_down",
    "log_add",
    "log_sub",
    "bisect_passing",
    "regula_falsi_passing",
    "grow_until",
]

#: Decimal digits used by dpverify's mpmath computations unless stated otherwise.
DEFAULT_DPS = 50

Number = TypeVar("Number", int, float)


@contextlib.contextmanager
def working_precision(dps: int = DEFAULT_DPS) -> Iterator[None]:
    """Context manager running mpmath at ``dps`` decimal digits (at least the current ones)."""
    with mpmath.workdps(max(dps, mpmath.mp.dps)):
        yield


def _widen(x: int | float | Fraction | mpmath.mpf, relative_error: float,
           direction: int) -> Fraction | mpmath.mpf:
    """Return ``x * (1 + direction * relative_error)`` exactly (Fraction) or in mpmath."""
    if isinstance(x, Fraction):
        return x + direction * abs(x) * Fraction(relative_error)
    value = x if isinstance(x, mpmath.mpf) else mpmath.mpf(x)  # keep an mpf's own precision
    return value + direction * abs(value) * mpmath.mpf(relative_error) if relative_error else value


def _to_float(value: Fraction | mpmath.mpf, direction: int) -> float:
    """Round an exact value to a float in ``direction`` (+1 up, -1 down)."""
    if not isinstance(value, Fraction) and mpmath.isinf(value):
        return math.inf if value > 0 else -math.inf
    try:
        f = float(value)
    except OverflowError:  # a Fraction beyond the float range
        f = math.inf if value > 0 else -math.inf
    if math.isinf(f):
        # beyond the float range: infinity away from zero, the largest float towards it
        return f if (f > 0) == (direction > 0) else math.copysign(sys.float_info.max, f)
    exact_f = Fraction(f) if isinstance(value, Fraction) else mpmath.mpf(f)
    if (exact_f - value) * direction >= 0:
        return f
    return math.nextafter(f, direction * math.inf)


def round_up(x: int | float | Fraction | mpmath.mpf, *, relative_error: float = 0.0) -> float:
    """Return the smallest float ``>= x * (1 + relative_error)``: an upper bound on ``x``.

    ``relative_error`` states how far the computation that produced ``x`` may
    be from the true value, relatively; the result then bounds the true value.

    Notes
    -----
    Soundness: conservative for upper bounds (ε, δ reported to users).
    ``float(mpf)`` rounds to nearest, so the result is nudged up one ulp when
    needed; comparing a float with an mpf or a Fraction is exact.

    >>> from fractions import Fraction
    >>> round_up(Fraction(1, 3)) >= Fraction(1, 3) > round_down(Fraction(1, 3))
    True
    """
    with working_precision():
        return _to_float(_widen(x, relative_error, +1), +1)


def round_down(x: int | float | Fraction | mpmath.mpf, *, relative_error: float = 0.0) -> float:
    """Return the largest float ``<= x * (1 - relative_error)``: a lower bound on ``x``.

    Soundness: conservative for lower bounds (audited ε).
    """
    with working_precision():
        return _to_float(_widen(x, relative_error, -1), -1)


def log_add(a: float, b: float) -> float:
    """Return ``log(exp(a) + exp(b))`` without overflow; ``-inf`` is the log of 0."""
    if a == -math.inf:
        return b
    if b == -math.inf:
        return a
    high, low = (a, b) if a >= b else (b, a)
    return high + math.log1p(math.exp(low - high))


def log_sub(a: float, b: float) -> float:
    """Return ``log(exp(a) - exp(b))`` for ``a >= b``; ``-inf`` when they are equal."""
    if b == -math.inf:
        return a
    if not a >= b:
        raise ValueError(f"log_sub needs a >= b, got a={a!r}, b={b!r}")
    if a == b:
        return -math.inf
    return a + math.log1p(-math.exp(b - a)) if b - a > -0.69 else a + math.log(-math.expm1(b - a))


def bisect_passing(predicate: Callable[[Number], bool], low: Number, high: Number, *,
                   integer: bool = False, rtol: float = 1e-12, atol: float = 0.0,
                   max_iterations: int = 2000) -> Number:
    """Bisect a monotone boolean predicate on a verified bracket; return the passing end.

    Parameters
    ----------
    predicate
        ``predicate(x)`` is True when ``x`` *meets the budget*. It must be
        monotone on ``[low, high]``: True on one side of a threshold, False on
        the other.
    low, high
        The bracket. Exactly one end must pass; this is checked, never assumed.
    integer
        Search integers: stops when the passing and failing ends are adjacent.
    rtol, atol
        Float search stops when ``|passing - failing| <= atol + rtol * |passing|``.

    Returns
    -------
    The end of the final bracket that passes the predicate; it has been
    evaluated, so the returned value is guaranteed to meet the budget.

    Raises
    ------
    CalibrationError
        If both ends pass or both fail (no verified bracket).

    Examples
    --------
    The largest x with x**2 <= 2, to 1e-12 relative:

    >>> x = bisect_passing(lambda x: x * x <= 2, 0.0, 2.0)
    >>> x * x <= 2 and abs(x - 2 ** 0.5) < 1e-11
    True

    The smallest integer n with 2**n >= 1000:

    >>> bisect_passing(lambda n: 2 ** n >= 1000, 0, 64, integer=True)
    10
    """
    if integer:
        low, high = int(low), int(high)
    passes_low, passes_high = bool(predicate(low)), bool(predicate(high))
    if passes_low == passes_high:
        state = "passes" if passes_low else "fails"
        raise CalibrationError(
            f"cannot verify the search bracket [{low!r}, {high!r}]: the budget predicate "
            f"{state} at both ends"
        )
    passing, failing = (low, high) if passes_low else (high, low)
    for _ in range(max_iterations):
        if integer:
            if abs(passing - failing) <= 1:
                return passing
            middle = (passing + failing) // 2
        else:
            if abs(passing - failing) <= atol + rtol * abs(passing):
                return passing
            middle = passing + (failing - passing) / 2
            if middle in (passing, failing):  # adjacent floats
                return passing
        if predicate(middle):
            passing = middle
        else:
            failing = middle
    return passing


def regula_falsi_passing(excess: Callable[[float], float], low: float, high: float, *,
                         rtol: float = 1e-12, atol: float = 0.0,
                         max_iterations: int = 200) -> float:
    """:func:`bisect_passing` for a continuous monotone *excess*, with Illinois steps.

    ``excess(x) <= 0`` means ``x`` meets the budget (``-inf`` is allowed: a
    bisection step is taken while an end's excess is infinite). The bracket
    is verified as in :func:`bisect_passing`; each step evaluates the
    regula-falsi point (Illinois variant: an end kept twice in a row has its
    excess halved, so convergence is superlinear and both ends move), kept a
    thousandth of the bracket away from either end, and replaces the end of
    the same verdict. The passing end is returned once ``|passing − failing|
    <= atol + rtol·|passing|``: it has been evaluated and meets the budget.

    >>> x = regula_falsi_passing(lambda x: x * x - 2, 0.0, 2.0)
    >>> x * x <= 2 and abs(x - 2 ** 0.5) < 1e-11
    True
    """
    values = {low: excess(low), high: excess(high)}
    if (values[low] <= 0) == (values[high] <= 0):
        state = "passes" if values[low] <= 0 else "fails"
        raise CalibrationError(
            f"cannot verify the search bracket [{low!r}, {high!r}]: the budget predicate "
            f"{state} at both ends")
    passing, failing = (low, high) if values[low] <= 0 else (high, low)
    pass_excess, fail_excess = values[passing], values[failing]
    kept = 0  # +1: the passing end was replaced last time, -1: the failing end
    for _ in range(max_iterations):
        width = failing - passing
        if abs(width) <= atol + rtol * abs(passing):
            break
        if math.isinf(pass_excess) or math.isinf(fail_excess):
            middle = passing + width / 2
        else:
            fraction = pass_excess / (pass_excess - fail_excess)
            middle = passing + width * min(max(fraction, 1e-3), 1 - 1e-3)
        if middle in (passing, failing):  # adjacent floats
            break
        value = excess(middle)
        if value <= 0:
            passing, pass_excess = middle, value
            fail_excess = fail_excess / 2 if kept == +1 else fail_excess
            kept = +1
        else:
            failing, fail_excess = middle, value
            pass_excess = pass_excess / 2 if kept == -1 else pass_excess
            kept = -1
    return passing


def grow_until(predicate: Callable[[float], bool], start: float, *, factor: float = 2.0,
               limit: float) -> tuple[float, float]:
    """Find a bracket by geometric growth: return ``(previous, x)`` with ``predicate(x)`` True.

    Starting at ``start`` (where the predicate is expected to fail), multiply by
    ``factor`` until the predicate holds. ``previous`` is the last point tried
    that failed (``start`` itself if the first point passes). Raises
    :class:`CalibrationError` when ``limit`` is passed without success.

    >>> grow_until(lambda x: x >= 10, 1.0, limit=100.0)
    (8.0, 16.0)
    """
    previous, x = start, start
    while not predicate(x):
        if x > limit:
            raise CalibrationError(
                f"no feasible value up to {limit!r}: the budget predicate still fails at {x!r}"
            )
        previous, x = x, x * factor
    return previous, x
