"""The accountant's dispatch: a registry of translators from events to each method's value.

A *translator* turns one event into what its accounting method composes — a
:class:`~dpverify.accountants.pld.distribution.PrivacyLossDistribution` (``"pld"``), an
:class:`~dpverify.guarantees.RDPCurve` at the request's orders (``"rdp"``) or a
:class:`~dpverify.guarantees.ZCDP` value (``"zcdp"``) — or, when the request only
probes, checks that it can and returns ``None``. Translators are registered for a
(kind, method) pair with :func:`translates`, as privacy maps are with
:func:`~dpverify.mechanisms.privacy_maps.register_privacy_map`, instead of growing an
``isinstance`` ladder:

* ``@translates(PoissonSampledEvent, "rdp")`` registers the translator of an event type;
* ``@translates(Laplace, "pld")`` the translator of a
  :class:`~dpverify.accountants.events.MechanismEvent` releasing that mechanism (or
  guarantee) type; ``object`` is the translator of every other mechanism (through its
  privacy map);
* ``refuses(RepeatAndSelectEvent, "pld", why)`` states why a method cannot account a kind.

:func:`translate` looks an event's kind up along its MRO (a ``MechanismEvent``'s kind is
its mechanism's type) and raises :class:`~dpverify.errors.UnsupportedError` naming what
the method accounts when nothing is registered. So adding an event type touches one
place besides its class in :mod:`dpverify.accountants.events`: the translator module
of its family (``_composition``, ``_mechanisms``, ``_sampling``, ``_selection``) gets one
registered function per method that accounts it, next to each other; adding a
mechanism, one per method in ``_mechanisms``. The ledger never changes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from dpverify.accountants.events import Event, MechanismEvent
from dpverify.errors import UnsupportedError

__all__ = ["Request", "translates", "refuses", "translate", "unsupported", "supported_kinds",
           "along_mro"]

Translator = Callable[[Any, "Request"], Any]
T = TypeVar("T", bound=Translator)

#: method -> event type -> translator
_EVENTS: dict[str, dict[type, Translator]] = {}
#: method -> mechanism (or guarantee) type -> translator of a MechanismEvent releasing it
_MECHANISMS: dict[str, dict[type, Translator]] = {}
#: method -> kind -> why the method cannot account it
_REFUSALS: dict[str, dict[type, str]] = {}


@dataclass(frozen=True, slots=True)
class Request:
    """What a translator is asked: by which method, for which relation, at which RDP orders.

    ``probe=True`` asks only whether the event can be accounted (the translator
    returns ``None``, or raises :class:`~dpverify.errors.UnsupportedError`).
    ``value_discretization_interval`` is a PLD grid spacing planned for the whole history
    (:func:`~dpverify.accountants.accountant._sampling.common_dp_sgd_interval`); a translator
    that can discretise on any spacing (the Poisson-sampled Gaussian) builds its PLD there
    instead of on its own grid, the others ignore it (``None``: every translator's own).
    """

    method: str
    neighbouring: str
    orders: tuple
    probe: bool = False
    value_discretization_interval: float | None = None

    def at(self, orders: tuple) -> Request:
        """The same request at other RDP orders (a subsampled event's inner curve)."""
        return dataclasses.replace(self, orders=orders)


def _table(kind: type) -> dict[str, dict[type, Translator]]:
    if kind is MechanismEvent:
        raise ValueError("register the mechanism type a MechanismEvent releases, not MechanismEvent")
    return _EVENTS if issubclass(kind, Event) else _MECHANISMS


def translates(kind: type, method: str) -> Callable[[T], T]:
    """Decorator registering ``function(event, request)`` as the ``method`` translator of ``kind``.

    ``kind`` is an event type, or the mechanism (guarantee) type of a
    ``MechanismEvent`` (``object``: any other mechanism). Registering the same
    pair twice is a programming error (``ValueError``), so a later definition
    can never silently win.
    """
    table = _table(kind).setdefault(method, {})

    def decorator(function: T) -> T:
        if kind in table:
            raise ValueError(f"a {method} translator for {kind.__name__} is already registered")
        table[kind] = function
        return function

    return decorator


def refuses(kind: type, method: str, why: str) -> None:
    """Record why ``method`` cannot account ``kind`` (named in the refusal instead of the list)."""
    _table(kind)
    _REFUSALS.setdefault(method, {})[kind] = why


def along_mro(table: dict[type, Any], kind: type) -> Any:
    """The entry of ``table`` for ``kind`` or its nearest base class (``None`` if none)."""
    for klass in kind.__mro__:
        if klass in table:
            return table[klass]
    return None


def supported_kinds(method: str) -> str:
    """What ``method`` accounts, in words (for refusals)."""
    events = ", ".join(kind.__name__ for kind in _EVENTS.get(method, {}))
    mechanisms = _MECHANISMS.get(method, {})
    named = ", ".join(kind.__name__ for kind in mechanisms if kind is not object)
    other = " (and any other mechanism whose privacy map it can use)" if object in mechanisms else ""
    return f"{method} accounts {events}, and MechanismEvent of {named}{other}"


def unsupported(event: Any, method: str, why: str = "") -> UnsupportedError:
    """The refusal of ``method`` for ``event`` (with the reason, if any)."""
    return UnsupportedError(f"{method} cannot account {event!r}" + (f": {why}" if why else ""))


def translate(event: Event, request: Request) -> Any:
    """The ``request.method`` value of ``event`` (``None`` when probing), by its registered translator.

    Raises
    ------
    UnsupportedError
        When no translator is registered for the event's kind (the message says
        why, or what the method accounts).
    """
    if isinstance(event, MechanismEvent):
        kind, table = type(event.mechanism), _MECHANISMS
    else:
        kind, table = type(event), _EVENTS
    translator = along_mro(table.get(request.method, {}), kind)
    if translator is None:
        why = along_mro(_REFUSALS.get(request.method, {}), kind)
        raise unsupported(event, request.method, why or f"no {request.method} translator for "
                          f"{kind.__name__}; {supported_kinds(request.method)}")
    return translator(event, request)
