"""Translators of the combinators, for every method: :class:`ComposedEvent` and :class:`SelfComposedEvent`.

Composition adds privacy losses: PLDs compose by FFT (self-composition by one
spectrum raised to the count), RDP curves add order by order (Mironov 2017, Prop. 1)
and zCDP values add ρ and ξ (Bun & Steinke 2016, Lemma 2.3), each rounded up.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from dpverify._numeric import round_up
from dpverify.accountants.accountant._registry import Request, translate, translates
from dpverify.accountants.events import ComposedEvent, SelfComposedEvent
from dpverify.accountants.pld import compose_plds
from dpverify.accountants.rdp import compose_rdp, scale_rdp
from dpverify.accountants.zcdp import compose_zcdp
from dpverify.guarantees import ZCDP

__all__ = ["compose_counted"]


def compose_counted(method: str, values: Sequence[Any], counts: Sequence[int]) -> Any:
    """The ``method`` value of ``counts[i]`` runs of each of ``values`` (translated events).

    PLDs in one FFT (:func:`~dpverify.accountants.pld.compose_plds` with counts), RDP
    curves scaled and added, zCDP values scaled and added, rounded up. The ledger groups
    identical events of its history and composes them here, each translated once.
    """
    if method == "pld":
        return compose_plds(list(values), counts=list(counts))
    if method == "rdp":   # one curve is its own composition (the exact sum of one term)
        curves = [scale_rdp(value, count) if count > 1 else value
                  for value, count in zip(values, counts)]
        return curves[0] if len(curves) == 1 else compose_rdp(curves)
    parts = [_scaled_zcdp(value, count) for value, count in zip(values, counts)]
    return parts[0] if len(parts) == 1 else compose_zcdp(parts)


def _scaled_zcdp(value: ZCDP, count: int) -> ZCDP:
    return value if count == 1 else ZCDP(round_up(Fraction(value.rho) * count),
                                         round_up(Fraction(value.xi) * count))


@translates(ComposedEvent, "pld")
def _composed_pld(event: ComposedEvent, request: Request) -> Any:
    """Self-composed parts enter with their counts: one FFT for the whole tree's top level."""
    parts = [(part.event, part.count) if isinstance(part, SelfComposedEvent) else (part, 1)
             for part in event.events]
    values = [translate(part, request) for part, _ in parts]
    return None if request.probe else compose_counted("pld", values, [count for _, count in parts])


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
    return None if request.probe else _scaled_zcdp(inner, event.count)
