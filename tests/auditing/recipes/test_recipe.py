"""Recipe: a sampler, a pair and a claim, audited at the claim unless told otherwise (no peer library needed)."""

from __future__ import annotations

import pytest

from dpverify.auditing.adapters import sampler_from_calls
from dpverify.auditing.recipes import Recipe
from dpverify.guarantees import ApproxDP, PureDP


def noisy_bit(data, rng):
    """Randomized response keeping the bit with probability 3/4 (exactly ln 3-DP)."""
    return data if rng.random() < 0.75 else 1 - data


def make(guarantee) -> Recipe:
    return Recipe(name="randomized response", sampler=sampler_from_calls(noisy_bit), x=0,
                  x_prime=1, guarantee=guarantee)


def test_audits_the_claim_by_default_and_another_on_request() -> None:
    """ln 3 = 1.0986: the claim 1.1 stands and the claim 0.5 falls at 2·10^4 samples (seeded).

    False-failure probability: at most 0.05 for the true claim (the audit's
    confidence); the false claim is refuted with margin (bound ≈ 1.05).
    """
    recipe = make(PureDP(1.1))
    at_claim = recipe.audit(samples=20_000, seed=3)
    assert at_claim.guarantee == PureDP(1.1) and not at_claim.violation
    refuted = recipe.audit(epsilon=0.5, samples=20_000, seed=3)
    assert refuted.guarantee == PureDP(0.5) and refuted.violation


def test_the_claimed_delta_is_kept_unless_replaced() -> None:
    recipe = make(ApproxDP(1.1, 1e-3))
    assert recipe.audit(samples=2_000, seed=1).guarantee == ApproxDP(1.1, 1e-3)
    assert recipe.audit(delta=0.0, samples=2_000, seed=1).guarantee == PureDP(1.1)


def test_records_are_frozen() -> None:
    recipe = make(PureDP(1.0))
    with pytest.raises(AttributeError):
        recipe.x = 2
    assert recipe.neighbouring == "replace-one"


def test_a_recipe_refuses_a_non_callable_sampler_and_nan_data() -> None:
    """Found by the fuzz harness: both were accepted."""
    from dpverify import PureDP
    from dpverify.auditing.adapters import sampler_from_calls
    from dpverify.auditing.recipes import Recipe

    sampler = sampler_from_calls(lambda data, rng: data + rng.random())
    good = {"name": "a release", "sampler": sampler, "x": 0.0, "x_prime": 1.0,
            "guarantee": PureDP(1.0)}
    with pytest.raises(TypeError, match="sampler"):
        Recipe(**{**good, "sampler": object()})
    with pytest.raises(ValueError, match="x_prime"):
        Recipe(**{**good, "x_prime": [float("nan")]})
    assert Recipe(**{**good, "x": "any data a sampler takes"}).x == "any data a sampler takes"
    assert Recipe(**{**good, "x": 2 ** 3000}).x == 2 ** 3000   # an int beyond floats is data too
