"""Zero-concentrated DP: composition, conversion from pure DP, to RDP and to (ε, δ)-DP.

A (ξ, ρ)-zCDP mechanism satisfies ``D_α(M(x) ‖ M(x')) <= ξ + ρα`` for every
α > 1 (Bun & Steinke 2016, Def. 1.1). zCDP composes by adding ρ and ξ, and
converts to (ε, δ)-DP through the RDP conversions, optimised here over a
*continuous* order α. Every returned number is an upper bound computed in
mpmath (or exact rationals) and rounded up; see ``docs/proofs/rdp_conversions.md``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import mpmath

from dpverify._numeric import bisect_passing, round_up, working_precision
from dpverify._validation import (
    check_choice,
    check_delta,
    check_epsilon,
    check_increasing_sequence,
    check_nonempty_items,
    value_error,
)
from dpverify.accountants.rdp.curves import DEFAULT_ORDERS
from dpverify.errors import DpverifyTypeError
from dpverify.guarantees import ZCDP, ApproxDP, PureDP, RDPCurve

__all__ = [
    "compose_zcdp",
    "pure_to_zcdp",
    "zcdp_to_rdp",
    "zcdp_to_dp",
    "zcdp_to_dp_delta",
]

_METHODS = ("tight", "bun-steinke")
_MPMATH_SLACK = 1e-30
#: Relative width at which the search for the optimal order stops; any order
#: gives a valid bound, so this only affects tightness (by ~1e-20 relative).
_ORDER_RTOL = 1e-10


def _check_zcdp(value: object, name: str) -> ZCDP:
    if not isinstance(value, ZCDP):
        raise DpverifyTypeError(
            f"{name}={value!r} must be a ZCDP guarantee, not {type(value).__name__}; "
            "convert pure DP with pure_to_zcdp first"
        )
    return value


def compose_zcdp(guarantees: Sequence[ZCDP]) -> ZCDP:
    """zCDP guarantee of the (adaptive) composition of (ξ_i, ρ_i)-zCDP mechanisms.

    Parameters
    ----------
    guarantees
        A non-empty sequence of :class:`~dpverify.guarantees.ZCDP`.

    Returns
    -------
    ZCDP
        ``(Σ ξ_i, Σ ρ_i)``.

    Raises
    ------
    TypeError
        If an element is not a ZCDP (the message names the supported type).
    ValueError
        If ``guarantees`` is empty.

    Notes
    -----
    Bun & Steinke 2016, Lemma 2.3 (adaptive composition). **Soundness**: sums
    formed exactly in rationals and rounded up.

    Examples
    --------
    >>> compose_zcdp([ZCDP(0.5), ZCDP(0.25, xi=0.1)])
    ZCDP(rho=0.75, xi=0.1)
    """
    items = check_nonempty_items(guarantees, "guarantees", single=ZCDP,
                                 example="[ZCDP(0.5), ZCDP(0.1)]")
    parts = [_check_zcdp(g, f"guarantees[{i}]") for i, g in enumerate(items)]
    rho = round_up(sum((Fraction(g.rho) for g in parts), Fraction(0)))
    xi = round_up(sum((Fraction(g.xi) for g in parts), Fraction(0)))
    return ZCDP(rho=rho, xi=xi)


def pure_to_zcdp(guarantee: PureDP | float) -> ZCDP:
    """Convert ε-DP to (ε²/2)-zCDP.

    Parameters
    ----------
    guarantee
        A :class:`~dpverify.guarantees.PureDP`, or ε itself (in [0, inf)).

    Returns
    -------
    ZCDP
        ``ρ = ε²/2``, rounded up.

    Raises
    ------
    TypeError, ValueError
        If ``guarantee`` is neither a PureDP nor a valid ε.

    Notes
    -----
    Bun & Steinke 2016, Prop. 1.4 (proved as Prop. 3.3): ``D_α <= α ε²/2``.
    For the tightest RDP curve of an ε-DP mechanism use
    :func:`dpverify.accountants.rdp.curves.pure_dp_rdp`. **Soundness**: exact square
    in rationals, rounded up; neighbouring relation of the pure-DP guarantee
    (it must hold in both directions).

    Examples
    --------
    >>> pure_to_zcdp(PureDP(1.0))
    ZCDP(rho=0.5, xi=0.0)
    """
    if isinstance(guarantee, PureDP):
        epsilon = guarantee.epsilon
    elif isinstance(guarantee, (ApproxDP, ZCDP, RDPCurve)):
        raise DpverifyTypeError(
            f"guarantee={guarantee!r} must be a PureDP or a float epsilon, "
            f"not {type(guarantee).__name__}"
        )
    else:
        epsilon = check_epsilon(guarantee, "guarantee")
    rho = round_up(Fraction(epsilon) ** 2 / 2)
    if math.isinf(rho):
        raise value_error("guarantee", guarantee, "an epsilon with ε²/2 below the float range")
    return ZCDP(rho=rho)


def zcdp_to_rdp(zcdp: ZCDP, *, orders: Sequence[float] | None = None) -> RDPCurve:
    """RDP curve ``ε(α) = ξ + ρα`` of a (ξ, ρ)-zCDP guarantee.

    Parameters
    ----------
    zcdp
        The zCDP guarantee.
    orders
        Rényi orders (strictly increasing, > 1); default
        :data:`dpverify.accountants.rdp.curves.DEFAULT_ORDERS`.

    Returns
    -------
    RDPCurve

    Raises
    ------
    TypeError, ValueError
        If ``zcdp`` is not a ZCDP or ``orders`` is not a valid grid.

    Notes
    -----
    The definition of zCDP (Bun & Steinke 2016, Def. 1.1). **Soundness**: exact
    in rationals, rounded up.

    Examples
    --------
    >>> zcdp_to_rdp(ZCDP(0.5, xi=0.25), orders=[2, 3]).epsilons
    (1.25, 1.75)
    """
    zcdp = _check_zcdp(zcdp, "zcdp")
    if orders is None:
        orders = DEFAULT_ORDERS
    else:
        orders = check_increasing_sequence(orders, "orders", low=1.0, low_closed=False)
    rho, xi = Fraction(zcdp.rho), Fraction(zcdp.xi)
    return RDPCurve(orders=orders,
                    epsilons=tuple(round_up(xi + rho * Fraction(a)) for a in orders))


def _epsilon_at(zcdp: ZCDP, x: mpmath.mpf, log_delta: mpmath.mpf) -> mpmath.mpf:
    """CKS/BBGHS ε at order ``α = 1 + x`` for ``ε(α) = ξ + ρα`` (exact in x, mpmath)."""
    log1p_x = mpmath.log1p(x)
    return (zcdp.xi + zcdp.rho * (1 + x) + mpmath.log(x) - log1p_x
            - (log_delta + log1p_x) / x)


def _log_delta_at(zcdp: ZCDP, x: mpmath.mpf, epsilon: mpmath.mpf) -> mpmath.mpf:
    """CKS 2020 Cor. 13 log δ at order ``α = 1 + x``: ``x(αρ+ξ-ε) - log x + α log(1-1/α)``."""
    alpha = 1 + x
    return (x * (alpha * zcdp.rho + zcdp.xi - epsilon) - mpmath.log(x)
            + alpha * (mpmath.log(x) - mpmath.log1p(x)))


def _optimal_excess_order(slope, upper: float) -> float:
    """Return ``x = α - 1`` just past the root of the increasing ``slope`` on ``(0, upper]``.

    ``slope`` is the derivative (or a function with the same sign) of a
    quasi-convex objective; the passing end of a verified bisection is
    returned. Any order gives a valid bound, so this only needs to be close.
    """
    if not slope(mpmath.mpf(upper)) >= 0:
        return upper  # minimum beyond the bracket: the end is still a valid order
    return bisect_passing(lambda x: slope(mpmath.mpf(x)) >= 0, 0.0, upper, rtol=_ORDER_RTOL)


def _tight_epsilon(zcdp: ZCDP, delta: float) -> mpmath.mpf:
    """min over continuous α of the CKS/BBGHS ε (and of Bun–Steinke's), in mpmath."""
    log_delta = mpmath.log(delta)
    rho = mpmath.mpf(zcdp.rho)
    if rho == 0:  # ε(α) = ξ + log(1-1/α) - (log δ + log α)/(α-1) is minimised at α = 1/δ
        return _epsilon_at(zcdp, 1 / mpmath.mpf(delta) - 1, log_delta)
    # dε/dα has the sign of ρ(α-1)² + log α + log δ, increasing in α; root <= x_bs.
    x_bs = math.sqrt(-math.log(delta) / zcdp.rho)
    x = _optimal_excess_order(lambda x: rho * x * x + mpmath.log1p(x) + log_delta,
                              min(x_bs, 1e300))
    candidates = [_epsilon_at(zcdp, mpmath.mpf(x), log_delta)]
    if x_bs < 1e300:
        candidates.append(_epsilon_at(zcdp, mpmath.mpf(x_bs), log_delta))
    return min(candidates)


def _kl_total_variation(zcdp: ZCDP) -> mpmath.mpf:
    """Bretagnolle–Huber: ``δ(0) = TV <= sqrt(1 - e^{-KL})``, ``KL <= ξ + ρ``."""
    return mpmath.sqrt(-mpmath.expm1(-(mpmath.mpf(zcdp.xi) + zcdp.rho)))


def zcdp_to_dp(zcdp: ZCDP, *, delta: float, method: str = "tight") -> ApproxDP:
    """Convert (ξ, ρ)-zCDP to (ε, δ)-DP for the given δ.

    Parameters
    ----------
    zcdp
        The zCDP guarantee.
    delta
        Target δ, in (0, 1).
    method
        ``"tight"`` (default): Canonne–Kamath–Steinke 2020 Cor. 13, optimised
        over a continuous order; ``"bun-steinke"``: the closed form of Bun &
        Steinke 2016, Prop. 1.3.

    Returns
    -------
    ApproxDP
        ``(ε, delta)``, ε rounded up.

    Raises
    ------
    TypeError, ValueError
        If an argument is invalid (the message names it).

    Notes
    -----
    .. math::

        ε_{\\text{tight}} &= \\inf_{α > 1}\\; ξ + ρα + \\log\\frac{α-1}{α}
                             - \\frac{\\log δ + \\log α}{α - 1},\\\\
        ε_{\\text{bun-steinke}} &= ξ + ρ + 2\\sqrt{ρ \\log(1/δ)}.

    The first is the smallest ε with CKS's ``δ(ε) = inf_α e^{(α-1)(αρ+ξ-ε)}
    (1-1/α)^α / (α-1) <= δ``, solved for ε in closed form at each α (the two
    are equivalent: ``δ_α(ε) <= δ`` iff ``ε >= ε_α(δ)``). The objective is
    quasi-convex in α, its derivative having the sign of ``ρ(α-1)² + log(αδ)``,
    so the optimal order is located by :func:`~dpverify._numeric.bisect_passing`
    on that sign; the order found serves only as a certificate: the bound
    is then evaluated at it in mpmath (any α > 1 gives a valid ε), and the
    minimum with its value at Bun–Steinke's order makes "tight" never worse
    than "bun-steinke". With "tight", ε = 0 when ``δ >= sqrt(1 - e^{-(ξ+ρ)})``
    (Bretagnolle–Huber; ``KL <= ξ + ρ``).

    **Soundness**: upper bound, rounded up; same neighbouring relation as the
    zCDP guarantee. See ``docs/proofs/rdp_conversions.md``.

    References
    ----------
    C. Canonne, G. Kamath, T. Steinke, "The discrete Gaussian for differential
    privacy", NeurIPS 2020, arXiv:2004.00010, Prop. 12 and Cor. 13.
    M. Bun, T. Steinke, "Concentrated differential privacy", TCC 2016, Prop. 1.3.

    Examples
    --------
    >>> round(zcdp_to_dp(ZCDP(0.5), delta=1e-5).epsilon, 4)
    4.7284
    >>> round(zcdp_to_dp(ZCDP(0.5), delta=1e-5, method="bun-steinke").epsilon, 4)
    5.2985
    """
    zcdp = _check_zcdp(zcdp, "zcdp")
    delta = check_delta(delta, "delta", allow_zero=False)
    method = check_choice(method, "method", _METHODS)
    with working_precision():
        rho, xi = mpmath.mpf(zcdp.rho), mpmath.mpf(zcdp.xi)
        bun_steinke = xi + rho + 2 * mpmath.sqrt(rho * mpmath.log(1 / mpmath.mpf(delta)))
        if method == "bun-steinke":
            epsilon = bun_steinke
        elif delta >= _kl_total_variation(zcdp):
            epsilon = mpmath.mpf(0)
        else:
            epsilon = min(_tight_epsilon(zcdp, delta), bun_steinke)
        return ApproxDP(epsilon=round_up(max(epsilon, 0), relative_error=_MPMATH_SLACK),
                        delta=delta)


def zcdp_to_dp_delta(zcdp: ZCDP, *, epsilon: float) -> float:
    """Return an upper bound on δ such that (ξ, ρ)-zCDP implies (ε, δ)-DP.

    Parameters
    ----------
    zcdp
        The zCDP guarantee.
    epsilon
        Target ε, in [0, inf).

    Returns
    -------
    float
        δ in [0, 1], rounded up.

    Raises
    ------
    TypeError, ValueError
        If an argument is invalid (the message names it).

    Notes
    -----
    .. math:: δ = \\inf_{α>1} \\frac{e^{(α-1)(αρ + ξ - ε)}}{α-1}\\left(1 - \\frac{1}{α}\\right)^α

    (Canonne, Kamath & Steinke 2020, Cor. 13). ``log δ(α)`` is convex, its
    derivative ``(2α-1)ρ + ξ - ε + log(1-1/α)`` increasing, so the optimal
    order is found by bisecting its sign and used as a certificate (the bound
    is evaluated there in mpmath). The result is also capped by the
    Bretagnolle–Huber bound ``sqrt(1 - e^{-(ξ+ρ)})``. With ρ = 0 and ε >= ξ
    the mechanism is ξ-DP and δ = 0.

    **Soundness**: upper bound, rounded up.

    Examples
    --------
    >>> round(zcdp_to_dp_delta(ZCDP(0.5), epsilon=4.7284), 7)
    1e-05
    """
    zcdp = _check_zcdp(zcdp, "zcdp")
    epsilon = check_epsilon(epsilon, "epsilon")
    with working_precision():
        rho, xi, eps = mpmath.mpf(zcdp.rho), mpmath.mpf(zcdp.xi), mpmath.mpf(epsilon)
        if rho == 0 and epsilon >= zcdp.xi:
            return 0.0
        # derivative >= 0 at x_hi: with ρ > 0 see the proof note; with ρ = 0 the root is
        # x = 1/expm1(ξ - ε).
        if rho > 0:
            x_hi = min(max(1.0, (epsilon - zcdp.xi + 1) / zcdp.rho), 1e300)
        else:
            x_hi = min(2 / math.expm1(zcdp.xi - epsilon) + 1, 1e300)
        x = _optimal_excess_order(
            lambda x: (1 + 2 * x) * rho + xi - eps + mpmath.log(x) - mpmath.log1p(x), x_hi)
        delta = min(mpmath.exp(_log_delta_at(zcdp, mpmath.mpf(x), eps)),
                    _kl_total_variation(zcdp), mpmath.mpf(1))
        return min(1.0, round_up(delta, relative_error=_MPMATH_SLACK))
