"""Tenenbaum et al. 2021's footnotes made runnable: real-valued rewards (fn. 12) and unknown T (fn. 10).

* :class:`RandomizedRoundingSum` — rewards in [0, 1] enter the binary ``M_sum``
  through randomized rounding at the user: ``b = Ber(r)``. Footnote 12 asks for
  "a real summation mechanism"; rounding is the simplest one that keeps the
  analysis: if ``r ~ R_a`` then ``b ~ Ber(μ_a)`` exactly, so the algorithm sees
  a Bernoulli instance with the same means (same regret), and each user's bit
  is a randomized function of its own reward, so the batch keeps the binary
  protocol's (ε, δ)-SDP (joint convexity of the hockey-stick divergence).
  :func:`real_valued` swaps it into an algorithm.
* :class:`DoublingTrick` — for unknown T (footnote 10): restart the algorithm
  with horizons ``T_0, 2T_0, 4T_0, …``; every user still joins one batch, so the
  per-batch guarantee is the algorithm's at the largest horizon reached. For
  the instance-dependent ``O(Σ log T/Δ_a)`` bounds the restarts cost a factor up
  to ``log T`` (Σ_k log(2^k T_0) = O(log² T)); for ``O(√(kT log T))`` a
  constant factor.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from dpverify._validation import check_int_at_least, check_positive_int, value_error
from dpverify.bandits._policy import BanditGuarantee, Batch, RewardBatch

__all__ = ["RandomizedRoundingSum", "real_valued", "DoublingTrick", "DoublingPolicy"]


@dataclass(frozen=True)
class RandomizedRoundingSum:
    """A binary ``M_sum`` (``inner``) fed with rewards in [0, 1] rounded at random to bits.

    Every other attribute (name, model, guarantee, error law, …) is the inner
    privatizer's: the rounding happens at the user, before the protocol.

    >>> from dpverify.bandits.privatizers import ShuffledNoisyBits
    >>> privatizer = RandomizedRoundingSum(ShuffledNoisyBits(1.0, 1e-6))
    >>> batch = RewardBatch(size=4, total=2.0, values=np.array([0.0, 1.0, 0.5, 0.5]))
    >>> total = privatizer.privatize_sum(batch, rng=np.random.default_rng(0))
    >>> privatizer.guarantee(4) == ShuffledNoisyBits(1.0, 1e-6).guarantee(4)
    True
    """

    inner: Any

    def round(self, rewards: RewardBatch, *, rng: np.random.Generator) -> RewardBatch:
        """``Ber(r_i)`` for every user (binary batches pass through); values outside [0, 1] refused."""
        if rewards.binary:
            return rewards
        values = np.asarray(rewards.individual(), dtype=float)
        if not np.all((values >= 0) & (values <= 1)):
            raise value_error("rewards", "<values>", "in [0, 1] for randomized rounding")
        bits = (rng.random(values.size) < values).astype(np.int64)
        return RewardBatch(size=rewards.size, total=int(bits.sum()), binary=True)

    def privatize_sum(self, rewards: RewardBatch, *, rng: np.random.Generator,
                      per_user: bool = False) -> float:
        return self.inner.privatize_sum(self.round(rewards, rng=rng), rng=rng, per_user=per_user)

    def sample_estimates(self, rewards: RewardBatch, *, size: int, rng: np.random.Generator
                         ) -> np.ndarray:
        """``size`` independent releases, each with its own rounding (for audits)."""
        size = check_positive_int(size, "size")
        return np.array([self.privatize_sum(rewards, rng=rng) for _ in range(size)])

    def for_horizon(self, horizon: int) -> RandomizedRoundingSum:
        """The inner privatizer's deployment at ``horizon``, still rounding first."""
        return replace(self, inner=self.inner.for_horizon(horizon))

    def __getattr__(self, name: str) -> Any:
        if name == "inner":  # not yet set (unpickling): no recursion
            raise AttributeError(name)
        return getattr(self.inner, name)


def real_valued(algorithm: Any) -> Any:
    """``algorithm`` (SDP-AE / VB-SDP-AE) with its M_sum fed by randomized rounding (footnote 12).

    >>> from dpverify.bandits.mab import make_algorithm
    >>> real_valued(make_algorithm("sdp-ae", epsilon=1.0)).privatizer.name == \\
    ...     make_algorithm("sdp-ae", epsilon=1.0).privatizer.name
    True
    """
    return replace(algorithm, privatizer=RandomizedRoundingSum(algorithm.privatizer))


@dataclass(frozen=True)
class DoublingTrick:
    """Run ``algorithm`` without knowing T: restarts at horizons ``first_horizon · 2^k`` (footnote 10).

    >>> from dpverify.bandits.mab import make_algorithm
    >>> policy = DoublingTrick(make_algorithm("ae"), first_horizon=4).start(n_arms=2, horizon=100)
    >>> policy.next_batch().size, policy.guess
    (2, 4)
    """

    algorithm: Any
    first_horizon: int = 1024

    def __post_init__(self) -> None:
        object.__setattr__(self, "first_horizon", check_int_at_least(self.first_horizon,
                                                                     "first_horizon", 2))

    @property
    def name(self) -> str:
        return f"{getattr(self.algorithm, 'name', 'algorithm')} (doubling)"

    @property
    def privatizer(self) -> Any:
        return getattr(self.algorithm, "privatizer", None)

    def start(self, *, n_arms: int, horizon: int, per_user: bool = False) -> DoublingPolicy:
        """``horizon`` is only where the simulator stops; the policy never reads it."""
        return DoublingPolicy(self, n_arms=check_positive_int(n_arms, "n_arms"), per_user=per_user)

    def guarantee(self, *, n_arms: int, horizon: int) -> BanditGuarantee:
        """The algorithm's per-batch guarantee at the largest guess a run of ``horizon`` reaches."""
        guess = self.first_horizon
        while guess < horizon:
            guess *= 2
        return self.algorithm.guarantee(n_arms=n_arms, horizon=guess)


@dataclass
class DoublingPolicy:
    """One run of :class:`DoublingTrick`: the inner policy of the current guess and its plays."""

    trick: DoublingTrick
    n_arms: int
    per_user: bool = False
    guess: int = field(init=False)
    plays: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        self.guess = self.trick.first_horizon
        self._inner = self._start()
        self._truncated = False

    def _start(self) -> Any:
        return self.trick.algorithm.start(n_arms=self.n_arms, horizon=self.guess, per_user=self.per_user)

    def next_batch(self) -> Batch | None:
        if self.plays >= self.guess:
            self.guess, self.plays = 2 * self.guess, 0
            self._inner = self._start()
        batch = self._inner.next_batch()
        if batch is None:  # the inner run has nothing more to do before its guess: restart now
            self.guess, self.plays = 2 * self.guess, 0
            self._inner = self._start()
            batch = self._inner.next_batch()
        self._truncated = batch is not None and batch.size > self.guess - self.plays
        if self._truncated:  # the guess ends inside this batch: played, never aggregated (Alg. 1 l. 8)
            batch = Batch(batch.arm, self.guess - self.plays)
        return batch

    def update(self, batch: Batch, rewards: RewardBatch, *, rng: np.random.Generator) -> None:
        self.plays += batch.size
        if not self._truncated:
            self._inner.update(batch, rewards, rng=rng)
