"""Translators of the combinators, for every method: :class:`ComposedEvent` and :class:`SelfComposedEvent`.

Composition adds privacy losses: PLDs compose by FFT (self-composition by one
spectrum raised to the count), RDP curves add order by order (Mironov 2017, Prop. 1)
and zCDP values add ρ and ξ (Bun & Steinke 2016, Lemma 2.3), each rounded up.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from dpverify._numeric import round_up
from dpverify.accountants.accountant._registry import Request, translate, translates
from dpverify.accountants.events import ComposedEvent, SelfComposedEvent
from dpverify.accountants.pld import compose_plds
from dpverify.accountants.rdp import compose_rdp, scale_rdp
from dpverify.accountants.zcdp import compose_zcdp
from dpverify.guarantees import ZCDP

__all__: list[str] = []   # translators only: importing this module registers them


@translates(ComposedEvent, "pld")
def _composed_pld(event: ComposedEvent, request: Request) -> Any:
    parts = [translate(part, request) for part in event.events]
    return None if request.probe else compose_plds(parts)


@translates(SelfComposedEvent, "pld")
def _self_composed_pld(event: SelfComposedEvent, request: Request) -> Any:
    inner = translate(event.event, request)
    return None if request.probe else inner.self_compose(event.count)


@translates(ComposedEvent, "rdp")
def _composed_rdp(event: ComposedEvent, request: Request) -> Any:
    parts = [translate(part, request) for part in event.events]
    return None if request.probe else compose_rdp(parts)


@translates(SelfComposedEvent, "rdp")
def _self_composed_rdp(event: SelfComposedEvent, request: Request) -> Any:
    inner = translate(event.event, request)
    return None if request.probe else scale_rdp(inner, event.count)


@translates(ComposedEvent, "zcdp")
def _composed_zcdp(event: ComposedEvent, request: Request) -> Any:
    parts = [translate(part, request) for part in event.events]
    return None if request.probe else compose_zcdp(parts)


@translates(SelfComposedEvent, "zcdp")
def _self_composed_zcdp(event: SelfComposedEvent, request: Request) -> Any:
    inner = translate(event.event, request)
    if request.probe:
        return None
    return ZCDP(round_up(Fraction(inner.rho) * event.count),
                round_up(Fraction(inner.xi) * event.count))
