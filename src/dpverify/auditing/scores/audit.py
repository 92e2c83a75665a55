"""``audit_scores``: from canary scores to a certified ε lower bound, under a stated design.

The design says how the scores were produced, and decides which bounds are
valid (``docs/proofs/auditing.md`` §14–15):

========================  ==========================================  ==============================
design                    what the caller states                      methods
========================  ==========================================  ==============================
``"independent-runs"``    each score from its own independent run     ``"clopper-pearson"``,
                          (the canary in it, or not)                  ``"conditional-ratio"``
``"one-run"``             m canaries in one run, each included        ``"one-run"``,
                          independently with probability ½            ``"one-run-fdp"``
independent runs          (a model: the trade-off is Gaussian)        ``"gdp-model"`` (model-based)
========================  ==========================================  ==============================

A method invalid for the design is refused with the reason: Clopper–Pearson
needs independent scores, which one run does not give (all canaries share the
run's noise); the one-run bound needs the ½ inclusion lottery, which separate
runs do not have.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from dpverify._validation import (
    check_choice,
    check_confidence,
    check_delta,
    check_epsilon,
    check_finite,
    check_real_array,
    check_seed,
    value_error,
)
from dpverify.auditing.scores._band import BAND_MAX_SCORES, band_bounds
from dpverify.auditing.scores._claims import ScoreClaim, read_claim
from dpverify.auditing.scores._fdp_one_run import fdp_one_run_bound, fdp_one_run_split_bound
from dpverify.auditing.scores._gdp import GDP_MODE, gdp_epsilon_lower, gdp_mu_lower
from dpverify.auditing.scores._independent import (
    RATIO_SHARE,
    ThresholdBounds,
    best_threshold,
    curve_violated,
    grid_bounds,
    ratio_bound,
    split_threshold,
    threshold_bounds,
)
from dpverify.auditing.scores._one_run import (
    SPLIT_FROM_CANARIES_TIMES_DELTA,
    one_run_bound,
    one_run_split_bound,
)
from dpverify.auditing.scores.report import ScoreAuditReport
from dpverify.errors import DpverifyValueError, UnsupportedError

__all__ = ["audit_scores", "DESIGNS", "SCORE_METHODS", "THRESHOLD_STRATEGIES", "MAX_CANARIES",
           "MAX_STATED"]

#: The designs a score audit can be stated under.
DESIGNS = ("independent-runs", "one-run")
#: Bound methods (``"auto"`` picks the design's certified default).
SCORE_METHODS = ("auto", "clopper-pearson", "conditional-ratio", "one-run", "one-run-fdp",
                 "gdp-model")
#: How thresholds are chosen (or a number, or a sequence of numbers: thresholds stated in
#: advance); ``"auto"``:
#: independent runs ``"band"`` up to :data:`BAND_MAX_SCORES` scores a side, else ``"bonferroni"``;
#: one run ``"split"`` for ``method="one-run"`` at ``m·δ ≥`` :data:`SPLIT_FROM_CANARIES_TIMES_DELTA`,
#: else ``"bonferroni"`` (so ``method="auto"`` keeps its choice of ``"one-run-fdp"`` at δ > 0).
THRESHOLD_STRATEGIES = ("auto", "band", "bonferroni", "split")
#: Most scores per side (memory and time stay bounded: 10^7 is about a second).
MAX_CANARIES = 10_000_000
#: Most thresholds, or ``(k+, k−)`` pairs, a family stated in advance may list.
MAX_STATED = 10_000

_VALID = {"independent-runs": ("clopper-pearson", "conditional-ratio", "gdp-model"),
          "one-run": ("one-run", "one-run-fdp")}
_WHY = {
    ("one-run", "clopper-pearson"):
        "the canaries of one run share its noise, so their scores are not independent and a "
        "binomial (Clopper-Pearson) count of them has no guaranteed coverage; use method='one-run' "
        "(Steinke, Nasr & Jagielski 2023), valid for canaries included independently with "
        "probability 1/2",
    ("one-run", "conditional-ratio"):
        "the conditional ratio test needs independent scores (Poisson counts), which one run does "
        "not give; use method='one-run'",
    ("one-run", "gdp-model"):
        "the mu-GDP fit reads Clopper-Pearson bounds on TPR and FPR, which need independent "
        "scores; one run does not give them",
    ("independent-runs", "one-run"):
        "the one-run bound relies on each canary's inclusion being an independent fair coin in one "
        "run; for scores of independent runs use method='clopper-pearson'",
    ("independent-runs", "one-run-fdp"):
        "the one-run f-DP bound relies on each canary's inclusion being an independent fair coin "
        "in one run; for scores of independent runs use method='clopper-pearson'",
}


def _scores(values: Any, name: str) -> np.ndarray:
    # read only here; the report keeps its own copy (ScoreAuditReport validates and copies)
    return check_real_array(values, name, ndim=1, max_size=MAX_CANARIES, copy=False)


def _check_thresholds(thresholds: Any) -> str | float | tuple[float, ...]:
    """A strategy, one threshold, or a family of thresholds stated in advance (distinct, sorted)."""
    if isinstance(thresholds, str):
        return check_choice(thresholds, "thresholds", THRESHOLD_STRATEGIES)
    if np.ndim(thresholds) == 0 and not isinstance(thresholds, (list, tuple)):
        return check_finite(thresholds, "thresholds")
    stated = np.unique(check_real_array(thresholds, "thresholds", ndim=1, max_size=MAX_STATED))
    return float(stated[0]) if stated.size == 1 else tuple(stated.tolist())


def _check_guess_counts(guess_counts: Any, design: str, thresholds: Any,
                        canaries: int) -> tuple[np.ndarray, np.ndarray] | None:
    """``(k+, k−)`` pairs stated in advance (one pair, or a sequence of pairs), or None."""
    if guess_counts is None:
        return None
    if design != "one-run":
        raise value_error("guess_counts", guess_counts, "None for design='independent-runs'",
                          "its guesses are thresholds: pass thresholds= (a number or a sequence)")
    if not (isinstance(thresholds, str) and thresholds == "auto"):
        raise DpverifyValueError(f"guess_counts={guess_counts!r} and thresholds={thresholds!r}: "
                                 f"state the family one way, guess_counts= or thresholds=")
    counts = check_real_array(guess_counts, "guess_counts", low=0, max_size=2 * MAX_STATED)
    if counts.ndim == 1 and counts.size == 2:
        counts = counts[None, :]
    rule = (f"a (k+, k-) pair or a sequence of them: integers >= 0 with 1 <= k+ + k- <= "
            f"{canaries} (the canaries)")
    if counts.ndim != 2 or counts.shape[1] != 2 or not (counts == np.floor(counts)).all():
        raise value_error("guess_counts", guess_counts, rule)
    counts = np.unique(counts.astype(np.int64), axis=0)
    totals = counts.sum(axis=1)
    if not ((totals >= 1) & (totals <= canaries)).all():
        raise value_error("guess_counts", guess_counts, rule)
    return counts[:, 0].copy(), counts[:, 1].copy()


def _claim(epsilon: Any, delta: float, claim: Any) -> ScoreClaim | None:
    if epsilon is not None and claim is not None:
        raise DpverifyValueError(f"epsilon={epsilon!r} and claim={claim!r}: give the claim one way, "
                                 f"epsilon (with delta) or claim=")
    if epsilon is not None:
        return read_claim((check_epsilon(epsilon), delta))
    return None if claim is None else read_claim(claim)


def _method(method: str, design: str, delta: float, thresholds: Any) -> str:
    method = check_choice(method, "method", SCORE_METHODS)
    if method == "auto":
        # one run at delta > 0: the f-DP recursion (no 2m*delta term); at delta = 0 the
        # Steinke-Nasr-Jagielski binomial bound, exact for pure DP, is as tight or tighter
        if design == "one-run" and delta > 0.0 and thresholds == "bonferroni":
            return "one-run-fdp"
        return _VALID[design][0]
    if method not in _VALID[design]:
        raise UnsupportedError(f"method={method!r} is not valid for design={design!r}: "
                               f"{_WHY[(design, method)]}")
    if method == "gdp-model" and delta == 0.0:
        raise value_error("delta", delta, "> 0 for method='gdp-model' (every mu-GDP mechanism "
                                          "with mu > 0 has epsilon = inf at delta = 0)")
    if method == "conditional-ratio":
        if delta != 0.0:
            raise UnsupportedError(f"method='conditional-ratio' bounds p/p' (pure epsilon-DP); "
                                   f"delta={delta!r} must be 0 for it")
        if isinstance(thresholds, tuple) or thresholds in ("bonferroni", "band"):
            raise UnsupportedError("method='conditional-ratio' needs one threshold fixed before "
                                   f"the counts (thresholds='split' or a number), not "
                                   f"{thresholds!r}")
    return method


def _auto_thresholds(thresholds: Any, design: str, method: str, delta: float,
                     sizes: tuple[int, int]) -> Any:
    """``"auto"``: independent runs, the band where it is cheap (the split for the ratio test,
    which needs one threshold); one run with ``method="one-run"``, the split where the δ
    term's floor makes a Bonferroni split costly; otherwise the grid (with ``method="auto"``
    at δ > 0 that is the f-DP bound's grid, as ``_method`` chooses). Fixed by the design,
    method, sizes and δ only."""
    if thresholds != "auto":
        return thresholds
    if method == "conditional-ratio":
        return "split"
    if design == "independent-runs":
        return "band" if max(sizes) <= BAND_MAX_SCORES else "bonferroni"
    if method == "one-run" and sum(sizes) * delta >= SPLIT_FROM_CANARIES_TIMES_DELTA:
        return "split"
    return "bonferroni"


def audit_scores(in_scores: Any, out_scores: Any, *, design: str, epsilon: float | None = None,
                 delta: float = 0.0, claim: Any = None, method: str = "auto",
                 thresholds: Any = "auto", guess_counts: Any = None, confidence: float = 0.95,
                 seed: Any = None) -> ScoreAuditReport:
    """Certify a lower bound on ε from canary scores, and test a claim against it.

    Parameters
    ----------
    in_scores, out_scores
        Scores of canaries included in training and of canaries held out (higher:
        more likely included; negate a loss). One-dimensional, finite.
    design
        ``"independent-runs"`` (every score from its own independent run) or
        ``"one-run"`` (all canaries in one run, each included independently with
        probability ½ — :func:`~dpverify.auditing.scores.training.audit_training`
        draws that lottery itself). Required: it decides which bounds are valid.
    epsilon, delta
        A claimed (ε, δ) (``epsilon=None``: no claim, or ``claim=``). ``delta`` is
        also the δ at which ``epsilon_lower_bound`` is stated.
    claim
        Instead of ``epsilon``: an (ε, δ) pair, ``PureDP``, ``ApproxDP``, ``ZCDP``,
        ``RDPCurve``, ``PrivacyProfile``, ``PrivacyLossDistribution``, a
        ``PrivacyAccountant`` (e.g. the training run's own), or a trade-off function
        ``α ↦ β``. Independent runs test every certified (FPR, TPR) point against
        that exact curve; one run tests the claim's ε at ``delta`` and, with
        ``"one-run-fdp"``, also its curve.
    method
        ``"auto"`` (the design's default: for one run at δ > 0 with
        ``thresholds="bonferroni"``, ``"one-run-fdp"``, which is the tighter there;
        otherwise the first listed for the design), ``"clopper-pearson"``, ``"conditional-ratio"`` (δ = 0, a
        fixed or split threshold), ``"one-run"`` (Steinke, Nasr & Jagielski 2023),
        ``"one-run-fdp"`` (Mahloujifar, Melis & Chaudhuri 2024: the f-DP recursion on
        the (ε, δ) curve, on μ-GDP — ``report.mu_lower_bound`` — and on the claim's own
        curve, which may then be a bare trade-off function),
        or ``"gdp-model"`` (Nasr et al. 2023's μ-GDP fit from the certified rates:
        **model-based**, valid only if the run's trade-off curve is Gaussian;
        labelled so in ``report.mode``; independent runs, δ > 0).
    thresholds
        Independent runs: ``"band"`` (every threshold at once, from an exact
        simultaneous Clopper–Pearson band on each side's rates), ``"bonferroni"``
        (a fixed grid of ranks, one Bonferroni split), ``"split"`` (half the
        scores choose one threshold), a number (guess *in* when score ≥ it,
        fixed in advance), or a sequence of numbers (thresholds fixed in
        advance: one Bonferroni split over their ``2 L`` bounds). One run:
        ``"bonferroni"`` (a fixed grid of ``(k+, k−)``, one Bonferroni split) or
        ``"split"`` (half of the canaries choose ``(k+, k−)``, the other half
        certify it at the whole level — tighter at δ > 0 once ``m·δ`` is not
        small, where the δ term's floor makes the Bonferroni split cost most),
        or a number t, or a sequence of them, fixed in advance (the rule "guess
        *in* when score ≥ t, *out* below": every canary guessed; one Bonferroni
        split over the rules).
        ``"auto"`` (default): independent runs ``"band"`` up to 5000 scores a side
        (its level is computed once per size), else ``"bonferroni"`` (``"split"``
        for ``method="conditional-ratio"``); one run with ``method="one-run"``,
        ``"split"`` when ``m·δ ≥ 0.1`` (m = all canaries), else ``"bonferroni"``
        (so ``method="auto"`` at δ > 0 keeps ``"one-run-fdp"`` on its grid) —
        fixed by the design, the method, the sizes and δ, never by the scores; the
        report's ``thresholds`` says which ran (``"fixed"`` for a family stated in
        advance). A family chosen from the scores themselves (say, the vertices
        of the empirical ROC hull) is not offered: its Bonferroni split has no
        proof, and on tight nulls it over-reports (``docs/proofs/auditing.md`` §14a).
    guess_counts
        One run only, instead of ``thresholds``: a ``(k+, k−)`` pair or a sequence
        of pairs stated in advance (guess *in* for the ``k+`` highest scores, *out*
        for the ``k−`` lowest), one Bonferroni split over them.
    confidence
        Probability in [0.5, 1) that the whole audit's bound holds.
    seed
        Seeds the tie-breaking order (with ``"one-run-fdp"``, exact draws of how many
        tied included canaries fall on each side of a split), the split and the
        Poisson subsets.

    Returns
    -------
    ScoreAuditReport
        ``violation`` is true only when the certified bound refutes the claim.

    Notes
    -----
    **Soundness.** Under the stated design, with probability at least
    ``confidence``, ``epsilon_lower_bound`` is at most the smallest ε for which
    the run is (ε, δ)-DP in each canary, and a true claim is flagged with
    probability at most ``1 − confidence`` (``docs/proofs/auditing.md``
    §14–16). With ``thresholds="split"`` and δ = 0, ``method="auto"`` adds the
    conditional ratio test (90 % of the budget) where it is the tighter one.

    References: Jagielski, Ullman & Oprea 2020; Nasr et al. 2021, 2023;
    Steinke, Nasr & Jagielski 2023; Mahloujifar, Melis & Chaudhuri 2024;
    Dong, Roth & Su 2022.

    Examples
    --------
    Gaussian scores shifted by 2 (a 2-GDP canary, ε ≈ 6.2 at δ = 1e-5) against a
    claimed ε = 1, over 2,000 independent runs per side:

    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> report = audit_scores(rng.normal(2, 1, 2000), rng.normal(0, 1, 2000),
    ...                       design="independent-runs", epsilon=1.0, delta=1e-5, seed=0)
    >>> report.violation, 1.0 < report.epsilon_lower_bound < 6.2
    (True, True)
    """
    start = time.perf_counter()
    in_scores = _scores(in_scores, "in_scores")
    out_scores = _scores(out_scores, "out_scores")
    design = check_choice(design, "design", DESIGNS)
    delta = check_delta(delta)
    confidence = check_confidence(confidence)
    seed = check_seed(seed)
    thresholds = _check_thresholds(thresholds)
    read = _claim(epsilon, delta, claim)
    if read is not None and read.pair is not None and epsilon is None:
        delta = read.pair[1]  # an (ε, δ) claim is audited at its own δ
    pairs = _check_guess_counts(guess_counts, design, thresholds, in_scores.size + out_scores.size)
    if pairs is None:
        thresholds = _auto_thresholds(thresholds, design, method, delta,
                                      (in_scores.size, out_scores.size))
    auto = method == "auto"
    method = _method(method, design, delta, thresholds)
    failure = 1.0 - confidence
    rng = np.random.default_rng(seed)
    common = dict(design=design, method=method, confidence=confidence, delta=delta,
                  in_canaries=int(in_scores.size), out_canaries=int(out_scores.size),
                  claim=None if read is None else read.description, seed=seed,
                  in_scores=in_scores, out_scores=out_scores)
    if design == "one-run":
        return _one_run(in_scores, out_scores, read, delta, thresholds, pairs, failure, rng,
                        start, common)
    return _independent(in_scores, out_scores, read, delta, thresholds, failure, rng, start, common,
                        auto)


def _claimed_epsilon(read: ScoreClaim | None, delta: float) -> float | None:
    if read is None:
        return None
    if read.pair is None and read.epsilon_of is None:
        return None
    return read.epsilon_at(delta)


def _threshold_pairs(in_scores, out_scores, thresholds) -> tuple[np.ndarray, np.ndarray]:
    """The rules "in when score ≥ t, out below" as ``(k+, k−)``: the top ``k+`` scores are
    exactly those ≥ t, whatever the order of ties (every canary is guessed)."""
    scores = np.sort(np.concatenate([in_scores, out_scores]))
    plus = _above_count(scores, np.atleast_1d(np.asarray(thresholds, dtype=float)))
    return plus, scores.size - plus


def _above_count(sorted_scores: np.ndarray, thresholds: np.ndarray) -> np.ndarray:
    return sorted_scores.size - np.searchsorted(sorted_scores, thresholds, side="left")


def _one_run(in_scores, out_scores, read, delta, thresholds, pairs, failure, rng, start,
             common) -> ScoreAuditReport:
    if pairs is None and isinstance(thresholds, str) and thresholds not in ("bonferroni", "split"):
        raise value_error("thresholds", thresholds,
                          "'bonferroni', 'split', a number or a sequence of numbers for "
                          "design='one-run' (its guesses are the top k+ and bottom k- scores: a "
                          "fixed grid of them with one Bonferroni split, one pair chosen on half "
                          "of the canaries, or the rules 'in when score >= t' stated in advance)")
    if pairs is None and not isinstance(thresholds, str):
        pairs = _threshold_pairs(in_scores, out_scores, thresholds)
    label = "fixed" if pairs is not None else thresholds
    claimed = _claimed_epsilon(read, delta)
    if read is not None and claimed is None and common["method"] != "one-run-fdp":
        raise UnsupportedError(
            f"design='one-run' tests an (epsilon, delta) claim; the claim {read.description} is a "
            f"trade-off function only (give its PrivacyProfile, PLD or accountant, or use "
            f"method='one-run-fdp', which tests the curve itself)")
    if in_scores.size + out_scores.size < 2:
        raise value_error("in_scores", f"<{in_scores.size} scores>",
                          "with out_scores at least 2 canaries in all")
    if common["method"] == "one-run-fdp":
        return _one_run_fdp(in_scores, out_scores, read, claimed, delta, label, pairs, failure,
                            rng, start, common)
    if label == "split":
        bound = one_run_split_bound(in_scores, out_scores, delta=delta,
                                    failure_probability=failure, rng=rng)
    else:  # the grid (pairs=None) or the family stated in advance
        bound = one_run_bound(in_scores, out_scores, delta=delta, failure_probability=failure,
                              rng=rng, pairs=pairs)
    violation = None if claimed is None else bound.epsilon_lower_bound > claimed
    return ScoreAuditReport(
        epsilon_lower_bound=bound.epsilon_lower_bound, violation=violation,
        thresholds=label, bounds=bound.candidates, seconds=time.perf_counter() - start,
        threshold=bound.upper_threshold, lower_threshold=bound.lower_threshold,
        in_guesses=bound.in_guesses, out_guesses=bound.out_guesses,
        guesses=bound.in_guesses + bound.out_guesses, correct_guesses=bound.correct,
        claimed_epsilon=claimed, **common)


def _one_run_fdp(in_scores, out_scores, read, claimed, delta, label, pairs, failure, rng, start,
                 common) -> ScoreAuditReport:
    """``method="one-run-fdp"``: Mahloujifar, Melis & Chaudhuri (2024) on the (k+, k-) grid,
    or on the pairs stated in advance."""
    claims = dict(claim_tradeoff=None if read is None else read.tradeoff, claimed_epsilon=claimed)
    if label == "split":
        bound = fdp_one_run_split_bound(in_scores, out_scores, delta=delta,
                                        failure_probability=failure, rng=rng, **claims)
    else:
        bound = fdp_one_run_bound(in_scores, out_scores, delta=delta, failure_probability=failure,
                                  rng=rng, pairs=pairs, **claims)
    return ScoreAuditReport(
        epsilon_lower_bound=bound.epsilon_lower_bound, violation=bound.claim_refuted,
        thresholds=label, bounds=bound.candidates, seconds=time.perf_counter() - start,
        threshold=bound.upper_threshold, lower_threshold=bound.lower_threshold,
        in_guesses=bound.in_guesses, out_guesses=bound.out_guesses,
        guesses=bound.in_guesses + bound.out_guesses, correct_guesses=bound.correct,
        claimed_epsilon=claimed, mu_lower_bound=bound.mu_lower_bound, **common)


def _fixed_threshold(in_scores, out_scores, delta, failure, thresholds, rng):
    """The threshold (fixed, or chosen on a random half) and the scores that certify it."""
    if thresholds != "split":
        return "fixed", float(thresholds), in_scores, out_scores
    if in_scores.size < 4 or out_scores.size < 4:
        raise value_error("in_scores", f"<{in_scores.size} and {out_scores.size} scores>",
                          "at least 4 scores per side for thresholds='split'")
    order_in, order_out = rng.permutation(in_scores.size), rng.permutation(out_scores.size)
    half_in, half_out = in_scores.size // 2, out_scores.size // 2
    threshold = split_threshold(in_scores[order_in[:half_in]], out_scores[order_out[:half_out]],
                                delta=delta, failure_probability=failure)
    return "split", threshold, in_scores[order_in[half_in:]], out_scores[order_out[half_out:]]


def _independent(in_scores, out_scores, read, delta, thresholds, failure, rng, start, common,
                 auto: bool) -> ScoreAuditReport:
    method = common["method"]
    ratio = None
    if thresholds == "bonferroni":
        label = "bonferroni"
        bounds = grid_bounds(in_scores, out_scores, failure_probability=failure)
    elif thresholds == "band":
        label = "band"
        bounds = band_bounds(in_scores, out_scores, failure_probability=failure, delta=delta)
    elif isinstance(thresholds, tuple):  # a family stated in advance: Bonferroni over it
        label = "fixed"
        bounds = threshold_bounds(in_scores, out_scores, np.array(thresholds),
                                  failure_probability=failure)
    else:
        label, threshold, certify_in, certify_out = _fixed_threshold(
            in_scores, out_scores, delta, failure, thresholds, rng)
        # the ratio test: asked for, or (auto) at delta = 0 where it is the tighter bound
        share = 1.0 if method == "conditional-ratio" else (
            RATIO_SHARE if auto and delta == 0.0 else 0.0)
        if share < 1.0:
            bounds = threshold_bounds(certify_in, certify_out, threshold,
                                      failure_probability=failure * (1 - share))
        else:  # the ratio test alone: the rates are not certified
            bounds = ThresholdBounds(np.array([threshold]), np.zeros(1, dtype=np.int64),
                                     np.zeros(1, dtype=np.int64), np.zeros(1), np.ones(1), 0)
        if share > 0.0:
            ratio = ratio_bound(certify_in, certify_out, threshold,
                                failure_probability=failure * share, rng=rng)
            if ratio is None and method == "conditional-ratio":
                raise value_error("in_scores", f"<{certify_in.size} certifying scores>",
                                  "enough certifying scores per side for Poisson subsets "
                                  "(n - 4 sqrt(n) >= 10, about 30)")
            if ratio is not None and method != "conditional-ratio":
                common = {**common, "method": "clopper-pearson+conditional-ratio"}
    index, epsilon = best_threshold(bounds, delta)
    if ratio is not None:
        epsilon = max(epsilon, ratio)
    claimed = _claimed_epsilon(read, delta)
    violation = None
    if method == "gdp-model":
        index, mu = gdp_mu_lower(bounds.tpr_lower, bounds.fpr_upper)
        epsilon = gdp_epsilon_lower(mu, delta)
        common = {**common, "mode": f"{GDP_MODE}; mu >= {mu:.6g}"}
        violation = None if claimed is None else epsilon > claimed
    elif read is not None:
        violation = bool(curve_violated(bounds, read).any()) or (
            claimed is not None and epsilon > claimed)
    return ScoreAuditReport(
        epsilon_lower_bound=epsilon, violation=violation, thresholds=label,
        bounds=bounds.bounds + (2 if ratio is not None else 0),
        seconds=time.perf_counter() - start, threshold=float(bounds.thresholds[index]),
        tpr_lower=float(bounds.tpr_lower[index]), fpr_upper=float(bounds.fpr_upper[index]),
        claimed_epsilon=claimed, ratio_epsilon=ratio, **common)
