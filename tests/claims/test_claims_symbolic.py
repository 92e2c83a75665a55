"""The sympy derivations: what they derive, and that it agrees with the library's numbers.

Each derivation's ``evaluate`` (the derived quantity, lambdified) is held
against the library's own implementation of the same quantity at random
parameters (hypothesis): garcelon's batch-length condition
(``garcelon_batch_length_ok`` and Prop. 13's per-batch ε), tenenbaum's batch
size, hanna's Eq. (10) inverse (``hanna_local_epsilons``), chowdhury's τ and
the inverted Pólya scale's ε (the exact discrete-Laplace tail and privacy map),
dpdpe's protocol variance (``VectorSummation``).
"""

from __future__ import annotations

import math

import mpmath
import pytest
import sympy as sp
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from dpverify.accountants.shuffle_papers import (
    garcelon_batch_length_ok,
    garcelon_per_batch_epsilon,
    hanna_local_epsilons,
    tenenbaum_batch_size,
)
from dpverify.bandits.privatizers import distributed_dp_parameters
from dpverify.claims import symbolic
from dpverify.errors import CalibrationError
from dpverify.mechanisms import DiscreteLaplace, privacy_map
from dpverify.mechanisms._vector_summation import VectorSummation

GARCELON = symbolic.garcelon_batch_condition()
TENENBAUM = symbolic.tenenbaum_batch_size()
HANNA = symbolic.hanna_shuffle_inverse()
CHOWDHURY = symbolic.chowdhury_protocol_constants()
POLYA = symbolic.chowdhury_inverted_polya()
DPDPE = symbolic.dpdpe_shuffle_variance()
FEW = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --------------------------------------------------------------------------- garcelon


def test_garcelon_derivation_gives_two_minus_two_p_and_differs_from_print() -> None:
    p, l, log2 = sp.symbols("p l log2", positive=True)
    expected = 2 - 2 * p + 2 * sp.sqrt(2 * p * log2 / l)
    assert sp.simplify(GARCELON.derived - expected) == 0
    assert sp.simplify(GARCELON.printed - (1 - 2 * p + 2 * sp.sqrt(2 * log2 / l))) == 0
    assert not GARCELON.agrees
    assert "simplifies to 0" in GARCELON.text()  # the smaller root solves (1 − x)/√x = A


def _garcelon_a(l: int, epsilon: float, delta0: float, T: int, d: int) -> mpmath.mpf:
    log8 = mpmath.log(8 * T / mpmath.mpf(delta0))
    root = mpmath.sqrt(2 * T * mpmath.log(2 * T / mpmath.mpf(delta0)))
    return epsilon * l / (32 * d * (d + 3) * log8 * root)


@FEW
@given(log_l=st.floats(3, 12), p=st.floats(0.05, 0.99), epsilon=st.floats(0.05, 0.99),
       log_t=st.integers(4, 14), d=st.integers(1, 4))
def test_garcelon_derived_condition_matches_the_library(log_l, p, epsilon, log_t, d) -> None:
    """sympy's margin >= 0 iff the library's derived Eq. (3) holds (where l p >= 14 log(8T/δ0))."""
    l, T, delta0 = int(10 ** log_l), 10 ** log_t, 1e-6
    assume(l * p >= 14 * math.log(8 * T / delta0) * 1.001)
    big_a = _garcelon_a(l, epsilon, delta0, T, d)
    margin = GARCELON.evaluate(l=l, p=p, A=big_a, log2=mpmath.log(2 * T / mpmath.mpf(delta0)))
    assume(abs(margin) > 1e-9)  # away from the boundary: the two evaluate at different precisions
    library = garcelon_batch_length_ok(l, epsilon, delta0, horizon=T, bits=1, dimension=d, randomization_probability=p)
    assert library == (margin >= 0)


@FEW
@given(log_l=st.floats(4, 12), p=st.floats(0.2, 0.99), epsilon=st.floats(0.05, 0.99),
       log_t=st.integers(6, 14))
def test_garcelon_derived_condition_is_prop13_composed(log_l, p, epsilon, log_t) -> None:
    """The derived condition holds iff Prop. 13's ε_c (T in the logs) <= ε√l/√(2T ln(2T/δ0))."""
    l, T, delta0 = int(10 ** log_l), 10 ** log_t, 1e-6
    assume(l * p >= 14 * math.log(8 * T / delta0) * 1.001)
    per_batch = garcelon_per_batch_epsilon(l, p, bits=1, dimension=1, delta=delta0 / T)
    needed = epsilon * math.sqrt(l) / math.sqrt(2 * T * math.log(2 * T / delta0))
    assume(abs(per_batch - needed) > 1e-9 * needed)
    margin = GARCELON.evaluate(l=l, p=p, A=_garcelon_a(l, epsilon, delta0, T, 1),
                               log2=mpmath.log(2 * T / mpmath.mpf(delta0)))
    assert (margin >= 0) == (per_batch <= needed)


def test_the_printed_condition_accepts_batches_prop13_rejects() -> None:
    """At p = 1/2, T = 1e10 the printed form's smallest l leaves Prop. 13's ε_c above what is needed."""
    from dpverify.accountants.shuffle_papers import min_shuffler_batch_length

    T, delta0, epsilon = 10 ** 10, 1e-6, 0.5
    printed = min_shuffler_batch_length(epsilon, delta0, horizon=T, bits=1, dimension=1, randomization_probability=0.5,
                                        variant="printed")
    per_batch = garcelon_per_batch_epsilon(printed, 0.5, bits=1, dimension=1, delta=delta0 / T)
    assert per_batch > epsilon * math.sqrt(printed) / math.sqrt(2 * T * math.log(2 * T / delta0))


# --------------------------------------------------------------------------- tenenbaum


def test_tenenbaum_derivation_gives_ceil_sigma_squared() -> None:
    sigma = sp.Symbol("sigma", positive=True)
    assert TENENBAUM.derived == sp.ceiling(sigma ** 2)
    assert TENENBAUM.printed == sp.ceiling(sigma)
    assert "sqrt(logT)/(2*Delta) → oo" in TENENBAUM.text()  # the printed m: no uniform constant


@FEW
@given(sigma=st.floats(0.1, 500.0))
def test_tenenbaum_batch_size_matches_the_library(sigma) -> None:
    square = sigma * sigma
    assume(abs(square - round(square)) > 1e-9 * max(square, 1))  # the library forgives 1e-12 excess
    assert TENENBAUM.evaluate(sigma=sigma) == tenenbaum_batch_size(sigma)


# --------------------------------------------------------------------------- hanna


@pytest.mark.slow
@FEW
@given(log_n=st.floats(2.5, 7.0), epsilon=st.floats(0.05, 3.0), log_delta=st.floats(-10, -3))
def test_hanna_inverse_matches_the_library(log_n, epsilon, log_delta) -> None:
    n, delta = int(10 ** log_n), 10 ** log_delta
    derived = HANNA.evaluate(epsilon=epsilon, n=n, delta=delta)
    try:
        library = hanna_local_epsilons([n], epsilon, delta)[0]
    except CalibrationError:
        assert derived is None or derived <= 0
        return
    assert derived is not None
    assert library <= derived * (1 + 1e-9) + 1e-12  # the library's ε0 passes (conservative end)
    assert library == pytest.approx(derived, rel=1e-6, abs=1e-9)


def test_hanna_validity_region_is_fmt_threshold() -> None:
    n, delta = sp.symbols("n delta", positive=True)
    assert sp.simplify(HANNA.printed - sp.log(n / (16 * sp.log(2 / delta)))) == 0


# --------------------------------------------------------------------------- chowdhury


@settings(max_examples=10, deadline=None)
@given(epsilon=st.floats(0.1, 2.0), log_n=st.floats(0.5, 3.5), log_p=st.floats(-8, -2))
def test_chowdhury_tau_is_the_exact_tail_quantile(epsilon, log_n, log_p) -> None:
    """ceil(τ_min) has tail <= p, ceil(τ_min) − 1 does not; the library's τ >= τ_min; m = ng + 2τ + 1."""
    users, p = int(10 ** log_n), 10 ** log_p
    params = distributed_dp_parameters(epsilon, users, p)
    tau_min = float(CHOWDHURY.evaluate(g=params.precision, epsilon=epsilon, p=p))
    law = DiscreteLaplace(params.precision / epsilon)

    def tail(tau: int) -> float:
        return float(law.sf(tau) + law.cdf(-tau - 1))

    least = math.ceil(tau_min - 1e-9)
    assert tail(least) <= p * (1 + 1e-9)
    if least >= 1:
        assert tail(least - 1) > p * (1 - 1e-9)
    assert params.tau >= tau_min
    assert params.modulus == users * params.precision + 2 * params.tau + 1


@settings(max_examples=15, deadline=None)
@given(g=st.integers(1, 64), epsilon=st.floats(0.05, 5.0))
def test_inverted_polya_epsilon_matches_the_privacy_map(g, epsilon) -> None:
    ratio, delivered = POLYA.evaluate(g=g, epsilon=epsilon)
    beta = math.exp(-epsilon / g)
    library = privacy_map(DiscreteLaplace(-1 / math.log1p(-beta)), sensitivity=g).epsilon
    assert float(delivered) == pytest.approx(library, rel=1e-9)
    assert float(ratio) == pytest.approx((beta / (1 - beta)) ** 3, rel=1e-9)


def test_inverted_polya_at_the_catalogue_setting() -> None:
    """n = 64, ε = 0.5, g = 4: variance 127.8 vs 0.30 (tests/mechanisms/test_samplers.py), ε 8.57."""
    ratio, delivered = POLYA.evaluate(g=4, epsilon=0.5)
    beta = math.exp(-1 / 8)
    assert 2 * beta / (1 - beta) ** 2 / float(ratio) == pytest.approx(0.30, abs=0.005)
    assert float(delivered) == pytest.approx(8.565, abs=1e-3)


# --------------------------------------------------------------------------- dpdpe


@settings(max_examples=15, deadline=None)
@given(epsilon=st.floats(0.5, 14.0), log_delta=st.floats(-8, -1), log_users=st.floats(1, 4),
       s=st.integers(1, 64))
def test_dpdpe_variance_matches_the_protocol(epsilon, log_delta, log_users, s) -> None:
    users, delta = int(10 ** log_users), 10 ** log_delta
    protocol = VectorSummation.from_privacy(epsilon, delta, users=users, dimension=s, norm_bound=1.0)
    library = ((2 / (protocol.precision * users)) ** 2 * users * protocol.trials
               * protocol.probability * (1 - protocol.probability))
    derived = float(DPDPE.evaluate(norm_bound=1.0, users=users, dimension=s, epsilon=epsilon,
                                   delta=delta, p=protocol.probability))
    # p is the float rounded up from b₀/(2b): relative 1e-15 differences only
    assert library == pytest.approx(derived, rel=1e-9)


SKELLAM = symbolic.chowdhury_skellam_rdp()


def test_chowdhury_thm2_is_the_n_equals_one_bound() -> None:
    assert SKELLAM.agrees
    assert [float(SKELLAM.evaluate(alpha=a, epsilon=1, s=10, n=1)) for a in (2, 3, 10)] == \
        pytest.approx([1.009, 1.514, 5.049])  # Thm 2's uniform bound at ε = 1, s = 10


@settings(max_examples=15, deadline=None)
@given(epsilon=st.floats(0.1, 3.0), s=st.floats(1.5, 20.0), log_n=st.floats(0, 4), alpha=st.integers(2, 20))
def test_chowdhury_skellam_rdp_matches_the_privatizer(epsilon, s, log_n, alpha) -> None:
    """The library's per-batch RDP (actual g = ⌈sε√n⌉) <= ε̂_n(α) at g = sε√n <= Thm 2's uniform bound."""
    from dpverify.bandits.privatizers import SkellamSecureAggregation

    users = int(10 ** log_n)
    curve = SkellamSecureAggregation(epsilon, scale_factor=s, failure_probability=1e-6).guarantee(users)
    library = curve.epsilon_at(alpha)
    per_n = float(SKELLAM.evaluate(alpha=alpha, epsilon=epsilon, s=s, n=users))
    uniform = float(SKELLAM.evaluate(alpha=alpha, epsilon=epsilon, s=s, n=1))
    assert library <= per_n * (1 + 1e-9) and per_n <= uniform * (1 + 1e-12)
    assert library >= alpha * epsilon ** 2 / 2 * (1 - 1e-9)  # the Gaussian-like leading term
