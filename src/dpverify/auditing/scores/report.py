"""The result of a canary-score audit: :class:`ScoreAuditReport`, and the attack's estimates.

The report carries the certified bound (``epsilon_lower_bound``, ``violation``)
and, apart from it, **estimates** of how well the scores separate included from
excluded canaries — ``tpr_at_fpr``, ``auroc``, ``max_accuracy`` and their
percentile-bootstrap intervals (:meth:`ScoreAuditReport.bootstrap_interval`).
The estimates are descriptive: no confidence statement about the mechanism
rests on them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from dpverify._record_validation import check_record
from dpverify._validation import (
    check_choice,
    check_confidence,
    check_int_at_least,
    check_probability,
    check_real_array,
    check_seed,
)
from dpverify.auditing.report import _number
from dpverify.errors import DpverifyTypeError

__all__ = ["ScoreAuditReport", "EstimateInterval", "roc_points", "STATISTICS"]

#: Statistics :meth:`ScoreAuditReport.bootstrap_interval` can resample.
STATISTICS = ("auroc", "max_accuracy", "tpr_at_fpr")


def roc_points(in_scores: np.ndarray, out_scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(FPR, TPR)`` of the rules "score ≥ t" at every distinct score, from (0, 0) to (1, 1)."""
    thresholds = np.unique(np.concatenate([in_scores, out_scores]))[::-1]
    in_sorted, out_sorted = np.sort(in_scores), np.sort(out_scores)
    tpr = (in_sorted.size - np.searchsorted(in_sorted, thresholds, side="left")) / in_sorted.size
    fpr = (out_sorted.size - np.searchsorted(out_sorted, thresholds, side="left")) / out_sorted.size
    return np.concatenate([[0.0], fpr]), np.concatenate([[0.0], tpr])


def _upper_hull(fpr: np.ndarray, tpr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The ROC convex hull: what randomising between two thresholds achieves (Fawcett 2006)."""
    hull: list[int] = []
    for index in range(fpr.size):
        while len(hull) >= 2:
            a, b = hull[-2], hull[-1]
            cross = (fpr[b] - fpr[a]) * (tpr[index] - tpr[a]) - (tpr[b] - tpr[a]) * (fpr[index] - fpr[a])
            if cross >= 0:
                hull.pop()
            else:
                break
        hull.append(index)
    return fpr[hull], tpr[hull]


def _tpr_at_fpr(in_scores: np.ndarray, out_scores: np.ndarray, fpr: Any) -> Any:
    rates = np.asarray(fpr, dtype=float)
    hull_fpr, hull_tpr = _upper_hull(*roc_points(in_scores, out_scores))
    values = np.interp(rates, hull_fpr, hull_tpr)
    return float(values) if values.ndim == 0 else values


def _auroc(in_scores: np.ndarray, out_scores: np.ndarray) -> float:
    """Mann–Whitney: ``P[X > Y] + ½ P[X = Y]`` for an in-score X and an out-score Y."""
    out_sorted = np.sort(out_scores)
    below = np.searchsorted(out_sorted, in_scores, side="left")
    not_above = np.searchsorted(out_sorted, in_scores, side="right")
    return float((below.sum() + 0.5 * (not_above - below).sum()) / (in_scores.size * out_scores.size))


def _max_accuracy(in_scores: np.ndarray, out_scores: np.ndarray) -> float:
    """Largest ``(TP + TN)/(n_in + n_out)`` over the rules "score ≥ t" (either way round)."""
    fpr, tpr = roc_points(in_scores, out_scores)
    correct = tpr * in_scores.size + (1 - fpr) * out_scores.size
    total = in_scores.size + out_scores.size
    return float(max(correct.max(), total - correct.min()) / total)


@dataclass(frozen=True)
class EstimateInterval:
    """A percentile-bootstrap interval of an **estimate** (not a bound on the mechanism's privacy)."""

    measure: str
    estimate: float
    lower: float
    upper: float
    resamples: int
    confidence: float


@dataclass(frozen=True)
class ScoreAuditReport:
    """The result of :func:`~dpverify.auditing.scores.audit.audit_scores`.

    Attributes
    ----------
    epsilon_lower_bound
        Certified lower bound on the run's ε at ``delta``, rounded down; holds with
        probability >= ``confidence`` under ``design`` (for ``mode`` "model-based",
        only if the model holds).
    violation
        True when the audit certified that ``claim`` is false (``None`` without a claim).
    design, method, thresholds
        ``"independent-runs"`` or ``"one-run"``; the bound used; how thresholds
        were chosen (``"band"``, ``"bonferroni"``, ``"split"``, ``"fixed"``; never ``"auto"``).
    threshold, lower_threshold
        The best rule's threshold (guess *in* when score ≥ ``threshold``); in one
        run also the score at or below which it guessed *out* (``-inf``: none).
    tpr_lower, fpr_upper
        Independent runs: the certified rates at ``threshold``.
    in_guesses, out_guesses, guesses, correct_guesses
        One run: the ``k+`` and ``k−`` of the best rule, ``r = k+ + k−`` and the
        correct guesses.
    bounds
        Number of tests or bounds the error budget ``1 − confidence`` was split over.
    claim, claimed_epsilon, delta
        The claim's description, its ε at ``delta`` (``None`` without a claim), and δ.
    in_canaries, out_canaries
        Numbers of in- and out-scores.
    seed
        The audit's seed (tie-breaking, the split, the Poisson subsets; for
        :func:`~dpverify.auditing.scores.training.audit_training` also the
        inclusion mask): the same seed replays the audit.
    mode
        ``"certified"`` or ``"model-based: ..."``.
    ratio_epsilon
        The conditional ratio test's ε bound when it ran (``None`` otherwise).
    mu_lower_bound
        ``method="one-run-fdp"``: the largest μ whose μ-GDP curve the audit refuted
        (certified: the run is not μ-GDP for any smaller μ; ``None`` otherwise). Its ε
        at ``delta`` is a bound on ε only if the run's trade-off curve is Gaussian.
    """

    epsilon_lower_bound: float
    violation: bool | None
    design: str
    method: str
    thresholds: str
    confidence: float
    delta: float
    bounds: int
    in_canaries: int
    out_canaries: int
    seconds: float
    threshold: float | None = None
    lower_threshold: float | None = None
    tpr_lower: float | None = None
    fpr_upper: float | None = None
    in_guesses: int | None = None
    out_guesses: int | None = None
    guesses: int | None = None
    correct_guesses: int | None = None
    claim: str | None = None
    claimed_epsilon: float | None = None
    seed: Any = None
    mode: str = "certified"
    ratio_epsilon: float | None = None
    mu_lower_bound: float | None = None
    in_scores: np.ndarray = field(default_factory=lambda: np.zeros(0), repr=False, compare=False)
    out_scores: np.ndarray = field(default_factory=lambda: np.zeros(0), repr=False, compare=False)

    def __post_init__(self) -> None:
        check_record(self)
        for name in ("in_scores", "out_scores"):
            object.__setattr__(self, name, check_real_array(getattr(self, name), name, ndim=1,
                                                            allow_empty=True))
        if not isinstance(self.seed, (np.random.SeedSequence, int, list, tuple, type(None))):
            raise DpverifyTypeError(f"seed={self.seed!r} must be the audit's seed (None, an int, "
                                    f"a sequence of ints or a SeedSequence)")
        if isinstance(self.seed, (int, list, tuple)):
            check_seed(self.seed)

    # ------------------------------------------------------------------ estimates
    def tpr_at_fpr(self, false_positive_rate: Any) -> Any:
        """Estimated largest TPR at ``false_positive_rate`` (ROC convex hull; an estimate).

        Randomising between two thresholds reaches every point of the hull
        (Fawcett 2006), as jax_privacy's ``tpr_at_given_fpr``.
        """
        rates = check_real_array(np.atleast_1d(false_positive_rate), "false_positive_rate",
                                 low=0.0, high=1.0).reshape(np.shape(false_positive_rate))
        return _tpr_at_fpr(self.in_scores, self.out_scores, rates)

    @property
    def auroc(self) -> float:
        """Estimated area under the ROC curve of the scores (Mann–Whitney; ties count ½)."""
        return _auroc(self.in_scores, self.out_scores)

    @property
    def max_accuracy(self) -> float:
        """Estimated best accuracy of a threshold rule on these canaries."""
        return _max_accuracy(self.in_scores, self.out_scores)

    def bootstrap_interval(self, measure: str = "auroc", *, false_positive_rate: float = 0.01,
                           resamples: int = 1000, confidence: float = 0.95,
                           seed: Any = None) -> EstimateInterval:
        """Percentile-bootstrap interval of an estimate (Efron 1979) — **not** a privacy bound.

        Both sides are resampled with replacement ``resamples`` times;
        ``measure`` is one of :data:`STATISTICS` (at ``false_positive_rate`` for
        ``"tpr_at_fpr"``).
        """
        measure = check_choice(measure, "measure", STATISTICS)
        resamples = check_int_at_least(resamples, "resamples", 10)
        confidence = check_confidence(confidence)
        fpr = check_probability(false_positive_rate, "false_positive_rate")
        rng = np.random.default_rng(check_seed(seed))
        compute = {"auroc": _auroc, "max_accuracy": _max_accuracy,
                   "tpr_at_fpr": lambda a, b: _tpr_at_fpr(a, b, fpr)}[measure]
        values = np.array([compute(rng.choice(self.in_scores, self.in_scores.size),
                                   rng.choice(self.out_scores, self.out_scores.size))
                           for _ in range(resamples)])
        tail = (1 - confidence) / 2
        low, high = np.quantile(values, [tail, 1 - tail])
        return EstimateInterval(measure, float(compute(self.in_scores, self.out_scores)),
                                float(low), float(high), resamples, confidence)

    # ------------------------------------------------------------------ output
    def summary(self) -> str:
        """A short multi-line report (also ``str(report)``)."""
        if self.violation is None:
            verdict = "no claim given"
        elif self.violation:
            verdict = "VIOLATION: the claim is refuted"
        else:
            verdict = "no violation found (the claim may still be false)"
        label = "" if self.mode == "certified" else f"  [{self.mode.upper()}]"
        lines = [f"canary-score audit ({self.design}, {self.method}): {verdict}{label}",
                 f"  epsilon lower bound  {self.epsilon_lower_bound:.6g} at delta = {self.delta!r} "
                 f"(confidence {self.confidence:g}, whole audit)"]
        if self.claim is not None:
            claimed = "" if self.claimed_epsilon is None else f" (epsilon {self.claimed_epsilon:.6g} " \
                                                              f"at this delta)"
            lines.append(f"  claim                {self.claim}{claimed}")
        if self.design == "one-run":
            lines.append(f"  guesses              {self.guesses} ({self.in_guesses} 'in' above "
                         f"{self.threshold:.6g}, {self.out_guesses} 'out' at or below "
                         f"{self.lower_threshold:.6g}); {self.correct_guesses} correct")
        else:
            lines.append(f"  rule                 'in' when score >= {self.threshold:.6g}: "
                         f"TPR >= {self.tpr_lower:.6g}, FPR <= {self.fpr_upper:.6g}")
        if self.ratio_epsilon is not None:
            lines.append(f"  conditional ratio    epsilon >= {self.ratio_epsilon:.6g} (Poisson subsets)")
        if self.mu_lower_bound is not None:
            lines.append(f"  mu-GDP refuted       for every mu <= {self.mu_lower_bound:.6g} (f-DP "
                         f"recursion on the Gaussian curve; certified)")
        lines += [f"  canaries             {self.in_canaries} in, {self.out_canaries} out; thresholds "
                  f"{self.thresholds}; Bonferroni over {self.bounds}",
                  f"  estimates (not bounds)  AUROC {self.auroc:.4f}, max accuracy "
                  f"{self.max_accuracy:.4f}, TPR at FPR 0.01 {self.tpr_at_fpr(0.01):.4f}",
                  f"  seed {self.seed!r}; time {self.seconds:.3f} s"]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.summary()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (infinities written as ``"inf"`` / ``"-inf"``)."""
        def number(value: Any) -> Any:
            return None if value is None else _number(float(value))
        return {
            "epsilon_lower_bound": number(self.epsilon_lower_bound), "violation": self.violation,
            "design": self.design, "method": self.method, "thresholds": self.thresholds,
            "threshold": number(self.threshold), "lower_threshold": number(self.lower_threshold),
            "tpr_lower": number(self.tpr_lower), "fpr_upper": number(self.fpr_upper),
            "in_guesses": self.in_guesses, "out_guesses": self.out_guesses,
            "guesses": self.guesses, "correct_guesses": self.correct_guesses, "claim": self.claim,
            "claimed_epsilon": number(self.claimed_epsilon), "delta": self.delta,
            "confidence": self.confidence, "bounds": self.bounds,
            "in_canaries": self.in_canaries, "out_canaries": self.out_canaries,
            "seed": self.seed if self.seed is None or isinstance(self.seed, int) else repr(self.seed),
            "mode": self.mode, "ratio_epsilon": number(self.ratio_epsilon),
            "mu_lower_bound": number(self.mu_lower_bound),
            "seconds": self.seconds, "auroc": self.auroc, "max_accuracy": self.max_accuracy,
            "tpr_at_fpr_0.01": self.tpr_at_fpr(0.01),
        }
