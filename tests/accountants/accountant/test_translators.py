"""The accountant's translator registry: one registration per (kind, method), refusals that name
what a method accounts, and a new event type plugged in without touching the ledger."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from dpverify.accountants.accountant import PrivacyAccountant, _registry
from dpverify.accountants.accountant._registry import Request, translate, translates
from dpverify.accountants.events import (
    Event,
    MechanismEvent,
    PoissonSampledEvent,
    RepeatAndSelectEvent,
)
from dpverify.accountants.pld import PrivacyLossDistribution
from dpverify.errors import UnsupportedError
from dpverify.mechanisms import Gaussian, Laplace


@dataclass(frozen=True, slots=True)
class _Shifted(Event):
    """A made-up event: one Laplace release of scale ``scale`` (only for these tests)."""

    scale: float


@dataclass(frozen=True)
class _OpaqueMechanism:
    """A mechanism value no translator and no privacy map knows."""

    width: float = 1.0


def test_a_pair_registered_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="already registered"):
        translates(PoissonSampledEvent, "pld")(lambda event, request: None)
    with pytest.raises(ValueError, match="mechanism type"):
        translates(MechanismEvent, "pld")


def test_an_unknown_event_type_is_refused_naming_what_the_method_accounts() -> None:
    accountant = PrivacyAccountant("pld")
    assert not accountant.supports(_Shifted(1.0))
    with pytest.raises(UnsupportedError, match="no pld translator for _Shifted") as info:
        accountant.compose(_Shifted(1.0))
    for name in ("ComposedEvent", "PoissonSampledEvent", "Gaussian", "Laplace"):
        assert name in str(info.value)


def test_a_mechanism_without_translator_or_map_is_refused_by_name() -> None:
    with pytest.raises(UnsupportedError, match="_OpaqueMechanism has no rdp translator"):
        PrivacyAccountant("rdp").compose(MechanismEvent(_OpaqueMechanism()))


def test_refusals_give_the_reason_and_the_method_that_can() -> None:
    with pytest.raises(UnsupportedError, match="use method='rdp'"):
        PrivacyAccountant("zcdp").compose(RepeatAndSelectEvent(Gaussian(sigma=2.0), 2.0, 1.0))
    with pytest.raises(UnsupportedError, match="not accounted in zCDP"):
        PrivacyAccountant("zcdp").compose(PoissonSampledEvent(Gaussian(sigma=2.0), 0.1))


def test_a_new_event_type_plugs_in_with_one_registration() -> None:
    """Registering a translator is all it takes: the ledger, probing and queries follow."""
    def shifted_pld(event: _Shifted, request: Request):
        return None if request.probe else PrivacyLossDistribution.from_laplace(event.scale)

    translates(_Shifted, "pld")(shifted_pld)
    try:
        accountant = PrivacyAccountant("pld").compose(_Shifted(2.0), 3)
        reference = PrivacyAccountant("pld").compose(Laplace(scale=2.0), 3)
        assert accountant.get_epsilon(1e-6) == reference.get_epsilon(1e-6)
        assert translate(_Shifted(2.0), Request("pld", "add-remove", (), probe=True)) is None
        assert accountant.supporting_methods(_Shifted(2.0)) == ("pld",)
    finally:
        del _registry._EVENTS["pld"][_Shifted]
