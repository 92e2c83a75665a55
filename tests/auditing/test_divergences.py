"""Two-sample hockey-stick lower bounds."""

from __future__ import annotations

import numpy as np
import pytest

from dpverify.auditing.divergences import hockey_stick_lower_bound
from dpverify.auditing.exact import exact_delta
from dpverify.mechanisms.continuous import laplace_privacy_profile


@pytest.mark.parametrize("epsilon", [0.0, 0.5, 1.5])
def test_laplace_bound_is_below_and_near_the_exact_profile(epsilon: float) -> None:
    rng = np.random.default_rng(int(epsilon * 10))
    p, q = rng.laplace(0.0, 1.0, 300_000), rng.laplace(1.0, 1.0, 300_000)
    exact = laplace_privacy_profile(1.0).delta_for_epsilon(epsilon)
    bound = hockey_stick_lower_bound(p, q, epsilon=epsilon)
    assert bound.delta_lower_bound <= exact
    assert bound.delta_lower_bound >= exact - 0.03 if exact > 0 else bound.delta_lower_bound == 0


def test_discrete_bound_is_below_the_exact_divergence() -> None:
    rng = np.random.default_rng(3)
    weights_p, weights_q = np.array([0.5, 0.3, 0.2]), np.array([0.2, 0.3, 0.5])
    p = rng.choice(3, size=100_000, p=weights_p)
    q = rng.choice(3, size=100_000, p=weights_q)
    exact = exact_delta(weights_p.tolist(), weights_q.tolist(), epsilon=0.5)
    bound = hockey_stick_lower_bound(p, q, epsilon=0.5)
    assert 0.0 < bound.delta_lower_bound <= exact


def test_unequal_sample_sizes_are_refused() -> None:
    with pytest.raises(ValueError, match="samples_prime"):
        hockey_stick_lower_bound(np.zeros(100), np.zeros(90), epsilon=1.0)
