"""One factory for the 24 bandit algorithms of dpverify, by their CLI names, and their plans.

* multi-armed (11): se, ae, sdp-ae, vb-sdp-ae, dist-dp-se, dist-rdp-se, dist-cdp-se,
  shuffle-dp-se, cdp-se, ldp-se, dp-se (:mod:`dpverify.bandits.mab`);
* linear (9): hanna-central, hanna-local, hanna-shuffled, hanna-nonprivate, dpdpe-central,
  dpdpe-local, dpdpe-shuffle, dpe, dpe-fixedu (:mod:`dpverify.bandits.linear`);
* contextual (4): sblb, sblb-fixed-batch, linucb, ldp-linucb
  (:mod:`dpverify.bandits.contextual`).

``mode="sound"`` (the default) builds each algorithm so that its **total**
guarantee is within the requested (ε, δ) (the free noise parameter calibrated
where the paper's constants miss it); ``mode="paper"`` keeps the printed
constants, and the algorithm's ``guarantee`` / ``plan`` then report the true
guarantee with ``claim_met`` False where the claim fails. The family
factories (:func:`dpverify.bandits.mab.make_algorithm`,
:func:`~dpverify.bandits.linear.make_linear_algorithm`,
:func:`~dpverify.bandits.contextual.make_contextual_algorithm`) stay as the
paper-mode building blocks the experiments use. They are imported when an
algorithm is built, not with this module: ``dpverify plan --help`` reads the
name tables here and should not load the families (and scipy with them).

>>> make_algorithm("dist-rdp-se", epsilon=1.0).plan(horizon=10 ** 5, n_arms=4).claim_met
True
>>> make_algorithm("hanna-shuffled", epsilon=1.0, mode="paper").plan(
...     horizon=10 ** 5, dimension=4, n_arms=20).claim_met
False
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from dpverify._deprecation import renamed_parameters
from dpverify._validation import check_choice, check_delta, check_epsilon, value_error
from dpverify.bandits.plan import CALIBRATIONS, MODES, DeploymentPlan
from dpverify.errors import DpverifyValueError
from dpverify.guarantees import ApproxDP

__all__ = ["ALGORITHM_FAMILIES", "ALL_ALGORITHM_NAMES", "NON_PRIVATE_ALGORITHMS",
           "make_algorithm", "plan_deployment", "default_delta"]

_MULTI_ARMED = ("se", "ae", "sdp-ae", "vb-sdp-ae", "dist-dp-se", "dist-rdp-se", "dist-cdp-se",
                "shuffle-dp-se", "cdp-se", "ldp-se", "dp-se")
_LINEAR = ("hanna-central", "hanna-local", "hanna-shuffled", "hanna-nonprivate", "dpdpe-central",
           "dpdpe-local", "dpdpe-shuffle", "dpe", "dpe-fixedu")
_CONTEXTUAL = ("sblb", "sblb-fixed-batch", "linucb", "ldp-linucb")

#: Every algorithm name and its family (``"multi-armed"``, ``"linear"`` or ``"contextual"``).
ALGORITHM_FAMILIES: dict[str, str] = {
    **{name: "multi-armed" for name in _MULTI_ARMED},
    **{name: "linear" for name in _LINEAR},
    **{name: "contextual" for name in _CONTEXTUAL},
}
#: The 24 names accepted by :func:`make_algorithm`, ``dpverify simulate`` and ``dpverify plan``.
ALL_ALGORITHM_NAMES = tuple(ALGORITHM_FAMILIES)
#: The names that add no noise (they take no ε).
NON_PRIVATE_ALGORITHMS = frozenset({"se", "ae", "hanna-nonprivate", "dpe", "dpe-fixedu", "linucb"})
#: Thm 4 of Chowdhury & Zhou 2023 assumes ε < 1 for the discrete-Gaussian noise ε (sound mode starts below it).
_CDP_NOISE_EPSILON_CAP = 0.999


def default_delta(name: str) -> float:
    """The δ used when none is given: 0.25 for DP-DPE (Li, Zhou & Ji 2022, §7), 1e-6 otherwise.

    >>> default_delta("dpdpe-central"), default_delta("sblb")
    (0.25, 1e-06)
    """
    name = check_choice(name, "name", ALL_ALGORITHM_NAMES)
    return 0.25 if name.startswith("dpdpe") else 1e-6


def _multi_armed(name: str, epsilon: float | None, delta: float, mode: str,
                 options: dict[str, Any]) -> Any:
    import dpverify.bandits.mab as mab  # deferred: CLI start-up, see the docstring

    if name in ("se", "ae"):
        return mab.make_algorithm(name, mode=mode, **options)
    if name in ("sdp-ae", "vb-sdp-ae"):
        return mab.make_algorithm(name, epsilon=epsilon, delta=delta, mode=mode, **options)
    requested = ApproxDP(epsilon, delta)
    noise_epsilon = epsilon
    if name == "dist-cdp-se" and mode == "sound":
        noise_epsilon = min(epsilon, _CDP_NOISE_EPSILON_CAP)
    return mab.make_algorithm(name, epsilon=noise_epsilon, delta=delta, mode=mode,
                              requested=requested, **options)


def _contextual(name: str, epsilon: float | None, delta: float, mode: str,
                options: dict[str, Any]) -> Any:
    from dpverify.bandits.contextual import make_contextual_algorithm  # deferred: CLI start-up

    if name.startswith("sblb"):
        options = {"mode": mode, **options}
    return make_contextual_algorithm(name, epsilon=epsilon, delta=delta, **options)


def make_algorithm(name: str, *, epsilon: float | None = None, delta: float | None = None,
                   mode: str = "sound", calibration: str = "paper", **options: Any) -> Any:
    """The algorithm called ``name`` (module table) meeting (ε, δ) in ``mode``.

    Parameters
    ----------
    name
        One of :data:`ALL_ALGORITHM_NAMES`.
    epsilon, delta
        The requested total guarantee (ε is required for the private ones and
        refused for the non-private ones; δ defaults to :func:`default_delta`).
    mode
        ``"sound"`` (calibrated to the request) or ``"paper"`` (printed constants).
    calibration
        ``"paper"`` or ``"exact"``: the analysis a calibration may use where an
        exact one allows less noise; the algorithms whose noise is already
        calibrated exactly (Tenenbaum et al.'s M_sum, DP-DPE's analytic Gaussian in
        sound mode) accept both. Recorded on the plan.
    options
        Passed to the family's constructor (``batch_base``, ``failure_probability``,
        ``scale_factor``, ``core_set``, ``client_sampling_exponent``, ``regime``, …).

    >>> make_algorithm("dist-cdp-se", epsilon=2.0).plan(horizon=4096).guarantee.epsilon <= 2.0
    True
    """
    name = check_choice(name, "name", ALL_ALGORITHM_NAMES)
    mode = check_choice(mode, "mode", MODES)
    check_choice(calibration, "calibration", CALIBRATIONS)
    if name in NON_PRIVATE_ALGORITHMS:
        if epsilon is not None:
            raise value_error("epsilon", epsilon, f"None for the non-private {name}")
    elif epsilon is None:
        raise value_error("epsilon", None, f"given for the private {name}")
    else:
        epsilon = check_epsilon(epsilon, allow_zero=False)
    delta = default_delta(name) if delta is None else check_delta(delta, allow_zero=False)
    family = ALGORITHM_FAMILIES[name]
    if family == "multi-armed":
        return _multi_armed(name, epsilon, delta, mode, options)
    if family == "linear":
        from dpverify.bandits.linear import make_linear_algorithm  # deferred: CLI start-up

        return make_linear_algorithm(name, epsilon=epsilon, delta=delta, mode=mode, **options)
    return _contextual(name, epsilon, delta, mode, options)


@renamed_parameters(actions="n_arms")
def plan_deployment(name: str, *, horizon: int, epsilon: float | None = None,
                    delta: float | None = None, mode: str = "sound", calibration: str = "paper",
                    n_arms: int | None = None, dimension: int | None = None,
                    **options: Any) -> DeploymentPlan:
    """``make_algorithm(name, …).plan(horizon=…, …)`` with ``calibration`` recorded.

    >>> plan = plan_deployment("dist-rdp-se", epsilon=1.0, delta=1e-6, horizon=10 ** 5, n_arms=10)
    >>> plan.guarantee.epsilon <= 1.0, plan.mode
    (True, 'sound')
    """
    name = check_choice(name, "name", ALL_ALGORITHM_NAMES)
    if ALGORITHM_FAMILIES.get(name) == "linear" and name == "dpe-fixedu":
        options = {"horizon": horizon, "dimension": dimension or 20, "n_arms": n_arms or 1000,
                   **options}
    algorithm = make_algorithm(name, epsilon=epsilon, delta=delta, mode=mode,
                               calibration=calibration, **options)
    try:
        plan = algorithm.plan(horizon=horizon, n_arms=n_arms, dimension=dimension)
    except DpverifyValueError as error:
        if "sensitivity" not in str(error):
            raise
        # an exact discrete profile (Skellam, discrete Gaussian) past its range: the request
        # and the run's size set the precision, so say which of them to lower
        raise DpverifyValueError(
            f"epsilon={epsilon} with horizon={horizon} needs a noise precision beyond the exact "
            f"discrete profile's range; lower epsilon or horizon ({error})") from error
    if plan.mode != mode:  # LinUCB / LDP LinUCB: no printed constant differs from a sound one
        plan = replace(plan, mode=mode, notes=[*plan.notes, "sound and paper modes coincide"])
    if calibration == "exact" and plan.calibration != "exact":
        plan = replace(plan, calibration="exact", notes=[
            *plan.notes, "calibration='exact': no exact analysis beyond the one used is "
            "implemented for this algorithm; the plan is unchanged"])
    return plan
