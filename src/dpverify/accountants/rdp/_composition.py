"""Composition of RDP curves (private; re-exported by :mod:`dpverify.accountants.rdp`).

Curves compose by adding them order by order (Mironov 2017, Prop. 1); a
``count``-fold self-composition multiplies them. Sums and products are formed
exactly (rationals, or integer arithmetic on the float product) and rounded up.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from fractions import Fraction

from dpverify._numeric import round_up
from dpverify._validation import check_nonempty_items, check_positive_int, value_error
from dpverify.errors import DpverifyTypeError
from dpverify.guarantees import RDPCurve

__all__ = ["compose_rdp", "scale_rdp", "check_curve"]


def check_curve(curve: object, name: str = "curve") -> RDPCurve:
    if not isinstance(curve, RDPCurve):
        raise DpverifyTypeError(
            f"{name}={curve!r} must be an RDPCurve, not {type(curve).__name__}"
        )
    return curve



def compose_rdp(curves: Sequence[RDPCurve]) -> RDPCurve:
    """RDP curve of the (adaptive) composition of mechanisms with the given curves.

    Parameters
    ----------
    curves
        A non-empty sequence of :class:`~dpverify.guarantees.RDPCurve`. Curves on
        different grids are restricted to the orders they all share.

    Returns
    -------
    RDPCurve
        The order-wise sum, on the common orders (in increasing order).

    Raises
    ------
    TypeError
        If ``curves`` is not a sequence of RDPCurve.
    ValueError
        If it is empty or the curves share no order.

    Notes
    -----
    .. math:: ε_{\\text{total}}(α) = \\sum_i ε_i(α)

    (Mironov 2017, Prop. 1, adaptive sequential composition). **Soundness**:
    the sum is formed exactly in rationals and rounded up; holds for the
    neighbouring relation the parts share.

    Examples
    --------
    >>> compose_rdp([RDPCurve(orders=(2.0, 4.0), epsilons=(1.0, 2.0))] * 3).epsilons
    (3.0, 6.0)
    """
    parts = _check_curves(curves)
    common = set(parts[0].orders).intersection(*(set(c.orders) for c in parts[1:]))
    if not common:
        raise value_error("curves", curves, "curves sharing at least one order",
                          "evaluate them on a common grid, e.g. DEFAULT_ORDERS")
    orders = tuple(sorted(common))
    counts = Counter(parts)  # repeated curves are multiplied, not added one by one
    columns = [(_on_orders(c, orders), n) for c, n in counts.items()]
    values = tuple(_exact_sum((column[i], n) for column, n in columns) for i in range(len(orders)))
    return RDPCurve(orders=orders, epsilons=values)


def _on_orders(curve: RDPCurve, orders: tuple[float, ...]) -> tuple[float, ...]:
    """The curve's ε at ``orders`` (a subset of its own orders)."""
    if curve.orders == orders:
        return curve.epsilons
    position = {order: i for i, order in enumerate(curve.orders)}
    return tuple(curve.epsilons[position[order]] for order in orders)


def _check_curves(curves: object) -> tuple[RDPCurve, ...]:
    items = check_nonempty_items(curves, "curves", single=RDPCurve,
                                 example="[curve_1, curve_2] of RDPCurve")
    return tuple(check_curve(c, f"curves[{i}]") for i, c in enumerate(items))


def _exact_sum(weighted: Iterable[tuple[float, int]]) -> float:
    """Return ``Σ count · value`` formed exactly (``inf`` absorbs), rounded up.

    Floats are dyadic rationals ``a/2^k``: the sum is formed exactly as one integer over
    the largest ``2^k`` and rounded to nearest by Python's correctly rounded integer
    division, then nudged up one ulp if below (what ``round_up`` of the ``Fraction`` sum
    gives, without a ``gcd`` per addition).
    """
    weighted = tuple(weighted)
    if any(math.isinf(v) for v, _ in weighted):
        return math.inf
    ratios = [(float(v).as_integer_ratio(), n) for v, n in weighted]
    denominator = max((den for (_, den), _ in ratios), default=1)
    numerator = sum(num * (denominator // den) * n for (num, den), n in ratios)
    try:
        nearest = numerator / denominator
    except OverflowError:   # beyond the float range
        return round_up(Fraction(numerator, denominator))
    near_numerator, near_denominator = nearest.as_integer_ratio()
    if near_numerator * denominator >= numerator * near_denominator:
        return nearest
    return math.nextafter(nearest, math.inf)


def scale_rdp(curve: RDPCurve, count: int) -> RDPCurve:
    """RDP curve of ``count``-fold (adaptive) self-composition: ``count · ε(α)``.

    Parameters
    ----------
    curve
        The curve of one run.
    count
        Number of runs, an integer >= 1.

    Returns
    -------
    RDPCurve

    Raises
    ------
    TypeError, ValueError
        If ``curve`` is not an RDPCurve or ``count`` is not an integer >= 1.

    Notes
    -----
    Mironov 2017, Prop. 1. **Soundness**: exact product in rationals, rounded up.

    Examples
    --------
    >>> scale_rdp(RDPCurve(orders=(2.0,), epsilons=(1.0,)), 10).epsilons
    (10.0,)
    """
    curve = check_curve(curve)
    count = check_positive_int(count, "count")
    values = tuple(math.inf if math.isinf(e) else _product_up(e, count) for e in curve.epsilons)
    return RDPCurve(orders=curve.orders, epsilons=values)


def _product_up(value: float, count: int) -> float:
    """The smallest float >= ``value · count`` (exactly what ``round_up(Fraction(value) * count)``
    gives, by integer arithmetic on the nearest float product instead of rationals)."""
    product = value * count
    if math.isinf(product):
        return math.inf
    numerator, denominator = value.as_integer_ratio()
    p_numerator, p_denominator = product.as_integer_ratio()
    if p_numerator * denominator >= numerator * count * p_denominator:
        return product
    return math.nextafter(product, math.inf)

