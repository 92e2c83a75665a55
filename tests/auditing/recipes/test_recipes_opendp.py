"""OpenDP's measurements audited through their recipes (the real library).

OpenDP cannot be seeded (it draws from the operating system), so each audit
here is a fresh random experiment: one audit per recipe at a deliberately
false claim, at confidence 0.999, which must refute it while its certified
bound stays at or below OpenDP's own claim (``measurement.map(1)``). A correct
measurement fails one of these tests with probability at most 0.001 (the
audit's false-alarm probability at the true claim). The false claims sit
where the measured bounds clear them with margin: at 6·10^3 samples, six fresh audits
each gave 0.82–0.94 of the claim for the Laplaces and randomized response, 0.70–0.73
for report-noisy-max and 1.37–1.75 of 4.73 for σ = 1's Gaussian at δ = 1e-5, against
the required 0.6, 0.35 and 0.17 of the claim (at 2·10^3 samples the float Laplace
reached only 0.595–0.60 in 2 of 30 audits, below its 0.6).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

pytest.importorskip("opendp")

from dpverify.auditing.recipes import opendp as recipes  # noqa: E402
from dpverify.guarantees import ApproxDP, PureDP  # noqa: E402

pytestmark = pytest.mark.peer_mechanisms

#: OpenDP calls cost about 0.5 ms: the audits run them on two local workers (kept for the session).
JOBS = 2

CASES = [
    ("laplace float", lambda: recipes.laplace(1.0, n_jobs=JOBS), 0.5, 0.6),
    ("laplace int", lambda: recipes.laplace(1.0, integers=True, n_jobs=JOBS), 0.5, 0.6),
    ("gaussian float", lambda: recipes.gaussian(1.0, 1e-5, n_jobs=JOBS), 0.8, 0.8 / 4.73),
    ("gaussian int", lambda: recipes.gaussian(1.0, 1e-5, integers=True, n_jobs=JOBS), 0.8,
     0.8 / 4.73),
    ("report noisy max", lambda: recipes.report_noisy_max(1.0, n_jobs=JOBS), 0.3, 0.35),
    ("randomized response", lambda: recipes.randomized_response(1.0, n_jobs=JOBS), 0.5, 0.6),
]


@pytest.mark.parametrize("make, false_epsilon, tight", [case[1:] for case in CASES],
                         ids=[case[0] for case in CASES])
def test_measurement_refutes_a_false_claim_without_false_alarm(make, false_epsilon, tight) -> None:
    recipe = make()
    claimed = recipe.guarantee.epsilon
    report = recipe.audit(epsilon=false_epsilon, samples=6_000, seed=1, confidence=0.999)
    assert not report.reproducible
    assert report.violation and report.epsilon_lower_bound <= claimed, report.epsilon_lower_bound
    assert report.epsilon_lower_bound >= tight * claimed, report.epsilon_lower_bound


def test_claims_are_opendps_own_maps() -> None:
    assert recipes.laplace(2.0).guarantee == PureDP(0.5)
    assert math.isclose(recipes.randomized_response(1.0).guarantee.epsilon, 1.0, rel_tol=1e-12)
    gaussian = recipes.gaussian(1.0, 1e-5).guarantee
    assert isinstance(gaussian, ApproxDP) and gaussian.delta == 1e-5
    assert 4.5 < gaussian.epsilon < 5.0  # ρ = 1/2 as (ε, 1e-5): 4.73 by OpenDP's conversion


@pytest.mark.slow
def test_the_float_attack_finds_nothing_on_opendps_float_laplace() -> None:
    """OpenDP samples exactly and rounds, with the rounding in its map: no float artefact to certify.

    False-failure probability at most 0.001 (a false alarm at the claim).
    """
    recipe = recipes.laplace(1.0, n_jobs=JOBS)
    report = recipe.audit(samples=4_000, seed=1, events="float", confidence=0.999)
    assert not report.violation


@pytest.mark.parametrize("make, integers", [(recipes.laplace, False), (recipes.laplace, True),
                                             (recipes.gaussian, False), (recipes.gaussian, True)],
                         ids=["laplace float", "laplace int", "gaussian float", "gaussian int"])
def test_release_many_has_the_law_of_one_call_per_release(make, integers) -> None:
    """The vector measurement's coordinates against the scalar measurement's calls (two-sample KS).

    OpenDP is unseedable, so each run is a fresh experiment: the test fails a
    correct ``release_many`` with probability at most 0.002 (two KS tests at
    level 0.001; for integers the test is conservative). 3000 draws a side detect a
    scale off by 10 % (KS power above 0.99 for the Laplace).
    """
    stats = pytest.importorskip("scipy.stats")
    call = make(1.0, integers=integers).sampler.function
    data = 3 if integers else 3.0
    one_by_one = np.array([call(data) for _ in range(3000)])
    at_once = np.asarray(call.release_many(data, None, 3000))
    assert at_once.shape == (3000,) and at_once.dtype == one_by_one.dtype
    assert stats.ks_2samp(one_by_one, at_once).pvalue > 1e-3
    # and the sampler takes that path: the same law through sampler_from_calls
    sampled = make(1.0, integers=integers).sampler(data, 3000, np.random.default_rng(0))
    assert stats.ks_2samp(one_by_one, sampled).pvalue > 1e-3


def test_no_release_many_where_opendp_has_no_vector_form() -> None:
    assert not hasattr(recipes.report_noisy_max(1.0).sampler.function, "release_many")
    assert not hasattr(recipes.randomized_response(1.0).sampler.function, "release_many")


def test_unseedable_outputs_differ_for_one_rng() -> None:
    recipe = recipes.randomized_response(1.0)
    first = recipe.sampler(0, 200, np.random.default_rng(0))
    second = recipe.sampler(0, 200, np.random.default_rng(0))
    assert set(np.unique(first)) <= {0, 1}
    assert not np.array_equal(first, second)  # unseedable: probability 2^-200-ish of equality


@pytest.mark.parametrize("make, arguments, name", [
    (recipes.laplace, {"scale": 0.0}, "scale"),
    (recipes.laplace, {"integers": "yes"}, "integers"),
    (recipes.gaussian, {"sigma": -1.0}, "sigma"),
    (recipes.gaussian, {"delta": 0.0}, "delta"),
    (recipes.report_noisy_max, {"categories": 1}, "categories"),
    (recipes.randomized_response, {"epsilon": 0.0}, "epsilon"),
])
def test_bad_arguments_are_refused_by_name(make, arguments, name) -> None:
    with pytest.raises(ValueError, match=name):
        make(**arguments)
