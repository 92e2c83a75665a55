"""Privacy guarantees as immutable, validated values.

Functions take and return these values; a mechanism answers "what is your
privacy?" with one of them and an accountant combines them. Every class is a
frozen, slotted dataclass validated in ``__post_init__`` (update with
:func:`dataclasses.replace`, which re-validates). Following dp_event's
compatibility policy, fields are never repurposed or removed, and new fields
are only ever added as optional ones.

The neighbouring relation a guarantee refers to is the one under which it was
derived; guarantees do not carry it, the functions producing them document it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields

import mpmath

from dpverify._numeric import bisect_passing, grow_until, round_up, working_precision
from dpverify._validation import (
    check_delta,
    check_epsilon,
    check_increasing_sequence,
    check_nonnegative,
    check_real,
    shown,
    value_error,
)
from dpverify.errors import CalibrationError, DpverifyTypeError

__all__ = [
    "guarantee_to_dict",
    "PureDP",
    "ApproxDP",
    "ZCDP",
    "RDPCurve",
    "PrivacyProfile",
    "EpsilonBounds",
    "Guarantee",
]


@dataclass(frozen=True, slots=True)
class PureDP:
    """Pure ε-differential privacy: ``P[M(x) ∈ S] <= e^ε P[M(x') ∈ S]`` for all S.

    >>> PureDP(1.0)
    PureDP(epsilon=1.0)
    """

    epsilon: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "epsilon", check_epsilon(self.epsilon, "epsilon"))


@dataclass(frozen=True, slots=True)
class ApproxDP:
    """Approximate (ε, δ)-DP: ``P[M(x) ∈ S] <= e^ε P[M(x') ∈ S] + δ`` for all S.

    >>> ApproxDP(epsilon=1.0, delta=1e-6)
    ApproxDP(epsilon=1.0, delta=1e-06)
    """

    epsilon: float
    delta: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "epsilon", check_epsilon(self.epsilon, "epsilon"))
        object.__setattr__(self, "delta", check_delta(self.delta, "delta"))


@dataclass(frozen=True, slots=True)
class ZCDP:
    """(ξ, ρ)-zero-concentrated DP (Bun–Steinke 2016, Def. 1.1).

    ``D_α(M(x) || M(x')) <= ξ + ρ α`` for every order α > 1. ``xi = 0`` is
    ρ-zCDP.

    >>> ZCDP(0.5)
    ZCDP(rho=0.5, xi=0.0)
    """

    rho: float
    xi: float = 0.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "rho", check_nonnegative(self.rho, "rho"))
        object.__setattr__(self, "xi", check_nonnegative(self.xi, "xi"))


@dataclass(frozen=True, slots=True)
class RDPCurve:
    """Rényi DP on a grid of orders (Mironov 2017, Def. 4).

    ``D_α(M(x) || M(x')) <= epsilons[i]`` at ``α = orders[i]``. Orders are
    finite, strictly increasing and > 1; an epsilon may be ``inf`` (no bound
    at that order), never NaN or negative.

    >>> RDPCurve(orders=(2, 4), epsilons=(0.5, 1.0))
    RDPCurve(orders=(2.0, 4.0), epsilons=(0.5, 1.0))
    """

    orders: tuple[float, ...]
    epsilons: tuple[float, ...]

    def __post_init__(self) -> None:
        orders = check_increasing_sequence(self.orders, "orders", low=1.0, low_closed=False)
        if isinstance(self.epsilons, (str, bytes)) or not isinstance(self.epsilons, Iterable):
            raise DpverifyTypeError(f"epsilons={shown(self.epsilons)} must be a sequence of "
                                    f"real numbers, not {type(self.epsilons).__name__}")
        epsilons = self.epsilons
        if not (type(epsilons) is tuple and all(type(e) is float and e >= 0 for e in epsilons)):
            epsilons = tuple(  # (the fast path above admits exactly these values: floats >= 0, inf)
                check_nonnegative(e, f"epsilons[{i}]", allow_inf=True)
                for i, e in enumerate(self.epsilons)
            )
        if len(epsilons) != len(orders):
            raise value_error("epsilons", self.epsilons, f"of the same length as orders ({len(orders)})")
        object.__setattr__(self, "orders", orders)
        object.__setattr__(self, "epsilons", epsilons)

    def epsilon_at(self, order: float) -> float:
        """Return the RDP ε at one of the curve's orders."""
        order = check_real(order, "order")
        try:
            return self.epsilons[self.orders.index(order)]
        except ValueError:
            raise value_error("order", order, f"one of the curve's orders {self.orders}") from None


@dataclass(frozen=True, slots=True)
class PrivacyProfile:
    """The privacy profile ε ↦ δ(ε) of a mechanism, evaluable exactly.

    ``curve(epsilon)`` returns the exact hockey-stick divergence
    ``δ(ε) = sup_S P[M(x) ∈ S] − e^ε P[M(x') ∈ S]`` (the sup also over
    neighbouring pairs) as an mpmath number, computed at the working precision
    set by :func:`dpverify._numeric.working_precision`, with relative error at
    most ``relative_error``. The profile is (ε, δ(ε))-DP for every ε >= 0.

    Parameters
    ----------
    curve
        ``mpmath.mpf -> mpmath.mpf``, non-increasing in ε.
    description
        What the profile is of (shown in ``repr`` and reports).
    relative_error
        Bound on the relative error of ``curve``'s values; used to round up.

    Examples
    --------
    Randomized response with ε0 = ln 3 has δ(ε) = max(0, (3 − e^ε)/4):

    >>> import mpmath
    >>> rr = PrivacyProfile(lambda e: max(mpmath.mpf(0), (3 - mpmath.exp(e)) / 4),
    ...                     description="binary RR, eps0=ln 3")
    >>> round(rr.delta_for_epsilon(0.0), 12)
    0.5
    >>> round(rr.epsilon_for_delta(0.25), 9)
    0.693147181
    """

    curve: Callable[[mpmath.mpf], mpmath.mpf] = field(compare=True)
    description: str = ""
    relative_error: float = 1e-30

    def __post_init__(self) -> None:
        if not callable(self.curve):
            raise DpverifyTypeError(f"curve={self.curve!r} must be callable: epsilon -> delta")
        if not isinstance(self.description, str):
            raise DpverifyTypeError(f"description={self.description!r} must be a string")
        object.__setattr__(self, "relative_error",
                           check_nonnegative(self.relative_error, "relative_error"))

    def _delta_upper(self, epsilon: float) -> mpmath.mpf:
        with working_precision():
            value = mpmath.mpf(self.curve(mpmath.mpf(epsilon)))
            return value * (1 + mpmath.mpf(self.relative_error))

    def delta_for_epsilon(self, epsilon: float) -> float:
        """Return δ(ε), rounded up (an upper bound on the exact δ)."""
        epsilon = check_epsilon(epsilon, "epsilon")
        return min(1.0, round_up(self._delta_upper(epsilon)))

    def epsilon_for_delta(self, delta: float) -> float:
        """Return the smallest ε (to 1e-12 relative, rounded up) with δ(ε) <= ``delta``.

        Returns ``inf`` when no ε up to 1e12 meets ``delta``.
        """
        delta = check_delta(delta, "delta", allow_zero=False)
        meets = lambda e: self._delta_upper(e) <= delta  # noqa: E731
        if meets(0.0):
            return 0.0
        try:
            _, high = grow_until(meets, 1.0, limit=1e12)
        except CalibrationError:  # no finite ε meets δ
            return math.inf
        return bisect_passing(meets, 0.0, high, rtol=1e-12, atol=1e-15)


@dataclass(frozen=True, slots=True)
class EpsilonBounds:
    """A two-sided bound on the true ε: ``lower <= ε <= upper``.

    >>> EpsilonBounds(lower=0.9, upper=1.1)
    EpsilonBounds(lower=0.9, upper=1.1)
    """

    lower: float
    upper: float

    def __post_init__(self) -> None:
        lower = check_nonnegative(self.lower, "lower")
        upper = check_nonnegative(self.upper, "upper", allow_inf=True)
        if not lower <= upper:
            raise value_error("lower", self.lower, f"<= upper={self.upper!r}")
        object.__setattr__(self, "lower", lower)
        object.__setattr__(self, "upper", upper)


Guarantee = PureDP | ApproxDP | ZCDP | RDPCurve | PrivacyProfile
"""Any of dpverify's guarantee values."""


#: The JSON names of the guarantee types, shared by the CLI's output and ``DeploymentPlan.to_dict``.
GUARANTEE_TYPE_NAMES = {PureDP: "pure-dp", ApproxDP: "approx-dp", ZCDP: "zcdp", RDPCurve: "rdp"}


def guarantee_to_dict(guarantee: PureDP | ApproxDP | ZCDP | RDPCurve) -> dict:
    """A guarantee value as a JSON-style object: its type name and its fields.

    >>> guarantee_to_dict(ApproxDP(0.5, 1e-6))
    {'type': 'approx-dp', 'epsilon': 0.5, 'delta': 1e-06}
    >>> guarantee_to_dict(ZCDP(0.1))
    {'type': 'zcdp', 'rho': 0.1, 'xi': 0.0}
    """
    name = GUARANTEE_TYPE_NAMES.get(type(guarantee))
    if name is None:
        raise DpverifyTypeError(f"guarantee={guarantee!r} must be a PureDP, ApproxDP, ZCDP or "
                                f"RDPCurve value")
    out: dict = {"type": name}
    for item in fields(guarantee):
        value = getattr(guarantee, item.name)
        out[item.name] = list(value) if isinstance(value, tuple) else value
    return out
