"""Private linear bandits by phased elimination: Hanna et al. 2022 and DP-DPE (Li, Zhou & Ji 2022).

:func:`make_linear_algorithm` builds one by its CLI name:

================= ======================================================= ============================
name              algorithm                                               guarantee (true, per batch)
================= ======================================================= ============================
hanna-central     Hanna et al. Alg. 1: Laplace on each core action's sum  ε-DP (2ε in paper mode)
hanna-local       Hanna et al. Alg. 2: Laplace on each reward             ε0-LDP (2ε0 in paper mode)
hanna-shuffled    Hanna et al. Alg. 3: shuffler + ε0^{(i)} = f^{-1}(ε)    (ε, δ) by FMT amplification
hanna-nonprivate  batched phased elimination, no noise                    none
dpdpe-central     DP-DPE + central Gaussian (Thm 1)                       (ε, δ_exact) central
dpdpe-local       DP-DPE + local Gaussian (Thm 6, or Thm 2)               (ε, δ_exact) local
dpdpe-shuffle     DP-DPE + shuffled vector summation (Alg. 2)             (ε, δ)-SDP [R]
dpe               DPE (non-private)                                       none
dpe-fixedu        DPE-FixedU (fixed U, same total communication)          none
================= ======================================================= ============================

``mode="paper"`` runs the algorithms as printed, ``mode="sound"`` with the
corrected noise and widths (see the modules).

>>> make_linear_algorithm("hanna-central", epsilon=1.0, mode="sound").name
'hanna Alg. 1 central (sound)'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dpverify._deprecation import renamed_parameters
from dpverify._validation import check_choice, value_error
from dpverify.bandits.linear.distributed_phased_elimination import (
    DistributedPhasedElimination,
    DistributedPhasedEliminationPolicy,
    fixed_users_for_equal_communication,
    phase_schedule,
)
from dpverify.bandits.linear.fixed_users import FIXED_USERS_RULES, fixed_users
from dpverify.bandits.linear.phased_elimination import (
    PhasedElimination,
    PhasedEliminationPolicy,
)

__all__ = [
    "PhasedElimination",
    "PhasedEliminationPolicy",
    "DistributedPhasedElimination",
    "DistributedPhasedEliminationPolicy",
    "fixed_users_for_equal_communication",
    "fixed_users",
    "FIXED_USERS_RULES",
    "phase_schedule",
    "make_linear_algorithm",
    "LINEAR_ALGORITHM_NAMES",
    "NON_PRIVATE_LINEAR_ALGORITHMS",
]


def _hanna(model: str) -> Callable[..., Any]:
    def build(epsilon: float | None, delta: float, **options: Any) -> Any:
        return PhasedElimination(model, epsilon, delta, **options)

    return build


def _dpdpe(model: str) -> Callable[..., Any]:
    def build(epsilon: float | None, delta: float, **options: Any) -> Any:
        return DistributedPhasedElimination(model, epsilon, delta, **options)

    return build


def _fixed_users(epsilon: float | None, delta: float, *, horizon: int | None = None,
                 dimension: int = 20, n_arms: int = 1000,
                 users: int | str = "equal-communication", calibration_runs: int = 20,
                 calibration_seed: int = 0, **options: Any) -> Any:
    if isinstance(users, str):
        rule = check_choice(users, "users", FIXED_USERS_RULES)
        if horizon is None:
            raise value_error("horizon", None, "given (or an integer users) for dpe-fixedu")
        users = fixed_users(horizon, rule=rule, dimension=dimension, n_arms=n_arms,
                            runs=calibration_runs, seed=calibration_seed, **options)
        how = ("equal communication, calibrated on "
               f"{calibration_runs} simulated runs" if rule == "equal-communication"
               else "nominal rule")
        options.setdefault("name", f"DPE-FixedU (U={users}, {how})")
    return DistributedPhasedElimination("none", None, delta, users=users, **options)


_BUILDERS: dict[str, Callable[..., Any]] = {
    "hanna-central": _hanna("central"),
    "hanna-local": _hanna("local"),
    "hanna-shuffled": _hanna("shuffle"),
    "hanna-nonprivate": _hanna("none"),
    "dpdpe-central": _dpdpe("central"),
    "dpdpe-local": _dpdpe("local"),
    "dpdpe-shuffle": _dpdpe("shuffle"),
    "dpe": _dpdpe("none"),
    "dpe-fixedu": _fixed_users,
}

#: Names accepted by :func:`make_linear_algorithm` and ``dpverify simulate --algorithm``.
LINEAR_ALGORITHM_NAMES = tuple(_BUILDERS)
#: The names of :data:`LINEAR_ALGORITHM_NAMES` that add no noise (no ε needed).
NON_PRIVATE_LINEAR_ALGORITHMS = frozenset({"hanna-nonprivate", "dpe", "dpe-fixedu"})


@renamed_parameters(actions="n_arms")
def make_linear_algorithm(name: str, *, epsilon: float | None = None, delta: float | None = None,
                          **options: Any) -> Any:
    """The linear algorithm called ``name`` (module table) at (ε, δ).

    ``delta`` defaults to 1e-6 for Hanna et al. 2022 (Alg. 3's δ) and 0.25 for DP-DPE
    (Li, Zhou & Ji 2022, §7). ``options`` go to the constructor (``mode``, ``core_set``,
    ``client_sampling_exponent``, ``reward_bound``, ``local_constant``, …). ``dpe-fixedu`` takes
    ``users``: an integer U, or how to size it for ``horizon`` —
    ``"equal-communication"`` (default: U whose simulated mean communication
    equals DPE's on ``calibration_runs`` runs, seed ``calibration_seed``, of
    DP-DPE's instances with ``n_arms`` actions in R^``dimension``; as the
    dpdpe-fig2c experiment) or ``"nominal"`` (the constant-support rule, 2.8x
    DPE's communication at T = 10^6); :func:`fixed_users`. The algorithm's
    ``name`` says which.

    >>> make_linear_algorithm("dpe-fixedu", horizon=10 ** 6, users="nominal").name
    'DPE-FixedU (U=245, nominal rule)'
    >>> users = make_linear_algorithm("dpe-fixedu", horizon=10 ** 4, dimension=5, n_arms=50,
    ...                               calibration_runs=2).users
    >>> 20 <= users <= 26   # 22-24 seen: the simulated runs' eliminations follow the BLAS kernels
    True
    """
    name = check_choice(name, "name", LINEAR_ALGORITHM_NAMES)
    if name not in NON_PRIVATE_LINEAR_ALGORITHMS and epsilon is None:
        raise value_error("epsilon", None, "given for a private algorithm")
    if delta is None:
        delta = 1e-6 if name.startswith("hanna") else 0.25
    return _BUILDERS[name](epsilon, delta, **options)
