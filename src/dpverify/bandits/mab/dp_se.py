"""DP-SE of Sajed & Sheffet 2019: central ε-DP successive elimination with Laplace noise.

As run by Chowdhury & Zhou 2023, §7, as baseline: the formulas of their public
code, which an independent public implementation shares (the original
paper's text was not retrieved). Epoch e = 1, 2, … with active set S:

.. math::

    Δ_e = 2^{-e},\\quad
    R_e = 1 + \\Big\\lfloor \\max\\Big\\{\\frac{32\\ln(8|S|e^2/p)}{Δ_e^2},\\;
                                     \\frac{8\\ln(4|S|e^2/p)}{εΔ_e}\\Big\\}\\Big\\rfloor

each a ∈ S is pulled R_e times (fresh epoch data), ``μ̃_a = (Σ r + Lap(1/ε))/R_e``
with an **independent** Laplace draw per arm per epoch (the public code adds
one shared draw to every arm, which is not private), and with

.. math:: c_e = \\sqrt{\\frac{\\ln(8|S|e^2/p)}{2R_e}} + \\frac{\\ln(4|S|e^2/p)}{R_e ε}

the arms with ``max_{a′} μ̃_{a′} − μ̃_a > 2c_e`` are removed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from dpverify._deprecation import renamed_parameters, renamed_property
from dpverify._validation import (
    MAX_INTEGER,
    check_choice,
    check_epsilon,
    check_failure_probability,
    check_flag,
    check_instance,
    check_positive_int,
    check_text,
    value_error,
)
from dpverify.bandits._limits import check_arms
from dpverify.bandits._policy import BanditGuarantee, Batch, RewardBatch
from dpverify.bandits.mab._deployment import batch_plan
from dpverify.bandits.mab._elimination import radius_p, schedule_guarantee
from dpverify.bandits.plan import MODES, check_request, instance_sizes
from dpverify.bandits.privatizers import CentralLaplace
from dpverify.guarantees import ApproxDP

__all__ = ["DPSE", "DPSEPolicy", "dp_se_epoch_length", "dp_se_radius"]


@renamed_parameters(confidence="failure_probability")
def dp_se_epoch_length(epoch: int, *, active_arms: int, epsilon: float,
                       failure_probability: float) -> int:
    """``R_e`` of DP-SE (Sajed & Sheffet 2019, as in the public code of Chowdhury & Zhou 2023);
    ``failure_probability`` is p.

    >>> dp_se_epoch_length(1, active_arms=10, epsilon=0.5, failure_probability=0.1)
    856
    """
    e, k = check_positive_int(epoch, "epoch"), check_positive_int(active_arms, "active_arms")
    epsilon = check_epsilon(epsilon, allow_zero=False)
    gap = 2.0 ** -e
    p = check_failure_probability(failure_probability)
    first = 32 * math.log(8 * k * e * e / p) / gap ** 2
    log_second = 8 * math.log(4 * k * e * e / p)
    if not log_second / gap <= epsilon * (MAX_INTEGER - 1):   # the second term fits 64 bits
        raise value_error("epsilon", epsilon, f">= {log_second / gap / (MAX_INTEGER - 1):.3g} "
                          f"for epoch {e}", "the epoch length R_e >= 8 ln(4|S|e²/p)/(epsilon "
                          "2^-e) must fit in 64 bits")
    if not first < MAX_INTEGER - 1:
        raise value_error("epoch", epoch, "small enough that R_e >= 32 ln(8|S|e²/p) 4^e fits "
                          "in 64 bits")
    return 1 + math.floor(max(first, log_second / (epsilon * gap)))


@renamed_parameters(confidence="failure_probability", length="epoch_length")
def dp_se_radius(epoch: int, epoch_length: int, *, active_arms: int, epsilon: float,
                 failure_probability: float) -> float:
    """``c_e = √(ln(8|S|e²/p)/(2R_e)) + ln(4|S|e²/p)/(R_e ε)`` (R_e = ``epoch_length``,
    p = ``failure_probability``).

    >>> round(dp_se_radius(1, 856, active_arms=10, epsilon=0.5, failure_probability=0.1), 6)
    0.076485
    """
    e, k = check_positive_int(epoch, "epoch"), check_positive_int(active_arms, "active_arms")
    r = check_positive_int(epoch_length, "epoch_length")
    p = check_failure_probability(failure_probability)
    return (math.sqrt(math.log(8 * k * e * e / p) / (2 * r))
            + math.log(4 * k * e * e / p) / (r * epsilon))


@renamed_parameters(confidence="failure_probability")
@dataclass(frozen=True)
class DPSE:
    """DP-SE (Sajed & Sheffet 2019), central pure ε-DP, continuous Laplace noise (simulation).

    ``failure_probability`` is p, the probability that the radii c_e fail, in (0, 1/2]
    (``None``: 1/T; the experiments of Chowdhury & Zhou 2023 use 0.1).

    >>> DPSE(0.5).guarantee(n_arms=10, horizon=10**6).per_batch
    PureDP(epsilon=0.5)
    """

    epsilon: float
    failure_probability: float | None = None
    name: str = "DP-SE"
    requested: ApproxDP | None = None
    mode: str = "paper"

    # the old spellings, read-only, for one release
    confidence = renamed_property("confidence", "failure_probability")

    def __post_init__(self) -> None:
        object.__setattr__(self, "epsilon", check_epsilon(self.epsilon, allow_zero=False))
        radius_p(self.failure_probability, 2)
        check_text(self.name, "name")
        object.__setattr__(self, "mode", check_choice(self.mode, "mode", MODES))
        object.__setattr__(self, "requested", check_request(self.requested))
        if self.requested is None:
            object.__setattr__(self, "requested", ApproxDP(self.epsilon, 0.0))

    @property
    def privatizer(self) -> CentralLaplace:
        return CentralLaplace(self.epsilon)

    def start(self, *, n_arms: int, horizon: int, per_user: bool = False) -> DPSEPolicy:
        return DPSEPolicy(self, n_arms=n_arms, horizon=horizon, per_user=per_user)

    def guarantee(self, *, n_arms: int, horizon: int) -> BanditGuarantee:
        return schedule_guarantee(self.privatizer, [1], delta=1e-6,
                                  notes="one independent Lap(1/ε) per arm per epoch",
                                  requested=self.requested)

    def epoch_lengths(self, *, n_arms: int, horizon: int) -> list[int]:
        """R_e of the epochs while every arm stays active, until K·Σ R_e reaches T.

        Eliminations only shorten later epochs' totals (the active set `S` shrinks), so this is
        the longest schedule; the pure ε of every epoch is the same.
        """
        failure_probability = radius_p(self.failure_probability, horizon)
        lengths, played = [], 0
        while played < horizon:
            length = dp_se_epoch_length(len(lengths) + 1, active_arms=n_arms,
                                        epsilon=self.epsilon,
                                        failure_probability=failure_probability)
            lengths.append(length)
            played += n_arms * length
        return lengths

    @renamed_parameters(actions="n_arms")
    def plan(self, *, horizon: int, n_arms: int | None = None,
             dimension: int | None = None) -> Any:
        """One schedule record per epoch (all K arms active: the longest schedule).

        >>> DPSE(0.5).plan(horizon=10 ** 5, n_arms=4).parameters["analyser_laplace_b"]
        2.0
        """
        sizes = instance_sizes("multi-armed", n_arms=n_arms, dimension=dimension)
        horizon = check_positive_int(horizon, "horizon")
        k = sizes["n_arms"] or 2
        lengths = self.epoch_lengths(n_arms=k, horizon=horizon)
        parameters = {"privatizer": self.privatizer.name,
                      "failure_probability_p": radius_p(self.failure_probability,
                                                                horizon),
                      "epochs_at_most": len(lengths),
                      **self.privatizer.deployment(1)}
        parameters.pop("users_n")
        return batch_plan(name=self.name, mode=self.mode, model="central", horizon=horizon,
                          n_arms=sizes["n_arms"], requested=self.requested,
                          guarantee=self.guarantee(n_arms=k, horizon=horizon),
                          privatizer=self.privatizer, batch_sizes=lengths, parameters=parameters,
                          notes=["Sajed & Sheffet 2019 DP-SE (as in Chowdhury & Zhou 2023's code); epoch lengths "
                                 f"R_e with |S| = K = {k} (no elimination)"])


@dataclass
class DPSEPolicy:
    """One run of DP-SE: ``active`` is S, ``epoch`` is e, ``estimates`` the epoch's μ̃."""

    algorithm: DPSE
    n_arms: int
    horizon: int
    per_user: bool = False
    active: list[int] = field(init=False)
    epoch: int = field(init=False, default=0)
    length: int = field(init=False, default=0)
    estimates: dict[int, float] = field(init=False, default_factory=dict)
    #: (R_e, the privatizer's parameters) of every epoch started (the run's own record).
    deployments: list[dict[str, Any]] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        check_instance(self.algorithm, "algorithm", DPSE, "a DPSE")
        self.n_arms = check_arms(self.n_arms)
        self.horizon = check_positive_int(self.horizon, "horizon")
        self.per_user = check_flag(self.per_user, "per_user")
        self.failure_probability = radius_p(self.algorithm.failure_probability,
                                                    self.horizon)
        self.privatizer = self.algorithm.privatizer
        self.active = list(range(self.n_arms))
        self._queue: list[int] = []

    def next_batch(self) -> Batch:
        if not self._queue:
            if self.epoch:
                self._eliminate()
            self.epoch += 1
            self.length = dp_se_epoch_length(self.epoch, active_arms=len(self.active),
                                             epsilon=self.algorithm.epsilon,
                                             failure_probability=self.failure_probability)
            self.estimates = {}
            self.deployments.append({"batch_size": self.length,
                                     **self.privatizer.deployment(self.length)})
            self._queue = list(self.active)
        return Batch(self._queue[0], self.length)

    def update(self, batch: Batch, rewards: RewardBatch, *, rng: np.random.Generator) -> None:
        if not self._queue or batch.arm != self._queue[0]:
            raise value_error("batch", batch, "the batch next_batch() returned")
        noisy = self.privatizer.privatize_sum(rewards, rng=rng, per_user=self.per_user)
        self.estimates[batch.arm] = noisy / batch.size
        self._queue.pop(0)

    def _eliminate(self) -> None:
        radius = dp_se_radius(self.epoch, self.length, active_arms=len(self.active),
                              epsilon=self.algorithm.epsilon,
                              failure_probability=self.failure_probability)
        best = max(self.estimates[a] for a in self.active)
        self.active = [a for a in self.active if not best - self.estimates[a] > 2 * radius]
