"""Closed-form shuffle bounds equal the papers' formulas, hand-evaluated in mpmath."""

from __future__ import annotations

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.accountants.shuffle import _closed_forms as closed

mpmath.mp.dps = 50


def _fmt(eps0, n, delta):
    e = mpmath.e ** mpmath.mpf(eps0)
    inner = 8 * mpmath.sqrt(e * mpmath.log(4 / mpmath.mpf(delta))) / mpmath.sqrt(n) + 8 * e / n
    return mpmath.log(1 + (e - 1) / (e + 1) * inner)


@pytest.mark.parametrize("eps0, n, delta", [(1.0, 10**6, 1e-6), (0.3, 5000, 1e-5),
                                            (3.0, 10**7, 1e-8)])
def test_fmt2021_equals_hanna_eq_10(eps0, n, delta) -> None:
    assert abs(closed.fmt2021_epsilon(eps0, n, delta) - _fmt(eps0, n, delta)) < 1e-45


def test_fmt2021_tight_equals_fmt_code_formula() -> None:
    eps0, n, delta = 2.0, 10**6, 1e-6
    a = 8 * mpmath.sqrt(mpmath.exp(2) * mpmath.log(4 / mpmath.mpf(delta)) / n)
    c = 8 * mpmath.exp(2) / n
    e_hat = mpmath.log(1 + a + c)
    expected = mpmath.log(1 + (1 - mpmath.exp(-2)) / (1 + mpmath.exp(-2 - e_hat)) * (a + c))
    assert abs(closed.fmt2021_tight_epsilon(eps0, n, delta) - expected) < 1e-45


def test_other_closed_forms_equal_their_formulas() -> None:
    delta = mpmath.mpf(1e-6)
    assert abs(closed.erlingsson2019_epsilon(0.25, 10**5, 1e-6)
               - 12 * mpmath.mpf(0.25) * mpmath.sqrt(mpmath.log(1 / delta) / 10**5)) < 1e-45
    spread = mpmath.exp(1) + 2
    expected = max(mpmath.sqrt(14 * mpmath.log(2 / delta) * spread / (10**5 - 1)),
                   27 * spread / (10**5 - 1))
    assert abs(closed.balle2019_epsilon(1.0, 10**5, 1e-6, 3) - expected) < 1e-45
    lam = mpmath.mpf(0.1) * 5000
    mass = lam - mpmath.sqrt(2 * lam * mpmath.log(2 / delta))
    expected = mpmath.sqrt(32 * mpmath.log(4 / delta) / mass) * (1 - mass / 5000)
    assert abs(closed.cheu2019_epsilon(0.1, 5000, 1e-6) - expected) < 1e-45


def test_cheu2019_is_above_the_exact_value() -> None:
    # n = 5000, p = 0.1, δ = 1e-6: exact 0.243 (shuffled_binary_rr_epsilon), closed form 1.046
    assert abs(closed.cheu2019_epsilon(0.1, 5000, 1e-6) - 1.046) < 5e-3


def test_fmt2021_meets_agrees_with_check_and_epsilon() -> None:
    for eps0 in (0.5, 1.0, 2.0, 4.0, 8.0):
        for target in (0.01, 0.05, 0.3):
            try:
                closed.fmt2021_check(eps0, 10**5, 1e-6)
                expected = closed.fmt2021_epsilon(eps0, 10**5, 1e-6) <= target
            except ValueError:
                expected = False
            assert closed.fmt2021_meets(eps0, 10**5, 1e-6, target) == expected


@pytest.mark.parametrize("check, args, condition", [
    (closed.fmt2021_check, (10.0, 10**4, 1e-6), "ln(users / (16 ln(2/delta)))"),
    (closed.fmt2021_tight_check, (5.0, 10**4, 1e-6), "ln(users / (16 ln(4/delta)))"),
    (closed.erlingsson2019_check, (0.6, 10**5, 1e-6), "local_epsilon < 1/2"),
    (closed.erlingsson2019_check, (0.4, 999, 1e-6), "users >= 1000"),
    (closed.erlingsson2019_check, (0.4, 10**5, 0.02), "delta < 1/100"),
    (closed.balle2019_check, (5.0, 100, 1e-6, 2), "epsilon <= 1"),
    (closed.cheu2019_check, (0.01, 1000, 1e-6), "randomization_probability * users >= 14 ln(4/delta)"),
])
def test_validity_violations_name_the_condition(check, args, condition) -> None:
    with pytest.raises(ValueError, match=condition.replace("(", r"\(").replace(")", r"\)")
                       .replace("*", r"\*")):
        check(*args)


@given(st.floats(0.01, 5.0), st.integers(10**3, 10**9), st.sampled_from([1e-4, 1e-6, 1e-10]))
@settings(max_examples=60, deadline=None)
def test_fmt2021_tight_is_never_below_the_printed_form(eps0: float, n: int, delta: float) -> None:
    """(1 + e^{−ε0})/(1 + e^{−ε0−ê}) >= 1: FMT's code's variant is the looser of the two."""
    assert closed.fmt2021_tight_epsilon(eps0, n, delta) >= closed.fmt2021_epsilon(eps0, n, delta)
