"""A privacy accountant object: compose events, ask for ε or δ, by PLD, RDP or zCDP.

:class:`PrivacyAccountant` is the one stateful object of the accountants: a
ledger that only appends ``(event, count)`` records (:mod:`dpverify.accountants.events`) and
recomputes every answer from them with the pure functions of
:mod:`dpverify.accountants.pld`, :mod:`dpverify.accountants.rdp` and
:mod:`dpverify.accountants.zcdp` (ARCHITECTURE.md, "accounting consumes
guarantee values"). Each event becomes its method's value through the translator
registered for its type (or its mechanism's type) in the private ``_registry`` of
this package: no ``isinstance`` ladder. It offers the ergonomics of dp_accounting's
``PrivacyAccountant`` and Opacus's accountants: ``compose(event, count)``,
``get_epsilon(delta)``, ``get_delta(epsilon)``, ``supports(event)``, a
training-loop ``step(noise_multiplier=..., sample_rate=...)`` whose repeated
identical calls cost one self-composition, ``state_dict()`` /
``from_state_dict()``, and :meth:`PrivacyAccountant.report` side by side
over every method that supports the history.

Neighbouring relations (:class:`~dpverify.neighbouring.Neighbouring`, or its
string): ``"add-remove"`` (the default: Poisson sampling changes the batch
size), ``"replace-one"`` and ``"replace-special"`` (replace a record by a
special value that contributes nothing). A mechanism event's sensitivity is
the caller's, under the chosen relation; the Poisson-subsampled Gaussian has the dominating pairs of Zhu,
Dong, Wang (AISTATS 2022, Prop. 30): under add-remove and replace-special by
PLD and RDP, under replace-one (contributions ±1: the pair
``(1−q)N(0) + qN(±1)``, dp_accounting's ``REPLACE_ONE``) by PLD only.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

# Importing the translator modules registers their translators (see _registry).
import dpverify.accountants.accountant._composition  # noqa: F401
import dpverify.accountants.accountant._mechanisms  # noqa: F401
import dpverify.accountants.accountant._sampling  # noqa: F401
import dpverify.accountants.accountant._selection  # noqa: F401
from dpverify._validation import check_choice, check_delta, check_epsilon, check_increasing_sequence, check_positive_int
from dpverify.accountants.accountant._dp_accounting import from_dp_accounting
from dpverify.accountants.accountant._registry import Request, translate
from dpverify.accountants.events import (
    ComposedEvent,
    Event,
    PoissonSampledEvent,
    SelfComposedEvent,
    as_event,
    event_from_dict,
    event_to_dict,
)
from dpverify.accountants.rdp.curves import DEFAULT_ORDERS, rdp_to_dp, rdp_to_dp_delta
from dpverify.accountants.zcdp import zcdp_to_dp, zcdp_to_dp_delta
from dpverify.errors import DpverifyTypeError, UnsupportedError
from dpverify.mechanisms import Gaussian
from dpverify.neighbouring import Neighbouring

__all__ = ["PrivacyAccountant", "ACCOUNTING_METHODS", "NEIGHBOURING_RELATIONS",
           "from_dp_accounting"]

#: Accounting methods, tightest first.
ACCOUNTING_METHODS = ("pld", "rdp", "zcdp")
#: Neighbouring relations an accountant can be stated for.
NEIGHBOURING_RELATIONS = tuple(relation.value for relation in Neighbouring)


class PrivacyAccountant:
    """Ledger of privacy events, evaluated by ``method`` on demand.

    Parameters
    ----------
    method : {"pld", "rdp", "zcdp"}
        How the composition is accounted: privacy loss distributions
        (pessimistic, tightest), Rényi DP at ``orders``, or zCDP.
    neighbouring : Neighbouring or {"add-remove", "replace-one", "replace-special"}
        The neighbouring relation the guarantee is stated for (default
        ``"add-remove"``, as dp_accounting and Opacus).
    orders
        RDP orders (``method="rdp"``); default
        :data:`~dpverify.accountants.rdp.curves.DEFAULT_ORDERS` (fractional orders included).

    Notes
    -----
    Every answer is an upper bound, recomputed from the history with the
    pure accountant functions (so it equals what those functions give; a test
    checks it). The history holds ``(event, count)`` records; composing the
    same event again only increases the last count, so 10⁵ calls of
    :meth:`step` cost one self-composition.

    Examples
    --------
    >>> from dpverify.mechanisms import Gaussian
    >>> accountant = PrivacyAccountant(method="pld")
    >>> for _ in range(1000):
    ...     _ = accountant.step(noise_multiplier=1.1, sample_rate=0.01)
    >>> accountant.history[0][1]
    1000
    >>> round(accountant.get_epsilon(1e-5), 2)
    1.52
    """

    def __init__(self, method: str = "pld", *,
                 neighbouring: Neighbouring | str = Neighbouring.ADD_REMOVE,
                 orders: Any = None) -> None:
        self.method = check_choice(method, "method", ACCOUNTING_METHODS)
        self.neighbouring = Neighbouring.parse(neighbouring)
        self.orders = DEFAULT_ORDERS if orders is None else check_increasing_sequence(
            orders, "orders", low=1.0, low_closed=False)
        self._history: list[list] = []
        self._cache: dict[tuple, Any] = {}
        self._last_step: tuple[float, float] | None = None

    def __repr__(self) -> str:
        return (f"PrivacyAccountant(method={self.method!r}, neighbouring={self.neighbouring.value!r}, "
                f"records={len(self._history)})")

    # ----------------------------------------------------------------- ledger
    @property
    def history(self) -> tuple[tuple[Event, int], ...]:
        """The ``(event, count)`` records composed so far (identical neighbours merged)."""
        return tuple((event, count) for event, count in self._history)

    def compose(self, event: Any, count: int = 1) -> PrivacyAccountant:
        """Record ``count`` runs of ``event`` (an event, mechanism or guarantee value); returns self.

        Raises :class:`~dpverify.errors.UnsupportedError` if this accountant's
        method cannot account the event (checked now, not at query time).
        """
        event = as_event(event)
        count = check_positive_int(count, "count")
        refusal = self._refusal(event)
        if refusal is not None:
            raise UnsupportedError(f"method={self.method!r} cannot account {event!r} under "
                                   f"neighbouring={self.neighbouring.value!r} ({refusal}); "
                                   f"methods that can: {self.supporting_methods(event)}")
        self._last_step = None
        if self._history and self._history[-1][0] == event:
            self._history[-1][1] += count
        else:
            self._history.append([event, count])
        return self

    def step(self, *, noise_multiplier: float, sample_rate: float) -> PrivacyAccountant:
        """One DP-SGD step: a Poisson-sampled (rate ``sample_rate``) Gaussian of noise multiplier σ.

        A step identical to the previous one only increments a count (O(1)); the
        composition is computed once, when ε or δ is asked for. Python and numpy
        real scalars and 0-d arrays are read as the float they are, so
        ``np.float32``, ``np.float64``, ``np.array(1.1)`` and ints take the O(1) path too.

        ``sample_rate`` is the Poisson sampling probability q, under Opacus's name: the
        one documented exception to the vocabulary's ``sampling_probability``, so that a
        training loop written for Opacus runs unchanged.
        """
        key = (_scalar(noise_multiplier), _scalar(sample_rate))
        if self._last_step == key and type(key[0]) is float and type(key[1]) is float:
            self._history[-1][1] += 1
            return self
        self.compose(PoissonSampledEvent(Gaussian(sigma=key[0]), key[1]))
        self._last_step = key
        return self

    def supports(self, event: Any) -> bool:
        """True when this accountant's method can account ``event`` under its relation."""
        return self._refusal(as_event(event)) is None

    def _refusal(self, event: Event) -> str | None:
        """Why this accountant's method cannot account ``event`` (``None`` if it can)."""
        try:
            translate(event, self._request(probe=True))
        except UnsupportedError as error:
            return str(error).removeprefix(f"{self.method} cannot account {event!r}: ")
        return None

    def supporting_methods(self, event: Any) -> tuple[str, ...]:
        """The methods (with this relation) that can account ``event``."""
        return tuple(m for m in ACCOUNTING_METHODS
                     if PrivacyAccountant(m, neighbouring=self.neighbouring,
                                          orders=self.orders).supports(event))

    # ----------------------------------------------------------------- queries
    def _request(self, *, probe: bool) -> Request:
        """What this accountant asks of the event translators (:mod:`._registry`)."""
        return Request(self.method, self.neighbouring, self.orders, probe)

    def _total(self) -> Any:
        key = tuple((event, count) for event, count in self._history)
        if key not in self._cache:
            if not key:
                raise UnsupportedError("nothing composed yet: the accountant's history is empty")
            parts = [SelfComposedEvent(event, count) if count > 1 else event for event, count in key]
            event = parts[0] if len(parts) == 1 else ComposedEvent(tuple(parts))
            self._cache = {key: translate(event, self._request(probe=False))}
        return self._cache[key]

    def get_epsilon(self, delta: float) -> float:
        """Upper bound on ε at ``delta`` for everything composed so far (0.0 if nothing)."""
        delta = check_delta(delta)
        if not self._history:
            return 0.0
        total = self._total()
        if self.method == "pld":
            return total.epsilon_for_delta(delta)
        if delta == 0.0:
            return math.inf
        if self.method == "rdp":
            return rdp_to_dp(total, delta=delta).epsilon
        return zcdp_to_dp(total, delta=delta).epsilon

    def get_delta(self, epsilon: float) -> float:
        """Upper bound on δ at ``epsilon`` for everything composed so far (0.0 if nothing)."""
        epsilon = check_epsilon(epsilon)
        if not self._history:
            return 0.0
        total = self._total()
        if self.method == "pld":
            return total.delta_for_epsilon(epsilon)
        if self.method == "rdp":
            return rdp_to_dp_delta(total, epsilon=epsilon)
        return zcdp_to_dp_delta(total, epsilon=epsilon)

    def report(self, delta: float) -> dict[str, float | str]:
        """ε at ``delta`` by every method that supports the whole history, side by side.

        Methods that cannot account some event get the reason as a string.
        """
        out: dict[str, float | str] = {}
        for method in ACCOUNTING_METHODS:
            other = PrivacyAccountant(method, neighbouring=self.neighbouring, orders=self.orders)
            try:
                for event, count in self._history:
                    other.compose(event, count)
                out[method] = other.get_epsilon(delta)
            except UnsupportedError as error:
                out[method] = f"unsupported: {error}"
        return out

    # ----------------------------------------------------------------- state
    def state_dict(self) -> dict[str, Any]:
        """A JSON-able dict from which :meth:`from_state_dict` rebuilds this accountant."""
        return {"method": self.method, "neighbouring": self.neighbouring.value,
                "orders": list(self.orders),
                "history": [{"event": event_to_dict(event), "count": count}
                            for event, count in self._history]}

    @classmethod
    def from_state_dict(cls, state: dict[str, Any]) -> PrivacyAccountant:
        """Rebuild an accountant from :meth:`state_dict` output."""
        if not isinstance(state, dict) or "history" not in state:
            raise DpverifyTypeError(f"state={state!r} must be a dict from state_dict()")
        accountant = cls(state.get("method", "pld"),
                         neighbouring=state.get("neighbouring", "add-remove"),
                         orders=state.get("orders"))
        for record in state["history"]:
            accountant.compose(event_from_dict(record["event"]), record["count"])
        return accountant


def _scalar(value: Any) -> Any:
    """A real scalar (Python or numpy number, 0-d real array) as a float; anything else unchanged.

    Booleans, non-real values and integers beyond the float range are returned
    as they are, for the event's validation to refuse (naming the parameter).
    """
    if isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "iuf":
        value = value.item()
    if isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_)):
        try:
            return float(value)
        except OverflowError:
            return value
    return value

