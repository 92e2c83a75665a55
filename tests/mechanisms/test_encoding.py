"""Encoders: randomized rounding, unary codes and Garcelon et al. 2022's M_LDP (laws, debiasing, variance)."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dpverify.mechanisms.encoding import (
    LocalPrivatizer,
    m_ldp,
    mldp_randomization_probability,
    randomized_rounding,
    unary_encoding,
)


@pytest.mark.slow
@given(st.lists(st.floats(0.0, 1.0), min_size=1, max_size=20), st.integers(1, 10**6))
def test_randomized_rounding_lands_on_a_neighbouring_integer(values, precision) -> None:
    codes = randomized_rounding(values, precision=precision, rng=np.random.default_rng(0))
    scaled = np.asarray(values) * precision
    assert codes.dtype == np.int64
    assert np.all((codes == np.floor(scaled)) | (codes == np.floor(scaled) + 1))
    assert np.all((codes >= 0) & (codes <= precision))


def test_randomized_rounding_is_unbiased() -> None:
    """Mean within 5 standard errors (normal approx.; false failure < 1e-6 per value)."""
    rng = np.random.default_rng(42)
    for x, g in ((0.37, 10), (0.999, 7), (0.5, 3)):
        draws = randomized_rounding(np.full(200_000, x), precision=g, rng=rng)
        f = x * g - math.floor(x * g)
        assert abs(draws.mean() - x * g) < 5 * math.sqrt(f * (1 - f) / draws.size)
    assert randomized_rounding(0.25, precision=8, rng=rng) == 2  # integer xg: deterministic


def test_unary_encoding_is_a_thermometer_code_with_mean_mx() -> None:
    rng = np.random.default_rng(1)
    codes = unary_encoding(np.full(100_000, 0.3), bits=4, rng=rng)
    assert codes.shape == (100_000, 4)
    ones = codes.sum(axis=1)
    assert np.array_equal(codes, (np.arange(4) < ones[:, None]).astype(np.int8))
    assert set(np.unique(ones)) == {1, 2}
    assert abs(ones.mean() - 1.2) < 5 * math.sqrt(0.2 * 0.8 / ones.size)  # false failure < 1e-6


@pytest.mark.slow
@given(st.floats(1e-3, 50.0), st.integers(1, 6), st.integers(1, 5))
def test_randomization_probability_matches_the_printed_formula(epsilon_0, bits, dimension) -> None:
    p = mldp_randomization_probability(epsilon_0, bits=bits, dimension=dimension)
    printed = 2 / (math.exp(2 * epsilon_0 / (bits * dimension * (dimension + 3))) + 1)
    assert p == pytest.approx(printed, rel=1e-13)
    with mpmath.workdps(60):
        per_bit = mpmath.log((2 - mpmath.mpf(p)) / mpmath.mpf(p))
        total = bits * dimension * (dimension + 3) / 2 * per_bit
    assert total <= epsilon_0  # p rounded up: never more than epsilon_0
    # p near 1 is a float: ln((2-p)/p) ≈ 2(1-p) keeps ~1e-16/(1-p) relative precision
    assert total >= epsilon_0 * (1 - 1e-9)


def test_simulate_mirrors_the_gram_bits_and_has_the_stated_shapes() -> None:
    mechanism = LocalPrivatizer(dimension=3, bits=2, local_epsilon=2.0, context_bound=2.0)
    contexts = np.array([[1.0, -1.0, 0.5], [0.0, 0.0, 2.0]])
    b, w = mechanism.simulate(contexts, np.array([0.2, 1.0]), rng=np.random.default_rng(3))
    assert b.shape == (2, 3, 2) and w.shape == (2, 3, 3, 2)
    assert np.array_equal(w, np.swapaxes(w, 1, 2))
    assert mechanism.number_of_bits == 2 * 3 * 6 // 2
    b2, w2 = m_ldp(contexts, [0.2, 1.0], context_bound=2.0, local_epsilon=2.0, bits=2,
                   rng=np.random.default_rng(3))
    assert np.array_equal(b, b2) and np.array_equal(w, w2)


@pytest.mark.parametrize("value", [0.0, 0.3, 0.5, 0.8125, 1.0])
def test_entry_estimate_is_exactly_unbiased_with_the_stated_variance(value: float) -> None:
    mechanism = LocalPrivatizer(dimension=1, bits=3, local_epsilon=1.5, context_bound=1.0)
    law = mechanism.entry_law(value)
    assert sum(law.probabilities) == 1
    p, m = Fraction(mechanism.randomization_probability), mechanism.bits
    estimate = {o: (Fraction(bin(o).count("1"), m) - p / 2) / (1 - p) for o in range(2 ** m)}
    mean = sum(q * estimate[o] for o, q in enumerate(law.probabilities))
    variance = sum(q * (estimate[o] - mean) ** 2 for o, q in enumerate(law.probabilities))
    assert mean == Fraction(value)
    assert variance == mechanism.entry_variance(value)
    floats = mechanism.estimate_entries([bin(o).count("1") for o in range(2 ** m)])
    assert sum(float(q) * e for q, e in zip(law.probabilities, floats)) == pytest.approx(value,
                                                                                         abs=1e-12)


def test_scaled_estimates_are_unbiased_over_many_users() -> None:
    """Σ r x and Σ x xᵀ within 5 exact standard deviations (false failure < 1e-5 overall)."""
    mechanism = LocalPrivatizer(dimension=2, bits=2, local_epsilon=4.0, context_bound=1.0)
    users, x, r = 20_000, np.array([0.6, -0.7]), 0.8
    b, w = mechanism.simulate(np.tile(x, (users, 1)), np.full(users, r),
                              rng=np.random.default_rng(9))
    reward_context = mechanism.estimate_reward_context(b.sum(axis=(0, 2)), users=users)
    gram = mechanism.estimate_gram(w.sum(axis=(0, 3)), users=users)
    y, z = mechanism.encoded_values(x, r)
    for j in range(2):
        sd = 2 * math.sqrt(users * float(mechanism.entry_variance(float(y[j]))))
        assert abs(reward_context[j] - users * r * x[j]) < 5 * sd
        for i in range(2):
            sd = 2 * math.sqrt(users * float(mechanism.entry_variance(float(z[i, j]))))
            assert abs(gram[i, j] - users * x[i] * x[j]) < 5 * sd


@pytest.mark.parametrize("bits", [1, 2])
def test_privacy_loss_between_matches_full_enumeration(bits: int) -> None:
    """d = 1: the product over entries equals the law over the whole output space."""
    mechanism = LocalPrivatizer(dimension=1, bits=bits, local_epsilon=1.0, context_bound=1.0)
    first, second = ([0.75], 0.5), ([-1.0], 1.0)

    def full_law(inputs):
        laws = [mechanism.entry_law(v).probabilities for v in mechanism.exact_entries(*inputs)]
        return [math.prod(parts) for parts in itertools.product(*laws)]

    p, q = full_law(first), full_law(second)
    assert sum(p) == 1
    ratio = max(a / b for a, b in zip(p, q))
    with mpmath.workdps(50):
        expected = mpmath.log(mpmath.mpf(ratio.numerator) / ratio.denominator)
        assert abs(mechanism.privacy_loss_between(first, second) - expected) < 1e-40


@pytest.mark.parametrize("call, name", [
    (lambda: randomized_rounding([0.5, 1.5], precision=4, rng=np.random.default_rng(0)), "x"),
    (lambda: randomized_rounding([math.nan], precision=4, rng=np.random.default_rng(0)), "x"),
    (lambda: randomized_rounding(0.5, precision=0, rng=np.random.default_rng(0)), "precision"),
    (lambda: randomized_rounding(0.5, precision=2 ** 60, rng=np.random.default_rng(0)),
     "precision"),
    (lambda: unary_encoding(0.5, bits=0, rng=np.random.default_rng(0)), "bits"),
    (lambda: mldp_randomization_probability(0.0, bits=1, dimension=1), "local_epsilon"),
    (lambda: mldp_randomization_probability(1.0, bits=1.5, dimension=1), "bits"),
    (lambda: mldp_randomization_probability(1.0, bits=1, dimension=0), "dimension"),
    (lambda: LocalPrivatizer(2, 1, 1.0, -1.0), "context_bound"),
    (lambda: LocalPrivatizer(2, 1, math.nan, 1.0), "local_epsilon"),
    (lambda: LocalPrivatizer(2, 1, 1.0, 1.0).simulate([1.0, 1.0], 0.5,
                                                       rng=np.random.default_rng(0)), "context"),
    (lambda: LocalPrivatizer(2, 1, 1.0, 1.0).simulate([0.1, 0.1, 0.1], 0.5,
                                                       rng=np.random.default_rng(0)), "context"),
    (lambda: LocalPrivatizer(2, 1, 1.0, 1.0).simulate([0.1, 0.1], 1.5,
                                                       rng=np.random.default_rng(0)), "reward"),
    (lambda: LocalPrivatizer(2, 1, 1.0, 1.0).estimate_entries([1, 1], users=0), "users"),
    (lambda: LocalPrivatizer(2, 1, 1.0, 1.0).entry_law(1.5), "value"),
    (lambda: m_ldp([0.1], 0.5, context_bound=1.0, local_epsilon=1.0, bits=0,
                   rng=np.random.default_rng(0)), "bits"),
])
def test_bad_input_names_the_parameter(call, name: str) -> None:
    with pytest.raises((ValueError, TypeError), match=name):
        call()
