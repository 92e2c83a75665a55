"""Interactive audits: a private explore-then-commit bandit, run in parallel."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from dpverify.auditing.exact import exact_epsilon
from dpverify.auditing.examples import explore_then_commit, explore_then_commit_pmf
from dpverify.auditing.interactive import audit_interactive, run_outputs

# 20 rounds, 2 arms, the first 10 explore (5 pulls each); the neighbour changes arm 0's
# reward at round 0 from 0.6 to 0.
STREAM = np.column_stack([np.full(20, 0.6), np.full(20, 0.5)])
NEIGHBOUR = STREAM.copy()
NEIGHBOUR[0, 0] = 0.0


def committed_arm(transcript: list[int]) -> int:
    return transcript[-1]


def _exact(noise_scale: float) -> float:
    return exact_epsilon(explore_then_commit_pmf(STREAM, noise_scale=noise_scale),
                         explore_then_commit_pmf(NEIGHBOUR, noise_scale=noise_scale))


@pytest.mark.slow
def test_correct_bandit_is_not_flagged_and_bound_is_below_exact() -> None:
    report = audit_interactive(explore_then_commit, STREAM, NEIGHBOUR, statistic=committed_arm,
                               epsilon=1.0, runs=6000, seed=1)
    assert not report.violation and report.samples == 6000
    assert report.epsilon_lower_bound <= _exact(1.0) <= 1.0


@pytest.mark.slow
def test_bandit_with_too_little_noise_is_flagged() -> None:
    """Noise scale 1/4 where 1 is needed: the pair's exact ε is 1.49 (claim 1)."""
    run = functools.partial(explore_then_commit, noise_scale=0.25)
    report = audit_interactive(run, STREAM, NEIGHBOUR, statistic=committed_arm, epsilon=1.0,
                               runs=6000, seed=2)
    assert report.violation and 1.0 < report.epsilon_lower_bound <= _exact(0.25)


@pytest.mark.slow
def test_same_seed_same_outputs_whatever_n_jobs() -> None:
    """Forked workers (a lambda statistic is fine) reproduce the in-process outputs bit for bit."""
    statistic = lambda transcript: sum(a == 0 for a in transcript)  # noqa: E731
    serial = run_outputs(explore_then_commit, STREAM, NEIGHBOUR, statistic=statistic, runs=300,
                         seed=7, n_jobs=1)
    parallel = run_outputs(explore_then_commit, STREAM, NEIGHBOUR, statistic=statistic,
                           runs=300, seed=7, n_jobs=2)
    everywhere = run_outputs(explore_then_commit, STREAM, NEIGHBOUR, statistic=statistic,
                             runs=300, seed=7, n_jobs=-1)
    for a, b, c in zip(serial, parallel, everywhere):
        assert np.array_equal(a, b) and np.array_equal(a, c)
    other = run_outputs(explore_then_commit, STREAM, NEIGHBOUR, statistic=statistic, runs=300,
                        seed=8, n_jobs=1)
    assert not np.array_equal(serial[0], other[0])


@pytest.mark.slow
def test_reports_match_across_n_jobs_and_vector_statistics(capsys) -> None:
    def pulls(transcript):
        return np.bincount(transcript, minlength=2)

    kwargs = dict(statistic=pulls, epsilon=1.0, runs=1000, seed=3)
    one = audit_interactive(explore_then_commit, STREAM, NEIGHBOUR, n_jobs=1, **kwargs)
    two = audit_interactive(explore_then_commit, STREAM, NEIGHBOUR, n_jobs=2, progress=True,
                            **kwargs)
    assert (one.epsilon_lower_bound, one.p_hat, one.event.description) == (
        two.epsilon_lower_bound, two.p_hat, two.event.description)
    assert one.kind == "discrete vector"


def test_statistic_must_give_numbers() -> None:
    from dpverify.errors import AuditError

    with pytest.raises(AuditError, match="statistic"):
        audit_interactive(explore_then_commit, STREAM, NEIGHBOUR, statistic=lambda t: "arm",
                          epsilon=1.0, runs=20, seed=0)
