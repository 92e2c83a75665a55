"""Chowdhury & Zhou 2023, Algorithm 1: private batch-based successive arm elimination (with forgetting).

Batch b = 1, 2, … has size ``l(b) = base^b`` (the paper's
``2^b``; Remark 4 allows ``η^b``; the reference code uses 4^b — hence
``batch_base``, default 2). In batch b every active arm a ∈ Φ(b) is pulled
``l(b)`` times in a row by fresh users; the privatizer's analyser returns
``R_a(b)``, the estimate is ``μ̂_a(b) = R_a(b)/l(b)`` from **this batch only**
(forgetting), and after all active arms

.. math:: Φ(b+1) = \\{a ∈ Φ(b) : μ̂_a(b) + β(b) >= \\max_{a′ ∈ Φ(b)} μ̂_{a′}(b) − β(b)\\}

with β(b) from Lemma 2 (:func:`~dpverify.bandits.mab._elimination.chowdhury_radius`)
and the privatizer's (σ, h) of Assumption 1. The run stops exactly at T
pulls; an unfinished batch is never aggregated (Alg. 1 l. 9).

Instantiations (names as in the paper and the CLI): :func:`dist_dp_se`
(Thm 1), :func:`dist_rdp_se` (Thm 2), :func:`dist_cdp_se` (Thm 4),
:func:`shuffle_dp_se` (Thm 3, simulated), :func:`cdp_se` (Thm 5),
:func:`ldp_se` (Thm 6) and the non-private :func:`successive_elimination`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from dpverify._deprecation import renamed_parameters, renamed_property
from dpverify._validation import (
    check_choice,
    check_delta,
    check_failure_probability,
    check_flag,
    check_has,
    check_instance,
    check_int_at_least,
    check_positive_int,
    check_text,
    value_error,
)
from dpverify.bandits._limits import check_arms
from dpverify.bandits._policy import BanditGuarantee, Batch, RewardBatch
from dpverify.bandits.mab._deployment import batch_plan, calibrated_privatizer
from dpverify.bandits.mab._elimination import (
    chowdhury_radius,
    geometric_batch_sizes,
    radius_p,
    schedule_guarantee,
    surviving_arms,
)
from dpverify.bandits.plan import MODES, DeploymentPlan, check_request, instance_sizes
from dpverify.bandits.privatizers import (
    CentralDiscreteLaplace,
    DiscreteGaussianSecureAggregation,
    LocalDiscreteLaplace,
    NonPrivate,
    PolyaSecureAggregation,
    PolyaShuffle,
    SkellamSecureAggregation,
)
from dpverify.guarantees import ApproxDP

__all__ = [
    "BatchedSuccessiveElimination",
    "BatchedEliminationPolicy",
    "successive_elimination",
    "dist_dp_se",
    "dist_rdp_se",
    "dist_cdp_se",
    "shuffle_dp_se",
    "cdp_se",
    "ldp_se",
]


@renamed_parameters(confidence="failure_probability")
@dataclass(frozen=True)
class BatchedSuccessiveElimination:
    """Chowdhury & Zhou 2023, Algorithm 1, with a given privatizer (a frozen, picklable configuration).

    Parameters
    ----------
    privatizer
        The batch privatizer (:mod:`dpverify.bandits.privatizers`).
    batch_base
        η in ``l(b) = η^b`` (default 2, Algorithm 1; the paper's experiments' code uses 4).
    failure_probability
        p in β(b), the probability that the radii fail, in (0, 1/2]; ``None`` is the
        theorems' ``p = 1/T`` (the experiments use 0.1).
    delta
        δ at which an RDP / zCDP guarantee is reported as (ε, δ).
    name
        Label in results and figures.
    mode, requested
        ``"paper"`` (default): the privatizer as given (the paper's constants);
        ``"sound"``: the privatizer's noise ε calibrated per horizon so that the
        total guarantee is within ``requested`` (:mod:`~dpverify.bandits.mab._deployment`).
        ``requested`` defaults to (privatizer ε, ``delta``).

    Examples
    --------
    >>> algorithm = dist_dp_se(0.5)
    >>> algorithm.guarantee(n_arms=10, horizon=10**6).per_batch
    PureDP(epsilon=0.5)
    >>> policy = algorithm.start(n_arms=3, horizon=100)
    >>> policy.next_batch()
    Batch(arm=0, size=2)
    """

    privatizer: Any
    batch_base: int = 2
    failure_probability: float | None = None
    delta: float = 1e-6
    name: str = "batched successive elimination"
    mode: str = "paper"
    requested: ApproxDP | None = None

    # the old spellings, read-only, for one release
    confidence = renamed_property("confidence", "failure_probability")

    def __post_init__(self) -> None:
        check_has(self.privatizer, "privatizer", ("guarantee", "estimate_error_law", "for_horizon"), "a privatizer (dpverify.bandits.privatizers)")
        check_text(self.name, "name")
        object.__setattr__(self, "batch_base", check_int_at_least(self.batch_base, "batch_base", 2))
        radius_p(self.failure_probability, 2)
        object.__setattr__(self, "delta", check_delta(self.delta, allow_zero=False))
        object.__setattr__(self, "mode", check_choice(self.mode, "mode", MODES))
        object.__setattr__(self, "requested", check_request(self.requested))
        epsilon = getattr(self.privatizer, "epsilon", None)
        if self.requested is None and epsilon is not None:
            object.__setattr__(self, "requested", ApproxDP(epsilon, self.delta))

    def start(self, *, n_arms: int, horizon: int, per_user: bool = False) -> BatchedEliminationPolicy:
        return BatchedEliminationPolicy(self, n_arms=n_arms, horizon=horizon, per_user=per_user)

    def batch_sizes(self, horizon: int) -> list[int]:
        """The sizes ``base^b <= T`` of the batches that can complete (and be aggregated)."""
        return geometric_batch_sizes(self.batch_base, horizon)

    def deployed_privatizer(self, horizon: int) -> Any:
        """The privatizer a run of horizon T uses (its p = 1/T; noise ε calibrated in sound mode)."""
        privatizer = self.privatizer.for_horizon(check_positive_int(horizon, "horizon"))
        if self.mode == "paper" or self.requested is None:
            return privatizer
        return calibrated_privatizer(privatizer, tuple(self.batch_sizes(horizon)), self.requested)

    def guarantee(self, *, n_arms: int, horizon: int) -> BanditGuarantee:
        return schedule_guarantee(self.deployed_privatizer(horizon), self.batch_sizes(horizon),
                                  delta=self.delta, requested=self.requested)

    @renamed_parameters(actions="n_arms")
    def plan(self, *, horizon: int, n_arms: int | None = None,
             dimension: int | None = None) -> DeploymentPlan:
        """Every parameter of a deployment at horizon T, one schedule record per batch size.

        >>> plan = dist_rdp_se(1.0, mode="sound").plan(horizon=10 ** 5, n_arms=10)
        >>> plan.claim_met, plan.guarantee.epsilon <= 1.0, plan.schedule[0]["precision_g"] >= 1
        (True, True, True)
        """
        sizes = instance_sizes("multi-armed", n_arms=n_arms, dimension=dimension)
        horizon = check_positive_int(horizon, "horizon")
        privatizer = self.deployed_privatizer(horizon)
        guarantee = self.guarantee(n_arms=sizes["n_arms"] or 1, horizon=horizon)
        batch_sizes = self.batch_sizes(horizon)
        parameters: dict[str, Any] = {
            "privatizer": privatizer.name, "batch_base_eta": self.batch_base,
            "batch_sizes_l": batch_sizes, "batches_per_arm_at_most": len(batch_sizes),
            "failure_probability_p": radius_p(self.failure_probability, horizon)}
        for key in ("epsilon", "scale_factor", "failure_probability", "tau_rule"):
            value = getattr(privatizer, key, None)
            if value is not None:
                renamed = key in ("epsilon", "failure_probability")
                parameters[f"noise_{key}" if renamed else key] = value
        notes = ["Chowdhury & Zhou 2023 Alg. 1 (batches l(b) = eta^b, forgetting)",
                 f"{self.mode} mode" + (": noise epsilon calibrated so the total meets the request"
                                        if self.mode == "sound" else ": the paper's constants")]
        return batch_plan(name=self.name, mode=self.mode, model=guarantee.model, horizon=horizon,
                          n_arms=sizes["n_arms"], requested=self.requested, guarantee=guarantee,
                          privatizer=privatizer, batch_sizes=batch_sizes, parameters=parameters,
                          notes=notes)


@dataclass
class BatchedEliminationPolicy:
    """One run of :class:`BatchedSuccessiveElimination` (mutable state; see the Policy protocol).

    ``active`` is Φ(b), ``batch_index`` is b, ``estimates`` the current
    batch's μ̂, ``radii`` the β(b) of every completed batch, ``deployments``
    the privatizer's parameters of every batch started (the run's own record,
    which a :meth:`BatchedSuccessiveElimination.plan` reproduces).
    """

    algorithm: BatchedSuccessiveElimination
    n_arms: int
    horizon: int
    per_user: bool = False
    active: list[int] = field(init=False)
    batch_index: int = field(init=False, default=0)
    estimates: dict[int, float] = field(init=False, default_factory=dict)
    radii: list[float] = field(init=False, default_factory=list)
    deployments: list[dict[str, Any]] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        check_instance(self.algorithm, "algorithm", BatchedSuccessiveElimination,
                       "a BatchedSuccessiveElimination")
        self.n_arms = check_arms(self.n_arms)
        self.horizon = check_positive_int(self.horizon, "horizon")
        self.per_user = check_flag(self.per_user, "per_user")
        self.privatizer = self.algorithm.deployed_privatizer(self.horizon)
        self.failure_probability = radius_p(self.algorithm.failure_probability,
                                                    self.horizon)
        self.active = list(range(self.n_arms))
        self._queue: list[int] = []

    @property
    def batch_size(self) -> int:
        return self.algorithm.batch_base ** self.batch_index

    def next_batch(self) -> Batch:
        if not self._queue:
            if self.batch_index:
                self._eliminate()
            self.batch_index += 1
            self.deployments.append(self.privatizer.deployment(self.batch_size))
            self.estimates = {}
            self._queue = list(self.active)
        return Batch(self._queue[0], self.batch_size)

    def update(self, batch: Batch, rewards: RewardBatch, *, rng: np.random.Generator) -> None:
        if not self._queue or batch.arm != self._queue[0] or batch.size != self.batch_size:
            raise value_error("batch", batch, "the batch next_batch() returned")
        total = self.privatizer.privatize_sum(rewards, rng=rng, per_user=self.per_user)
        self.estimates[batch.arm] = total / batch.size
        self._queue.pop(0)

    def _eliminate(self) -> None:
        """Alg. 1 l. 16 with β(b) of Lemma 2 (|Φ(b)| counted before the update, as in Lemma 2)."""
        size = self.batch_size
        radius = chowdhury_radius(size, active_arms=len(self.active), batch_index=self.batch_index,
                                  failure_probability=self.failure_probability,
                                  error_law=self.privatizer.estimate_error_law(size))
        self.radii.append(radius)
        self.active = surviving_arms(self.active, self.estimates, radius)


def _named(privatizer: Any, name: str, **options: Any) -> BatchedSuccessiveElimination:
    return BatchedSuccessiveElimination(privatizer, name=name, **options)


def _noise_p(value: float | None) -> float | None:
    """A factory's ``noise_failure_probability``, checked under that name (None: 1/T later)."""
    return None if value is None else check_failure_probability(value,
                                                                "noise_failure_probability")


def successive_elimination(**options: Any) -> BatchedSuccessiveElimination:
    """Non-private Algorithm 1 (exact batch sums; σ = h = 0 in β(b)).

    >>> successive_elimination().guarantee(n_arms=2, horizon=100).model
    'none'
    """
    return _named(NonPrivate(), "SE (non-private)", **options)


@renamed_parameters(tail_probability="noise_failure_probability")
def dist_dp_se(epsilon: float, *, noise_failure_probability: float | None = None,
               **options: Any) -> BatchedSuccessiveElimination:
    """Dist-DP-SE: Algorithm 1 + Pólya noise + secure aggregation (Chowdhury & Zhou 2023, Thm 1); pure ε-DP.

    ``noise_failure_probability``: the privatizer's p (None: 1/T); ``options`` (e.g. the
    radii's ``failure_probability``) go to :class:`BatchedSuccessiveElimination`.
    """
    privatizer = PolyaSecureAggregation(epsilon, _noise_p(noise_failure_probability))
    return _named(privatizer, "Dist-DP-SE", **options)


@renamed_parameters(tail_probability="noise_failure_probability")
def dist_rdp_se(epsilon: float, *, scale_factor: float = 10.0,
                noise_failure_probability: float | None = None, tau_rule: str = "paper",
                **options: Any) -> BatchedSuccessiveElimination:
    """Dist-RDP-SE: Algorithm 1 + Skellam noise + secure aggregation (Chowdhury & Zhou 2023, Thm 2); RDP.

    ``noise_failure_probability``: the privatizer's p (None: 1/T); ``options`` (e.g. the
    radii's ``failure_probability``) go to :class:`BatchedSuccessiveElimination`.
    """
    privatizer = SkellamSecureAggregation(epsilon, scale_factor,
                                          _noise_p(noise_failure_probability), tau_rule)
    return _named(privatizer, f"Dist-RDP-SE (s={scale_factor:g})", **options)


@renamed_parameters(tail_probability="noise_failure_probability")
def dist_cdp_se(epsilon: float, *, scale_factor: float = 10.0,
                noise_failure_probability: float | None = None,
                **options: Any) -> BatchedSuccessiveElimination:
    """Dist-CDP-SE: Algorithm 1 + discrete Gaussian noise + secure aggregation (Chowdhury & Zhou 2023, Thm 4).

    ``noise_failure_probability``: the privatizer's p (None: 1/T); ``options`` (e.g. the
    radii's ``failure_probability``) go to :class:`BatchedSuccessiveElimination`.
    """
    privatizer = DiscreteGaussianSecureAggregation(epsilon, scale_factor,
                                                   _noise_p(noise_failure_probability))
    return _named(privatizer, f"Dist-CDP-SE (s={scale_factor:g})", **options)


@renamed_parameters(tail_probability="noise_failure_probability")
def shuffle_dp_se(epsilon: float, *, noise_failure_probability: float | None = None,
                  **options: Any) -> BatchedSuccessiveElimination:
    """Algorithm 1 over a relaxed SecAgg simulated by shuffling (Chowdhury & Zhou 2023, Thm 3; simulation).

    ``noise_failure_probability``: the privatizer's p (None: 1/T); ``options`` (e.g. the
    radii's ``failure_probability``) go to :class:`BatchedSuccessiveElimination`.
    """
    privatizer = PolyaShuffle(epsilon, _noise_p(noise_failure_probability))
    return _named(privatizer, "Shuffle-DP-SE (simulated)", **options)


@renamed_parameters(tail_probability="noise_failure_probability")
def cdp_se(epsilon: float, *, noise_failure_probability: float | None = None,
           **options: Any) -> BatchedSuccessiveElimination:
    """CDP-SE: Algorithm 1, central discrete Laplace noise added by the analyser (Chowdhury & Zhou 2023, Thm 5).

    ``noise_failure_probability``: the privatizer's p (None: 1/T); ``options`` (e.g. the
    radii's ``failure_probability``) go to :class:`BatchedSuccessiveElimination`.
    """
    privatizer = CentralDiscreteLaplace(epsilon, _noise_p(noise_failure_probability))
    return _named(privatizer, "CDP-SE", **options)


@renamed_parameters(tail_probability="noise_failure_probability")
def ldp_se(epsilon: float, *, noise_failure_probability: float | None = None,
           **options: Any) -> BatchedSuccessiveElimination:
    """LDP-SE: Algorithm 1, local discrete Laplace noise on every message (Chowdhury & Zhou 2023, Thm 6).

    ``noise_failure_probability``: the privatizer's p (None: 1/T); ``options`` (e.g. the
    radii's ``failure_probability``) go to :class:`BatchedSuccessiveElimination`.
    """
    privatizer = LocalDiscreteLaplace(epsilon, _noise_p(noise_failure_probability))
    return _named(privatizer, "LDP-SE", **options)

