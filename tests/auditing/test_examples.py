"""The catalogue at 10^6 samples per side: every violation flagged, no correct mechanism flagged.

Detectable margin (stated in docs/proofs/auditing.md and docs/guide/auditing.md): at 10^6
samples per side (2/3 certify), confidence 0.999 and at most 12 Bonferroni
bounds, a violation is flagged whenever some event S with P[M(x) ∈ S] and
P[M(x') ∈ S] both >= 0.01 has ln((P[M(x) ∈ S] − δ)/P[M(x') ∈ S]) >= ε_claim + 0.1:
each Clopper–Pearson bound then costs at most z·sqrt(1/(n p)) ≈ 0.045 in log
scale (z = 3.7), and the search's choice of event costs the rest. Every buggy
catalogue entry exceeds its claim by at least 0.8 on such events.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from dpverify.auditing import audit
from dpverify.auditing.exact import exact_epsilon
from dpverify.auditing.examples import CATALOGUE, example
from dpverify.mechanisms.continuous import gaussian_privacy_profile
from dpverify.mechanisms.encoding import LocalPrivatizer
from dpverify.mechanisms.randomized_response import RandomizedResponse

#: Confidence of the catalogue audits: each audit errs (a false flag, or a bound above the
#: true ε) with probability <= 1e-3, so this module's 16 + 3 + 24 audits fail with
#: probability <= 4.3% for a random seed; the seeds are fixed.
CONFIDENCE = 0.999
SAMPLES = 1_000_000


def test_catalogue_covers_the_issue() -> None:
    names = set(CATALOGUE)
    assert len(names) >= 12
    assert {"laplace", "gaussian", "randomized_response", "noisy_max_exponential",
            "shuffled_binary_rr"} <= {n for n, m in CATALOGUE.items() if m.correct}
    assert {"laplace_half_scale", "noisy_max_value", "svt_no_query_noise", "svt_no_cutoff",
            "histogram_wrong_sensitivity", "rr_wrong_p", "mldp_budget_over_d",
            "polya_inverted_scale"} <= {n for n, m in CATALOGUE.items() if not m.correct}
    for mechanism in CATALOGUE.values():
        claim_holds = mechanism.true_epsilon <= mechanism.epsilon * (1 + 1e-12)  # exact ε is rounded up
        assert claim_holds == mechanism.correct, mechanism.name


@pytest.mark.slow
@pytest.mark.parametrize("name", list(CATALOGUE))
def test_million_sample_audit_flags_exactly_the_buggy_ones(name: str) -> None:
    """Plain-mode bugs are flagged; the others need their mode (tests/auditing/test_modes.py)."""
    mechanism = CATALOGUE[name]
    report = audit(mechanism.sampler, mechanism.x, mechanism.x_prime, epsilon=mechanism.epsilon,
                   delta=mechanism.delta, samples=SAMPLES, confidence=CONFIDENCE,
                   seed=sum(map(ord, name)))
    if mechanism.mode == "plain":
        assert report.violation == (not mechanism.correct), str(report)
    assert report.epsilon_lower_bound <= mechanism.true_epsilon, str(report)
    if not mechanism.correct and mechanism.mode == "plain":
        assert report.epsilon_lower_bound >= mechanism.epsilon + 0.4


@pytest.mark.parametrize("sampler, x, x_prime", [
    (lambda d, n, rng: d + rng.laplace(0.0, 1 / 1.1, n), 0.0, 1.0),
    (lambda d, n, rng: RandomizedResponse(4, 1.1).simulate(d, rng=rng, size=n), 0, 1),
    (lambda d, n, rng: RandomizedResponse(2, 1.1).simulate(d, rng=rng, size=n), 1, 0),
], ids=["laplace", "4-ary RR", "binary RR"])
@pytest.mark.slow
def test_the_stated_margin_is_detected(sampler, x, x_prime) -> None:
    """True ε = claim + 0.1 on events of probability >= 0.01: flagged at 10^6 samples."""
    report = audit(sampler, x, x_prime, epsilon=1.0, samples=SAMPLES, confidence=CONFIDENCE,
                   seed=99)
    assert report.violation and report.epsilon_lower_bound <= 1.1


@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n, m in CATALOGUE.items() if m.exact_pmfs() is not None])
@pytest.mark.parametrize("samples", [10_000, 100_000])
def test_discrete_bounds_are_below_the_exact_epsilon(name: str, samples: int) -> None:
    mechanism = CATALOGUE[name]
    exact = exact_epsilon(*mechanism.exact_pmfs(), delta=mechanism.delta)
    assert exact == mechanism.true_epsilon
    for seed in (1, 2):
        report = audit(mechanism.sampler, mechanism.x, mechanism.x_prime,
                       epsilon=mechanism.epsilon, delta=mechanism.delta, samples=samples,
                       confidence=CONFIDENCE, seed=seed)
        assert report.epsilon_lower_bound <= exact


def test_true_epsilons_by_second_methods() -> None:
    assert example("rr_wrong_p").true_epsilon == pytest.approx(math.log(2 * math.e + 1), rel=1e-12)
    assert example("polya_inverted_scale").true_epsilon == pytest.approx(
        -math.log(1 - math.exp(-0.25)), rel=1e-12)
    assert example("noisy_max_exponential").true_epsilon == pytest.approx(
        math.log(2 * math.exp(0.5) - 1), rel=1e-12)
    assert example("gaussian").true_epsilon <= 1.0
    assert example("gaussian_half_sigma").true_epsilon == gaussian_privacy_profile(
        0.5 * _analytic()).epsilon_for_delta(1e-5)
    # M_LDP: the pair's loss in either order, from LocalPrivatizer's own exact method
    bug = LocalPrivatizer(dimension=1, bits=1, local_epsilon=4.0, context_bound=1.0)
    first, second = ((-0.375,), 1.0), ((1.0,), 1.0)
    loss = max(bug.privacy_loss_between(first, second), bug.privacy_loss_between(second, first))
    assert example("mldp_budget_over_d").true_epsilon == pytest.approx(float(loss), rel=1e-12)


def _analytic() -> float:
    from dpverify.accountants.calibrate import analytic_gaussian_sigma

    return analytic_gaussian_sigma(1.0, 1e-5)


def test_svt_pattern_law_by_simulation() -> None:
    """The quadrature law of the no-cutoff sparse vector matches its sampler (chi-square).

    False-failure probability 1e-4 (chi-square level).
    """
    from scipy import stats

    mechanism = example("svt_no_cutoff")
    p, _ = mechanism.exact_pmfs()
    draws = mechanism.sampler(mechanism.x, 200_000, np.random.default_rng(5))
    codes = draws @ (1 << np.arange(6))[::-1]
    observed = np.bincount(codes, minlength=64)
    expected = np.array(p) * len(draws)
    assert stats.chisquare(observed, expected).pvalue > 1e-4
    with mpmath.workdps(30):
        assert abs(sum(p) - 1) < 1e-12


@pytest.mark.parametrize(("name", "value_scale"), [("noisy_max_value_low_noise", 0.25),
                                                   ("noisy_max_with_value", 2.0)])
def test_noisy_max_with_value_true_epsilon_by_quadrature(name: str, value_scale: float) -> None:
    """The record (noisy-max index, its score + Lap(b)) for scores (0, 1) vs (1, 0), Exp(4) noise.

    A second method for the catalogue's ``ln(2e^{1/4} − 1) + 1/b``: the index law by
    30-digit quadrature of ``P[s_i + E_i > s_j + E_j] = ∫ λe^{−λe} P[E_j < e + s_i − s_j] de``,
    and the value's log density ratio ``(|v − q'_i| − |v − q_i|)/b`` maximised over a fine grid
    holding its maximisers (``v ≥ 1``): the privacy loss of the pair at its supremum, in the
    direction and at the index where both parts are largest. (Issue 26: a seed-1 audit at 10^6
    samples per side certified 4.4650 above this 4.4498; the value is right, and across 114
    seeds the audit's bound exceeded it 5 times, within its 5% allowance at confidence 0.95.)
    """
    rate = mpmath.mpf(1) / 4
    with mpmath.workdps(30):
        def index_probability(scores: tuple[int, int], index: int) -> mpmath.mpf:
            gap = scores[index] - scores[1 - index]
            return mpmath.quad(lambda e: rate * mpmath.exp(-rate * e)
                               * (1 - mpmath.exp(-rate * max(e + gap, 0))), [0, 1, mpmath.inf])

        index_loss = max(mpmath.log(index_probability((0, 1), i) / index_probability((1, 0), i))
                         for i in (0, 1))
    grid = np.linspace(-6.0, 6.0, 120_001)
    value_loss = np.max((np.abs(grid - 0.0) - np.abs(grid - 1.0)) / value_scale)
    assert example(name).true_epsilon == pytest.approx(float(index_loss) + value_loss, rel=1e-12)
