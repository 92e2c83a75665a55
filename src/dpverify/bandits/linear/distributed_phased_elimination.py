"""DP-DPE (Li, Zhou & Ji 2022, Alg. 1): global reward maximisation with partial, distributed, private feedback.

Phase l = 1, 2, …: design π_l on D_l with g <= 2m and
support <= 4d log log d + 16 (:func:`~dpverify.bandits.design.g_optimal_design`,
in span(D_l)); play every x ∈ supp π_l ``T_l(x) = ⌈h_l π_l(x)⌉`` times;
sample ``|U_l| = ⌈2^{αl}⌉`` **fresh** clients (``users`` fixed for
DPE-FixedU); each client's average ``y_l^u(x)`` over its ``T_l(x)`` plays
(drawn from its exact law by the environment, clipped by the client to
[−B, B]: privacy needs ``|y| <= B``, which Gaussian reward noise breaks) goes through the privatizer; then

.. math::

    V_l = \\sum_x T_l(x) x x^\\top,\\quad θ̃_l = V_l^{-1}\\sum_x T_l(x) x ỹ_l(x),\\quad
    W_l = \\Big(\\sqrt{\\tfrac{2d}{|U_l| h_l}} + \\tfrac{σ}{\\sqrt{|U_l|}} + σ_n\\Big)
          \\sqrt{2\\log(1/β)},

eliminate x with ``max_{b ∈ D_l}⟨θ̃_l, b − x⟩ > 2W_l``, ``h_{l+1} = 2h_l``.
W_l's third term is ``σ_n√(2 log 1/β)`` (the printed ``σ_n/√|V_l|`` is an
artefact: the proofs in App. B use σ_n); σ_n = 0 (DPE), 2σ_nc√d (CDP), ``2σ_nl√(d/|U_l|)`` (LDP),
2σ_ns√d (SDP); d is the span dimension m of D_l. ``h_1 = 4d·max(ln ln d, 0) + 16``
(natural log: the paper does not state the base; 103.78 for d = 20). β = 1/(kT) by default.

Communication ``C(T) = Σ_l |U_l| N_l``: N_l = s_l reals (DPE, CDP, LDP) or
(g_l + b_l)s_l bits (SDP), counted for every phase whose clients report
(a phase cut by T reports nothing: its estimate is never used).

**Simulation** (documented extension of the batch protocol): the algorithm
declares ``needs_environment``; :func:`~dpverify.bandits.simulate.simulate`
passes the environment to :meth:`DistributedPhasedElimination.start`, and the
policy's simulated *clients* call
:meth:`~dpverify.bandits.linear.environments.DistributedLinearBandit.client_averages`;
the server side reads only the public actions. Regret is booked by the
simulator from the batches (one per support point), as for every algorithm.

DPE-FixedU: U fixed so that the total communication equals DPE's on the same
horizon (§7 gives no rule; our reading). The nominal rule
:func:`fixed_users_for_equal_communication`, ``U = round(Σ_l s_l⌈2^{αl}⌉ / Σ_l s_l)``
with s_l = ⌊h_1⌋, overshoots (2.8x at T = 10^6); the factory
(``make_linear_algorithm("dpe-fixedu")``) and the experiment calibrate U on the
communication the runs actually use
(:func:`dpverify.bandits.linear.fixed_users.equal_communication_users`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpverify._deprecation import renamed_parameters, renamed_property
from dpverify._validation import (
    check_choice,
    check_failure_probability,
    check_has,
    check_in_range,
    check_instance,
    check_positive,
    check_positive_int,
    check_text,
    value_error,
)
from dpverify.bandits._policy import BanditGuarantee
from dpverify.bandits.design import Design, design_budget
from dpverify.bandits.linear._deployment import dpdpe_plan, linear_plan
from dpverify.bandits.linear._phases import PhasedPolicy, least_squares
from dpverify.bandits.linear._schedules import phase_schedule
from dpverify.bandits.linear.privatizers import (
    LOCAL_CONSTANTS,
    MODES,
    CentralGaussianAverage,
    ExactAverage,
    LocalGaussianAverage,
    ShuffleVectorAverage,
)
from dpverify.guarantees import ApproxDP

__all__ = [
    "DPDPE_MODELS",
    "DistributedPhasedElimination",
    "DistributedPhasedEliminationPolicy",
    "dpdpe_width",
    "phase_schedule",
    "fixed_users_for_equal_communication",
]

#: Privatizers of DP-DPE: none (DPE), central (CDP), local (LDP), shuffle (SDP).
DPDPE_MODELS = ("none", "central", "local", "shuffle")


def _check_exponent(value: float) -> float:
    return check_in_range(value, "client_sampling_exponent", 0.0, 1.0, low_closed=False,
                          high_closed=False)


@renamed_parameters(confidence="failure_probability")
def dpdpe_width(*, dimension: int, users: int, plays: float, heterogeneity: float,
                width_sigma: float, failure_probability: float) -> float:
    """W_l = ``(√(2d/(|U_l| h_l)) + σ/√|U_l| + σ_n)·√(2 log(1/β))`` (Li, Zhou & Ji 2022, Eq. 3, as in its proofs).

    ``failure_probability`` is β, the probability that the width fails.

    >>> round(dpdpe_width(dimension=20, users=2, plays=103.78, heterogeneity=0.1,
    ...                   width_sigma=0.0, failure_probability=1e-9), 4)
    3.2814
    """
    log_term = math.log(1 / check_failure_probability(failure_probability))
    return (math.sqrt(2 * dimension / (users * plays)) + heterogeneity / math.sqrt(users)
            + width_sigma) * math.sqrt(2 * log_term)


@renamed_parameters(d="dimension", alpha="client_sampling_exponent")
def fixed_users_for_equal_communication(horizon: int, dimension: int,
                                        client_sampling_exponent: float) -> int:
    """DPE-FixedU's U: ``round(Σ_l s_l⌈2^{αl}⌉ / Σ_l s_l)`` over DPE's completed phases.

    With a constant nominal s_l this is the mean of ⌈2^{αl}⌉ (our reading of
    "the same total communication" of §7). It is **not** equal
    communication in practice: the real design support is about 25 and
    shrinks, not ⌊h_1⌋ = 103, so at T = 10^6 this U = 245 sends about 2.8x
    DPE's reals. :func:`dpverify.bandits.linear.fixed_users.equal_communication_users`
    calibrates U on simulated communication (U ≈ 60 there); dpdpe-fig2c and
    ``make_linear_algorithm("dpe-fixedu")`` use it.

    >>> fixed_users_for_equal_communication(10 ** 6, 20, 0.8)
    245
    """
    phases = phase_schedule(horizon, dimension, client_sampling_exponent)
    completed = [u for l, h, u in phases if sum(p[1] for p in phases[:l]) <= horizon] or \
        [phases[0][2]]
    return max(1, int(round(sum(completed) / len(completed))))


@renamed_parameters(alpha="client_sampling_exponent", confidence="failure_probability")
@dataclass(frozen=True)
class DistributedPhasedElimination:
    """DP-DPE with a privatizer (``model``), DPE (``"none"``) or DPE-FixedU (``users`` set).

    Parameters
    ----------
    model
        ``"central"`` (CDP-DPE, Thm 1), ``"local"`` (LDP-DPE, Thm 2/6),
        ``"shuffle"`` (SDP-DPE, Alg. 2) or ``"none"`` (DPE).
    epsilon, delta
        Per-phase privacy (fresh clients: the whole run by parallel composition).
    mode
        ``"paper"`` (classical Gaussian calibration) or ``"sound"`` (analytic).
    client_sampling_exponent
        α in (0, 1): phase l samples ``|U_l| = ⌈2^{αl}⌉`` fresh clients (Li, Zhou & Ji 2022,
        Alg. 1 l. 6; §7: 0.8); it trades regret against communication.
    heterogeneity
        σ of ξ_u, known to the algorithm (0.1).
    reward_bound
        B; the clients clip their averages to [−B, B].
    failure_probability
        β, the probability that the widths W_l fail, in (0, 1/2] (``None``: 1/(kT)).
    users
        A fixed ``|U|`` per phase (DPE-FixedU); ``None``: ⌈2^{αl}⌉.
    local_constant
        ``"thm6"`` or ``"thm2"`` (the two printed σ_nl of Li, Zhou & Ji 2022: Thm 2 lacks Thm 6's √2).

    >>> DistributedPhasedElimination("central", 10.0, 0.25).guarantee(n_arms=1000, horizon=10 ** 6).notes[:29]
    'paper mode; claimed ApproxDP('
    """

    model: str
    epsilon: float | None = None
    delta: float = 0.25
    mode: str = "paper"
    client_sampling_exponent: float = 0.8
    heterogeneity: float = 0.1
    reward_bound: float = 1.0
    failure_probability: float | None = None
    users: int | None = None
    local_constant: str = "thm6"
    name: str = ""
    needs_environment = True

    # the old spellings, read-only, for one release
    alpha = renamed_property("alpha", "client_sampling_exponent")
    confidence = renamed_property("confidence", "failure_probability")

    def __post_init__(self) -> None:
        object.__setattr__(self, "model", check_choice(self.model, "model", DPDPE_MODELS))
        object.__setattr__(self, "mode", check_choice(self.mode, "mode", MODES))
        object.__setattr__(self, "client_sampling_exponent",
                           _check_exponent(self.client_sampling_exponent))
        object.__setattr__(self, "local_constant", check_choice(
            self.local_constant, "local_constant", LOCAL_CONSTANTS))
        if self.failure_probability is not None:
            check_failure_probability(self.failure_probability)
        if self.users is not None:
            object.__setattr__(self, "users", check_positive_int(self.users, "users"))
        check_positive(self.heterogeneity, "heterogeneity")
        check_positive(self.reward_bound, "reward_bound")
        check_text(self.name, "name")
        _ = self.privatizer  # validates ε, δ, B for the chosen model
        if not self.name:
            label = {"none": "DPE", "central": "CDP-DPE", "local": "LDP-DPE",
                     "shuffle": "SDP-DPE"}[self.model]
            if self.users is not None:
                label += f"-FixedU (U={self.users})"
            object.__setattr__(self, "name", label if self.model == "none" else
                               f"{label} ({self.mode})")

    @property
    def privatizer(self) -> Any:
        if self.model == "none":
            return ExactAverage(self.reward_bound)
        if self.model == "central":
            return CentralGaussianAverage(self.epsilon, self.delta, self.reward_bound, self.mode)
        if self.model == "local":
            return LocalGaussianAverage(self.epsilon, self.delta, self.reward_bound, self.mode,
                                        self.local_constant)
        return ShuffleVectorAverage(self.epsilon, self.delta, self.reward_bound, self.mode)

    def phase_users(self, phase: int) -> int:
        return self.users if self.users is not None else \
            math.ceil(2 ** (self.client_sampling_exponent * phase))

    def start(self, *, n_arms: int, horizon: int, per_user: bool = False,
              environment: Any = None) -> DistributedPhasedEliminationPolicy:
        if environment is None or not hasattr(environment, "client_averages"):
            raise value_error("environment", environment,
                              "a distributed linear environment (client_averages)")
        return DistributedPhasedEliminationPolicy(self, environment, check_positive_int(
            horizon, "horizon"), per_user=per_user)

    def guarantee(self, *, n_arms: int, horizon: int) -> BanditGuarantee:
        """Per phase = total (fresh clients each phase: parallel composition; Li, Zhou & Ji 2022, proof of Thm 3).

        Central/local: the exact Gaussian profile of the noise actually added
        (σ/Δ is the same in every phase). Shuffle: the claim of Thm 3/9 [R].
        """
        privatizer = self.privatizer
        if self.model == "none":
            return BanditGuarantee("none", None, None, None, "non-private")
        per_phase = privatizer.guarantee()
        claim = privatizer.claimed
        note = f"{self.mode} mode; claimed {claim}"
        if per_phase.delta > claim.delta * (1 + 1e-12):
            note += (f"; the claim is NOT established: the classical Gaussian calibration is "
                     f"proven only for epsilon < 1, and the exact delta at epsilon={claim.epsilon} "
                     f"is {per_phase.delta:.4g} > {claim.delta} (Li, Zhou & Ji 2022, Thm 8, "
                     f"omits epsilon < 1)")
        if self.model == "shuffle":
            note += "; Cheu et al. 2021 constants as printed by Li, Zhou & Ji 2022, Eq. (22) [R], not verified"
        return BanditGuarantee(privatizer.model, per_phase, per_phase, per_phase, note,
                               requested=ApproxDP(self.epsilon, self.delta))

    @renamed_parameters(actions="n_arms")
    def plan(self, *, horizon: int, n_arms: int | None = None,
             dimension: int | None = None) -> Any:
        """Every deployment parameter from (d, k, T) alone (no environment): one record per phase.

        See :mod:`dpverify.bandits.linear._deployment`.
        """
        return linear_plan(self, dpdpe_plan, horizon=horizon, n_arms=n_arms, dimension=dimension)


class DistributedPhasedEliminationPolicy(PhasedPolicy):
    """One run of :class:`DistributedPhasedElimination`; ``communication_cost`` is C(T) so far."""

    def __init__(self, algorithm: DistributedPhasedElimination, environment: Any, horizon: int,
                 *, per_user: bool) -> None:
        check_instance(algorithm, "algorithm", DistributedPhasedElimination,
                       "a DistributedPhasedElimination")
        check_has(environment, "environment", ("actions", "client_averages"),
                  "a DistributedLinearBandit")
        super().__init__(environment.actions, horizon, per_user=per_user)
        self.algorithm = algorithm
        self.environment = environment
        self.privatizer = algorithm.privatizer
        dimension = environment.actions.shape[1]
        self.h1 = design_budget(dimension)
        self.failure_probability = algorithm.failure_probability \
            if algorithm.failure_probability is not None else \
            min(0.5, 1.0 / (environment.actions.shape[0] * horizon))
        self.clients_used = 0
        self.communication_cost = 0.0
        #: Per completed phase: clients, design points and noise (the run's own record).
        self.deployments: list[dict[str, Any]] = []

    def _plan(self, phase: int, design: Design) -> NDArray[np.int64] | None:
        if self.played >= self.horizon:
            return None
        plays = self.h1 * 2 ** (phase - 1)
        return np.ceil(plays * design.probabilities[design.support] - 1e-9).astype(np.int64).clip(min=1)

    def _finish(self, rng: np.random.Generator) -> tuple[NDArray[np.float64], float]:
        algorithm, design = self.algorithm, self.design
        users = algorithm.phase_users(self.phase)
        self.clients_used += users
        if self.clients_used > self.environment.population_size:
            raise value_error("horizon", self.horizon,
                              f"small enough for the population of {self.environment.population_size} "
                              "clients (every phase needs fresh ones)")
        bound = algorithm.reward_bound
        averages = self.environment.client_averages(self.support, self.counts, users, rng=rng)
        np.clip(averages, -bound, bound, out=averages)
        estimate = self.privatizer.privatize_average(averages, rng=rng, per_user=self.per_user)
        dimension = int(self.support.size)
        self.communication_cost += self.privatizer.communication(users, dimension)
        coordinates = self.actions[self.support] @ design.basis
        theta = least_squares(coordinates, self.counts, estimate)
        sigma_n = self.privatizer.width_sigma(users, dimension, design.dimension)
        self.deployments.append({"phase": self.phase, "users_U": users,
                                 "coordinates_s": dimension, "width_sigma_n": sigma_n,
                                 "communication": self.privatizer.communication(users, dimension)})
        width = dpdpe_width(dimension=design.dimension, users=users,
                            plays=self.h1 * 2 ** (self.phase - 1),
                            heterogeneity=algorithm.heterogeneity, width_sigma=sigma_n,
                            failure_probability=self.failure_probability)
        return theta, width
