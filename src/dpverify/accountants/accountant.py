"""A privacy accountant object: compose events, ask for ε or δ, by PLD, RDP or zCDP.

:class:`PrivacyAccountant` is the one stateful object of the accountants: a
ledger that only appends ``(event, count)`` records (:mod:`dpverify.accountants.events`) and
recomputes every answer from them with the pure functions of :mod:`.pld`,
:mod:`.rdp` and :mod:`.zcdp` (ARCHITECTURE.md, "accounting consumes
guarantee values"). It offers the ergonomics of dp_accounting's
``PrivacyAccountant`` and Opacus's accountants: ``compose(event, count)``,
``get_epsilon(delta)``, ``get_delta(epsilon)``, ``supports(event)``, a
training-loop ``step(noise_multiplier=..., sample_rate=...)`` whose repeated
identical calls cost one self-composition, ``state_dict()`` /
``from_state_dict()``, and :meth:`PrivacyAccountant.report` side by side
over every method that supports the history.

Neighbouring relations: ``"add-remove"``, ``"replace"`` (replace-one) and
``"replace-special"`` (replace a record by a special value that contributes
nothing). A mechanism event's sensitivity is the caller's, under the chosen
relation; the Poisson-subsampled Gaussian has the dominating pairs of Zhu,
Dong, Wang (AISTATS 2022, Prop. 30): under add-remove and replace-special by
PLD and RDP, under replace-one (contributions ±1: the pair
``(1−q)N(0) + qN(±1)``, dp_accounting's ``REPLACE_ONE``) by PLD only.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from dpverify._numeric import round_up, working_precision
from dpverify._validation import (check_choice, check_delta, check_epsilon,
                                  check_increasing_sequence, check_positive_int)
from dpverify.accountants.events import (
    ComposedEvent,
    Event,
    ExponentialMechanismEvent,
    MechanismEvent,
    PoissonSampledEvent,
    RepeatAndSelectEvent,
    SampledWithoutReplacementEvent,
    SelfComposedEvent,
    TreeAggregationEvent,
    as_event,
    event_from_dict,
    event_to_dict,
)
from dpverify.accountants.pld import PrivacyLossDistribution
from dpverify.accountants.rdp import (
    DEFAULT_ORDERS,
    compose_rdp,
    gaussian_rdp,
    laplace_rdp,
    pure_dp_rdp,
    randomized_response_rdp,
    rdp_to_dp,
    rdp_to_dp_delta,
    scale_rdp,
    subsampled_gaussian_rdp,
)
from dpverify.accountants._subsampled_event_rdp import mechanism_zcdp, sampled_event_rdp
from dpverify.accountants.zcdp import compose_zcdp, pure_to_zcdp, zcdp_to_dp, zcdp_to_dp_delta, zcdp_to_rdp
from dpverify.errors import DpverifyTypeError, UnsupportedError
from dpverify.guarantees import ZCDP, ApproxDP, PureDP, RDPCurve
from dpverify.mechanisms import (
    BinaryRandomizedResponse,
    DiscreteLaplace,
    Gaussian,
    Laplace,
    RandomizedResponse,
    privacy_map,
)

__all__ = ["PrivacyAccountant", "ACCOUNTING_METHODS", "NEIGHBOURING_RELATIONS",
           "from_dp_accounting"]

#: Accounting methods, tightest first.
ACCOUNTING_METHODS = ("pld", "rdp", "zcdp")
#: Neighbouring relations an accountant can be stated for.
NEIGHBOURING_RELATIONS = ("add-remove", "replace", "replace-special")


class PrivacyAccountant:
    """Ledger of privacy events, evaluated by ``method`` on demand.

    Parameters
    ----------
    method : {"pld", "rdp", "zcdp"}
        How the composition is accounted: privacy loss distributions
        (pessimistic, tightest), Rényi DP at ``orders``, or zCDP.
    neighbouring : {"add-remove", "replace", "replace-special"}
        The neighbouring relation the guarantee is stated for.
    orders
        RDP orders (``method="rdp"``); default
        :data:`~dpverify.accountants.rdp.DEFAULT_ORDERS` (fractional orders included).

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

    def __init__(self, method: str = "pld", *, neighbouring: str = "add-remove",
                 orders: Any = None) -> None:
        self.method = check_choice(method, "method", ACCOUNTING_METHODS)
        self.neighbouring = check_choice(neighbouring, "neighbouring", NEIGHBOURING_RELATIONS)
        self.orders = DEFAULT_ORDERS if orders is None else check_increasing_sequence(
            orders, "orders", low=1.0, low_closed=False)
        self._history: list[list] = []
        self._cache: dict[tuple, Any] = {}
        self._last_step: tuple[float, float] | None = None

    def __repr__(self) -> str:
        return (f"PrivacyAccountant(method={self.method!r}, neighbouring={self.neighbouring!r}, "
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
        if not self.supports(event):
            raise UnsupportedError(f"method={self.method!r} cannot account {event!r} under "
                                   f"neighbouring={self.neighbouring!r}; "
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
        composition is computed once, when ε or δ is asked for.
        """
        key = (noise_multiplier, sample_rate)
        if self._last_step == key and type(noise_multiplier) is float and type(sample_rate) is float:
            self._history[-1][1] += 1
            return self
        self.compose(PoissonSampledEvent(Gaussian(sigma=noise_multiplier), sample_rate))
        self._last_step = key
        return self

    def supports(self, event: Any) -> bool:
        """True when this accountant's method can account ``event`` under its relation."""
        try:
            _TRANSLATORS[self.method](self, as_event(event), probe=True)
        except UnsupportedError:
            return False
        return True

    def supporting_methods(self, event: Any) -> tuple[str, ...]:
        """The methods (with this relation) that can account ``event``."""
        return tuple(m for m in ACCOUNTING_METHODS
                     if PrivacyAccountant(m, neighbouring=self.neighbouring,
                                          orders=self.orders).supports(event))

    # ----------------------------------------------------------------- queries
    def _total(self) -> Any:
        key = tuple((event, count) for event, count in self._history)
        if key not in self._cache:
            if not key:
                raise UnsupportedError("nothing composed yet: the accountant's history is empty")
            parts = [SelfComposedEvent(event, count) if count > 1 else event for event, count in key]
            event = parts[0] if len(parts) == 1 else ComposedEvent(tuple(parts))
            self._cache = {key: _TRANSLATORS[self.method](self, event, probe=False)}
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
        return {"method": self.method, "neighbouring": self.neighbouring,
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


# --------------------------------------------------------------------------- translators
_REPEAT_AND_SELECT = ("repeat-and-select is accounted in RDP only (Papernot & Steinke 2022, Thm 2 and 6); "
                      "use method='rdp'")


def _unsupported(event: Any, method: str, why: str = "") -> UnsupportedError:
    return UnsupportedError(f"{method} cannot account {event!r}" + (f": {why}" if why else ""))


def _gaussian_noise(event: Event) -> tuple[float, float] | None:
    """(σ, sensitivity) when ``event`` is one Gaussian release (tree aggregation included)."""
    if isinstance(event, MechanismEvent) and isinstance(event.mechanism, Gaussian):
        return event.mechanism.sigma, event.sensitivity
    if isinstance(event, TreeAggregationEvent):
        return event.noise_multiplier, math.sqrt(event.depth)
    return None


def _binary_rr_epsilon(mechanism: BinaryRandomizedResponse) -> float:
    p = mechanism.flip_probability
    with working_precision():
        import mpmath
        return round_up(mpmath.log((2 - mpmath.mpf(p)) / mpmath.mpf(p)))


def _pure_epsilon(event: MechanismEvent) -> float | None:
    mechanism = event.mechanism
    if isinstance(mechanism, PureDP):
        return mechanism.epsilon
    if isinstance(mechanism, RandomizedResponse):
        return mechanism.epsilon
    if isinstance(mechanism, BinaryRandomizedResponse):
        return _binary_rr_epsilon(mechanism)
    if isinstance(mechanism, Laplace):
        return round_up(Fraction(event.sensitivity) / Fraction(mechanism.scale))
    try:
        guarantee = privacy_map(mechanism, sensitivity=event.sensitivity, target=PureDP)
    except (UnsupportedError, TypeError, ValueError):
        return None
    return guarantee.epsilon


def _poisson_gaussian(accountant: PrivacyAccountant, event: PoissonSampledEvent,
                      method: str) -> tuple[float, float]:
    noise = _gaussian_noise(event.event)
    if noise is None:
        raise _unsupported(event, method, "Poisson sampling of a Gaussian only (so far)")
    if accountant.neighbouring == "replace" and method != "pld":
        raise _unsupported(event, method, "under replace-one the subsampled Gaussian is "
                                          "accounted by PLD only (so far)")
    sigma, sensitivity = noise
    return round_down_ratio(sigma, sensitivity), event.sampling_probability


def round_down_ratio(sigma: float, sensitivity: float) -> float:
    """``σ/Δ`` rounded down (a smaller noise multiplier dominates)."""
    from dpverify._numeric import round_down
    return round_down(Fraction(sigma) / Fraction(sensitivity))


def _pld(accountant: PrivacyAccountant, event: Event, *, probe: bool) -> Any:
    if isinstance(event, ComposedEvent):
        parts = [_pld(accountant, e, probe=probe) for e in event.events]
        if probe:
            return None
        from dpverify.accountants.pld import compose_plds
        return compose_plds(parts)
    if isinstance(event, SelfComposedEvent):
        inner = _pld(accountant, event.event, probe=probe)
        return None if probe else inner.self_compose(event.count)
    if isinstance(event, PoissonSampledEvent) and _gaussian_noise(event.event) is None:
        return _poisson_finite_pair(accountant, event, probe)
    if isinstance(event, PoissonSampledEvent):
        sigma, q = _poisson_gaussian(accountant, event, "pld")
        return None if probe else PrivacyLossDistribution.from_subsampled_gaussian(
            sigma, q, relation=accountant.neighbouring)
    if isinstance(event, SampledWithoutReplacementEvent):
        return _without_replacement(accountant, event, probe)
    if isinstance(event, RepeatAndSelectEvent):
        raise _unsupported(event, "pld", _REPEAT_AND_SELECT)
    if isinstance(event, ExponentialMechanismEvent):   # ε-DP pair (sound; BR's own pair is tighter)
        return None if probe else PrivacyLossDistribution.from_approx_dp(event.epsilon, 0.0)
    noise = _gaussian_noise(event)
    if noise is not None:
        return None if probe else PrivacyLossDistribution.from_gaussian(noise[0], sensitivity=noise[1])
    if isinstance(event, MechanismEvent):
        mechanism = event.mechanism
        if isinstance(mechanism, Laplace):
            return None if probe else PrivacyLossDistribution.from_laplace(
                mechanism.scale, sensitivity=event.sensitivity)
        if isinstance(mechanism, RandomizedResponse) and event.sensitivity == 1.0:
            return None if probe else PrivacyLossDistribution.from_randomized_response(
                mechanism.epsilon, k=mechanism.k)
        if isinstance(mechanism, DiscreteLaplace) and float(event.sensitivity).is_integer():
            return None if probe else PrivacyLossDistribution.from_discrete_laplace(
                mechanism.scale, sensitivity=int(event.sensitivity))
        if isinstance(mechanism, ApproxDP):
            return None if probe else PrivacyLossDistribution.from_approx_dp(
                mechanism.epsilon, mechanism.delta)
        epsilon = _pure_epsilon(event)
        if epsilon is not None:
            return None if probe else PrivacyLossDistribution.from_approx_dp(epsilon, 0.0)
    raise _unsupported(event, "pld")


def _poisson_finite_pair(accountant: PrivacyAccountant, event: PoissonSampledEvent,
                         probe: bool) -> Any:
    """Poisson subsampling of a mechanism with a finite dominating pair (add/remove, replace-special)."""
    from dpverify.accountants.subsampling import dominating_pair, poisson_subsampled_pld

    inner = event.event
    if not isinstance(inner, MechanismEvent) or accountant.neighbouring == "replace":
        raise _unsupported(event, "pld", "Poisson sampling of a single mechanism with a finite "
                                         "dominating pair, under add-remove or replace-special")
    dominating_pair(inner.mechanism, sensitivity=inner.sensitivity)   # raises if none
    if probe:
        return None
    return poisson_subsampled_pld(inner.mechanism, event.sampling_probability,
                                  sensitivity=inner.sensitivity)


def _without_replacement(accountant: PrivacyAccountant, event: SampledWithoutReplacementEvent,
                         probe: bool) -> Any:
    """A batch of m of n records (replace-one): a Gaussian or a mechanism with a finite dominating pair."""
    from dpverify.accountants.subsampling import dominating_pair
    from dpverify.accountants import subsampling_wor

    inner = event.event
    if accountant.neighbouring != "replace":
        raise _unsupported(event, "pld", "sampling without replacement is accounted under "
                                         "replace-one only (neighbouring='replace')")
    noise = _gaussian_noise(inner)
    if noise is not None:
        return None if probe else subsampling_wor.without_replacement_gaussian_pld(
            noise[0], event.sample_size, event.population_size, sensitivity=noise[1])
    if not isinstance(inner, MechanismEvent):
        raise _unsupported(event, "pld", "sampling without replacement of a single mechanism with "
                                         "a finite dominating pair only (so far)")
    dominating_pair(inner.mechanism, sensitivity=inner.sensitivity)   # raises if none
    if probe:
        return None
    return subsampling_wor.without_replacement_pld(inner.mechanism, event.sample_size,
                                                   event.population_size, sensitivity=inner.sensitivity)


def _rdp(accountant: PrivacyAccountant, event: Event, *, probe: bool) -> Any:
    orders = accountant.orders
    if isinstance(event, ComposedEvent):
        parts = [_rdp(accountant, e, probe=probe) for e in event.events]
        return None if probe else compose_rdp(parts)
    if isinstance(event, SelfComposedEvent):
        inner = _rdp(accountant, event.event, probe=probe)
        return None if probe else scale_rdp(inner, event.count)
    if isinstance(event, PoissonSampledEvent) and _gaussian_noise(event.event) is not None:
        sigma, q = _poisson_gaussian(accountant, event, "rdp")
        return None if probe else subsampled_gaussian_rdp(sigma, q, orders=orders)
    if isinstance(event, (PoissonSampledEvent, SampledWithoutReplacementEvent)):
        return sampled_event_rdp(   # any inner event with an RDP curve (rdp_subsampling)
            event, orders=orders, neighbouring=accountant.neighbouring, probe=probe,
            inner_curve=lambda inner, at: _rdp(PrivacyAccountant(
                "rdp", neighbouring=accountant.neighbouring, orders=at), inner, probe=probe),
            gaussian_noise=_gaussian_noise, pure_epsilon=_pure_epsilon)
    if isinstance(event, RepeatAndSelectEvent):   # Papernot & Steinke 2022, Thm 2 / Thm 6
        inner = _rdp(accountant, event.event, probe=probe)
        if probe:
            return None
        from dpverify.accountants.repeat_select import repeat_and_select_rdp
        return repeat_and_select_rdp(inner, mean=event.mean, shape=event.shape)
    if isinstance(event, ExponentialMechanismEvent):   # min of ε-DP and ε²/8-zCDP (bounded range)
        if probe:
            return None
        pure = pure_dp_rdp(event.epsilon, orders=orders)
        bounded = zcdp_to_rdp(_bounded_range_zcdp(event.epsilon), orders=orders)
        return RDPCurve(pure.orders, tuple(min(a, b) for a, b in zip(pure.epsilons, bounded.epsilons)))
    noise = _gaussian_noise(event)
    if noise is not None:
        return None if probe else gaussian_rdp(noise[0], sensitivity=noise[1], orders=orders)
    if isinstance(event, MechanismEvent):
        mechanism = event.mechanism
        if isinstance(mechanism, ZCDP):
            return None if probe else zcdp_to_rdp(mechanism, orders=orders)
        if isinstance(mechanism, Laplace):
            return None if probe else laplace_rdp(mechanism.scale, sensitivity=event.sensitivity,
                                                  orders=orders)
        if isinstance(mechanism, BinaryRandomizedResponse):
            return None if probe else randomized_response_rdp(_binary_rr_epsilon(mechanism),
                                                              orders=orders)
        if isinstance(mechanism, RandomizedResponse) and event.sensitivity == 1.0:
            return None if probe else randomized_response_rdp(mechanism.epsilon, orders=orders,
                                                              k=mechanism.k)
        epsilon = _pure_epsilon(event)
        if epsilon is not None:
            return None if probe else pure_dp_rdp(epsilon, orders=orders)
        rho = mechanism_zcdp(event)   # e.g. the discrete Gaussian
        if rho is not None:
            return None if probe else zcdp_to_rdp(rho, orders=orders)
    raise _unsupported(event, "rdp")


def _zcdp(accountant: PrivacyAccountant, event: Event, *, probe: bool) -> Any:
    if isinstance(event, ComposedEvent):
        parts = [_zcdp(accountant, e, probe=probe) for e in event.events]
        return None if probe else compose_zcdp(parts)
    if isinstance(event, SelfComposedEvent):
        inner = _zcdp(accountant, event.event, probe=probe)
        if probe:
            return None
        return ZCDP(round_up(Fraction(inner.rho) * event.count),
                    round_up(Fraction(inner.xi) * event.count))
    if isinstance(event, RepeatAndSelectEvent):
        raise _unsupported(event, "zcdp", _REPEAT_AND_SELECT)
    if isinstance(event, ExponentialMechanismEvent):
        return None if probe else _bounded_range_zcdp(event.epsilon)
    noise = _gaussian_noise(event)
    if noise is not None:   # ρ = Δ²/(2σ²) (Bun & Steinke 2016, Prop. 1.6)
        sigma, sensitivity = noise
        return None if probe else ZCDP(round_up(Fraction(sensitivity) ** 2 / (2 * Fraction(sigma) ** 2)))
    if isinstance(event, MechanismEvent):
        if isinstance(event.mechanism, ZCDP):
            return None if probe else event.mechanism
        epsilon = _pure_epsilon(event)
        if epsilon is not None:
            return None if probe else pure_to_zcdp(epsilon)
        rho = mechanism_zcdp(event)   # e.g. the discrete Gaussian
        if rho is not None:
            return None if probe else rho
    raise _unsupported(event, "zcdp")


def _bounded_range_zcdp(epsilon: float) -> ZCDP:
    """ε-bounded-range ⇒ (ε²/8)-zCDP (Cesar & Rogers, ALT 2021, Lemma 3.2), rounded up."""
    return ZCDP(round_up(Fraction(epsilon) ** 2 / 8))


_TRANSLATORS: dict[str, Callable[..., Any]] = {"pld": _pld, "rdp": _rdp, "zcdp": _zcdp}


# --------------------------------------------------------------------------- interop
def from_dp_accounting(event: Any) -> Event:
    """Convert a dp_accounting ``DpEvent`` tree to dpverify events (duck-typed: no import needed).

    Supported: Gaussian, Laplace, DiscreteLaplace, RandomizedResponse, EpsilonDelta, ZCDp,
    SelfComposed, Composed, PoissonSampled, SampledWithoutReplacement,
    SingleEpochTreeAggregation and RepeatAndSelect events.

    Raises
    ------
    UnsupportedError
        For any other event (named in the message), e.g. ``NonPrivateDpEvent``.
    """
    name = type(event).__name__
    convert = _FROM_DP_ACCOUNTING.get(name)
    if convert is None:
        raise UnsupportedError(f"no dpverify event for dp_accounting's {name}; supported: "
                               f"{', '.join(sorted(_FROM_DP_ACCOUNTING))}")
    return convert(event)


def _rr_from_dp_accounting(event: Any) -> Event:
    # dp_accounting's noise_parameter p: report truthfully w.p. 1 − p, else uniformly at random
    # (so the kept bucket has mass 1 − p + p/k and each other p/k): ε = ln(1 + k(1 − p)/p).
    p, k = float(event.noise_parameter), int(event.num_buckets)
    with working_precision():
        import mpmath
        epsilon = math.inf if p == 0 else round_up(mpmath.log(1 + k * (1 - mpmath.mpf(p)) / p))
    return MechanismEvent(RandomizedResponse(k, epsilon))


_FROM_DP_ACCOUNTING: dict[str, Callable[[Any], Event]] = {
    "GaussianDpEvent": lambda e: MechanismEvent(Gaussian(sigma=float(e.noise_multiplier))),
    "LaplaceDpEvent": lambda e: MechanismEvent(Laplace(scale=float(e.noise_multiplier))),
    "RandomizedResponseDpEvent": _rr_from_dp_accounting,
    "DiscreteLaplaceDpEvent": lambda e: MechanismEvent(  # pmf ∝ e^{−a|k|}: scale 1/a, rounded down
        DiscreteLaplace(scale=round_down_ratio(1.0, float(e.noise_parameter))), float(e.sensitivity)),
    "EpsilonDeltaDpEvent": lambda e: MechanismEvent(ApproxDP(float(e.epsilon), float(e.delta))),
    "ZCDpEvent": lambda e: MechanismEvent(ZCDP(float(e.rho), float(getattr(e, "xi", 0.0)))),
    "SelfComposedDpEvent": lambda e: SelfComposedEvent(from_dp_accounting(e.event), int(e.count)),
    "ComposedDpEvent": lambda e: ComposedEvent(tuple(from_dp_accounting(x) for x in e.events)),
    "PoissonSampledDpEvent": lambda e: PoissonSampledEvent(from_dp_accounting(e.event),
                                                           float(e.sampling_probability)),
    "SampledWithoutReplacementDpEvent": lambda e: SampledWithoutReplacementEvent(
        from_dp_accounting(e.event), int(e.sample_size), int(e.source_dataset_size)),
    "SingleEpochTreeAggregationDpEvent": lambda e: TreeAggregationEvent(
        float(e.noise_multiplier), e.step_counts),
    "RepeatAndSelectDpEvent": lambda e: RepeatAndSelectEvent(from_dp_accounting(e.event),
                                                             float(e.mean), float(e.shape)),
}
