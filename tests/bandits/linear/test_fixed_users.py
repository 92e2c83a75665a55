"""DPE-FixedU's U from the public factory: equal communication by default (Li, Zhou & Ji 2022, §7)."""

from __future__ import annotations

import pytest

from dpverify.bandits import plan_deployment
from dpverify.bandits.linear import (
    FIXED_USERS_RULES,
    fixed_users,
    fixed_users_for_equal_communication,
    make_linear_algorithm,
)
from dpverify.bandits.linear.environments import LinearInstanceFamily
from dpverify.bandits.linear.fixed_users import equal_communication_users, mean_communication

HORIZON, DIMENSION, ACTIONS = 2 * 10 ** 4, 5, 50


@pytest.mark.slow
def test_factory_default_sends_what_dpe_sends() -> None:
    """The default U is the calibrated one: its simulated communication is within 5% of
    DPE's on the same seeded runs, while the nominal rule's U overshoots by more than 20%
    (U = 31 against 39; C = 1,498 and 1,924 reals against DPE's 1,507)."""
    family = LinearInstanceFamily("dpdpe", dimension=DIMENSION, n_arms=ACTIONS)
    calibrated = make_linear_algorithm("dpe-fixedu", horizon=HORIZON, dimension=DIMENSION,
                                       n_arms=ACTIONS, calibration_runs=3)
    nominal = make_linear_algorithm("dpe-fixedu", horizon=HORIZON, dimension=DIMENSION,
                                    n_arms=ACTIONS, users="nominal")
    assert calibrated.users == equal_communication_users(HORIZON, family, (0,), 3)
    assert nominal.users == fixed_users_for_equal_communication(HORIZON, DIMENSION, 0.8)
    assert "equal communication" in calibrated.name and "nominal" in nominal.name
    dpe = mean_communication((), family, HORIZON, [0], 3)
    assert abs(mean_communication((("users", calibrated.users),), family, HORIZON, [0], 3)
               - dpe) <= 0.05 * dpe
    assert mean_communication((("users", nominal.users),), family, HORIZON, [0], 3) > 1.2 * dpe


@pytest.mark.slow
def test_explicit_users_and_the_plan_path() -> None:
    assert make_linear_algorithm("dpe-fixedu", users=17).users == 17
    plan = plan_deployment("dpe-fixedu", horizon=HORIZON, dimension=DIMENSION, n_arms=ACTIONS,
                           calibration_runs=3)
    assert plan.parameters["fixed_users_U"] == fixed_users(
        HORIZON, dimension=DIMENSION, n_arms=ACTIONS, runs=3)
    assert "equal communication" in plan.algorithm


def test_bad_choices_are_refused_naming_the_parameter() -> None:
    assert FIXED_USERS_RULES == ("equal-communication", "nominal")
    with pytest.raises(ValueError, match="users"):
        make_linear_algorithm("dpe-fixedu", horizon=HORIZON, users="more")
    with pytest.raises(ValueError, match="horizon"):
        make_linear_algorithm("dpe-fixedu")
    with pytest.raises(ValueError, match="runs"):
        fixed_users(HORIZON, runs=0)
    with pytest.raises(ValueError, match="seed"):
        fixed_users(HORIZON, seed=-1)
    with pytest.raises(ValueError, match="client_sampling_exponent"):
        fixed_users(HORIZON, client_sampling_exponent=2.0)


def test_calibration_beyond_its_work_limit_is_refused_before_any_simulation() -> None:
    """Issue 28: ``plan dpe-fixedu --dimension 1000`` ran 12 × 20 simulations whose designs
    cost d³ each (a hang); the estimate now refuses it at once, naming ``dimension`` with the
    largest dimension these sizes allow, and that dimension itself is accepted by the check."""
    from dpverify.bandits.linear.fixed_users import MAX_CALIBRATION_WORK, calibration_work

    assert calibration_work(1000, 1000, 100, 20) > MAX_CALIBRATION_WORK
    with pytest.raises(ValueError, match=r"dimension=1000 must be at most (\d+)") as refused:
        fixed_users(1000, dimension=1000, n_arms=100, runs=20)
    largest = int(refused.value.args[0].split("at most ")[1].split()[0])
    assert calibration_work(1000, largest, 100, 20) <= MAX_CALIBRATION_WORK
    assert calibration_work(1000, largest + 1, 100, 20) > MAX_CALIBRATION_WORK
    with pytest.raises(ValueError, match="dimension=100 must be at most"):  # k = 1000 actions
        make_linear_algorithm("dpe-fixedu", horizon=1000, dimension=100, n_arms=1000)
    with pytest.raises(ValueError, match="dimension=5 must be at most 3"):  # 10^6 actions
        plan_deployment("dpe-fixedu", horizon=1000, dimension=5, n_arms=10 ** 6)
    # the nominal rule and an explicit U simulate nothing: no limit
    assert make_linear_algorithm("dpe-fixedu", horizon=1000, dimension=1000,
                                 users="nominal").users >= 1


def test_cli_plan_names_dimension_and_its_limit(capsys) -> None:
    from dpverify.cli import main

    with pytest.raises(SystemExit) as exited:
        main(["plan", "dpe-fixedu", "--horizon", "1000", "--dimension", "1_000"])
    assert exited.value.code == 2
    assert "--dimension 1000 must be at most" in capsys.readouterr().err
