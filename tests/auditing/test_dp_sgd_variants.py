"""One training run, 1000 canaries: every buggy DP-SGD is flagged against its claim, the reference is not.

The bound here is Steinke, Nasr & Jagielski 2023 ("Privacy auditing with one (1)
training run"), Theorem 3.3 with its δ term as in their Appendix D, at guess
counts fixed in advance (the 100 highest scores guessed "in", the 100 lowest
"out"): if the run is (ε, δ)-DP in each canary, ``P[W >= v] <= P[Bin(r, p_ε) >= v]
+ 2mδ·max_i P[v - i <= Bin(r, p_ε) < v]/i`` with ``p_ε = e^ε/(1 + e^ε)``; the
certified bound is the largest ε whose p-value is below 1 − confidence. It is
written out in this test only (dpverify's one-run auditor is
``dpverify.auditing.audit_scores``); each audit here errs with probability at
most 5%, and the seeds are fixed.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.stats

from dpverify.auditing.dp_sgd import BUGS
from dpverify.auditing.dp_sgd_variants import (
    DP_SGD_VARIANTS,
    SCORES,
    canary_scores,
    dp_sgd_variant,
)

CANARIES = 1000
GUESSES = 100
CONFIDENCE = 0.95


def _p_value(m: int, r: int, v: int, epsilon: float, delta: float) -> float:
    p = 1 / (1 + math.exp(-epsilon))
    tail = scipy.stats.binom.sf(v - 1, r, p)
    below = np.cumsum(scipy.stats.binom.pmf(np.arange(v - 1, -1, -1), r, p))
    slope = float(np.max(below / np.arange(1, v + 1))) if v else 0.0
    return min(1.0, tail + 2 * m * delta * slope)


def one_run_lower_bound(scores: np.ndarray, included: np.ndarray, delta: float) -> float:
    """The largest ε (to 1e-6) that the guesses refute at :data:`CONFIDENCE`, or 0."""
    order = np.argsort(scores, kind="stable")
    correct = int(included[order[-GUESSES:]].sum() + (~included[order[:GUESSES]]).sum())
    m, r = len(scores), 2 * GUESSES
    if _p_value(m, r, correct, 0.0, delta) >= 1 - CONFIDENCE:
        return 0.0
    low, high = 0.0, 1.0
    while _p_value(m, r, correct, high, delta) < 1 - CONFIDENCE:
        low, high = high, high * 2
    while high - low > 1e-6:
        middle = (low + high) / 2
        low, high = (middle, high) if _p_value(m, r, correct, middle, delta) < 1 - CONFIDENCE \
            else (low, middle)
    return low


def _audit(name: str, seed: int, canary_type: str = "gradient", score: str | None = None
           ) -> float:
    variant = dp_sgd_variant(name)
    rng = np.random.default_rng(seed)
    included = rng.random(CANARIES) < 0.5  # the auditor's randomisation, drawn before training
    scores = variant.trainer(canary_type=canary_type, canary_score=score)(included, rng)
    return one_run_lower_bound(scores, included, variant.delta)


def test_the_bound_is_sound_on_randomized_response() -> None:
    """ε-DP randomized response on each canary's bit: the bound stays below ε (seeded)."""
    rng = np.random.default_rng(5)
    included = rng.random(CANARIES) < 0.5
    keep = rng.random(CANARIES) < math.e / (1 + math.e)
    bound = one_run_lower_bound(np.where(keep, included, ~included) + 0.1 * rng.random(CANARIES),
                                included, 0.0)
    assert 0.4 < bound < 1.0


def test_catalogue_covers_the_bugs() -> None:
    assert set(DP_SGD_VARIANTS) == {"dp_sgd", *BUGS}
    claims = {variant.claimed_epsilon for variant in DP_SGD_VARIANTS.values()}
    assert len(claims) == 1 and 1.0 < claims.pop() < 2.0
    assert [v.correct for v in DP_SGD_VARIANTS.values()] == [True] + [False] * len(BUGS)
    assert all(v.canary_score in SCORES for v in DP_SGD_VARIANTS.values())


def test_trainer_scores_every_canary() -> None:
    variant = dp_sgd_variant("dp_sgd")
    small = variant.config.__class__(steps=20, dataset_size=100)
    train = type(variant)("small", "", small, True, "sum").trainer(canary_type="input")
    scores = train(np.array([True, False, True]), np.random.default_rng(0))
    assert scores.shape == (3,) and np.all(scores <= 0)  # minus a loss


def test_bad_scores_are_refused() -> None:
    variant = dp_sgd_variant("dp_sgd")
    with pytest.raises(ValueError, match="canary_score"):
        variant.trainer(canary_score="accuracy")
    with pytest.raises(TypeError, match="loss"):
        variant.trainer(canary_score="loss")(np.ones(2, dtype=bool), np.random.default_rng(0))
    with pytest.raises(TypeError, match="training_run"):
        canary_scores("run", config=variant.config)
    with pytest.raises(ValueError, match="name"):
        dp_sgd_variant("dp-sgd")


@pytest.mark.slow
@pytest.mark.parametrize("name", list(BUGS))
def test_one_run_flags_every_bug_with_white_box_canaries(name: str) -> None:
    variant = dp_sgd_variant(name)
    assert _audit(name, seed=sum(map(ord, name))) > variant.claimed_epsilon


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("canary_type, score", [("gradient", "sum"), ("gradient", "range"),
                                                ("gradient", "period"), ("input", "loss")])
def test_one_run_does_not_flag_the_reference(seed: int, canary_type: str, score: str) -> None:
    bound = _audit("dp_sgd", seed, canary_type, score)
    assert bound <= dp_sgd_variant("dp_sgd").claimed_epsilon


@pytest.mark.slow
@pytest.mark.parametrize("name", ["noise_on_mean", "no_clipping", "clipping_after_aggregation"])
def test_black_box_input_canaries_flag_the_bugs_the_final_model_shows(name: str) -> None:
    """Mislabelled input canaries scored by loss on the final model catch three bugs. The
    reused noise and the fixed batches need the white-box view of every step; a canary in
    every batch is learnt, but the noise on its rare feature's weight (times the feature,
    100) hides it from the loss at these 100 + 100 fixed guesses."""
    assert _audit(name, seed=7, canary_type="input") > dp_sgd_variant(name).claimed_epsilon
