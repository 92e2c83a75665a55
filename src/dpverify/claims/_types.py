"""The values of the claims registry: a claim, the evidence its check returns, a verdict.

A :class:`Claim` names its paper, its source (theorem, equation, figure), the
statement a reader relies on and the kind of check (symbolic, numeric,
statistical, empirical). Its ``check(scale)`` returns :class:`Evidence`: a
verdict with the reason and the numbers behind it, optionally a derivation
(the printed output of a sympy derivation) and a figure specification.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from dpverify._record_validation import check_record
from dpverify._validation import check_choice

__all__ = [
    "HOLDS",
    "FAILS",
    "CORRECTED",
    "NOT_CHECKABLE",
    "VERDICTS",
    "CHECK_KINDS",
    "SCALES",
    "Evidence",
    "Claim",
    "ClaimResult",
]

#: The claim holds as printed.
HOLDS = "holds"
#: The claim does not hold as printed (and no correction is offered).
FAILS = "fails"
#: The printed claim fails, a stated correction holds.
CORRECTED = "holds after correction"
#: The claim cannot be checked from what the paper and its sources give (the reason says why).
NOT_CHECKABLE = "not checkable"
VERDICTS = (HOLDS, FAILS, CORRECTED, NOT_CHECKABLE)
#: symbolic (sympy re-derivation), numeric (exact accountants), statistical (audits), empirical (simulation).
CHECK_KINDS = ("symbolic", "numeric", "statistical", "empirical")
#: ``quick``: seconds per paper (CI); ``full``: the papers' horizons where affordable.
SCALES = ("quick", "full")


@dataclass(frozen=True)
class Evidence:
    """What a check found: ``verdict`` (one of :data:`VERDICTS`), ``reason``, ``numbers``.

    ``derivation`` is the readable output of a symbolic derivation (or None);
    ``figure`` a plain-data description of a plot (series of x/y values, labels)
    drawn by the report when matplotlib is installed.
    """

    verdict: str
    reason: str
    numbers: Mapping[str, Any] = field(default_factory=dict)
    derivation: str | None = None
    figure: Mapping[str, Any] | None = None

    def __post_init__(self) -> None:
        check_record(self)
        check_choice(self.verdict, "verdict", VERDICTS)


@dataclass(frozen=True)
class Claim:
    """One claim of one paper, with the check that decides it.

    ``key`` is short and unique within the paper (``"thm5-condition"``);
    ``check(scale)`` must be deterministic (fixed seeds) for a given scale.
    """

    paper: str
    key: str
    source: str
    statement: str
    kind: str
    check: Callable[[str], Evidence]

    def __post_init__(self) -> None:
        check_record(self)
        check_choice(self.kind, "kind", CHECK_KINDS)


@dataclass(frozen=True)
class ClaimResult:
    """A claim and its evidence, with the seconds its check took."""

    claim: Claim
    evidence: Evidence
    seconds: float

    def __post_init__(self) -> None:
        check_record(self)

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data (numbers as they are; the figure's series included)."""
        return {
            "paper": self.claim.paper, "key": self.claim.key, "source": self.claim.source,
            "statement": self.claim.statement, "kind": self.claim.kind,
            "verdict": self.evidence.verdict, "reason": self.evidence.reason,
            "numbers": dict(self.evidence.numbers), "derivation": self.evidence.derivation,
            "figure": None if self.evidence.figure is None else dict(self.evidence.figure),
            "seconds": self.seconds,
        }
