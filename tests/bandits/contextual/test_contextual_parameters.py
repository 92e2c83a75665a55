"""SBLB's parameter functions against the paper's equations (Garcelon et al. 2022)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.accountants.shuffle_papers import garcelon_batch_length_ok
from dpverify.bandits.contextual import parameters as P


@settings(max_examples=60, deadline=None)
@given(st.floats(0.01, 50.0), st.integers(1, 4), st.integers(1, 6))
def test_randomization_probability_and_local_epsilon_are_inverse(epsilon_0, m, d) -> None:
    p = P.randomization_probability(epsilon_0, bits=m, dimension=d)
    assert p == pytest.approx(2 / (math.exp(2 * epsilon_0 / (m * d * (d + 3))) + 1), rel=1e-12)
    back = P.local_epsilon(p, bits=m, dimension=d)
    assert back <= epsilon_0 * (1 + 1e-9)  # p rounded up: at most ε0
    assert back == pytest.approx(epsilon_0, rel=1e-9)


def test_eq8_regularizer_matches_the_formula() -> None:
    t, delta, m, p, lam = 1000, 0.01, 3, 0.7, 5.0
    root = math.sqrt(8 * t * math.log(2 * t / delta))
    expected = root / m + 2 * root / ((1 - p) * math.sqrt(m)) + lam
    assert P.regularizer(t, failure_probability=delta, bits=m, randomization_probability=p,
                         regularization=lam) == pytest.approx(expected, rel=1e-14)


def test_eq7_radius_matches_the_formula() -> None:
    t, delta, sigma, d, L, S, m, p, lam_t = 5000, 0.05, 0.5, 3, 1.5, 0.7, 2, 0.6, 40.0
    log = math.log(2 * t / delta)
    expected = (sigma * math.sqrt(8 * log) + d * math.log(3 + t * L ** 2 / lam_t)
                + S * math.sqrt(3 * lam_t)
                + d / math.sqrt(lam_t) * (2 * math.sqrt(p * (1 - p / 2) * t * m * log)
                                          + 8 * log / 3 + math.sqrt(8) / m * math.sqrt(t * log)))
    value = P.confidence_radius(t, failure_probability=delta, sigma=sigma, dimension=d,
                                context_bound=L, theta_bound=S, bits=m,
                                randomization_probability=p, regularization=lam_t)
    assert value == pytest.approx(expected, rel=1e-14)


@pytest.mark.parametrize("form", ["printed", "derived"])
@pytest.mark.parametrize("epsilon, T, d, p", [(0.5, 10**6, 1, 0.5), (1.0, 10**5, 2, 0.93),
                                              (0.1, 10**4, 3, 0.2)])
def test_batch_length_is_the_smallest_meeting_thm5(form, epsilon, T, d, p) -> None:
    delta0, m = 1e-6, 1
    length = P.batch_length(epsilon, delta0, horizon=T, bits=m, dimension=d,
                            randomization_probability=p, batch_form=form)
    assert length * p >= 14 * math.log(8 * m * T / delta0)  # condition (i)
    assert garcelon_batch_length_ok(length, epsilon, delta0, horizon=T, bits=m, dimension=d, randomization_probability=p,
                                    variant=form)
    assert not garcelon_batch_length_ok(length - 1, epsilon, delta0, horizon=T, bits=m, dimension=d,
                                        randomization_probability=p, variant=form)


def test_printed_form_is_weaker_than_derived() -> None:
    """The printed 1 − 2p of Thm 5's Eq. (3) is below the derived 2 − 2p: shorter batches."""
    for p in (0.3, 0.6, 0.9):
        printed = P.batch_length(0.5, 1e-6, horizon=10**6, bits=1, dimension=2,
                                   randomization_probability=p, batch_form="printed")
        derived = P.batch_length(0.5, 1e-6, horizon=10**6, bits=1, dimension=2,
                                   randomization_probability=p, batch_form="derived")
        assert printed < derived


def test_cor8_parameters() -> None:
    T, d, epsilon = 10**6, 5, 0.001
    q = P.sblb_parameters(epsilon, 1e-6, T, d, "cor8")
    assert (q.bits, q.eta, q.regularization, q.shuffle_delta) == (1, 0.5, 1000.0, 1e-6)
    assert q.randomization_probability == pytest.approx(1 - epsilon ** (2 / 3) * T ** (1 / 6), rel=1e-9)
    assert q.local_epsilon == pytest.approx(d * (d + 3) / 2 * math.log(2 / q.randomization_probability - 1), rel=1e-9)
    assert q.local_epsilon <= 6 * d ** 2 * epsilon ** (2 / 3) * T ** (1 / 6)  # Cor. 8's LDP claim
    assert q.batch_length == P.batch_length(epsilon, 1e-6, horizon=T, bits=1, dimension=d,
                                             randomization_probability=q.randomization_probability)
    with pytest.raises(ValueError, match="epsilon"):
        P.sblb_parameters(0.01, 1e-6, T, d, "cor8")  # > 1/(27 T^{1/4})
    loose = P.sblb_parameters(0.01, 1e-6, T, d, "cor8", strict=False)
    assert loose.randomization_probability == pytest.approx(1 - 0.01 ** (2 / 3) * 10, rel=1e-9)
    with pytest.raises(ValueError, match="epsilon"):
        P.sblb_parameters(0.04, 1e-6, T, d, "cor8", strict=False)  # p <= 0


def test_cor7_parameters() -> None:
    q = P.sblb_parameters(0.8, 1e-5, 10**5, 2, "cor7")
    assert math.sqrt(math.exp(q.local_epsilon) - 1) == pytest.approx(0.8, rel=1e-12)
    assert q.randomization_probability == P.randomization_probability(q.local_epsilon, bits=1, dimension=2)
    assert q.shuffle_delta == q.delta == 1e-5


def test_paper_constants_need_batches_longer_than_the_horizon() -> None:
    """A finding, not a claim: Cor. 8 with Thm 5's (derived) l has l > T for every T <= 10^6."""
    for T in (10**4, 10**6):
        for d in (2, 5):
            q = P.sblb_parameters(P.cor8_epsilon_limit(T), 1e-6, T, d, "cor8")
            assert q.batch_length > T


@pytest.mark.parametrize("epsilon, T, d, epsilon_0", [(1.0, 10**10, 1, 0.5), (1.0, 10**12, 2, 1.0)])
def test_thm5_derived_length_meets_the_target_by_the_accountants(epsilon, T, d, epsilon_0) -> None:
    """Audit Thm 5 with Prop. 13 + advanced composition over ⌈T/l⌉ batches (not Eq. (3)'s claim).

    Where the derived l is below T (huge T), the accountants confirm ε_total <= ε; at the
    printed form's l the composed ε is astronomically large.
    """
    from dpverify.accountants.shuffle_papers import garcelon_total_guarantee

    p = P.randomization_probability(epsilon_0, bits=1, dimension=d)
    derived = P.batch_length(epsilon, 1e-6, horizon=T, bits=1, dimension=d, randomization_probability=p)
    assert derived < T
    total = garcelon_total_guarantee(derived, T, p, bits=1, dimension=d, delta=1e-6, delta_slack=1e-6)
    assert total.epsilon <= epsilon
    printed = P.batch_length(epsilon, 1e-6, horizon=T, bits=1, dimension=d, randomization_probability=p,
                               batch_form="printed")
    assert garcelon_total_guarantee(printed, T, p, bits=1, dimension=d, delta=1e-6,
                                    delta_slack=1e-6).epsilon > 1e6 * epsilon
