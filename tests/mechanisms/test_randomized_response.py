"""Binary and k-ary randomized response: exact laws, exact integer sampler, golden stream."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from dpverify.mechanisms.randomized_response import (
    BinaryRandomizedResponse,
    FiniteLaw,
    RandomizedResponse,
    bernoulli_dyadic,
    binary_randomization_probability,
)
from dpverify.testing import strategies as dst

FLIPS = st.floats(min_value=1e-300, max_value=1.0, allow_nan=False)


@given(FLIPS, st.sampled_from([0, 1]))
def test_binary_law_is_exact_and_sums_to_one(p: float, x: int) -> None:
    law = BinaryRandomizedResponse(p).law_on(x)
    assert sum(law.probabilities) == 1  # exact Fractions
    assert law.pmf(x) == 1 - Fraction(p) / 2
    assert law.pmf(1 - x) == Fraction(p) / 2


@settings(max_examples=30)
@given(st.integers(2, 12), dst.epsilons(max_value=8.0), st.data())
def test_kary_law_sums_to_one_and_has_ratio_exp_epsilon(k: int, epsilon: float, data) -> None:
    x = data.draw(st.integers(0, k - 1))
    law = RandomizedResponse(k, epsilon).law_on(x)
    assert abs(mpmath.fsum(law.probabilities) - 1) < 1e-40
    other = (x + 1) % k
    assert abs(law.pmf(x) / law.pmf(other) - mpmath.exp(epsilon)) < 1e-40 * mpmath.exp(epsilon)


def test_finite_law_cdf_pmf_mean_variance_agree() -> None:
    law = FiniteLaw((Fraction(1, 8), Fraction(3, 8), Fraction(1, 2)), offset=-1)
    assert law.support() == (-1, 1)
    assert [law.cdf(k) for k in range(-2, 2)] == [0, Fraction(1, 8), Fraction(1, 2), 1]
    assert law.pmf(5) == 0 and law.logpmf(5) == mpmath.ninf
    assert law.mean() == Fraction(3, 8)
    assert law.variance() == Fraction(5, 8) - Fraction(3, 8) ** 2
    with pytest.raises(ValueError, match="probabilities"):
        FiniteLaw((Fraction(1, 2), Fraction(1, 3)))


def test_from_epsilon_never_exceeds_the_target() -> None:
    for epsilon in (1e-6, 0.1, 1.0, math.log(3), 5.0, 30.0):
        p = binary_randomization_probability(epsilon)
        with mpmath.workdps(60):
            achieved = mpmath.log((2 - mpmath.mpf(p)) / mpmath.mpf(p))
        assert achieved <= epsilon
        assert achieved >= epsilon * (1 - 1e-9)
    assert BinaryRandomizedResponse.from_epsilon(0.0).randomization_probability == 1.0


class _ScriptedGenerator:
    """A stand-in generator returning scripted 64-bit chunks (to force ties)."""

    def __init__(self, chunks: list[int]) -> None:
        self.chunks = list(chunks)

    def integers(self, low, high, size, dtype, endpoint):  # noqa: ANN001
        return np.full(size, self.chunks.pop(0), dtype=np.uint64)


def test_bernoulli_dyadic_resolves_ties_with_further_chunks() -> None:
    p = Fraction(3, 2 ** 64) + Fraction(1, 2 ** 100)  # two 64-bit digits: 3, then 2^28
    digits = [3, 2 ** 28]
    assert not bernoulli_dyadic(p, size=4, rng=_ScriptedGenerator(digits)).any()  # U >= p
    assert bernoulli_dyadic(p, size=4, rng=_ScriptedGenerator([3, 2 ** 28 - 1])).all()
    assert not bernoulli_dyadic(p, size=4, rng=_ScriptedGenerator([4])).any()
    assert bernoulli_dyadic(p, size=4, rng=_ScriptedGenerator([2])).all()


def test_bernoulli_dyadic_mean_by_binomial_test() -> None:
    """False-failure probability 1e-4 per probability (fixed seed, exact binomial test)."""
    rng = np.random.default_rng(20240601)
    for p in (0.3, 1 / 3, 2.0 ** -5, 0.999):
        draws = bernoulli_dyadic(p, size=200_000, rng=rng)
        assert stats.binomtest(int(draws.sum()), draws.size, p).pvalue > 1e-4
    assert bernoulli_dyadic(1.0, size=5, rng=rng).all()
    assert not bernoulli_dyadic(0.0, size=5, rng=rng).any()


@pytest.mark.parametrize("p, x", [(0.3, 0), (0.3, 1), (0.9, 1), (1.0, 0)])
def test_binary_sampler_matches_law(p: float, x: int) -> None:
    """Chi-square GOF at p > 1e-4 with a fixed seed (false-failure probability 1e-4)."""
    rng = np.random.default_rng(7 + int(10 * p) + x)
    draws = BinaryRandomizedResponse(p).simulate(x, rng=rng, size=100_000)
    expected = [float(q) * draws.size for q in BinaryRandomizedResponse(p).law_on(x).probabilities]
    observed = np.bincount(draws, minlength=2)
    assert stats.chisquare(observed, expected).pvalue > 1e-4


def test_kary_sampler_matches_law() -> None:
    """Chi-square GOF at p > 1e-4 for each input (fixed seed; false failure <= 3e-4)."""
    mechanism = RandomizedResponse(5, 1.3)
    rng = np.random.default_rng(11)
    for x in (0, 2, 4):
        draws = mechanism.simulate(np.full(60_000, x), rng=rng)
        expected = [float(q) * draws.size for q in mechanism.law_on(x).probabilities]
        assert stats.chisquare(np.bincount(draws, minlength=5), expected).pvalue > 1e-4


def test_simulate_is_vectorised_over_inputs() -> None:
    rng = np.random.default_rng(3)
    bits = np.array([0, 1] * 50_000)
    draws = BinaryRandomizedResponse(0.2).simulate(bits, rng=rng)
    assert draws.shape == bits.shape
    agree = (draws == bits).mean()
    assert abs(agree - 0.9) < 5 * math.sqrt(0.09 / bits.size)  # 5 sd: false failure < 1e-6


def test_binary_sampler_golden_stream() -> None:
    """The deployable (integer-only) sampler's first outputs for a fixed seed are pinned."""
    rng = np.random.default_rng(2024)
    draws = BinaryRandomizedResponse(0.25).simulate(np.zeros(16, dtype=int), rng=rng)
    assert draws.tolist() == GOLDEN


GOLDEN = [0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0]


@pytest.mark.parametrize("call, name", [
    (lambda: BinaryRandomizedResponse(0.0), "randomization_probability"),
    (lambda: BinaryRandomizedResponse(1.5), "randomization_probability"),
    (lambda: BinaryRandomizedResponse(math.nan), "randomization_probability"),
    (lambda: BinaryRandomizedResponse("0.5"), "randomization_probability"),
    (lambda: BinaryRandomizedResponse.from_epsilon(-1.0), "epsilon"),
    (lambda: BinaryRandomizedResponse(0.5).law_on(2), "x"),
    (lambda: BinaryRandomizedResponse(0.5).simulate([0, 2], rng=np.random.default_rng(0)), "x"),
    (lambda: RandomizedResponse(1, 1.0), "categories"),
    (lambda: RandomizedResponse(2.5, 1.0), "categories"),
    (lambda: RandomizedResponse(3, math.inf), "epsilon"),
    (lambda: RandomizedResponse(3, 1.0).law_on(3), "x"),
    (lambda: RandomizedResponse(3, 1.0).simulate([-1], rng=np.random.default_rng(0)), "x"),
    (lambda: bernoulli_dyadic(Fraction(1, 3), rng=np.random.default_rng(0)), "probability"),
])
def test_bad_input_names_the_parameter(call, name: str) -> None:
    with pytest.raises((ValueError, TypeError), match=name):
        call()
