"""Privatizers: the (randomizer, secure computation, analyser) of one batch, built from mechanisms.

A bandit algorithm never adds noise itself (STYLE rule 9): after each batch
it hands the batch's rewards to a privatizer and gets back the analyser's
estimate of their sum. Every privatizer has

* ``privatize_sum(rewards, *, rng, per_user=False)`` — the estimate; with
  ``per_user=True`` every user's randomizer and the secure aggregation /
  shuffler run message by message (the auditable path), otherwise the
  aggregate noise is drawn from its exact law (same law, fast);
* ``guarantee(n)`` — the per-batch guarantee for ``n`` users, through
  :func:`dpverify.mechanisms.privacy_map` and :mod:`dpverify.accountants`;
* ``estimate_error_law(n)`` — an :class:`ErrorLaw` for confidence widths;
* ``name`` and ``model`` (the trust model the guarantee holds in).

Privatizers (CATALOGUE A2.7 for chowdhury 2023, 002.2 for tenenbaum 2021):

=================================  ==================================  ==========================
privatizer                         paper                               guarantee per batch
=================================  ==================================  ==========================
:class:`PolyaSecureAggregation`     chowdhury Thm 1 (Dist-DP-SE)        pure ε (distributed)
:class:`SkellamSecureAggregation`   chowdhury Thm 2 (Dist-RDP-SE)       RDP (distributed)
:class:`DiscreteGaussianSecureAggregation` chowdhury Thm 4 (Dist-CDP-SE) zCDP (distributed)
:class:`PolyaShuffle`               chowdhury Thm 3 (simulated)         pure ε (shuffle)
:class:`CentralDiscreteLaplace`     chowdhury Thm 5 (CDP-SE)            pure ε (central)
:class:`LocalDiscreteLaplace`       chowdhury Thm 6 (LDP-SE)            pure ε (local)
:class:`CentralLaplace`             Sajed & Sheffet 2019 (DP-SE)        pure ε (central)
:class:`ShuffledNoisyBits`          tenenbaum M_sum, reading (a)        (ε, δ) (shuffle)
:class:`ShuffledRandomizedResponse` tenenbaum M_sum, reading (b)        (ε, δ) (shuffle)
:class:`NonPrivate`                 baseline                            none
=================================  ==================================  ==========================
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from dpverify._validation import check_delta, check_epsilon, check_positive_int, value_error
from dpverify.bandits._policy import RewardBatch
from dpverify.bandits._privatizer_base import (
    ErrorLaw,
    Privatizer,
    as_approx_dp,
    worst_case_guarantee,
)
from dpverify.bandits._central_local import CentralDiscreteLaplace, LocalDiscreteLaplace
from dpverify.bandits._secure_aggregation import (
    DiscreteGaussianSecureAggregation,
    PolyaSecureAggregation,
    PolyaShuffle,
    ProtocolParameters,
    SkellamSecureAggregation,
    distributed_cdp_parameters,
    distributed_dp_parameters,
    distributed_rdp_parameters,
)
from dpverify.errors import CalibrationError
from dpverify.guarantees import ApproxDP, Guarantee
from dpverify.mechanisms import BinarySummation, Laplace, privacy_map, sample

__all__ = [
    "Privatizer",
    "ErrorLaw",
    "ProtocolParameters",
    "NonPrivate",
    "CentralLaplace",
    "PolyaSecureAggregation",
    "SkellamSecureAggregation",
    "DiscreteGaussianSecureAggregation",
    "PolyaShuffle",
    "CentralDiscreteLaplace",
    "LocalDiscreteLaplace",
    "ShuffledNoisyBits",
    "ShuffledRandomizedResponse",
    "distributed_dp_parameters",
    "distributed_rdp_parameters",
    "distributed_cdp_parameters",
    "worst_case_guarantee",
    "as_approx_dp",
]


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
        return ErrorLaw(sigma=0.0, h=0.0, sub_gaussian_variance=0.0, description="exact sum")

    def for_horizon(self, horizon: int) -> NonPrivate:
        return self


@dataclass(frozen=True)
class CentralLaplace:
    """DP-SE's central Laplace mechanism (Sajed & Sheffet 2019; CATALOGUE A2.6, A3.5).

    The trusted server adds **one independent** ``Lap(1/ε)`` draw to each
    arm's epoch reward sum (rewards in [0, 1]: sensitivity 1). The reference
    code of chowdhury adds one shared draw to every arm (trap T3-2), which
    is not private; here every call draws afresh. Continuous Laplace noise:
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
        from dpverify.bandits.plan import noise_parameters

        return {"users_n": check_positive_int(users, "users"), "noise_epsilon": self.epsilon,
                **noise_parameters(self.mechanism, role="analyser")}

    def estimate_error_law(self, users: int) -> ErrorLaw:
        """``P[|Lap(1/ε)| > t] = e^{−εt}``: σ = 0, h = 1/ε."""
        return ErrorLaw(sigma=0.0, h=1.0 / self.epsilon, noise=self.mechanism,
                        description="Lap(1/ε)")

    def for_horizon(self, horizon: int) -> CentralLaplace:
        return self


# --------------------------------------------------------------------------- tenenbaum M_sum


def _cached(method: Any) -> Any:
    """Memoise a per-batch-size method of a frozen (hashable) privatizer."""
    return functools.lru_cache(maxsize=512)(method)


def _bits(rewards: RewardBatch) -> np.ndarray:
    values = np.asarray(rewards.individual())
    if not np.isin(values, (0, 1)).all():
        raise value_error("rewards", f"<{rewards.size} rewards>", "binary (0/1) for M_sum",
                          "tenenbaum's algorithms assume Bernoulli rewards (CATALOGUE T-T8)")
    return values.astype(np.int64)


@dataclass(frozen=True)
class ShuffledNoisyBits:
    """tenenbaum's M_sum, reading (a) "noise-bits" (the default; CATALOGUE 002.2, T-T1).

    Each of the m users of a batch sends its reward bit plus fair coins
    through the shuffler, **N coins in all** for every batch size: with
    ``N = q m + r``, r users send q + 1 coins and the others q (users who send
    no coin when m > N just send their bit). The shuffled multiset is the count
    ``Y = Σ r_i + Bin(N, 1/2)`` and the analyser outputs ``Y − N/2``. The error
    ``Bin(N, 1/2) − N/2`` is unbiased, independent of the input and SG(N/4),
    with **σ_{ε,δ} = √N/2 the same for every m** — the properties tenenbaum
    §2.1 asks of M_sum. N is the smallest number of coins whose binomial
    noise is (ε, δ)-DP at sensitivity 1, exactly
    (:func:`dpverify.accountants.shuffle_papers.tenenbaum_noise_bits`), so
    every batch is (ε, δ)-SDP.

    The per-user path is :class:`dpverify.mechanisms.NoisyBitSummation`
    with the batch's m users and N coins. The paper's Appendix C is missing:
    this is our reading, not the paper's constants.

    >>> privatizer = ShuffledNoisyBits(1.0, 1e-6)
    >>> privatizer.total_noise_bits, privatizer.sigma == 80 ** 0.5 / 2
    (80, True)
    """

    epsilon: float
    delta: float
    name = "shuffled noise bits (tenenbaum M_sum, reading a)"
    model = "shuffle"

    def __post_init__(self) -> None:
        object.__setattr__(self, "epsilon", check_epsilon(self.epsilon, allow_zero=False))
        object.__setattr__(self, "delta", check_delta(self.delta, allow_zero=False))

    @functools.cached_property
    def total_noise_bits(self) -> int:
        """N = :func:`~dpverify.accountants.shuffle_papers.tenenbaum_noise_bits` (ε, δ)."""
        from dpverify.accountants.shuffle_papers import tenenbaum_noise_bits

        return tenenbaum_noise_bits(self.epsilon, self.delta)

    @property
    def sigma(self) -> float:
        """σ_{ε,δ} = √N/2 (:func:`~dpverify.accountants.shuffle_papers.tenenbaum_msum_sigma`)."""
        from dpverify.accountants.shuffle_papers import tenenbaum_msum_sigma

        return tenenbaum_msum_sigma(self.epsilon, self.delta)

    def _per_user_count(self, bits: np.ndarray, rng: np.random.Generator) -> int:
        from dpverify.mechanisms import NoisyBitSummation

        protocol = NoisyBitSummation(users=len(bits), noise_bits=self.total_noise_bits)
        return protocol.simulate(bits, rng=rng, per_user=True)

    def privatize_sum(self, rewards: RewardBatch, *, rng: np.random.Generator,
                      per_user: bool = False) -> float:
        coins = self.total_noise_bits
        if per_user or not rewards.binary:
            count = self._per_user_count(_bits(rewards), rng)
        else:  # fast path: the count is Σ r_i + Bin(N, 1/2), one exact draw
            count = int(rewards.total) + int(rng.binomial(coins, 0.5))
        return float(count) - coins / 2

    def sample_estimates(self, rewards: RewardBatch, *, size: int, rng: np.random.Generator
                         ) -> np.ndarray:
        """``size`` independent draws of :meth:`privatize_sum` (vectorised, for audits)."""
        coins, ones = self.total_noise_bits, int(_bits(rewards).sum())
        counts = ones + rng.binomial(coins, 0.5, size=check_positive_int(size, "size"))
        return counts.astype(float) - coins / 2

    def guarantee(self, users: int) -> Guarantee:
        """``(ε, δ)``: the exact δ of ``Bin(N, 1/2)`` noise at ε, sensitivity 1 (<= the target δ)."""
        return _noise_bits_guarantee(self.epsilon, self.total_noise_bits)

    def deployment(self, users: int) -> dict[str, Any]:
        """m users, N coins in all (⌈N/m⌉ or ⌊N/m⌋ per user, plus the reward bit), σ = √N/2."""
        users = check_positive_int(users, "users")
        coins = self.total_noise_bits
        return {"users_n": users, "noise_bits_N": coins, "sigma_eps_delta": self.sigma,
                "messages_per_user": 1 + -(-coins // users), "noise": "BinomialNoise"}

    @_cached
    def estimate_error_law(self, users: int) -> ErrorLaw:
        from dpverify.mechanisms import BinomialNoise

        variance = self.total_noise_bits / 4
        return ErrorLaw(sigma=math.sqrt(2 * variance), h=0.0,
                        noise=BinomialNoise(trials=self.total_noise_bits),
                        sub_gaussian_variance=variance,
                        description="Bin(N, 1/2) − N/2, SG(N/4), input-independent")

    def for_horizon(self, horizon: int) -> ShuffledNoisyBits:
        return self


@functools.lru_cache(maxsize=64)
def _noise_bits_guarantee(epsilon: float, trials: int) -> ApproxDP:
    from dpverify.guarantees import PrivacyProfile
    from dpverify.mechanisms import BinomialNoise

    profile = privacy_map(BinomialNoise(trials=trials), sensitivity=1, target=PrivacyProfile)
    return ApproxDP(epsilon, profile.delta_for_epsilon(epsilon))


@dataclass(frozen=True)
class ShuffledRandomizedResponse:
    """tenenbaum's M_sum, reading (b): Cheu et al.'s shuffled binary randomized response.

    :class:`dpverify.mechanisms.BinarySummation` with the smallest flip
    probability ``p = min_flip_probability(m, ε, δ)`` whose **exact** shuffled
    guarantee is (ε, δ) for the batch's m users. The debiased error is SG with
    variance proxy ``m/(4(1 − p)²)`` but its law depends on the input, so this
    is not the drop-in tenenbaum §2.1 asks for (CATALOGUE 002.2); it is
    usable only for large batches (SDP-AE with a large fixed m). Raises
    :class:`~dpverify.errors.CalibrationError` when no p < 1 works.
    """

    epsilon: float
    delta: float
    name = "shuffled randomized response (tenenbaum M_sum, reading b)"
    model = "shuffle"

    def __post_init__(self) -> None:
        object.__setattr__(self, "epsilon", check_epsilon(self.epsilon, allow_zero=False))
        object.__setattr__(self, "delta", check_delta(self.delta, allow_zero=False))

    def flip_probability(self, users: int) -> float:
        return _rr_flip_probability(check_positive_int(users, "users"), self.epsilon, self.delta)

    @_cached
    def protocol(self, users: int) -> BinarySummation:
        return BinarySummation(users=users, flip_probability=self.flip_probability(users))

    def privatize_sum(self, rewards: RewardBatch, *, rng: np.random.Generator,
                      per_user: bool = False) -> float:
        protocol = self.protocol(rewards.size)
        if per_user or not rewards.binary:
            count = protocol.simulate(_bits(rewards), rng=rng)
        else:  # fast path: Bin(c, 1 − p/2) + Bin(n − c, p/2), the exact law of the count
            half = protocol.flip_probability / 2
            ones = int(rewards.total)
            count = int(rng.binomial(ones, 1 - half)) + int(rng.binomial(rewards.size - ones, half))
        return float(protocol.estimate(count))

    def sample_estimates(self, rewards: RewardBatch, *, size: int, rng: np.random.Generator
                         ) -> np.ndarray:
        """``size`` independent draws of :meth:`privatize_sum` (vectorised, for audits)."""
        protocol = self.protocol(rewards.size)
        p, n, ones = protocol.flip_probability, rewards.size, int(_bits(rewards).sum())
        size = check_positive_int(size, "size")
        counts = rng.binomial(ones, 1 - p / 2, size=size) + rng.binomial(n - ones, p / 2, size=size)
        return (counts - p * n / 2) / (1 - p)

    def deployment(self, users: int) -> dict[str, Any]:
        """m users, one randomized-response bit each, flip probability p (exact shuffled analysis)."""
        return {"users_n": check_positive_int(users, "users"),
                "flip_probability_p": self.flip_probability(users), "messages_per_user": 1,
                "noise": "BinaryRandomizedResponse"}

    def guarantee(self, users: int) -> Guarantee:
        from dpverify.accountants import shuffled_binary_rr_delta

        users = check_positive_int(users, "users")
        p = self.flip_probability(users)
        return ApproxDP(self.epsilon, shuffled_binary_rr_delta(p, users, self.epsilon))

    @_cached
    def estimate_error_law(self, users: int) -> ErrorLaw:
        p = self.flip_probability(users)
        variance = users / (4 * (1 - p) ** 2)
        return ErrorLaw(sigma=math.sqrt(2 * variance), h=0.0, noise=None,
                        sub_gaussian_variance=variance,
                        description="debiased shuffled RR, SG(m/(4(1−p)²)), input-dependent")

    def for_horizon(self, horizon: int) -> ShuffledRandomizedResponse:
        return self


@functools.lru_cache(maxsize=64)
def _rr_flip_probability(users: int, epsilon: float, delta: float) -> float:
    from dpverify.accountants import min_flip_probability

    p = min_flip_probability(users, epsilon, delta)
    if not p < 1:
        raise CalibrationError(
            f"users={users} is too small for shuffled randomized response at epsilon={epsilon}, "
            f"delta={delta}: only flip probability 1 (pure noise) meets it; use larger batches "
            "or the noise-bits M_sum")
    return p
