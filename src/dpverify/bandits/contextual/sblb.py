"""SBLB (Garcelon et al. 2022, Alg. 1) and its fixed-batch variant (Alg. 4): shuffle-model linear contextual bandit.

Per round, the user chooses ``a_t ∈ argmax_a ⟨x_{t,a}, θ̃⟩ + β ‖x_{t,a}‖_{Ṽ^{-1}}``
locally from the broadcast ``(θ̃, Ṽ, β)``, observes ``r_t`` and sends
``M_LDP(x_{t,a_t}, r_t)`` (Alg. 2, ``m d(d+3)/2`` randomized bits, ε0-LDP) to
the shuffler. Every complete batch of l users is released as its sums
``(Z, U)``; the bandit debiases them (Alg. 1 step 3)::

    B̃_cand += Z/(m(1−p)) − l/(2(1−p))
    Ṽ_cand += U/(m(1−p)) − l/(2(1−p)) 11ᵀ + 2(λ(t) − λ(t − l)) I

(so ``Ṽ_cand = Σ debiased U + (2λ(t) − λ) I`` from ``Ṽ_0 = λI``, the only reading
consistent with Eqs. (6) and (11), with λ(t) = Eq. (8) at the t samples aggregated) and, when
``det(Ṽ_cand) >= (1 + η) det(Ṽ_last)``, recomputes ``θ̃ = Ṽ^{-1} B̃ / L`` and
``β`` = Eq. (7) at t. The fixed-batch variant (Alg. 4) recomputes after every
release. The features of Ṽ are ``x/(√2 L)``-normalised while the bonus uses
the raw x (Alg. 1 literally; the paper never reconciles the two scalings). ``β_0`` is Eq. (7) at t = 1
(Eq. (7) is undefined at t = 0; irrelevant to the first actions, which tie).

The last, incomplete shuffler batch is played but never released (the shuffler
releases full batches only and discards their samples, §3.1).

Privacy (:meth:`SBLB.guarantee`, through :mod:`dpverify.accountants`): each
report is ε0-LDP (Prop. 4); each release is (ε_{j,c}, δ0 + δ)-DP (Prop. 13,
:func:`~dpverify.accountants.shuffle_papers.garcelon_per_batch_epsilon`);
all ⌈T/l⌉ releases together are (ε_total, δ_total + δ)-DP
(:func:`~dpverify.accountants.shuffle_papers.garcelon_total_guarantee`:
advanced composition as the paper, or optimal / PLD), hence the actions are
(ε_total, δ_total + δ)-JDP (Prop. 6, post-processing; δ = the failure
probability of the LDP-noise concentration event E_δ).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np
from numpy.typing import NDArray

import dpverify.bandits.contextual.parameters as _params
from dpverify._deprecation import renamed_parameters, renamed_property
from dpverify._numeric import round_up, working_precision
from dpverify._validation import (
    check_choice,
    check_delta,
    check_epsilon,
    check_flag,
    check_positive,
    check_positive_int,
    value_error,
)
from dpverify.accountants.shuffle_papers import (
    GARCELON_COMPOSITIONS,
    garcelon_per_batch_epsilon,
    garcelon_total_guarantee,
)
from dpverify.bandits._policy import BanditGuarantee
from dpverify.bandits.contextual._deployment import sblb_plan, sound_parameters
from dpverify.bandits.contextual._engine import Learner
from dpverify.bandits.contextual.reports import (
    debias,
    encoded_ones,
    per_user_counts,
    randomize_totals,
)
from dpverify.bandits.plan import MODES, instance_sizes
from dpverify.guarantees import ApproxDP, PureDP
from dpverify.mechanisms.encoding import LocalPrivatizer

__all__ = ["SBLB", "ShuffledLinearLearner"]


def _basic_total(q: _params.SBLBParameters, horizon: int) -> ApproxDP:
    """Basic composition of the ⌈T/l⌉ releases, each (ε_c at δ0/T, δ0/T): (k ε_c, k δ0/T), rounded up."""
    batches = q.shuffler_batches
    per_batch = garcelon_per_batch_epsilon(q.batch_length, q.randomization_probability, bits=q.bits,
                                           dimension=q.dimension, delta=q.shuffle_delta / horizon)
    with working_precision():
        epsilon = round_up(batches * mpmath.mpf(per_batch), relative_error=1e-40)
    return ApproxDP(epsilon, _delta_sum(batches * Fraction(q.shuffle_delta) / horizon))


def _delta_sum(*deltas: float | Fraction) -> float:
    """``Σ δ`` rounded up (exact rationals); a sum >= 1 is a vacuous guarantee and an error."""
    total = round_up(sum(Fraction(delta) for delta in deltas))
    if total >= 1:
        raise value_error("delta", float(sum(Fraction(d) for d in deltas)),
                          "a total below 1 (shuffle_delta and delta together)")
    return total


class ShuffledLinearLearner(Learner):
    """One run's state of SBLB / fixed-batch SBLB / LDP LinUCB (``unit = l``, or 1 without a shuffler)."""

    def __init__(self, params: _params.SBLBParameters, *, unit: int, fixed_batch: bool,
                 per_user: bool, radius_scale: float = 1.0) -> None:
        self.params = params
        self.radius_scale = radius_scale
        self.unit = unit
        self.fixed_batch = fixed_batch
        self.per_user = per_user
        self.eta = params.eta
        self.scale = params.context_bound
        self.privatizer = LocalPrivatizer(dimension=params.dimension, bits=params.bits,
                                          local_epsilon=params.local_epsilon,
                                          context_bound=params.context_bound)
        self.p = self.privatizer.randomization_probability
        if not self.p < 1:  # ε0 so small that p rounds to 1: the reports are pure noise
            raise value_error("epsilon", params.epsilon, "large enough that the reports carry "
                              f"signal: its local_epsilon={params.local_epsilon!r} makes the "
                              "randomization probability 1 to float precision (every report "
                              "is noise, the confidence radius infinite)")
        self._noise = (1 / params.bits + 2 / ((1 - self.p) * math.sqrt(params.bits)))
        super().__init__(params.dimension)

    def lam_j(self, samples: NDArray) -> NDArray:
        """Eq. (8) at the samples aggregated (vectorised; λ at t = 0)."""
        t = np.asarray(samples, dtype=float)
        safe = np.where(t > 0, t, 1.0)
        logs = np.where(t > 0, safe * np.log(2 * safe / self.params.delta), 0.0)
        return np.sqrt(8 * logs) * self._noise + self.params.regularization

    def regularization(self, samples: NDArray) -> NDArray:
        return 2 * self.lam_j(samples) - self.params.regularization

    def radius(self, samples: float, regularization: float) -> float:
        q = self.params
        return _params.confidence_radius(
            samples, failure_probability=q.delta, sigma=q.sigma, dimension=q.dimension,
            context_bound=q.context_bound, theta_bound=q.theta_bound, bits=q.bits,
            randomization_probability=self.p,
            regularization=(regularization + q.regularization) / 2)

    def user_stats(self, chosen: NDArray, rewards: NDArray, rng: np.random.Generator) -> NDArray:
        if self.per_user:  # every user's M_LDP bits
            return per_user_counts(self.privatizer, chosen, rewards, rng=rng)
        return encoded_ones(self.privatizer, chosen, rewards, rng=rng)

    def release(self, summed: NDArray, rng: np.random.Generator) -> NDArray:
        if self.per_user:  # already the sums of the randomized bits (shuffling leaves sums alone)
            return summed
        return randomize_totals(summed, self.unit, bits=self.params.bits,
                                randomization_probability=self.p, rng=rng)

    def increments(self, released: NDArray) -> tuple[NDArray, NDArray]:
        return debias(released, self.unit, dimension=self.params.dimension, bits=self.params.bits,
                      randomization_probability=self.p)


@renamed_parameters(form="batch_form", L="context_bound", S="theta_bound")
@dataclass(frozen=True)
class SBLB:
    """SBLB (Alg. 1), or with ``fixed_batch=True`` Alg. 4, at the parameters of Cor. 7 or Cor. 8.

    Parameters
    ----------
    epsilon, delta
        The central (JDP) target (δ0 = δ).
    regime, batch_form
        :func:`~dpverify.bandits.contextual.parameters.sblb_parameters`'s
        ``"cor8"`` (default) or ``"cor7"``, and the form of Thm 5's Eq. (3) that
        fixes the batch length (``"derived"``, default, or ``"printed"``).
    strict
        Enforce Cor. 8's ``ε <= 1/(27 T^{1/4})`` (default False: only p > 0).
    batch_length
        Override l (not the paper's; the guarantee is recomputed for it).
    context_bound, theta_bound, sigma
        Assumption 3's bounds L (contexts' norm), S (θ*'s norm) and σ (the rewards'
        sub-Gaussian noise; 1/2 for the Bernoulli instances).
    radius_scale
        Multiplies β_j in the users' UCB (default 1: Eq. (7) as printed). Not
        in the paper: an exploration knob for experiments (privacy unaffected:
        the users' choice is local post-processing of the released model).
    mode
        ``"paper"`` (default): Cor. 7/8 at (ε, δ), δ0 = δ, advanced composition
        (the total exceeds the request in δ); ``"sound"``: the total meets
        (ε, δ) (:mod:`~dpverify.bandits.contextual._deployment`).

    >>> algo = SBLB(epsilon=0.001, delta=1e-6)
    >>> params = algo.parameters(horizon=10**4, dimension=2)
    >>> params.batch_length > 10**4, algo.name
    (True, 'sblb')
    """

    epsilon: float
    delta: float = 1e-6
    regime: str = "cor8"
    batch_form: str = "derived"
    fixed_batch: bool = False
    strict: bool = False
    batch_length: int | None = None
    context_bound: float = 1.0
    theta_bound: float = 1.0
    sigma: float = 0.5
    radius_scale: float = 1.0
    mode: str = "paper"

    # the old spellings, read-only, for one release
    form = renamed_property("form", "batch_form")
    L = renamed_property("L", "context_bound")
    S = renamed_property("S", "theta_bound")

    def __post_init__(self) -> None:
        object.__setattr__(self, "epsilon", check_epsilon(self.epsilon, allow_zero=False))
        object.__setattr__(self, "delta", check_delta(self.delta, allow_zero=False))
        object.__setattr__(self, "mode", check_choice(self.mode, "mode", MODES))
        check_positive(self.radius_scale, "radius_scale")
        check_choice(self.regime, "regime", _params.REGIMES)
        check_choice(self.batch_form, "batch_form", _params.BATCH_FORMS)
        if self.batch_length is not None:
            object.__setattr__(self, "batch_length", check_positive_int(self.batch_length,
                                                                         "batch_length"))
        for name in ("context_bound", "theta_bound", "sigma"):
            check_positive(getattr(self, name), name)
        check_flag(self.fixed_batch, "fixed_batch")
        check_flag(self.strict, "strict")

    @property
    def name(self) -> str:
        return "sblb-fixed-batch" if self.fixed_batch else "sblb"

    def parameters(self, *, horizon: int, dimension: int) -> _params.SBLBParameters:
        """The deployment's parameters (Cor. 7/8; l from Thm 5 unless overridden; calibrated in sound mode)."""
        if self.mode == "sound":
            return sound_parameters(self, check_positive_int(horizon, "horizon"),
                                    check_positive_int(dimension, "dimension"))
        params = _params.sblb_parameters(self.epsilon, self.delta, horizon, dimension, self.regime,
                                         batch_form=self.batch_form,
                                         context_bound=self.context_bound,
                                         theta_bound=self.theta_bound, sigma=self.sigma,
                                         strict=self.strict)
        return params if self.batch_length is None else replace(params,
                                                                batch_length=self.batch_length)

    def start(self, *, horizon: int, dimension: int, per_user: bool = False) -> Learner:
        params = self.parameters(horizon=horizon, dimension=dimension)
        return ShuffledLinearLearner(params, unit=params.batch_length,
                                     fixed_batch=self.fixed_batch, per_user=per_user,
                                     radius_scale=self.radius_scale)

    @renamed_parameters(actions="n_arms")
    def plan(self, *, horizon: int, n_arms: int | None = None,
             dimension: int | None = None) -> Any:
        """Every deployment parameter (Cor. 7/8, Thm 5's l, the releases); infeasible when l > T.

        >>> plan = SBLB(1.0, regime="cor7", mode="sound").plan(horizon=10 ** 5, dimension=2)
        >>> plan.claim_met, plan.feasible_horizon > 10 ** 5
        (False, True)
        """
        sizes = instance_sizes("contextual", n_arms=n_arms, dimension=dimension,
                               required=("dimension",))
        return sblb_plan(self, horizon=check_positive_int(horizon, "horizon"),
                         dimension=sizes["dimension"], n_arms=sizes["n_arms"])

    def guarantee(self, *, horizon: int, dimension: int, composition: str | None = None,
                  fallback: bool = True) -> BanditGuarantee:
        """LDP ε0, per-release ε_{j,c} (Prop. 13) and the total over ⌈T/l⌉ releases (Thm 5's proof).

        ``composition``: ``"advanced"`` (the paper; the default in paper mode),
        ``"optimal"`` or ``"pld"`` (the default in sound mode).
        When ε_c is so large that the composition overflows, ``fallback=True``
        reports basic composition instead (said in the notes); ``False`` raises.
        """
        if composition is None:
            composition = "pld" if self.mode == "sound" else "advanced"
        composition = check_choice(composition, "composition", GARCELON_COMPOSITIONS)
        q = self.parameters(horizon=horizon, dimension=dimension)
        per_batch = garcelon_per_batch_epsilon(q.batch_length, q.randomization_probability,
                                               bits=q.bits, dimension=q.dimension,
                                               delta=q.shuffle_delta)
        try:
            total = garcelon_total_guarantee(q.batch_length, horizon, q.randomization_probability,
                                             bits=q.bits, dimension=q.dimension,
                                             delta=q.shuffle_delta,
                                             delta_slack=q.shuffle_delta, composition=composition)
        except (ValueError, OverflowError):  # ε_c so large that composing it overflows
            if not fallback:
                raise
            composition = "basic (the requested composition overflows)"
            total = _basic_total(q, horizon)
        with_event = ApproxDP(total.epsilon, _delta_sum(total.delta, q.delta))
        released = horizon // q.batch_length
        notes = (f"local: {PureDP(q.local_epsilon)!r} per report (Prop. 4); per release: Prop. 13 "
                 f"at delta0 (+ delta for E_delta); total: {composition} composition of "
                 f"ceil(T/l) = {q.shuffler_batches} releases ({released} complete), per-batch "
                 f"delta0/T, slack delta0, + delta (E_delta); l = {q.batch_length} "
                 f"(Thm 5, {q.batch_form} form{'' if self.batch_length is None else ', overridden'})"
                 + ("; l > T: no batch completes, nothing is ever released (the accountants' "
                    "number is then only an upper bound)" if released == 0 else ""))
        return BanditGuarantee(model="shuffle",
                               per_batch=ApproxDP(per_batch, _delta_sum(q.shuffle_delta, q.delta)),
                               total=with_event, approx_dp=with_event, notes=notes,
                               requested=ApproxDP(self.epsilon, self.delta))

    def total_epsilons(self, *, horizon: int, dimension: int) -> dict[str, float | None]:
        """The total ε by every composition of :data:`GARCELON_COMPOSITIONS` (None where it fails).

        The same δ for all (per-batch δ0/T, slack δ0, + δ): the paper's
        advanced composition next to the tighter optimal and PLD ones.

        >>> eps = SBLB(1.0, regime="cor7").total_epsilons(horizon=10**5, dimension=2)
        >>> eps["pld"] <= eps["advanced"]
        True
        """
        out: dict[str, float | None] = {}
        for composition in GARCELON_COMPOSITIONS:
            with warnings.catch_warnings():  # astronomically large ε_c overflow inside numpy
                warnings.simplefilter("ignore", RuntimeWarning)
                try:
                    out[composition] = self.guarantee(
                        horizon=horizon, dimension=dimension, composition=composition,
                        fallback=False).approx_dp.epsilon
                except (ValueError, OverflowError):
                    out[composition] = None
        return out

    def local_epsilon(self, *, horizon: int, dimension: int) -> float:
        return self.parameters(horizon=horizon, dimension=dimension).local_epsilon

