"""The values of the claims registry: a claim, the evidence its check returns, a verdict.

A :class:`Claim` names its paper, its location (``source``: theorem, equation,
figure, with page or line), the statement a reader relies on, the paper's own
words (``quote``), the **kind** of claim and the technique of its check
(symbolic, numeric, statistical, empirical). Its ``check(preset)`` returns
:class:`Evidence`: a verdict with the reason and the numbers behind it,
whether the check stayed inside the claim's hypotheses, which result is
authoritative when presets disagree, optionally a derivation (the printed
output of a sympy derivation) and a figure specification.

Kinds and their verdicts (:data:`VERDICTS_BY_KIND`):

* a **paper claim** (a theorem, lemma, equation or figure as printed) *holds*,
  *fails*, *holds under a stated correction* (the correction written out with
  the line that supports it) or is *not checkable* (the reason says why); a
  rate or order claim, which no finite run can prove, is *not refuted* (with
  horizons, runs and the smallest constant factor the test would have
  detected) or *refuted*;
* a **derived consequence** (something the toolkit derives from the paper's
  statements) and **released code** (the authors' public code) are stated as
  a *finding*, never as the paper failing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from dpverify._record_validation import check_record
from dpverify._validation import check_choice, value_error

__all__ = [
    "HOLDS",
    "FAILS",
    "CORRECTED",
    "NOT_CHECKABLE",
    "NOT_REFUTED",
    "REFUTED",
    "FINDING",
    "VERDICTS",
    "PAPER_CLAIM",
    "CONSEQUENCE",
    "RELEASED_CODE",
    "CLAIM_KINDS",
    "VERDICTS_BY_KIND",
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
#: The printed claim fails; a stated correction (written out in the reason) holds.
CORRECTED = "holds under a stated correction"
#: The claim cannot be checked from what the paper and its sources give (the reason says why).
NOT_CHECKABLE = "not checkable"
#: A rate, order or empirical claim that the runs shown did not contradict (the reason gives their power).
NOT_REFUTED = "not refuted"
#: A rate, order or empirical claim that the runs shown contradict beyond their noise.
REFUTED = "refuted"
#: A derived consequence or a released-code finding: stated as found, not as the paper failing.
FINDING = "finding"
VERDICTS = (HOLDS, FAILS, CORRECTED, NOT_CHECKABLE, NOT_REFUTED, REFUTED, FINDING)

#: A theorem, lemma, equation or figure of the paper as printed.
PAPER_CLAIM = "paper claim"
#: Something the toolkit derives from the paper's statements (not claimed by the paper).
CONSEQUENCE = "derived consequence"
#: The authors' public code (repository, file, function, the line quoted).
RELEASED_CODE = "released code"
CLAIM_KINDS = (PAPER_CLAIM, CONSEQUENCE, RELEASED_CODE)
#: The verdicts each kind of claim may receive.
VERDICTS_BY_KIND = {
    PAPER_CLAIM: (HOLDS, FAILS, CORRECTED, NOT_CHECKABLE, NOT_REFUTED, REFUTED),
    CONSEQUENCE: (FINDING, NOT_CHECKABLE),
    RELEASED_CODE: (FINDING, NOT_CHECKABLE),
}
#: symbolic (sympy re-derivation), numeric (exact accountants), statistical (audits), empirical (simulation).
CHECK_KINDS = ("symbolic", "numeric", "statistical", "empirical")
#: ``quick``: seconds per paper (CI); ``full``: the papers' horizons where affordable.
SCALES = ("quick", "full")


@dataclass(frozen=True)
class Evidence:
    """What a check found: ``verdict`` (one of :data:`VERDICTS`), ``reason``, ``numbers``.

    ``derivation`` is the readable output of a symbolic derivation (or None);
    ``figure`` a plain-data description of a plot (series of x/y values, labels)
    drawn by the report when matplotlib is installed. ``inside_hypotheses`` is
    False when the check had to leave the claim's hypotheses (the reason says
    where); ``authority`` names the result that decides the claim when it is
    not this check (a full-preset run, a test), with that result.
    """

    verdict: str
    reason: str
    numbers: Mapping[str, Any] = field(default_factory=dict)
    derivation: str | None = None
    figure: Mapping[str, Any] | None = None
    inside_hypotheses: bool = True
    authority: str | None = None

    def __post_init__(self) -> None:
        check_record(self)
        check_choice(self.verdict, "verdict", VERDICTS)


@dataclass(frozen=True)
class Claim:
    """One claim of one paper, with the check that decides it.

    ``key`` is short and unique within the paper (``"thm5-condition"``);
    ``source`` the location (theorem, equation, figure; page or line where
    the paper's text gives one); ``quote`` the paper's words (required for a
    paper claim; for released code, the offending line); ``kind`` one of
    :data:`CLAIM_KINDS`; ``technique`` one of :data:`CHECK_KINDS`;
    ``check(preset)`` must be deterministic (fixed seeds) for a given preset.
    """

    paper: str
    key: str
    source: str
    statement: str
    technique: str
    check: Callable[[str], Evidence]
    kind: str = PAPER_CLAIM
    quote: str | None = None

    def __post_init__(self) -> None:
        check_record(self)
        check_choice(self.technique, "technique", CHECK_KINDS)
        check_choice(self.kind, "kind", CLAIM_KINDS)
        if self.kind != CONSEQUENCE and not self.quote:
            raise value_error("quote", self.quote, "the paper's words (or the code's line) quoted",
                              f"a {self.kind} needs its quoted statement")


@dataclass(frozen=True)
class ClaimResult:
    """A claim and its evidence, with the seconds its check took."""

    claim: Claim
    evidence: Evidence
    seconds: float

    def __post_init__(self) -> None:
        check_record(self)
        allowed = VERDICTS_BY_KIND[self.claim.kind]
        if self.evidence.verdict not in allowed:
            raise value_error("verdict", self.evidence.verdict, ", ".join(allowed),
                              f"the verdicts of a {self.claim.kind} ({self.claim.paper} "
                              f"{self.claim.key})")

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data (numbers as they are; the figure's series included)."""
        return {
            "paper": self.claim.paper, "key": self.claim.key, "source": self.claim.source,
            "statement": self.claim.statement, "quote": self.claim.quote, "kind": self.claim.kind,
            "technique": self.claim.technique, "verdict": self.evidence.verdict,
            "reason": self.evidence.reason, "inside_hypotheses": self.evidence.inside_hypotheses,
            "authority": self.evidence.authority,
            "numbers": dict(self.evidence.numbers), "derivation": self.evidence.derivation,
            "figure": None if self.evidence.figure is None else dict(self.evidence.figure),
            "seconds": self.seconds,
        }
