"""The vectorised run loop has the law of the round-by-round algorithm.

The engine plays many rounds with the current model, then cuts at the first
release that triggers an update and redraws the rounds after it. Forcing one
release per step (no vectorisation, nothing discarded) is the sequential
algorithm; both must give the same law of (final regret, number of updates).
Two-sample Kolmogorov–Smirnov / chi-square tests at 1e-3 each (fixed seeds).
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats

from dpverify.bandits.contextual import ContextualInstanceFamily, LDPLinUCB, LinUCB, _engine

ENV = ContextualInstanceFamily(n_arms=4, dimension=2)(np.random.default_rng(0))
T, RUNS = 120, 60


def _finals(algorithm, sequential: bool, seed: int) -> tuple[np.ndarray, np.ndarray]:
    regrets, updates = [], []
    for stream in np.random.SeedSequence(seed).spawn(RUNS):
        learner = algorithm.start(horizon=T, dimension=2)
        if sequential:
            learner.releases_per_chunk = lambda: 1
        pseudo, _, _ = _engine.run(learner, ENV, T, np.array([T]), np.random.default_rng(stream))
        regrets.append(pseudo[-1])
        updates.append(learner.updates)
    return np.array(regrets), np.array(updates)


@pytest.mark.slow
def test_vectorised_loop_matches_the_sequential_algorithm() -> None:
    for algorithm in (LinUCB(), LDPLinUCB(2.0, radius_scale=0.05)):
        fast_regret, fast_updates = _finals(algorithm, False, 1)
        slow_regret, slow_updates = _finals(algorithm, True, 2)
        assert scipy.stats.ks_2samp(fast_regret, slow_regret).pvalue > 1e-3, algorithm.name
        assert abs(fast_updates.mean() - slow_updates.mean()) < 4 * np.sqrt(
            (fast_updates.var() + slow_updates.var()) / RUNS) + 1e-9, algorithm.name
