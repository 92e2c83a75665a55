"""Local encoders: randomized rounding, unary codes, and the local privatizer M_LDP of Garcelon et al. 2022.

* :func:`randomized_rounding` — fixed-point encoding ``x ↦ ⌊xg⌋ + Ber(xg − ⌊xg⌋)``
  (Chowdhury & Zhou 2023, Alg. 1 l. 20; Li, Zhou & Ji 2022, Alg. 2 l. 4–5): an unbiased integer code.
* :func:`unary_encoding` — Garcelon et al., Alg. 2 step 2: an ``m``-bit thermometer
  code whose number of ones is the randomized rounding of ``m x``.
* :class:`LocalPrivatizer` / :func:`m_ldp` — Garcelon et al.'s ``M_LDP`` (Alg. 2):
  unary-encode ``r x/(2L) + ½`` and the lower triangle of ``x xᵀ/(2L²) + ½``,
  then pass every bit through binary randomized response with
  ``p = 2/(exp(2ε0/(m d (d+3))) + 1)`` — ``m d (d+3)/2`` bits in all; the
  mirrored entries ``w̃_ji = w̃_ij`` carry the SAME bits.

The rounding Bernoulli of the encoders compares ``rng.random()`` with a float
fraction, so its mean is exact only to about ``2^-53``: this affects
unbiasedness at that level, never privacy (the code always lies in
``{⌊xg⌋, ⌊xg⌋ + 1} ⊂ {0, …, g}``, and M_LDP's privacy comes from the exact
randomized response of every bit, whatever the encoded bits are).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from dpverify._deprecation import renamed_attributes, renamed_parameters, renamed_property
from dpverify._numeric import round_up, working_precision
from dpverify._validation import (
    check_epsilon,
    check_in_range,
    check_int_at_least,
    check_positive,
    check_positive_int,
    check_real_array,
    check_rng,
    value_error,
)
from dpverify.mechanisms.randomized_response import BinaryRandomizedResponse, FiniteLaw

__all__ = [
    "randomized_rounding",
    "unary_encoding",
    "mldp_randomization_probability",
    "LocalPrivatizer",
    "m_ldp",
]

_MAX_PRECISION = 1 << 53
MAX_UNARY_BITS = 10**6
"""Largest unary-code length m (every encoded value holds m bits in memory)."""
_BITS_INSTEAD = "each encoded value holds that many bits in memory; use a coarser code"


def _unit_interval(x: Any, name: str) -> np.ndarray:
    array = check_real_array(x, name, allow_empty=True)
    if not np.all((array >= 0) & (array <= 1)):  # NaN fails too
        raise value_error(name, x, "in [0, 1] (every entry)")
    return array


def randomized_rounding(x: Any, *, precision: int, rng: np.random.Generator) -> Any:
    """Unbiased integer encoding of ``x ∈ [0, 1]`` at precision ``g``: ``⌊xg⌋ + Ber(xg − ⌊xg⌋)``.

    .. math:: E[\\hat x] = x g, \\qquad \\operatorname{Var}[\\hat x] = f(1 - f),\\; f = xg - ⌊xg⌋

    Chowdhury & Zhou 2023, Alg. 1 l. 20, and Li, Zhou & Ji 2022, Alg. 2 l. 4–5 (with
    ``x = w/(2Δ2)``). Vectorised; returns an int64 array (a Python int for a
    scalar ``x``) with entries in ``{0, …, g}``.

    Parameters
    ----------
    x
        Value(s) in [0, 1].
    precision
        ``g``, an integer in [1, 2^53].
    rng
        The random generator.

    >>> rng = np.random.default_rng(0)
    >>> randomized_rounding([0.0, 0.25, 0.5, 1.0], precision=10, rng=rng).tolist()
    [0, 3, 5, 10]
    """
    values = _unit_interval(x, "x")
    precision = check_positive_int(precision, "precision")
    rng = check_rng(rng)
    if precision > _MAX_PRECISION:
        raise value_error("precision", precision, f"at most 2^53 = {_MAX_PRECISION}")
    scaled = values * precision
    floor = np.floor(scaled)
    codes = (floor + (rng.random(values.shape) < scaled - floor)).astype(np.int64)
    return int(codes) if codes.ndim == 0 else codes


def unary_encoding(x: Any, *, bits: int, rng: np.random.Generator) -> np.ndarray:
    """Garcelon et al. 2022, Alg. 2 step 2: the ``m``-bit unary code of ``x ∈ [0, 1]`` with ``E[Σ bits] = m x``.

    With ``μ = ⌈m x⌉`` and ``p = m x − μ + 1``, bit ``k`` (1-based) is 1 for
    ``k < μ``, ``Ber(p)`` for ``k = μ`` and 0 for ``k > μ``: a thermometer
    code whose number of ones is :func:`randomized_rounding` of ``x`` at
    precision ``m``. Returns an int8 array of shape ``x.shape + (m,)``.

    >>> rng = np.random.default_rng(0)
    >>> unary_encoding([0.0, 0.5, 1.0], bits=4, rng=rng).tolist()
    [[0, 0, 0, 0], [1, 1, 0, 0], [1, 1, 1, 1]]
    """
    bits = check_positive_int(bits, "bits", maximum=MAX_UNARY_BITS, instead=_BITS_INSTEAD)
    rng = check_rng(rng)
    ones = np.asarray(randomized_rounding(x, precision=bits, rng=rng))
    return (np.arange(bits) < ones[..., None]).astype(np.int8)


@renamed_parameters(epsilon_0="local_epsilon")
def mldp_randomization_probability(local_epsilon: float, *, bits: int, dimension: int) -> float:
    """Garcelon et al. 2022's randomization probability ``p = 2 / (exp(2ε0/(m d (d+3))) + 1)`` (Alg. 2), rounded up.

    ``p`` is the probability that their randomizer R_p replaces a bit by a fair coin
    (App. B.1); the bit flips with probability ``p/2``. (``mldp_flip_probability`` in
    0.1, a misnomer; the old name still works for one release.)

    Each of the ``N = m d (d+3)/2`` bits then has ratio ``(2 − p)/p =
    exp(2ε0/(m d (d+3)))``, and ``N`` of them give ``e^{ε0}`` (their Prop. 4, proved in App. B.2).

    **Soundness:** ``p`` is rounded up to a float; ``ln((2 − p)/p)`` decreases
    in ``p``, so M_LDP with the returned ``p`` is at most ε0-LDP.

    >>> round(mldp_randomization_probability(1.0, bits=1, dimension=1), 12)  # 2/(e^{1/2} + 1)
    0.755081337596
    """
    epsilon_0 = check_epsilon(local_epsilon, "local_epsilon", allow_zero=False)
    bits = check_positive_int(bits, "bits")
    dimension = check_positive_int(dimension, "dimension")
    with working_precision():
        exponent = 2 * mpmath.mpf(epsilon_0) / (bits * dimension * (dimension + 3))
        return min(1.0, round_up(2 / (mpmath.exp(exponent) + 1), relative_error=1e-45))


@renamed_parameters(epsilon_0="local_epsilon")
@dataclass(frozen=True, slots=True)
class LocalPrivatizer:
    """Garcelon et al. 2022's local privatizer ``M_LDP(x, r, L, ε0, m)`` (Alg. 2), ε0-LDP (Prop. 4/12).

    Parameters
    ----------
    dimension
        ``d``, the context dimension.
    bits
        ``m``, the encoding bits per entry.
    local_epsilon
        The local privacy level ε0 > 0.
    context_bound
        ``L``, the bound on ``‖x‖₂``; rewards are in [0, 1].

    The output is ``(b̃, w̃)``: ``b̃`` of shape ``(d, m)`` encodes
    ``ỹ = r x/(2L) + ½``, ``w̃`` of shape ``(d, d, m)`` encodes
    ``z̃ = x xᵀ/(2L²) + ½`` with ``w̃[j, i] = w̃[i, j]`` (the same random
    bits): ``m d (d+3)/2`` independently randomized bits.

    >>> mech = LocalPrivatizer(dimension=2, bits=3, local_epsilon=1.0, context_bound=1.0)
    >>> mech.number_of_bits, round(mech.randomization_probability, 6)
    (15, 0.966679)
    """

    dimension: int
    bits: int
    local_epsilon: float
    context_bound: float

    epsilon_0 = renamed_property("epsilon_0", "local_epsilon")

    def __post_init__(self) -> None:
        object.__setattr__(self, "dimension", check_positive_int(self.dimension, "dimension"))
        object.__setattr__(self, "bits", check_positive_int(self.bits, "bits",
                                                            maximum=MAX_UNARY_BITS,
                                                            instead=_BITS_INSTEAD))
        object.__setattr__(self, "local_epsilon",
                           check_epsilon(self.local_epsilon, "local_epsilon", allow_zero=False))
        object.__setattr__(self, "context_bound",
                           check_positive(self.context_bound, "context_bound"))

    @property
    def randomization_probability(self) -> float:
        """``p`` of the bits' randomized response (:func:`mldp_randomization_probability`).

        Each bit is replaced by a fair coin with probability ``p``, so it flips with
        probability ``p/2``.
        """
        return mldp_randomization_probability(self.local_epsilon, bits=self.bits,
                                              dimension=self.dimension)

    flip_probability = renamed_property("flip_probability", "randomization_probability")

    @property
    def number_of_bits(self) -> int:
        """``m d (d+3)/2``: the randomized bits of one report (mirrored bits counted once)."""
        return self.bits * self.dimension * (self.dimension + 3) // 2

    def _check_inputs(self, context: Any, reward: Any) -> tuple[np.ndarray, np.ndarray]:
        x = check_real_array(context, "context")
        if x.ndim < 1 or x.shape[-1] != self.dimension:
            raise value_error("context", context, f"an array whose last axis has length "
                              f"dimension={self.dimension}")
        r = check_real_array(reward, "reward", allow_empty=True)
        if r.shape != x.shape[:-1]:
            raise value_error("reward", reward, f"of shape {x.shape[:-1]} (one per context)")
        norms = np.linalg.norm(x, axis=-1)
        if not np.all(norms <= self.context_bound * (1 + 1e-12)):
            raise value_error("context", context,
                              f"of Euclidean norm at most context_bound={self.context_bound}")
        _unit_interval(r, "reward")
        return x, r

    def encoded_values(self, context: Any, reward: Any) -> tuple[np.ndarray, np.ndarray]:
        """``(ỹ, z̃)``: ``r x/(2L) + ½`` and ``x xᵀ/(2L²) + ½``, clipped to [0, 1] (float)."""
        x, r = self._check_inputs(context, reward)
        bound = self.context_bound
        y = np.clip(r[..., None] * x / (2 * bound) + 0.5, 0.0, 1.0)
        z = np.clip(x[..., :, None] * x[..., None, :] / (2 * bound * bound) + 0.5, 0.0, 1.0)
        return y, z

    def simulate(self, context: Any, reward: Any, *,
                 rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """Draw ``(b̃, w̃)`` for one or many users (vectorised over leading axes).

        ``context`` has shape ``(..., d)`` and ``reward`` shape ``(...)``;
        returns int64 arrays of shapes ``(..., d, m)`` and ``(..., d, d, m)``.
        The randomized response is exact and integer-only; the encoders'
        rounding is float (see the module notes).

        >>> rng = np.random.default_rng(5)
        >>> mech = LocalPrivatizer(dimension=2, bits=2, local_epsilon=50.0, context_bound=1.0)
        >>> b, w = mech.simulate([0.6, -0.8], 1.0, rng=rng)
        >>> b.shape, w.shape, bool((w == np.swapaxes(w, 0, 1)).all())
        ((2, 2), (2, 2, 2), True)
        """
        y, z = self.encoded_values(context, reward)
        rows, cols = np.tril_indices(self.dimension)
        randomizer = BinaryRandomizedResponse(self.randomization_probability)
        b = randomizer.simulate(unary_encoding(y, bits=self.bits, rng=rng), rng=rng)
        lower = randomizer.simulate(unary_encoding(z[..., rows, cols], bits=self.bits, rng=rng),
                                    rng=rng)
        w = np.zeros(z.shape + (self.bits,), dtype=np.int64)
        w[..., rows, cols, :] = lower
        w[..., cols, rows, :] = lower
        return b, w

    def estimate_entries(self, counts: Any, *, users: int = 1) -> np.ndarray:
        """Unbiased estimate of ``Σ_users`` encoded value from the summed bits ``counts``.

        .. math:: \\widehat{Σ v} = \\frac{\\text{counts}/m - \\text{users}\\, p/2}{1 - p}

        since ``E[b̃] = p/2 + (1 − p) b`` and ``E[Σ_k b_k] = m v`` (Garcelon et al. 2022,
        App. B.1 Eq. 12). ``counts`` is the sum over users and bits of
        ``b̃`` (shape ``(d,)``) or of ``w̃`` (shape ``(d, d)``).
        """
        users = check_positive_int(users, "users")
        p = self.randomization_probability
        if p >= 1:
            raise value_error("local_epsilon", self.local_epsilon, "large enough that p < 1")
        counts = np.asarray(counts, dtype=float)
        return (counts / self.bits - users * p / 2) / (1 - p)

    def estimate_reward_context(self, counts: Any, *, users: int = 1) -> np.ndarray:
        """Unbiased estimate of ``Σ_users r x`` (``2L (\\widehat{Σ ỹ} − users/2)``)."""
        return 2 * self.context_bound * (self.estimate_entries(counts, users=users) - users / 2)

    def estimate_gram(self, counts: Any, *, users: int = 1) -> np.ndarray:
        """Unbiased estimate of ``Σ_users x xᵀ`` (``2L² (\\widehat{Σ z̃} − users/2)``)."""
        scale = 2 * self.context_bound ** 2
        return scale * (self.estimate_entries(counts, users=users) - users / 2)

    def entry_variance(self, value: float) -> Fraction:
        """Exact variance of :meth:`estimate_entries` for one user and one entry of value ``v``.

        .. math::

            \\frac{(m-1)\\,\\frac p2 (1 - \\frac p2) + π(1 - π)}{m^2 (1-p)^2},
            \\quad π = \\frac p2 + (1-p) f,\\; f = m v - ⌊m v⌋

        (the bits are independent; all but one are deterministic before the
        randomized response). Multiply by ``(2L)²`` or ``(2L²)²`` for the
        scaled estimates.
        """
        v = Fraction(check_in_range(value, "value", 0.0, 1.0))
        p = Fraction(self.randomization_probability)
        fraction = self.bits * v - (self.bits * v).__floor__()
        pi = p / 2 + (1 - p) * fraction
        spread = (self.bits - 1) * (p / 2) * (1 - p / 2) + pi * (1 - pi)
        return spread / (self.bits ** 2 * (1 - p) ** 2)

    def entry_law(self, value: float | Fraction) -> FiniteLaw:
        """Exact law of the ``m`` randomized bits encoding one entry ``v ∈ [0, 1]``.

        Outcome ``o = Σ_k o_k 2^k`` (bit ``k``, 0-based). The code has
        ``⌊m v⌋ + Ber(m v − ⌊m v⌋)`` leading ones; each bit is then kept with
        probability ``1 − p/2``. Exponential in ``m``: for tests and audits.
        """
        v = Fraction(value) if isinstance(value, Fraction) else Fraction(
            check_in_range(value, "value", 0.0, 1.0))
        p = Fraction(self.randomization_probability)
        floor = (self.bits * v).__floor__()
        fraction = self.bits * v - floor
        codes = [(floor, 1 - fraction)] + ([(floor + 1, fraction)] if fraction else [])
        law = []
        for outcome in range(1 << self.bits):
            total = Fraction(0)
            for ones, weight in codes:
                agree = sum(((outcome >> k) & 1) == (k < ones) for k in range(self.bits))
                total += weight * (1 - p / 2) ** agree * (p / 2) ** (self.bits - agree)
            law.append(total)
        return FiniteLaw(tuple(law))

    def exact_entries(self, context: Any, reward: Any) -> list[Fraction]:
        """The ``d + d(d+1)/2`` encoded values ``ỹ_j`` and ``z̃_ij`` (``j <= i``) as exact Fractions."""
        x, r = self._check_inputs(context, reward)
        if x.ndim != 1:
            raise value_error("context", context, "a single context (one user)")
        xs, reward_ = [Fraction(float(v)) for v in x], Fraction(float(r))
        bound = Fraction(self.context_bound)
        clip = lambda v: min(Fraction(1), max(Fraction(0), v))  # noqa: E731
        y = [clip(reward_ * v / (2 * bound) + Fraction(1, 2)) for v in xs]
        z = [clip(xs[i] * xs[j] / (2 * bound * bound) + Fraction(1, 2))
             for i in range(self.dimension) for j in range(i + 1)]
        return y + z

    @renamed_parameters(first="x", second="x_prime")
    def privacy_loss_between(self, x: tuple[Any, Any], x_prime: tuple[Any, Any]) -> mpmath.mpf:
        """Exact ``max_o ln(P[o | x] / P[o | x_prime])`` for two inputs ``(context, reward)``.

        The entries are independent and the output space is their product,
        so the maximum is the sum over entries of each entry's maximal
        log-ratio (:meth:`entry_law`). Exponential in ``m``: for tests and audits.
        """
        total = mpmath.mpf(0)
        with working_precision():
            for a, b in zip(self.exact_entries(*x), self.exact_entries(*x_prime)):
                law_a, law_b = self.entry_law(a), self.entry_law(b)
                ratio = max(u / v for u, v in zip(law_a.probabilities, law_b.probabilities))
                total += mpmath.log(mpmath.mpf(ratio.numerator) / ratio.denominator)
        return total


@renamed_parameters(epsilon_0="local_epsilon")
def m_ldp(context: Any, reward: Any, *, context_bound: float, local_epsilon: float, bits: int,
          rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Garcelon et al. 2022's ``M_LDP(x, r, L, ε0, m)`` (Alg. 2): the randomized bits ``(b̃, w̃)``.

    A functional front end to :meth:`LocalPrivatizer.simulate` (``d`` is the
    last axis of ``context``).

    >>> rng = np.random.default_rng(2)
    >>> b, w = m_ldp([0.5, 0.5], 0.3, context_bound=1.0, local_epsilon=1.0, bits=4, rng=rng)
    >>> b.shape, w.shape
    ((2, 4), (2, 2, 4))
    """
    rng = check_rng(rng)
    dimension = np.shape(context)[-1] if np.ndim(context) else 0
    mechanism = LocalPrivatizer(dimension=check_int_at_least(dimension, "context", 1), bits=bits,
                                local_epsilon=local_epsilon, context_bound=context_bound)
    return mechanism.simulate(context, reward, rng=rng)


__getattr__ = renamed_attributes(__name__, {
    "mldp_flip_probability": ("mldp_randomization_probability", mldp_randomization_probability)})
