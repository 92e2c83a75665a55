"""Verified searches shared by the calibrations (:mod:`.noise`, :mod:`.dp_sgd`).

Every search here returns the *passing end of a verified bracket*: a noise
level that was evaluated and meets the budget, next to one (within the
tolerance) that was evaluated and fails. Seeds, root finders and step sizes
only affect speed. Searches are bounded: the noise level stays in
``(NOISE_RANGE[0], NOISE_RANGE[1])`` and the number of evaluations is capped,
and a search that leaves them is refused with the caller's arguments named.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from dpverify._numeric import bisect_passing
from dpverify.errors import CalibrationError, DpverifyError, DpverifyValueError

__all__ = ["NOISE_RANGE", "MAX_EVALUATIONS", "smallest_passing", "root_passing", "request",
           "naming"]

#: Noise levels a calibration searches over (open interval).
NOISE_RANGE = (1e-300, 1e12)
#: Most evaluations of the budget a root-finder search makes before the verified bisection.
MAX_EVALUATIONS = 60


def request(**arguments: Any) -> str:
    """``"name=value, ..."``: the arguments of a calibration, for its error messages."""
    return ", ".join(f"{name}={value!r}" for name, value in arguments.items())


@contextmanager
def naming(described: str) -> Iterator[None]:
    """Re-raise a range error from inside an accountant with the caller's arguments named."""
    try:
        yield
    except DpverifyValueError as error:
        raise DpverifyValueError(f"{described} is outside the range this accountant supports: "
                                 f"{error}") from error


def _refuse(described: str, start: float) -> CalibrationError:
    low, high = NOISE_RANGE
    return CalibrationError(f"no feasible noise level between {low:g} and {high:g} for "
                            f"{described} (searched from {start!r})")


def smallest_passing(meets: Callable[[float], bool], start: float, *, rtol: float,
                     described: str = "") -> float:
    """Smallest noise level (to ``rtol``) that meets the budget, searching near ``start``.

    ``meets`` must be monotone: once a noise level meets the budget, every
    larger one does. The bracket is found by steps of growing size (0.1%, 1%,
    10%, then doubling) up or down from ``start``, and the passing end of the
    verified bracket is returned. ``described`` (the caller's arguments, e.g.
    ``"epsilon=1.0, delta=1e-05"``) goes into every error message.
    """
    if not (NOISE_RANGE[0] < start < NOISE_RANGE[1]):
        raise _refuse(described, start)
    try:
        direction = -1 if meets(start) else +1
        near, step, steps = start, 1e-3, 0
        while True:
            far = near * (1 + step) if direction > 0 else near / (1 + step)
            if not (NOISE_RANGE[0] < far < NOISE_RANGE[1]) and steps >= 67:
                # a gallop past an end of the range: try the end itself first
                end = (NOISE_RANGE[1] * (1 - 1e-15) if direction > 0
                       else NOISE_RANGE[0] * (1 + 1e-15))
                far = end if near != end else far
            if not (NOISE_RANGE[0] < far < NOISE_RANGE[1]):
                raise _refuse(described, start)
            if meets(far) != meets(near):
                if max(near, far) > 2 * min(near, far):   # only after galloping
                    near, far = _narrowed(meets, near, far)
                return bisect_passing(meets, near, far, rtol=rtol)
            steps += 1
            # 0.1%, 1%, 10%, then doubling; past 64 doublings (a start 1e19 off) the ratio
            # squares, so the whole range takes at most ~80 steps
            near, step = far, (min(1.0, step * 10) if steps < 67 else
                               (1 + step) ** 2 - 1 if step < 1e100 else math.inf)
    except DpverifyValueError as error:
        raise CalibrationError(f"{described} is outside the range this calibration supports: "
                               f"{error}") from error


def _narrowed(meets: Callable[[float], bool], near: float, far: float) -> tuple[float, float]:
    """A bracket of ratio <= 2 inside ``[near, far]`` (either order) whose ends still disagree,
    by bisection on the logarithm: at most ~10 evaluations for the widest bracket."""
    passing_near = meets(near)
    while max(near, far) > 2 * min(near, far):
        middle = math.sqrt(near) * math.sqrt(far)
        if middle in (near, far):
            break
        if meets(middle) == passing_near:
            near = middle
        else:
            far = middle
    return near, far


def root_passing(excess: Callable[[float], float], start: float, *, rtol: float,
                 described: str = "", first_step: float = 0.05,
                 max_evaluations: int = MAX_EVALUATIONS) -> float:
    """Smallest noise level (to ``rtol``) with ``excess(level) <= 0``, by ``toms748`` then bisection.

    ``excess(s)`` is the evaluated bound minus the budget (``<= 0``: the level
    meets it), non-increasing in ``s``. A bracket is found by steps from
    ``start`` that grow geometrically (``first_step`` relative, doubled each
    time); scipy's ``toms748`` (Alefeld, Potra & Shi 1995) narrows it, and
    every evaluation is recorded (a seed within ``rtol`` above the answer is
    verified by two evaluations and returned at once). The answer comes from the records only: the
    smallest evaluated level that passed, and the largest evaluated level
    below it that failed. If they are further apart than ``rtol``,
    :func:`~dpverify._numeric.bisect_passing` finishes between them. So the
    returned level was evaluated and passes, and one within ``rtol`` below it
    was evaluated and fails, whatever the root finder did.

    Bounded: at most ``max_evaluations`` evaluations before the bisection
    and levels inside :data:`NOISE_RANGE`; otherwise :class:`CalibrationError`
    naming ``described``.
    """
    records: dict[float, float] = {}

    def evaluate(level: float, capped: bool = True) -> float:
        level = float(level)   # (the root finder passes numpy floats)
        if level not in records:
            if capped and len(records) >= max_evaluations:
                raise _refuse(described, start)
            value = float(excess(level))
            records[level] = math.inf if math.isnan(value) else value
        return records[level]

    if not (NOISE_RANGE[0] < start < NOISE_RANGE[1]):
        raise _refuse(described, start)
    try:
        below = start / (1 + rtol * 0.99)
        if evaluate(start) <= 0 and evaluate(below) > 0:   # a close seed: verified at once
            return start
        low = high = start
        step = first_step
        if evaluate(start) > 0:        # fails: more noise
            while evaluate(high) > 0:
                low, high = high, high * (1 + step)
                step *= 2
                if not high < NOISE_RANGE[1]:
                    raise _refuse(described, start)
        else:                          # passes: less noise
            while evaluate(low) <= 0:
                low, high = low / (1 + step), low
                step *= 2
                if not low > NOISE_RANGE[0]:
                    raise _refuse(described, start)
        if high / low - 1 > rtol:
            from scipy.optimize import toms748  # deferred: scipy.optimize is slow to load; only calibrations search

            try:   # clipped: an infinite bound (no finite ε) still steers the root finder
                toms748(lambda level: min(evaluate(level), 1e300), low, high,
                        rtol=max(rtol / 8, 4 * 2.0 ** -52), xtol=1e-300)
            except DpverifyError:
                raise
            except (ValueError, RuntimeError, ArithmeticError):
                pass   # scipy gave up: the records still hold a verified bracket
        passing = min(level for level, value in records.items() if value <= 0)
        failing = max(level for level, value in records.items() if value > 0 and level < passing)
        if passing - failing <= rtol * passing:
            return passing
        # bounded too: at most log2((passing - failing) / (rtol passing)) + 1 halvings
        return bisect_passing(lambda level: evaluate(level, capped=False) <= 0, failing, passing,
                              rtol=rtol)
    except DpverifyValueError as error:
        raise CalibrationError(f"{described} is outside the range this calibration supports: "
                               f"{error}") from error
