"""SBLB's sound-mode calibration and the contextual algorithms' deployment plans.

**Sound mode** (:func:`sound_parameters`): the requested (ε, δ) is the *total*
JDP guarantee, δ included. Garcelon et al. 2022's total is ``(ε_total, δ_slack + k δ0/T + δ)``
with δ0 = δ (Cor. 7/8) — up to 3δ for a request of δ — so the internal δ is
``δ/3`` (shaved by 1e-9 relative so rounding cannot push the sum over), the
releases are composed by the tightest accountant (``"pld"``), and the internal
ε target of Cor. 7/8 (which sets ε0, hence p and Thm 5's batch length l) is
calibrated to the **largest** value whose total meets the request
(:func:`dpverify._numeric.bisect_passing` on a verified bracket: the stored
parameters have been evaluated and pass). Less noise, shorter batches.

**Feasibility**: with l > T no shuffler batch completes, nothing is released
and the bandit never learns; the plan is then infeasible (``claim_met`` False),
says why, and gives the smallest horizon at which l <= T at the same internal
target (found by doubling and integer bisection).
"""

from __future__ import annotations

import functools
from dataclasses import replace
from typing import Any

from dpverify._numeric import bisect_passing
from dpverify._validation import check_positive_int
from dpverify.bandits.contextual.parameters import (
    cor8_epsilon_limit,
    cor8_first_release_log10_horizon,
)
from dpverify.bandits.plan import DeploymentPlan, instance_sizes, meets_request
from dpverify.errors import CalibrationError
from dpverify.guarantees import ApproxDP

__all__ = ["sound_parameters", "sblb_plan", "local_plan"]

#: Share of the requested δ given to δ0 (= δ of Cor. 7/8): the total is at most 3 δ0.
_DELTA_SHARE = (1 - 1e-9) / 3
_EPSILON_RTOL = 1e-4
_MAX_HORIZON = 1 << 62


def _total(candidate: Any, horizon: int, dimension: int) -> ApproxDP | None:
    try:
        return candidate.guarantee(horizon=horizon, dimension=dimension, composition="pld",
                                   fallback=False).approx_dp
    except (ValueError, OverflowError):
        return None


@functools.lru_cache(maxsize=128)
def sound_parameters(algorithm: Any, horizon: int, dimension: int) -> Any:
    """SBLB's parameters whose total (pld) guarantee meets the requested (ε, δ) with the least noise.

    Raises
    ------
    CalibrationError
        When no internal ε target in [ε 2^-60, ε 2^40] meets the request.
    """
    requested = ApproxDP(algorithm.epsilon, algorithm.delta)
    delta = algorithm.delta * _DELTA_SHARE

    def candidate(epsilon: float) -> Any:
        return replace(algorithm, epsilon=epsilon, delta=delta, mode="paper")

    def meets(epsilon: float) -> bool:
        total = _total(candidate(epsilon), horizon, dimension)
        return total is not None and meets_request(total, requested)

    low = algorithm.epsilon
    for _ in range(60):
        if meets(low):
            break
        low /= 2
    else:
        raise CalibrationError(f"no internal epsilon target makes SBLB meet {requested!r} "
                               f"at horizon={horizon}, dimension={dimension}")
    high = low * 2
    for _ in range(40):
        if not meets(high):
            break
        low, high = high, high * 2
    else:
        return candidate(low).parameters(horizon=horizon, dimension=dimension)
    best = bisect_passing(meets, low, high, rtol=_EPSILON_RTOL)
    return candidate(best).parameters(horizon=horizon, dimension=dimension)


def _fits(algorithm: Any, epsilon: float, delta: float, dimension: int):
    def fits(horizon: int) -> bool:
        try:
            q = replace(algorithm, epsilon=epsilon, delta=delta, mode="paper").parameters(
                horizon=int(horizon), dimension=dimension)
        except ValueError:
            return False
        return q.batch_length <= horizon

    return fits


def smallest_fitting_horizon(algorithm: Any, epsilon: float, delta: float, dimension: int,
                             start: int) -> int | None:
    """The smallest T >= ``start`` with Thm 5's l(T) <= T at internal target (ε, δ), if any below 2^62."""
    fits = _fits(algorithm, epsilon, delta, dimension)
    high = start
    while not fits(high):
        if high >= _MAX_HORIZON:
            return None
        high = min(high * 2, _MAX_HORIZON)
    if high == start:
        return start
    return bisect_passing(fits, high // 2, high, integer=True)


def sblb_plan(algorithm: Any, *, horizon: int, dimension: int, n_arms: int | None) -> DeploymentPlan:
    """SBLB's plan: Cor. 7/8 parameters, one schedule record for the ⌈T/l⌉ identical releases."""
    requested = ApproxDP(algorithm.epsilon, algorithm.delta)
    try:
        q = algorithm.parameters(horizon=horizon, dimension=dimension)
        guarantee = algorithm.guarantee(horizon=horizon, dimension=dimension)
    except (ValueError, CalibrationError) as error:
        return DeploymentPlan(
            algorithm=algorithm.name, mode=algorithm.mode, model="shuffle", horizon=horizon,
            requested=requested, guarantee=None, per_batch=None,
            infeasible=str(error) + _first_release(algorithm, dimension, algorithm.delta),
            feasible_epsilon=_cor8_limit(algorithm, horizon),
            notes=["Garcelon et al. 2022 SBLB", f"regime {algorithm.regime}"],
            instance={"n_arms": n_arms, "dimension": dimension})
    infeasible = feasible_horizon = None
    if q.batch_length > horizon:
        infeasible = (f"Thm 5's shuffler batch length l = {q.batch_length} exceeds the horizon "
                      f"T = {horizon}: no batch completes, nothing is released and SBLB never "
                      "learns")
        feasible_horizon = smallest_fitting_horizon(algorithm, q.epsilon, q.delta, dimension,
                                                    horizon)
        if feasible_horizon is None:
            infeasible += (f"; no horizon up to 2^62 lets a batch complete at the internal target "
                           f"epsilon = {q.epsilon:.6g}"
                           + _first_release(algorithm, dimension, q.shuffle_delta))
    parameters = {
        "regime": q.regime, "batch_form": q.batch_form, "internal_epsilon_target": q.epsilon,
        "shuffle_delta_0": q.shuffle_delta, "local_epsilon_0": q.local_epsilon,
        "randomization_probability_p": q.randomization_probability,
        "flip_probability": q.randomization_probability / 2, "bits_per_entry_m": q.bits,
        "randomized_bits_per_user": q.bits * dimension * (dimension + 3) // 2,
        "messages_per_user": 1, "shuffler_batch_length_l": q.batch_length,
        "releases": q.shuffler_batches, "complete_releases": horizon // q.batch_length,
        "regularization_lambda": q.regularization, "eta": q.eta,
        "context_bound_L": q.context_bound, "theta_bound_S": q.theta_bound, "sigma": q.sigma}
    schedule = [{"release": "every shuffler batch", "count": q.shuffler_batches,
                 "batch_length_l": q.batch_length, "local_epsilon_0": q.local_epsilon,
                 "randomization_probability_p": q.randomization_probability,
                 "flip_probability": q.randomization_probability / 2,
                 "per_batch": guarantee.per_batch}]
    notes = [f"Garcelon et al. 2022 {algorithm.name} (Alg. {'4' if algorithm.fixed_batch else '1'}), "
             f"{q.regime} parameters", f"{algorithm.mode} mode" + (
                 ": internal epsilon target calibrated, shuffle delta0 = delta/3, pld composition"
                 if algorithm.mode == "sound" else ": the paper's constants (advanced composition)"),
             guarantee.notes]
    if feasible_horizon is not None:
        notes.append(f"at the same internal target l <= T from T = {feasible_horizon}")
    return DeploymentPlan(algorithm=algorithm.name, mode=algorithm.mode, model="shuffle",
                          horizon=horizon, requested=requested, guarantee=guarantee.approx_dp,
                          per_batch=guarantee.per_batch, parameters=parameters, schedule=schedule,
                          notes=notes, infeasible=infeasible, feasible_horizon=feasible_horizon,
                          instance={"n_arms": n_arms, "dimension": dimension})


def _first_release(algorithm: Any, dimension: int, shuffle_delta: float) -> str:
    """Where Cor. 8 at its largest ε first completes a batch (Garcelon et al. 2022, Thm 5)."""
    if algorithm.regime != "cor8":
        return ""
    log10 = cor8_first_release_log10_horizon(dimension=dimension, shuffle_delta=shuffle_delta,
                                             batch_form=algorithm.batch_form)
    if log10 is None:
        return "; Cor. 8 at its largest epsilon completes no batch up to T = 1e60 either"
    return (f"; Cor. 8 at its largest epsilon 1/(27 T^(1/4)) (p = 8/9) completes a first batch "
            f"from T ~ 10^{log10:g} (d = {dimension}, delta0 = {shuffle_delta:.3g}, "
            f"{algorithm.batch_form} form of Eq. (3))")


def _cor8_limit(algorithm: Any, horizon: int) -> float | None:
    return cor8_epsilon_limit(horizon) if algorithm.regime == "cor8" else None


def local_plan(algorithm: Any, *, horizon: Any, n_arms: Any = None,
               dimension: Any = None) -> DeploymentPlan:
    """LinUCB (non-private) or LDP LinUCB (every report ε-LDP, l = 1): their ``plan()``,
    arguments as the algorithms' ``plan`` takes them (checked here)."""
    sizes = instance_sizes("contextual", n_arms=n_arms, dimension=dimension,
                           required=("dimension",))
    horizon = check_positive_int(horizon, "horizon")
    dimension, n_arms = sizes["dimension"], sizes["n_arms"]
    guarantee = algorithm.guarantee(horizon=horizon, dimension=dimension)
    private = guarantee.approx_dp is not None
    parameters: dict[str, Any] = {"eta": algorithm.eta}
    schedule: list[dict[str, Any]] = []
    if private:
        q = algorithm.parameters(horizon=horizon, dimension=dimension)
        parameters.update(local_epsilon_0=q.local_epsilon,
                          randomization_probability_p=q.randomization_probability,
                          bits_per_entry_m=q.bits, messages_per_user=1,
                          randomized_bits_per_user=q.bits * dimension * (dimension + 3) // 2,
                          regularization_lambda=q.regularization)
        schedule = [{"release": "every user's report", "count": horizon,
                     "local_epsilon_0": q.local_epsilon,
                     "randomization_probability_p": q.randomization_probability,
                     "per_batch": guarantee.per_batch}]
    return DeploymentPlan(algorithm=algorithm.name, mode=getattr(algorithm, "mode", "sound"),
                          model=guarantee.model, horizon=horizon,
                          requested=ApproxDP(algorithm.epsilon, algorithm.delta) if private
                          else None, guarantee=guarantee.approx_dp,
                          per_batch=guarantee.per_batch, parameters=parameters, schedule=schedule,
                          notes=[guarantee.notes], instance={"n_arms": n_arms,
                                                             "dimension": dimension})
