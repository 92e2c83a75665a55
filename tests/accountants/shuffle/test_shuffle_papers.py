import math

import pytest

from dpverify.accountants.composition import advanced_composition
from dpverify.accountants.shuffle import min_randomization_probability
from dpverify.accountants.shuffle.papers import (
    GARCELON_COMPOSITIONS,
    garcelon_batch_length_ok,
    garcelon_per_batch_epsilon,
    garcelon_total_guarantee,
    hanna_local_epsilons,
    hanna_shuffle_epsilon,
    min_shuffler_batch_length,
    tenenbaum_batch_size,
    tenenbaum_msum_sigma,
    tenenbaum_noise_bits,
)
from dpverify.mechanisms._noise_maps import binomial_noise_delta


def test_eq24_hand_value():
    log8, log2 = math.log(8e6), math.log(2e6)
    x = 0.5 - math.sqrt(2 * 0.5 * log2 / 1e6)
    hand = 2 * 4 * math.sqrt(8 * log8) * (1 - x) * math.sqrt(32 * log8 / (1e6 * x))
    assert garcelon_per_batch_epsilon(10**6, 0.5, bits=1, dimension=1, delta=1e-6) == pytest.approx(hand, rel=1e-12)


def test_eq24_validity():
    with pytest.raises(ValueError, match="batch_length"):
        garcelon_per_batch_epsilon(10, 0.5, bits=1, dimension=1, delta=1e-6)


@pytest.mark.parametrize("variant", ["printed", "derived"])
def test_min_batch_length_is_smallest(variant):
    kw = dict(horizon=10**6, bits=1, dimension=1, randomization_probability=0.5, variant=variant)
    l = min_shuffler_batch_length(0.5, 1e-6, **kw)
    assert garcelon_batch_length_ok(l, 0.5, 1e-6, **kw)
    assert not garcelon_batch_length_ok(l - 1, 0.5, 1e-6, **kw)


def test_derived_is_stricter_than_printed():
    kw = dict(horizon=10**6, bits=1, dimension=1, randomization_probability=0.5)
    assert (min_shuffler_batch_length(0.5, 1e-6, variant="derived", **kw)
            >= min_shuffler_batch_length(0.5, 1e-6, variant="printed", **kw))


def test_hanna_inverse_round_trip():
    for n, e0 in zip([10**4, 10**6], hanna_local_epsilons([10**4, 10**6], 0.1, 1e-6)):
        cap = math.log(n / (16 * math.log(2e6)))
        assert e0 >= cap * (1 - 1e-9) or hanna_shuffle_epsilon(e0 * (1 + 1e-9), n, 1e-6) > 0.1
        assert hanna_shuffle_epsilon(e0, n, 1e-6) <= 0.1


def test_hanna_validity_errors():
    with pytest.raises(ValueError, match="local_epsilon"):
        hanna_shuffle_epsilon(10.0, 1000, 1e-6)
    with pytest.raises(ValueError, match="no local_epsilon"):
        hanna_local_epsilons([100], 0.1, 1e-6)


GARCELON_RUN = dict(batch_length=10**7, horizon=10**8, randomization_probability=0.5, bits=1,
                    dimension=1, delta=1e-6, delta_slack=1e-6)


def test_garcelon_total_advanced_is_drv_over_the_batches():
    """k = ⌈T/l⌉ batches of (Eq. 24 with δ0/T, δ0/T) composed by DRV."""
    per_batch = garcelon_per_batch_epsilon(10**7, 0.5, bits=1, dimension=1, delta=1e-6 / 10**8)
    expected = advanced_composition(per_batch, 1e-14, 10, delta_slack=1e-6)
    assert garcelon_total_guarantee(**GARCELON_RUN) == expected


def test_garcelon_total_tighter_compositions():
    """Optimal (KOV) and PLD agree and are below advanced; all at the same total δ <= δ0 + δ'."""
    totals = {c: garcelon_total_guarantee(**GARCELON_RUN, composition=c) for c in GARCELON_COMPOSITIONS}
    assert totals["optimal"].epsilon < totals["advanced"].epsilon
    assert totals["pld"].epsilon == pytest.approx(totals["optimal"].epsilon, rel=1e-6)
    assert totals["pld"].epsilon >= totals["optimal"].epsilon * (1 - 1e-12)  # PLD is pessimistic
    assert all(t.delta <= 2e-6 * (1 + 1e-9) for t in totals.values())


def test_garcelon_total_counts_a_partial_last_batch():
    one = garcelon_total_guarantee(**{**GARCELON_RUN, "horizon": 10**7}, composition="optimal")
    two = garcelon_total_guarantee(**{**GARCELON_RUN, "horizon": 10**7 + 1}, composition="optimal")
    assert two.epsilon > one.epsilon


@pytest.mark.parametrize("epsilon, delta", [(1.0, 1e-6), (0.3, 1e-8), (0.05, 1e-5)])
def test_tenenbaum_noise_bits_is_the_smallest_exact_n(epsilon, delta):
    bits = tenenbaum_noise_bits(epsilon, delta)
    assert binomial_noise_delta(bits, epsilon) <= delta < binomial_noise_delta(bits - 1, epsilon)


def test_tenenbaum_sigma_noise_bits():
    bits = tenenbaum_noise_bits(0.5, 1e-6)
    assert tenenbaum_msum_sigma(0.5, 1e-6) == pytest.approx(math.sqrt(bits) / 2, rel=1e-15)
    assert tenenbaum_msum_sigma(0.5, 1e-6) >= math.sqrt(bits) / 2
    # a batch carries exactly N coins, so σ does not depend on its size
    assert tenenbaum_msum_sigma(0.5, 1e-6, batch_size=7) == tenenbaum_msum_sigma(0.5, 1e-6)


@pytest.mark.slow
def test_tenenbaum_sigma_randomized_response():
    m = 10**4
    p = min_randomization_probability(m, 0.5, 1e-6)
    assert tenenbaum_msum_sigma(0.5, 1e-6, protocol="randomized-response", batch_size=m) == (
        pytest.approx(math.sqrt(m) / (2 * (1 - p)), rel=1e-12))
    with pytest.raises(ValueError, match="batch_size"):
        tenenbaum_msum_sigma(0.5, 1e-6, protocol="randomized-response")
    local = 2 / (math.exp(0.5) + 1)  # three users: hardly any amplification
    assert tenenbaum_msum_sigma(0.5, 1e-6, protocol="randomized-response", batch_size=3) >= (
        math.sqrt(3) / (2 * (1 - local * 0.999)))


def test_tenenbaum_batch_size_readings():
    sigma = tenenbaum_msum_sigma(0.1, 1e-6)
    bits = tenenbaum_noise_bits(0.1, 1e-6)
    assert tenenbaum_batch_size(sigma) == math.ceil(bits / 4)
    assert tenenbaum_batch_size(sigma, reading="printed") == math.ceil(math.sqrt(bits) / 2)
    assert tenenbaum_batch_size(2.5) == 7 and tenenbaum_batch_size(2.0) == 4
    with pytest.raises(ValueError, match="reading"):
        tenenbaum_batch_size(2.0, reading="linear")
