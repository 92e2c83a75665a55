"""Tenenbaum et al. 2021: SDP-AE (Alg. 1) and VB-SDP-AE (Alg. 2), arm elimination in the shuffle model.

Phase t = 1, 2, …: every viable arm a ∈ V is pulled by a
batch of fresh users — ``m`` of them (SDP-AE) or ``m^t = 2^t`` (VB-SDP-AE,
t from 1, so the first batch has 2 users) — whose rewards go through the shuffle-model
``M_sum``; **all** past data are kept (no forgetting):

.. math::

    \\hat S^t_a = \\hat S^{t-1}_a + Z^t_a,\\quad N^t_a = N^{t-1}_a + m^t,\\quad
    \\hat μ^t_a = \\hat S^t_a / N^t_a,\\quad
    I^t_a = \\Big(\\frac{2\\sqrt t σ_{ε,δ}}{N^t_a} + \\frac{1}{\\sqrt{N^t_a}}\\Big)\\sqrt{2\\log T}

At the end of the phase every a with ``μ̂_a + I_a < max_{a′ ∈ V}(μ̂_{a′} − I_{a′})``
is removed (strict; Alg. 2 l. 16's "a′ ∈ S" is a typo for V). The run exits
exactly at T pulls (Alg. 1 l. 8, Alg. 2 l. 10): the
simulator stops inside the last batch and no M_sum is run for it.

σ_{ε,δ} is not a free constant: each call's error variance proxy comes from
the chosen M_sum (:class:`~dpverify.bandits.privatizers.ShuffledNoisyBits` by
default, :class:`~dpverify.bandits.privatizers.ShuffledRandomizedResponse` as
the alternative reading), and ``√t σ`` is ``√(Σ_j σ_j²)`` over the actual calls.

SDP-AE's batch size defaults to Cor. 3.2's ``m = ⌈σ²_{ε,δ}⌉`` (the reading
the regret derivation needs: Cor. 3.2 prints ``⌈σ⌉`` but uses ``m = Θ(log(1/δ)/ε²) = Θ(σ²)``;
``batch_reading="printed"`` gives ⌈σ⌉). Rewards must be binary (Bernoulli instances; §2.2).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from dpverify._deprecation import renamed_parameters
from dpverify._validation import (
    check_choice,
    check_delta,
    check_flag,
    check_has,
    check_instance,
    check_positive_int,
    check_text,
    value_error,
)
from dpverify.accountants.shuffle_papers import (
    TENENBAUM_BATCH_READINGS,
    tenenbaum_batch_size,
    tenenbaum_msum_sigma,
)
from dpverify.bandits._limits import check_arms
from dpverify.bandits._policy import BanditGuarantee, Batch, RewardBatch
from dpverify.bandits.mab._deployment import batch_plan
from dpverify.bandits.mab._elimination import (
    geometric_batch_sizes,
    schedule_guarantee,
    surviving_arms,
    tenenbaum_width,
)
from dpverify.bandits.plan import MODES, DeploymentPlan, check_request, instance_sizes
from dpverify.bandits.privatizers import NonPrivate, ShuffledNoisyBits, ShuffledRandomizedResponse
from dpverify.guarantees import ApproxDP, PureDP

__all__ = [
    "ShuffleArmElimination",
    "ShuffleEliminationPolicy",
    "sdp_ae",
    "vb_sdp_ae",
    "arm_elimination",
    "MSUM_PROTOCOLS",
]

#: Readings of Tenenbaum et al.'s M_sum (their Appendix C was not available): see :mod:`dpverify.bandits.privatizers`.
MSUM_PROTOCOLS = ("noise-bits", "randomized-response")


@dataclass(frozen=True)
class ShuffleArmElimination:
    """Tenenbaum et al. 2021's arm elimination: batch size ``batch_size`` (SDP-AE) or ``2^t`` (``None``: VB-SDP-AE).

    Examples
    --------
    >>> algorithm = arm_elimination()
    >>> policy = algorithm.start(n_arms=2, horizon=100)
    >>> [policy.next_batch().size for _ in range(1)]
    [2]
    """

    privatizer: Any
    batch_size: int | None = None
    name: str = "arm elimination"
    requested: ApproxDP | None = None
    mode: str = "paper"
    #: δ at which a per-batch RDP / zCDP guarantee (Chowdhury & Zhou 2023's Skellam and discrete-Gaussian
    #: secure aggregation) is reported as (ε, δ); an M_sum with a ``delta`` field uses its own.
    delta: float = 1e-6

    def __post_init__(self) -> None:
        check_has(self.privatizer, "privatizer", ("guarantee", "estimate_error_law", "for_horizon"), "a privatizer (dpverify.bandits.privatizers)")
        check_text(self.name, "name")
        if self.batch_size is not None:
            object.__setattr__(self, "batch_size", check_positive_int(self.batch_size, "batch_size"))
        object.__setattr__(self, "mode", check_choice(self.mode, "mode", MODES))
        object.__setattr__(self, "delta", check_delta(self.delta, allow_zero=False))
        object.__setattr__(self, "requested", check_request(self.requested))
        epsilon = getattr(self.privatizer, "epsilon", None)
        if self.requested is None and epsilon is not None:
            # the request is the privatizer's own (ε, δ): δ = 0 only for a pure per-batch
            # guarantee (CentralLaplace, Pólya secure aggregation); an RDP / zCDP one (Skellam,
            # discrete Gaussian) is (ε, δ)-DP at δ > 0 only, and is requested at `delta`
            delta = getattr(self.privatizer, "delta", None)
            if delta is None:
                delta = 0.0 if _is_pure(self.privatizer) else self.delta
            object.__setattr__(self, "requested", ApproxDP(epsilon, delta))

    @property
    def report_delta(self) -> float:
        """δ of the reported (ε, δ) form: the M_sum's own ``delta``, else :attr:`delta`."""
        return getattr(self.privatizer, "delta", None) or self.delta

    def deployed_privatizer(self, horizon: int) -> Any:
        """The privatizer a run of horizon T uses (secure aggregation: tail probability p = 1/T)."""
        return self.privatizer.for_horizon(check_positive_int(horizon, "horizon"))

    @property
    def variable_batches(self) -> bool:
        return self.batch_size is None

    def phase_batch_size(self, phase: int) -> int:
        """``m`` (SDP-AE) or ``m^t = 2^t`` (VB-SDP-AE)."""
        return 2 ** phase if self.batch_size is None else self.batch_size

    def start(self, *, n_arms: int, horizon: int, per_user: bool = False) -> ShuffleEliminationPolicy:
        law = self.deployed_privatizer(horizon).estimate_error_law(self.phase_batch_size(1))
        if law.sub_gaussian_variance is None:
            raise value_error("privatizer", getattr(self.privatizer, "name", self.privatizer),
                              "an M_sum whose error is sub-Gaussian (ShuffledNoisyBits, "
                              "ShuffledRandomizedResponse, NonPrivate)",
                              "the widths of Tenenbaum et al. 2021 need its variance proxy σ²; run "
                              "Chowdhury & Zhou's "
                              "privatizers with BatchedSuccessiveElimination")
        return ShuffleEliminationPolicy(self, n_arms=n_arms, horizon=horizon, per_user=per_user)

    def batch_sizes(self, horizon: int) -> list[int]:
        if self.batch_size is None:
            return geometric_batch_sizes(2, horizon)
        return [min(self.batch_size, check_positive_int(horizon, "horizon"))]

    def guarantee(self, *, n_arms: int, horizon: int) -> BanditGuarantee:
        return schedule_guarantee(self.deployed_privatizer(horizon), self.batch_sizes(horizon),
                                  delta=self.report_delta,
                                  notes=f"per batch: the guarantee of {self.privatizer.name}",
                                  requested=self.requested)

    @renamed_parameters(actions="n_arms")
    def plan(self, *, horizon: int, n_arms: int | None = None,
             dimension: int | None = None) -> DeploymentPlan:
        """One schedule record per batch size (m, or 2^t), read from the M_sum the run uses.

        The noise is calibrated exactly in both modes (N the smallest number of
        coins whose binomial noise is (ε, δ)-DP; p the smallest randomization probability
        whose exact shuffled δ meets the target), so the modes coincide.

        >>> plan = sdp_ae(1.0, 1e-6).plan(horizon=10 ** 5, n_arms=5)
        >>> plan.parameters["noise_bits_N"], plan.claim_met
        (80, True)
        """
        sizes = instance_sizes("multi-armed", n_arms=n_arms, dimension=dimension)
        horizon = check_positive_int(horizon, "horizon")
        batch_sizes = self.batch_sizes(horizon)
        parameters: dict[str, Any] = {"privatizer": self.privatizer.name,
                                      "batch_sizes_m": batch_sizes,
                                      "fixed_batch_size_m": self.batch_size}
        for key, name in (("total_noise_bits", "noise_bits_N"), ("sigma", "sigma_eps_delta")):
            if hasattr(self.privatizer, key):
                parameters[name] = getattr(self.privatizer, key)
        return batch_plan(name=self.name, mode=self.mode, model=self.privatizer.model,
                          horizon=horizon, n_arms=sizes["n_arms"], requested=self.requested,
                          guarantee=self.guarantee(n_arms=sizes["n_arms"] or 1, horizon=horizon),
                          privatizer=self.deployed_privatizer(horizon), batch_sizes=batch_sizes,
                          parameters=parameters, calibration="exact",
                          notes=["Tenenbaum et al. 2021 " + ("VB-SDP-AE (Alg. 2), batches 2^t"
                                                      if self.batch_size is None else
                                                      "SDP-AE (Alg. 1), fixed batches m"),
                                 "M_sum noise calibrated exactly (binomial-noise delta / exact "
                                 "shuffled randomized response)"])


@dataclass
class ShuffleEliminationPolicy:
    """One run of :class:`ShuffleArmElimination`: sums ``Ŝ``, pulls ``N``, error variances ``V``."""

    algorithm: ShuffleArmElimination
    n_arms: int
    horizon: int
    per_user: bool = False
    active: list[int] = field(init=False)
    phase: int = field(init=False, default=0)
    sums: dict[int, float] = field(init=False, default_factory=dict)
    pulls: dict[int, int] = field(init=False, default_factory=dict)
    error_variances: dict[int, float] = field(init=False, default_factory=dict)
    #: The M_sum's parameters of every batch size the run starts (its own record).
    deployments: list[dict[str, Any]] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        check_instance(self.algorithm, "algorithm", ShuffleArmElimination,
                       "a ShuffleArmElimination")
        self.n_arms = check_arms(self.n_arms)
        self.horizon = check_positive_int(self.horizon, "horizon")
        self.per_user = check_flag(self.per_user, "per_user")
        self.active = list(range(self.n_arms))
        self.sums = {a: 0.0 for a in self.active}
        self.pulls = {a: 0 for a in self.active}
        self.error_variances = {a: 0.0 for a in self.active}
        self._queue: list[int] = []
        self._privatizer = self.algorithm.deployed_privatizer(self.horizon)

    def next_batch(self) -> Batch:
        if not self._queue:
            if self.phase:
                self._eliminate()
            self.phase += 1
            size = self.algorithm.phase_batch_size(self.phase)
            if not self.deployments or self.deployments[-1]["users_n"] != size:  # new sizes only
                self.deployments.append(self._privatizer.deployment(size))
            self._queue = list(self.active)
        return Batch(self._queue[0], self.algorithm.phase_batch_size(self.phase))

    def update(self, batch: Batch, rewards: RewardBatch, *, rng: np.random.Generator) -> None:
        if not self._queue or batch.arm != self._queue[0]:
            raise value_error("batch", batch, "the batch next_batch() returned")
        privatizer = self._privatizer
        self.sums[batch.arm] += privatizer.privatize_sum(rewards, rng=rng, per_user=self.per_user)
        self.pulls[batch.arm] += batch.size
        law = privatizer.estimate_error_law(batch.size)
        self.error_variances[batch.arm] += law.sub_gaussian_variance
        self._queue.pop(0)

    def widths(self) -> dict[int, float]:
        """``I^t_a`` of every viable arm."""
        return {a: tenenbaum_width(self.pulls[a], error_variance=self.error_variances[a],
                                   horizon=max(self.horizon, 2)) for a in self.active}

    def means(self) -> dict[int, float]:
        return {a: self.sums[a] / self.pulls[a] for a in self.active}

    def _eliminate(self) -> None:
        self.active = surviving_arms(self.active, self.means(), self.widths())


def _is_pure(privatizer: Any) -> bool:
    """Whether ``privatizer``'s per-batch guarantee is pure ε-DP (its type does not depend on n or p)."""
    return isinstance(privatizer.for_horizon(2).guarantee(1), PureDP)


def _msum(epsilon: float, delta: float, protocol: str) -> Any:
    protocol = check_choice(protocol, "protocol", MSUM_PROTOCOLS)
    if protocol == "noise-bits":
        return ShuffledNoisyBits(epsilon, delta)
    return ShuffledRandomizedResponse(epsilon, delta)


def sdp_ae(epsilon: float, delta: float, *, batch_size: int | None = None,
           protocol: str = "noise-bits", batch_reading: str = "squared",
           **options: Any) -> ShuffleArmElimination:
    """SDP-AE (Tenenbaum et al. 2021, Alg. 1); ``batch_size=None``: Cor. 3.2's m = ⌈σ²⌉ (or ⌈σ⌉, "printed").

    σ is that of the chosen M_sum (:func:`~dpverify.accountants.shuffle_papers.tenenbaum_msum_sigma`).
    """
    privatizer = _msum(epsilon, delta, protocol)
    check_choice(batch_reading, "batch_reading", TENENBAUM_BATCH_READINGS)
    if batch_size is None:
        if protocol != "noise-bits":
            raise value_error("batch_size", None, "given for the randomized-response M_sum",
                              "its σ depends on the batch size")
        sigma = tenenbaum_msum_sigma(epsilon, delta)
        batch_size = tenenbaum_batch_size(sigma, reading=batch_reading)
    return ShuffleArmElimination(privatizer, batch_size, name="SDP-AE", **options)


def vb_sdp_ae(epsilon: float, delta: float, *, protocol: str = "noise-bits",
              **options: Any) -> ShuffleArmElimination:
    """VB-SDP-AE (Tenenbaum et al. 2021, Alg. 2): batch sizes 2^t, all data kept."""
    return ShuffleArmElimination(_msum(epsilon, delta, protocol), None, name="VB-SDP-AE", **options)


def arm_elimination(batch_size: int | None = None, **options: Any) -> ShuffleArmElimination:
    """Non-private batched arm elimination (σ = 0): fixed batches, or doubling ones (``None``)."""
    return ShuffleArmElimination(NonPrivate(), batch_size, name="AE (non-private)", **options)
