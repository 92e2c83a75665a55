"""Distributed protocols: what the analyser sees, and unbiased estimators with their variances.

* :class:`Shuffler` — a uniform permutation; the analyser sees the multiset.
* :class:`SecureAggregation` — ``(Σ y_i) mod m`` in exact integer arithmetic
  and the analyser of Chowdhury & Zhou 2023 with the underflow correction (Alg. 1 l. 18–30).
* :class:`BinarySummation` — shuffled binary randomized response with
  debiasing (Cheu et al. 2019; the M_sum of Tenenbaum et al. 2021, the shuffler
  of Garcelon et al. 2022): the
  analyser sees the count of ones, whose exact law is exposed.
* :class:`NoisyBitSummation` — each user's bit plus fair noise coins, shuffled:
  binomial noise whose error is independent of the input (our reading of
  Tenenbaum et al.'s ``M_sum``).
* :class:`VectorSummation` — Li, Zhou & Ji 2022, Alg. 2 (after Cheu, Joseph, Mao, Peng 2021),
  in :mod:`dpverify.mechanisms._vector_summation`, re-exported here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any

import mpmath
import numpy as np

from dpverify._deprecation import renamed_parameters, renamed_property
from dpverify._numeric import working_precision
from dpverify._validation import (
    check_int_at_least,
    check_positive_int,
    check_probability,
    value_error,
)
from dpverify.errors import DpverifyTypeError
from dpverify.mechanisms._vector_summation import (
    VectorSummation,
    VectorSummationParameters,
    vector_summation_parameters,
)
from dpverify.mechanisms.discrete import BinomialNoise
from dpverify.mechanisms.randomized_response import BinaryRandomizedResponse, FiniteLaw

__all__ = [
    "Shuffler",
    "SecureAggregation",
    "secure_aggregation_modulus",
    "BinarySummation",
    "NoisyBitSummation",
    "VectorSummation",
    "VectorSummationParameters",
    "vector_summation_parameters",
]


@dataclass(frozen=True, slots=True)
class Shuffler:
    """A trusted shuffler: outputs the messages in a uniformly random order.

    The analyser's view is the multiset of messages — a deterministic function
    of them (:meth:`view`); any symmetric statistic of the messages, e.g. their
    sum, is therefore computed exactly (variance 0) from the view.

    >>> rng = np.random.default_rng(0)
    >>> Shuffler().shuffle([3, 1, 2], rng=rng).tolist()
    [2, 3, 1]
    >>> Shuffler().view([3, 1, 1])
    Counter({1: 2, 3: 1})
    """

    def shuffle(self, messages: Any, *, rng: np.random.Generator) -> np.ndarray:
        """The messages (along the first axis) in a uniformly random order."""
        array = np.asarray(messages)
        if array.ndim == 0:
            raise value_error("messages", messages, "a sequence of messages")
        return rng.permutation(array)

    def view(self, messages: Any) -> Counter:
        """The analyser's view: the multiset of messages (hashable messages)."""
        array = np.asarray(messages)
        if array.ndim == 0:
            raise value_error("messages", messages, "a sequence of messages")
        return Counter(m.item() if array.ndim == 1 else tuple(m.tolist()) for m in array)

    def view_law(self, messages: Any) -> dict[tuple[Any, ...], Fraction]:
        """Exact law of the view: a point mass on the sorted multiset."""
        return {tuple(sorted(self.view(messages).elements())): Fraction(1)}


def secure_aggregation_modulus(users: int, precision: int, tau: int) -> int:
    """The modulus ``m = n g + 2τ + 1`` of Chowdhury & Zhou 2023 (Alg. 1; Thms 1–6).

    With it, every noisy total in ``[−τ, n g + τ]`` is recovered exactly by
    :meth:`SecureAggregation.analyse`.

    >>> secure_aggregation_modulus(10**6, 10**7, 5000)
    10000000010001
    """
    users = check_positive_int(users, "users")
    precision = check_positive_int(precision, "precision")
    tau = check_int_at_least(tau, "tau", 0)
    return users * precision + 2 * tau + 1


def _integers(values: Any, name: str) -> list[int]:
    array = np.asarray(values, dtype=object) if not isinstance(values, np.ndarray) else values
    if array.ndim != 1 or not array.size:
        raise value_error(name, values, "a non-empty one-dimensional sequence of integers")
    items = array.tolist()
    if any(isinstance(v, bool) or not isinstance(v, (int, np.integer)) for v in items):
        raise DpverifyTypeError(f"{name}={values!r} must contain integers only")
    return [int(v) for v in items]


@dataclass(frozen=True, slots=True)
class SecureAggregation:
    """Secure aggregation modulo ``m``: the analyser sees only ``(Σ y_i) mod m``.

    Chowdhury & Zhou 2023, Alg. 1 l. 18–30. All arithmetic is on Python
    integers, so totals beyond 2^53 (or 2^63) are exact.

    >>> aggregation = SecureAggregation(modulus=secure_aggregation_modulus(3, 10, 4))
    >>> total = aggregation.aggregate(aggregation.randomize([5, 0, 7], [-2, -9, -3]))
    >>> aggregation.analyse(total, users=3, precision=10, tau=4)  # (12 − 14)/10
    Fraction(-1, 5)
    """

    modulus: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "modulus", check_int_at_least(self.modulus, "modulus", 2))

    def randomize(self, codes: Any, noise: Any) -> list[int]:
        """Each user's message ``y_i = (x̂_i + η_i) mod m`` (Chowdhury & Zhou 2023, Alg. 1 l. 22)."""
        codes, noise = _integers(codes, "codes"), _integers(noise, "noise")
        if len(codes) != len(noise):
            raise value_error("noise", f"<{len(noise)} values>", f"one per code ({len(codes)})")
        return [(c + e) % self.modulus for c, e in zip(codes, noise)]

    def aggregate(self, messages: Any) -> int:
        """``(Σ y_i) mod m`` in exact integer arithmetic; each ``y_i`` must be in ``[0, m)``."""
        values = _integers(messages, "messages")
        if min(values) < 0 or max(values) >= self.modulus:
            raise value_error("messages", f"<{len(values)} values>",
                              f"integers in [0, modulus={self.modulus})")
        return sum(values) % self.modulus

    def _check_analyser(self, users: Any, precision: Any, tau: Any) -> tuple[int, int, int]:
        users = check_positive_int(users, "users")
        precision = check_positive_int(precision, "precision")
        tau = check_int_at_least(tau, "tau", 0)
        if self.modulus < users * precision + 2 * tau + 1:
            raise value_error("modulus", self.modulus, f">= users*precision + 2*tau + 1 = "
                              f"{users * precision + 2 * tau + 1}",
                              "use secure_aggregation_modulus(users, precision, tau)")
        return users, precision, tau

    def analyse(self, aggregate: int, *, users: int, precision: int, tau: int) -> Fraction:
        """Analyser ``A`` of Chowdhury & Zhou 2023: the noisy total divided by ``g``, with underflow correction.

        .. math::

            z = \\begin{cases} (\\hat y - m)/g & \\hat y > n g + τ, \\\\
                               \\hat y / g & \\text{otherwise,} \\end{cases}

        (strict ``>``, as in Alg. 1 l. 28). Exact whenever the noisy total lies in
        ``[−τ, n g + τ]``; returned as a Fraction with denominator ``g``.
        """
        users, precision, tau = self._check_analyser(users, precision, tau)
        aggregate = check_int_at_least(aggregate, "aggregate", 0)
        if aggregate >= self.modulus:
            raise value_error("aggregate", aggregate, f"in [0, modulus={self.modulus})")
        if aggregate > users * precision + tau:
            return Fraction(aggregate - self.modulus, precision)
        return Fraction(aggregate, precision)

    def view_law(self, total_law: Mapping[int, Any]) -> dict[int, Any]:
        """Exact law of ``(Σ y_i) mod m`` from the law of the integer noisy total ``Σ x̂ + Σ η``.

        ``total_law`` maps each possible total to its probability (finite
        support; for unbounded noise pass its support truncated with the tail
        mass accounted for by the caller).
        """
        folded: dict[int, Any] = {}
        for total, probability in total_law.items():
            key = check_int_at_least(total, "total_law", -(1 << 256)) % self.modulus
            folded[key] = folded.get(key, 0) + probability
        return folded

    def estimator_moments(self, total_law: Mapping[int, Any], *, users: int, precision: int,
                          tau: int) -> tuple[Any, Any]:
        """Exact ``(mean, variance)`` of :meth:`analyse` when the noisy total has law ``total_law``.

        With symmetric noise supported in ``[−τ, τ]`` the mean is ``Σ x̂_i / g``
        (unbiased for ``Σ x_i``) and the variance is ``Var[Σ η]/g²``; mass
        beyond ``±τ`` wraps around and shows up here as bias.
        """
        users, precision, tau = self._check_analyser(users, precision, tau)
        law = self.view_law(total_law)
        estimates = {v: self.analyse(v, users=users, precision=precision, tau=tau) for v in law}
        mean = sum((estimates[v] * q for v, q in law.items()), Fraction(0))
        variance = sum(((estimates[v] - mean) ** 2 * q for v, q in law.items()), Fraction(0))
        return mean, variance


def _binomial_pmf(trials: int, probability: Any, one: Any) -> list[Any]:
    return [comb(trials, k) * probability ** k * (one - probability) ** (trials - k)
            for k in range(trials + 1)]


def _convolve(first: list[Any], second: list[Any], zero: Any) -> list[Any]:
    result = [zero] * (len(first) + len(second) - 1)
    for i, a in enumerate(first):
        for j, b in enumerate(second):
            result[i + j] += a * b
    return result


@renamed_parameters(flip_probability="randomization_probability")
@dataclass(frozen=True, slots=True)
class BinarySummation:
    """Shuffled binary randomized response with debiasing (Cheu, Smith, Ullman, Zeber & Zhilyaev 2019).

    Each of ``n`` users sends :class:`BinaryRandomizedResponse` (randomization
    probability ``p``: the bit is replaced by a fair coin with probability ``p``, so it
    flips with probability ``p/2``) of its bit; the shuffled multiset of bits is the count
    ``Y`` of ones, with

    .. math:: Y \\sim \\operatorname{Bin}(c, 1 - p/2) + \\operatorname{Bin}(n - c, p/2)

    for ``c`` users holding a one. The analyser's estimate of ``c`` is

    .. math:: \\hat c = \\frac{n}{n - λ}\\left(Y - \\frac λ2\\right), \\quad λ = p n,
       \\qquad \\operatorname{Var}[\\hat c] = \\frac{n \\frac p2 (1 - \\frac p2)}{(1 - p)^2}

    (unbiased; the variance does not depend on ``c``). Tenenbaum et al. 2021's ``M_sum``
    and Garcelon et al. 2022's shuffler are this protocol.

    >>> protocol = BinarySummation(users=4, randomization_probability=0.5)
    >>> protocol.estimate(3), protocol.estimator_variance()
    (Fraction(4, 1), Fraction(3, 1))
    """

    users: int
    randomization_probability: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "users", check_positive_int(self.users, "users"))
        object.__setattr__(self, "randomization_probability", check_probability(
            self.randomization_probability, "randomization_probability", open_low=True,
            open_high=True))

    flip_probability = renamed_property("flip_probability", "randomization_probability")

    @property
    def randomizer(self) -> BinaryRandomizedResponse:
        """Each user's local randomizer."""
        return BinaryRandomizedResponse(self.randomization_probability)

    def simulate(self, bits: Any, *, rng: np.random.Generator) -> int:
        """The analyser's view (the count of ones) for the users' ``bits``; exact, integer-only.

        >>> rng = np.random.default_rng(4)
        >>> protocol = BinarySummation(users=6, randomization_probability=0.25)
        >>> protocol.simulate([1, 1, 1, 0, 0, 0], rng=rng)
        3
        """
        array = np.asarray(bits)
        if array.shape != (self.users,):
            raise value_error("bits", bits, f"a sequence of users={self.users} bits")
        return int(self.randomizer.simulate(array, rng=rng).sum())

    def count_law(self, ones: int, *, exact: bool = True) -> FiniteLaw:
        """Exact law of the count ``Y`` on ``{0, …, n}`` when ``ones`` users hold a one.

        ``exact=True``: Fractions (the randomization probability is a dyadic rational),
        quadratic in ``n`` with growing denominators — fine up to a few
        hundred users. ``exact=False``: mpmath at the working precision.
        """
        ones = check_int_at_least(ones, "ones", 0)
        if ones > self.users:
            raise value_error("ones", ones, f"at most users={self.users}")
        if exact:
            half, one = Fraction(self.randomization_probability) / 2, Fraction(1)
            return FiniteLaw(tuple(_convolve(_binomial_pmf(ones, one - half, one),
                                             _binomial_pmf(self.users - ones, half, one), one * 0)))
        with working_precision():
            half, one = mpmath.mpf(self.randomization_probability) / 2, mpmath.mpf(1)
            law = _convolve(_binomial_pmf(ones, one - half, one),
                            _binomial_pmf(self.users - ones, half, one), mpmath.mpf(0))
            total = mpmath.fsum(law)
            return FiniteLaw(tuple(v / total for v in law))

    def estimate(self, count: int) -> Fraction:
        """The debiased estimate ``(n/(n − λ))(Y − λ/2)`` of the number of ones, exactly."""
        count = check_int_at_least(count, "count", 0)
        if count > self.users:
            raise value_error("count", count, f"at most users={self.users}")
        p = Fraction(self.randomization_probability)
        return (count - p * self.users / 2) / (1 - p)

    def estimator_variance(self) -> Fraction:
        """Exact variance ``n (p/2)(1 − p/2)/(1 − p)²`` of :meth:`estimate` (any input)."""
        half = Fraction(self.randomization_probability) / 2
        return self.users * half * (1 - half) / (1 - 2 * half) ** 2


@dataclass(frozen=True, slots=True)
class NoisyBitSummation:
    """Shuffled binary summation with blanket noise bits (a binomial-mechanism ``M_sum``).

    Each of ``users`` users sends its bit ``x_i ∈ {0, 1}`` together with fair
    coins, ``noise_bits = N`` coins in the whole batch spread as evenly as
    possible (with ``N = q·users + r``, r users send q + 1 coins and the
    others q; when users > N some send only their bit). The shuffled
    multiset of all bits is the count ``Y = Σ x_i + Bin(N, 1/2)`` and the
    analyser outputs ``Y − N/2``. The error ``Bin(N, 1/2) − N/2``
    (:class:`~dpverify.mechanisms.discrete.BinomialNoise`) does not depend on
    the input or on the batch size, is unbiased, and is sub-Gaussian with
    variance proxy ``N/4`` (Hoeffding): the properties Tenenbaum et al. 2021, §3,
    requires of ``M_sum``. Its privacy is that of binomial noise at
    sensitivity 1 (one user's bit), exact
    (:func:`~dpverify.mechanisms._noise_maps.binomial_noise_delta`).

    Tenenbaum et al. specify ``M_sum`` only in their Appendix C, which is not in
    the paper's main text; this protocol is our reading of its §2.1 ("E outputs the
    user's reward bit together with a set of random bits, and A sums all these
    bits and debiases the result"), not the paper's constants. (Giving every
    user ⌈N/m⌉ coins instead would put more than m coins into a batch of
    m > N users: an error growing with m.)

    >>> protocol = NoisyBitSummation(users=4, noise_bits=10)
    >>> protocol.coins_per_user().tolist(), protocol.estimate(8), protocol.error_law
    ([3, 3, 2, 2], Fraction(3, 1), BinomialNoise(trials=10, probability=0.5))
    """

    users: int
    noise_bits: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "users", check_positive_int(self.users, "users"))
        object.__setattr__(self, "noise_bits", check_positive_int(self.noise_bits, "noise_bits"))

    def coins_per_user(self) -> np.ndarray:
        """How many coins each user sends: N spread as evenly as possible."""
        share, extra = divmod(self.noise_bits, self.users)
        return share + (np.arange(self.users) < extra).astype(np.int64)

    @property
    def error_law(self) -> BinomialNoise:
        """Law of the analyser's error ``Bin(N, 1/2) − N/2`` (independent of the input)."""
        return BinomialNoise(trials=self.noise_bits)

    def messages(self, bits: Any, *, rng: np.random.Generator) -> np.ndarray:
        """Every user's messages (its bit, then its coins), shuffled: the analyser's raw view."""
        array = self._check_bits(bits)
        coins = rng.integers(0, 2, size=self.noise_bits, dtype=np.int8)
        return rng.permutation(np.concatenate([array.astype(np.int8), coins]))

    def simulate(self, bits: Any, *, rng: np.random.Generator, per_user: bool = False) -> int:
        """The count ``Y`` of ones the analyser sees; exact, integer-only.

        ``per_user=True`` draws every coin and shuffles (the auditing path);
        otherwise ``Y = Σ x_i + Bin(N, 1/2)`` in one exact draw (same law).

        >>> rng = np.random.default_rng(2)
        >>> 3 <= NoisyBitSummation(users=3, noise_bits=6).simulate([1, 1, 1], rng=rng) <= 9
        True
        """
        array = self._check_bits(bits)
        if per_user:
            return int(self.messages(array, rng=rng).sum())
        return int(array.sum()) + int(rng.binomial(self.noise_bits, 0.5))

    def estimate(self, count: int) -> Fraction:
        """The unbiased estimate ``Y − N/2`` of the number of ones."""
        count = check_int_at_least(count, "count", 0)
        if count > self.users + self.noise_bits:
            raise value_error("count", count, f"at most users + N = {self.users + self.noise_bits}")
        return count - Fraction(self.noise_bits, 2)

    def estimator_variance(self) -> Fraction:
        """Exact variance ``N/4`` of :meth:`estimate` (also its sub-Gaussian variance proxy)."""
        return Fraction(self.noise_bits, 4)

    def _check_bits(self, bits: Any) -> np.ndarray:
        array = np.asarray(bits)
        if array.shape != (self.users,) or not np.isin(array, (0, 1)).all():
            raise value_error("bits", bits, f"a sequence of users={self.users} bits in {{0, 1}}")
        return array.astype(np.int64)
