"""Privacy maps of the local randomizers, checked against exact computations from their laws."""

from __future__ import annotations

import itertools
import math
import re

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.errors import UnsupportedError
from dpverify.guarantees import PrivacyProfile, PureDP, RDPCurve
from dpverify.mechanisms.encoding import LocalPrivatizer
from dpverify.mechanisms.privacy_maps import privacy_map, supported_guarantees
from dpverify.mechanisms.randomized_response import BinaryRandomizedResponse, RandomizedResponse


def _max_log_ratio(first, second) -> mpmath.mpf:
    """Exact max over outcomes of ln(P/Q), in both orders (the worst pair's pure ε)."""
    with mpmath.workdps(60):
        to_mpf = lambda v: mpmath.mpf(v.numerator) / v.denominator if hasattr(v, "numerator") \
            else mpmath.mpf(v)  # noqa: E731
        p, q = [to_mpf(v) for v in first], [to_mpf(v) for v in second]
        return max(mpmath.log(a / b) for a, b in itertools.chain(zip(p, q), zip(q, p)))


@settings(max_examples=40)
@given(st.floats(1e-12, 1.0))
def test_binary_rr_map_equals_exact_epsilon_of_the_worst_pair(p: float) -> None:
    mechanism = BinaryRandomizedResponse(p)
    exact = _max_log_ratio(mechanism.law_on(0).probabilities, mechanism.law_on(1).probabilities)
    epsilon = privacy_map(mechanism).epsilon
    assert epsilon >= exact  # sound
    assert epsilon <= exact * (1 + 1e-14) + 1e-300  # tight (up to the upward float rounding)


@pytest.mark.parametrize("p", [0.05, 0.5, 0.9])
def test_binary_rr_profile_is_the_exact_hockey_stick(p: float) -> None:
    profile = privacy_map(BinaryRandomizedResponse(p), target=PrivacyProfile)
    for epsilon in (0.0, 0.3, 1.0, 3.0):
        closed_form = max(0.0, (1 - p / 2) - math.exp(epsilon) * p / 2)
        assert profile.delta_for_epsilon(epsilon) == pytest.approx(closed_form, rel=1e-12,
                                                                   abs=1e-300)
        assert profile.delta_for_epsilon(epsilon) >= closed_form * (1 - 1e-15)
    assert profile.delta_for_epsilon(privacy_map(BinaryRandomizedResponse(p)).epsilon) == 0.0


@pytest.mark.parametrize("k, epsilon", [(2, 1.0), (3, 0.5), (10, 2.0), (4, 0.0)])
def test_kary_rr_map_equals_exact_epsilon_of_the_worst_pair(k: int, epsilon: float) -> None:
    mechanism = RandomizedResponse(k, epsilon)
    exact = max(_max_log_ratio(mechanism.law_on(a).probabilities, mechanism.law_on(b).probabilities)
                for a, b in itertools.combinations(range(k), 2))
    assert abs(privacy_map(mechanism).epsilon - exact) < 1e-30
    profile = privacy_map(mechanism, target=PrivacyProfile)
    expected = max(0.0, (math.exp(epsilon) - math.exp(epsilon / 2)) / (math.exp(epsilon) + k - 1))
    assert profile.delta_for_epsilon(epsilon / 2) == pytest.approx(expected, rel=1e-12)


def _input_grid(dimension: int, bound: float):
    """Extreme and interior inputs (x, r): sphere points, axes, zero; r in {0, 1/2, 1}."""
    angles = [2 * math.pi * i / 8 for i in range(8)]
    if dimension == 1:
        contexts = [[bound], [-bound], [0.0], [bound / 3]]
    else:
        contexts = [[bound * math.cos(a), bound * math.sin(a)] for a in angles] + [[0.0, 0.0]]
    return [(c, r) for c in contexts for r in (0.0, 0.5, 1.0)]


@pytest.mark.slow
@pytest.mark.parametrize("dimension, bits", [(1, 1), (1, 2), (2, 1), (2, 2)])
def test_mldp_map_bounds_the_exact_loss_over_inputs(dimension: int, bits: int) -> None:
    """Brute force over a grid of inputs: the map's ε >= the exact max log-ratio."""
    mechanism = LocalPrivatizer(dimension=dimension, bits=bits, local_epsilon=1.0, context_bound=1.0)
    epsilon = privacy_map(mechanism).epsilon
    grid = _input_grid(dimension, 1.0)
    worst = max(mechanism.privacy_loss_between(a, b) for a, b in itertools.permutations(grid, 2))
    assert 0 < worst <= epsilon
    assert epsilon <= mechanism.local_epsilon  # p rounded up: the map never exceeds the printed ε0
    assert epsilon == pytest.approx(mechanism.local_epsilon, rel=1e-14)


def test_mldp_map_is_the_per_bit_epsilon_times_the_number_of_bits() -> None:
    mechanism = LocalPrivatizer(dimension=3, bits=4, local_epsilon=2.0, context_bound=1.0)
    per_bit = privacy_map(BinaryRandomizedResponse(mechanism.randomization_probability)).epsilon
    assert mechanism.number_of_bits == 4 * 3 * 6 // 2
    assert privacy_map(mechanism).epsilon == pytest.approx(mechanism.number_of_bits * per_bit,
                                                           rel=1e-14)


def test_one_bit_is_charged_its_exact_epsilon() -> None:
    """With m = d = 1 the map is 2 ln((2 − p)/p): each of the 2 bits at its exact per-bit ε."""
    mechanism = LocalPrivatizer(dimension=1, bits=1, local_epsilon=0.8, context_bound=1.0)
    single = mechanism.entry_law(0.0).probabilities, mechanism.entry_law(1.0).probabilities
    assert privacy_map(mechanism).epsilon == pytest.approx(2 * float(_max_log_ratio(*single)),
                                                           rel=1e-14)


@pytest.mark.parametrize("mechanism", [BinaryRandomizedResponse(0.5), RandomizedResponse(3, 1.0),
                                       LocalPrivatizer(2, 1, 1.0, 1.0)])
def test_local_maps_ignore_sensitivity_and_refuse_add_remove(mechanism) -> None:
    assert supported_guarantees(mechanism)[0] is PureDP
    assert privacy_map(mechanism, sensitivity=7.0) == privacy_map(mechanism)
    supported = ("neighbouring='replace-one' only" if isinstance(mechanism, LocalPrivatizer)
                 else "neighbouring in ('replace-one', 'replace-special')")
    with pytest.raises(UnsupportedError, match=re.escape(f"supports {supported}, not 'add-remove'")):
        privacy_map(mechanism, neighbouring="add-remove")


# ----------------------------------------------------------------------------- RDP and replace-special


def _dp_accounting_rr(noise_parameter: float, buckets: int) -> RandomizedResponse:
    """dp_accounting's RandomizedResponseDpEvent(p, k) is ours with e^ε = k/p − k + 1."""
    return RandomizedResponse(buckets, math.log(buckets / noise_parameter - buckets + 1))


@settings(max_examples=30, deadline=None)
@given(epsilon=st.floats(1e-6, 8.0), categories=st.integers(2, 12))
def test_rr_rdp_map_is_the_exact_curve(epsilon: float, categories: int) -> None:
    """privacy_map(RR, RDPCurve) is randomized_response_rdp's exact curve (it was the pure-ε
    conversion, 18% looser), and replace-special is never above replace-one."""
    from dpverify.accountants.rdp import randomized_response_rdp

    rr = RandomizedResponse(categories, epsilon)
    curve = privacy_map(rr, target=RDPCurve)
    exact = randomized_response_rdp(epsilon, orders=list(curve.orders), categories=categories)
    np.testing.assert_allclose(curve.epsilons, exact.epsilons, rtol=1e-12)
    special = privacy_map(rr, target=RDPCurve, neighbouring="replace-special")
    assert all(s <= o * (1 + 1e-12) for s, o in zip(special.epsilons, curve.epsilons))
    assert all(value <= epsilon * (1 + 1e-12) for value in curve.epsilons)


def test_binary_rr_rdp_is_k_ary_rr_with_its_ratio() -> None:
    binary = privacy_map(BinaryRandomizedResponse(0.5), target=RDPCurve)
    kary = privacy_map(RandomizedResponse(2, math.log(3)), target=RDPCurve)  # (2 − p)/p = 3
    np.testing.assert_allclose(binary.epsilons, kary.epsilons, rtol=1e-12)


def test_replace_special_pure_epsilon_is_dp_accounting_infinite_order() -> None:
    """dp_accounting rdp_privacy_accountant_test.py, test_compute_rdp_randomized_response_inf_order:
    p = 0.1, k = 10: ln 10 (replace-special), 4.51085950651685 (replace-one)."""
    rr = _dp_accounting_rr(0.1, 10)
    special = privacy_map(rr, target=PureDP, neighbouring="replace-special").epsilon
    assert special == pytest.approx(math.log(10), rel=1e-14)  # our ε is the float ln 91
    one = privacy_map(rr, target=PureDP).epsilon
    assert one == pytest.approx(4.51085950651685, rel=1e-12)
    high = privacy_map(rr, target=RDPCurve, neighbouring="replace-special").epsilons[-1]
    assert math.log(10) - 0.01 < high <= special


@pytest.mark.peer
@pytest.mark.parametrize("relation", ["replace-special", "replace-one"])
def test_rr_rdp_and_profile_against_dp_accounting(relation: str) -> None:
    """dp_accounting's RDP of RandomizedResponseDpEvent(0.1, 3) at shared orders (equal), and its
    PLD accountant's δ(1) (pessimistic, so at least ours, and close)."""
    dp_accounting = pytest.importorskip("dp_accounting")
    from dp_accounting.pld import pld_privacy_accountant
    from dp_accounting.rdp import rdp_privacy_accountant

    their_relation = {"replace-special": dp_accounting.NeighboringRelation.REPLACE_SPECIAL,
                      "replace-one": dp_accounting.NeighboringRelation.REPLACE_ONE}[relation]
    rr = _dp_accounting_rr(0.1, 3)
    curve = privacy_map(rr, target=RDPCurve, neighbouring=relation)
    orders = [1.5, 2.5, 5.0]
    theirs = rdp_privacy_accountant._compute_randomized_response_rdp(0.1, 3, orders, their_relation)
    ours = [curve.epsilons[curve.orders.index(order)] for order in orders]
    np.testing.assert_allclose(ours, theirs, rtol=1e-9)
    accountant = pld_privacy_accountant.PLDAccountant(their_relation)
    accountant.compose(dp_accounting.RandomizedResponseDpEvent(0.1, 3))
    delta = privacy_map(rr, target=PrivacyProfile, neighbouring=relation).delta_for_epsilon(1.0)
    assert delta <= accountant.get_delta(1.0) <= delta + 1e-4
