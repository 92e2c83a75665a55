"""The batch-oriented policy protocol every bandit algorithm of dpverify follows.

The private bandit algorithms of the papers (Tenenbaum et al. 2021, Chowdhury & Zhou 2023,
Hanna et al. 2022, Li, Zhou & Ji 2022) all work in **batches**: the server picks one action and a
number of fresh users, every user of the batch plays that action once, and the
server only sees a privatised aggregate of the batch's rewards. The simulator
(:func:`dpverify.bandits.simulate.simulate`) drives any algorithm through two
objects:

* an **algorithm** (:class:`BanditAlgorithm`): a frozen, picklable value
  holding the configuration (ε, δ, batch schedule, privatizer, …). It answers
  "what is your privacy?" with :meth:`BanditAlgorithm.guarantee` and starts
  independent runs with :meth:`BanditAlgorithm.start`;
* a **policy** (:class:`Policy`): the mutable state of one run, created by
  ``start``. The simulator loop is::

      policy = algorithm.start(n_arms=K, horizon=T)
      while (batch := policy.next_batch()) is not None:
          # users batch.size pull arm batch.arm; the simulator draws their
          # rewards and books regret; if the horizon T falls inside the batch,
          # the run stops there and the unfinished batch is never aggregated
          # (Tenenbaum et al. 2021, Alg. 1 "if total samples = T, exit"; Chowdhury & Zhou 2023, Alg. 1 l. 9).
          policy.update(batch, rewards, rng=rng)

The protocol is deliberately small so that other families can use it: a
linear bandit's "arm" is the index of an action in the environment's finite
action set, and a G-optimal design becomes one :class:`Batch` per support point.

Randomness is explicit: a policy holds no generator; every draw the algorithm
makes (its privatizer's noise) uses the ``rng`` passed to :meth:`Policy.update`,
so one seeded stream per run reproduces the run bit for bit. ``next_batch``
is deterministic (ties are broken by arm index).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray

from dpverify._record_validation import check_record
from dpverify._validation import (
    check_flag,
    check_int_at_least,
    check_positive_int,
    value_error,
)
from dpverify.guarantees import ApproxDP, Guarantee

__all__ = ["Batch", "RewardBatch", "Policy", "BanditAlgorithm", "BanditGuarantee"]


@dataclass(frozen=True, slots=True)
class Batch:
    """``size`` fresh users each play arm ``arm`` once.

    >>> Batch(arm=2, size=8)
    Batch(arm=2, size=8)
    """

    arm: int
    size: int

    def __post_init__(self) -> None:
        if type(self.arm) is int and type(self.size) is int and self.arm >= 0 and self.size >= 1:
            return  # the hot path of simulations
        object.__setattr__(self, "arm", check_int_at_least(self.arm, "arm", 0))
        object.__setattr__(self, "size", check_positive_int(self.size, "size"))


@dataclass(frozen=True, slots=True, eq=False)
class RewardBatch:
    """The rewards of one batch, as the privatizers consume them.

    ``total`` (the sum of the ``size`` rewards) is always present; ``values``
    (the individual rewards, in [0, 1]) is present when the simulator drew
    them one by one. For **binary** rewards the total is a sufficient
    statistic of the multiset of rewards, so :meth:`individual` can rebuild
    every user's reward exactly (``total`` ones and ``size − total`` zeros;
    the order is irrelevant to every protocol, which only sees a sum or a
    shuffled multiset) and the simulator may draw only the total from its
    exact binomial law.

    >>> RewardBatch(size=4, total=3, binary=True).individual().tolist()
    [1, 1, 1, 0]
    """

    size: int
    total: float
    values: NDArray[np.float64] | None = field(default=None, repr=False)
    binary: bool = False

    def __post_init__(self) -> None:
        size = self.size if type(self.size) is int and self.size >= 1 else \
            check_positive_int(self.size, "size")
        object.__setattr__(self, "size", size)
        if type(self.binary) is not bool:
            check_flag(self.binary, "binary")
        if self.binary:
            total = self.total if type(self.total) is int and self.total >= 0 else \
                check_int_at_least(self.total, "total", 0)
            if total > size:
                raise value_error("total", self.total, f"at most size={size} for binary rewards")
            object.__setattr__(self, "total", total)
        if self.values is not None and np.shape(self.values) != (size,):
            raise value_error("values", f"<shape {np.shape(self.values)}>", f"shape ({size},)")

    def individual(self) -> NDArray:
        """Every user's reward: ``values``, or rebuilt from ``total`` for binary rewards."""
        if self.values is not None:
            return np.asarray(self.values)
        if not self.binary:
            raise value_error("values", None, "present for non-binary rewards",
                              "only binary rewards can be rebuilt from their total")
        ones = np.zeros(self.size, dtype=np.int64)
        ones[: int(self.total)] = 1
        return ones


@dataclass(frozen=True, slots=True)
class BanditGuarantee:
    """An algorithm's privacy claim, in the trust model it claims it in.

    ``per_batch`` is the guarantee of the release of one batch (one privatised
    sum; the worst case over the batch sizes of the schedule). Every user
    takes part in one batch only, so by parallel composition the whole run's
    guarantee towards any single user, ``total``, is the per-batch one
    (Chowdhury & Zhou 2023, App. D.1; Tenenbaum et al. 2021, Sec. 2.2). ``approx_dp`` is the ``(ε, δ)`` form
    (δ = 0 for pure DP; an RDP or zCDP curve converted through
    :mod:`dpverify.accountants` at the algorithm's δ). ``requested`` is the
    (ε, δ) the user asked for (``None``: non-private, or not recorded), and
    :attr:`claim_met` says whether ``approx_dp`` is within it.

    >>> from dpverify import PureDP
    >>> guarantee = BanditGuarantee(model="central", per_batch=PureDP(0.5), total=PureDP(0.5),
    ...                             approx_dp=ApproxDP(0.5, 0.0), requested=ApproxDP(0.5, 1e-6))
    >>> guarantee.model, guarantee.claim_met
    ('central', True)
    """

    model: str
    per_batch: Guarantee | None
    total: Guarantee | None
    approx_dp: ApproxDP | None
    notes: str = ""
    requested: ApproxDP | None = None

    @property
    def claim_met(self) -> bool:
        """``approx_dp`` is within ``requested`` in both ε and δ (True when nothing is requested)."""
        if self.requested is None:
            return True
        if self.approx_dp is None:
            return False
        return (self.approx_dp.epsilon <= self.requested.epsilon
                and self.approx_dp.delta <= self.requested.delta)

    def __post_init__(self) -> None:
        check_record(self)


class Policy(Protocol):
    """The state of one run of a batched bandit algorithm."""

    def next_batch(self) -> Batch | None:
        """The next batch to play, or ``None`` when the algorithm has nothing more to do."""
        ...

    def update(self, batch: Batch, rewards: RewardBatch, *, rng: np.random.Generator) -> None:
        """Feed the rewards of the completed ``batch``; privatizer noise is drawn from ``rng``."""
        ...


@runtime_checkable
class BanditAlgorithm(Protocol):
    """A frozen algorithm configuration: starts runs and reports its privacy guarantee."""

    name: str

    def start(self, *, n_arms: int, horizon: int, per_user: bool = False) -> Policy:
        """A fresh run on ``n_arms`` arms with horizon ``horizon`` (known in advance).

        ``per_user=True`` makes the privatizer run every user's randomizer and
        the secure aggregation / shuffler (the auditable path) instead of drawing
        the aggregate noise from its exact law.
        """
        ...

    def guarantee(self, *, n_arms: int, horizon: int) -> BanditGuarantee:
        """The privacy guarantee of a run (per batch and total)."""
        ...
