"""audit and audit_curve: false alarms, sample splitting, δ-aware bounds, curves."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from dpverify import ZCDP, ApproxDP, PureDP
from dpverify.auditing import audit, audit_curve, claimed_delta_curve
from dpverify.auditing._pipeline.engine import CHUNK_ELEMENTS
from dpverify.auditing._pipeline.safety import PROBE_ROWS
from dpverify.auditing.exact import exact_epsilon
from dpverify.errors import AuditError
from dpverify.mechanisms.continuous import gaussian_privacy_profile, laplace_privacy_profile
from dpverify.mechanisms.randomized_response import BinaryRandomizedResponse, RandomizedResponse


def laplace(scale: float):
    return lambda data, size, rng: data + rng.laplace(0.0, scale, size)


def k_rr(k: int, epsilon: float):
    mechanism = RandomizedResponse(k, epsilon)
    return lambda data, size, rng: mechanism.simulate(data, rng=rng, size=size)


def binary_rr(epsilon: float):
    mechanism = BinaryRandomizedResponse.from_epsilon(epsilon)
    return lambda data, size, rng: mechanism.simulate(data, rng=rng, size=size)


# Correct mechanisms with TIGHT claims (claim = the pair's true ε), so that an
# anti-conservative auditor would flag them about half the time.
_TIGHT = [
    ("laplace", laplace(1.0), 0.0, 1.0, 1.0),
    ("4-ary RR", k_rr(4, 1.0), 0, 1, 1.0),
    ("binary RR", binary_rr(math.log(3)), 1, 0, math.log((2 - 0.5) / 0.5)),
    ("8-ary RR", k_rr(8, 2.0), 3, 5, 2.0),
]
AUDITS = 200
RATE = 0.05
FAILURE = 1e-3
#: Smallest count c with P[Bin(200, 0.05) >= c] <= 1e-3: observing c or more false alarms
#: rejects "the violation rate is <= 5%". If the rate is <= 5% (what confidence 0.95
#: promises) this test fails with probability <= 1e-3.
CRITICAL = int(stats.binom.isf(FAILURE, AUDITS, RATE)) + 1


def _tight_audits() -> list:
    seeds = np.random.SeedSequence(2024).spawn(AUDITS)
    reports = []
    for index, seed in enumerate(seeds):
        _, sampler, x, x_prime, truth = _TIGHT[index % len(_TIGHT)]
        reports.append((audit(sampler, x, x_prime, epsilon=truth, samples=10_000,
                              confidence=0.95, seed=seed), truth))
    return reports


@pytest.mark.slow
def test_false_alarm_rate_is_at_most_five_percent() -> None:
    """≥ 200 independent audits of correct, tightly claimed mechanisms at confidence 0.95.

    One-sided binomial test of "violation rate <= 5%" at level 1e-3 (the test's
    own false-failure probability); the same test bounds how often
    epsilon_lower_bound exceeds the true ε.
    """
    assert P_CRITICAL_IS_SMALL()
    reports = _tight_audits()
    violations = sum(report.violation for report, _ in reports)
    exceed = sum(report.epsilon_lower_bound > truth for report, truth in reports)
    assert violations < CRITICAL, f"{violations} false alarms in {AUDITS} audits"
    assert exceed < CRITICAL, f"epsilon_lower_bound > true epsilon in {exceed} of {AUDITS}"
    # the audits are not vacuous: the bounds come close to the truth at 10^4 samples
    assert np.median([r.epsilon_lower_bound / t for r, t in reports]) > 0.75


def P_CRITICAL_IS_SMALL() -> bool:
    return stats.binom.sf(CRITICAL - 1, AUDITS, RATE) <= FAILURE < stats.binom.sf(
        CRITICAL - 2, AUDITS, RATE)


def test_the_binomial_test_catches_an_anti_conservative_auditor() -> None:
    """The same test fails a 'plug-in' auditor (no confidence bounds, no split): it has teeth."""
    sampler = k_rr(4, 1.0)
    seeds = np.random.SeedSequence(7).spawn(AUDITS)
    naive_violations = 0
    for seed in seeds:
        rngs = [np.random.default_rng(s) for s in seed.spawn(2)]
        first = np.bincount(sampler(0, 10_000, rngs[0]), minlength=4)
        second = np.bincount(sampler(1, 10_000, rngs[1]), minlength=4)
        plug_in = np.max(np.abs(np.log(first / second)))
        naive_violations += plug_in > 1.0
    assert naive_violations >= CRITICAL


def test_same_seed_same_report() -> None:
    one = audit(laplace(1.0), 0.0, 1.0, epsilon=1.0, samples=20_000, seed=11)
    two = audit(laplace(1.0), 0.0, 1.0, epsilon=1.0, samples=20_000, seed=11)
    other = audit(laplace(1.0), 0.0, 1.0, epsilon=1.0, samples=20_000, seed=12)
    assert (one.epsilon_lower_bound, one.p_hat, one.event.description) == (
        two.epsilon_lower_bound, two.p_hat, two.event.description)
    assert other.p_hat != one.p_hat


def test_search_and_certification_splits_are_disjoint_and_chunked() -> None:
    """The sampler sees the search draws first, then bounded chunks adding up to the rest.

    (With ``threads=False`` the contract probe makes three calls of PROBE_ROWS
    on x before the audit's own draws; their outputs are discarded.)
    """
    calls: list[tuple[float, int]] = []

    def recording(data, size, rng):
        calls.append((data, size))
        return data + rng.laplace(0.0, 1.0, size)

    report = audit(recording, 0.0, 1.0, epsilon=1.0, samples=300_000, seed=1, threads=False)
    search = report.search_samples
    assert search == 100_000 and report.certify_samples == 200_000
    x_calls = [size for data, size in calls if data == 0.0]
    assert x_calls[:3] == [PROBE_ROWS] * 3
    x_calls = x_calls[3:]
    assert sum(x_calls) == 300_000
    # search draws: 1024 then the rest; everything after is certification chunks
    assert x_calls[:2] == [1024, search - 1024]
    assert max(x_calls[2:]) <= CHUNK_ELEMENTS and sum(x_calls[2:]) == 200_000


def test_user_events_certify_every_sample_in_both_directions() -> None:
    def above(samples):
        return samples > 0.5

    report = audit(laplace(0.5), 0.0, 1.0, epsilon=1.0, samples=50_000, seed=2, events=[above])
    assert report.search_samples == 0 and report.certify_samples == 50_000
    # two candidates: two one-sided bounds each, and a conditional ratio bound (pure ε)
    assert report.bounds == 6 and report.event.family == "user"
    # {y > 1/2} has probability e^{-1}/2 vs 1/2: ratio e^1, but the reverse order wins:
    # P[M(1) > 1/2] / P[M(0) > 1/2] = (1 - e^{-1}/2)/(e^{-1}/2) = 2e - 1 -> ln = 1.49
    assert report.direction == "x', x" and 1.3 < report.epsilon_lower_bound <= math.log(
        2 * math.e - 1)


@pytest.mark.parametrize("family", ["threshold", "interval", "histogram"])
def test_scalar_families(family: str) -> None:
    report = audit(laplace(0.5), 0.0, 1.0, epsilon=1.0, samples=100_000, seed=3, events=family)
    assert report.event.family == family and report.violation
    assert report.epsilon_lower_bound <= 2.0


def test_classifier_on_vectors_and_refusal_of_scalar_families() -> None:
    def vector(data, size, rng):
        return np.asarray(data) + rng.laplace(0.0, 0.5, (size, 2))

    report = audit(vector, (0.0, 0.0), (1.0, 0.0), epsilon=1.0, samples=100_000, seed=4)
    assert report.event.family == "classifier" and report.violation
    assert report.epsilon_lower_bound <= 2.0 and report.kind == "continuous vector"
    with pytest.raises(ValueError, match="scalar outputs"):
        audit(vector, (0.0, 0.0), (1.0, 0.0), epsilon=1.0, samples=1000, seed=4,
              events="threshold")


def test_delta_aware_bound_stays_below_the_exact_epsilon_of_delta() -> None:
    """Laplace(1/2) at δ = 0.05: ε(δ) = 2 + 2 ln(0.95) exactly; the bound is below it, and close."""
    exact = laplace_privacy_profile(0.5).epsilon_for_delta(0.05)
    report = audit(laplace(0.5), 0.0, 1.0, epsilon=1.0, delta=0.05, samples=300_000, seed=5)
    assert isinstance(report.guarantee, ApproxDP) and report.violation
    assert exact - 0.1 < report.epsilon_lower_bound <= exact


def test_delta_claim_can_absorb_a_violation() -> None:
    """Laplace(1/2) is (1, δ)-DP for δ = 1 − e^{−1/2} ≈ 0.39: no (1, 0.4) violation may be flagged."""
    report = audit(laplace(0.5), 0.0, 1.0, epsilon=1.0, delta=0.4, samples=100_000, seed=6)
    assert not report.violation


@pytest.mark.parametrize("output, message", [
    (lambda size: np.zeros(size + 1), "shape"),
    (lambda size: np.array([None] * size), "expected numbers"),
    (lambda size: np.array([1j] * size), "expected numbers"),
    (lambda size: np.full(size, np.nan), "NaN"),
])
def test_bad_sampler_output_is_an_audit_error(output, message: str) -> None:
    with pytest.raises(AuditError, match=message):
        audit(lambda data, size, rng: output(size), 0, 1, epsilon=1.0, samples=1000, seed=0)


def test_boolean_outputs_are_audited_as_bits() -> None:
    def coin(data, size, rng):
        return rng.random(size) < (0.75 if data else 0.25)

    report = audit(coin, 1, 0, epsilon=0.5, samples=100_000, seed=8)
    assert report.violation and report.epsilon_lower_bound <= math.log(3)


# --------------------------------------------------------------------------- curves


def test_curve_of_a_correct_gaussian_is_not_violated_and_bounded_by_the_exact_curve() -> None:
    sigma = 2.0
    profile = gaussian_privacy_profile(sigma)
    report = audit_curve(lambda d, n, rng: d + rng.normal(0.0, sigma, n), 0.0, 1.0,
                         profile=profile, samples=200_000, seed=9)
    assert not report.violation and len(report.points) == 8
    for point in report.points:
        assert point.delta_lower_bound <= profile.delta_for_epsilon(point.epsilon)
    assert report.points[0].delta_lower_bound > 0.5 * profile.delta_for_epsilon(
        report.points[0].epsilon)


def test_curve_violation_is_found_and_most_violated_point_reported() -> None:
    claimed = gaussian_privacy_profile(1.0)
    report = audit_curve(lambda d, n, rng: d + rng.normal(0.0, 0.5, n), 0.0, 1.0,
                         profile=claimed, epsilons=[0.5, 1.0, 2.0, 3.0], samples=200_000,
                         seed=10)
    assert report.violation and report.most_violated.violation
    assert report.most_violated.excess == max(p.excess for p in report.points)
    truth = gaussian_privacy_profile(0.5)
    for point in report.points:
        assert point.delta_lower_bound <= truth.delta_for_epsilon(point.epsilon)
    assert "most violated" in str(report)


def test_claims_become_curves() -> None:
    pure = claimed_delta_curve(PureDP(1.0))
    approx = claimed_delta_curve(ApproxDP(1.0, 1e-3))
    assert pure(1.0) == 0.0 and approx(1.0) == pytest.approx(1e-3)
    assert approx(0.0) == pytest.approx(1e-3 + (1 - 1e-3) * (math.e - 1) / (math.e + 1))
    # the dominating pair's curve is exact: RR with e^eps keep-ratio has this profile
    rr = [math.e / (1 + math.e), 1 / (1 + math.e)]
    assert pure(0.3) == pytest.approx(
        max(0.0, rr[0] - math.exp(0.3) * rr[1]), rel=1e-12)
    zcdp = claimed_delta_curve(ZCDP(0.5))
    assert zcdp(4.7284) == pytest.approx(1e-5, rel=1e-3)


def test_zcdp_claim_of_a_correct_gaussian_holds() -> None:
    report = audit_curve(lambda d, n, rng: d + rng.normal(0.0, 1.0, n), 0.0, 1.0,
                         profile=ZCDP(0.5), samples=100_000, seed=12)
    assert not report.violation


def test_discrete_curve_bounds_are_below_the_exact_values() -> None:
    mechanism = RandomizedResponse(3, 1.5)
    p, q = (mechanism.law_on(0).probabilities, mechanism.law_on(1).probabilities)
    report = audit_curve(k_rr(3, 1.5), 0, 1, profile=PureDP(1.5), samples=100_000, seed=13,
                         epsilons=[0.0, 0.5, 1.0, 1.5])
    assert not report.violation
    for point in report.points:
        assert point.epsilon_lower_bound <= exact_epsilon(p, q, delta=min(point.claimed_delta,
                                                                             0.999)) + 1e-12


def test_conditional_bound_gives_pure_epsilon_audits_a_tighter_bound() -> None:
    """Pure ε: ε_lb from the ratio bound (reported as such); with δ > 0 only the two bounds."""
    report = audit(laplace(1.0), 0.0, 1.0, epsilon=1.0, samples=300_000, seed=3)
    assert report.conditional and report.ratio_lower is not None
    assert report.epsilon_lower_bound <= 1.0
    assert report.epsilon_lower_bound == pytest.approx(math.log(report.ratio_lower), abs=1e-12)
    assert report.epsilon_lower_bound > math.log(report.p_interval.lower
                                                 / report.p_prime_interval.upper)
    assert report.bounds % 3 == 0 and "conditional test" in str(report)
    approx = audit(laplace(1.0), 0.0, 1.0, epsilon=1.0, delta=1e-9, samples=300_000, seed=3)
    assert not approx.conditional and approx.ratio_lower is None and approx.bounds % 2 == 0
    assert approx.epsilon_lower_bound < report.epsilon_lower_bound
