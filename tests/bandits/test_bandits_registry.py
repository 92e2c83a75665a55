"""The algorithm registry (``dpverify.bandits.registry``): 24 names in three families, δ defaults,
``make_algorithm`` refusals and sound calibration, what ``plan_deployment`` records."""

from __future__ import annotations

from collections import Counter

import pytest

from dpverify.bandits.registry import (
    ALGORITHM_FAMILIES,
    ALL_ALGORITHM_NAMES,
    NON_PRIVATE_ALGORITHMS,
    default_delta,
    make_algorithm,
    plan_deployment,
)


def test_24_names_in_three_families_and_their_default_delta() -> None:
    assert Counter(ALGORITHM_FAMILIES.values()) == {"multi-armed": 11, "linear": 9, "contextual": 4}
    assert ALL_ALGORITHM_NAMES == tuple(ALGORITHM_FAMILIES)
    assert NON_PRIVATE_ALGORITHMS < set(ALL_ALGORITHM_NAMES)
    assert {name for name in ALL_ALGORITHM_NAMES if default_delta(name) == 0.25} == {
        "dpdpe-central", "dpdpe-local", "dpdpe-shuffle"}
    assert default_delta("dist-dp-se") == 1e-6


def test_make_algorithm_validates_names_and_epsilon() -> None:
    with pytest.raises(ValueError, match="name"):
        make_algorithm("nope", epsilon=1.0)
    with pytest.raises(ValueError, match="epsilon"):
        make_algorithm("dist-dp-se")
    with pytest.raises(ValueError, match="epsilon"):
        make_algorithm("linucb", epsilon=1.0)
    with pytest.raises(ValueError, match="mode"):
        make_algorithm("dist-dp-se", epsilon=1.0, mode="fast")
    assert len(ALL_ALGORITHM_NAMES) == 24


def test_sound_mode_meets_the_requested_total_and_the_plan_records_calibration() -> None:
    plan = plan_deployment("dist-cdp-se", epsilon=2.0, horizon=4096, n_arms=3, calibration="exact")
    assert plan.mode == "sound" and plan.claim_met
    assert plan.guarantee.epsilon <= plan.requested.epsilon == 2.0
    assert plan.guarantee.delta <= plan.requested.delta == 1e-6
    assert plan.calibration == "exact" and "plan is unchanged" in plan.notes[-1]
    coincide = plan_deployment("linucb", horizon=1000, n_arms=3, dimension=2, mode="paper")
    assert coincide.mode == "paper" and coincide.notes[-1] == "sound and paper modes coincide"
