"""Protocols shared by every mechanism: an output law and a mechanism that has one.

A mechanism is a frozen value holding its parameters; ``law_on(x)`` returns the
exact law of its output on input ``x`` (for additive noise, the noise law shifted
by ``x``). Laws hold no RNG and know no accountant (STYLE rule 4).
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

__all__ = ["DiscreteLaw", "Mechanism"]


@runtime_checkable
class DiscreteLaw(Protocol):
    """An exact law on the integers (or on a finite set of integer codes).

    ``pmf``/``logpmf``/``cdf`` take an integer (or an integer array) and return
    exact values: ``fractions.Fraction`` where the law is rational, otherwise
    mpmath numbers at the working precision (``pmf_array`` returns floats for
    vectorised goodness-of-fit tests). ``support()`` returns ``(low, high)``,
    with ``None`` for an unbounded side.
    """

    def pmf(self, outcome: int) -> Any: ...

    def logpmf(self, outcome: int) -> Any: ...

    def cdf(self, outcome: int) -> Any: ...

    def support(self) -> tuple[int | None, int | None]: ...


@runtime_checkable
class Mechanism(Protocol):
    """Anything with an exact output law on an input."""

    def law_on(self, x: Any) -> Any: ...
