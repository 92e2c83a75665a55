"""The non-private baseline and DP-SE's central Laplace mechanism (Sajed & Sheffet 2019)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from dpverify._validation import check_epsilon, check_positive_int
from dpverify.bandits._policy import RewardBatch
from dpverify.bandits.plan import noise_parameters
from dpverify.bandits.privatizers._base import ErrorLaw
from dpverify.guarantees import Guarantee
from dpverify.mechanisms import Laplace, privacy_map, sample

__all__ = ["NonPrivate", "CentralLaplace"]


@dataclass(frozen=True)
class NonPrivate:
    """No privacy: the analyser gets the exact sum (the non-private baselines).

    >>> NonPrivate().privatize_sum(RewardBatch(size=4, total=3, binary=True),
    ...                            rng=np.random.default_rng(0))
    3.0
    """

    name = "non-private"
    model = "none"

    def privatize_sum(self, rewards: RewardBatch, *, rng: np.random.Generator,
                      per_user: bool = False) -> float:
        return float(rewards.total)

    def sample_estimates(self, rewards: RewardBatch, *, size: int, rng: np.random.Generator
                         ) -> np.ndarray:
        return np.full(check_positive_int(size, "size"), float(rewards.total))

    def guarantee(self, users: int) -> None:
        return None

    def deployment(self, users: int) -> dict[str, Any]:
        return {"users_n": check_positive_int(users, "users"), "noise": "none"}

    def estimate_error_law(self, users: int) -> ErrorLaw:
        return ErrorLaw(sigma=0.0, sub_exponential_scale=0.0, sub_gaussian_variance=0.0,
                        description="exact sum")

    def for_horizon(self, horizon: int) -> NonPrivate:
        return self


@dataclass(frozen=True)
class CentralLaplace:
    """DP-SE's central Laplace mechanism (Sajed & Sheffet 2019, as run by Chowdhury & Zhou 2023, §7).

    The trusted server adds **one independent** ``Lap(1/ε)`` draw to each
    arm's epoch reward sum (rewards in [0, 1]: sensitivity 1). The reference
    code of Chowdhury & Zhou adds one shared draw to every arm, which reveals
    the exact differences of the arms' sums and is not private; here every call draws afresh. Continuous Laplace noise:
    simulation only (float sampler).

    >>> CentralLaplace(0.5).guarantee(100)
    PureDP(epsilon=0.5)
    """

    epsilon: float
    name = "central Laplace (DP-SE)"
    model = "central"

    def __post_init__(self) -> None:
        object.__setattr__(self, "epsilon", check_epsilon(self.epsilon, allow_zero=False))

    @property
    def mechanism(self) -> Laplace:
        return Laplace(scale=1.0 / self.epsilon)

    def privatize_sum(self, rewards: RewardBatch, *, rng: np.random.Generator,
                      per_user: bool = False) -> float:
        """``Σ r_i + Lap(1/ε)``; the per-user path sums the rebuilt individual rewards first."""
        total = float(np.sum(rewards.individual())) if per_user else float(rewards.total)
        return float(sample(self.mechanism, total, rng=rng))

    def sample_estimates(self, rewards: RewardBatch, *, size: int, rng: np.random.Generator
                         ) -> np.ndarray:
        """``size`` independent draws of :meth:`privatize_sum` (vectorised, for audits)."""
        return np.asarray(sample(self.mechanism, float(rewards.total), rng=rng,
                                 size=check_positive_int(size, "size")), dtype=float)

    def guarantee(self, users: int) -> Guarantee:
        return privacy_map(self.mechanism, sensitivity=1.0)

    def deployment(self, users: int) -> dict[str, Any]:
        return {"users_n": check_positive_int(users, "users"), "noise_epsilon": self.epsilon,
                **noise_parameters(self.mechanism, role="analyser")}

    def estimate_error_law(self, users: int) -> ErrorLaw:
        """``P[|Lap(1/ε)| > t] = e^{−εt}``: σ = 0, h = 1/ε."""
        return ErrorLaw(sigma=0.0, sub_exponential_scale=1.0 / self.epsilon, noise=self.mechanism,
                        description="Lap(1/ε)")

    def for_horizon(self, horizon: int) -> CentralLaplace:
        return self
