"""The ``hull`` table of ``benchmarks/auditing.py``: does jax_privacy's data-chosen Bonferroni hold?

jax_privacy (2.0.0, ``jax_privacy/auditing.py``) keeps only the thresholds on the
upper convex hull of the *empirical* ROC (``_get_tn_fn_counts``, line 428:
``indices = _pareto_frontier(counts)``) and, with its default ``Bonferroni()``
threshold strategy, divides the significance by the number of those vertices
(``_audit_with_threshold_strategy``, line 1144:
``significance_bonferroni = significance / len(self._fn_counts)``). The family is
chosen from the scores, so the union bound does not cover it.

This script runs jax_privacy's own ``CanaryScoreAuditor`` (loaded by file path, as
in ``_score_audits.py``), as shipped and with its defaults, on **nulls**: mechanisms
whose true ε is exactly the ε tested, so every reported ``ε_lb > ε`` is a false
alarm, which a bound at confidence 0.95 may raise at most 5 % of the time.

The null ("generalised randomized response", pure ε-DP and tight): a canary's
score is uniform on [1, 2] with probability ``e^ε/(1 + e^ε)`` if it is included
and ``1/(1 + e^ε)`` if not, and 0 otherwise. The likelihood ratio is ``e^ε`` on
[1, 2] and ``e^−ε`` at 0, so the trade-off curve is exactly ``f_{ε,0}`` and every
threshold in [1, 2] is tight (``TPR = e^ε FPR``): many thresholds at the true ε,
of which the hull keeps the noise-favourable ones while dividing by few
vertices. One run: m canaries, each included by a fair coin, audited by
``epsilon_one_run(significance, delta)`` (Steinke, Nasr & Jagielski 2023, one
tail); jax_privacy refuses δ = 0 there, so δ = 1e-300 as in the ``scores`` table,
where the true ε is ``ε + ln(1 − δ(1 + e^ε)/e^ε)``, equal to ε in floats. With
``delta > 1e-200`` the null is the tight ``f_{ε,δ}`` curve instead: an in-only
atom of mass δ at 3, an out-only atom of mass δ at −1 (true ε at δ: exactly ε).
Independent runs: n scores per side, ``epsilon_clopper_pearson(significance,
delta, one_sided=False)``.

Each row: false alarms / audits, with a two-sided 95 % Clopper–Pearson interval
on the rate; a rate whose interval lies above ``1 − confidence`` is a measured
failure of the coverage the bound states. Our measurement, not jax_privacy's
claim. dpverify's ``audit_scores`` runs on the same scores (one-run, its default
grid) as a control.
"""

from __future__ import annotations

import math
import sys
import time

import numpy as np
from _score_audits import load_jax_privacy_auditing
from scipy import stats

from dpverify.auditing import audit_scores

#: (design, m or n per side, ε, δ, confidence, audits). The first row is the headline recipe.
CELLS = (
    ("one-run", 10_000, 0.1, 1e-300, 0.95, 2000),
    ("one-run", 10_000, 0.5, 1e-300, 0.95, 1000),
    ("one-run", 100_000, 0.5, 1e-300, 0.95, 300),
    ("one-run", 1_000, 0.5, 1e-300, 0.95, 2000),
    ("one-run", 10_000, 2.0, 1e-300, 0.95, 1000),
    ("one-run", 10_000, 0.1, 1e-300, 0.90, 1000),
    ("one-run", 10_000, 0.1, 1e-300, 0.99, 1000),
    ("one-run", 10_000, 0.1, 1e-5, 0.95, 1000),
    ("independent-runs", 1_000, 0.1, 0.0, 0.95, 1000),
    ("independent-runs", 1_000, 2.0, 0.0, 0.95, 1000),
)


def null_scores(rng: np.random.Generator, included: np.ndarray, epsilon: float, delta: float) -> np.ndarray:
    """Scores of the tight ``f_{ε,δ}`` null for canaries with inclusion bits ``included``."""
    size = included.size
    kept = math.exp(epsilon) / (1 + math.exp(epsilon))
    high = np.where(included, (1 - delta) * kept, (1 - delta) * (1 - kept))
    draw = rng.random(size)
    jitter = 1 + rng.random(size)
    atom = np.where(included, 3.0, -1.0)
    return np.where(draw < delta, atom, np.where(draw < delta + high, jitter, 0.0))


def _one_run(jax, rng, canaries, epsilon, delta, confidence):
    included = rng.random(canaries) < 0.5
    scores = null_scores(rng, included, epsilon, 0.0 if delta < 1e-200 else delta)
    in_scores, out_scores = scores[included], scores[~included]
    auditor = jax.CanaryScoreAuditor(in_scores, out_scores)
    theirs = auditor.epsilon_one_run(1 - confidence, delta)
    ours = audit_scores(
        in_scores,
        out_scores,
        design="one-run",
        method="one-run",
        delta=0.0 if delta < 1e-200 else delta,
        thresholds="bonferroni",
        confidence=confidence,
        seed=0,
    ).epsilon_lower_bound
    return theirs, ours, len(auditor._fn_counts)


def _independent(jax, rng, size, epsilon, delta, confidence):
    in_scores = null_scores(rng, np.ones(size, dtype=bool), epsilon, delta)
    out_scores = null_scores(rng, np.zeros(size, dtype=bool), epsilon, delta)
    auditor = jax.CanaryScoreAuditor(in_scores, out_scores)
    theirs = auditor.epsilon_clopper_pearson(1 - confidence, delta, one_sided=False)
    ours = audit_scores(
        in_scores, out_scores, design="independent-runs", delta=delta, confidence=confidence, seed=0
    ).epsilon_lower_bound
    return theirs, ours, len(auditor._fn_counts)


def true_epsilon(epsilon: float, delta: float) -> float:
    """The null's ε at δ: ε for the ``f_{ε,δ}`` nulls; ``ε + ln(1 − δ/P[high])`` for the pure one."""
    if delta == 0.0 or delta > 1e-200:
        return epsilon
    return epsilon + math.log1p(-delta * (1 + math.exp(epsilon)) / math.exp(epsilon))


def _interval(hits: int, trials: int) -> tuple[float, float]:
    low = stats.beta.ppf(0.025, hits, trials - hits + 1) if hits else 0.0
    high = stats.beta.ppf(0.975, hits + 1, trials - hits) if hits < trials else 1.0
    return float(low), float(high)


def hull_correction(seed: int = 27, cells=CELLS) -> list[str]:
    """Markdown rows: false-alarm rates of jax_privacy's hull Bonferroni (and dpverify's) on nulls."""
    jax = load_jax_privacy_auditing()
    if jax is None:
        return ["jax_privacy is not installed (`pip install --no-deps jax-privacy`)"]
    rows = [
        "| design | m or n/side | ε = true ε | δ | confidence | audits | jax_privacy "
        "ε_lb > ε | rate [95 % CP] | ε_lb > ε + 1e-4 | mean hull vertices | dpverify "
        "ε_lb > ε | s |",
        "|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|",
    ]
    streams = np.random.SeedSequence(seed).spawn(len(cells))
    for (design, size, epsilon, delta, confidence, audits), stream in zip(cells, streams):
        rng = np.random.default_rng(stream)
        audit = _one_run if design == "one-run" else _independent
        truth = true_epsilon(epsilon, delta)
        start = time.process_time()
        results = np.array([audit(jax, rng, size, epsilon, delta, confidence) for _ in range(audits)])
        seconds = time.process_time() - start
        hits = int(np.count_nonzero(results[:, 0] > truth))
        margin = int(np.count_nonzero(results[:, 0] > truth + 1e-4))
        ours = int(np.count_nonzero(results[:, 1] > truth))
        low, high = _interval(hits, audits)
        rows.append(
            f"| {design} | {size} | {epsilon:g} | {delta:g} | {confidence:g} | {audits} "
            f"| {hits} | {hits / audits:.4f} [{low:.4f}, {high:.4f}] | {margin} | "
            f"{results[:, 2].mean():.1f} | {ours} | {seconds:.0f} |"
        )
        print(rows[-1], file=sys.stderr, flush=True)
    return rows
