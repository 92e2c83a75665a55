import math

import pytest

from dpverify.accountants.shuffle_papers import (
    garcelon_batch_length_ok, garcelon_per_batch_epsilon, hanna_local_epsilons,
    hanna_shuffle_epsilon, min_shuffler_batch_length)


def test_eq24_hand_value():
    log8, log2 = math.log(8e6), math.log(2e6)
    x = 0.5 - math.sqrt(2 * 0.5 * log2 / 1e6)
    hand = 2 * 4 * math.sqrt(8 * log8) * (1 - x) * math.sqrt(32 * log8 / (1e6 * x))
    assert garcelon_per_batch_epsilon(10**6, 0.5, m=1, d=1, delta0=1e-6) == pytest.approx(hand, rel=1e-12)


def test_eq24_validity():
    with pytest.raises(ValueError, match="batch_length"):
        garcelon_per_batch_epsilon(10, 0.5, m=1, d=1, delta0=1e-6)


@pytest.mark.parametrize("variant", ["printed", "derived"])
def test_min_batch_length_is_smallest(variant):
    kw = dict(T=10**6, m=1, d=1, flip_probability=0.5, variant=variant)
    l = min_shuffler_batch_length(0.5, 1e-6, **kw)
    assert garcelon_batch_length_ok(l, 0.5, 1e-6, **kw)
    assert not garcelon_batch_length_ok(l - 1, 0.5, 1e-6, **kw)


def test_derived_is_stricter_than_printed():
    kw = dict(T=10**6, m=1, d=1, flip_probability=0.5)
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
