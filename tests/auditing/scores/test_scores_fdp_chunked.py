"""The chunked one-run f-DP recursion (issue 27, stop 35) against the stepwise one and exact values."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import dpverify.auditing.scores._fdp_one_run as fdp
from dpverify.auditing.scores._fdp_chunked import (
    chunked_refutes,
    chunked_refutes_groups,
    epsilon_curve,
    gaussian_curve,
)
from dpverify.auditing.scores._fdp_one_run import fdp_one_run_bound, recursion_total, refuted


def _stepwise(canaries, guesses, correct, level, curve, parameters, **_):
    """The same decision by the stepwise recursion (``refuted``) on the same lowered ``g``."""
    value_and_slope, parameters = curve[0], np.asarray(parameters, dtype=float)
    return refuted(canaries, guesses, correct, level, lambda x: value_and_slope(x, parameters)[0], parameters.size)


def _stepwise_groups(canaries, groups, **_):
    return [_stepwise(canaries, *group) for group in groups]


def _exact_total(m: int, guesses: int, correct: int, level: float, inverse) -> mpmath.mpf:
    """The recursion in exact-enough arithmetic (mpmath, 50 digits) on the exact ``g``."""
    with mpmath.workdps(50):
        r = mpmath.mpf(level) * correct / m
        h = mpmath.mpf(level) * (guesses - correct) / m
        for i in range(correct - 1, -1, -1):
            h_new = max(h, inverse(min(r, mpmath.mpf(1))))
            r, h = r + mpmath.mpf(i) / (guesses - i) * (h_new - h), h_new
        return r + h


def _exact_epsilon_inverse(epsilon: float, delta: float):
    factor = mpmath.exp(mpmath.mpf(epsilon))
    return lambda x: max(mpmath.mpf(0), (x - delta) / factor, 1 - delta - factor * (1 - x))


def _exact_gaussian(mu: float):
    """``Φ(Φ⁻¹(x) − μ)`` with ``Φ⁻¹(x) = √2·erf⁻¹(2x − 1)``."""

    def inverse(x):
        if x <= 0:
            return mpmath.mpf(0)
        if x >= 1:
            return mpmath.mpf(1)
        return mpmath.ncdf(mpmath.sqrt(2) * mpmath.erfinv(2 * x - 1) - mu)

    return inverse


@settings(max_examples=60, deadline=None)
@given(
    st.integers(4, 3000),
    st.data(),
    st.sampled_from([0.05, 0.2, 1e-3]),
    st.sampled_from([0.0, 1e-5, 1e-2]),
    st.booleans(),
)
def test_decisions_agree_with_the_stepwise_recursion(m, data, level, delta, gaussian) -> None:
    """Chunked and stepwise decisions agree wherever the stepwise total is 10⁻⁶ away from the
    bound: the chunks lose no tightness and refute nothing the stepwise recursion is far from."""
    guesses = data.draw(st.integers(1, m))
    correct = data.draw(st.integers(0, guesses))
    curve = gaussian_curve() if gaussian else epsilon_curve(delta)
    parameters = np.linspace(0.05, 5.0, 12) if gaussian else np.exp(np.linspace(0.05, 6.0, 12))
    args = (m, np.array([guesses]), np.array([correct]), level)
    value_and_slope = curve[0]
    total = recursion_total(*args, lambda x: value_and_slope(x, parameters)[0], parameters.size)[0]
    bound = guesses / m
    for early in (True, False):
        fast = chunked_refutes(*args, curve, parameters, early=early)[0]
        assert not np.any(fast & (total < bound * (1 - 1e-6))), (fast, total / bound)
        assert np.all(fast | (total < bound * (1 + 1e-6))), (fast, total / bound)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 400), st.data(), st.sampled_from([0.05, 0.3]), st.booleans())
def test_a_chunked_refutation_is_an_exact_one(m, data, level, gaussian) -> None:
    """Against the recursion in 50-digit arithmetic on the exact g: every chunked refutation
    has exact r_0 + h_0 > c'/m (the soundness of §16's chunks, on random small cases)."""
    guesses = data.draw(st.integers(1, m))
    correct = data.draw(st.integers(1, guesses))
    parameters = np.linspace(0.1, 4.0, 8)
    curve = gaussian_curve() if gaussian else epsilon_curve(1e-5)
    values = parameters if gaussian else np.exp(parameters)
    fast = chunked_refutes(m, np.array([guesses]), np.array([correct]), level, curve, values)[0]
    for parameter, rejected in zip(parameters, fast):
        if rejected:
            inverse = _exact_gaussian(parameter) if gaussian else _exact_epsilon_inverse(parameter, 1e-5)
            assert _exact_total(m, guesses, correct, level, inverse) > mpmath.mpf(guesses) / m


@pytest.mark.parametrize("epsilon", [0.5, 2.0])
@pytest.mark.parametrize(("m", "guesses"), [(20, 10), (1000, 200), (5000, 2000)])
def test_exact_false_alarm_of_randomized_response(m, guesses, epsilon) -> None:
    """W ~ Bin(c', e^ε/(1 + e^ε)) (randomized response, the worst case for pure DP): the
    exact probability that the chunks refute its own ε is below the level."""
    counts = np.arange(guesses + 1)
    rejected = chunked_refutes(
        m, np.full(counts.size, guesses), counts, 0.05, epsilon_curve(0.0), np.array([math.exp(epsilon)])
    )[:, 0]
    accuracy = math.exp(epsilon) / (1 + math.exp(epsilon))
    assert stats.binom.pmf(counts, guesses, accuracy)[rejected].sum() <= 0.05
    if guesses >= 200:  # and the same computation has teeth: a false ε/2 exceeds the level
        wrong = chunked_refutes(
            m, np.full(counts.size, guesses), counts, 0.05, epsilon_curve(0.0), np.array([math.exp(epsilon / 2)])
        )[:, 0]
        assert stats.binom.pmf(counts, guesses, accuracy)[wrong].sum() > 0.05


@pytest.mark.parametrize("delta", [0.0, 1e-5, 0.01])
def test_epsilon_slope_is_a_tangent_below_g(delta) -> None:
    """``g(x₀) + slope·(x − x₀) ≤ g(x)`` for x ≥ x₀, across the kink and below δ."""
    value_and_slope = epsilon_curve(delta).value_and_slope
    factor = np.array([math.exp(1.5)])
    x0 = np.concatenate([np.linspace(0, 1, 401), [delta, 0.8175744761936437]])
    grid = np.linspace(0, 1, 2001)
    for start in x0:
        value, slope = value_and_slope(np.array([start]), factor)
        later = grid[grid >= start]
        exact = np.maximum(np.maximum((later - delta) / factor, 1 - delta - factor * (1 - later)), 0)
        assert np.all(value + slope * (later - start) <= exact * (1 + 1e-12) + 1e-15)


@pytest.mark.parametrize("mu", [0.3, 1.0, 4.0])
def test_gaussian_slope_is_the_derivative_lowered(mu) -> None:
    value_and_slope, slope_of, value_of = gaussian_curve()
    x = np.logspace(-12, -1e-3, 300)
    value, slope = value_and_slope(x, np.full(x.size, mu))
    step = 1e-7 * x
    numeric = (stats.norm.cdf(stats.norm.ppf(x + step) - mu) - stats.norm.cdf(stats.norm.ppf(x) - mu)) / step
    assert np.all(slope <= numeric * (1 + 1e-5))  # convex: the forward difference is above g'
    assert np.all(slope >= numeric * (1 - 1e-4))
    assert np.array_equal(slope, slope_of(x, np.full(x.size, mu)))
    assert np.array_equal(value, value_of(x, np.full(x.size, mu)))


@pytest.mark.parametrize("delta", [0.0, 1e-5, 0.01])
def test_epsilon_value_alone_is_the_same_float(delta) -> None:
    curve = epsilon_curve(delta)
    x = np.concatenate([np.linspace(0, 1, 1001), np.logspace(-12, 0, 300)])
    factors = np.exp(np.linspace(0.0, 8.0, x.size))
    assert np.array_equal(curve.value_and_slope(x, factors)[0], curve.value(x, factors))


def _random_group(data, m: int):
    pairs = data.draw(st.integers(0, 4))
    guesses = np.array([data.draw(st.integers(1, m)) for _ in range(pairs)], dtype=np.int64)
    correct = np.array([data.draw(st.integers(g // 2, g)) for g in guesses], dtype=np.int64)
    gaussian = data.draw(st.booleans())
    top = data.draw(st.floats(0.2, 6.0))
    grid = np.linspace(0.0, top, data.draw(st.integers(1, 40)) + 1)[1:]
    level = data.draw(st.sampled_from([0.05, 0.05 / 29, 1e-3]))
    if gaussian:
        return guesses, correct, level, gaussian_curve(), grid
    return guesses, correct, level, epsilon_curve(data.draw(st.sampled_from([0.0, 1e-5]))), np.exp(grid)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([30, 2000, 60000]), st.data(), st.booleans(), st.booleans())
def test_groups_decide_as_they_would_alone(m, data, early, largest_only) -> None:
    """chunked_refutes_groups: each group's decisions are those of chunked_refutes on it alone
    (the plain-step and floor choices are per group; the rest is per entry)."""
    groups = [_random_group(data, m) for _ in range(data.draw(st.integers(1, 3)))]
    together = chunked_refutes_groups(m, groups, early=early, largest_only=largest_only)
    for group, decided in zip(groups, together):
        alone = chunked_refutes(m, *group, early=early, largest_only=largest_only)
        assert decided.shape == alone.shape
        assert np.array_equal(decided, alone)


def _scores(kind: str, canaries: int, seed: int):
    rng = np.random.default_rng(seed)
    included = rng.random(canaries) < 0.5
    if kind == "gaussian":
        scores = rng.normal(size=canaries) + 2.0 * included
    else:
        keep = rng.random(canaries) < math.exp(2.0) / (1 + math.exp(2.0))
        scores = np.where(keep, included, ~included).astype(float)
    return scores[included], scores[~included]


@settings(max_examples=25, deadline=None)
@given(
    st.sampled_from(["gaussian", "rr"]), st.integers(20, 600), st.integers(0, 2**32 - 1), st.sampled_from([0.0, 1e-5])
)
def test_the_bound_equals_the_stepwise_bound(kind, canaries, seed, delta) -> None:
    """fdp_one_run_bound with the chunked engine reports the ε and μ of the stepwise engine."""
    in_scores, out_scores = _scores(kind, canaries, seed)
    if in_scores.size == 0 or out_scores.size == 0:
        return
    fast = fdp_one_run_bound(
        in_scores, out_scores, delta=delta, failure_probability=0.05, rng=np.random.default_rng(seed)
    )
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(fdp, "chunked_refutes_groups", _stepwise_groups)
        slow = fdp_one_run_bound(
            in_scores, out_scores, delta=delta, failure_probability=0.05, rng=np.random.default_rng(seed)
        )
    assert fast == slow


@settings(max_examples=40, deadline=None)
@given(st.integers(20, 3000), st.data(), st.booleans())
def test_largest_only_keeps_the_largest_refutation_and_its_pairs(m, data, gaussian) -> None:
    """With largest_only, only entries below an already refuted parameter may change: the
    largest refuted parameter and every column at or above it are as without."""
    pairs = data.draw(st.integers(1, 4))
    guesses = np.array([data.draw(st.integers(1, m)) for _ in range(pairs)])
    correct = np.array([data.draw(st.integers(0, g)) for g in guesses])
    curve = gaussian_curve() if gaussian else epsilon_curve(1e-5)
    parameters = np.linspace(0.05, 4.0, 20) if gaussian else np.exp(np.linspace(0.05, 5.0, 20))
    full = chunked_refutes(m, guesses, correct, 0.05, curve, parameters)
    lean = chunked_refutes(m, guesses, correct, 0.05, curve, parameters, largest_only=True)
    assert not np.any(lean & ~full)
    if full.any():
        top = int(np.flatnonzero(full.any(axis=0))[-1])
        assert np.array_equal(lean[:, top:], full[:, top:])
    else:
        assert not lean.any()


@given(st.one_of(st.floats(1e-300, 1e300), st.floats(1e-6, 100.0),
                 st.integers(-60, 60).map(lambda k: 2.0 ** k)))
def test_the_searches_final_rounding_is_round_down(value) -> None:
    from dpverify._numeric import round_down

    assert fdp._lowered(value) == round_down(value, relative_error=1e-12)
