"""Regret bounds as functions: values by the printed formulas, assumptions refused, and simulations.

The statistical tests simulate at the papers' settings scaled down where the
theorems' assumptions hold, and use the rules of
:mod:`dpverify.claims._simulations`: an explicit bound (dpdpe Thms 4–6) fails a
test only if the simulated mean exceeds it by more than 4 standard errors
(false failure <= 3.2e-5 per horizon, normal approximation); an order bound's
rate fails only if the implied constant grows more than 2x by more than 4 standard
errors (the same probability). Fixed seeds.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpverify.bandits.environments import BernoulliBandit
from dpverify.bandits.linear import make_linear_algorithm
from dpverify.bandits.linear.environments import LinearInstanceFamily
from dpverify.bandits.mab import make_algorithm
from dpverify.claims import regret_bounds as rb
from dpverify.claims._simulations import explicit_verdict, rate_verdict, regret_rows


def test_dpdpe_thm4_by_hand() -> None:
    """Eq. (39) at T = 1e5, d = 2, k = 10, α = 0.8, σ = 0.1 evaluated term by term here."""
    T, d, k, alpha, sigma = 10 ** 5, 2, 10, 0.8, 0.1
    h1 = 16.0  # 4d ln ln d + 16 with ln ln 2 < 0 clipped (the algorithm's h_1)
    c1 = 1 / (2 ** 0.4 - 1)
    log_kt = math.log(1e6)
    expected = (4 * h1 + 32 * math.sqrt(2 * d * T * log_kt)
                + 16 * sigma * math.sqrt(2 * h1 * log_kt) * T ** 0.6
                + 4 * c1 * h1 * sigma * math.sqrt(2 * log_kt) + 4 * math.log(2 * T / h1))
    assert rb.dpdpe_thm4(T, dimension=d, n_arms=k, client_sampling_exponent=alpha,
                          heterogeneity=sigma) == pytest.approx(expected, rel=1e-12)


def test_private_bounds_exceed_the_nonprivate_one_and_grow_as_epsilon_shrinks() -> None:
    base = rb.dpdpe_thm4(10 ** 6, dimension=20, n_arms=1000)
    central = [rb.dpdpe_thm5(10 ** 6, dimension=20, n_arms=1000, epsilon=e, delta=0.25) for e in (10.0, 1.0)]
    local = [rb.dpdpe_thm6(10 ** 6, dimension=20, n_arms=1000, epsilon=e, delta=0.25) for e in (10.0, 1.0)]
    assert base < central[0] < central[1] and central[0] < local[0] < local[1]


def test_garcelon_thm10_cases_and_cor8_agree_at_cor8s_choice() -> None:
    """Cor. 8 is Thm 10's Eq. (10) case at η = 1/2, λ = √T, m = 1, p = 1 − ε^{2/3}T^{1/6}."""
    T, d = 10 ** 6, 2
    epsilon = 1 / (27 * T ** 0.25)
    p = 1 - epsilon ** (2 / 3) * T ** (1 / 6)
    thm10 = rb.garcelon_thm10(T, dimension=d, context_bound=1, theta_bound=1, bits=1,
                              randomization_probability=p, eta=0.5, regularization=math.sqrt(T),
                              epsilon=epsilon, delta=1e-6, shuffle_delta=1e-6)
    assert rb.garcelon_cor8(T, epsilon=epsilon, dimension=d) == pytest.approx(thm10, rel=1e-9)
    assert thm10 > 2 * T  # vacuous: above the trivial bound (the claims report says so)


def test_tenenbaum_cor32_is_thm31_at_m_sigma_squared_up_to_constants() -> None:
    gaps, T, sigma = [0.0, 0.5, 0.25], 10 ** 6, 30.0
    thm = rb.tenenbaum_thm31(gaps, T, sigma=sigma, batch_size=math.ceil(sigma ** 2), constant=1.0)
    printed = rb.tenenbaum_thm31(gaps, T, sigma=sigma, batch_size=math.ceil(sigma), constant=1.0)
    assert thm < printed  # the printed m pays σ log T/Δ per arm


@pytest.mark.parametrize("call, name", [
    (lambda: rb.dpdpe_thm4(1, dimension=2, n_arms=10), "horizon"),
    (lambda: rb.dpdpe_thm4(100, dimension=2, n_arms=10, client_sampling_exponent=1.0),
     "client_sampling_exponent"),
    (lambda: rb.dpdpe_thm5(100, dimension=2, n_arms=10, epsilon=0.0, delta=0.1), "epsilon"),
    (lambda: rb.dpdpe_thm7(100, dimension=2, n_arms=10, epsilon=1.0, delta=0.1, constant=-1.0), "constant"),
    (lambda: rb.garcelon_thm10(100, dimension=2, context_bound=1, theta_bound=1, bits=1,
                               randomization_probability=0.5, eta=0.5, regularization=1.0,
                               epsilon=1.5, delta=0.1, shuffle_delta=0.1), "epsilon"),
    (lambda: rb.garcelon_cor8(10 ** 4, epsilon=0.1, dimension=2), "epsilon"),
    (lambda: rb.hanna_thm1(100, epsilon=1.0, constant=0.0), "constant"),
    (lambda: rb.tenenbaum_thm31([0.5, -0.1], 100, sigma=1.0, batch_size=2, constant=1.0), "gaps"),
    (lambda: rb.chowdhury_lemma2([0.0, 0.5, 0.5], 2, sigma=1.0, sub_exponential_scale=1.0,
                                 constant=1.0), "horizon"),
    (lambda: rb.chowdhury_theorem("cdp-se", [0.0, 0.5], 100, epsilon=1.0, constant=1.0), "epsilon"),
    (lambda: rb.chowdhury_theorem("nope", [0.0, 0.5], 100, epsilon=0.5, constant=1.0), "variant"),
])
def test_assumptions_are_refused_with_the_parameter_named(call, name) -> None:
    with pytest.raises(ValueError, match=name):
        call()


# --------------------------------------------------------------------------- statistical


@pytest.mark.parametrize("algorithm, bound", [
    ("dpe", lambda T: rb.dpdpe_thm4(T, dimension=2, n_arms=10)),
    ("dpdpe-central", lambda T: rb.dpdpe_thm5(T, dimension=2, n_arms=10, epsilon=10.0, delta=0.25)),
    ("dpdpe-local", lambda T: rb.dpdpe_thm6(T, dimension=2, n_arms=10, epsilon=10.0, delta=0.25)),
])
@pytest.mark.slow
def test_dpdpe_explicit_bounds_cover_simulated_regret(algorithm, bound) -> None:
    """dpdpe §7's α = 0.8, σ = 0.1, β = 1/(kT), ε = 10, δ = 0.25, scaled to k = 10, d = 2."""
    epsilon = None if algorithm == "dpe" else 10.0
    rows = regret_rows(make_linear_algorithm(algorithm, epsilon=epsilon),
                       LinearInstanceFamily("dpdpe", dimension=2, n_arms=10), [10 ** 4, 10 ** 5], runs=10, seed=8,
                       bound=bound)
    assert explicit_verdict(rows)
    assert rows[-1]["bound"] < 2 * rows[-1]["horizon"] or algorithm == "dpdpe-local"  # not all vacuous


def test_explicit_rule_refutes_a_bound_below_the_regret() -> None:
    """The rule can fail: half the simulated mean as a 'bound' is refuted."""
    rows = regret_rows(make_linear_algorithm("dpe"), LinearInstanceFamily("dpdpe", dimension=2, n_arms=10), [10 ** 4],
                       runs=10, seed=8, bound=lambda T: 1.0)
    assert not explicit_verdict(rows)


@pytest.mark.parametrize("name, bound", [
    ("dist-dp-se", lambda gaps: lambda T: rb.chowdhury_theorem("dist-dp-se", gaps, T, epsilon=0.5,
                                                               constant=1.0)),
    ("sdp-ae", lambda gaps: lambda T: rb.tenenbaum_cor32(gaps, T, epsilon=0.5, delta=1e-6,
                                                         constant=1.0)),
    ("vb-sdp-ae", lambda gaps: lambda T: rb.tenenbaum_cor34(gaps, T, epsilon=0.5, delta=1e-6,
                                                            constant=1.0)),
])
@pytest.mark.slow
def test_order_bounds_rates_hold_in_simulation(name, bound) -> None:
    env = BernoulliBandit((0.9, 0.7, 0.6))
    options = {"failure_probability": 0.1, "batch_base": 4} if name == "dist-dp-se" else {}
    rows = regret_rows(make_algorithm(name, epsilon=0.5, **options), env, [10 ** 4, 10 ** 5, 10 ** 6],
                       runs=6, seed=4, bound=bound(env.gaps))
    ok, constants = rate_verdict(rows)
    assert ok and all(np.isfinite(constants))


def test_hanna_thm1_rate_holds_in_simulation() -> None:
    rows = regret_rows(make_linear_algorithm("hanna-central", epsilon=1.0, mode="sound"),
                       LinearInstanceFamily("sphere", dimension=2, n_arms=10), [10 ** 3, 10 ** 4, 10 ** 5], runs=6, seed=7,
                       bound=lambda T: rb.hanna_thm1(T, epsilon=1.0, constant=1.0, dimension=2))
    assert rate_verdict(rows)[0]


@pytest.mark.slow
def test_rate_rule_refutes_a_wrong_rate() -> None:
    """The rule can fail: SDP-AE at ε = 0.01 is still exploring (linear regret) against a log T 'bound'."""
    env = BernoulliBandit((0.25, 0.75))
    rows = regret_rows(make_algorithm("sdp-ae", epsilon=0.01, delta=1e-6), env, [10 ** 3, 10 ** 4, 10 ** 5],
                       runs=4, seed=4, bound=lambda T: math.log(T))
    assert not rate_verdict(rows)[0]


# --------------------------------------------------------------------------- properties

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=40, deadline=None)
@given(log_t=st.floats(2, 9), epsilon=st.floats(0.05, 10.0), d=st.integers(1, 30), k=st.integers(2, 10 ** 4))
def test_bounds_grow_with_t_and_shrink_with_epsilon(log_t, epsilon, d, k) -> None:
    T = int(10 ** log_t)
    for bound in (lambda T, e: rb.dpdpe_thm5(T, dimension=d, n_arms=k, epsilon=e, delta=0.25),
                  lambda T, e: rb.dpdpe_thm6(T, dimension=d, n_arms=k, epsilon=e, delta=0.25),
                  lambda T, e: rb.hanna_thm1(T, epsilon=e, constant=1.0, dimension=d),
                  lambda T, e: rb.hanna_thm3(T, epsilon=e, delta=1e-6, constant=1.0, dimension=d),
                  lambda T, e: rb.tenenbaum_cor34([0.0, 0.3, 0.1], T, epsilon=e, delta=1e-6, constant=1.0),
                  lambda T, e: rb.chowdhury_theorem("dist-rdp-se", [0.0, 0.3], T, epsilon=e, constant=1.0)):
        assert bound(2 * T, epsilon) >= bound(T, epsilon)
        assert bound(T, epsilon) >= bound(T, 2 * epsilon)
