"""Group privacy: a guarantee for neighbouring datasets that differ in k records.

* ε-DP ⇒ kε-DP (Dwork & Roth 2014, Thm 2.2);
* (ε, δ)-DP ⇒ ``(kε, δ Σ_{i<k} e^{iε})``-DP, i.e. ``δ (e^{kε} − 1)/(e^ε − 1)`` (kδ at ε = 0):
  the chain of k neighbours, each step multiplying by e^ε and adding δ (Vadhan 2017,
  Lemma 2.2, the penultimate line of its proof; TF-Privacy's user-level accounting uses
  this sum, ``compute_dp_sgd_privacy_lib._compute_dp_sgd_group_privacy_using_rdp``). The
  lemma's stated k e^{(k−1)ε} δ bounds each term by the last and is larger for k >= 2;
* ρ-zCDP ⇒ k²ρ-zCDP (Bun & Steinke 2016, Prop. 1.9; ξ = 0 only);
* RDP at order 2^c α ⇒ group of 2^c at order α with 3^c times the value
  (Mironov 2017, Prop. 2; k a power of 2).

Every value is formed exactly (rationals) and rounded up.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import mpmath

from dpverify._numeric import round_up, working_precision
from dpverify._validation import check_positive_int, value_error
from dpverify.errors import DpverifyTypeError, UnsupportedError
from dpverify.guarantees import ZCDP, ApproxDP, PureDP, RDPCurve

__all__ = ["group_privacy"]


def group_privacy(guarantee: Any, group_size: int) -> Any:
    """The guarantee for groups of ``group_size`` records implied by ``guarantee`` for one record.

    >>> group_privacy(PureDP(0.5), 3)
    PureDP(epsilon=1.5)
    >>> group_privacy(ApproxDP(1.0, 1e-6), 2).delta  # δ (1 + e^ε), rounded up
    3.7182818284590455e-06
    """
    k = check_positive_int(group_size, "group_size")
    if isinstance(guarantee, PureDP):
        return PureDP(round_up(Fraction(guarantee.epsilon) * k))
    if isinstance(guarantee, ApproxDP):
        epsilon = round_up(Fraction(guarantee.epsilon) * k)
        with working_precision():
            step = mpmath.mpf(guarantee.epsilon)
            chain = k if step == 0 else mpmath.expm1(k * step) / mpmath.expm1(step)
            delta = round_up(chain * mpmath.mpf(guarantee.delta) * (1 + mpmath.mpf(10) ** -40))
        if not delta < 1:
            raise value_error("group_size", group_size, "small enough that the group δ stays below 1",
                              f"δ (e^(kε) - 1)/(e^ε - 1) = {delta!r}")
        return ApproxDP(epsilon, delta)
    if isinstance(guarantee, ZCDP):
        if guarantee.xi != 0:
            raise UnsupportedError("group privacy of (ξ, ρ)-zCDP with ξ > 0 is not implemented")
        return ZCDP(round_up(Fraction(guarantee.rho) * k * k))
    if isinstance(guarantee, RDPCurve):
        c = int(math.log2(k))
        if 2 ** c != k:
            raise value_error("group_size", group_size, "a power of 2 for an RDPCurve (Mironov Prop. 2)")
        orders, values = [], []
        for alpha, value in zip(guarantee.orders, guarantee.epsilons):
            if alpha * k in guarantee.orders and alpha >= 2:
                orders.append(alpha)
                scaled = guarantee.epsilons[guarantee.orders.index(alpha * k)]
                values.append(math.inf if math.isinf(scaled) else round_up(Fraction(scaled) * 3 ** c))
        if not orders:
            raise value_error("guarantee", guarantee, f"a curve with orders α >= 2 and {k}·α both present")
        return RDPCurve(tuple(orders), tuple(values))
    raise DpverifyTypeError(f"guarantee={guarantee!r} must be PureDP, ApproxDP, ZCDP or RDPCurve")
