"""Audit results as frozen values: :class:`AuditReport` and :class:`CurveAuditReport`.

Both print as a short multi-line report (``str(report)``) and convert to a
JSON-ready dict (``report.to_dict()``). Their ``violation`` is true only when a
lower bound certified at the stated confidence — for the whole audit, search
and every candidate event included — exceeds the claim.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Any

from dpverify._record_validation import check_record
from dpverify._validation import shown
from dpverify.auditing.estimators import ConfidenceInterval
from dpverify.auditing.events import OutputEvent
from dpverify.auditing.next_steps import CountingHint
from dpverify.errors import DpverifyTypeError
from dpverify.guarantees import ApproxDP, PureDP

__all__ = ["AuditReport", "CurvePoint", "CurveAuditReport"]

_SIDES = {0: ("x", "x'"), 1: ("x'", "x")}


def _guarantee_text(guarantee: Any) -> str:
    if isinstance(guarantee, PureDP):
        return f"{guarantee.epsilon!r}-DP"
    if isinstance(guarantee, ApproxDP):
        return f"({guarantee.epsilon!r}, {guarantee.delta!r})-DP"
    description = getattr(guarantee, "description", "")
    return description or type(guarantee).__name__


def _number(value: float) -> float | str:
    """JSON has no infinity: write it as the string "inf"."""
    return value if math.isfinite(value) else ("inf" if value > 0 else "-inf")


@dataclass(frozen=True)
class AuditReport:
    """The result of :func:`dpverify.auditing.audit`.

    Attributes
    ----------
    guarantee
        The claim: :class:`~dpverify.guarantees.PureDP` (δ = 0) or
        :class:`~dpverify.guarantees.ApproxDP`.
    epsilon_lower_bound
        ``ln((p_low − δ)/p'_high)`` of the best certified event, rounded down;
        0 when nothing is certified. Holds with probability >= ``confidence``.
    event
        The event ``S`` that gave it (``event.description`` is readable;
        ``event(outputs)`` returns indicators).
    direction
        ``"x, x'"``: ``p`` is ``P[M(x) ∈ S]`` and ``p'`` is ``P[M(x') ∈ S]``;
        ``"x', x"``: the reverse.
    p_hat, p_prime_hat
        Empirical probabilities of ``S`` on the certification split.
    p_interval, p_prime_interval
        Their one-sided simultaneous confidence intervals ``[p_low, 1]`` and
        ``[0, p'_high]`` (the two bounds actually used).
    samples
        Outputs drawn per side (search plus certification).
    seconds
        Wall-clock time of the audit.
    confidence
        Probability that every bound of the audit holds together.
    violation
        ``epsilon_lower_bound > guarantee.epsilon``.
    search_samples, certify_samples
        The split of ``samples`` (the search never certifies).
    bounds
        Number of bounds the false-alarm budget ``1 − confidence`` was split
        over (Bonferroni): two one-sided bounds per candidate event, and for
        pure-ε audits also its conditional ratio bound.
    kind
        The output kind the event search saw (``"continuous scalar"``, ...).
    stages
        Sequential audits (``samples="auto"``): ``(samples per side, ε lower
        bound)`` of every stage run; empty for a fixed-size audit.
    mode
        ``"fixed"``, ``"sequential"``, or ``"model: ..."`` (a model-based
        bound, valid only under the stated noise model).
    ratio_lower
        Pure-ε audits: the certified lower bound on ``p/p'`` of the event by
        the conditional test on Poisson-sized prefixes
        (:func:`~dpverify.auditing.estimators.conditional_ratio_lower`);
        ``None`` when the audit has none.
    conditional
        ``epsilon_lower_bound`` is ``ln(ratio_lower)`` (better than
        ``ln(p_low/p'_high)``, which is then smaller).
    reproducible
        ``False`` when the sampler draws from a source the seed cannot set
        (:func:`~dpverify.auditing.adapters.sampler_from_calls` with
        ``seeding="none"``, e.g. OpenDP): the same seed gives another report.

    next_step
        No violation found and counting at this size could not have refuted
        the claim for a Gaussian mechanism near it: the numbers, and the
        audits that can (:class:`~dpverify.auditing.next_steps.CountingHint`);
        ``None`` otherwise.
    """

    guarantee: PureDP | ApproxDP
    epsilon_lower_bound: float
    event: OutputEvent
    direction: str
    p_hat: float
    p_prime_hat: float
    p_interval: ConfidenceInterval
    p_prime_interval: ConfidenceInterval
    samples: int
    seconds: float
    confidence: float
    violation: bool
    search_samples: int = 0
    certify_samples: int = 0
    bounds: int = 0
    kind: str = ""
    stages: tuple[tuple[int, float], ...] = ()
    mode: str = "fixed"
    ratio_lower: float | None = None
    conditional: bool = False
    reproducible: bool = True
    next_step: CountingHint | None = None

    def __post_init__(self) -> None:
        check_record(self)

    @property
    def delta(self) -> float:
        """The claimed δ (0 for pure DP)."""
        return getattr(self.guarantee, "delta", 0.0)

    def __str__(self) -> str:
        first, second = self.direction.split(", ")
        verdict = ("VIOLATION: the claim is refuted" if self.violation
                   else "no violation found (the claim may still be false)")
        lines = [
            f"audit of a {_guarantee_text(self.guarantee)} claim: {verdict}",
            f"  epsilon lower bound  {self.epsilon_lower_bound:.6g}  "
            f"(claimed {self.guarantee.epsilon!r}; confidence {self.confidence:g}, whole audit)",
            f"  event S              {self.event.description}  [{self.event.family}]",
            f"  {'P[M(' + first + ') in S]':<21}{self.p_hat:.6g}  (>= {self.p_interval.lower:.6g})",
            f"  {'P[M(' + second + ') in S]':<21}{self.p_prime_hat:.6g}  "
            f"(<= {self.p_prime_interval.upper:.6g})",
            (f"  bound                ln(p/p' >= {self.ratio_lower:.6g}): conditional test on "
             f"Poisson-sized prefixes" if self.conditional else
             f"  bound                ln((p_low - delta) / p'_high), delta = {self.delta!r}"),
            f"  samples per side     {self.samples} ({self.search_samples} search, "
            f"{self.certify_samples} certify; {self.kind} outputs)",
            (f"  multiple testing     Bonferroni over {self.bounds} bounds "
             f"({2 * self.bounds // 3} one-sided, {self.bounds // 3} conditional)"
             if self.ratio_lower is not None else
             f"  multiple testing     Bonferroni over {self.bounds} one-sided bounds"),
            f"  time                 {self.seconds:.3f} s",
        ]
        if not self.reproducible:
            lines.insert(-1, "  reproducible         no: the sampler's source is not set by the seed")
        if self.stages:
            lines.insert(-1, "  sequential stages    " + ", ".join(
                f"{n} -> {b:.4g}" for n, b in self.stages)
                + f" (confidence split over the planned stages; {self.samples} samples per "
                  f"side in all)")
        if self.next_step is not None:
            lines += self.next_step.lines()
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (infinity written as ``"inf"``)."""
        return {
            "claimed_epsilon": self.guarantee.epsilon,
            "claimed_delta": self.delta,
            "epsilon_lower_bound": _number(self.epsilon_lower_bound),
            "violation": self.violation,
            "event": self.event.description,
            "family": self.event.family,
            "direction": self.direction,
            "p_hat": self.p_hat,
            "p_prime_hat": self.p_prime_hat,
            "p_lower": self.p_interval.lower,
            "p_prime_upper": self.p_prime_interval.upper,
            "samples": self.samples,
            "search_samples": self.search_samples,
            "certify_samples": self.certify_samples,
            "bounds": self.bounds,
            "confidence": self.confidence,
            "seconds": self.seconds,
            "kind": self.kind,
            "mode": self.mode,
            "stages": [[n, _number(b)] for n, b in self.stages],
            "ratio_lower": None if self.ratio_lower is None else _number(self.ratio_lower),
            "conditional": self.conditional,
            "reproducible": self.reproducible,

            "next_step": None if self.next_step is None else self.next_step.to_dict(),
        }


@dataclass(frozen=True)
class CurvePoint:
    """One audited point of a privacy profile: the claim ``δ(ε)`` and what was certified.

    ``delta_lower_bound`` bounds the pair's ``δ(ε)`` from below;
    ``epsilon_lower_bound`` bounds the smallest ε with δ(ε) <= ``claimed_delta``;
    ``violation`` is ``epsilon_lower_bound > epsilon``.
    """

    epsilon: float
    claimed_delta: float
    delta_lower_bound: float
    epsilon_lower_bound: float
    event: OutputEvent
    violation: bool

    def __post_init__(self) -> None:
        check_record(self)

    @property
    def excess(self) -> float:
        """``epsilon_lower_bound − epsilon``: positive exactly at a violation."""
        return self.epsilon_lower_bound - self.epsilon


@dataclass(frozen=True)
class CurveAuditReport:
    """The result of :func:`dpverify.auditing.audit_curve`.

    ``points`` holds every audited ε; ``most_violated`` is the point of
    largest ``excess`` (the closest to a violation when there is none);
    ``violation`` is true when any point is violated. All points' bounds hold
    together with probability >= ``confidence`` (one Bonferroni split over
    ``bounds`` one-sided bounds covers the whole curve).
    """

    guarantee: Any
    points: tuple[CurvePoint, ...]
    most_violated: CurvePoint
    violation: bool
    samples: int
    seconds: float
    confidence: float
    bounds: int = 0
    kind: str = ""

    def __post_init__(self) -> None:
        check_record(self)
        if self.guarantee is None or isinstance(self.guarantee, (numbers.Number, str, bytes, list,
                                                                 dict)):
            raise DpverifyTypeError(f"guarantee={shown(self.guarantee)} must be the claimed "
                                    f"guarantee or profile, not plain data")

    def __str__(self) -> str:
        verdict = "VIOLATION: the claimed curve is refuted" if self.violation else \
            "no violation found"
        lines = [f"curve audit of {_guarantee_text(self.guarantee)}: {verdict}",
                 f"  {'epsilon':>10}  {'claimed delta':>14}  {'delta lower bd':>14}  "
                 f"{'eps lower bd':>12}"]
        for point in self.points:
            mark = "  <- violated" if point.violation else ""
            if point is self.most_violated:
                mark += "  (most violated)" if point.violation else "  (closest)"
            lines.append(f"  {point.epsilon:>10.4g}  {point.claimed_delta:>14.4g}  "
                         f"{point.delta_lower_bound:>14.4g}  {point.epsilon_lower_bound:>12.4g}"
                         f"{mark}")
        lines += [f"  event at the most violated point: {self.most_violated.event.description}",
                  f"  samples per side {self.samples}; confidence {self.confidence:g} for the "
                  f"whole curve (Bonferroni over {self.bounds} bounds); {self.seconds:.3f} s"]
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary."""
        return {
            "violation": self.violation,
            "points": [{"epsilon": p.epsilon, "claimed_delta": p.claimed_delta,
                        "delta_lower_bound": p.delta_lower_bound,
                        "epsilon_lower_bound": _number(p.epsilon_lower_bound),
                        "violation": p.violation, "event": p.event.description}
                       for p in self.points],
            "most_violated_epsilon": self.most_violated.epsilon,
            "samples": self.samples, "seconds": self.seconds, "confidence": self.confidence,
            "bounds": self.bounds,
        }
