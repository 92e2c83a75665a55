"""Hanna et al. 2022: private stochastic linear bandits by batched phased elimination on core sets.

Batch i = 1, …, M (Alg. 1–3): on the active set 𝒜_i, compute a
near-G-optimal design π_i (:func:`~dpverify.bandits.design.g_optimal_design`,
g <= 2m in span(𝒜_i), m = its dimension) with core set C_i = supp π_i; pull
every a ∈ C_i ``n_ia = ⌈π_i(a) q^i⌉`` times (fresh users), privatize each
action's reward sum (the privatizer, never the algorithm, adds noise),
estimate ``θ̂_i = V_i^{-1} Σ_a r̂_ia a`` with ``V_i = Σ_a n_ia a aᵀ``, and keep

.. math:: 𝒜_{i+1} = \\{a ∈ 𝒜_i : ⟨a, θ̂_i⟩ >= \\max_{b ∈ 𝒜_i} ⟨b, θ̂_i⟩ − 2γ_i\\}.

After batch M play ``argmax_{a ∈ 𝒜_{M+1}} ⟨a, θ̂_M⟩`` until T. Choices
(where the paper is ambiguous): ``q = (2T)^{1/ln T}`` (natural log: only then
e <= q <= e²); **M = ⌊ln T⌋ − 1** ("ln T − 1" is not an integer: rounded down; the simulator also
truncates at T); 𝒜_1 = 𝒜 for a finite action set (a (1/T)-net of size (3T)^d
is not computable; ζ-nets for
continuous sets are in :mod:`dpverify.bandits.design`); ``|𝒜_i|`` in L (as in
the algorithms; Lemmas 3/5 use ``K = |𝒜_1|``); ``|C_i|`` in place of "Bd" (the
number of Laplace terms; "B" is not a constant); max over 𝒜_i (Alg. 1 l. 10
and Alg. 3 write max over 𝒜, the proofs use 𝒜_i). With L = log(4|𝒜_i|T²),
c = 2m/q^i:

============== ================================================ ==========================================
privatizer     ``mode="paper"`` γ_i (as printed)                  ``mode="sound"`` γ_i
============== ================================================ ==========================================
none           √(4mL/q^i)                                       same
central        √(4mL/q^i) + (2|C_i|m + 2mL)/(ε q^i)              √(4mL/q^i) + ``W(|C_i|, c, 2/ε, L)``
local          √(4mL/q^i) + (2m/(q^i ε0))√(n_i L)               √(4mL/q^i) + W(n_i, c, 2/ε0, L)
shuffled       as local with ε0^{(i)}                           as local with ε0^{(i)}
============== ================================================ ==========================================

W is :func:`~dpverify.bandits.linear.privatizers.laplace_sum_width` (a correct
Laplace-sum tail bound; the MGF step of the paper's Lemma 4 is false). Paper mode adds
``Lap(1/ε)`` to sums of rewards in [−1, 1] (really 2ε-DP, the sensitivity is 2; the reported
guarantee says so); sound mode adds ``Lap(2/ε)``.

**No core set** (Fig. 3(b)): ``core_set=False`` uses Frank–Wolfe from the
uniform design without pruning, so every active action is in the "core set"
(``|C_i| = |𝒜_i|``, the paper's uniform π_0).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpverify._deprecation import renamed_parameters
from dpverify._validation import (
    check_choice,
    check_delta,
    check_epsilon,
    check_flag,
    check_instance,
    check_positive_int,
    check_text,
    value_error,
)
from dpverify.bandits._policy import BanditGuarantee
from dpverify.bandits.design import Design
from dpverify.bandits.linear._deployment import hanna_plan, linear_plan
from dpverify.bandits.linear._phases import PhasedPolicy, least_squares
from dpverify.bandits.linear._schedules import batch_base, batch_count, nominal_batch_sizes
from dpverify.bandits.linear.privatizers import (
    MODES,
    LaplaceSum,
    LocalLaplaceSum,
    ShuffledLaplaceSum,
    laplace_sum_width,
)
from dpverify.bandits.privatizers import as_approx_dp, worst_case_guarantee
from dpverify.guarantees import ApproxDP

__all__ = [
    "HANNA_MODELS",
    "PhasedElimination",
    "PhasedEliminationPolicy",
    "batch_base",
    "batch_count",
    "batch_pulls",
    "hanna_width",
]

#: Trust models of :class:`PhasedElimination`.
HANNA_MODELS = ("none", "central", "local", "shuffle")


@renamed_parameters(weights="probabilities", batch="batch_index", base="batch_base")
def batch_pulls(probabilities: Any, batch_base: float, batch_index: int) -> NDArray[np.int64]:
    """``n_ia = ⌈π_i(a) q^i⌉`` for the support weights (every core action pulled at least once).

    >>> batch_pulls([0.5, 0.5], 2.0, 3).tolist()
    [4, 4]
    """
    pi = np.asarray(probabilities, dtype=float)
    return np.ceil(pi * batch_base ** batch_index - 1e-9).astype(np.int64).clip(min=1)


@renamed_parameters(batch="batch_index", base="batch_base")
def hanna_width(model: str, mode: str, *, dimension: int, batch_base: float, batch_index: int,
                active: int, horizon: int, action_sizes: Any, epsilon: float | None) -> float:
    """γ_i of the table in the module docstring (``epsilon`` is ε, ε0 or ε0^{(i)}).

    >>> round(hanna_width("none", "paper", dimension=2, batch_base=2.8581, batch_index=1, active=10,
    ...                   horizon=10 ** 6, action_sizes=[2, 2], epsilon=None), 4)
    9.363
    """
    model = check_choice(model, "model", HANNA_MODELS)
    mode = check_choice(mode, "mode", MODES)
    m, scale_i = dimension, batch_base ** batch_index
    L = math.log(4 * active * horizon ** 2)
    width = math.sqrt(4 * m * L / scale_i)
    if model == "none":
        return width
    epsilon = check_epsilon(epsilon, allow_zero=False)
    sizes = np.asarray(action_sizes)
    c = 2 * m / scale_i
    if model == "central":
        if mode == "paper":
            return width + (2 * sizes.size * m + 2 * m * L) / (epsilon * scale_i)
        return width + laplace_sum_width(sizes.size, c, 2 / epsilon, L)
    n_i = int(sizes.sum())
    if mode == "paper":
        return width + (2 * m / (scale_i * epsilon)) * math.sqrt(n_i * L)
    return width + laplace_sum_width(n_i, c, 2 / epsilon, L)


@dataclass(frozen=True)
class PhasedElimination:
    """Hanna et al. 2022, Alg. 1 (central), 2 (local), 3 (shuffled), or the non-private batched elimination.

    Parameters
    ----------
    model
        ``"central"``, ``"local"``, ``"shuffle"`` or ``"none"``.
    epsilon, delta
        ε (central, shuffled), ε0 (local); δ of Alg. 3.
    mode
        ``"paper"`` or ``"sound"`` (module docstring).
    core_set
        ``False``: Fig. 3(b)'s "no core set" variant.

    >>> algorithm = PhasedElimination("central", 1.0)
    >>> algorithm.guarantee(n_arms=10, horizon=10 ** 6).approx_dp  # paper mode: really 2ε
    ApproxDP(epsilon=2.0, delta=0.0)
    """

    model: str
    epsilon: float | None = None
    delta: float = 1e-6
    mode: str = "paper"
    core_set: bool = True
    name: str = ""
    needs_environment = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "model", check_choice(self.model, "model", HANNA_MODELS))
        object.__setattr__(self, "mode", check_choice(self.mode, "mode", MODES))
        if self.model != "none":
            object.__setattr__(self, "epsilon", check_epsilon(self.epsilon, allow_zero=False))
        if self.model == "shuffle":
            object.__setattr__(self, "delta", check_delta(self.delta, allow_zero=False))
        elif self.delta is not None:
            check_delta(self.delta)
        check_flag(self.core_set, "core_set")
        check_text(self.name, "name")
        if not self.name:
            label = {"none": "non-private", "central": "Alg. 1 central", "local": "Alg. 2 local",
                     "shuffle": "Alg. 3 shuffled"}[self.model]
            suffix = "" if self.core_set else ", no core set"
            object.__setattr__(self, "name", f"hanna {label} ({self.mode}{suffix})")

    @property
    def privatizer(self) -> Any:
        if self.model == "central":
            return LaplaceSum(self.epsilon, self.mode)
        if self.model == "local":
            return LocalLaplaceSum(self.epsilon, self.mode)
        if self.model == "shuffle":
            return ShuffledLaplaceSum(self.epsilon, self.delta, self.mode)
        return None

    def start(self, *, n_arms: int, horizon: int, per_user: bool = False,
              environment: Any = None) -> PhasedEliminationPolicy:
        if environment is None or not hasattr(environment, "actions"):
            raise value_error("environment", environment, "a linear environment with actions")
        return PhasedEliminationPolicy(self, environment.actions, check_positive_int(
            horizon, "horizon"), per_user=per_user)

    def guarantee(self, *, n_arms: int, horizon: int) -> BanditGuarantee:
        """True guarantee of the noise added (parallel composition: each user in one batch).

        Shuffled: batch i has n_i = Σ_a ⌈π_i(a) q^i⌉ clients, between the
        nominal N_i = ⌈q^i⌉ and ``N_i + |C_i| − 1 <= N_i + K − 1``. Paper mode
        chooses ε0^{(i)} for the actual n_i (as printed), so each batch is
        bounded by amplification at N_i of the ε0 chosen for N_i + K − 1
        (:meth:`ShuffledLaplaceSum.guarantee`); sound mode chooses ε0^{(i)}
        for N_i, so amplification at N_i covers the batch exactly as claimed.
        Worst case over the batches.
        """
        privatizer = self.privatizer
        if privatizer is None:
            return BanditGuarantee("none", None, None, None, "non-private")
        if self.model == "shuffle":
            n_arms = check_positive_int(n_arms, "n_arms")
            extra = n_arms - 1 if self.mode == "paper" else 0
            per_batch = worst_case_guarantee([privatizer.guarantee(n, local_users=n + extra)
                                              for n in nominal_batch_sizes(horizon)])
        else:
            per_batch = privatizer.guarantee(1)
        approx = as_approx_dp(per_batch, delta=self.delta)
        claim = privatizer.claimed
        note = f"{self.mode} mode; claimed {claim}"
        if approx.epsilon > claim.epsilon * (1 + 1e-12):
            note += (f"; the claim does NOT hold: rewards in [-1, 1] have sensitivity 2, "
                     f"the noise gives {per_batch} (Hanna et al. 2022, Eq. (12), takes 1)")
        return BanditGuarantee(privatizer.model, per_batch, per_batch, approx, note,
                               requested=ApproxDP(self.epsilon, self.delta))

    @renamed_parameters(actions="n_arms")
    def plan(self, *, horizon: int, n_arms: int | None = None,
             dimension: int | None = None) -> Any:
        """Every deployment parameter from (d, k, T) alone (no environment): one record per batch.

        See :mod:`dpverify.bandits.linear._deployment`.
        """
        return linear_plan(self, hanna_plan, horizon=horizon, n_arms=n_arms, dimension=dimension)


class PhasedEliminationPolicy(PhasedPolicy):
    """One run of :class:`PhasedElimination`."""

    def __init__(self, algorithm: PhasedElimination, actions: NDArray[np.float64], horizon: int,
                 *, per_user: bool) -> None:
        check_instance(algorithm, "algorithm", PhasedElimination, "a PhasedElimination")
        super().__init__(actions, horizon, per_user=per_user,
                         design_start="sparse" if algorithm.core_set else "uniform",
                         prune=algorithm.core_set)
        self.algorithm = algorithm
        self.base = batch_base(horizon)
        self.batches = batch_count(horizon)
        self.batch_privatizer: Any = None
        #: Per batch: users, core-set size, ε (or ε0^{(i)}) and Laplace scale (the run's record).
        self.deployments: list[dict[str, Any]] = []

    def _plan(self, phase: int, design: Design) -> NDArray[np.int64] | None:
        if phase > self.batches:
            return None
        counts = batch_pulls(design.probabilities[design.support], self.base, phase)
        privatizer = self.algorithm.privatizer
        # ε0^{(i)} for the batch's clients: the actual n_i as printed (paper), the nominal
        # N_i = ⌈q^i⌉ <= n_i in sound mode (what its guarantee covers)
        users = int(counts.sum()) if self.algorithm.mode == "paper" else \
            max(1, math.ceil(self.base ** phase))
        self.batch_privatizer = None if privatizer is None else privatizer.for_batch(users)
        self.deployments.append({"batch": phase, "users": int(counts.sum()),
                                 "core_set_size": int(counts.size),
                                 "epsilon": None if privatizer is None else
                                 self.batch_privatizer.epsilon,
                                 "laplace_b": None if privatizer is None else
                                 self.batch_privatizer.scale})
        return counts

    def _finish(self, rng: np.random.Generator) -> tuple[NDArray[np.float64], float]:
        design, algorithm = self.design, self.algorithm
        sums = np.empty(self.support.size)
        for j, arm in enumerate(self.support):
            rewards = self.pending[int(arm)]
            sums[j] = float(rewards.total) if self.batch_privatizer is None else \
                self.batch_privatizer.privatize_sum(rewards, rng=rng, per_user=self.per_user)
        coordinates = self.actions[self.support] @ design.basis
        theta = least_squares(coordinates, self.counts, sums / self.counts)
        epsilon = None if self.batch_privatizer is None else self.batch_privatizer.epsilon
        width = hanna_width(algorithm.model, algorithm.mode, dimension=design.dimension,
                            batch_base=self.base, batch_index=self.phase, active=int(self.active.size),
                            horizon=self.horizon, action_sizes=self.counts, epsilon=epsilon)
        return theta, width

