"""Tests of :mod:`dpverify.accountants.rdp.truncated_poisson` and the accountant's truncated Poisson event."""

from __future__ import annotations

import math

import pytest

from dpverify.accountants import PrivacyAccountant, TruncatedPoissonSampledEvent, from_dp_accounting
from dpverify.accountants.rdp import subsampled_gaussian_rdp
from dpverify.accountants.rdp.truncated_poisson import truncated_poisson_gaussian_rdp
from dpverify.errors import UnsupportedError
from dpverify.mechanisms import Gaussian, Laplace

ORDERS = (1.5, 2.0, 4.0, 8.0, 16.0, 32.0)


def test_untruncated_limit_is_the_poisson_curve():
    poisson = subsampled_gaussian_rdp(1.0, 0.05, orders=ORDERS)
    capped = truncated_poisson_gaussian_rdp(1.0, 0.05, max_sample_size=501, population_size=500, orders=ORDERS)
    assert capped.epsilons == poisson.epsilons
    # B = 60 against a mean sample of 25: truncation has probability ~1e-12, so the low orders barely move;
    # the high orders do (the swap branch's moment grows like e^{(α−1)α·2/σ²}: measured 9.5 against 0.60 at
    # order 8), which the conversion to (ε, δ) then avoids
    near = truncated_poisson_gaussian_rdp(1.0, 0.05, max_sample_size=60, population_size=500, orders=ORDERS)
    for order, mine, base in zip(ORDERS, near.epsilons, poisson.epsilons):
        assert base <= mine
        if order <= 4:
            assert mine <= base * 1.01


def test_between_the_branches():
    """The mixture's moment lies between the branches': the curve lies between the two branch curves."""
    q, cap, n = 0.01, 120, 12_000
    mine = truncated_poisson_gaussian_rdp(1.0, q, max_sample_size=cap, population_size=n, orders=ORDERS)
    first = subsampled_gaussian_rdp(1.0, q, orders=ORDERS)
    for value, low in zip(mine.epsilons, first.epsilons):
        assert low <= value
    assert mine.epsilons[1] > first.epsilons[1] * 1.5  # truncation happens half the time here


def test_dp_accounting_rdp_does_not_account_it():
    """dp_accounting 0.6's RdpAccountant refuses the event (only its PLD accountant has it):
    there is no peer RDP value to match."""
    dp_accounting = pytest.importorskip("dp_accounting")
    event = dp_accounting.TruncatedSubsampledGaussianDpEvent(10_000, 0.01, 120, 1.0)
    assert not dp_accounting.rdp.RdpAccountant().supports(event)


def test_accountant_and_conversion():
    dp_accounting = pytest.importorskip("dp_accounting")
    peer = dp_accounting.SelfComposedDpEvent(
        dp_accounting.TruncatedSubsampledGaussianDpEvent(10_000, 0.01, 120, 1.0), 100
    )
    event = from_dp_accounting(peer)
    inner = event.event
    assert isinstance(inner, TruncatedPoissonSampledEvent)
    assert (inner.sampling_probability, inner.max_sample_size, inner.population_size) == (0.01, 120, 10_000)
    pld = PrivacyAccountant("pld").compose(event).get_epsilon(1e-5)
    rdp = PrivacyAccountant("rdp").compose(event).get_epsilon(1e-5)
    # measured: PLD 3.5879 (dp_accounting's PLDAccountant: 3.5983), RDP 4.9415
    assert 3.5 < pld < 3.6 < rdp < 5.0
    with pytest.raises(UnsupportedError, match="zCDP"):
        PrivacyAccountant("zcdp").compose(event)
    with pytest.raises(UnsupportedError, match="add-remove"):
        PrivacyAccountant("pld", neighbouring="replace-one").compose(event)
    with pytest.raises(UnsupportedError, match="Gaussian"):
        PrivacyAccountant("pld").compose(TruncatedPoissonSampledEvent(Laplace(scale=1.0), 0.1, 5, 100))


def test_event_validation_and_round_trip():
    from dpverify.accountants import event_from_dict, event_to_dict

    event = TruncatedPoissonSampledEvent(Gaussian(sigma=1.0), 0.01, 120, 10_000)
    assert event_from_dict(event_to_dict(event)) == event
    for kwargs, name in (
        ({"max_sample_size": 0}, "max_sample_size"),
        ({"population_size": 0}, "population_size"),
        ({"sampling_probability": math.nan}, "sampling_probability"),
    ):
        arguments = {
            "event": Gaussian(sigma=1.0),
            "sampling_probability": 0.01,
            "max_sample_size": 5,
            "population_size": 10,
            **kwargs,
        }
        with pytest.raises(ValueError, match=name):
            TruncatedPoissonSampledEvent(**arguments)
