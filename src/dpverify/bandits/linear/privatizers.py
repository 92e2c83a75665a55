"""Privatizers of the linear bandits: Hanna et al. 2022's Laplace sums and Li, Zhou & Ji 2022's vector averages.

No linear algorithm adds noise itself: it hands the data of one phase to one
of these and receives the analyser's estimate. Two modes everywhere:

* ``mode="paper"`` — exactly the printed noise level. Hanna et al. add ``Lap(1/ε)``
  while rewards lie in [−1, 1] (sensitivity 2, where their App. A.1, Eq. (12),
  claims 1), so the printed
  algorithms are really 2ε-DP (2ε0-LDP); Li, Zhou & Ji calibrate their Gaussians
  classically, ``σ = Δ√(2 ln(1.25/δ))/ε`` (their Thm 8), which is proven only for ε < 1
  (their Thm 8 omits that condition; the figures use ε = 10).
* ``mode="sound"`` — Hanna et al.: ``Lap(2/ε)`` (the correct sensitivity 2 of a reward
  in [−1, 1]; equivalent to mapping rewards to [0, 1] and adding ``Lap(1/ε)``);
  Li, Zhou & Ji: the analytic Gaussian mechanism (Balle & Wang 2018,
  :func:`dpverify.accountants.calibrate.analytic_gaussian_sigma`), exact at any ε.

``guarantee(...)`` always reports the **true** guarantee of the noise actually
added (through :func:`dpverify.mechanisms.privacy_map` and the accountants),
and ``claimed`` the paper's claim, so a paper-mode gap is visible.

===============================  =====================  =====================================
privatizer                       paper                  guarantee (one batch / phase)
===============================  =====================  =====================================
:class:`LaplaceSum`              Hanna et al. Alg. 1    pure ε per batch (central)
:class:`LocalLaplaceSum`         Hanna et al. Alg. 2    pure ε0 per message (local)
:class:`ShuffledLaplaceSum`      Hanna et al. Alg. 3    (ε, δ) per batch by FMT amplification
:class:`CentralGaussianAverage`  Li, Zhou & Ji Thm 1    (ε, δ) per phase (central)
:class:`LocalGaussianAverage`    Li, Zhou & Ji Thm 2/6  (ε, δ) per message (local)
:class:`ShuffleVectorAverage`    Li, Zhou & Ji Alg. 2   (ε, δ)-SDP per phase [R] (shuffle)
:class:`ExactAverage`            DPE                    none
===============================  =====================  =====================================
"""

from __future__ import annotations

import functools
import math
import sys
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from dpverify._validation import (
    check_choice,
    check_delta,
    check_epsilon,
    check_positive,
    check_positive_int,
    value_error,
)
from dpverify.accountants.shuffle import amplified_epsilon, max_local_epsilon
from dpverify.bandits._policy import RewardBatch
from dpverify.bandits.linear._vector_privatizers import (
    LOCAL_CONSTANTS,
    MODES,
    CentralGaussianAverage,
    ExactAverage,
    LocalGaussianAverage,
    ShuffleVectorAverage,
)
from dpverify.errors import CalibrationError
from dpverify.guarantees import ApproxDP, Guarantee, PureDP
from dpverify.mechanisms import Laplace, privacy_map
from dpverify.mechanisms.simulation import simulation_laplace_sum

__all__ = [
    "MODES",
    "LOCAL_CONSTANTS",
    "laplace_sum_width",
    "paper_laplace_sum_width",
    "LaplaceSum",
    "LocalLaplaceSum",
    "ShuffledLaplaceSum",
    "CentralGaussianAverage",
    "LocalGaussianAverage",
    "ShuffleVectorAverage",
    "ExactAverage",
]

#: Range of Hanna et al. 2022's rewards: [−1, 1], so one reward changes a sum by at most 2.
REWARD_SENSITIVITY = 2.0


def laplace_sum_width(terms: int, weight: float, scale: float, log_term: float) -> float:
    """Sound width t with ``P[Σ_{i<=n} l_i z_i >= t] <= e^{−L}``, ``z_i ~ Lap(scale)``, ``|l_i| <= c``.

    From ``E e^{λ l z} = 1/(1 − λ²l²s²) <= exp(2λ²c²s²)`` for ``|λ| <= 1/(√2 c s)``
    (``1/(1 − u) <= e^{2u}`` on [0, 1/2]) and Chernoff (ours,
    **not from the paper**):

    .. math:: t = c s \\sqrt{8 n L} \\ \\text{if}\\ L <= n, \\qquad
              t = \\sqrt 2\\, c s (n + L) \\ \\text{otherwise.}

    >>> round(laplace_sum_width(200, 1.0, 1.0, math.log(50)), 3)
    79.115
    """
    n = check_positive_int(terms, "terms")
    c, s = check_positive(weight, "weight"), check_positive(scale, "scale")
    L = check_positive(log_term, "log_term")
    if L <= n:
        return c * s * math.sqrt(8 * n * L)
    return math.sqrt(2) * c * s * (n + L)


def paper_laplace_sum_width(terms: int, weight: float, scale: float, log_term: float) -> float:
    """Hanna et al. 2022, Lemma 4/5's width ``(c/b)√(n L)`` (b = 1/scale) — too narrow.

    Lemma 4's MGF step is false; a Monte Carlo tail at this width is about
    0.082 against the target ``e^{−L}`` = 0.02 (n = 200, L = ln 50).

    >>> round(paper_laplace_sum_width(200, 1.0, 1.0, math.log(50)), 3)
    27.971
    """
    n = check_positive_int(terms, "terms")
    c, s = check_positive(weight, "weight"), check_positive(scale, "scale")
    return c * s * math.sqrt(n * check_positive(log_term, "log_term"))


def _laplace_scale(epsilon: float, mode: str) -> float:
    return (1.0 if mode == "paper" else REWARD_SENSITIVITY) / epsilon


@dataclass(frozen=True)
class _LaplacePrivatizer:
    """The parts Hanna et al. 2022's central and local Laplace privatizers share: ε, mode, scale, claim."""

    epsilon: float
    mode: str = "paper"

    def __post_init__(self) -> None:
        object.__setattr__(self, "epsilon", check_epsilon(self.epsilon, allow_zero=False))
        object.__setattr__(self, "mode", check_choice(self.mode, "mode", MODES))
        numerator = _laplace_scale(1.0, self.mode)
        if not math.isfinite(_laplace_scale(self.epsilon, self.mode)):
            raise value_error("epsilon", self.epsilon, f">= {numerator / sys.float_info.max:.3g} "
                              f"(mode={self.mode!r})", f"the Laplace scale {numerator:g}/epsilon "
                              "overflows the float range")

    @property
    def scale(self) -> float:
        return _laplace_scale(self.epsilon, self.mode)

    @property
    def claimed(self) -> Guarantee:
        return PureDP(self.epsilon)

    def for_batch(self, users: int) -> _LaplacePrivatizer:
        """The same privatizer for every batch size."""
        return self

    def guarantee(self, users: int) -> Guarantee:
        """``privacy_map(Lap(scale), Δ = 2)``: of one sum (central) or one message (local)."""
        return privacy_map(Laplace(scale=self.scale), sensitivity=REWARD_SENSITIVITY)


@dataclass(frozen=True)
class LaplaceSum(_LaplacePrivatizer):
    """Hanna et al. 2022, Alg. 1 (central): the server adds one ``Lap(scale)`` to each core action's reward sum.

    ``scale = 1/ε`` (paper) or ``2/ε`` (sound). A user is in one sum only
    (parallel composition), so a batch is ``privacy_map(Lap(scale), Δ = 2)``:
    **2ε-DP in paper mode** (claimed ε), ε-DP in sound mode. Continuous
    Laplace: simulation only.

    >>> LaplaceSum(0.5).guarantee(10), LaplaceSum(0.5, "sound").guarantee(10)
    (PureDP(epsilon=1.0), PureDP(epsilon=0.5))
    """

    name = "central Laplace (hanna Alg. 1)"
    model = "central"

    def privatize_sum(self, rewards: RewardBatch, *, rng: np.random.Generator,
                      per_user: bool = False) -> float:
        total = float(np.sum(rewards.individual())) if per_user else float(rewards.total)
        return total + float(rng.laplace(0.0, self.scale))

    def sample_estimates(self, rewards: RewardBatch, *, size: int, rng: np.random.Generator
                         ) -> NDArray[np.float64]:
        """``size`` independent draws of :meth:`privatize_sum` (for audits)."""
        return float(rewards.total) + rng.laplace(0.0, self.scale, check_positive_int(size, "size"))


@dataclass(frozen=True)
class LocalLaplaceSum(_LaplacePrivatizer):
    """Hanna et al. 2022, Alg. 2 (local): every client sends ``r + Lap(scale)``; the server sums.

    ``scale = 1/ε0`` (paper: really 2ε0-LDP) or ``2/ε0`` (sound). The sum of n
    messages is drawn from its exact law ``Σ r + Γ(n, s) − Γ(n, s)``; the
    per-user path draws every message.

    >>> LocalLaplaceSum(1.0).guarantee(5)
    PureDP(epsilon=2.0)
    """

    name = "local Laplace (hanna Alg. 2)"
    model = "local"

    def privatize_sum(self, rewards: RewardBatch, *, rng: np.random.Generator,
                      per_user: bool = False) -> float:
        if per_user:
            values = np.asarray(rewards.individual(), dtype=float)
            return float(np.sum(values + rng.laplace(0.0, self.scale, values.size)))
        return float(rewards.total) + float(simulation_laplace_sum(self.scale, rewards.size, rng=rng))

    def sample_estimates(self, rewards: RewardBatch, *, size: int, rng: np.random.Generator
                         ) -> NDArray[np.float64]:
        size = check_positive_int(size, "size")
        return float(rewards.total) + simulation_laplace_sum(self.scale, rewards.size, rng=rng, size=size)


@functools.lru_cache(maxsize=1024)
def _shuffle_local_epsilon(epsilon: float, users: int, delta: float) -> float:
    """ε0^{(i)} = max(ε, f^{-1}_{n_i,δ}(ε)) (Hanna et al. 2022, Alg. 3 line 8; ε where FMT's bound is invalid)."""
    try:
        return max(epsilon, max_local_epsilon(epsilon, users, delta))
    except CalibrationError:
        return epsilon


@dataclass(frozen=True)
class ShuffledLaplaceSum:
    """Hanna et al. 2022, Alg. 3 (shuffled): clients send ``r + Lap(scale(ε0^{(i)}))`` through a shuffler.

    ``ε0^{(i)} = f^{-1}_{n_i,δ}(ε)`` from
    :func:`dpverify.accountants.shuffle.max_local_epsilon` (FMT 2021), and ε
    itself when the amplification bound is invalid or gives less (an ε-LDP
    randomizer alone is (ε, 0)-DP; Alg. 3 applies f^{-1} without checking FMT's
    validity condition). The shuffler forwards
    (action, message) pairs without the client's identity, so the server's
    data is each action's sum of noisy messages — computed exactly as in the
    local model, at ε0^{(i)}. :meth:`for_batch` gives that batch's sum privatizer.

    True guarantee of a batch of n users (:meth:`guarantee`): the randomizer
    is ε_loc-LDP with ε_loc = ε0 (sound) or 2ε0 (paper); the batch is
    (min(ε_loc, f_{n,δ}(ε_loc)), δ)-DP (f only where FMT's condition holds).

    >>> privatizer = ShuffledLaplaceSum(0.5, 1e-6, mode="sound")
    >>> privatizer.guarantee(10 ** 5).epsilon <= 0.5
    True
    >>> ShuffledLaplaceSum(0.5, 1e-6).guarantee(10 ** 5).epsilon > 0.5  # paper: 2ε0-LDP
    True
    """

    epsilon: float
    delta: float
    mode: str = "paper"
    name = "shuffled Laplace (hanna Alg. 3)"
    model = "shuffle"

    def __post_init__(self) -> None:
        object.__setattr__(self, "epsilon", check_epsilon(self.epsilon, allow_zero=False))
        object.__setattr__(self, "delta", check_delta(self.delta, allow_zero=False))
        object.__setattr__(self, "mode", check_choice(self.mode, "mode", MODES))

    @property
    def claimed(self) -> Guarantee:
        return ApproxDP(self.epsilon, self.delta)

    def local_epsilon(self, users: int) -> float:
        """ε0^{(i)} for a batch of ``users`` clients."""
        return _shuffle_local_epsilon(self.epsilon, check_positive_int(users, "users"), self.delta)

    def for_batch(self, users: int) -> LocalLaplaceSum:
        return LocalLaplaceSum(self.local_epsilon(users), self.mode)

    def guarantee(self, users: int, *, local_users: int | None = None) -> Guarantee:
        """A batch of ``users`` clients whose ε0^{(i)} was chosen for ``local_users`` (default: the same).

        With ``local_users >= users`` this bounds every batch of at least
        ``users`` clients whose ε0 was chosen for at most ``local_users``:
        ε0^{(i)} grows with the size it is chosen for, and a shuffle of more
        clients is a post-processing of a shuffle of fewer (add the others'
        reports and reshuffle), so amplification at ``users`` still holds.
        """
        users = check_positive_int(users, "users")
        local_users = users if local_users is None else check_positive_int(local_users,
                                                                           "local_users")
        local = self.for_batch(local_users).guarantee(users).epsilon
        try:
            amplified = amplified_epsilon(local, users, self.delta)
        except ValueError:  # outside FMT's validity region: only the local guarantee holds
            return ApproxDP(local, 0.0)
        return ApproxDP(min(local, amplified), self.delta if amplified < local else 0.0)
