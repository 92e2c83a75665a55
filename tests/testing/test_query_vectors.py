"""neighbouring_query_vectors: neighbours under the stated norm; with target(), hypothesis finds SVT's bug."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given

import dpverify.testing.assertions  # noqa: F401  (imported before pytester's inner runs)
from dpverify.testing.strategies import neighbouring_query_vectors

pytest_plugins = ["pytester"]


@pytest.mark.slow
@given(neighbouring_query_vectors(5, sensitivity=0.5))
def test_linf_pairs_move_each_answer_by_at_most_the_sensitivity(pair) -> None:
    q, q_prime = pair
    assert q.shape == q_prime.shape == (5,)
    assert np.all(np.abs(q - q_prime) <= 0.5 + 1e-12)


@pytest.mark.slow
@given(neighbouring_query_vectors(4, sensitivity=2.0, norm="l1"))
def test_l1_pairs_move_the_answers_by_at_most_the_sensitivity_in_total(pair) -> None:
    q, q_prime = pair
    assert np.abs(q - q_prime).sum() <= 2.0 + 1e-9


@pytest.mark.parametrize("kwargs, name", [({"length": 0}, "length"),
                                          ({"length": 3, "sensitivity": -1}, "sensitivity"),
                                          ({"length": 3, "norm": "l2"}, "norm"),
                                          ({"length": 3, "min_value": 2, "max_value": 1},
                                           "max_value")])
def test_bad_arguments_fail_eagerly(kwargs, name) -> None:
    with pytest.raises(ValueError, match=name):
        neighbouring_query_vectors(**kwargs)


USER_SVT = '''
import numpy as np
from hypothesis import given, settings
from dpverify.testing import assert_satisfies
from dpverify.testing.strategies import neighbouring_query_vectors

def svt_without_cutoff(queries, size, rng):
    """A user's sparse vector that forgot the cutoff: it answers every query."""
    threshold = 0.5 + rng.laplace(0.0, 2.0, (size, 1))
    noisy = np.asarray(queries) + rng.laplace(0.0, 2.0, (size, len(queries)))
    return noisy >= threshold

@settings(max_examples=20, deadline=None, database=None)
@given(neighbouring_query_vectors(6))
def test_svt_is_1_dp(pair):
    q, q_prime = pair
    assert_satisfies(svt_without_cutoff, q, q_prime, epsilon=1.0, samples=50_000)
'''


@pytest.mark.slow
def test_a_users_svt_without_cutoff_fails_under_hypothesis(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_user_svt=USER_SVT)
    result = pytester.runpytest("-p", "no:cacheprovider", "--hypothesis-seed=0")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "*AssertionError: svt_without_cutoff is not 1.0-DP on (x, x'): certified epsilon*",
        "*Highest target score*dpverify: certified epsilon excess*",
    ])
