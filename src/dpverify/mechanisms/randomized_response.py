"""Randomized response: binary (replace by a fair coin) and k-ary, with exact output laws.

* :class:`BinaryRandomizedResponse` is the ``R_p^{0/1}`` of Garcelon et al. 2022 (Alg. 3, App.
  B.1) and the randomizer of Cheu, Smith, Ullman, Zeber & Zhilyaev 2019: output the bit
  with probability ``1 − p``, a fair coin with probability ``p`` (the *randomization
  probability*), so the bit flips with probability ``p/2``.
* :class:`RandomizedResponse` is k-ary randomized response: keep the input with
  probability ``e^ε / (e^ε + k − 1)``, otherwise output one of the other
  ``k − 1`` values uniformly.

``law_on(x)`` returns the exact law of the output as a :class:`FiniteLaw`
(Fractions for the binary mechanism, whose randomization probability is a float and
hence a dyadic rational; mpmath numbers for k-ary, whose probabilities involve
``e^ε``). Privacy maps live in :mod:`dpverify.mechanisms._local_maps`.

The samplers are the ``simulate`` methods (``rng`` is always an argument):
the binary one is exact and integer-only (:func:`bernoulli_dyadic`); the
k-ary one is simulation only (it compares a float uniform with a rounded
``e^ε``-probability).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from dpverify._deprecation import renamed_attributes, renamed_parameters, renamed_property
from dpverify._numeric import round_up, working_precision
from dpverify._validation import (
    check_epsilon,
    check_int_at_least,
    check_probability,
    value_error,
)

__all__ = [
    "FiniteLaw",
    "BinaryRandomizedResponse",
    "RandomizedResponse",
    "bernoulli_dyadic",
    "binary_randomization_probability",
]

_CHUNK_BITS = 64
_CHUNK = 1 << _CHUNK_BITS


@dataclass(frozen=True, slots=True)
class FiniteLaw:
    """An exact law on the integers ``offset, offset + 1, …, offset + len − 1``.

    ``probabilities[i]`` is ``P[offset + i]`` (Fractions where the law is
    rational, mpmath numbers otherwise). Satisfies the
    :class:`~dpverify.mechanisms._base.DiscreteLaw` protocol.

    >>> law = FiniteLaw((Fraction(1, 4), Fraction(3, 4)))
    >>> law.pmf(1), law.cdf(0), law.support()
    (Fraction(3, 4), Fraction(1, 4), (0, 1))
    """

    probabilities: tuple[Any, ...]
    offset: int = 0

    def __post_init__(self) -> None:
        values = tuple(self.probabilities)
        if not values:
            raise value_error("probabilities", values, "non-empty")
        total = sum(values, Fraction(0)) if all(isinstance(v, (int, Fraction)) for v in values) \
            else mpmath.fsum(values)
        if any(not (v >= 0) for v in values) or abs(total - 1) > 1e-30:
            raise value_error("probabilities", values[:8],
                              "non-negative and summing to 1", f"the sum is {total}")
        object.__setattr__(self, "probabilities", values)
        object.__setattr__(self, "offset", check_int_at_least(self.offset, "offset", -(1 << 62)))

    @renamed_parameters(k="outcome")
    def pmf(self, outcome: int) -> Any:
        """``P[k]`` (zero outside the support)."""
        index = int(outcome) - self.offset
        return self.probabilities[index] if 0 <= index < len(self.probabilities) else 0

    @renamed_parameters(k="outcome")
    def logpmf(self, outcome: int) -> mpmath.mpf:
        """``log P[k]`` in mpmath (``-inf`` outside the support)."""
        with working_precision():
            value = self.pmf(outcome)
            value = mpmath.mpf(value.numerator) / value.denominator if isinstance(
                value, Fraction) else mpmath.mpf(value)
            return mpmath.log(value) if value > 0 else mpmath.ninf

    @renamed_parameters(k="outcome")
    def cdf(self, outcome: int) -> Any:
        """``P[X <= k]``."""
        index = int(outcome) - self.offset
        if index < 0:
            return 0
        return sum(self.probabilities[:index + 1], type(self.probabilities[0])(0))

    def support(self) -> tuple[int, int]:
        """``(lowest, highest)`` outcome."""
        return self.offset, self.offset + len(self.probabilities) - 1

    def mean(self) -> Any:
        """Exact expectation."""
        return sum(((self.offset + i) * v for i, v in enumerate(self.probabilities)),
                   type(self.probabilities[0])(0))

    def variance(self) -> Any:
        """Exact variance."""
        centre = self.mean()
        return sum(((self.offset + i - centre) ** 2 * v for i, v in enumerate(self.probabilities)),
                   type(self.probabilities[0])(0))


def bernoulli_dyadic(probability: float | Fraction, *, size: int | tuple[int, ...] | None = None,
                     rng: np.random.Generator) -> np.ndarray:
    """Exact Bernoulli(``probability``) draws for a dyadic rational probability (any float).

    Integer-only: compares a uniform ``U ∈ [0, 1)``, read 64 random bits at a
    time with ``rng.integers``, with the binary expansion of ``probability``
    and returns ``U < probability``. Each round decides all but a ``2^-64``
    fraction of the draws; a float has at most 1074 fractional bits, so at
    most 17 rounds.

    >>> rng = np.random.default_rng(7)
    >>> bernoulli_dyadic(0.25, size=8, rng=rng).astype(int).tolist()
    [0, 0, 0, 1, 0, 0, 1, 0]
    """
    remainder = Fraction(probability)
    if not (0 <= remainder <= 1) or (remainder.denominator & (remainder.denominator - 1)):
        raise value_error("probability", probability, "a dyadic rational in [0, 1]")
    shape = () if size is None else size
    if remainder == 1:
        return np.ones(shape, dtype=bool)
    result = np.zeros(shape, dtype=bool)
    undecided = np.flatnonzero(np.ones(shape, dtype=bool))
    while remainder > 0 and undecided.size:
        scaled = remainder * _CHUNK
        digit = np.uint64(int(scaled))
        remainder = scaled - int(scaled)
        draws = rng.integers(0, _CHUNK - 1, size=undecided.size, dtype=np.uint64, endpoint=True)
        result.flat[undecided[draws < digit]] = True
        undecided = undecided[draws == digit]
    return result


def _bits(x: Any, name: str) -> np.ndarray:
    array = np.asarray(x)
    if array.dtype == bool:
        array = array.astype(np.int64)
    if not np.issubdtype(array.dtype, np.integer) or (array.size and (
            array.min() < 0 or array.max() > 1)):
        raise value_error(name, x, "a bit (0 or 1) or an array of bits")
    return array.astype(np.int64)


def binary_randomization_probability(epsilon: float) -> float:
    """Randomization probability ``p = 2 / (e^ε + 1)`` of binary RR with ``ln((2 − p)/p) = ε``, rounded up.

    ``p`` is the probability of replacing the bit by a fair coin; the bit flips with
    probability ``p/2 = 1 / (e^ε + 1)``. (Called ``binary_flip_probability`` in 0.1,
    which misnamed it; the old name still works for one release.)

    **Soundness:** ``p`` is rounded up to a float, and ``ln((2 − p)/p)``
    decreases in ``p``, so the mechanism built with the returned ``p`` is at
    most ε-DP.

    >>> binary_randomization_probability(math.log(3))
    0.5
    """
    epsilon = check_epsilon(epsilon, "epsilon")
    with working_precision():
        return min(1.0, round_up(2 / (mpmath.exp(epsilon) + 1), relative_error=1e-45))


@renamed_parameters(flip_probability="randomization_probability")
@dataclass(frozen=True, slots=True)
class BinaryRandomizedResponse:
    """Binary randomized response with randomization probability ``p`` (Garcelon et al. 2022, Alg. 3; Cheu et al. 2019).

    With probability ``1 − p`` the input bit is output, otherwise a fair coin, so the
    bit flips with probability ``p/2``:

    .. math:: P[\\text{out} = x] = 1 - p/2, \\qquad P[\\text{out} = 1 - x] = p/2,

    so the mechanism is ``ε0``-DP with ``ε0 = ln((2 − p)/p)`` (Garcelon et al. App.
    B.2), exactly (the ratio is attained). ``randomization_probability`` is in (0, 1];
    ``p = 1`` outputs a fair coin (ε0 = 0). In 0.1 the parameter was called
    ``flip_probability``, which it is not; that keyword and attribute still work for
    one release, with a :class:`DeprecationWarning`.

    >>> rr = BinaryRandomizedResponse(0.5)
    >>> rr.law_on(1).probabilities
    (Fraction(1, 4), Fraction(3, 4))
    """

    randomization_probability: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "randomization_probability", check_probability(
            self.randomization_probability, "randomization_probability", open_low=True))

    flip_probability = renamed_property("flip_probability", "randomization_probability")

    @classmethod
    def from_epsilon(cls, epsilon: float) -> BinaryRandomizedResponse:
        """The mechanism with ``ln((2 − p)/p) <= epsilon`` (``p`` from :func:`binary_randomization_probability`).

        >>> BinaryRandomizedResponse.from_epsilon(math.log(3))
        BinaryRandomizedResponse(randomization_probability=0.5)
        """
        epsilon = check_epsilon(epsilon, "epsilon", allow_zero=True)
        return cls(binary_randomization_probability(epsilon))

    def law_on(self, x: int) -> FiniteLaw:
        """Exact law of the output on the bit ``x``: ``(P[0], P[1])`` in Fractions."""
        if np.ndim(x) != 0:
            raise value_error("x", x, "a single bit (0 or 1)")
        bit = int(_bits(x, "x"))
        half = Fraction(self.randomization_probability) / 2
        return FiniteLaw((1 - half, half) if bit == 0 else (half, 1 - half))

    def simulate(self, x: Any, *, rng: np.random.Generator,
                 size: int | tuple[int, ...] | None = None) -> np.ndarray:
        """Exact, integer-only draws of the output on the bit(s) ``x`` (vectorised).

        ``x`` is a bit or an array of bits; ``size`` (optional) is the output
        shape, to which ``x`` is broadcast. The coin ``Ber(p)`` is drawn by
        :func:`bernoulli_dyadic`, the fair coin by ``rng.integers``.

        >>> rng = np.random.default_rng(1)
        >>> BinaryRandomizedResponse(0.5).simulate([0, 1, 1, 0], rng=rng).tolist()
        [0, 1, 1, 0]
        """
        bits = _bits(x, "x")
        shape = bits.shape if size is None else (size if isinstance(size, tuple) else (size,))
        bits = np.broadcast_to(bits, shape)
        flip = bernoulli_dyadic(self.randomization_probability, size=shape, rng=rng)
        coin = rng.integers(0, 2, size=shape)
        return np.where(flip, coin, bits).astype(np.int64)


@renamed_parameters(k="categories")
@dataclass(frozen=True, slots=True)
class RandomizedResponse:
    """k-ary randomized response on ``{0, …, k − 1}`` (Warner 1965; Kairouz–Oh–Viswanath 2016).

    ``categories`` is the number k >= 2 of values (inputs and outputs).

    .. math::

        P[\\text{out} = y \\mid x] = \\begin{cases}
            e^{ε} / (e^{ε} + k - 1) & y = x, \\\\
            1 / (e^{ε} + k - 1) & y \\neq x,
        \\end{cases}

    which is ε-DP, exactly (the ratio ``e^ε`` is attained).

    >>> [float(v) for v in RandomizedResponse(3, math.log(2)).law_on(0).probabilities]
    [0.5, 0.25, 0.25]
    """

    categories: int
    epsilon: float

    k = renamed_property("k", "categories")

    def __post_init__(self) -> None:
        object.__setattr__(self, "categories", check_int_at_least(self.categories, "categories", 2))
        object.__setattr__(self, "epsilon", check_epsilon(self.epsilon, "epsilon"))

    def _check_input(self, x: Any) -> np.ndarray:
        array = np.asarray(x)
        if array.dtype == bool or not np.issubdtype(array.dtype, np.integer) or (
                array.size and (array.min() < 0 or array.max() >= self.categories)):
            raise value_error("x", x, f"an integer in [0, {self.categories - 1}] or an array of them")
        return array.astype(np.int64)

    def law_on(self, x: int) -> FiniteLaw:
        """Exact law of the output on ``x``, in mpmath at the working precision."""
        if np.ndim(x) != 0:
            raise value_error("x", x, f"a single integer in [0, {self.categories - 1}]")
        value = int(self._check_input(x))
        with working_precision():
            weight = mpmath.exp(self.epsilon)
            other = 1 / (weight + self.categories - 1)
            keep = 1 - (self.categories - 1) * other
            return FiniteLaw(tuple(keep if y == value else other for y in range(self.categories)))

    def simulate(self, x: Any, *, rng: np.random.Generator,
                 size: int | tuple[int, ...] | None = None) -> np.ndarray:
        """Simulation only: draws of the output on ``x`` with a float keep probability.

        The keep probability ``e^ε/(e^ε + k − 1)`` is rounded to a float and
        compared with ``rng.random()``, so the law is exact only to about
        ``2^-53``; use it for simulation, not deployment.

        >>> rng = np.random.default_rng(3)
        >>> RandomizedResponse(4, 2.0).simulate([0, 1, 2, 3], rng=rng).tolist()
        [0, 1, 0, 3]
        """
        values = self._check_input(x)
        shape = values.shape if size is None else (size if isinstance(size, tuple) else (size,))
        values = np.broadcast_to(values, shape)
        keep_probability = 1.0 / (1.0 + (self.categories - 1) * math.exp(-self.epsilon))
        keep = rng.random(shape) < keep_probability
        other = rng.integers(0, self.categories - 1, size=shape)
        other = other + (other >= values)
        return np.where(keep, values, other).astype(np.int64)


__getattr__ = renamed_attributes(__name__, {
    "binary_flip_probability": ("binary_randomization_probability",
                                binary_randomization_probability)})
