"""The shared formulas: Chowdhury & Zhou 2023's β(b), Tenenbaum et al. 2021's I^t_a, strict elimination, schedules."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dpverify.bandits.mab._elimination import (
    chowdhury_radius,
    geometric_batch_sizes,
    radius_p,
    surviving_arms,
    tenenbaum_width,
)
from dpverify.bandits.privatizers._base import ErrorLaw


def test_chowdhury_radius_is_lemma2() -> None:
    """β(b) = √(log(4|Φ|b²/p)/(2l)) + σ√log(2|Φ|b²/p)/l + h log(2|Φ|b²/p)/l (Chowdhury & Zhou 2023, Lemma 2).
    """
    l, k, b, p, sigma, h = 256, 7, 4, 0.1, 2.5, 3.0
    expected = (math.sqrt(math.log(4 * k * b * b / p) / (2 * l))
                + sigma * math.sqrt(math.log(2 * k * b * b / p)) / l
                + h * math.log(2 * k * b * b / p) / l)
    got = chowdhury_radius(l, active_arms=k, batch_index=b, failure_probability=p,
                           error_law=ErrorLaw(sigma=sigma, sub_exponential_scale=h))
    assert got == pytest.approx(expected, rel=1e-14)


def test_tenenbaum_width_is_the_papers_formula() -> None:
    t, sigma, pulls, horizon = 5, 4.0, 62, 10 ** 6
    expected = (2 * math.sqrt(t) * sigma / pulls + 1 / math.sqrt(pulls)) * math.sqrt(2 * math.log(horizon))
    assert tenenbaum_width(pulls, error_variance=t * sigma ** 2, horizon=horizon) == \
        pytest.approx(expected, rel=1e-14)


def test_elimination_is_strict_and_over_the_active_set() -> None:
    assert surviving_arms([0, 1], {0: 0.75, 1: 0.25}, 0.25) == [0, 1]  # UCB = max LCB: kept
    assert surviving_arms([0, 1], {0: 0.75, 1: 0.25}, 0.2) == [0]
    # an eliminated arm with a high LCB does not count: only the arms passed are compared
    assert surviving_arms([1, 2], {0: 10.0, 1: 0.5, 2: 0.4}, 0.1) == [1, 2]
    assert surviving_arms([0, 1], {0: 0.5, 1: 0.1}, {0: 0.1, 1: 0.5}) == [0, 1]


@pytest.mark.slow
@given(st.lists(st.floats(0, 1), min_size=1, max_size=12), st.floats(0, 1))
def test_the_empirically_best_arm_always_survives(means, width) -> None:
    active = list(range(len(means)))
    survivors = surviving_arms(active, dict(enumerate(means)), width)
    assert max(range(len(means)), key=lambda a: means[a]) in survivors
    assert survivors == sorted(survivors) and set(survivors) <= set(active)


@given(st.integers(2, 6), st.integers(1, 10 ** 9))
def test_geometric_schedule(base, horizon) -> None:
    sizes = geometric_batch_sizes(base, horizon)
    if base > horizon:
        assert sizes == [horizon]
        return
    assert sizes == [base ** b for b in range(1, len(sizes) + 1)]
    assert sizes[-1] <= horizon < sizes[-1] * base


def test_failure_probability_defaults_to_one_over_horizon() -> None:
    assert radius_p(None, 1000) == 1e-3
    with pytest.raises(ValueError, match="failure_probability"):
        radius_p(0.0, 10)
