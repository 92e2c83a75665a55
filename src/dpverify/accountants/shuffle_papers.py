"""The shuffle-model papers' own privacy computations (garcelon Prop. 13 / Thm 5, hanna Alg. 3).

Formulas are implemented as printed, with the CATALOGUE's re-derivations as
options; they are the papers' claims, evaluated in mpmath and rounded up.
"""

from __future__ import annotations

import mpmath

from dpverify._numeric import bisect_passing, round_up, working_precision
from dpverify.accountants.shuffle import amplified_epsilon, max_local_epsilons
from dpverify._validation import (
    check_choice,
    check_delta,
    check_epsilon,
    check_positive_int,
    check_probability,
    value_error,
)

__all__ = [
    "garcelon_per_batch_epsilon",
    "garcelon_batch_length_ok",
    "min_shuffler_batch_length",
    "hanna_shuffle_epsilon",
    "hanna_local_epsilons",
]


def garcelon_per_batch_epsilon(batch_length: int, flip_probability: float, *, m: int, d: int,
                               delta0: float) -> float:
    """Garcelon et al. Prop. 13, Eq. (24): per-batch ε_{j,c} of the shuffled M_LDP bits.

    .. math::

        ε_{j,c} = 2d(d+3)\\sqrt{8m\\log(8m/δ_0)}\\,(1-x)\\sqrt{\\frac{32\\log(8m/δ_0)}{l x}},
        \\quad x = p - \\sqrt{2p\\log(2m/δ_0)/l}

    (the printed denominator log(8δ0/m) is a typo, CATALOGUE 000.3/T7).
    **Soundness**: the paper's claimed bound (rests on a reconstructed Cheu et al.
    lemma [R]); valid only when l·p >= 14 log(8m/δ0), checked; rounded up.

    >>> round(garcelon_per_batch_epsilon(10**6, 0.5, m=1, d=1, delta0=1e-6), 3)
    1.455
    """
    l, m, d = (check_positive_int(v, name) for v, name in
               ((batch_length, "batch_length"), (m, "m"), (d, "d")))
    p = check_probability(flip_probability, "flip_probability", open_low=True)
    delta0 = check_delta(delta0, "delta0", allow_zero=False)
    with working_precision():
        log8 = mpmath.log(8 * m / mpmath.mpf(delta0))
        if not l * mpmath.mpf(p) >= 14 * log8:
            raise value_error("batch_length", l, f">= 14 log(8m/delta0)/p = {float(14 * log8 / p)!r}",
                              "Prop. 13 requires l*p >= 14 log(8m/delta0)")
        x = p - mpmath.sqrt(2 * p * mpmath.log(2 * m / mpmath.mpf(delta0)) / l)
        value = (2 * d * (d + 3) * mpmath.sqrt(8 * m * log8) * (1 - x)
                 * mpmath.sqrt(32 * log8 / (l * x)))
    return round_up(value, relative_error=1e-30)


def garcelon_batch_length_ok(batch_length: int, epsilon: float, delta0: float, *, T: int, m: int,
                             d: int, flip_probability: float, variant: str = "derived") -> bool:
    """Garcelon et al. Thm 5: l·p >= 14 log(8mT/δ0) and Eq. (3).

    With A = ε l / (32 d(d+3) log(8mT/δ0) √(2T ln(2T/δ0))), Eq. (3) reads
    √((2 + A²)² − 4) >= c + A² where c = 1 − 2p + 2√(2 log(2mT/δ0)/l) as printed
    (``variant="printed"``) or 2 − 2p + 2√(2p log(2mT/δ0)/l) as re-derived from
    Prop. 13 (``"derived"``, the default: the printed "1 − 2p" is weaker than what
    the proof needs, CATALOGUE 000.3). Evaluated in mpmath.

    >>> garcelon_batch_length_ok(10, 0.5, 1e-6, T=10**4, m=1, d=1, flip_probability=0.5)
    False
    """
    variant = check_choice(variant, "variant", ("printed", "derived"))
    l, T, m, d = (check_positive_int(v, name) for v, name in
                  ((batch_length, "batch_length"), (T, "T"), (m, "m"), (d, "d")))
    epsilon = check_epsilon(epsilon, allow_zero=False)
    delta0 = check_delta(delta0, "delta0", allow_zero=False)
    p = check_probability(flip_probability, "flip_probability", open_low=True)
    with working_precision():
        d0 = mpmath.mpf(delta0)
        log8, log2 = mpmath.log(8 * m * T / d0), mpmath.log(2 * m * T / d0)
        if not l * mpmath.mpf(p) >= 14 * log8:
            return False
        big_a = epsilon * l / (32 * d * (d + 3) * log8 * mpmath.sqrt(2 * T * mpmath.log(2 * T / d0)))
        if variant == "printed":
            c = 1 - 2 * mpmath.mpf(p) + 2 * mpmath.sqrt(2 * log2 / l)
        else:
            c = 2 - 2 * mpmath.mpf(p) + 2 * mpmath.sqrt(2 * p * log2 / l)
        return bool(mpmath.sqrt((2 + big_a ** 2) ** 2 - 4) >= c + big_a ** 2)


def min_shuffler_batch_length(epsilon: float, delta0: float, *, T: int, m: int, d: int,
                              flip_probability: float, variant: str = "derived") -> int:
    """Smallest shuffler batch length l meeting Thm 5 (both conditions), by integer bisection.

    Both conditions are monotone in l (√((2+A²)²−4) − A² increases in A ∝ l;
    the right-hand side decreases in l), so :func:`bisect_passing` applies;
    the upper end of the bracket is found by doubling (up to 2^62).

    >>> l = min_shuffler_batch_length(0.5, 1e-6, T=10**10, m=1, d=1, flip_probability=0.5)
    >>> garcelon_batch_length_ok(l, 0.5, 1e-6, T=10**10, m=1, d=1, flip_probability=0.5)
    True
    """
    def ok(l: int) -> bool:
        return garcelon_batch_length_ok(l, epsilon, delta0, T=T, m=m, d=d,
                                        flip_probability=flip_probability, variant=variant)

    high = 1
    while not ok(high):
        if high > 2 ** 62:
            raise value_error("epsilon", epsilon, "large enough for some batch length",
                              "no l up to 2^62 meets Thm 5")
        high *= 2
    return 1 if high == 1 else bisect_passing(ok, high // 2, high, integer=True)


def hanna_shuffle_epsilon(local_epsilon: float, n: int, delta: float) -> float:
    """Hanna et al. Eq. (10) (FMT 2021): f_{n,δ}(ε0), valid for ε0 <= ln(n / (16 ln(2/δ))).

    The ``"fmt2021"`` bound of :func:`dpverify.accountants.shuffle.amplified_epsilon`
    (mpmath, rounded up; ValueError outside the validity region).

    >>> round(hanna_shuffle_epsilon(1.0, 10**6, 1e-6), 4)
    0.0235
    """
    return amplified_epsilon(local_epsilon, n, delta, bound="fmt2021")


def hanna_local_epsilons(batch_sizes, epsilon: float, delta: float) -> list[float]:
    """Hanna et al. Alg. 3 line 8: ε0^{(i)} = f^{-1}_{n_i,δ}(ε) for every batch size.

    :func:`dpverify.accountants.shuffle.max_local_epsilons` with ``bound="fmt2021"``:
    the largest valid ε0 with f_{n_i,δ}(ε0) <= ε (verified in mpmath), and the
    validity cap when f stays below ε on the whole region. Raises
    :class:`~dpverify.errors.CalibrationError` (a ValueError) when no ε0 works.

    >>> [round(e, 3) for e in hanna_local_epsilons([10**4, 10**6], 0.1, 1e-6)]
    [0.528, 2.699]
    """
    return [float(e) for e in max_local_epsilons(epsilon, list(batch_sizes), delta,
                                                 bound="fmt2021")]
