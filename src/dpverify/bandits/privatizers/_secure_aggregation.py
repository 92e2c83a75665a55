"""Chowdhury & Zhou 2023's privacy protocol P = (R, S, A) with discrete noise and secure aggregation.

Every privatizer here follows their Alg. 1 l. 18–30:

* **R** (each user): randomized rounding ``x̂ = ⌊xg⌋ + Ber(xg − ⌊xg⌋)``
  (:func:`dpverify.mechanisms.randomized_rounding`), plus its share of the noise
  ``η_i``, sent as ``y = (x̂ + η) mod m``;
* **S**: secure aggregation, ``ŷ = (Σ y_i) mod m``
  (:class:`dpverify.mechanisms.SecureAggregation`);
* **A**: ``z = (ŷ − m)/g`` if ``ŷ > ng + τ`` (underflow correction), else ``ŷ/g``.

with ``m = ng + 2τ + 1`` (the parameters (n, g, τ, m) of each theorem are in
:mod:`dpverify.bandits.privatizers._protocol`). The instantiations (Thms 1–4)
differ in the noise and in (g, τ): :class:`PolyaSecureAggregation` (Dist-DP-SE, Thm 1),
:class:`SkellamSecureAggregation` (Dist-RDP-SE, Thm 2),
:class:`DiscreteGaussianSecureAggregation` (Dist-CDP-SE, Thm 4),
:class:`PolyaShuffle` (Thm 3, shuffle model through a relaxed SecAgg); the central and local
variants of App. H are in :mod:`dpverify.bandits.privatizers._central_local`.

Two paths with the same law: ``per_user=True`` runs every user's randomizer,
the modular secure sum and the analyser (auditable); the fast path draws the
**total** noise from its exact law (sum of n Pólya differences = discrete
Laplace, sum of Skellams = Skellam, …) and applies the same modular analyser
to ``Σ x̂ + Σ η``, which is the same number as ``(Σ y_i) mod m``.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import numpy as np

from dpverify._deprecation import renamed_parameters, renamed_property
from dpverify._numeric import round_down, round_up
from dpverify._validation import (
    check_choice,
    check_epsilon,
    check_failure_probability,
    check_in_range,
    check_positive_int,
    value_error,
)
from dpverify.bandits._policy import RewardBatch
from dpverify.bandits.plan import noise_parameters
from dpverify.bandits.privatizers._aggregate_laws import (
    distributed_discrete_gaussian_zcdp,
    simulation_discrete_gaussian_sum,
)
from dpverify.bandits.privatizers._base import ErrorLaw
from dpverify.bandits.privatizers._protocol import (
    SECURE_AGGREGATION,
    ProtocolParameters,
    distributed_cdp_parameters,
    distributed_dp_parameters,
    distributed_rdp_parameters,
    regret_assumption_note,
)
from dpverify.guarantees import Guarantee, PureDP
from dpverify.mechanisms import (
    DiscreteGaussian,
    DiscreteLaplace,
    PolyaDifference,
    SecureAggregation,
    Skellam,
    privacy_map,
    randomized_rounding,
    sample_aggregate,
    sample_users,
)

__all__ = [
    "PolyaSecureAggregation",
    "SkellamSecureAggregation",
    "DiscreteGaussianSecureAggregation",
    "PolyaShuffle",
    # the protocol's parameters, defined in _protocol (kept importable from here)
    "ProtocolParameters",
    "distributed_dp_parameters",
    "distributed_rdp_parameters",
    "distributed_cdp_parameters",
]


class _SecureAggregationPrivatizer:
    """Shared (R, S, A) machinery; subclasses define parameters, noise, guarantee and tails."""

    model = SECURE_AGGREGATION
    simulation = False  # True when the protocol itself is only simulated (Thm 3's relaxed SecAgg)

    # -- hooks -------------------------------------------------------------------------
    def parameters(self, users: int) -> ProtocolParameters:
        raise NotImplementedError

    def user_noise(self, parameters: ProtocolParameters) -> Any:
        """The mechanism each user adds to its code (None: no local noise)."""
        return None

    def analyser_noise(self, parameters: ProtocolParameters) -> Any:
        """The mechanism the analyser adds to the secure sum (None: none; central model only)."""
        return None

    def _aggregate_noise(self, parameters: ProtocolParameters, rng: np.random.Generator,
                         size: int | None = None) -> Any:
        """Fast path: the total noise ``Σ η_i`` (+ the analyser's) from its exact law (``size`` draws).

        Default: ``sample_aggregate`` of :meth:`user_noise` over the n users.
        """
        return sample_aggregate(self.user_noise(parameters), 0, users=parameters.users, rng=rng,
                                size=size)

    # -- shared ------------------------------------------------------------------------
    def _require_failure_probability(self) -> float:
        if self.failure_probability is None:
            raise value_error("failure_probability", None, "set (a probability in (0, 0.5])",
                              "use .for_horizon(T) for the theorem's p = 1/T")
        return self.failure_probability

    def for_horizon(self, horizon: int) -> Any:
        """This privatizer with the theorem's failure probability p = 1/T (1/2 at T = 1), unless
        one is set."""
        if self.failure_probability is not None:
            return self
        return replace(self, failure_probability=min(0.5, 1.0 / check_positive_int(horizon,
                                                                                   "horizon")))

    def privatize_sum(self, rewards: RewardBatch, *, rng: np.random.Generator,
                      per_user: bool = False) -> float:
        """The analyser's estimate ``z`` of the batch's reward sum (Chowdhury & Zhou 2023, Alg. 1 l. 8–12)."""
        params = self.parameters(rewards.size)
        aggregation = SecureAggregation(params.modulus)
        if per_user:
            view = self._per_user_view(rewards, params, aggregation, rng)
        else:
            codes = self._code_total(rewards, params.precision, rng)
            view = (codes + int(self._aggregate_noise(params, rng))) % params.modulus
            view = self._relax(view, params, rng)
        estimate = aggregation.analyse(view, users=params.users, precision=params.precision,
                                       tau=params.tau)
        return float(estimate)

    def sample_estimates(self, rewards: RewardBatch, *, size: int, rng: np.random.Generator
                         ) -> np.ndarray:
        """``size`` independent draws of the fast path's estimate, vectorised (for audits).

        Same law as ``size`` calls of :meth:`privatize_sum`: each draw rounds
        the rewards afresh, adds a fresh total noise, reduces mod m and applies
        the analyser's rule (``z = (ŷ − m)/g`` if ``ŷ > ng + τ``, else ``ŷ/g``).
        Needs ``m·(n + 1) < 2^62`` (int64 arithmetic); otherwise it loops.
        """
        size = check_positive_int(size, "size")
        params = self.parameters(rewards.size)
        if params.modulus * (params.users + 1) >= 2 ** 62:
            return np.array([self.privatize_sum(rewards, rng=rng) for _ in range(size)])
        if rewards.binary:
            codes = np.full(size, params.precision * int(rewards.total), dtype=np.int64)
        else:
            values = np.broadcast_to(np.asarray(rewards.individual(), dtype=float), (size, rewards.size))
            codes = randomized_rounding(values, precision=params.precision, rng=rng).sum(axis=1)
        noise = np.asarray(self._aggregate_noise(params, rng, size), dtype=np.int64)
        views = self._relax_many(np.mod(codes + noise, params.modulus), params, rng)
        corrected = np.where(views > params.users * params.precision + params.tau,
                             views - params.modulus, views)
        return corrected / params.precision

    def _relax_many(self, views: np.ndarray, params: ProtocolParameters,
                    rng: np.random.Generator) -> np.ndarray:
        return views

    def deployment(self, users: int) -> dict[str, Any]:
        """Every parameter a batch of ``users`` runs with: (n, g, τ, m, bits) and the noise laws.

        Read from :meth:`parameters`, :meth:`user_noise` and :meth:`analyser_noise`,
        the very methods :meth:`privatize_sum` calls (plans and runs share them).
        """
        params = self.parameters(users)
        out: dict[str, Any] = {**params.as_dict(), "noise_epsilon": self.epsilon,
                               "noise_failure_probability_p": self._require_failure_probability()}
        out.update(noise_parameters(self.user_noise(params), role="user"))
        out.update(noise_parameters(self.analyser_noise(params), role="analyser"))
        return out

    @staticmethod
    def _code_total(rewards: RewardBatch, precision: int, rng: np.random.Generator) -> int:
        """``Σ x̂_i``: exactly ``g·Σ r_i`` for binary rewards, else randomized rounding of each."""
        if rewards.binary:
            return precision * int(rewards.total)
        return int(np.sum(randomized_rounding(rewards.individual(), precision=precision, rng=rng)))

    def _per_user_view(self, rewards: RewardBatch, params: ProtocolParameters,
                       aggregation: SecureAggregation, rng: np.random.Generator) -> int:
        values = np.asarray(rewards.individual(), dtype=float)
        codes = np.atleast_1d(randomized_rounding(values, precision=params.precision, rng=rng))
        noise_mechanism = self.user_noise(params)
        if noise_mechanism is None:
            noise = np.zeros(params.users, dtype=np.int64)
        else:
            noise = sample_users(noise_mechanism, 0, users=params.users, rng=rng)
        messages = aggregation.randomize(codes.tolist(), [int(v) for v in noise])
        view = self._relax(aggregation.aggregate(messages), params, rng)
        central = self.analyser_noise(params)
        if central is not None:  # Chowdhury & Zhou 2023, Alg. 3: η mod m added to the secure sum
            view = (view + int(sample_aggregate(central, 0, users=1, rng=rng))) % params.modulus
        return view

    def _relax(self, view: int, params: ProtocolParameters, rng: np.random.Generator) -> int:
        """The secure sum as the analyser receives it (exact for a perfect SecAgg)."""
        return view

    def estimate_error_law(self, users: int) -> ErrorLaw:
        raise NotImplementedError


def _cached(method: Any) -> Any:
    """Memoise a per-batch-size method of a frozen (hashable) privatizer."""
    return functools.lru_cache(maxsize=512)(method)


# ------------------------------------------------------------------------- Thm 1: Pólya


@renamed_parameters(tail_probability="failure_probability")
@dataclass(frozen=True)
class PolyaSecureAggregation(_SecureAggregationPrivatizer):
    """Dist-DP-SE's protocol (Chowdhury & Zhou 2023, Thm 1): Pólya shares, secure aggregation, pure ε-DP.

    User i adds ``η_i = γ⁺ − γ⁻``, ``γ± ~ Pólya(1/n, e^{−ε/g})`` i.i.d.
    (:class:`~dpverify.mechanisms.PolyaDifference`, Gamma **scale β/(1−β)**,
    as in footnote 3, not the inverse scale of the authors' public code); the n shares
    sum to exactly ``Lap_Z(g/ε)``, so the secure sum of the codes (sensitivity
    g) is ε-DP. Tail constants for β(b) (Assumption 1; the proof of Thm 1 gives
    O(1/ε), these values are the public code's): σ = √2/ε, h = 1/ε.

    ``failure_probability`` is the p of the modulus' accuracy τ: the probability
    that the total noise leaves [−τ, τ] (the sum wraps around), in (0, 1/2];
    ``None`` until :meth:`for_horizon` sets the theorem's p = 1/T.

    >>> privatizer = PolyaSecureAggregation(0.5, failure_probability=1e-6)
    >>> privatizer.guarantee(1024)
    PureDP(epsilon=0.5)
    """

    epsilon: float
    failure_probability: float | None = None
    name = "Pólya + SecAgg (Dist-DP-SE)"

    # the old spellings, read-only, for one release
    tail_probability = renamed_property("tail_probability", "failure_probability")

    def __post_init__(self) -> None:
        object.__setattr__(self, "epsilon", check_epsilon(self.epsilon, allow_zero=False))
        if self.failure_probability is not None:
            check_failure_probability(self.failure_probability)

    def _noise_epsilon(self) -> float:
        return self.epsilon

    @_cached
    def parameters(self, users: int) -> ProtocolParameters:
        return distributed_dp_parameters(self._noise_epsilon(), users,
                                         self._require_failure_probability())

    def user_noise(self, parameters: ProtocolParameters) -> PolyaDifference:
        return PolyaDifference(shares=parameters.users,
                               scale=parameters.precision / self._noise_epsilon())

    @_cached
    def guarantee(self, users: int) -> Guarantee:
        """Per batch: ``privacy_map`` of the n Pólya shares at sensitivity g (pure DP)."""
        params = self.parameters(users)
        return privacy_map(self.user_noise(params), sensitivity=params.precision)

    def estimate_error_law(self, users: int) -> ErrorLaw:
        e = self._noise_epsilon()
        return ErrorLaw(sigma=math.sqrt(2) / e, sub_exponential_scale=1 / e,
                        noise=DiscreteLaplace(self.parameters(users).precision / e),
                        description="Lap_Z(g/ε)/g + rounding (Chowdhury & Zhou 2023, Thm 1)")


# ------------------------------------------------------------------------- Thm 3: shuffle


@renamed_parameters(tail_probability="failure_probability")
@dataclass(frozen=True)
class PolyaShuffle(PolyaSecureAggregation):
    """Chowdhury & Zhou 2023, Thm 3 (App. D.2): Thm 1's protocol over an (ε̂, q̂)-relaxed SecAgg, by shuffling.

    As far as the paper specifies it (Thm 3, App. D.2): the Pólya noise, g and τ
    use **ε′ = ε/2** and ``p′ = 1/(2T)`` (``failure_probability``); the
    shuffle protocol of Cheu & Yan 2021 (``S′∘R′ⁿ``) is an (ε̂ = ε/4, q̂ = p′)
    relaxation of secure aggregation, and the total loss is
    ``2ε̂ + ε′ = ε`` (proof of Thm 3). The concrete R′ is not given in the paper, so
    **this is a labelled simulation**: the secure sum is exact except with
    probability q̂, when a uniformly random residue replaces it (an idealised
    relaxed-correctness failure).

    >>> privatizer = PolyaShuffle(1.0, failure_probability=1e-6)
    >>> privatizer.parameters(64).precision, privatizer.guarantee(64)
    (4, PureDP(epsilon=1.0))
    """

    name = "Pólya + relaxed SecAgg by shuffling (Thm 3, simulated)"
    model = "shuffle (relaxed secure aggregation, simulated)"
    simulation = True

    def _noise_epsilon(self) -> float:
        return self.epsilon / 2

    def for_horizon(self, horizon: int) -> Any:
        """Thm 3's ``p′ = q̂ = 1/(2T)``, unless a failure probability is set."""
        if self.failure_probability is not None:
            return self
        return replace(self, failure_probability=1.0 / (2 * check_positive_int(horizon,
                                                                               "horizon")))

    def _relax(self, view: int, params: ProtocolParameters, rng: np.random.Generator) -> int:
        if rng.random() < self._require_failure_probability():
            return int(rng.integers(params.modulus))
        return view

    def _relax_many(self, views: np.ndarray, params: ProtocolParameters,
                    rng: np.random.Generator) -> np.ndarray:
        failed = rng.random(views.shape) < self._require_failure_probability()
        return np.where(failed, rng.integers(params.modulus, size=views.shape), views)

    @_cached
    def guarantee(self, users: int) -> Guarantee:
        """``2ε̂ + ε′`` with ε̂ = ε/4 (relaxed security) and ε′ the Pólya protocol's exact ε."""
        inner = PolyaSecureAggregation.guarantee.__wrapped__(self, users)
        return PureDP(round_up(Fraction(self.epsilon) / 2 + Fraction(inner.epsilon)))


# ------------------------------------------------------------------------- Thm 2: Skellam


@renamed_parameters(tail_probability="failure_probability")
@dataclass(frozen=True)
class SkellamSecureAggregation(_SecureAggregationPrivatizer):
    """Dist-RDP-SE's protocol (Chowdhury & Zhou 2023, Thm 2): Skellam shares ``Sk(0, g²/(nε²))``, RDP.

    The total noise is ``Sk(0, g²/ε²)`` (Skellams add), so the secure sum has
    the Skellam mechanism's RDP at sensitivity g (Agarwal et al. 2021, Thm 3.5;
    integer orders only, as in their Lemma 3), evaluated with the actual ⌈·⌉-ed g
    (the bound decreases in g). Tail constants (the proof of Thm 2 gives O(1/ε)
    and O(1/(sε)); these values are the authors' public code's): σ = 2/ε + √2/(sε), h = 1/(sε).

    >>> privatizer = SkellamSecureAggregation(1.0, scale_factor=10, failure_probability=1e-6)
    >>> round(privatizer.guarantee(1024).epsilon_at(2), 5)
    1.00001
    """

    epsilon: float
    scale_factor: float = 10.0
    failure_probability: float | None = None
    tau_rule: str = "paper"
    name = "Skellam + SecAgg (Dist-RDP-SE)"

    # the old spellings, read-only, for one release
    tail_probability = renamed_property("tail_probability", "failure_probability")

    def __post_init__(self) -> None:
        object.__setattr__(self, "epsilon", check_epsilon(self.epsilon, allow_zero=False))
        check_in_range(self.scale_factor, "scale_factor", 1.0, math.inf, high_closed=False)
        check_choice(self.tau_rule, "tau_rule", ("paper", "code"))
        if self.failure_probability is not None:
            check_failure_probability(self.failure_probability)

    @_cached
    def parameters(self, users: int) -> ProtocolParameters:
        return distributed_rdp_parameters(self.epsilon, users, self._require_failure_probability(),
                                          scale_factor=self.scale_factor, tau_rule=self.tau_rule)

    def user_noise(self, parameters: ProtocolParameters) -> Skellam:
        """``Sk(0, g²/(nε²))``: Skellam(mu) has variance 2·mu."""
        return Skellam(mu=parameters.precision ** 2 / (2 * parameters.users * self.epsilon ** 2))

    @_cached
    def guarantee(self, users: int) -> Guarantee:
        """RDP curve of the total ``Skellam(n·mu)`` at sensitivity g (n·mu rounded down: less noise)."""
        params = self.parameters(users)
        total_mu = round_down(Fraction(self.user_noise(params).mu) * params.users)
        return privacy_map(Skellam(mu=total_mu), sensitivity=params.precision)

    def estimate_error_law(self, users: int) -> ErrorLaw:
        e, s = self.epsilon, self.scale_factor
        params = self.parameters(users)
        return ErrorLaw(sigma=2 / e + math.sqrt(2) / (s * e),
                        sub_exponential_scale=1 / (s * e),
                        noise=Skellam(mu=params.precision ** 2 / (2 * e ** 2)),
                        description="Sk(0, g²/ε²)/g + rounding (Chowdhury & Zhou 2023, Thm 2)")


# ------------------------------------------------------------------------- Thm 4: discrete Gaussian


@renamed_parameters(tail_probability="failure_probability")
@dataclass(frozen=True)
class DiscreteGaussianSecureAggregation(_SecureAggregationPrivatizer):
    """Dist-CDP-SE's protocol (Chowdhury & Zhou 2023, Thm 4, App. F): discrete Gaussian shares ``N_Z(0, g²/(nε²))``.

    The sum of discrete Gaussians is **not** discrete Gaussian (hence their Lemma 4): the
    per-batch guarantee is Kairouz–Liu–Steinke's ½ε̂²-CDP with the ξ correction
    at the actual n (:func:`distributed_discrete_gaussian_zcdp`). The fast path
    draws the sum from its FFT-computed pmf (simulation only). Tail constants
    (our derivation; the paper states no constants): σ = √2/ε + √2/(sε), h = 0.

    Thm 4's **regret** bound assumes ε ∈ (0, 1); its privacy statement (Lemma 4
    with Kairouz–Liu–Steinke's bound) does not, and the guarantee reported is
    computed at the actual σ and n. So every ε > 0 is accepted, as for CDP-SE
    and LDP-SE (Thms 5–6 carry the same assumption), and for ε >= 1
    :attr:`theorem_note` says that the regret theorem's assumption is left
    (their Fig. 4 runs ε = 1).

    >>> privatizer = DiscreteGaussianSecureAggregation(0.5, failure_probability=1e-6)
    >>> round(privatizer.guarantee(1024).rho, 6)
    0.125
    """

    epsilon: float
    scale_factor: float = 10.0
    failure_probability: float | None = None
    name = "discrete Gaussian + SecAgg (Dist-CDP-SE)"

    # the old spellings, read-only, for one release
    tail_probability = renamed_property("tail_probability", "failure_probability")

    def __post_init__(self) -> None:
        object.__setattr__(self, "epsilon", check_epsilon(self.epsilon, allow_zero=False))
        check_in_range(self.scale_factor, "scale_factor", 1.0, math.inf, high_closed=False)
        if self.failure_probability is not None:
            check_failure_probability(self.failure_probability)

    @property
    def theorem_note(self) -> str:
        return regret_assumption_note(self.epsilon, "Thm 4")

    @_cached
    def parameters(self, users: int) -> ProtocolParameters:
        return distributed_cdp_parameters(self.epsilon, users, self._require_failure_probability(),
                                          scale_factor=self.scale_factor)

    def user_noise(self, parameters: ProtocolParameters) -> DiscreteGaussian:
        return DiscreteGaussian(sigma=parameters.precision / (self.epsilon * math.sqrt(parameters.users)))

    def _aggregate_noise(self, parameters: ProtocolParameters, rng: np.random.Generator,
                         size: int | None = None) -> Any:
        sigma = self.user_noise(parameters).sigma
        return simulation_discrete_gaussian_sum(sigma, parameters.users, rng=rng, size=size)

    @_cached
    def guarantee(self, users: int) -> Guarantee:
        params = self.parameters(users)
        sigma = self.user_noise(params).sigma
        return distributed_discrete_gaussian_zcdp(sigma, params.users, sensitivity=params.precision)

    def estimate_error_law(self, users: int) -> ErrorLaw:
        e, s = self.epsilon, self.scale_factor
        return ErrorLaw(sigma=math.sqrt(2) / e + math.sqrt(2) / (s * e),
                        sub_exponential_scale=0.0,
                        noise=None, description="Σ N_Z(0, g²/(nε²))/g + rounding (Thm 4)")
