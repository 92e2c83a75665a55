"""The ``scores`` tables of ``benchmarks/auditing.py``: canary-score audits next to jax_privacy.

Same scores to both auditors (confidence 0.95): dpverify's
:func:`dpverify.auditing.audit_scores` and jax_privacy's ``CanaryScoreAuditor``
(``pip install --no-deps jax-privacy``; its ``jax_privacy/auditing.py`` is loaded by
file path, since it needs only numpy, scipy and dp_accounting, while importing the
package would pull in jax).

Simulated canaries whose true ε is known: **Gaussian** (each canary's score is
``N(μ·included, 1)``: μ-GDP in each canary, true ε(δ) from the exact Gaussian
curve) and **randomized response** (the score is the inclusion bit, kept with
probability e^ε/(1 + e^ε): true ε at δ = 0). One run: m canaries, each included
with probability ½; independent runs: n scores per side.
"""

from __future__ import annotations

import importlib.util
import math
import sys
import time
from pathlib import Path

import numpy as np

from dpverify.auditing import audit_scores


def load_jax_privacy_auditing():
    """jax_privacy's ``auditing.py`` as a module, by file path (no jax needed); None if absent."""
    spec = importlib.util.find_spec("jax_privacy")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "auditing.py"
    module_spec = importlib.util.spec_from_file_location("_jax_privacy_auditing", path)
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[module_spec.name] = module  # dataclasses look their module up
    module_spec.loader.exec_module(module)
    return module


def _gaussian_epsilon(mu: float, delta: float) -> float:
    from dpverify.accountants.pld import PrivacyLossDistribution

    return PrivacyLossDistribution.from_gaussian(1.0 / mu).epsilon_for_delta(delta)


def _one_run_scores(kind: str, canaries: int, rng: np.random.Generator):
    included = rng.random(canaries) < 0.5
    if kind == "gaussian":
        scores = rng.normal(0.0, 1.0, canaries) + 2.0 * included
    else:
        keep = rng.random(canaries) < math.exp(2.0) / (1 + math.exp(2.0))
        scores = np.where(keep, included, ~included).astype(float)
    return scores[included], scores[~included]


def _independent_scores(kind: str, size: int, rng: np.random.Generator):
    if kind == "gaussian":
        return rng.normal(2.0, 1.0, size), rng.normal(0.0, 1.0, size)
    q = math.exp(2.0) / (1 + math.exp(2.0))
    return (rng.random(size) < q).astype(float), (rng.random(size) < 1 - q).astype(float)


_SETTINGS = {"gaussian": (1e-5, "2-GDP"), "rr": (0.0, "RR ε=2")}


def _timed(function):
    start = time.perf_counter()
    value = function()
    return value, time.perf_counter() - start


def scores(sizes: list[int], independent: int, seed: int = 1) -> list[str]:
    """Markdown rows: one run at each m in ``sizes``, then independent runs of ``independent`` per side."""
    jax = load_jax_privacy_auditing()
    rows = ["| design | mechanism (true ε at δ) | scores | δ | dpverify ε_lb | s | "
            "jax_privacy ε_lb | s | speed-up | ≤ true ε |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    rng = np.random.default_rng(seed)
    for kind, (delta, label) in _SETTINGS.items():
        truth = _gaussian_epsilon(2.0, delta) if kind == "gaussian" else 2.0
        for canaries in sizes:
            in_scores, out_scores = _one_run_scores(kind, canaries, rng)
            theirs, theirs_s = (math.nan, math.nan)
            if jax is not None:
                auditor = jax.CanaryScoreAuditor(in_scores, out_scores)
                # jax_privacy refuses δ = 0 in one run: the smallest positive δ is the same test
                theirs, theirs_s = _timed(lambda: auditor.epsilon_one_run(
                    0.05, max(delta, 1e-300)))
            for thresholds in ("bonferroni", "split"):
                ours, ours_s = _timed(lambda: audit_scores(
                    in_scores, out_scores, design="one-run", delta=delta, thresholds=thresholds,
                    seed=seed))
                rows.append(_row(f"one-run ({thresholds})", f"{label} ({truth:.3f})", canaries,
                                 delta, ours.epsilon_lower_bound, ours_s, theirs, theirs_s, truth))
                print(rows[-1], file=sys.stderr, flush=True)
        in_scores, out_scores = _independent_scores(kind, independent, rng)
        ours, ours_s = _timed(lambda: audit_scores(in_scores, out_scores, design="independent-runs",
                                                   delta=delta, seed=seed))
        theirs, theirs_s = (math.nan, math.nan)
        if jax is not None:
            auditor = jax.CanaryScoreAuditor(in_scores, out_scores)
            theirs, theirs_s = _timed(lambda: auditor.epsilon_clopper_pearson(
                0.05, delta, one_sided=False))
        rows.append(_row(f"independent-runs ({ours.thresholds})", f"{label} ({truth:.3f})",
                         2 * independent, delta,
                         ours.epsilon_lower_bound, ours_s, theirs, theirs_s, truth))
        print(rows[-1], file=sys.stderr, flush=True)
    return rows


def _row(design, label, size, delta, ours, ours_s, theirs, theirs_s, truth) -> str:
    speed = f"{theirs_s / ours_s:.1f}x" if math.isfinite(theirs_s) else "-"
    return (f"| {design} | {label} | {size} | {delta:g} | {ours:.4f} | {ours_s:.3f} | "
            f"{theirs:.4f} | {theirs_s:.3f} | {speed} | {'yes' if ours <= truth else 'NO'} |")
