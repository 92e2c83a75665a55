"""DPE-FixedU's U at equal communication with DPE: calibrated on simulated communication, or the nominal rule.

Li, Zhou & Ji 2022, §7, compare DPE with DPE-FixedU "at the same total communication"
(without a rule for U). DPE sends ``C(T) = Σ_l |U_l| s_l`` reals with
``|U_l| = ⌈2^{αl}⌉`` and s_l the size of the design support actually used;
DPE-FixedU sends ``U·S(U)``, ``S(U) = Σ_l s_l(U)``. Two ways to pick U:

* ``"equal-communication"`` (the default of
  :func:`~dpverify.bandits.linear.make_linear_algorithm`):
  :func:`equal_communication_users` simulates both on the same seeded runs and
  picks the U whose mean C(T) is closest to DPE's;
* ``"nominal"``: :func:`~dpverify.bandits.linear.distributed_phased_elimination.fixed_users_for_equal_communication`,
  which assumes a constant support of ⌊h_1⌋ points; the real support is about
  25 at d = 20 and shrinks, so at T = 10^6 its U = 245 sends about 2.8x DPE's reals.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from dpverify._deprecation import renamed_parameters
from dpverify._validation import check_choice, check_int_at_least, check_positive_int, value_error
from dpverify.bandits._limits import check_horizon, check_runs
from dpverify.bandits.linear._schedules import phase_schedule
from dpverify.bandits.linear.distributed_phased_elimination import (
    DistributedPhasedElimination,
    fixed_users_for_equal_communication,
)
from dpverify.bandits.linear.environments import LinearInstanceFamily
from dpverify.bandits.simulate import simulate

__all__ = ["FIXED_USERS_RULES", "MAX_CALIBRATION_HORIZON", "MAX_CALIBRATION_RUNS",
           "MAX_CALIBRATION_WORK", "calibration_work", "mean_communication",
           "equal_communication_users", "fixed_users"]

#: How :func:`fixed_users` picks U: simulated equal communication, or the nominal rule.
FIXED_USERS_RULES = ("equal-communication", "nominal")
#: Largest horizon and run count :func:`fixed_users` calibrates on (about 12 simulations
#: of that many runs).
MAX_CALIBRATION_HORIZON = 10 ** 7
MAX_CALIBRATION_RUNS = 100
#: Largest :func:`calibration_work` (arithmetic operations of the designs) :func:`fixed_users`
#: starts: about 10 s of one core (a G-optimal design on k actions of span dimension m costs
#: about k·m³ by Frank–Wolfe, plus d³ for the span; ~2.6e-10 s per operation measured).
MAX_CALIBRATION_WORK = 5 * 10 ** 10
#: Simulations of ``runs`` runs that :func:`equal_communication_users` runs at most.
_CALIBRATION_SIMULATIONS = 12


def calibration_work(horizon: int, dimension: int, n_arms: int, runs: int,
                     client_sampling_exponent: float = 0.8) -> int:
    """An estimate, on the high side, of the design work of :func:`equal_communication_users`.

    At most 12 simulations of ``runs`` runs, each computing one G-optimal design per phase
    started before T (:func:`~dpverify.bandits.linear.distributed_phased_elimination.phase_schedule`),
    on at most ``n_arms`` actions in R^``dimension``: ``k·m³ + d³`` operations with
    m = min(k, d) (Frank–Wolfe takes about m steps of k·m² each; the span basis one d × d
    eigen-decomposition).

    >>> calibration_work(1000, 5, 100, 20)
    18180000
    """
    horizon, dimension, n_arms, runs = (check_positive_int(value, name) for value, name in (
        (horizon, "horizon"), (dimension, "dimension"), (n_arms, "n_arms"), (runs, "runs")))
    phases = len(phase_schedule(horizon, dimension, client_sampling_exponent))
    span = min(n_arms, dimension)
    return _CALIBRATION_SIMULATIONS * runs * phases * (n_arms * span ** 3 + dimension ** 3)


def _check_calibration_work(horizon: int, dimension: int, n_arms: int, runs: int,
                            alpha: float) -> None:
    """Refuse, before any simulation, a calibration beyond :data:`MAX_CALIBRATION_WORK`."""
    work = calibration_work(horizon, dimension, n_arms, runs, alpha)
    if work <= MAX_CALIBRATION_WORK:
        return
    # d = 1 always fits (k <= 10^6 actions, runs <= 100, <= 20 phases: 2.4e10), and every
    # d >= 1600 exceeds the limit (12·d³ alone does): the largest d that fits lies between
    largest = 1
    while calibration_work(horizon, largest + 1, n_arms, runs, alpha) <= MAX_CALIBRATION_WORK:
        largest += 1
    raise value_error("dimension", dimension, f"at most {largest} at these sizes: the "
                      f"equal-communication calibration of U ({runs} simulated runs of horizon "
                      f"{horizon}, {n_arms} actions) would cost about {work:.2g} operations of "
                      f"G-optimal designs, beyond the limit {MAX_CALIBRATION_WORK:.0e} (about "
                      "10 s)", "or pass an integer users or rule='nominal' (no simulation)")


def mean_communication(options: tuple[tuple[str, Any], ...], instances: Any, horizon: int,
                       seed: Any, runs: int) -> float:
    """Mean total communication C(T) of DPE (no ``users`` in ``options``) or DPE-FixedU (``("users", U)``).

    ``options``: pairs passed to :class:`~dpverify.bandits.linear.DistributedPhasedElimination`
    (``client_sampling_exponent``, ``heterogeneity``, …); ``runs`` runs seeded ``SeedSequence(seed).spawn(runs)``.
    """
    result = simulate(DistributedPhasedElimination("none", None, **dict(options)), instances,
                      horizon, runs=runs, seed=seed, checkpoints=1)
    return float(np.mean(result.communication_cost))


@functools.lru_cache(maxsize=32)
def equal_communication_users(horizon: int, instances: Any, seed: tuple[int, ...], runs: int,
                              options: tuple[tuple[str, Any], ...] = ()) -> int:
    """DPE-FixedU's U whose mean communication C(T) is closest to DPE's, on the same seeded runs.

    Both are simulated on ``runs`` runs seeded ``SeedSequence(seed).spawn(runs)``
    (:func:`mean_communication`, with the algorithm ``options`` of both).
    Starting from the nominal U
    (:func:`~dpverify.bandits.linear.distributed_phased_elimination.fixed_users_for_equal_communication`),
    ``U ← round(C_DPE / S(U))`` until it repeats (at most 8 steps; S(U) changes
    slowly with U), then the best of U − 1, U, U + 1 by ``|C(U) − C_DPE|`` is
    returned: at most 11 simulations of ``runs`` runs besides DPE's. When no
    phase reports within T (DPE sends nothing) the nominal U is returned.
    """
    target = mean_communication(options, instances, horizon, list(seed), runs)
    costs: dict[int, float] = {}

    def cost(users: int) -> float:
        if users not in costs:
            costs[users] = mean_communication((*options, ("users", users)), instances, horizon,
                                              list(seed), runs)
        return costs[users]

    users = fixed_users_for_equal_communication(horizon, getattr(instances, "d", 20),
                                                dict(options).get("client_sampling_exponent",
                                                                  0.8))
    if target == 0 or cost(users) == 0:  # no phase reports within T: every U sends nothing
        return users
    for _ in range(8):
        following = max(1, int(round(target * users / cost(users))))
        if following == users:
            break
        users = following
    candidates = [u for u in (users - 1, users, users + 1) if u >= 1]
    return min(candidates, key=lambda u: (abs(cost(u) - target), u))


@renamed_parameters(actions="n_arms")
def fixed_users(horizon: int, *, rule: str = "equal-communication", dimension: int = 20,
                n_arms: int = 1000, runs: int = 20, seed: int = 0, **options: Any) -> int:
    """DPE-FixedU's U for ``horizon`` by ``rule`` (module docstring).

    ``"equal-communication"`` calibrates on ``runs`` runs (seed ``seed``) of DP-DPE's
    random instances with ``n_arms`` actions in R^``dimension``
    (:class:`~dpverify.bandits.linear.environments.LinearInstanceFamily` ``"dpdpe"``);
    ``options`` (``client_sampling_exponent``, ``heterogeneity``, ``reward_bound``,
    ``failure_probability``)
    are the algorithm's. The work is at most 12 simulations of ``runs`` runs of
    ``horizon`` rounds, cached per process; ``horizon`` up to
    :data:`MAX_CALIBRATION_HORIZON`, ``runs`` up to :data:`MAX_CALIBRATION_RUNS`, and the
    designs' work (:func:`calibration_work`, which grows as ``dimension``³) up to
    :data:`MAX_CALIBRATION_WORK`, refused before any simulation naming the largest
    ``dimension`` these sizes allow (beyond, pass an integer U or ``rule="nominal"``).

    >>> 20 <= fixed_users(10 ** 4, dimension=5, n_arms=50, runs=2) <= 26
    True

    (22 on AMD EPYC, 23 on the machine these examples were first run on, 24 with
    OpenBLAS's Prescott kernels: least-squares estimates differ in their last bits
    between BLAS kernels, and a near-tie in an elimination then goes the other way.)
    >>> fixed_users(10 ** 4, rule="nominal", dimension=5, n_arms=50)
    25
    """
    rule = check_choice(rule, "rule", FIXED_USERS_RULES)
    horizon = check_horizon(horizon)
    runs = check_runs(runs)
    # validates the options (and their names) before any simulation
    algorithm = DistributedPhasedElimination("none", None, users=1, **options)
    if rule == "nominal":
        return fixed_users_for_equal_communication(horizon, check_positive_int(
            dimension, "dimension"), algorithm.client_sampling_exponent)
    instead = "pass an integer users or rule='nominal'"
    check_positive_int(horizon, "horizon", maximum=MAX_CALIBRATION_HORIZON, instead=instead)
    check_positive_int(runs, "runs", maximum=MAX_CALIBRATION_RUNS, instead=instead)
    family = LinearInstanceFamily("dpdpe", dimension=dimension, n_arms=n_arms)
    seed = check_int_at_least(seed, "seed", 0)
    _check_calibration_work(horizon, family.dimension, family.n_arms, runs,
                            algorithm.client_sampling_exponent)
    return equal_communication_users(horizon, family, (int(seed),), runs,
                                     tuple(sorted(options.items())))
