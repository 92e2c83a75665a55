"""Baselines: non-private LinUCB (OFUL, Abbasi-Yadkori et al. 2011) and local-DP LinUCB (l = 1).

* :class:`LinUCB` — OFUL with ``V = λI + Σ x xᵀ``, ``θ̂ = V^{-1} Σ r x`` and
  the radius of Abbasi-Yadkori et al. 2011, Thm 2:
  ``β_t = σ √(2 ln(1/δ) + d ln(1 + t L²/(λ d))) + √λ S``. The model is
  recomputed when ``det V`` has grown by ``1 + η`` (their *rarely switching*
  OFUL, Sec. 5 — the same schedule as SBLB, so that the comparison isolates
  the cost of privacy, and so that runs at T = 10^6 are vectorised between
  updates). ``eta → 0`` approaches the every-round OFUL.
* :class:`LDPLinUCB` — every user's ``M_LDP`` report (ε0 = ``epsilon``) is used
  directly, without a shuffler: SBLB's learner with l = 1, the same λ_j
  (Eq. 8), β_j (Eq. 7) and det trigger (m = 1, η = 1/2, λ = √T as Cor. 8).
  ε-LDP; regret Õ(T^{3/4}) (garcelon Table 1, Zheng et al.).

Shariff–Sheffet 2018's JDP LinUCB (tree-based noise) is **not** implemented
(its Prop. 4 is reconstructed [R] in the CATALOGUE, E4; not faithful in time).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpverify._deprecation import renamed_parameters
from dpverify._validation import (
    check_delta,
    check_epsilon,
    check_nonnegative,
    check_positive,
    check_positive_int,
    check_probability,
    check_text,
)
from dpverify.bandits._policy import BanditGuarantee
from dpverify.bandits.contextual import parameters as _params
from dpverify.bandits.contextual._engine import Learner
from dpverify.bandits.contextual.sblb import ShuffledLinearLearner
from dpverify.guarantees import ApproxDP, PureDP

__all__ = ["LinUCB", "LDPLinUCB", "oful_radius"]


def oful_radius(t: float, *, confidence: float, sigma: float, d: int, L: float, S: float,
                lam: float) -> float:
    """Abbasi-Yadkori et al. 2011 Thm 2: ``σ √(2 ln(1/δ) + d ln(1 + t L²/(λ d))) + √λ S``.

    >>> round(oful_radius(0, confidence=0.01, sigma=0.5, d=2, L=1, S=1, lam=1), 6)
    2.517427
    """
    t = check_nonnegative(t, "t")
    confidence = check_probability(confidence, "confidence", open_low=True, open_high=True)
    lam = check_positive(lam, "lam")
    inner = 2 * math.log(1 / confidence) + d * math.log1p(t * L * L / (lam * d))
    return sigma * math.sqrt(inner) + math.sqrt(lam) * S


class _ExactLearner(Learner):
    def __init__(self, algorithm: "LinUCB", d: int) -> None:
        self.algorithm = algorithm
        self.eta = algorithm.eta
        self.radius_scale = algorithm.radius_scale
        self.rows, self.cols = np.tril_indices(d)
        super().__init__(d)

    def regularization(self, samples: NDArray) -> NDArray:
        return np.full(np.shape(samples), self.algorithm.lam)

    def radius(self, samples: float, regularization: float) -> float:
        a = self.algorithm
        return oful_radius(samples, confidence=a.confidence, sigma=a.sigma, d=self.d, L=a.L, S=a.S,
                           lam=a.lam)

    def user_stats(self, chosen: NDArray, rewards: NDArray, rng: np.random.Generator) -> NDArray:
        outer = chosen[:, self.rows] * chosen[:, self.cols]
        return np.concatenate([rewards[:, None] * chosen, outer], axis=1)

    def release(self, summed: NDArray, rng: np.random.Generator) -> NDArray:
        return summed

    def increments(self, released: NDArray) -> tuple[NDArray, NDArray]:
        d = self.d
        gram = np.zeros((len(released), d, d))
        gram[:, self.rows, self.cols] = released[:, d:]
        gram[:, self.cols, self.rows] = released[:, d:]
        return gram, released[:, :d]


@dataclass(frozen=True)
class LinUCB:
    """Non-private (rarely switching) OFUL.

    >>> LinUCB().guarantee(horizon=100, dimension=2).model
    'none'
    """

    confidence: float = 0.01
    lam: float = 1.0
    eta: float = 0.5
    L: float = 1.0
    S: float = 1.0
    sigma: float = 0.5
    radius_scale: float = 1.0
    name: str = "linucb"

    def __post_init__(self) -> None:
        check_positive(self.radius_scale, "radius_scale")
        check_probability(self.confidence, "confidence", open_low=True, open_high=True)
        for field_name in ("lam", "L", "S", "sigma"):
            check_positive(getattr(self, field_name), field_name)
        check_nonnegative(self.eta, "eta")
        check_text(self.name, "name")

    def start(self, *, horizon: int, dimension: int, per_user: bool = False) -> Learner:
        return _ExactLearner(self, dimension)

    def guarantee(self, *, horizon: int, dimension: int) -> BanditGuarantee:
        return BanditGuarantee(model="none", per_batch=None, total=None, approx_dp=None,
                               notes="non-private")

    @renamed_parameters(actions="n_arms")
    def plan(self, *, horizon: int, n_arms: int | None = None,
             dimension: int | None = None) -> Any:
        """The deployment's parameters (no shuffler: one release per user)."""
        from dpverify.bandits.contextual._deployment import local_plan

        return local_plan(self, horizon=horizon, n_arms=n_arms, dimension=dimension)

    def local_epsilon(self, *, horizon: int, dimension: int) -> None:
        return None


@dataclass(frozen=True)
class LDPLinUCB:
    """LDP LinUCB: SBLB's learner on every user's own M_LDP report (l = 1), ε-LDP.

    ``delta`` is the confidence δ of λ_j / β_j (the E_δ event), not a privacy δ.

    >>> LDPLinUCB(epsilon=1.0).guarantee(horizon=100, dimension=2).approx_dp
    ApproxDP(epsilon=1.0, delta=0.0)
    """

    epsilon: float
    delta: float = 1e-6
    m: int = 1
    eta: float = 0.5
    L: float = 1.0
    S: float = 1.0
    sigma: float = 0.5
    radius_scale: float = 1.0
    name: str = "ldp-linucb"

    def __post_init__(self) -> None:
        check_positive(self.radius_scale, "radius_scale")
        object.__setattr__(self, "epsilon", check_epsilon(self.epsilon, allow_zero=False))
        check_delta(self.delta, allow_zero=False)
        for field_name in ("L", "S", "sigma"):
            check_positive(getattr(self, field_name), field_name)
        check_nonnegative(self.eta, "eta")
        object.__setattr__(self, "m", check_positive_int(self.m, "m"))
        check_text(self.name, "name")

    def parameters(self, *, horizon: int, dimension: int) -> _params.SBLBParameters:
        p = _params.flip_probability(self.epsilon, m=self.m, d=dimension)
        return _params.SBLBParameters(
            regime="ldp", epsilon=self.epsilon, delta=self.delta, delta0=self.delta,
            horizon=horizon, dimension=dimension, epsilon_0=self.epsilon, p=p, m=self.m,
            batch_length=1, lam=math.sqrt(horizon), eta=self.eta, L=self.L, S=self.S,
            sigma=self.sigma, form="derived")

    def start(self, *, horizon: int, dimension: int, per_user: bool = False) -> Learner:
        return ShuffledLinearLearner(self.parameters(horizon=horizon, dimension=dimension),
                                     unit=1, fixed_batch=False, per_user=per_user,
                                     radius_scale=self.radius_scale)

    def guarantee(self, *, horizon: int, dimension: int) -> BanditGuarantee:
        local = PureDP(self.epsilon)
        return BanditGuarantee(model="local", per_batch=local, total=local,
                               approx_dp=ApproxDP(self.epsilon, 0.0),
                               notes="each user's report is epsilon-LDP (Prop. 4); one report per user",
                               requested=ApproxDP(self.epsilon, self.delta))

    @renamed_parameters(actions="n_arms")
    def plan(self, *, horizon: int, n_arms: int | None = None,
             dimension: int | None = None) -> Any:
        """The deployment's parameters (no shuffler: one release per user)."""
        from dpverify.bandits.contextual._deployment import local_plan

        return local_plan(self, horizon=horizon, n_arms=n_arms, dimension=dimension)

    def local_epsilon(self, *, horizon: int, dimension: int) -> float:
        return self.epsilon
