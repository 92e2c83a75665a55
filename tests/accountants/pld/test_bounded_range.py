"""The ε-bounded-range PLD (exponential mechanism) against brute-force exact values.

References computed here in mpmath, independently of the PLD grid:

* each generalized randomized response ``RR_t`` (Dong, Durfee & Rogers, ICML 2020,
  Lemma 4.1), one fold and k folds (exact binomial sums) — every ε-BR mechanism's
  neighbouring pairs are dominated by some ``RR_t``, so the PLD must be >= all of them;
* the envelope pair's k-fold composition by quadrature (its loss is a tilted
  Irwin–Hall sum) — the PLD must be >= it and within 1% in ε.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.accountants.accountant import PrivacyAccountant
from dpverify.accountants.events import ExponentialMechanismEvent
from dpverify.accountants.pld import PrivacyLossDistribution


def rr_t_delta(epsilon: float, t: mpmath.mpf, target: float, folds: int = 1) -> mpmath.mpf:
    """Exact δ(target) of ``RR_t^{⊗folds}`` (loss (1−t)ε w.p. p_t, −tε otherwise), remove direction."""
    e = mpmath.mpf(epsilon)
    p = -mpmath.expm1(-t * e) / -mpmath.expm1(-e)
    total = mpmath.mpf(0)
    for high in range(folds + 1):
        loss = high * (1 - t) * e - (folds - high) * t * e
        if loss > target:
            weight = mpmath.binomial(folds, high) * p ** high * (1 - p) ** (folds - high)
            total += weight * -mpmath.expm1(target - loss)
    return total


def rr_envelope(epsilon: float, target: float, folds: int = 1, points: int = 200) -> mpmath.mpf:
    """max over a grid of t of the exact δ of ``RR_t^{⊗folds}`` (a lower bound on the optimum)."""
    return max(rr_t_delta(epsilon, mpmath.mpf(j) / points, target, folds) for j in range(1, points))


def envelope_composed_delta(epsilon: float, target: float, folds: int) -> mpmath.mpf:
    """Exact δ(target) of the envelope pair composed ``folds`` times (quadrature).

    With ``L_i = −ε + 2εU_i`` the sum ``S = ε(2X − k)`` has density
    ``(ε/(1 − e^{−ε}))^k e^{ε(x − k)} IH_k(x)`` in ``x`` (IH_k: Irwin–Hall density).
    """
    e, k = mpmath.mpf(epsilon), folds

    def irwin_hall(x):
        return mpmath.fsum((-1) ** j * mpmath.binomial(k, j) * (x - j) ** (k - 1)
                           for j in range(int(mpmath.floor(x)) + 1)) / mpmath.factorial(k - 1)

    def integrand(x):
        loss = e * (2 * x - k)
        if loss <= target:
            return mpmath.mpf(0)
        density = (e / -mpmath.expm1(-e)) ** k * mpmath.exp(e * (x - k)) * irwin_hall(x)
        return density * -mpmath.expm1(target - loss)

    start = max(mpmath.mpf(0), (target / e + k) / 2)
    points = [start] + [mpmath.mpf(j) for j in range(int(mpmath.ceil(start)), k + 1) if j > start]
    if points[-1] < k:
        points.append(mpmath.mpf(k))
    return mpmath.quad(integrand, points) if len(points) > 1 else mpmath.mpf(0)


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(st.floats(0.05, 8.0), st.floats(0.0, 1.0))
def test_one_fold_dominates_every_rr_t_and_equals_the_closed_form(epsilon, fraction):
    target = fraction * epsilon
    pld = PrivacyLossDistribution.from_bounded_range(epsilon)
    ours = pld.delta_for_epsilon(target)
    assert ours >= rr_envelope(epsilon, target, points=120)
    closed = (1 - mpmath.exp((target - epsilon) / 2)) ** 2 / -mpmath.expm1(-epsilon)
    on_grid = math.floor(fraction * 128) * epsilon / 128      # the grid point below (h = ε/128)
    below = (1 - mpmath.exp((on_grid - epsilon) / 2)) ** 2 / -mpmath.expm1(-epsilon)
    assert closed <= ours <= pld.delta_for_epsilon(on_grid) <= below * (1 + 1e-9) + 1e-14


def test_delta_at_zero_is_tanh_quarter_epsilon():
    # max_t p_t(1 − e^{tε − ε}) at e^{tε} = e^{ε/2}: (1 − e^{−ε/2})²/(1 − e^{−ε}) = tanh(ε/4)
    for epsilon in (0.1, 1.0, 3.0):
        ours = PrivacyLossDistribution.from_bounded_range(epsilon).delta_for_epsilon(0.0)
        assert math.tanh(epsilon / 4) <= ours <= math.tanh(epsilon / 4) * (1 + 1e-9)


@pytest.mark.slow
@pytest.mark.parametrize("epsilon, folds", [(0.5, 2), (1.0, 3), (0.3, 6), (2.0, 4)])
def test_composition_dominates_nonadaptive_optimum_and_matches_exact_envelope(epsilon, folds):
    composed = PrivacyLossDistribution.from_bounded_range(epsilon).self_compose(folds)
    for target in (0.0, 0.25 * folds * epsilon, 0.5 * folds * epsilon):
        ours = composed.delta_for_epsilon(target)
        exact = envelope_composed_delta(epsilon, target, folds)
        assert ours >= exact >= rr_envelope(epsilon, target, folds, points=100)
        assert ours <= exact * (1 + 1e-3) + 1e-12
    delta = float(envelope_composed_delta(epsilon, 0.3 * folds * epsilon, folds))
    ours_epsilon = composed.epsilon_for_delta(delta)
    assert 0.3 * folds * epsilon * (1 - 1e-9) <= ours_epsilon <= 0.3 * folds * epsilon * 1.01


def test_tighter_than_pure_dp_and_sound_against_the_zcdp_route():
    for epsilon, folds in ((0.1, 100), (1.0, 10)):
        br = PrivacyLossDistribution.from_bounded_range(epsilon).self_compose(folds)
        pure = PrivacyLossDistribution.from_approx_dp(epsilon, 0.0).self_compose(folds)
        assert br.epsilon_for_delta(1e-6) < pure.epsilon_for_delta(1e-6)
        # ε²/8-zCDP is implied by ε-BR: both are upper bounds; neither may beat the exact envelope
        exact = envelope_composed_delta(epsilon, br.epsilon_for_delta(1e-6), folds) if folds <= 10 else None
        if exact is not None:
            assert exact <= 1e-6 * (1 + 1e-9)


def test_accountant_composes_the_exponential_mechanism_by_its_bounded_range_pld():
    accountant = PrivacyAccountant("pld").compose(ExponentialMechanismEvent(0.5), 40)
    direct = PrivacyLossDistribution.from_bounded_range(0.5).self_compose(40)
    assert accountant.get_epsilon(1e-6) == direct.epsilon_for_delta(1e-6)
    pure = PrivacyLossDistribution.from_approx_dp(0.5, 0.0).self_compose(40)
    assert accountant.get_epsilon(1e-6) < pure.epsilon_for_delta(1e-6)
    # Composing the envelope pair (the least pair dominating every RR_t) is loose after many
    # folds: its KL is ≈ ε²/6, while every ε-BR mechanism is ε²/8-zCDP; so zCDP wins at k = 40
    # and the report shows both
    report = accountant.report(1e-6)
    assert report["zcdp"] < report["pld"] < pure.epsilon_for_delta(1e-6)
    few = PrivacyAccountant("pld").compose(ExponentialMechanismEvent(0.5), 3).report(1e-6)
    assert few["pld"] < few["zcdp"]


@pytest.mark.parametrize("bad", [0.0, -1.0, math.nan, math.inf, 1e5])
def test_refuses_bad_epsilon(bad):
    with pytest.raises(ValueError, match="epsilon"):
        PrivacyLossDistribution.from_bounded_range(bad)


@pytest.mark.parametrize("interval", [1 / 3, Fraction(1, 3), 0.5, 1.0])
def test_a_grid_whose_points_fall_on_plus_minus_epsilon_keeps_empty_intervals_at_zero(interval):
    """At spacing 1/3 (ε = 1 on the grid) an empty interval's -inf log mass met the float
    slack's ``|log_mass|`` and became nan (hostile sweep, stop 34): δ(0.5) read 1. The
    grid stays finite and its δ(ε) bounds the finest grid's from above."""
    coarse = PrivacyLossDistribution.from_bounded_range(1.0, value_discretization_interval=interval)
    fine = PrivacyLossDistribution.from_bounded_range(1.0, value_discretization_interval=1e-3)
    for epsilon in (0.0, 0.25, 0.5):
        # both bound the exact δ from above; where the coarse grid is as exact (ε = 0 on the grid)
        # the two agree to rounding, hence the 1e-9
        assert fine.delta_for_epsilon(epsilon) * (1 - 1e-9) <= coarse.delta_for_epsilon(epsilon) < 1.0
