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
  ε-LDP; regret Õ(T^{3/4}) (Garcelon et al. 2022, Table 1; Zheng et al. 2020).

Shariff–Sheffet 2018's JDP LinUCB (tree-based noise) is **not** implemented
(its Prop. 4 is known here only through Garcelon et al.'s Eq. (7), [R]; not faithful in time).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

import dpverify.bandits.contextual.parameters as _params
from dpverify._deprecation import renamed_parameters, renamed_property
from dpverify._validation import (
    check_delta,
    check_epsilon,
    check_failure_probability,
    check_nonnegative,
    check_positive,
    check_positive_int,
    check_text,
)
from dpverify.bandits._policy import BanditGuarantee
from dpverify.bandits.contextual._deployment import local_plan
from dpverify.bandits.contextual._engine import Learner
from dpverify.bandits.contextual.sblb import ShuffledLinearLearner
from dpverify.guarantees import ApproxDP, PureDP

__all__ = ["LinUCB", "LDPLinUCB", "oful_radius"]


@renamed_parameters(t="samples", confidence="failure_probability", d="dimension",
                    L="context_bound", S="theta_bound", lam="regularization")
def oful_radius(samples: float, *, failure_probability: float, sigma: float, dimension: int,
                context_bound: float, theta_bound: float, regularization: float) -> float:
    """Abbasi-Yadkori et al. 2011 Thm 2: ``σ √(2 ln(1/δ) + d ln(1 + t L²/(λ d))) + √λ S``.

    t = ``samples`` (observations in V), δ = ``failure_probability``, d = ``dimension``,
    L = ``context_bound``, S = ``theta_bound``, λ = ``regularization``.

    >>> round(oful_radius(0, failure_probability=0.01, sigma=0.5, dimension=2, context_bound=1,
    ...                   theta_bound=1, regularization=1), 6)
    2.517427
    """
    t = check_nonnegative(samples, "samples")
    delta = check_failure_probability(failure_probability)
    lam = check_positive(regularization, "regularization")
    d, L, S = dimension, context_bound, theta_bound
    inner = 2 * math.log(1 / delta) + d * math.log1p(t * L * L / (lam * d))
    return sigma * math.sqrt(inner) + math.sqrt(lam) * S


class _ExactLearner(Learner):
    def __init__(self, algorithm: LinUCB, d: int) -> None:
        self.algorithm = algorithm
        self.eta = algorithm.eta
        self.radius_scale = algorithm.radius_scale
        self.rows, self.cols = np.tril_indices(d)
        super().__init__(d)

    def regularization(self, samples: NDArray) -> NDArray:
        return np.full(np.shape(samples), self.algorithm.regularization)

    def radius(self, samples: float, regularization: float) -> float:
        a = self.algorithm
        return oful_radius(samples, failure_probability=a.failure_probability, sigma=a.sigma,
                           dimension=self.d, context_bound=a.context_bound,
                           theta_bound=a.theta_bound, regularization=a.regularization)

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


@renamed_parameters(confidence="failure_probability", lam="regularization", L="context_bound",
                    S="theta_bound")
@dataclass(frozen=True)
class LinUCB:
    """Non-private (rarely switching) OFUL.

    Parameters
    ----------
    failure_probability
        δ, the probability that the confidence ellipsoid fails, in (0, 1/2].
    regularization
        λ of ``V = λI + Σ x xᵀ``.
    eta
        η of the rarely-switching trigger (``det V`` grown by ``1 + η``).
    context_bound, theta_bound, sigma
        L (contexts' norm), S (θ*'s norm), σ (the rewards' sub-Gaussian noise).

    >>> LinUCB().guarantee(horizon=100, dimension=2).model
    'none'
    """

    failure_probability: float = 0.01
    regularization: float = 1.0
    eta: float = 0.5
    context_bound: float = 1.0
    theta_bound: float = 1.0
    sigma: float = 0.5
    radius_scale: float = 1.0
    name: str = "linucb"

    # the old spellings, read-only, for one release
    confidence = renamed_property("confidence", "failure_probability")
    lam = renamed_property("lam", "regularization")
    L = renamed_property("L", "context_bound")
    S = renamed_property("S", "theta_bound")

    def __post_init__(self) -> None:
        check_positive(self.radius_scale, "radius_scale")
        check_failure_probability(self.failure_probability)
        for field_name in ("regularization", "context_bound", "theta_bound", "sigma"):
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
        return local_plan(self, horizon=horizon, n_arms=n_arms, dimension=dimension)

    def local_epsilon(self, *, horizon: int, dimension: int) -> None:
        return None


@renamed_parameters(m="bits", L="context_bound", S="theta_bound")
@dataclass(frozen=True)
class LDPLinUCB:
    """LDP LinUCB: SBLB's learner on every user's own M_LDP report (l = 1), ε-LDP.

    ``delta`` is garcelon's δ of λ_j / β_j (the probability that the event E_δ fails),
    as in SBLB, not a privacy δ; ``bits`` is m, the encoding bits per entry;
    ``context_bound`` (L), ``theta_bound`` (S) and ``sigma`` are Assumption 3's bounds.

    >>> LDPLinUCB(epsilon=1.0).guarantee(horizon=100, dimension=2).approx_dp
    ApproxDP(epsilon=1.0, delta=0.0)
    """

    epsilon: float
    delta: float = 1e-6
    bits: int = 1
    eta: float = 0.5
    context_bound: float = 1.0
    theta_bound: float = 1.0
    sigma: float = 0.5
    radius_scale: float = 1.0
    name: str = "ldp-linucb"

    # the old spellings, read-only, for one release
    m = renamed_property("m", "bits")
    L = renamed_property("L", "context_bound")
    S = renamed_property("S", "theta_bound")

    def __post_init__(self) -> None:
        check_positive(self.radius_scale, "radius_scale")
        object.__setattr__(self, "epsilon", check_epsilon(self.epsilon, allow_zero=False))
        check_delta(self.delta, allow_zero=False)
        for field_name in ("context_bound", "theta_bound", "sigma"):
            check_positive(getattr(self, field_name), field_name)
        check_nonnegative(self.eta, "eta")
        object.__setattr__(self, "bits", check_positive_int(self.bits, "bits"))
        check_text(self.name, "name")

    def parameters(self, *, horizon: int, dimension: int) -> _params.SBLBParameters:
        p = _params.randomization_probability(self.epsilon, bits=self.bits, dimension=dimension)
        return _params.SBLBParameters(
            regime="ldp", epsilon=self.epsilon, delta=self.delta, shuffle_delta=self.delta,
            horizon=horizon, dimension=dimension, local_epsilon=self.epsilon,
            randomization_probability=p, bits=self.bits, batch_length=1,
            regularization=math.sqrt(horizon), eta=self.eta, context_bound=self.context_bound,
            theta_bound=self.theta_bound, sigma=self.sigma, batch_form="derived")

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
        return local_plan(self, horizon=horizon, n_arms=n_arms, dimension=dimension)

    def local_epsilon(self, *, horizon: int, dimension: int) -> float:
        return self.epsilon
