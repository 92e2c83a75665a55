"""compose_rdp's exact order-wise sum (integers over a power of two) against the rational sum."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify._numeric import round_up
from dpverify.accountants.rdp import compose_rdp
from dpverify.accountants.rdp._composition import _exact_sum
from dpverify.guarantees import RDPCurve

_FLOATS = st.floats(min_value=0, max_value=1e308, allow_nan=False, allow_infinity=False) | st.sampled_from(
    [0.0, 5e-324, 2.2250738585072014e-308, 1e-300, 0.1, 1.0, 1e300, 1.7976931348623157e308]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_FLOATS, st.integers(1, 10**6)), min_size=1, max_size=8))
def test_exact_sum_is_the_rounded_up_rational_sum(weighted):
    """The smallest float >= Σ count·value, exactly what round_up of the Fraction sum gives."""
    assert _exact_sum(weighted) == round_up(sum((Fraction(v) * n for v, n in weighted), Fraction(0)))


def test_exact_sum_rounds_up_where_float_addition_rounds_to_nearest():
    values = [(0.1, 1), (0.2, 1)]  # 0.1 + 0.2: the nearest float is above the exact sum
    assert _exact_sum(values) >= Fraction(0.1) + Fraction(0.2)
    assert _exact_sum([(1.0, 1), (2.0**-60, 1)]) == 1.0 + 2.0**-52  # rounds up, not to 1.0


def test_compose_rdp_on_curves_with_different_orders_sums_the_shared_ones():
    a = RDPCurve(orders=(2.0, 3.0, 4.0), epsilons=(0.1, 0.2, 0.3))
    b = RDPCurve(orders=(2.0, 4.0), epsilons=(2.0, 1.0))
    composed = compose_rdp([a, b, a])
    assert composed.orders == (2.0, 4.0)
    assert composed.epsilons == (round_up(Fraction(0.1) * 2 + 2), round_up(Fraction(0.3) * 2 + 1))
