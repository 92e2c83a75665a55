"""The privacy-map registry and the exact profile of a pmf pair."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify import ZCDP, PrivacyProfile, PureDP
from dpverify.errors import UnsupportedError
from dpverify.mechanisms import (
    BinaryRandomizedResponse,
    DiscreteLaplace,
    Laplace,
    RandomizedResponse,
    privacy_maps,
    sample,
)
from dpverify.mechanisms.privacy_maps import (
    pmf_pair_profile,
    privacy_map,
    register_privacy_map,
    supported_guarantees,
)
from dpverify.testing import assert_satisfies
from dpverify.testing import strategies as dst


class _Toy:
    """A mechanism type private to these tests."""


class _ToyChild(_Toy):
    pass


@pytest.fixture
def toy_registered():
    @register_privacy_map(_Toy, PureDP)
    def _pure(mechanism, *, sensitivity, neighbouring):
        return PureDP(2.0 * sensitivity)

    @register_privacy_map(_Toy, ZCDP)
    def _zcdp(mechanism, *, sensitivity, neighbouring):
        return ZCDP(0.5 * sensitivity**2)

    yield
    del privacy_maps._REGISTRY[_Toy]


def test_default_is_the_first_registered_and_lookup_follows_the_mro(toy_registered) -> None:
    assert privacy_map(_Toy(), sensitivity=1.5) == PureDP(3.0)
    assert privacy_map(_ToyChild(), target=ZCDP) == ZCDP(0.5)
    assert supported_guarantees(_ToyChild()) == (PureDP, ZCDP)


def test_unregistered_target_is_converted_along_the_lattice(toy_registered) -> None:
    """Issue 15: RDPCurve is reached soundly from the registered PureDP/ZCDP (no longer refused)."""
    from dpverify import RDPCurve
    curve = privacy_map(_Toy(), target=RDPCurve)
    assert isinstance(curve, RDPCurve) and all(e <= 3.0 for e in curve.epsilons)


def test_a_map_of_0_1_taking_relation_still_works_with_a_warning() -> None:
    class _Old:
        pass

    with pytest.warns(DeprecationWarning, match="'relation' is deprecated.*'neighbouring'"):
        @register_privacy_map(_Old, PureDP)
        def _pure(mechanism, *, sensitivity, relation):
            return PureDP(1.0 if relation == "add-remove" else 2.0)
    try:
        assert privacy_map(_Old(), neighbouring="add-remove") == PureDP(1.0)
        assert privacy_map(_Old()) == PureDP(2.0)
    finally:
        del privacy_maps._REGISTRY[_Old]


def test_registering_a_pair_twice_is_refused(toy_registered) -> None:
    with pytest.raises(ValueError, match="already registered"):
        register_privacy_map(_Toy, PureDP)(lambda m, **kw: PureDP(1.0))


def test_unknown_mechanism_and_bad_sensitivity() -> None:
    with pytest.raises(UnsupportedError, match="no privacy map for object"):
        privacy_map(object())
    with pytest.raises(ValueError, match="sensitivity"):
        privacy_map(object(), sensitivity=-1.0)
    with pytest.raises(TypeError, match="guarantee_type"):
        register_privacy_map(_Toy, dict)


@given(st.floats(0.01, 6.0), st.floats(0.0, 7.0))
def test_pmf_pair_profile_matches_randomized_response(epsilon_0: float, epsilon: float) -> None:
    """Binary RR with ε0: δ(ε) = (e^{ε0} − e^ε)₊ / (1 + e^{ε0}), computed at 60 digits."""
    keep = math.exp(epsilon_0) / (1 + math.exp(epsilon_0))
    profile = pmf_pair_profile([keep, 1 - keep], [1 - keep, keep])
    with mpmath.workdps(60):
        a, b = mpmath.mpf(keep), mpmath.mpf(1 - keep)
        exact = max(mpmath.mpf(0), a - mpmath.exp(epsilon) * b)
        assert mpmath.mpf(profile.delta_for_epsilon(epsilon)) >= exact
        assert profile.delta_for_epsilon(epsilon) <= float(exact) + 1e-15


def test_pmf_pair_profile_with_fractions_and_a_zero() -> None:
    profile = pmf_pair_profile([Fraction(1, 2), Fraction(1, 2), 0], [Fraction(1, 4), 0, Fraction(3, 4)])
    assert isinstance(profile, PrivacyProfile)
    assert profile.epsilon_for_delta(0.49) > 0
    assert profile.delta_for_epsilon(50.0) >= 0.5  # the outcome q cannot produce


@pytest.mark.parametrize("p, q, name", [
    ([0.5, 0.6], [0.5, 0.5], "pmf"),
    ([0.5, 0.5], [1.5, -0.5], "pmf_prime"),
    ([0.5, 0.5], [1.0], "pmf_prime"),
    ([0.5, math.nan], [0.5, 0.5], "pmf"),
])
def test_pmf_pair_profile_rejects_bad_pmfs(p, q, name: str) -> None:
    with pytest.raises(ValueError, match=name):
        pmf_pair_profile(p, q)


# --------------------------------------------------------------------------- audited


@settings(max_examples=6, deadline=None)
@given(dst.mechanisms(types=(Laplace, DiscreteLaplace, RandomizedResponse,
                             BinaryRandomizedResponse)))
def test_pure_privacy_maps_survive_an_audit_of_the_sampler(mechanism) -> None:
    """The map's ε holds on the worst pair (0, 1) when the mechanism's own sampler is audited.

    Each audit is a true claim, so it fails with probability <= 1e-6; over
    the 6 hypothesis examples of a run, <= 6e-6 (examples vary run to run).
    """
    claim = privacy_map(mechanism)
    assert isinstance(claim, PureDP)

    def sampler(data, size, rng):
        return sample(mechanism, data, rng=rng, size=size)

    assert_satisfies(sampler, 0, 1, epsilon=claim.epsilon, samples=20_000,
                     confidence=1 - 1e-6, label=repr(mechanism))
