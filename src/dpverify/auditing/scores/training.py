"""``audit_training``: dpverify draws the canaries' inclusion, the user's code trains and scores.

The one-run bound (Steinke, Nasr & Jagielski 2023) is valid only if every canary
was included independently with probability ½, and the independent-runs bound
only if the runs are independent; here dpverify makes both true itself: it
draws the inclusion mask from its own seeded generator, passes it to
``train(included, rng)``, and audits the returned scores. The report's
``seed`` replays the mask, the training generators and the audit.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from dpverify._validation import (
    check_callable,
    check_choice,
    check_int_at_least,
    check_real_array,
    check_seed,
    value_error,
)
from dpverify.auditing.scores.audit import DESIGNS, MAX_CANARIES, audit_scores
from dpverify.auditing.scores.report import ScoreAuditReport
from dpverify.errors import DpverifyTypeError
from dpverify.execution import run_tasks

__all__ = ["audit_training", "draw_inclusion", "MAX_RUNS"]

#: Most training runs of ``design="independent-runs"``.
MAX_RUNS = 10_000_000


def draw_inclusion(canaries: int, rng: np.random.Generator) -> np.ndarray:
    """Each of ``canaries`` included independently with probability ½ (a boolean mask).

    >>> draw_inclusion(6, np.random.default_rng(0)).tolist()
    [False, True, True, True, False, False]
    """
    return rng.random(canaries) < 0.5


def _train_once(train: Any, canaries: int, mask_sequence: Any, train_sequence: Any) -> tuple:
    """One run: draw the mask, train, check the scores. (A task of :func:`run_tasks`.)"""
    included = draw_inclusion(canaries, np.random.default_rng(mask_sequence))
    scores = train(included.copy(), np.random.default_rng(train_sequence))
    scores = check_real_array(scores, "train(...) scores", ndim=1)
    if scores.size != canaries:
        raise value_error("train(...) scores", f"<{scores.size} scores>",
                          f"one score per canary ({canaries})")
    return included, scores


def audit_training(train: Any, *, canaries: int, design: str = "one-run", runs: int = 1,
                   epsilon: float | None, delta: float, claim: Any = None,
                   confidence: float = 0.95, seed: Any = None,
                   executor: Any = None) -> ScoreAuditReport:
    """Train with canaries dpverify includes at random, score them, and audit the claim.

    Parameters
    ----------
    train
        ``train(included, rng) -> scores``: the user's training and scoring code.
        ``included`` is a boolean array (canary i is in the training set when
        ``included[i]``); ``rng`` a numpy Generator for the run's own randomness;
        it returns one score per canary (higher: more likely included).
    canaries
        Number of canaries per run. ``design="independent-runs"`` uses one
        canary per run (the scores of several canaries of one run are not
        independent), so it must be 1.
    design
        ``"one-run"`` (one call of ``train``; each canary in with probability ½)
        or ``"independent-runs"`` (``runs`` calls, each with its own fair coin for
        the canary and its own generator).
    runs
        Number of training runs (``design="independent-runs"``; 1 for one run).
    epsilon, delta, claim, confidence
        As in :func:`~dpverify.auditing.scores.audit.audit_scores` (``epsilon=None``
        with ``claim=``, e.g. the run's own ``PrivacyAccountant``).
    seed
        Seeds the masks, the runs' generators and the audit
        (``SeedSequence(seed).spawn``); recorded in the report (its entropy when
        ``None``), so the audit can be replayed.
    executor
        Independent runs: a ``concurrent.futures.Executor`` or ``distributed.Client``
        to run them on (:func:`dpverify.execution.run_tasks`; ``train`` is sent by
        cloudpickle). Results do not depend on where they ran.

    Returns
    -------
    ScoreAuditReport

    Examples
    --------
    A "training run" that leaks: each included canary's score is shifted by 3
    (a 3-GDP canary in every coordinate; one run, 1,000 canaries), claimed 1-DP:

    >>> def train(included, rng):
    ...     return rng.normal(0.0, 1.0, included.size) + 3.0 * included
    >>> report = audit_training(train, canaries=1000, epsilon=1.0, delta=0.0, seed=7)
    >>> report.violation, report.design
    (True, 'one-run')
    """
    check_callable(train, "train", "a function train(included, rng) -> scores")
    canaries = check_int_at_least(canaries, "canaries", 1, maximum=MAX_CANARIES)
    design = check_choice(design, "design", DESIGNS)
    runs = check_int_at_least(runs, "runs", 1, maximum=MAX_RUNS)
    seed = check_seed(seed)
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise DpverifyTypeError(f"executor={executor!r} must be a concurrent.futures.Executor or a "
                                f"distributed.Client (or None: run in this process)")
    sequence = np.random.SeedSequence(seed)
    record = seed if seed is not None else sequence.entropy
    if design == "one-run":
        if runs != 1:
            raise value_error("runs", runs, "1 for design='one-run' (one training run)")
        if canaries < 2:
            raise value_error("canaries", canaries, ">= 2 for design='one-run'")
        mask_sequence, train_sequence, audit_sequence = sequence.spawn(3)
        included, scores = _train_once(train, canaries, mask_sequence, train_sequence)
        in_scores, out_scores = scores[included], scores[~included]
    else:
        if canaries != 1:
            raise value_error("canaries", canaries,
                              "1 for design='independent-runs' (the scores of several canaries of "
                              "one run share its noise and are not independent)")
        if runs < 2:
            raise value_error("runs", runs, ">= 2 for design='independent-runs'")
        children = sequence.spawn(2 * runs + 1)
        audit_sequence = children[-1]
        tasks = [(train, 1, children[2 * r], children[2 * r + 1]) for r in range(runs)]
        results = run_tasks(_train_once, tasks, executor=executor)
        included = np.array([mask[0] for mask, _ in results])
        scores = np.array([value[0] for _, value in results])
        in_scores, out_scores = scores[included], scores[~included]
        if in_scores.size == 0 or out_scores.size == 0:
            raise value_error("runs", runs, "large enough that both sides get runs (every coin "
                                            "fell the same way)")
    report = audit_scores(in_scores, out_scores, design=design, epsilon=epsilon, delta=delta,
                          claim=claim, confidence=confidence,
                          seed=audit_sequence)
    return dataclasses.replace(report, seed=record)
