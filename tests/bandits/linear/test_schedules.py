"""The phase lengths of the linear phased eliminations (``bandits/linear/_schedules.py``).

One definition, read by the algorithms (which re-export it) and by their deployment plans.
"""

from __future__ import annotations

import math

import pytest

from dpverify.bandits.linear import (
    _schedules,
    distributed_phased_elimination,
    make_linear_algorithm,
    phased_elimination,
)


def test_the_algorithm_modules_re_export_the_one_definition() -> None:
    assert phased_elimination.batch_base is _schedules.batch_base
    assert phased_elimination.batch_count is _schedules.batch_count
    assert phased_elimination.nominal_batch_sizes is _schedules.nominal_batch_sizes
    assert distributed_phased_elimination.phase_schedule is _schedules.phase_schedule


@pytest.mark.parametrize("horizon", [2, 3, 100, 10 ** 5])
def test_nominal_batch_sizes_are_the_distinct_ceilings_of_q_to_the_i(horizon: int) -> None:
    base, count = _schedules.batch_base(horizon), _schedules.batch_count(horizon)
    assert count >= 1 and (horizon < 3 or math.e <= base <= math.e ** 2)
    expected = sorted({max(1, math.ceil(base ** i)) for i in range(1, count + 1)})
    assert _schedules.nominal_batch_sizes(horizon) == expected


def test_hanna_plan_has_one_record_per_batch_of_the_schedule() -> None:
    horizon = 10 ** 4
    plan = make_linear_algorithm("hanna-central", epsilon=1.0).plan(horizon=horizon, dimension=3,
                                                                    n_arms=20)
    base = _schedules.batch_base(horizon)
    assert [record["users_at_least"] for record in plan.schedule] == [
        max(1, math.ceil(base ** i)) for i in range(1, _schedules.batch_count(horizon) + 1)]


def test_dpdpe_plan_has_one_record_per_phase_of_the_schedule() -> None:
    horizon, dimension = 10 ** 5, 4
    algorithm = make_linear_algorithm("dpdpe-central", epsilon=1.0)
    plan = algorithm.plan(horizon=horizon, dimension=dimension, n_arms=30)
    phases = _schedules.phase_schedule(horizon, dimension, algorithm.client_sampling_exponent)
    assert [(r["phase"], r["plays_h"]) for r in plan.schedule] == [(l, h) for l, h, _ in phases]
    assert sum(h for _, h, _ in phases[:-1]) < horizon <= sum(h for _, h, _ in phases)
