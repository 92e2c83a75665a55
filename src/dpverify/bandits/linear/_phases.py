"""Shared machinery of the phased-elimination linear bandits: one phase = one design = batches.

A phase computes a design on the active actions (in their span), turns it
into :class:`~dpverify.bandits._policy.Batch` es (one per support point),
collects the rewards the simulator hands back, and, when the phase's last
batch is in, lets the algorithm estimate θ and eliminate. Subclasses fill in
:meth:`PhasedPolicy._plan` and :meth:`PhasedPolicy._finish`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from dpverify._validation import check_flag, check_real_array
from dpverify.bandits._limits import check_arms, check_horizon
from dpverify.bandits._policy import Batch, RewardBatch
from dpverify.bandits.design import Design, g_optimal_design

__all__ = ["PhasedPolicy", "least_squares", "eliminate"]


def least_squares(coordinates: NDArray[np.float64], counts: NDArray[np.int64],
                  responses: NDArray[np.float64]) -> NDArray[np.float64]:
    """``θ̂ = V^{-1} Σ_x c_x y_x r_x`` with ``V = Σ_x c_x y_x y_xᵀ`` (coordinates in the span).

    ``responses`` are per-action *averages* (DP-DPE's client averages; Hanna et al. 2022's
    privatised sums divided by the pull counts), weighted by ``counts``.

    >>> least_squares(np.eye(2), np.array([1, 1]), np.array([0.5, -0.5])).tolist()
    [0.5, -0.5]
    """
    weighted = coordinates * counts[:, None]
    matrix = weighted.T @ coordinates
    return np.linalg.solve(matrix, weighted.T @ responses)


def eliminate(scores: NDArray[np.float64], width: float) -> NDArray[np.bool_]:
    """Keep ``x`` with ``⟨x, θ̂⟩ >= max_b ⟨b, θ̂⟩ − 2·width`` (max over the active set, as Hanna et al. prove)."""
    return scores >= scores.max() - 2 * width


#: Largest T of a phased-elimination run (its rewards and designs are held per round).
MAX_LINEAR_HORIZON = 10**8


class PhasedPolicy:
    """One run of a phased elimination: active set, current phase's batches, rewards.

    Subclasses implement ``_plan(phase, design)`` → per-support-point pull
    counts (or ``None`` to stop exploring) and ``_finish(rewards, rng)`` →
    ``(theta_hat_in_span, width)``.
    """

    def __init__(self, actions: NDArray[np.float64], horizon: int, *, per_user: bool,
                 design_start: str = "sparse", prune: bool = True) -> None:
        actions = check_real_array(actions, "actions", ndim=2)
        check_arms(actions.shape[0], "actions (rows)")
        self.actions = actions
        self.horizon = check_horizon(horizon, maximum=MAX_LINEAR_HORIZON,
                                     instead="the linear policies' bookkeeping grows with T")
        self.per_user = check_flag(per_user, "per_user")
        self.design_start = design_start
        self.prune = prune
        self.active = np.arange(actions.shape[0])
        self.phase = 0
        self.played = 0
        self.queue: list[Batch] = []
        self.pending: dict[int, RewardBatch] = {}
        self.design: Design | None = None
        self.counts: NDArray[np.int64] | None = None
        self.support: NDArray[np.int64] | None = None
        self.exploit_arm: int | None = None
        self.last_scores: NDArray[np.float64] | None = None

    # ------------------------------------------------------------------ protocol
    def next_batch(self) -> Batch | None:
        if self.exploit_arm is not None:
            return Batch(self.exploit_arm, max(self.horizon - self.played, 1))
        if not self.queue:
            self._start_phase()
            if self.exploit_arm is not None:
                return Batch(self.exploit_arm, max(self.horizon - self.played, 1))
        return self.queue.pop(0)

    def update(self, batch: Batch, rewards: RewardBatch, *, rng: np.random.Generator) -> None:
        self.played += batch.size
        if self.exploit_arm is not None:
            return
        self.pending[batch.arm] = rewards
        if self.queue:
            return
        theta, width = self._finish(rng)
        coordinates = self.actions[self.active] @ self.design.basis
        scores = coordinates @ theta
        keep = eliminate(scores, width)
        self.active = self.active[keep]
        self.last_scores = scores[keep]
        self.pending = {}
        if self.active.size == 1:
            self.exploit_arm = int(self.active[0])

    # ------------------------------------------------------------------ phases
    def _start_phase(self) -> None:
        self.phase += 1
        if self.active.size == 1:
            self.exploit_arm = int(self.active[0])
            return
        design = g_optimal_design(self.actions[self.active], start=self.design_start,
                                  prune=self.prune)
        counts = self._plan(self.phase, design)
        if counts is None:
            self.exploit_arm = self._best_guess()
            return
        self.design = design
        self.support = self.active[design.support]
        self.counts = counts
        self.queue = [Batch(int(arm), int(n)) for arm, n in zip(self.support, counts)]

    def _best_guess(self) -> int:
        """The action to commit to when exploration ends (set by ``_finish``'s estimate)."""
        if self.last_scores is None:
            return int(self.active[0])
        return int(self.active[int(np.argmax(self.last_scores))])

    def _plan(self, phase: int, design: Design) -> NDArray[np.int64] | None:
        raise NotImplementedError

    def _finish(self, rng: np.random.Generator) -> tuple[NDArray[np.float64], float]:
        raise NotImplementedError
