"""Rényi DP of ε-bounded-range mechanisms (the exponential mechanism), exact at every order.

A mechanism is ε-bounded-range (ε-BR; Durfee & Rogers, NeurIPS 2019) when, on
every neighbouring pair (x, x'), its privacy loss ``L(o) = ln(P(o)/Q(o))`` takes
values in an interval of width ε. The exponential mechanism with weights
``e^{η u(x, o)}`` and utility sensitivity Δu is ε-BR with ``ε = 2ηΔu``.

The worst ε-BR pair at order α is the two-point pair ``RR_t`` of Cesar & Rogers
(ALT 2021, arXiv:2004.07223, §3), whose loss is ``(1 − t)ε`` or ``−tε``, maximised
over ``t ∈ [0, 1]``; the maximisation has a closed form (``docs/proofs/rdp_conversions.md``,
"Bounded-range mechanisms"):

.. math:: D_α = \\ln\\frac{(α − 1)(e^{αε} − 1)}{α(e^{αε} − e^{ε})}
              + \\frac{1}{α − 1}\\ln\\frac{e^{αε} − 1}{α(e^{ε} − 1)},

attained at ``e^{tε} = α(e^{αε} − e^{ε}) / ((α − 1)(e^{αε} − 1))``. Its limit at α → 1
is Cesar & Rogers' optimal KL bound ``ε/(e^ε − 1) − 1 + ln((e^ε − 1)/ε)`` (0.1233 at
ε = 1, against the ``ε²/8 = 0.125`` of their zCDP bound).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import mpmath

from dpverify._numeric import round_up, working_precision
from dpverify._validation import check_epsilon, check_increasing_sequence
from dpverify.accountants.rdp.curves import DEFAULT_ORDERS
from dpverify.guarantees import RDPCurve

__all__ = ["bounded_range_rdp", "bounded_range_kl"]

#: Relative slack added to each mpmath value before rounding up: the arithmetic runs at
#: 50 digits plus the digits the cancellations below can cost, so its relative error is
#: far below this.
_MPMATH_SLACK = 1e-25


def bounded_range_rdp(epsilon: float, *, orders: Sequence[float] | None = None) -> RDPCurve:
    """The tightest RDP curve valid for every ε-bounded-range mechanism (the exponential mechanism).

    Parameters
    ----------
    epsilon
        The bounded-range parameter: on neighbouring inputs the privacy loss ranges
        over an interval of width ε, in (0, inf). For the exponential mechanism with
        weights ``e^{η u}`` and utility sensitivity Δu, ``ε = 2ηΔu``.
    orders
        Rényi orders, finite, > 1, increasing; default
        :data:`~dpverify.accountants.rdp.curves.DEFAULT_ORDERS`.

    Returns
    -------
    RDPCurve
        ``min(D_α, αε²/8, ε)`` at every order, ``D_α`` the closed form below.

    Raises
    ------
    ValueError, TypeError
        If an argument is invalid (the message names it).

    Notes
    -----
    With ``E = e^ε``:

    .. math:: D_α = \\sup_{t ∈ [0,1]} D_α(RR_t) = \\ln\\frac{(α − 1)(E^α − 1)}{α(E^α − E)}
              + \\frac{1}{α − 1}\\ln\\frac{E^α − 1}{α(E − 1)}.

    For α > 1, ``y ↦ y^α`` is convex, so among laws of the likelihood ratio
    ``Y = dP/dQ`` on ``[e^{−tε}, e^{(1−t)ε}]`` with ``E_Q[Y] = 1``, ``E_Q[Y^α]`` is
    largest on the two end points: the pair ``RR_t`` (Cesar & Rogers 2021, §3).
    ``ln E_Q[Y^α]`` of ``RR_t`` is ``−α ln u + ln(Au + B) − ln(E − 1)`` in
    ``u = e^{tε}``, ``A = E^α − 1``, ``B = E − E^α``: its derivative changes sign once,
    from + to −, at ``u* = αB/((1 − α)A) ∈ (1, E)``, which gives the formula. Since
    ``α ↦ D_α(P‖Q)`` is non-decreasing for every pair, so is ``D_α``. ``αε²/8`` is
    Cesar & Rogers' Lemma 3.2 (ε-BR ⇒ ε²/8-zCDP) and ``ε`` is ``D_∞``; both stay in
    the minimum as numerical safeguards (``D_α`` is below both). The proof is in
    ``docs/proofs/rdp_conversions.md``, "Bounded-range mechanisms".

    **Soundness.** Upper bound (the exact supremum, so also tight: ``RR_{t*}`` attains
    it) for every neighbouring relation under which the mechanism is ε-BR in both
    directions; the class is closed under swapping P and Q, so one value serves both.
    Evaluated in mpmath with extra digits for the cancellations, a relative slack of
    1e-25 added, rounded up.

    References
    ----------
    D. Durfee, R. Rogers, "Practical differentially private top-k selection with
    pay-what-you-get composition", NeurIPS 2019 (bounded range).
    M. Cesar, R. Rogers, "Bounding, concentrating, and truncating: unifying privacy
    loss composition for data analytics", ALT 2021, arXiv:2004.07223.

    Examples
    --------
    >>> curve = bounded_range_rdp(1.0, orders=[2.0, 8.0])
    >>> [round(e, 4) for e in curve.epsilons]      # ε²α/8 would be 0.25 and 1.0
    [0.2402, 0.6355]
    """
    epsilon = check_epsilon(epsilon, "epsilon", allow_zero=False)
    orders = (
        DEFAULT_ORDERS if orders is None else check_increasing_sequence(orders, "orders", low=1.0, low_closed=False)
    )
    values = []
    for alpha in orders:
        zcdp_value = round_up(Fraction(epsilon) ** 2 * Fraction(alpha) / 8)
        exact = round_up(_bounded_range_divergence(epsilon, alpha), relative_error=_MPMATH_SLACK)
        values.append(min(exact, zcdp_value, epsilon))
    return RDPCurve(orders=orders, epsilons=tuple(values))


def bounded_range_kl(epsilon: float) -> float:
    """The largest KL divergence of an ε-bounded-range pair, rounded up (order 1 of :func:`bounded_range_rdp`).

    .. math:: D_1 = \\frac{ε}{e^ε − 1} − 1 + \\ln\\frac{e^ε − 1}{ε}

    (Cesar & Rogers, ALT 2021, arXiv:2004.07223, §3: the optimal KL bound of ε-BR
    mechanisms; the α → 1 limit of :func:`bounded_range_rdp`'s closed form).

    **Soundness.** Upper bound (exact value, mpmath with extra digits, slack 1e-25,
    rounded up), for the same relations as :func:`bounded_range_rdp`.

    >>> round(bounded_range_kl(1.0), 4)     # ε²/8 = 0.125
    0.1233
    """
    epsilon = check_epsilon(epsilon, "epsilon", allow_zero=False)
    with working_precision(50 + 2 * _digits_lost(epsilon)):
        e = mpmath.mpf(epsilon)
        value = e / mpmath.expm1(e) - 1 + mpmath.log(mpmath.expm1(e) / e)
        return round_up(value, relative_error=_MPMATH_SLACK)


def _digits_lost(small: float) -> int:
    """Decimal digits a cancellation of relative size ``small`` (< 1) costs."""
    return 0 if small >= 1 else min(2000, math.ceil(-math.log10(small)) + 5)


def _bounded_range_divergence(epsilon: float, alpha: float) -> mpmath.mpf:
    """``sup_t D_α(RR_t)`` in mpmath (closed form; docs/proofs/rdp_conversions.md)."""
    # the two logarithms are O(ε) and O(αε) while their sum is O(αε²): ε and (α − 1)ε cost digits
    extra = _digits_lost(epsilon) + _digits_lost((alpha - 1) * epsilon) + _digits_lost(alpha - 1)
    with working_precision(50 + 2 * extra):
        e, a = mpmath.mpf(epsilon), mpmath.mpf(alpha)
        growth = mpmath.expm1(a * e)  # E^α − 1
        # ln u* = ln α + ε + ln expm1((α−1)ε) − ln(α − 1) − ln(E^α − 1), clamped to [0, ε]
        log_u = mpmath.log(a) + e + mpmath.log(mpmath.expm1((a - 1) * e)) - mpmath.log(a - 1) - mpmath.log(growth)
        log_u = min(max(log_u, mpmath.mpf(0)), e)
        # D_α(RR_t) at u = e^{tε}: (−α ln u + ln((E^α − 1)u + E − E^α) − ln(E − 1)) / (α − 1),
        # with (E^α − 1)u + E − E^α = (E^α − 1)(u − 1) + (E − 1); any u gives a value <= the sup,
        # and the error of u* lowers it only to second order (far below the slack)
        u = mpmath.exp(log_u)
        inner = growth * (u - 1) + mpmath.expm1(e)
        return (-a * log_u + mpmath.log(inner) - mpmath.log(mpmath.expm1(e))) / (a - 1)
