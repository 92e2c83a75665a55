"""Samplers taking ``rng``: exact integer-only noise, and labelled float simulations.

Deployable samplers (:func:`bernoulli_exp`, :func:`geometric`,
:func:`discrete_laplace`, :func:`discrete_gaussian`, :func:`binomial`) follow
Canonne, Kamath & Steinke 2020 ("The Discrete Gaussian for Differential
Privacy", Algorithms 1–3): every parameter is an exact rational
(``fractions.Fraction``; a float is converted exactly with ``Fraction(x)``), and
every random decision is a Bernoulli(n/d) draw made as ``rng.integers(0, d) < n``
with integers, so the law of the output is *exactly* the stated one — no
floating point touches a draw. Where ``d`` does not fit in 62 bits (huge
numerators or denominators, e.g. ``sigma=1.3`` as a float is 5854679515581645/2^52),
the same comparison is made lazily on 62-bit words of a uniform number in
[0, 1) against the base-2^62 expansion of n/d, with Python integers; still
exact, only slower.

They are vectorised with numpy: a batch of candidates is drawn and the accepted
ones are kept; loops run over rejection rounds (a handful, whose count has a
geometric tail), never over samples. Same ``rng`` state, same output, bit for bit.

Float samplers live in :mod:`dpverify.mechanisms.simulation`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from dpverify._validation import (
    check_int_at_least,
    check_positive_int,
    check_real,
    limit_error,
    value_error,
)
from dpverify.errors import DpverifyTypeError

__all__ = [
    "bernoulli_exp",
    "geometric",
    "discrete_laplace",
    "discrete_gaussian",
    "binomial",
]

#: Integers below this bound are handled as int64 with headroom for one more addition.
_SMALL = 2**62
#: Largest scale / sigma accepted, so that every draw fits an int64 with overwhelming margin.
_MAX_SCALE = Fraction(2**48)
_WORD = 2**62
#: Steps of Algorithm 1 made with one uniform draw (see _bernoulli_exp_at_most_one).
_ONE_SHOT_STEPS = 3


# ----------------------------------------------------------------------------- validation

def _as_fraction(value: Any, name: str, *, allow_zero: bool = False) -> Fraction:
    """Return ``value`` as an exact :class:`~fractions.Fraction` (floats converted exactly).

    Raises ``TypeError`` for non-numbers (and booleans), ``ValueError`` for
    NaN, infinities and values ≤ 0 (< 0 with ``allow_zero``), naming ``name``.
    """
    if not isinstance(value, Fraction):
        check_real(value, name)  # refuses strings, None, booleans
    try:
        exact = Fraction(value)
    except (ValueError, OverflowError, TypeError):
        raise value_error(name, value, "a finite rational number") from None
    if exact < 0 or (exact == 0 and not allow_zero):
        raise value_error(name, value, "in [0, inf)" if allow_zero else "in (0, inf)")
    return exact


def _check_scale(value: Any, name: str) -> Fraction:
    exact = _as_fraction(value, name)
    if exact > _MAX_SCALE:
        raise value_error(name, value, "<= 2**48", "draws are returned as int64")
    return exact


def _check_rng(rng: Any) -> np.random.Generator:
    if not isinstance(rng, np.random.Generator):
        raise DpverifyTypeError(f"rng={rng!r} must be a numpy.random.Generator, e.g. "
                                "numpy.random.default_rng(seed)")
    return rng


MAX_DRAWS = 10**7
"""Most draws one float (simulation) sampler call returns: they are held in memory at once."""
MAX_EXACT_DRAWS = 10**6
"""Most draws one exact (integer) sampler call returns: ~250 bytes of working memory each."""


def _shape(size: Any, *, limit: int = MAX_DRAWS) -> tuple[int, ...] | None:
    if size is None:
        return None
    if isinstance(size, tuple):
        shape = tuple(check_int_at_least(s, "size", 0) for s in size)
    else:
        shape = (check_int_at_least(size, "size", 0),)
    if math.prod(shape) > limit:
        raise limit_error("size", size, limit, "draw in chunks (same rng, several calls)")
    return shape


def _shaped(flat: np.ndarray, shape: tuple[int, ...] | None) -> Any:
    """``flat`` reshaped to ``shape``, or its single element as a Python scalar."""
    return flat[0].item() if shape is None else flat.reshape(shape)


def _count(shape: tuple[int, ...] | None) -> int:
    return 1 if shape is None else math.prod(shape)


# ----------------------------------------------------------------------------- exact primitives

def _exact_ints(values: np.ndarray, bound: int) -> np.ndarray:
    """``values`` as int64 when ``bound`` (an upper bound on them) fits, else Python ints."""
    return values.astype(np.int64) if bound < _SMALL else values.astype(object)


def _uniform_below(bound: int, count: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` exact uniform draws from {0, …, bound − 1} (Python ints beyond 62 bits)."""
    if bound <= _SMALL:
        return rng.integers(0, bound, size=count)
    words = -(-bound.bit_length() // 62)
    out = np.empty(count, dtype=object)
    filled = 0
    while filled < count:  # rejection: each candidate is accepted with probability >= 1/2
        need = count - filled
        candidate = np.zeros(need, dtype=object)
        for _ in range(words):
            candidate = candidate * _WORD + rng.integers(0, _WORD, size=need).astype(object)
        candidate = candidate >> (words * 62 - bound.bit_length())
        kept = candidate[candidate < bound]
        out[filled:filled + kept.size] = kept
        filled += kept.size
    return out


def _bernoulli_ratio(numerators: np.ndarray, denominator: int,
                     rng: np.random.Generator) -> np.ndarray:
    """Exact Bernoulli(numerators[i] / denominator) draws, 0 ≤ numerators[i] ≤ denominator."""
    if denominator < _SMALL and numerators.dtype != object:
        return rng.integers(0, denominator, size=numerators.size) < numerators
    # Lazy comparison of a uniform U = Σ_k W_k 2^(−62k) with p = n/d, word by word.
    result = np.zeros(numerators.size, dtype=bool)
    pending = np.arange(numerators.size)
    remainders = numerators.astype(object)
    while pending.size:
        scaled = remainders * _WORD
        digits = (scaled // denominator).astype(np.int64)
        remainders = scaled - digits.astype(object) * denominator
        words = rng.integers(0, _WORD, size=pending.size)
        result[pending] = words < digits
        tied = (words == digits) & (remainders > 0)  # probability ≤ 2^−62 per element
        pending, remainders = pending[tied], remainders[tied]
    return result


def _bernoulli_exp_at_most_one(numerators: np.ndarray, denominator: int,
                               rng: np.random.Generator) -> np.ndarray:
    """Bernoulli(exp(−γ_i)) for γ_i = numerators[i] / denominator ∈ [0, 1] (CKS Alg. 1, γ ≤ 1).

    Algorithm 1 draws A_k ~ Bernoulli(γ/k), k = 1, 2, …, until the first
    A_k = 0 and returns whether that K is odd: P[K odd] = exp(−γ). Since
    P[K > k] = γ^k / k! = n^k (L / (d^k k!)) / L with L = d^k₀ k₀! < 2^62, the
    first k₀ steps are made at once: one uniform M on {0, …, L − 1} and
    K = 1 + #{k ≤ k₀ : M < n^k L / (d^k k!)} (every threshold is an exact
    integer), which has exactly the law of K truncated at k₀ + 1. Elements
    with K > k₀ continue step by step from k₀ + 1 with fresh draws (the A_k
    are independent), on Python integers when the numbers outgrow int64.
    """
    stop = np.ones(numerators.size, dtype=np.int64)
    first, product = 1, 1
    if numerators.dtype != object:
        while first <= _ONE_SHOT_STEPS and product * denominator * first < _SMALL:
            product *= denominator * first
            first += 1
    if first > 1:  # K truncated at `first`, in one draw
        uniform = rng.integers(0, product, size=numerators.size)
        power, factorial = np.ones(numerators.size, dtype=np.int64), 1
        for k in range(1, first):
            power = power * numerators
            factorial *= denominator * k
            stop += uniform < power * (product // factorial)
    result = stop % 2 == 1
    active = np.flatnonzero(stop == first)
    numerators, k = numerators[active], first
    while active.size:
        success = _bernoulli_ratio(numerators, denominator * k, rng)
        result[active[~success]] = k % 2 == 1
        active, numerators = active[success], numerators[success]
        k += 1
    return result


#: L = 20! < 2^62 and the thresholds L/k! (k = 20, …, 1) of K for γ = 1, ascending.
_FACTORIAL_20 = math.factorial(20)
_EXP_MINUS_ONE_THRESHOLDS = np.array([_FACTORIAL_20 // math.factorial(k) for k in range(20, 0, -1)],
                                     dtype=np.int64)


def _bernoulli_exp_minus_one(count: int, rng: np.random.Generator) -> np.ndarray:
    """Exact Bernoulli(exp(−1)) draws: Algorithm 1 with γ = 1, its first 20 steps in one draw.

    P[K > k] = 1/k!, so with M uniform on {0, …, 20! − 1},
    K = 1 + #{k ≤ 20 : M < 20!/k!} has the law of K truncated at 21; the
    (probability 1/20!) rest continue step by step.
    """
    uniform = rng.integers(0, _FACTORIAL_20, size=count)
    stop = 21 - np.searchsorted(_EXP_MINUS_ONE_THRESHOLDS, uniform, side="right")
    result = stop % 2 == 1
    active, k = np.flatnonzero(stop == 21), 21
    while active.size:
        success = rng.integers(0, k, size=active.size) == 0
        result[active[~success]] = k % 2 == 1
        active, k = active[success], k + 1
    return result


def _bernoulli_exp_ratio(numerators: np.ndarray, denominator: int,
                         rng: np.random.Generator) -> np.ndarray:
    """Exact Bernoulli(exp(−numerators[i] / denominator)) (CKS 2020 Alg. 1, any γ ≥ 0).

    exp(−γ) = exp(−(γ − ⌊γ⌋)) · Π_{j<⌊γ⌋} exp(−1): the fractional part first,
    then ⌊γ⌋ independent Bernoulli(exp(−1)) draws for the survivors.
    """
    if denominator >= _SMALL:
        numerators = numerators.astype(object)
    whole = numerators // denominator
    result = _bernoulli_exp_at_most_one(numerators - whole * denominator, denominator, rng)
    alive = np.flatnonzero(result & (whole > 0))
    rounds = 0
    while alive.size:
        passed = _bernoulli_exp_minus_one(alive.size, rng)
        result[alive[~passed]] = False
        rounds += 1
        alive = alive[passed]
        alive = alive[whole[alive] > rounds]
    return result


def _count_exp_minus_one_successes(count: int, rng: np.random.Generator) -> np.ndarray:
    """Number of Bernoulli(exp(−1)) successes before the first failure: geometric, ratio 1/e."""
    successes = np.zeros(count, dtype=np.int64)
    active = np.arange(count)
    while active.size:
        active = active[_bernoulli_exp_minus_one(active.size, rng)]
        successes[active] += 1
    return successes


def _fill(count: int, draw: Callable[[int], np.ndarray], *, acceptance: float) -> np.ndarray:
    """``count`` accepted draws from batches ``draw(m)`` (which returns the accepted ones).

    ``acceptance`` is a guess of the accepted fraction, refined from the rounds
    so far; it only sizes the batches (floats never touch the law), so the
    output is a deterministic function of the ``rng`` state.
    """
    out = np.empty(count, dtype=np.int64)
    filled = drawn = 0
    while filled < count:
        need = count - filled
        size = int(need / acceptance * 1.02) + 32
        batch = draw(size)[:need]
        out[filled:filled + batch.size] = batch
        filled, drawn = filled + batch.size, drawn + size
        acceptance = max(filled / drawn, 1e-3)
    return out


# ----------------------------------------------------------------------------- public exact samplers

def bernoulli_exp(gamma: Any, *, rng: np.random.Generator, size: Any = None) -> Any:
    """Exact Bernoulli(exp(−gamma)) draws for a rational ``gamma`` ≥ 0.

    Canonne, Kamath & Steinke 2020, Algorithm 1: for γ ∈ [0, 1], draw
    :math:`A_k \\sim \\mathrm{Bernoulli}(γ/k)` for k = 1, 2, … until the first
    :math:`A_k = 0` and return ``k`` odd; for γ > 1, multiply ⌊γ⌋ independent
    Bernoulli(exp(−1)) draws by one Bernoulli(exp(−(γ − ⌊γ⌋))).

    .. math:: P[\\text{true}] = \\sum_{k \\text{ odd}}
              \\left(\\frac{γ^{k-1}}{(k-1)!} - \\frac{γ^{k}}{k!}\\right) = e^{-γ}

    Parameters
    ----------
    gamma
        Rational exponent ≥ 0: ``int``, ``Fraction``, or a float (converted exactly).
    rng
        The random generator.
    size
        ``None`` for one Python ``bool``; an int or shape tuple for a bool array.

    Examples
    --------
    >>> rng = np.random.default_rng(7)
    >>> draws = bernoulli_exp(Fraction(1, 2), rng=rng, size=100_000)
    >>> bool(abs(draws.mean() - math.exp(-0.5)) < 0.01)
    True
    """
    gamma = _as_fraction(gamma, "gamma", allow_zero=True)
    rng, shape = _check_rng(rng), _shape(size, limit=MAX_EXACT_DRAWS)
    numerators = _exact_ints(np.full(_count(shape), gamma.numerator, dtype=object),
                             gamma.numerator)
    return _shaped(_bernoulli_exp_ratio(numerators, gamma.denominator, rng), shape)


def geometric(scale: Any, *, rng: np.random.Generator, size: Any = None) -> Any:
    """Exact geometric draws on {0, 1, …}: :math:`P[k] = (1 - β) β^k`, :math:`β = e^{-1/\\text{scale}}`.

    The inner loop of Canonne, Kamath & Steinke 2020, Algorithm 2: with
    scale = t/s in lowest terms, draw U uniform on {0, …, t − 1} and keep it
    with probability exp(−U/t) (so P[U = u] ∝ e^{−u/t}); let V be the number of
    Bernoulli(e^{−1}) successes before the first failure; then X = U + tV has
    P[X = x] ∝ e^{−x/t} and ⌊X/s⌋ has ratio e^{−s/t}.

    Parameters
    ----------
    scale
        Rational scale > 0 (at most 2**48); floats are converted exactly.

    Examples
    --------
    >>> rng = np.random.default_rng(7)
    >>> draws = geometric(2, rng=rng, size=100_000)
    >>> beta = math.exp(-1 / 2)
    >>> bool(abs(draws.mean() - beta / (1 - beta)) < 0.05)
    True
    """
    scale = _check_scale(scale, "scale")
    rng, shape = _check_rng(rng), _shape(size, limit=MAX_EXACT_DRAWS)
    return _shaped(_geometric(scale, _count(shape), rng), shape)


def _geometric(scale: Fraction, count: int, rng: np.random.Generator) -> np.ndarray:
    return _fill(count, lambda m: _geometric_batch(scale, m, rng), acceptance=0.63)


def _geometric_batch(scale: Fraction, candidates: int, rng: np.random.Generator) -> np.ndarray:
    """Geometric draws from ``candidates`` candidates (about 63% or more are kept)."""
    t, s = scale.numerator, scale.denominator
    uniform = _uniform_below(t, candidates, rng)
    uniform = uniform[_bernoulli_exp_ratio(uniform, t, rng)]
    v = _count_exp_minus_one_successes(uniform.size, rng)
    bound = t * (int(v.max(initial=0)) + 1)
    x = _exact_ints(uniform, bound) + _exact_ints(v, bound) * t
    return (x // s).astype(np.int64)


def discrete_laplace(scale: Any, *, rng: np.random.Generator, size: Any = None) -> Any:
    """Exact discrete Laplace draws: :math:`P[k] = \\frac{1-β}{1+β} β^{|k|}`, :math:`β = e^{-1/\\text{scale}}`.

    Canonne, Kamath & Steinke 2020, Algorithm 2: a fair sign B and a geometric
    magnitude Y (:func:`geometric`), rejecting (B = 1, Y = 0) so that zero is
    not counted twice; return (1 − 2B)·Y.

    Parameters
    ----------
    scale
        Rational scale > 0 (at most 2**48); floats are converted exactly.

    Examples
    --------
    >>> rng = np.random.default_rng(12345)
    >>> discrete_laplace(Fraction(3, 2), rng=rng, size=5).tolist()
    [-7, -1, 4, -1, -2]
    """
    scale = _check_scale(scale, "scale")
    rng, shape = _check_rng(rng), _shape(size, limit=MAX_EXACT_DRAWS)
    return _shaped(_discrete_laplace(scale, _count(shape), rng), shape)


def _discrete_laplace(scale: Fraction, count: int, rng: np.random.Generator) -> np.ndarray:
    return _fill(count, lambda m: _discrete_laplace_batch(scale, m, rng), acceptance=0.5)


def _discrete_laplace_batch(scale: Fraction, candidates: int,
                            rng: np.random.Generator) -> np.ndarray:
    magnitude = _geometric_batch(scale, candidates, rng)
    negative = rng.integers(0, 2, size=magnitude.size).astype(bool)
    keep = ~(negative & (magnitude == 0))
    return np.where(negative, -magnitude, magnitude)[keep]


def discrete_gaussian(sigma: Any, *, rng: np.random.Generator, size: Any = None) -> Any:
    """Exact discrete Gaussian draws: :math:`P[k] ∝ e^{-k^2 / (2σ^2)}` on the integers.

    Canonne, Kamath & Steinke 2020, Algorithm 3: with t = ⌊σ⌋ + 1, draw
    Y ~ discrete Laplace(t) and accept it with probability

    .. math:: \\exp\\left(-\\frac{(|Y| - σ^2/t)^2}{2σ^2}\\right)
              = \\exp\\left(-\\frac{(|Y|\\,t\\,q - p)^2}{2\\,p\\,q\\,t^2}\\right),
              \\quad σ^2 = p/q,

    an exact rational exponent fed to :func:`bernoulli_exp`'s algorithm.

    Parameters
    ----------
    sigma
        Rational σ > 0 (at most 2**48); floats are converted exactly. Small
        numerators and denominators (ints, ``Fraction(3, 2)``, dyadic floats
        such as 2.5) keep every integer in int64 and run fastest.

    Examples
    --------
    >>> rng = np.random.default_rng(12345)
    >>> discrete_gaussian(2, rng=rng, size=5).tolist()
    [-3, 2, -5, -3, 3]
    """
    sigma = _check_scale(sigma, "sigma")
    rng, shape = _check_rng(rng), _shape(size, limit=MAX_EXACT_DRAWS)
    return _shaped(_discrete_gaussian(sigma, _count(shape), rng), shape)


def _discrete_gaussian(sigma: Fraction, count: int, rng: np.random.Generator) -> np.ndarray:
    p, q = (sigma * sigma).numerator, (sigma * sigma).denominator
    t = math.floor(sigma) + 1
    denominator = 2 * p * q * t * t

    def draw(m: int) -> np.ndarray:
        candidate = _discrete_laplace_batch(Fraction(t), m, rng)
        magnitude = np.abs(candidate)
        bound = (int(magnitude.max(initial=0)) * t * q + p) ** 2
        centred = _exact_ints(magnitude, bound) * (t * q) - p
        accept = _bernoulli_exp_ratio(centred * centred, denominator, rng)
        return candidate[accept]

    return _fill(count, draw, acceptance=0.25)


def binomial(trials: Any, probability: Any = Fraction(1, 2), *, rng: np.random.Generator,
             size: Any = None) -> Any:
    """Exact Binomial(trials, probability) draws for a rational probability.

    The sum of ``trials`` exact Bernoulli(n/d) draws (``rng.integers(0, d) < n``).
    For probability 1/2 it is the number of set bits in ``trials`` uniform
    random bits (64 per word), so cost is trials/64 words per draw; otherwise
    cost is ``trials`` integers per draw (chunked to bound memory).

    Parameters
    ----------
    trials
        Number of trials, an integer ≥ 1.
    probability
        Rational success probability in [0, 1]; floats are converted exactly.

    Examples
    --------
    >>> rng = np.random.default_rng(12345)
    >>> binomial(10, rng=rng, size=5).tolist()
    [6, 4, 6, 3, 4]
    """
    trials = check_positive_int(trials, "trials")
    probability = _as_fraction(probability, "probability", allow_zero=True)
    if probability > 1:
        raise value_error("probability", probability, "in [0, 1]")
    rng, shape = _check_rng(rng), _shape(size, limit=MAX_EXACT_DRAWS)
    count = _count(shape)
    if probability == Fraction(1, 2):
        return _shaped(_fair_binomial(trials, count, rng), shape)
    n, d = probability.numerator, probability.denominator
    out = np.zeros(count, dtype=np.int64)
    rows = max(1, 2**22 // trials)
    for start in range(0, count, rows):
        block = min(rows, count - start)
        for first in range(0, trials, 2**22):  # each block draws at most 2^22 trials at a time
            width = min(2**22, trials - first)
            numerators = _exact_ints(np.full(block * width, n, dtype=object), n)
            hits = _bernoulli_ratio(numerators, d, rng).reshape(block, width)
            out[start:start + block] += hits.sum(axis=1)
    return _shaped(out, shape)


def _fair_binomial(trials: int, count: int, rng: np.random.Generator) -> np.ndarray:
    full, rest = divmod(trials, 64)
    out = np.zeros(count, dtype=np.int64)
    rows = max(1, 2**20 // (full + 1))
    for start in range(0, count, rows):
        block = min(rows, count - start)
        if full:
            words = rng.integers(0, 2**64 - 1, size=(block, full), dtype=np.uint64,
                                 endpoint=True)
            out[start:start + block] += np.bitwise_count(words).sum(axis=1, dtype=np.int64)
        if rest:
            words = rng.integers(0, 2**rest - 1, size=block, dtype=np.uint64, endpoint=True)
            out[start:start + block] += np.bitwise_count(words)
    return out
