"""Deployment plans of the linear phased eliminations (Hanna et al. 2022, DP-DPE) from (k, d, T) alone.

No environment and no simulation: Hanna et al.'s batch sizes ``N_i = ⌈q^i⌉`` and its
core-set size bound, and DP-DPE's phases ``(l, h_l, |U_l|)``, depend only on T,
d and k; the data-dependent part of a run (which actions survive, the exact
core set) can only shrink the numbers reported here. Every noise parameter is
read from the privatizer methods the runs call (``for_batch``, ``sigma_ratio``,
``noise_sd``, ``protocol``), so a plan and a run agree by construction (tested).
"""

from __future__ import annotations

import math
from typing import Any

from dpverify._validation import check_positive_int
from dpverify.bandits.design import design_budget, support_size_bound
from dpverify.bandits.linear._schedules import batch_base, batch_count, phase_schedule
from dpverify.bandits.plan import DeploymentPlan, guarantee_dict, instance_sizes, noise_parameters
from dpverify.guarantees import ApproxDP
from dpverify.mechanisms import Laplace

__all__ = ["hanna_plan", "dpdpe_plan", "core_set_bound"]


def linear_plan(algorithm: Any, build: Any, *, horizon: Any, n_arms: Any,
                dimension: Any) -> DeploymentPlan:
    """The ``plan`` of a linear algorithm: sizes checked as every family checks them, then
    ``build(algorithm, horizon=, dimension=, n_arms=)`` (:func:`hanna_plan` or :func:`dpdpe_plan`)."""
    sizes = instance_sizes("linear", n_arms=n_arms, dimension=dimension,
                           required=("n_arms", "dimension"))
    return build(algorithm, horizon=check_positive_int(horizon, "horizon"),
                 dimension=sizes["dimension"], n_arms=sizes["n_arms"])


def core_set_bound(n_arms: int, dimension: int, core_set: bool = True) -> int:
    """The most core actions a phase can use: ``min(k, ⌊4d log log d + 16⌋)`` (all k without pruning).

    >>> core_set_bound(1000, 20), core_set_bound(5, 20), core_set_bound(1000, 20, core_set=False)
    (103, 5, 1000)
    """
    return n_arms if not core_set else min(n_arms, support_size_bound(dimension))


def hanna_plan(algorithm: Any, *, horizon: int, dimension: int, n_arms: int) -> DeploymentPlan:
    """Hanna et al. 2022, Alg. 1/2/3: one record per batch i (N_i = ⌈q^i⌉ users at least, N_i + |C| − 1 at most).
    """
    base, count = batch_base(horizon), batch_count(horizon)
    core = core_set_bound(n_arms, dimension, algorithm.core_set)
    privatizer = algorithm.privatizer
    guarantee = algorithm.guarantee(n_arms=n_arms, horizon=horizon)
    schedule = []
    for phase in range(1, count + 1):
        nominal = max(1, math.ceil(base ** phase))
        record: dict[str, Any] = {"batch": phase, "users_at_least": nominal,
                                  "users_at_most": nominal + core - 1}
        if privatizer is not None:
            # the run's ε0^{(i)}: chosen for N_i (sound) or for the actual n_i (paper)
            batch = privatizer.for_batch(nominal)
            record["local_epsilon_0" if algorithm.model == "shuffle" else "epsilon"] = batch.epsilon
            if algorithm.model == "shuffle" and algorithm.mode == "paper":
                record["local_epsilon_0_at_most"] = privatizer.for_batch(nominal + core - 1).epsilon
            record.update(noise_parameters(Laplace(scale=batch.scale)))
            # as PhasedElimination.guarantee: paper mode's ε0 covers up to N_i + k − 1 users
            per_batch = (privatizer.guarantee(nominal, local_users=nominal + n_arms - 1
                                              if algorithm.mode == "paper" else None)
                         if algorithm.model == "shuffle" else privatizer.guarantee(nominal))
            record["per_batch"] = guarantee_dict(per_batch)
            if algorithm.model == "shuffle":
                record.update(_capped_note(algorithm, batch.epsilon, per_batch.epsilon))
        schedule.append(record)
    parameters: dict[str, Any] = {"batch_base_q": base, "batches_M": count,
                                  "core_set_size_at_most": core,
                                  "privatizer": None if privatizer is None else privatizer.name,
                                  "messages_per_user": 1}
    if privatizer is not None and algorithm.model != "shuffle":
        parameters["laplace_b"] = privatizer.scale
    notes = [f"{algorithm.name} (Hanna et al. 2022); q = (2T)^(1/ln T), M = floor(ln T) - 1, "
             f"core sets of at most min(k, 4d log log d + 16) = {core} actions",
             guarantee.notes]
    if algorithm.model == "shuffle":
        notes.append("local epsilon_0 per batch from FMT 2021 amplification at N_i "
                     + ("(sound: chosen for the nominal N_i, which the guarantee covers)"
                        if algorithm.mode == "sound" else
                        "(paper: chosen for the actual n_i <= N_i + |C| - 1; the guarantee "
                        "is taken at N_i)"))
    return DeploymentPlan(algorithm=algorithm.name, mode=algorithm.mode, model=guarantee.model,
                          horizon=horizon, requested=_requested(algorithm),
                          guarantee=guarantee.approx_dp, per_batch=guarantee.per_batch,
                          parameters=parameters, schedule=schedule, notes=notes,
                          instance={"n_arms": n_arms, "dimension": dimension})


def _capped_note(algorithm: Any, local_epsilon: float, batch_epsilon: float) -> dict[str, str]:
    """A note for a batch whose ε0 stops at FMT 2021's validity limit (its ε is below the request).

    Feldman, McMillan & Talwar 2021, Thm 3.1 holds for ε0 <= ln(n / (16 ln(2/δ))); Alg. 3 takes
    the largest valid ε0 there, so such a batch spends less than the requested ε.
    """
    if not (local_epsilon > algorithm.epsilon and batch_epsilon < algorithm.epsilon * (1 - 1e-9)):
        return {}
    return {"note": "epsilon_0 capped at FMT's validity limit ln(N/(16 ln(2/delta)))"}


def _requested(algorithm: Any) -> Any:
    if algorithm.model == "none":
        return None
    return ApproxDP(algorithm.epsilon, algorithm.delta)


def dpdpe_plan(algorithm: Any, *, horizon: int, dimension: int, n_arms: int) -> DeploymentPlan:
    """DP-DPE: one record per phase l (h_l plays, |U_l| fresh clients, noise at s_l <= the core bound)."""
    privatizer = algorithm.privatizer
    guarantee = algorithm.guarantee(n_arms=n_arms, horizon=horizon)
    coordinates = core_set_bound(n_arms, dimension)
    schedule = []
    for phase, plays, _ in phase_schedule(horizon, dimension,
                                          algorithm.client_sampling_exponent):
        users = algorithm.phase_users(phase)
        record: dict[str, Any] = {"phase": phase, "plays_h": plays, "users_U": users,
                                  "coordinates_s_at_most": coordinates,
                                  "communication_per_user": privatizer.communication(
                                      users, coordinates) / users}
        if algorithm.model == "shuffle":
            protocol = privatizer.protocol(users, coordinates)
            record.update(precision_g=protocol.precision, noise_bits_b=protocol.trials,
                          noise_bit_probability_p=protocol.probability,
                          messages_per_user=coordinates * (protocol.precision + protocol.trials))
        elif algorithm.model != "none":
            record.update(gaussian_sigma=privatizer.noise_sd(users, coordinates),
                          sensitivity=privatizer.sensitivity(users, coordinates))
        if algorithm.model != "none":
            record["per_batch"] = guarantee_dict(privatizer.guarantee(users, coordinates))
        schedule.append(record)
    parameters: dict[str, Any] = {
        "privatizer": privatizer.name,
        "client_sampling_exponent_alpha": algorithm.client_sampling_exponent,
        "heterogeneity_sigma": algorithm.heterogeneity, "reward_bound_B": algorithm.reward_bound,
        "failure_probability_beta": algorithm.failure_probability
        if algorithm.failure_probability is not None else min(0.5, 1.0 / (n_arms * horizon)),
        "h_1": design_budget(dimension), "phases": len(schedule), "fixed_users_U": algorithm.users,
        "users_total": sum(r["users_U"] for r in schedule)}
    if algorithm.model in ("central", "local"):
        parameters["noise_multiplier_sigma_over_sensitivity"] = privatizer.sigma_ratio
    notes = [f"Li, Zhou & Ji 2022 {algorithm.name}; h_l = h_1 2^(l-1), |U_l| = ceil(2^(alpha l)) fresh clients; "
             f"s_l <= min(k, 4d log log d + 16) = {coordinates} design points (noise at that bound)",
             guarantee.notes]
    return DeploymentPlan(algorithm=algorithm.name, mode=algorithm.mode, model=guarantee.model,
                          horizon=horizon, requested=_requested(algorithm),
                          guarantee=guarantee.approx_dp, per_batch=guarantee.per_batch,
                          parameters=parameters, schedule=schedule, notes=notes,
                          calibration="exact" if algorithm.mode == "sound" else "paper",
                          instance={"n_arms": n_arms, "dimension": dimension})
