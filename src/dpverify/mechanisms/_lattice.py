"""Sound conversions along the guarantee lattice, for :func:`~dpverify.mechanisms.privacy_maps.privacy_map`.

When no map is registered for (mechanism, target), the registered guarantees
are converted (at most two steps) by implications that hold for *every*
mechanism with the source guarantee:

* ε-DP ⇒ (ε, 0)-DP;  ε-DP ⇒ (ε²/2)-zCDP (Bun & Steinke 2016, Prop. 1.4);
* ε-DP ⇒ RDP ``min(ε, αε²/2)`` and (ξ, ρ)-zCDP ⇒ RDP ``ξ + ρα`` at
  :data:`CONVERSION_ORDERS` (Mironov 2017, Prop. 3 context; BS16 Def. 1.1);
* ε-DP ⇒ the privacy profile of its dominating pair (randomized response):
  ``δ(ε') = (e^ε − e^{ε'})₊/(1 + e^ε)``; (ε, δ)-DP ⇒ ``δ + (1 − δ)(e^ε − e^{ε'})₊/(1 + e^ε)``
  (Kairouz, Oh, Viswanath 2015, Thm 2.1: the pair dominates every such mechanism).

Values are rounded up (rationals) or computed in mpmath.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import mpmath

from dpverify._numeric import round_up
from dpverify.guarantees import ZCDP, ApproxDP, PrivacyProfile, PureDP, RDPCurve

__all__ = ["convert", "CONVERSION_ORDERS"]

#: Orders of an RDP curve obtained by conversion (a sound curve; accountants may ask for more).
CONVERSION_ORDERS: tuple[float, ...] = (1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0,
                                        12.0, 16.0, 20.0, 24.0, 32.0, 48.0, 64.0, 128.0, 256.0)


def _pure_profile(epsilon: float, delta: float = 0.0) -> PrivacyProfile:
    def curve(target: mpmath.mpf) -> mpmath.mpf:
        weight = mpmath.exp(mpmath.mpf(epsilon))
        gap = max(mpmath.mpf(0), weight - mpmath.exp(target))
        return mpmath.mpf(delta) + (1 - mpmath.mpf(delta)) * gap / (1 + weight)

    return PrivacyProfile(curve, description=f"dominating pair of ({epsilon}, {delta})-DP",
                          relative_error=1e-30)


_CONVERSIONS: dict[tuple[type, type], Callable[[Any], Any]] = {
    (PureDP, ApproxDP): lambda g: ApproxDP(g.epsilon, 0.0),
    (PureDP, ZCDP): lambda g: ZCDP(round_up(Fraction(g.epsilon) ** 2 / 2)),
    (PureDP, RDPCurve): lambda g: RDPCurve(CONVERSION_ORDERS, tuple(
        min(g.epsilon, round_up(Fraction(a) * Fraction(g.epsilon) ** 2 / 2)) for a in CONVERSION_ORDERS)),
    (ZCDP, RDPCurve): lambda g: RDPCurve(CONVERSION_ORDERS, tuple(
        round_up(Fraction(g.xi) + Fraction(g.rho) * Fraction(a)) for a in CONVERSION_ORDERS)),
    (PureDP, PrivacyProfile): lambda g: _pure_profile(g.epsilon),
    (ApproxDP, PrivacyProfile): lambda g: _pure_profile(g.epsilon, g.delta),
}


def convert(sources: dict[type, Callable[[], Any]], target: type) -> Any | None:
    """The ``target`` guarantee from the first source that converts to it (<= 2 steps), or None.

    ``sources`` maps each available guarantee type to a thunk computing it.
    """
    for source, compute in sources.items():
        if (source, target) in _CONVERSIONS:
            return _CONVERSIONS[(source, target)](compute())
    for source, compute in sources.items():
        for (first, middle), step in _CONVERSIONS.items():
            if first is source and (middle, target) in _CONVERSIONS:
                return _CONVERSIONS[(middle, target)](step(compute()))
    return None
