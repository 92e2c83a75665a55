"""Translators of selection events: :class:`RepeatAndSelectEvent` and :class:`ExponentialMechanismEvent`.

* Repeat-and-select (Papernot & Steinke, ICLR 2022, Thm 2 and 6) is accounted in RDP
  only, from the inner event's curve; PLD and zCDP refuse it, naming RDP.
* The exponential mechanism is ε-DP and ε-bounded-range (Durfee & Rogers, NeurIPS
  2019): its PLD is the pair dominating every ε-bounded-range mechanism
  (:meth:`~dpverify.accountants.pld.distribution.PrivacyLossDistribution.from_bounded_range`), its
  zCDP ε²/8 (Cesar & Rogers, ALT 2021, Lemma 3.2) and its RDP curve the exact supremum
  over ε-bounded-range pairs (:func:`~dpverify.accountants.rdp.bounded_range.bounded_range_rdp`,
  below both ε²α/8 and the ε-DP curve at every order).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from dpverify._numeric import round_up
from dpverify.accountants.accountant._registry import Request, refuses, translate, translates
from dpverify.accountants.events import ExponentialMechanismEvent, RepeatAndSelectEvent
from dpverify.accountants.pld import PrivacyLossDistribution
from dpverify.accountants.rdp import bounded_range_rdp, pure_dp_rdp, repeat_and_select_rdp
from dpverify.guarantees import ZCDP, RDPCurve

__all__ = ["bounded_range_zcdp"]

_REPEAT_AND_SELECT = ("repeat-and-select is accounted in RDP only (Papernot & Steinke 2022, "
                      "Thm 2 and 6); use method='rdp'")
refuses(RepeatAndSelectEvent, "pld", _REPEAT_AND_SELECT)
refuses(RepeatAndSelectEvent, "zcdp", _REPEAT_AND_SELECT)


@translates(RepeatAndSelectEvent, "rdp")
def _repeat_and_select_rdp(event: RepeatAndSelectEvent, request: Request) -> Any:
    inner = translate(event.event, request)
    if request.probe:
        return None
    return repeat_and_select_rdp(inner, mean=event.mean, shape=event.shape)


@translates(ExponentialMechanismEvent, "pld")
def _exponential_pld(event: ExponentialMechanismEvent, request: Request) -> Any:
    return None if request.probe else PrivacyLossDistribution.from_bounded_range(event.epsilon)


@translates(ExponentialMechanismEvent, "rdp")
def _exponential_rdp(event: ExponentialMechanismEvent, request: Request) -> Any:
    if request.probe:
        return None
    pure = pure_dp_rdp(event.epsilon, orders=request.orders)
    bounded = bounded_range_rdp(event.epsilon, orders=request.orders)   # min(sup_t, ε²α/8, ε)
    return RDPCurve(pure.orders, tuple(min(a, b) for a, b in zip(pure.epsilons, bounded.epsilons)))


@translates(ExponentialMechanismEvent, "zcdp")
def _exponential_zcdp(event: ExponentialMechanismEvent, request: Request) -> Any:
    return None if request.probe else bounded_range_zcdp(event.epsilon)


def bounded_range_zcdp(epsilon: float) -> ZCDP:
    """ε-bounded-range ⇒ (ε²/8)-zCDP (Cesar & Rogers, ALT 2021, Lemma 3.2), rounded up."""
    return ZCDP(round_up(Fraction(epsilon) ** 2 / 8))
