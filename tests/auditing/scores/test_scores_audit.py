"""audit_scores: designs, methods, claims, refusals, and false-alarm rates at each design."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from dpverify import ApproxDP, PureDP
from dpverify.auditing import audit_scores
from dpverify.errors import UnsupportedError


def _not_above(false_alarms: int, audits: int, confidence: float) -> bool:
    """A one-sided binomial test at level 1e-3: the rate is not significantly above 1 − confidence."""
    return stats.binom.sf(false_alarms - 1, audits, 1 - confidence) >= 1e-3


def _gaussian_tradeoff(mu: float):
    """μ-GDP's trade-off curve Φ(Φ⁻¹(1 − α) − μ) (Dong, Roth & Su 2022, Def. 2.5), lowered by 1e-12."""
    return lambda alpha: np.maximum(stats.norm.cdf(stats.norm.isf(alpha) - mu) - 1e-12, 0.0)


def _rr_scores(epsilon: float, included: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Randomized response on the inclusion bit: the score is the bit, kept w.p. e^ε/(1+e^ε)."""
    keep = rng.random(included.size) < math.exp(epsilon) / (1 + math.exp(epsilon))
    return np.where(keep, included, ~included).astype(float)


# --------------------------------------------------------------------------- behaviour
def test_a_leaky_gaussian_canary_is_flagged_in_both_designs() -> None:
    rng = np.random.default_rng(1)
    report = audit_scores(rng.normal(3, 1, 1000), rng.normal(0, 1, 1000),
                          design="independent-runs", epsilon=1.0, delta=1e-5, seed=0)
    assert report.violation and report.tpr_lower > 0 and report.fpr_upper < 1
    included = rng.random(1000) < 0.5
    scores = rng.normal(0, 1, 1000) + 3 * included
    one = audit_scores(scores[included], scores[~included], design="one-run", epsilon=1.0, seed=0)
    assert one.violation and one.guesses == one.in_guesses + one.out_guesses
    assert one.correct_guesses <= one.guesses


def test_both_tails_are_used_in_one_run() -> None:
    """Scores informative only in the low tail (excluded canaries score low): k- guesses certify."""
    rng = np.random.default_rng(2)
    included = rng.random(2000) < 0.5
    scores = np.where(included, rng.normal(0, 1, 2000), rng.normal(-4, 1, 2000) * (
        rng.random(2000) < 0.5))
    report = audit_scores(scores[included], scores[~included], design="one-run", seed=0)
    assert report.out_guesses > 0 and report.epsilon_lower_bound > 0.5


def test_same_seed_same_report() -> None:
    rng = np.random.default_rng(3)
    a, b = rng.normal(1, 1, 300), rng.normal(0, 1, 300)
    first = audit_scores(a, b, design="independent-runs", thresholds="split", seed=5)
    again = audit_scores(a, b, design="independent-runs", thresholds="split", seed=5)
    assert first.to_dict() | {"seconds": 0} == again.to_dict() | {"seconds": 0}


def test_claim_forms_agree_for_one_pair() -> None:
    rng = np.random.default_rng(4)
    a, b = rng.normal(2, 1, 500), rng.normal(0, 1, 500)
    reports = [audit_scores(a, b, design="independent-runs", seed=0, **kwargs) for kwargs in
               ({"epsilon": 1.0, "delta": 1e-3}, {"claim": (1.0, 1e-3)},
                {"claim": ApproxDP(1.0, 1e-3)})]
    assert len({(r.epsilon_lower_bound, r.violation) for r in reports}) == 1


def test_exact_gaussian_curve_catches_what_its_epsilon_delta_point_misses() -> None:
    """A 1-GDP claim read as its exact curve is refuted by 2-GDP scores; one (ε, δ) of it is weaker."""
    from dpverify.accountants.pld import PrivacyLossDistribution

    rng = np.random.default_rng(5)
    a, b = rng.normal(2, 1, 3000), rng.normal(0, 1, 3000)
    curve = audit_scores(a, b, design="independent-runs", claim=_gaussian_tradeoff(1.0), seed=0)
    assert curve.violation
    pld = PrivacyLossDistribution.from_gaussian(1.0)
    via_pld = audit_scores(a, b, design="independent-runs", claim=pld, delta=1e-3, seed=0)
    assert via_pld.violation and via_pld.claimed_epsilon == pytest.approx(
        pld.epsilon_for_delta(1e-3))


def test_accountant_claim_in_one_run() -> None:
    from dpverify.accountants import PrivacyAccountant

    accountant = PrivacyAccountant()
    for _ in range(10):
        accountant.step(noise_multiplier=4.0, sample_rate=0.5)
    rng = np.random.default_rng(6)
    included = rng.random(4000) < 0.5
    scores = rng.normal(0, 1, 4000) + 4.0 * included
    report = audit_scores(scores[included], scores[~included], design="one-run",
                          claim=accountant, delta=1e-5, seed=0)
    assert report.claimed_epsilon == pytest.approx(accountant.get_epsilon(1e-5))
    assert report.violation


@pytest.mark.parametrize(("design", "method", "reason"), [
    ("one-run", "clopper-pearson", "not independent"),
    ("one-run", "conditional-ratio", "independent scores"),
    ("independent-runs", "one-run", "fair coin"),
])
def test_methods_invalid_for_the_design_are_refused_with_the_reason(design, method, reason) -> None:
    with pytest.raises(UnsupportedError, match=reason):
        audit_scores([1.0, 2.0, 3.0], [0.0, 1.0, 2.0], design=design, method=method)


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"design": "one-runs"}, "design"),
    ({"design": "one-run", "confidence": 0.3}, "confidence"),
    ({"design": "one-run", "delta": 1.5}, "delta"),
    ({"design": "one-run", "thresholds": "band"}, "thresholds"),
    ({"design": "independent-runs", "thresholds": [0.5, math.nan]}, "thresholds"),
    ({"design": "independent-runs", "thresholds": [[0.5, 1.0]]}, "thresholds"),
    ({"design": "independent-runs", "thresholds": math.inf}, "thresholds"),
    ({"design": "independent-runs", "thresholds": []}, "thresholds"),
    ({"design": "independent-runs", "thresholds": {"t": 0.5}}, "thresholds"),
    ({"design": "independent-runs", "method": "conditional-ratio", "thresholds": [0.5, 1.5]},
     "one threshold"),
    ({"design": "independent-runs", "guess_counts": (1, 1)}, "guess_counts"),
    ({"design": "one-run", "guess_counts": (1, 1), "thresholds": 0.5}, "one way"),
    ({"design": "one-run", "guess_counts": (0, 0)}, "guess_counts"),
    ({"design": "one-run", "guess_counts": (5, 4)}, "guess_counts"),
    ({"design": "one-run", "guess_counts": (-1, 2)}, "guess_counts"),
    ({"design": "one-run", "guess_counts": (1.5, 2)}, "guess_counts"),
    ({"design": "one-run", "guess_counts": (1, 2, 3)}, "guess_counts"),
    ({"design": "one-run", "guess_counts": "k+"}, "guess_counts"),
    ({"design": "independent-runs", "thresholds": "best"}, "thresholds"),
    ({"design": "independent-runs", "epsilon": 1.0, "claim": PureDP(1.0)}, "one way"),
    ({"design": "independent-runs", "method": "conditional-ratio", "delta": 1e-5,
      "thresholds": 0.0}, "delta"),
    ({"design": "independent-runs", "method": "conditional-ratio", "thresholds": "bonferroni"},
     "bonferroni"),
    ({"design": "independent-runs", "method": "conditional-ratio", "thresholds": "band"}, "band"),
    ({"design": "independent-runs", "method": "conditional-ratio"}, "certifying scores"),
    ({"design": "independent-runs", "claim": "1-DP"}, "claim"),
])
def test_bad_input_names_the_parameter(kwargs, match) -> None:
    with pytest.raises((ValueError, TypeError, UnsupportedError), match=match):
        audit_scores([1.0, 2.0, 3.0, 4.0], [0.0, 1.0, 2.0, 3.0], **kwargs)


@pytest.mark.parametrize("bad", [[], [[1.0]], [math.nan], ["a"]])
def test_bad_scores_are_refused(bad) -> None:
    with pytest.raises((ValueError, TypeError), match="in_scores"):
        audit_scores(bad, [0.0], design="independent-runs")


def test_one_run_refuses_a_bare_tradeoff_function() -> None:
    with pytest.raises(UnsupportedError, match="trade-off function"):
        audit_scores([1.0, 2.0], [0.0, 1.0], design="one-run", claim=_gaussian_tradeoff(1.0))


@settings(max_examples=30, deadline=None)
@given(st.lists(st.floats(-5, 5), min_size=1, max_size=40),
       st.lists(st.floats(-5, 5), min_size=1, max_size=40),
       st.sampled_from(["one-run", "independent-runs"]))
def test_identical_laws_certify_little_and_bounds_are_finite_floats(a, b, design) -> None:
    report = audit_scores(a, b, design=design, seed=0)
    assert report.epsilon_lower_bound >= 0.0 and not math.isnan(report.epsilon_lower_bound)
    assert report.to_dict()["design"] == design


# --------------------------------------------------------------------------- families stated in advance
def test_independent_runs_thresholds_stated_in_advance_share_the_level_by_bonferroni() -> None:
    """L thresholds stated in advance: 2 L Clopper–Pearson bounds at α/(2 L) each, the best kept."""
    from dpverify.auditing.estimators import clopper_pearson_lower, clopper_pearson_upper
    from dpverify.auditing.scores._independent import pair_epsilon

    rng = np.random.default_rng(30)
    a, b = rng.normal(1.5, 1, 400), rng.normal(0, 1, 400)
    stated = [1.5, 0.0, 1.0]
    report = audit_scores(a, b, design="independent-runs", thresholds=stated, seed=0)
    assert (report.thresholds, report.bounds, report.method) == ("fixed", 6, "clopper-pearson")
    level = (1 - 0.95) / 6  # the failure probability as audit_scores computes it
    expected = max(pair_epsilon(float(clopper_pearson_lower(int((a >= t).sum()), 400,
                                                            failure_probability=level)),
                                float(clopper_pearson_upper(int((b >= t).sum()), 400,
                                                            failure_probability=level)), 0.0)
                   for t in stated)
    assert report.epsilon_lower_bound == expected and report.threshold in stated
    # one listed threshold is the fixed threshold (with its ratio test at delta = 0)
    single = audit_scores(a, b, design="independent-runs", thresholds=[1.0], seed=0)
    assert single.to_dict() | {"seconds": 0} == audit_scores(
        a, b, design="independent-runs", thresholds=1.0, seed=0).to_dict() | {"seconds": 0}


def test_one_run_threshold_stated_in_advance_guesses_every_canary() -> None:
    """"in when score ≥ t, out below": k+ = #scores ≥ t, k− = the rest, and at δ = 0 the bound is
    logit of the Clopper–Pearson lower bound on the accuracy at the whole level."""
    rng = np.random.default_rng(31)
    included = rng.random(1000) < 0.5
    scores = _rr_scores(2.0, included, rng)
    report = audit_scores(scores[included], scores[~included], design="one-run", thresholds=0.5,
                          seed=0)
    right = int(np.count_nonzero((scores >= 0.5) == included))
    assert (report.thresholds, report.bounds, report.method) == ("fixed", 1, "one-run")
    assert report.in_guesses == int((scores >= 0.5).sum()) and report.guesses == 1000
    assert report.correct_guesses == right
    accuracy = stats.beta.ppf(0.05, right, 1000 - right + 1)
    assert report.epsilon_lower_bound == pytest.approx(math.log(accuracy / (1 - accuracy)),
                                                       abs=1e-6)
    assert report.epsilon_lower_bound <= math.log(accuracy / (1 - accuracy))
    # two rules stated in advance: each at half the level, the better kept
    both = audit_scores(scores[included], scores[~included], design="one-run",
                        thresholds=[0.5, 2.0], seed=0)
    assert both.bounds == 2 and both.epsilon_lower_bound < report.epsilon_lower_bound


def test_one_run_guess_counts_stated_in_advance() -> None:
    rng = np.random.default_rng(32)
    included = rng.random(2000) < 0.5
    scores = rng.normal(0, 1, 2000) + 2 * included
    a, b = scores[included], scores[~included]
    one = audit_scores(a, b, design="one-run", guess_counts=(100, 100), seed=0)
    assert (one.in_guesses, one.out_guesses, one.bounds, one.thresholds) == (100, 100, 1, "fixed")
    several = audit_scores(a, b, design="one-run", guess_counts=[(100, 100), (50, 0), (0, 50)],
                           seed=0)
    assert several.bounds == 3 and several.epsilon_lower_bound > 0.5
    fdp = audit_scores(a, b, design="one-run", method="one-run-fdp", delta=1e-5,
                       guess_counts=[(100, 100), (50, 0)], seed=0)
    assert fdp.bounds == 2 and 0 < fdp.epsilon_lower_bound < one.epsilon_lower_bound + 2


# --------------------------------------------------------------------------- false alarms
AUDITS = 200


@pytest.mark.parametrize("thresholds", ["band", "bonferroni", "split", 0.5])
def test_independent_runs_gaussian_false_alarms_at_most_one_minus_confidence(thresholds) -> None:
    """200 audits of 1-GDP scores against the exact 1-GDP curve (a tight, true claim)."""
    rng = np.random.default_rng(10)
    alarms = sum(audit_scores(rng.normal(1, 1, 300), rng.normal(0, 1, 300),
                              design="independent-runs", claim=_gaussian_tradeoff(1.0),
                              thresholds=thresholds, seed=i).violation for i in range(AUDITS))
    assert _not_above(alarms, AUDITS, 0.95), alarms


def test_independent_runs_tail_weighted_band_false_alarms() -> None:
    """δ > 0 switches the band to its tail-weighted shape: 200 audits of 1-GDP scores against
    the exact 1-GDP curve, stated at δ = 1e-5."""
    rng = np.random.default_rng(17)
    alarms = sum(audit_scores(rng.normal(1, 1, 300), rng.normal(0, 1, 300),
                              design="independent-runs", claim=_gaussian_tradeoff(1.0),
                              delta=1e-5, seed=i).violation for i in range(AUDITS))
    assert _not_above(alarms, AUDITS, 0.95), alarms


@pytest.mark.parametrize("thresholds", ["band", "bonferroni", "split", 0.5, [0.25, 0.5, 0.75]])
def test_independent_runs_randomized_response_false_alarms(thresholds) -> None:
    """Randomized response scores (all tied at 0 or 1) against its exact PureDP(ε) claim."""
    rng = np.random.default_rng(11)
    epsilon, alarms = 1.0, 0
    for i in range(AUDITS):
        a = _rr_scores(epsilon, np.ones(300, dtype=bool), rng)
        b = _rr_scores(epsilon, np.zeros(300, dtype=bool), rng)
        alarms += audit_scores(a, b, design="independent-runs", epsilon=epsilon,
                               thresholds=thresholds, seed=i).violation
    assert _not_above(alarms, AUDITS, 0.95), alarms


@pytest.mark.parametrize("thresholds", ["bonferroni", "split", 0.5, [0.25, 0.5]])
def test_one_run_randomized_response_false_alarms(thresholds) -> None:
    rng = np.random.default_rng(12)
    epsilon, alarms = 1.0, 0
    for i in range(AUDITS):
        included = rng.random(500) < 0.5
        scores = _rr_scores(epsilon, included, rng) + 1e-3 * rng.random(500)
        alarms += audit_scores(scores[included], scores[~included], design="one-run",
                               epsilon=epsilon, thresholds=thresholds, seed=i).violation
    assert _not_above(alarms, AUDITS, 0.95), alarms


@pytest.mark.parametrize("thresholds", ["bonferroni", "split"])
def test_one_run_randomized_response_with_delta_false_alarms(thresholds) -> None:
    """One run, δ = 1e-4 (the small δ > 0 grid, the cell search): RR with ε = 1 is (1, δ)-DP
    for every δ, so a bound above 1 is a false alarm. With split the bounds reach past 1 in
    a few per cent of the audits (9 of these 200), so the test has something to catch."""
    rng = np.random.default_rng(15)
    alarms = 0
    for i in range(AUDITS):
        included = rng.random(2000) < 0.5
        scores = _rr_scores(1.0, included, rng) + 1e-3 * rng.random(2000)
        alarms += audit_scores(scores[included], scores[~included], design="one-run",
                               method="one-run", epsilon=1.0, delta=1e-4, thresholds=thresholds,
                               seed=i).violation
    assert _not_above(alarms, AUDITS, 0.95), alarms


def test_thresholds_auto_is_fixed_by_design_sizes_and_delta() -> None:
    rng = np.random.default_rng(16)
    included = rng.random(2000) < 0.5
    scores = rng.normal(0, 1, 2000) + 2.0 * included
    a, b = scores[included], scores[~included]
    snj = {"design": "one-run", "method": "one-run", "seed": 0}
    assert audit_scores(a, b, delta=1e-4, **snj).thresholds == "split"
    assert audit_scores(a, b, delta=1e-5, **snj).thresholds == "bonferroni"
    assert audit_scores(a, b, **snj).thresholds == "bonferroni"
    # method="auto" keeps its own choice at δ > 0: the f-DP bound on its grid
    auto = audit_scores(a, b, design="one-run", delta=1e-4, seed=0)
    assert (auto.method, auto.thresholds) == ("one-run-fdp", "bonferroni")
    assert audit_scores(a, b, design="independent-runs", delta=1e-2, seed=0).thresholds == "band"
    big = rng.normal(0, 1, 5001)
    assert audit_scores(big, big[:10], design="independent-runs").thresholds == "bonferroni"


@pytest.mark.slow
@pytest.mark.parametrize("thresholds", ["bonferroni", "split"])
def test_one_run_gaussian_with_delta_false_alarms(thresholds) -> None:
    """One-run, δ > 0: 2-GDP canaries against the exact ε(δ = 1e-3) of 2-GDP."""
    from dpverify.accountants.pld import PrivacyLossDistribution

    epsilon = PrivacyLossDistribution.from_gaussian(0.5).epsilon_for_delta(1e-3)
    rng = np.random.default_rng(13)
    alarms = 0
    for i in range(100):
        included = rng.random(400) < 0.5
        scores = rng.normal(0, 1, 400) + 2.0 * included
        alarms += audit_scores(scores[included], scores[~included], design="one-run",
                               epsilon=epsilon, delta=1e-3, thresholds=thresholds,
                               seed=i).violation
    assert _not_above(alarms, 100, 0.95), alarms


def test_the_false_alarm_test_can_fail() -> None:
    """The same test rejects an auditor that takes the best of many thresholds uncorrected."""
    from dpverify.auditing.scores._independent import _plug_in_epsilons, grid_bounds

    rng = np.random.default_rng(14)
    alarms = 0
    for _ in range(AUDITS):
        a, b = rng.normal(0, 1, 300), rng.normal(0, 1, 300)  # identical laws: ε = 0
        bounds = grid_bounds(a, b, failure_probability=0.05 * 2 * 200)  # no Bonferroni
        alarms += bool(_plug_in_epsilons(bounds.tpr_lower, bounds.fpr_upper, 0.0).max() > 0.0)
    assert not _not_above(alarms, AUDITS, 0.95)


# --------------------------------------------------------------------------- gdp-model
def test_gdp_model_is_labelled_and_refused_where_invalid() -> None:
    rng = np.random.default_rng(20)
    report = audit_scores(rng.normal(2, 1, 1000), rng.normal(0, 1, 1000),
                          design="independent-runs", method="gdp-model", delta=1e-5,
                          epsilon=5.0, seed=0)
    assert report.mode.startswith("model-based") and report.violation
    with pytest.raises(UnsupportedError, match="independent"):
        audit_scores([1.0, 2.0], [0.0, 1.0], design="one-run", method="gdp-model", delta=1e-5)
    with pytest.raises(ValueError, match="delta"):
        audit_scores([1.0, 2.0], [0.0, 1.0], design="independent-runs", method="gdp-model")


def test_gdp_epsilon_matches_the_gaussian_pld() -> None:
    from dpverify.accountants.pld import PrivacyLossDistribution
    from dpverify.auditing.scores._gdp import gdp_epsilon_lower

    for mu in (0.5, 1.0, 2.0):
        upper = PrivacyLossDistribution.from_gaussian(1.0 / mu).epsilon_for_delta(1e-5)
        assert upper - 1e-3 < gdp_epsilon_lower(mu, 1e-5) <= upper


def test_gdp_model_false_alarms_on_gaussian_scores() -> None:
    """Under its model (1-GDP scores) against the exact ε(1e-5) of 1-GDP: 200 audits."""
    from dpverify.auditing.scores._gdp import gdp_epsilon_lower

    epsilon = gdp_epsilon_lower(1.0, 1e-5) + 1e-9
    rng = np.random.default_rng(21)
    alarms = sum(audit_scores(rng.normal(1, 1, 300), rng.normal(0, 1, 300),
                              design="independent-runs", method="gdp-model", epsilon=epsilon,
                              delta=1e-5, seed=i).violation for i in range(AUDITS))
    assert _not_above(alarms, AUDITS, 0.95), alarms


@pytest.mark.parametrize("design", ["one-run", "independent-runs"])
def test_the_callers_scores_are_read_not_kept(design) -> None:
    """The audit reads float64 inputs in place (no copy) but never writes them, and the report
    keeps its own copy: changing the caller's array afterwards changes nothing in the report."""
    rng = np.random.default_rng(3)
    a, b = rng.normal(1.0, 1.0, 400), rng.normal(0.0, 1.0, 400)
    a_before, b_before = a.copy(), b.copy()
    report = audit_scores(a, b, design=design, seed=0)
    assert np.array_equal(a, a_before) and np.array_equal(b, b_before)
    a[:] = 0.0
    assert np.array_equal(report.in_scores, a_before)
