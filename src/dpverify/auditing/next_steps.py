"""What to try after an (ε, δ) audit that found nothing: where counting is blind, and what is not.

A counting audit certifies ``ε_lb = ln((p_low − δ)/p'_high)`` from the counts of
an event ``S`` on ``n`` certifying outputs per side, each bound at level
``α = (1 − confidence)/bounds``. Since ``p'_high >= 1 − α^{1/n}`` whatever the
count, a certified violation of an (ε, δ) claim needs an event of probability

.. math:: P[M(x) ∈ S] > p_{\\min} = δ + e^{ε}\\,(1 − α^{1/n})

under one input and ``P[M(x) ∈ S] − e^ε P[M(x') ∈ S] > δ`` (on the event that
the audit's bounds hold, probability >= ``confidence``). A Gaussian mechanism
violating an approximate claim at a large ε does so only on events of
probability near δ, far below ``p_min``: counting at this size is **blind** to
it, and the report should say so, and name the audits that are not —
:func:`~dpverify.auditing.model.audit_model` (``family="gaussian"``, under the
stated model) and :func:`~dpverify.auditing.curves.audit_curve` against
:func:`~dpverify.auditing.model.weakest_profile` (model-free: a Gaussian that
misses the claim at ε misses the weakest Gaussian's curve by far more at
smaller ε, on events of large probability).

:func:`counting_hint` computes it (``docs/proofs/auditing.md`` §12):

* **blind to Gaussians up to** ``blind_epsilon``: the largest ε(δ) of a
  Gaussian pair ``N(0, σ²)`` vs ``N(Δ, σ²)`` that no event can refute at this
  size (Neyman–Pearson: threshold events are the best, and the test reduces
  to one closed form per σ; the blind set is an interval in ``Δ/σ``);
* the hint is given when that reaches ``(1 + HINT_MARGIN)·ε``, with the
  samples per side each audit would need to refute a reference Gaussian whose
  ε(δ) is that much above the claim: counting (a necessary count: at least),
  ``audit_model`` (the χ² bound on σ reaching the weakest σ, at its median)
  and ``audit_curve`` (normal approximation of the best threshold event over
  the curve's points; about).

The blindness statement is a bound (it holds with probability >=
``confidence``); the sample counts for ``audit_model`` and ``audit_curve`` are
planning estimates at power about 1/2.
"""

from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats

from dpverify._numeric import bisect_passing
from dpverify._record_validation import check_record
from dpverify._validation import check_confidence, check_delta, check_epsilon, check_int_at_least
from dpverify.auditing._pipeline.engine import SEARCH_CAP
from dpverify.auditing.model import gaussian_epsilon_lower
from dpverify.auditing.planning import largest_certifiable_epsilon

__all__ = ["CountingHint", "counting_hint", "HINT_MARGIN", "CURVE_BOUNDS"]

#: The hint is given when counting is blind to Gaussians whose ε(δ) is this much (relative)
#: above the claim; its sample counts are for a reference Gaussian that far above.
HINT_MARGIN = 0.05
#: One-sided bounds assumed for a default :func:`~dpverify.auditing.curves.audit_curve`
#: (eight points; its search keeps up to 20 events per direction, two bounds each).
CURVE_BOUNDS = 80
#: Most samples per side the hint plans for (beyond: reported as ``inf``).
_MAX_SAMPLES = 10.0 ** 15


@dataclass(frozen=True)
class CountingHint:
    """Why a counting audit that found nothing could not have found anything, and what can.

    Attributes
    ----------
    certify_samples, confidence, bounds
        The audit's certifying outputs per side, confidence and number of one-sided bounds.
    ceiling
        The largest ε any event can certify at this size and δ
        (:func:`~dpverify.auditing.planning.largest_certifiable_epsilon`).
    smallest_probability
        ``p_min``: the least probability, under one input, of an event that
        certifies a violation at this size.
    blind_epsilon
        The largest ε at the claimed δ of a Gaussian mechanism that counting at
        this size cannot refute (with probability >= ``confidence``), rounded down.
    reference_epsilon
        ε at the claimed δ of the reference Gaussian the sample counts are for:
        ``(1 + HINT_MARGIN)`` times the claim.
    counting_samples
        Samples per side a counting audit needs, at least, to refute the reference.
    model_samples
        Samples per side :func:`~dpverify.auditing.model.audit_model` with
        ``family="gaussian"`` needs to refute it (median case).
    curve_samples
        Samples per side ``audit_curve(..., profile=weakest_profile("gaussian", ε, δ))``
        needs to refute it (normal approximation, median case).
    """

    epsilon: float
    delta: float
    certify_samples: int
    confidence: float
    bounds: int
    ceiling: float
    smallest_probability: float
    blind_epsilon: float
    reference_epsilon: float
    counting_samples: float
    model_samples: float
    curve_samples: float

    def __post_init__(self) -> None:
        check_record(self)

    def lines(self) -> list[str]:
        """The lines ``str(report)`` of an :class:`~dpverify.auditing.AuditReport` ends with.

        Prose wraps at 100 columns under the report's label column; each
        suggested call stays on one line of its own, so it can be copied.
        """
        claim = f"epsilon={self.epsilon!r}, delta={self.delta!r}"
        indent = " " * _LABEL_WIDTH
        prose = [
            f"  counting's reach     no event certifies more than {self.ceiling:.4g} with "
            f"{self.certify_samples} certifying samples per side; a violation must show on an "
            f"event of probability >= {self.smallest_probability:.3g} under one input",
            f"  blind spot           counting at this size cannot refute a Gaussian mechanism "
            f"whose epsilon at delta={self.delta!r} is up to {self.blind_epsilon:.4g} (confidence "
            f"{self.confidence:g}); one at {self.reference_epsilon:.4g} needs "
            f">= {_count(self.counting_samples)} samples per side",
            "  try (model-based)    if the outputs are f(data) + Gaussian noise, this refutes "
            "that one:",
            "  try (model-free)     about what refutes that one, with no model:",
        ]
        calls = [
            f"audit_model(sampler, x, x_prime, family='gaussian', sensitivity=<|f(x) - f(x')|_2>, "
            f"{claim}, samples={_literal(self.model_samples)})",
            f"audit_curve(sampler, x, x_prime, profile=weakest_profile('gaussian', "
            f"{self.epsilon!r}, {self.delta!r}, sensitivity=...), "
            f"samples={_literal(self.curve_samples)})",
        ]
        lines = [wrapped for line in prose[:2] for wrapped in _wrap(line, indent)]
        for line, call in zip(prose[2:], calls):
            lines += _wrap(line, indent) + [indent + call]
        return lines

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (infinity written as ``"inf"``)."""
        return {key: (value if not isinstance(value, float) or math.isfinite(value) else "inf")
                for key, value in (("ceiling", self.ceiling),
                                   ("smallest_probability", self.smallest_probability),
                                   ("blind_epsilon", self.blind_epsilon),
                                   ("reference_epsilon", self.reference_epsilon),
                                   ("counting_samples", self.counting_samples),
                                   ("model_samples", self.model_samples),
                                   ("curve_samples", self.curve_samples))}


_WIDTH = 100  # columns of a hint line; continuation lines indent past the label column
_LABEL_WIDTH = 23  # "  blind spot           " — the report's label column


def _wrap(line: str, indent: str) -> list[str]:
    return textwrap.wrap(line, width=_WIDTH, subsequent_indent=indent, break_long_words=False,
                         break_on_hyphens=False)


def _literal(value: float) -> str:
    """``value`` as a Python literal a suggested call can take (``22_978``), ``...`` if infinite."""
    return f"{math.ceil(value):_}" if math.isfinite(value) else "..."


def _count(value: float) -> str:
    if not math.isfinite(value):
        return "inf"
    return f"{value:,.0f}" if value < 1e7 else f"{value:.2g}"


def _gaussian_delta(mu: float, epsilon: float) -> float:
    """δ(ε) of the Gaussian pair at ``mu = Δ/σ`` in floats (Balle & Wang 2018, Thm 8)."""
    first = stats.norm.cdf(mu / 2 - epsilon / mu)
    second = math.exp(epsilon + stats.norm.logcdf(-mu / 2 - epsilon / mu))
    return max(0.0, first - second)


def _reach(certify_samples: float, confidence: float, bounds: int) -> float:
    """``1 − α^{1/n}``: the smallest ``p'_high`` an audit of ``n`` certifying outputs reports."""
    alpha = (1 - confidence) / bounds
    return -math.expm1(math.log(alpha) / certify_samples)


def _blind(mu: float, epsilon: float, delta: float, smallest: float) -> bool:
    """No threshold event of ``N(μ, 1)`` vs ``N(0, 1)`` has ``P > smallest`` and ``P − e^ε P' > δ``."""
    if smallest >= 1:
        return True
    last = mu + float(stats.norm.isf(smallest))  # P[N(μ, 1) > t] > smallest  <=>  t < last
    best = min(epsilon / mu + mu / 2, last)      # the gap P − e^ε P' rises up to ε/μ + μ/2
    gap = stats.norm.sf(best - mu) - math.exp(epsilon + stats.norm.logsf(best))
    return bool(gap <= delta * (1 + 1e-9))


def _mu_at(epsilon: float, delta: float) -> float:
    """``Δ/σ`` of the Gaussian whose δ(ε) is ``delta`` (floats; δ(ε) rises with μ)."""
    high = 1.0
    while _gaussian_delta(high, epsilon) < delta:
        high *= 2
    return bisect_passing(lambda mu: _gaussian_delta(mu, epsilon) >= delta, 1e-300, high,
                          rtol=1e-12)


def _samples_for(certify_samples: float) -> float:
    """Samples per side of an ``events="auto"`` audit with this many certifying outputs."""
    return min(certify_samples * 1.5, certify_samples + SEARCH_CAP)


def _counting_samples(mu: float, epsilon: float, delta: float, confidence: float,
                      bounds: int) -> float:
    """The least samples per side at which the Gaussian at ``mu`` is no longer blind."""
    def sees(n: float) -> bool:
        return not _blind(mu, epsilon, delta, delta + math.exp(epsilon) *
                          _reach(n, confidence, bounds))

    if not sees(_MAX_SAMPLES):
        return math.inf
    return _samples_for(bisect_passing(sees, 1.0, _MAX_SAMPLES, rtol=1e-3))


def _model_samples(mu: float, mu_weakest: float, confidence: float) -> float:
    """``audit_model`` (Gaussian): the χ² bound on σ at its median falls below the weakest σ."""
    ratio = (mu_weakest / mu) ** 2  # (σ / σ_weakest)²

    def refutes(dof: float) -> bool:  # σ_high = σ sqrt(dof / χ²_α(dof)) < σ_weakest
        return float(stats.chi2.ppf(1 - confidence, dof)) / dof > ratio

    if not refutes(2 * _MAX_SAMPLES):
        return math.inf
    return math.ceil(bisect_passing(refutes, 1.0, 2 * _MAX_SAMPLES, rtol=1e-4) / 2) + 1


def _curve_samples(mu: float, mu_weakest: float, epsilon: float, confidence: float) -> float:
    """``audit_curve`` against the weakest Gaussian: the best threshold event at ε' <= ε.

    Normal approximation of the certification condition
    ``p_low − δ_w(ε') > e^{ε'} p'_high`` with ``p_low ≈ p − z√(p(1−p)/n)``.
    """
    z = float(stats.norm.isf((1 - confidence) / CURVE_BOUNDS))
    best = math.inf
    for point in np.linspace(epsilon / 16, epsilon, 16):
        claimed = _gaussian_delta(mu_weakest, float(point))
        thresholds = np.linspace(-4.0, mu + 8.0, 400)
        p = stats.norm.sf(thresholds - mu)
        p_prime = stats.norm.sf(thresholds)
        weight = math.exp(point)
        gap = p - claimed - weight * p_prime
        spread = np.sqrt(p * (1 - p)) + weight * np.sqrt(p_prime * (1 - p_prime))
        with np.errstate(divide="ignore", invalid="ignore"):
            needed = np.where(gap > 0, (z * spread / gap) ** 2, np.inf)
        best = min(best, float(np.min(needed)))
    return math.inf if best > _MAX_SAMPLES else math.ceil(_samples_for(best))


def counting_hint(*, epsilon: float, delta: float, certify_samples: int, confidence: float,
                  bounds: int) -> CountingHint | None:
    """The hint for an (ε, δ) audit that found no violation, or ``None`` when none is due.

    Parameters
    ----------
    epsilon, delta
        The claim (``delta > 0``; pure claims get no hint: ``None``).
    certify_samples, confidence, bounds
        The audit's certifying outputs per side, confidence and one-sided bounds.

    Returns
    -------
    CountingHint or None
        A hint when counting at this size cannot refute a Gaussian whose ε at
        δ is ``(1 + HINT_MARGIN)·ε`` (module docstring), else ``None``.

    Examples
    --------
    The classical Gaussian calibration at ε = 10, δ = 1e-5 audited by counting
    with 10^6 samples per side (its true ε is 10.39):

    >>> hint = counting_hint(epsilon=10.0, delta=1e-5, certify_samples=666_667,
    ...                      confidence=0.95, bounds=12)
    >>> hint.blind_epsilon > 10.5, hint.model_samples < 10_000, hint.counting_samples > 1e8
    (True, True, True)
    >>> counting_hint(epsilon=1.0, delta=1e-5, certify_samples=666_667, confidence=0.95,
    ...               bounds=12) is None
    True
    """
    epsilon = check_epsilon(epsilon, "epsilon", allow_zero=False)
    delta = check_delta(delta, "delta")
    certify_samples = check_int_at_least(certify_samples, "certify_samples", 1)
    confidence = check_confidence(confidence)
    bounds = check_int_at_least(bounds, "bounds", 1)
    if delta == 0 or epsilon > 600:  # e^ε overflows beyond
        return None
    smallest = delta + math.exp(epsilon) * _reach(certify_samples, confidence, bounds)
    mu_weakest = _mu_at(epsilon, delta)
    reference = epsilon * (1 + HINT_MARGIN)
    mu_reference = max(_mu_at(reference, delta), mu_weakest)
    if not _blind(mu_reference, epsilon, delta, smallest):
        return None
    high = mu_reference * 2
    while _blind(high, epsilon, delta, smallest):
        high *= 2
        if high > 1e6:
            break
    mu_blind = high if high > 1e6 else bisect_passing(
        lambda mu: _blind(mu, epsilon, delta, smallest), mu_reference, high, rtol=1e-9)
    return CountingHint(
        epsilon=epsilon, delta=delta, certify_samples=certify_samples, confidence=confidence,
        bounds=bounds,
        ceiling=largest_certifiable_epsilon(certify_samples, confidence=confidence, delta=delta,
                                            bounds=bounds),
        smallest_probability=min(1.0, smallest),
        blind_epsilon=gaussian_epsilon_lower(mu_blind * (1 - 1e-9), delta),
        reference_epsilon=reference,
        counting_samples=_counting_samples(mu_reference, epsilon, delta, confidence, bounds),
        model_samples=_model_samples(mu_reference, mu_weakest, confidence),
        curve_samples=_curve_samples(mu_reference, mu_weakest, epsilon, confidence))
