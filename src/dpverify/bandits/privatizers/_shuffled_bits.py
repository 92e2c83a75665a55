"""Tenenbaum et al. 2021's shuffled summation M_sum in two readings of §2.1 (its Appendix C was not available)."""

from __future__ import annotations

import functools
import math
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from dpverify._validation import check_delta, check_epsilon, check_positive_int, value_error
from dpverify.accountants import min_randomization_probability, shuffled_binary_rr_delta
from dpverify.accountants.shuffle_papers import tenenbaum_msum_sigma, tenenbaum_noise_bits
from dpverify.bandits._policy import RewardBatch
from dpverify.bandits.privatizers._base import ErrorLaw
from dpverify.errors import CalibrationError
from dpverify.guarantees import ApproxDP, Guarantee, PrivacyProfile
from dpverify.mechanisms import BinarySummation, BinomialNoise, NoisyBitSummation, privacy_map

__all__ = ["ShuffledNoisyBits", "ShuffledRandomizedResponse"]


# --------------------------------------------------------------------------- M_sum (Tenenbaum et al. 2021)


def _cached(method: Any) -> Any:
    """Memoise a per-batch-size method of a frozen (hashable) privatizer."""
    return functools.lru_cache(maxsize=512)(method)


def _bits(rewards: RewardBatch) -> np.ndarray:
    values = np.asarray(rewards.individual())
    if not np.isin(values, (0, 1)).all():
        raise value_error("rewards", f"<{rewards.size} rewards>", "binary (0/1) for M_sum",
                          "the algorithms of Tenenbaum et al. 2021 assume binary rewards (their §2.2)")
    return values.astype(np.int64)


@dataclass(frozen=True)
class ShuffledNoisyBits:
    """Tenenbaum et al. 2021's M_sum, reading (a) "noise-bits" (the default; §2.1, constants ours).

    Each of the m users of a batch sends its reward bit plus fair coins
    through the shuffler, **N coins in all** for every batch size: with
    ``N = q m + r``, r users send q + 1 coins and the others q (users who send
    no coin when m > N just send their bit). The shuffled multiset is the count
    ``Y = Σ r_i + Bin(N, 1/2)`` and the analyser outputs ``Y − N/2``. The error
    ``Bin(N, 1/2) − N/2`` is unbiased, independent of the input and SG(N/4),
    with **σ_{ε,δ} = √N/2 the same for every m** — the properties Tenenbaum et al.,
    §3, ask of M_sum. N is the smallest number of coins whose binomial
    noise is (ε, δ)-DP at sensitivity 1, exactly
    (:func:`dpverify.accountants.shuffle_papers.tenenbaum_noise_bits`), so
    every batch is (ε, δ)-SDP.

    The per-user path is :class:`dpverify.mechanisms.NoisyBitSummation`
    with the batch's m users and N coins. The paper's Appendix C, which specifies
    M_sum, was not available: this is our reading, not the paper's constants.

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
        return tenenbaum_noise_bits(self.epsilon, self.delta)

    @functools.cached_property
    def sigma(self) -> float:
        """σ_{ε,δ} = √N/2 (:func:`~dpverify.accountants.shuffle_papers.tenenbaum_msum_sigma`)."""
        return tenenbaum_msum_sigma(self.epsilon, self.delta)

    def _per_user_count(self, bits: np.ndarray, rng: np.random.Generator) -> int:
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
        variance = self.total_noise_bits / 4
        return ErrorLaw(sigma=math.sqrt(2 * variance), sub_exponential_scale=0.0,
                        noise=BinomialNoise(trials=self.total_noise_bits),
                        sub_gaussian_variance=variance,
                        description="Bin(N, 1/2) − N/2, SG(N/4), input-independent")

    def for_horizon(self, horizon: int) -> ShuffledNoisyBits:
        return self


@functools.lru_cache(maxsize=64)
def _noise_bits_guarantee(epsilon: float, trials: int) -> ApproxDP:
    profile = privacy_map(BinomialNoise(trials=trials), sensitivity=1, target=PrivacyProfile)
    return ApproxDP(epsilon, profile.delta_for_epsilon(epsilon))


@dataclass(frozen=True)
class ShuffledRandomizedResponse:
    """Tenenbaum et al. 2021's M_sum, reading (b): Cheu et al.'s shuffled binary randomized response.

    :class:`dpverify.mechanisms.BinarySummation` with the smallest flip
    probability ``p = min_randomization_probability(m, ε, δ)`` whose **exact** shuffled
    guarantee is (ε, δ) for the batch's m users. The debiased error is SG with
    variance proxy ``m/(4(1 − p)²)`` but its law depends on the input, so this
    is not the drop-in Tenenbaum et al., §3, ask for; it is
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

    def randomization_probability(self, users: int) -> float:
        """p for a batch of ``users``: each bit is replaced by a fair coin w.p. p (flips w.p. p/2)."""
        return _rr_randomization_probability(check_positive_int(users, "users"), self.epsilon,
                                             self.delta)

    def flip_probability(self, users: int) -> float:
        """Deprecated 0.1 name of :meth:`randomization_probability` (one release)."""
        warnings.warn("ShuffledRandomizedResponse.flip_probability is deprecated and will be "
                      "removed in the next release; use .randomization_probability (the bit "
                      "flips with probability p/2)", DeprecationWarning, stacklevel=2)
        return self.randomization_probability(users)

    @_cached
    def protocol(self, users: int) -> BinarySummation:
        return BinarySummation(users=users, randomization_probability=self.randomization_probability(users))

    def privatize_sum(self, rewards: RewardBatch, *, rng: np.random.Generator,
                      per_user: bool = False) -> float:
        protocol = self.protocol(rewards.size)
        if per_user or not rewards.binary:
            count = protocol.simulate(_bits(rewards), rng=rng)
        else:  # fast path: Bin(c, 1 − p/2) + Bin(n − c, p/2), the exact law of the count
            half = protocol.randomization_probability / 2
            ones = int(rewards.total)
            count = int(rng.binomial(ones, 1 - half)) + int(rng.binomial(rewards.size - ones, half))
        return float(protocol.estimate(count))

    def sample_estimates(self, rewards: RewardBatch, *, size: int, rng: np.random.Generator
                         ) -> np.ndarray:
        """``size`` independent draws of :meth:`privatize_sum` (vectorised, for audits)."""
        protocol = self.protocol(rewards.size)
        p, n, ones = protocol.randomization_probability, rewards.size, int(_bits(rewards).sum())
        size = check_positive_int(size, "size")
        counts = rng.binomial(ones, 1 - p / 2, size=size) + rng.binomial(n - ones, p / 2, size=size)
        return (counts - p * n / 2) / (1 - p)

    def deployment(self, users: int) -> dict[str, Any]:
        """m users, one randomized-response bit each: p and the bit's flip probability p/2."""
        users = check_positive_int(users, "users")
        p = self.randomization_probability(users)
        return {"users_n": users, "randomization_probability_p": p, "flip_probability": p / 2,
                "messages_per_user": 1, "noise": "BinaryRandomizedResponse"}

    def guarantee(self, users: int) -> Guarantee:
        users = check_positive_int(users, "users")
        p = self.randomization_probability(users)
        return ApproxDP(self.epsilon, shuffled_binary_rr_delta(p, users, self.epsilon))

    @_cached
    def estimate_error_law(self, users: int) -> ErrorLaw:
        p = self.randomization_probability(users)
        variance = users / (4 * (1 - p) ** 2)
        return ErrorLaw(sigma=math.sqrt(2 * variance), sub_exponential_scale=0.0, noise=None,
                        sub_gaussian_variance=variance,
                        description="debiased shuffled RR, SG(m/(4(1−p)²)), input-dependent")

    def for_horizon(self, horizon: int) -> ShuffledRandomizedResponse:
        return self


@functools.lru_cache(maxsize=64)
def _rr_randomization_probability(users: int, epsilon: float, delta: float) -> float:
    p = min_randomization_probability(users, epsilon, delta)
    if not p < 1:
        raise CalibrationError(
            f"users={users} is too small for shuffled randomized response at epsilon={epsilon}, "
            f"delta={delta}: only randomization probability 1 (pure noise) meets it; use larger batches "
            "or the noise-bits M_sum")
    return p
