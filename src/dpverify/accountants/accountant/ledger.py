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

import dataclasses
import math
import numbers
from collections.abc import Callable
from typing import Any

import numpy as np

# Importing the translator modules registers their translators (see _registry).
import dpverify.accountants.accountant._mechanisms  # noqa: F401
import dpverify.accountants.accountant._selection  # noqa: F401
import dpverify.accountants.accountant._truncated  # noqa: F401
from dpverify._validation import (
    check_choice,
    check_delta,
    check_epsilon,
    check_increasing_sequence,
    check_positive,
    check_positive_int,
    check_probability,
)
from dpverify.accountants.accountant._composition import compose_counted
from dpverify.accountants.accountant._dp_accounting import from_dp_accounting
from dpverify.accountants.accountant._registry import Request, translate
from dpverify.accountants.accountant._sampling import common_dp_sgd_interval
from dpverify.accountants.events import (
    Event,
    PoissonSampledEvent,
    as_event,
    event_from_dict,
    event_to_dict,
)
from dpverify.accountants.pld.distribution import MAX_SELF_COMPOSITIONS
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

    **Queries in a training loop.** Identical events anywhere in the history are
    grouped (composition is commutative) and each distinct event is translated
    once; the composition of the groups is one FFT (PLD) or one sum (RDP, zCDP).
    The PLD engine memoises each base grid's spectrum, so a query after every
    DP-SGD step powers it at the few hundred frequencies where the composed
    spectrum is not negligible and takes one inverse transform (~5 ms at
    14,062 steps), and returns the same bits as a fresh accountant given the same
    history (the memoised values are pure functions of immutable grids; a test
    checks it).
    :meth:`remaining_steps` answers "how many more steps fit the budget".

    **DP-SGD.** A Poisson-sampled Gaussian (add-remove, replace-special) is
    discretised on :func:`~dpverify.accountants.pld.dp_sgd_interval`, the grid of
    :func:`~dpverify.accountants.calibrate.dp_sgd.dp_sgd_epsilon`: the accountant and
    the function report the same ε for the same steps.

    **Opacus.** ``step(noise_multiplier=, sample_rate=)``, ``get_epsilon(delta)``,
    ``len(accountant)``, ``mechanism()``, ``state_dict()`` / ``load_state_dict()`` and
    ``get_optimizer_hook_fn(sample_rate)`` follow Opacus's ``IAccountant`` (1.x), so a
    training loop written against Opacus's accountant runs on this object. Opacus's
    ``PrivacyEngine`` builds its accountant from a name; the methods it calls are these,
    so ``privacy_engine.accountant = PrivacyAccountant()`` before ``make_private``
    should serve it (tested here against a stand-in optimizer, not against Opacus,
    which needs torch).

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
    >>> accountant.remaining_steps(epsilon=2.0, delta=1e-5, noise_multiplier=1.1, sample_rate=0.01)
    724
    """

    def __init__(self, method: str = "pld", *,
                 neighbouring: Neighbouring | str = Neighbouring.ADD_REMOVE,
                 orders: Any = None) -> None:
        self.method = check_choice(method, "method", ACCOUNTING_METHODS)
        self.neighbouring = Neighbouring.parse(neighbouring)
        self.orders = DEFAULT_ORDERS if orders is None else check_increasing_sequence(
            orders, "orders", low=1.0, low_closed=False)
        self._clear()

    def _clear(self) -> None:
        self._history: list[list] = []
        #: distinct event -> [total count over the history] (first appearance first; a mutable
        #: cell, so that a repeated step adds 1 without hashing its event)
        self._counts: dict[Event, list[int]] = {}
        #: (distinct event, planned grid spacing or None) -> its translation by this method (a
        #: pure function of both); entries of spacings no longer planned are dropped
        self._values: dict[tuple[Event, float | None], Any] = {}
        #: the last two grid spacings planned for the history (:meth:`_composed`)
        self._planned: list[float] = []
        self._total_key: tuple | None = None
        self._total_value: Any = None
        self._answers: dict[tuple, float] = {}
        self._last_step: tuple[float, float] | None = None
        self._last_cell: list[int] = [0]

    def __repr__(self) -> str:
        return (f"PrivacyAccountant(method={self.method!r}, neighbouring={self.neighbouring.value!r}, "
                f"records={len(self._history)})")

    def __len__(self) -> int:
        """The number of ``(event, count)`` records (Opacus: the length of the history)."""
        return len(self._history)

    def mechanism(self) -> str:
        """The accounting method's name (Opacus's ``IAccountant.mechanism``): ``self.method``."""
        return self.method

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
        if event not in self._counts:
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
        self._last_cell = self._counts.setdefault(event, [0])
        self._last_cell[0] += count
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
            self._last_cell[0] += 1
            return self
        self.compose(_step_event(*key))
        self._last_step = key
        return self

    def get_optimizer_hook_fn(self, sample_rate: float) -> Callable[[Any], None]:
        """Opacus's optimizer hook: ``hook(optimizer)`` records one step of ``optimizer.noise_multiplier``.

        As Opacus's ``IAccountant.get_optimizer_hook_fn``, the rate is multiplied by
        ``optimizer.accumulated_iterations`` (1 when absent: gradient accumulation
        over that many batches is one step of a larger sample).
        """
        sample_rate = check_probability(sample_rate, "sample_rate", open_low=True)

        def hook(optimizer: Any) -> None:
            accumulated = getattr(optimizer, "accumulated_iterations", 1)
            self.step(noise_multiplier=optimizer.noise_multiplier,
                      sample_rate=sample_rate * accumulated)

        return hook

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

    def _value(self, event: Event, interval: float | None = None) -> Any:
        """This method's value of one run of ``event`` (translated once per distinct event and
        planned PLD grid spacing ``interval``)."""
        key = (event, interval)
        if key not in self._values:
            request = dataclasses.replace(self._request(probe=False),
                                          value_discretization_interval=interval)
            self._values[key] = translate(event, request)
        return self._values[key]

    def _composed(self, counts: dict[Event, int]) -> Any:
        """The composition of ``counts[e]`` runs of each event ``e`` (in the dict's order).

        A DP-SGD history of several noise multipliers is translated on one PLD grid
        (:func:`~._sampling.common_dp_sgd_interval`: each event discretised there directly,
        not spread onto it); translations on spacings planned before the last two are dropped.
        """
        interval = common_dp_sgd_interval(counts, self._request(probe=False))
        if interval is not None and interval not in self._planned:
            self._planned = [*self._planned[-1:], interval]
            self._values = {key: value for key, value in self._values.items()
                            if key[1] is None or key[1] in self._planned}
        return compose_counted(self.method, [self._value(event, interval) for event in counts],
                               list(counts.values()))

    def _grouped(self) -> dict[Event, int]:
        """Each distinct event of the history and its total count, first appearance first."""
        return {event: cell[0] for event, cell in self._counts.items()}

    def _total(self) -> Any:
        counts = self._grouped()
        key = tuple(counts.items())
        if key != self._total_key:
            if not key:
                raise UnsupportedError("nothing composed yet: the accountant's history is empty")
            self._total_key, self._total_value = key, self._composed(counts)
            self._answers = {}
        return self._total_value

    def get_epsilon(self, delta: float) -> float:
        """Upper bound on ε at ``delta`` for everything composed so far (0.0 if nothing).

        ``delta = 0`` asks for pure DP: ``inf`` unless the composition is ε-DP (by PLD,
        the largest privacy loss of its grid; RDP and zCDP answer ``inf``).
        """
        delta = check_delta(delta)
        if not self._history:
            return 0.0
        return self._answer("epsilon", delta, self._total())

    def get_delta(self, epsilon: float) -> float:
        """Upper bound on δ at ``epsilon`` for everything composed so far (0.0 if nothing)."""
        epsilon = check_epsilon(epsilon)
        if not self._history:
            return 0.0
        return self._answer("delta", epsilon, self._total())

    def _answer(self, kind: str, value: float, total: Any) -> float:
        """ε at δ = ``value`` or δ at ε = ``value`` of ``total`` (memoised for the current history)."""
        key = (kind, value)
        if total is not self._total_value or key not in self._answers:
            answer = _ANSWERS[self.method, kind](total, value)
            if total is not self._total_value:
                return answer
            self._answers[key] = answer
        return self._answers[key]

    def remaining_steps(self, *, epsilon: float, delta: float, noise_multiplier: float,
                        sample_rate: float, max_steps: int = 10 ** 7) -> int:
        """How many more :meth:`step` calls with these arguments keep ε at ``delta`` within ``epsilon``.

        The largest ``m <= max_steps`` for which this accountant, after ``m`` further
        steps, reports ``get_epsilon(delta) <= epsilon`` (0 if the budget is spent, or
        one step already exceeds it): the "stop at the budget" query of a training loop.
        Found by bracketing over the count (doubling, then bisection): about
        ``2 log₂ m`` evaluations, each the answer :meth:`get_epsilon` would give after
        ``m`` steps (same bits). The returned ``m`` is verified to pass and ``m + 1``
        to fail (unless ``m = max_steps``); the bound is non-decreasing in the count up
        to the discretisation's noise, so ``m`` is the passing end of the bracket, never
        a count that was not checked.

        >>> accountant = PrivacyAccountant(method="rdp")
        >>> accountant.remaining_steps(epsilon=2.0, delta=1e-5, noise_multiplier=1.0,
        ...                            sample_rate=0.01)
        881
        """
        epsilon = check_epsilon(epsilon)
        delta = check_delta(delta, allow_zero=False)
        max_steps = check_positive_int(max_steps, "max_steps", maximum=MAX_SELF_COMPOSITIONS)
        event = _step_event(_scalar(noise_multiplier), _scalar(sample_rate))
        refusal = self._refusal(event)
        if refusal is not None:
            raise UnsupportedError(f"method={self.method!r} cannot account {event!r} ({refusal})")

        def meets(more: int) -> bool:
            counts = self._grouped()
            counts[event] = counts.get(event, 0) + more
            return _ANSWERS[self.method, "epsilon"](self._composed(counts), delta) <= epsilon

        if not meets(1):
            return 0
        low, high = 1, 2
        while high <= max_steps and meets(high):
            low, high = high, 2 * high
        if high > max_steps:
            if meets(max_steps):
                return max_steps
            high = max_steps
        while high - low > 1:   # low passes, high fails
            middle = (low + high) // 2
            low, high = (middle, high) if meets(middle) else (low, middle)
        return low

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
    def state_dict(self, destination: dict[str, Any] | None = None) -> dict[str, Any]:
        """A JSON-able dict from which :meth:`from_state_dict` / :meth:`load_state_dict` rebuild it.

        ``destination`` (Opacus's signature): a dict to update and return instead of a new one.
        """
        state = {"method": self.method, "neighbouring": self.neighbouring.value,
                 "orders": list(self.orders),
                 "history": [{"event": event_to_dict(event), "count": count}
                             for event, count in self._history]}
        if destination is None:
            return state
        if not isinstance(destination, dict):
            raise DpverifyTypeError(f"destination={destination!r} must be a dict or None")
        destination.update(state)
        return destination

    @classmethod
    def from_state_dict(cls, state: dict[str, Any]) -> PrivacyAccountant:
        """Rebuild an accountant from :meth:`state_dict` output."""
        accountant = cls(_state(state).get("method", "pld"),
                         neighbouring=state.get("neighbouring", "add-remove"),
                         orders=state.get("orders"))
        return accountant.load_state_dict(state)

    def load_state_dict(self, state_dict: dict[str, Any]) -> PrivacyAccountant:
        """Replace this accountant's history by the one of ``state_dict`` (Opacus's name); returns self.

        The method, relation and orders saved with it are taken too (a state saved by
        a PLD accountant restores a PLD accountant). Nothing changes if the state is
        refused (a bad dict, or an event the saved method cannot account).
        """
        state = _state(state_dict, "state_dict")
        restored = PrivacyAccountant(state.get("method", "pld"),
                                     neighbouring=state.get("neighbouring", "add-remove"),
                                     orders=state.get("orders"))
        for record in state["history"]:
            restored.compose(event_from_dict(record["event"]), record["count"])
        self.method, self.neighbouring, self.orders = (restored.method, restored.neighbouring,
                                                       restored.orders)
        self._clear()
        self._history = restored._history
        self._counts, self._last_cell = restored._counts, restored._last_cell
        return self


_ANSWERS: dict[tuple[str, str], Callable[[Any, float], float]] = {
    ("pld", "epsilon"): lambda total, delta: total.epsilon_for_delta(delta),
    ("pld", "delta"): lambda total, epsilon: total.delta_for_epsilon(epsilon),
    ("rdp", "epsilon"): lambda total, delta: math.inf if delta == 0.0 else rdp_to_dp(
        total, delta=delta).epsilon,
    ("rdp", "delta"): lambda total, epsilon: rdp_to_dp_delta(total, epsilon=epsilon),
    ("zcdp", "epsilon"): lambda total, delta: math.inf if delta == 0.0 else zcdp_to_dp(
        total, delta=delta).epsilon,
    ("zcdp", "delta"): lambda total, epsilon: zcdp_to_dp_delta(total, epsilon=epsilon),
}


def _state(state: Any, name: str = "state") -> dict[str, Any]:
    if not isinstance(state, dict) or "history" not in state:
        raise DpverifyTypeError(f"{name}={state!r} must be a dict from state_dict()")
    return state


def _step_event(noise_multiplier: Any, sample_rate: Any) -> PoissonSampledEvent:
    """The event of one DP-SGD step, its arguments checked under the caller's names."""
    noise_multiplier = check_positive(noise_multiplier, "noise_multiplier")
    sample_rate = check_probability(sample_rate, "sample_rate", open_low=True)
    return PoissonSampledEvent(Gaussian(sigma=noise_multiplier), sample_rate)


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

