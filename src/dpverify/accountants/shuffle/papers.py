"""The shuffle-model papers' own privacy computations.

* Garcelon et al. 2022: Prop. 13's per-batch ε (Eq. 24), Thm 5's batch-length condition
  (Eq. 3, printed and re-derived), the smallest batch length, and the total
  over ⌈T/l⌉ batches (advanced composition as the paper; optimal and PLD for
  comparison);
* Hanna et al. 2022, Alg. 3: Eq. (10) and ε0^{(i)} for every batch size;
* Tenenbaum et al. 2021: the noise of ``M_sum`` (σ_{ε,δ}) and Cor. 3.2's batch size.

Formulas are implemented as printed, with our re-derivations as
options; they are the papers' claims, evaluated in mpmath and rounded up.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from fractions import Fraction

import mpmath

from dpverify._deprecation import renamed_parameters
from dpverify._numeric import bisect_passing, round_up, working_precision
from dpverify._validation import (
    MAX_FORMULA_INTEGER,
    check_choice,
    check_delta,
    check_epsilon,
    check_positive,
    check_positive_int,
    check_probability,
    value_error,
)
from dpverify.accountants.calibrate.noise import min_binomial_trials
from dpverify.accountants.composition import advanced_composition, optimal_composition
from dpverify.accountants.pld.distribution import PrivacyLossDistribution
from dpverify.accountants.shuffle._exact import min_randomization_probability
from dpverify.accountants.shuffle.amplification import amplified_epsilon, max_local_epsilons
from dpverify.guarantees import ApproxDP

__all__ = [
    "garcelon_per_batch_epsilon",
    "garcelon_batch_length_ok",
    "min_shuffler_batch_length",
    "hanna_shuffle_epsilon",
    "hanna_local_epsilons",
    "garcelon_total_guarantee",
    "GARCELON_COMPOSITIONS",
    "tenenbaum_noise_bits",
    "tenenbaum_msum_sigma",
    "tenenbaum_batch_size",
    "TENENBAUM_BATCH_READINGS",
]


@renamed_parameters(m="bits", d="dimension", delta0="delta",
                    flip_probability="randomization_probability")
def garcelon_per_batch_epsilon(batch_length: int, randomization_probability: float, *, bits: int,
                               dimension: int, delta: float) -> float:
    """Garcelon et al. Prop. 13, Eq. (24): per-batch ε_{j,c} of the shuffled M_LDP bits.

    ``bits`` is the paper's m (bits per encoded value), ``dimension`` its d,
    ``delta`` its δ0 (the δ of each batch's guarantee), ``batch_length`` its l
    and ``randomization_probability`` its p.

    .. math::

        ε_{j,c} = 2d(d+3)\\sqrt{8m\\log(8m/δ_0)}\\,(1-x)\\sqrt{\\frac{32\\log(8m/δ_0)}{l x}},
        \\quad x = p - \\sqrt{2p\\log(2m/δ_0)/l}

    (the printed denominator log(8δ0/m) is a typo for the numerator's log(2m/δ0)).
    **Soundness**: the paper's claimed bound (rests on a reconstructed Cheu et al.
    lemma [R]); valid only when l·p >= 14 log(8m/δ0), checked; rounded up.

    >>> round(garcelon_per_batch_epsilon(10**6, 0.5, bits=1, dimension=1, delta=1e-6), 3)
    1.455
    """
    l, m, d = (check_positive_int(v, name, maximum=MAX_FORMULA_INTEGER) for v, name in
               ((batch_length, "batch_length"), (bits, "bits"), (dimension, "dimension")))
    p = check_probability(randomization_probability, "randomization_probability", open_low=True)
    delta0 = check_delta(delta, "delta", allow_zero=False)
    with working_precision():
        log8 = mpmath.log(8 * m / mpmath.mpf(delta0))
        if not l * mpmath.mpf(p) >= 14 * log8:
            raise value_error("batch_length", l, f">= 14 log(8 bits/delta)/randomization_probability = "
                              f"{float(14 * log8 / p)!r}",
                              "Prop. 13 requires l*p >= 14 log(8m/delta0)")
        x = p - mpmath.sqrt(2 * p * mpmath.log(2 * m / mpmath.mpf(delta0)) / l)
        value = (2 * d * (d + 3) * mpmath.sqrt(8 * m * log8) * (1 - x)
                 * mpmath.sqrt(32 * log8 / (l * x)))
    return round_up(value, relative_error=1e-30)


@renamed_parameters(delta0="delta", T="horizon", m="bits", d="dimension",
                    flip_probability="randomization_probability")
def garcelon_batch_length_ok(batch_length: int, epsilon: float, delta: float, *, horizon: int,
                             bits: int, dimension: int, randomization_probability: float,
                             variant: str = "derived") -> bool:
    """Garcelon et al. Thm 5: l·p >= 14 log(8mT/δ0) and Eq. (3).

    The paper's l, δ0, T, m, d and p are ``batch_length``, ``delta``, ``horizon``,
    ``bits``, ``dimension`` and ``randomization_probability``.

    With A = ε l / (32 d(d+3) log(8mT/δ0) √(2T ln(2T/δ0))), Eq. (3) reads
    √((2 + A²)² − 4) >= c + A² where c = 1 − 2p + 2√(2 log(2mT/δ0)/l) as printed
    (``variant="printed"``) or 2 − 2p + 2√(2p log(2mT/δ0)/l) as re-derived from
    Prop. 13 (``"derived"``, the default: the printed "1 − 2p" is weaker than what
    the proof needs: the condition is "ε_{j,c} <= ε√l/√(2T ln(2T/δ0))" solved for l). Evaluated in mpmath.

    >>> garcelon_batch_length_ok(10, 0.5, 1e-6, horizon=10**4, bits=1, dimension=1,
    ...                          randomization_probability=0.5)
    False
    """
    variant = check_choice(variant, "variant", ("printed", "derived"))
    l, T, m, d = (check_positive_int(v, name, maximum=MAX_FORMULA_INTEGER) for v, name in
                  ((batch_length, "batch_length"), (horizon, "horizon"), (bits, "bits"),
                   (dimension, "dimension")))
    epsilon = check_epsilon(epsilon, allow_zero=False)
    delta0 = check_delta(delta, "delta", allow_zero=False)
    p = check_probability(randomization_probability, "randomization_probability", open_low=True)
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


@renamed_parameters(delta0="delta", T="horizon", m="bits", d="dimension",
                    flip_probability="randomization_probability")
def min_shuffler_batch_length(epsilon: float, delta: float, *, horizon: int, bits: int,
                              dimension: int, randomization_probability: float,
                              variant: str = "derived") -> int:
    """Smallest shuffler batch length l meeting Thm 5 (both conditions), by integer bisection.

    Both conditions are monotone in l (√((2+A²)²−4) − A² increases in A ∝ l;
    the right-hand side decreases in l), so :func:`bisect_passing` applies;
    the upper end of the bracket is found by doubling (up to 2^62).

    >>> l = min_shuffler_batch_length(0.5, 1e-6, horizon=10**10, bits=1, dimension=1,
    ...                               randomization_probability=0.5)
    >>> garcelon_batch_length_ok(l, 0.5, 1e-6, horizon=10**10, bits=1, dimension=1,
    ...                          randomization_probability=0.5)
    True
    """
    def ok(l: int) -> bool:
        return garcelon_batch_length_ok(l, epsilon, delta, horizon=horizon, bits=bits,
                                        dimension=dimension, randomization_probability=randomization_probability,
                                        variant=variant)

    high = 1
    while not ok(high):
        if high > 2 ** 62:
            raise value_error("epsilon", epsilon, "large enough for some batch length",
                              "no l up to 2^62 meets Thm 5")
        high *= 2
    return 1 if high == 1 else bisect_passing(ok, high // 2, high, integer=True)


@renamed_parameters(n="users")
def hanna_shuffle_epsilon(local_epsilon: float, users: int, delta: float) -> float:
    """Hanna et al. Eq. (10) (FMT 2021): f_{n,δ}(ε0), valid for ε0 <= ln(n / (16 ln(2/δ))).

    ``users`` is the paper's n (the reports shuffled together), ``local_epsilon`` its ε0.

    The ``"fmt2021"`` bound of :func:`dpverify.accountants.shuffle.amplification.amplified_epsilon`
    (mpmath, rounded up; ValueError outside the validity region).

    >>> round(hanna_shuffle_epsilon(1.0, 10**6, 1e-6), 4)
    0.0235
    """
    return amplified_epsilon(local_epsilon, users, delta, bound="fmt2021")


def hanna_local_epsilons(batch_sizes, epsilon: float, delta: float) -> list[float]:
    """Hanna et al. Alg. 3 line 8: ε0^{(i)} = f^{-1}_{n_i,δ}(ε) for every batch size.

    :func:`dpverify.accountants.shuffle.amplification.max_local_epsilons` with ``bound="fmt2021"``:
    the largest valid ε0 with f_{n_i,δ}(ε0) <= ε (verified in mpmath), and the
    validity cap when f stays below ε on the whole region. Raises
    :class:`~dpverify.errors.CalibrationError` (a ValueError) when no ε0 works.

    >>> [round(e, 3) for e in hanna_local_epsilons([10**4, 10**6], 0.1, 1e-6)]
    [0.528, 2.699]
    """
    if isinstance(batch_sizes, Iterable) and not isinstance(batch_sizes, (str, bytes)):
        batch_sizes = list(batch_sizes)   # any iterable; the rest is refused by name below
    return [float(e) for e in max_local_epsilons(epsilon, batch_sizes, delta, bound="fmt2021")]


# --------------------------------------------------------------------------- garcelon total


#: Composition methods of :func:`garcelon_total_guarantee`.
GARCELON_COMPOSITIONS = ("advanced", "optimal", "pld")


@renamed_parameters(m="bits", d="dimension", delta0="delta",
                    flip_probability="randomization_probability")
def garcelon_total_guarantee(batch_length: int, horizon: int, randomization_probability: float, *,
                             bits: int, dimension: int, delta: float, delta_slack: float,
                             composition: str = "advanced") -> ApproxDP:
    """Central guarantee of all ⌈T/l⌉ shuffler releases of SBLB (Garcelon et al. 2022, Thm 5's proof).

    ``delta`` is the paper's δ0 (the batches' δ's add up to at most δ0; the result's
    δ is δ0 + ``delta_slack``), ``bits`` its m, ``dimension`` its d, ``horizon`` its T.

    Each batch is (ε_c, δ0/T)-DP with ε_c = Prop. 13 (Eq. 24) evaluated with
    T inside the logarithms (δ0 → δ0/T, as Thm 5's conditions are written),
    so the k = ⌈T/l⌉ per-batch δ's add up to at most δ0. The k releases are
    then composed:

    * ``"advanced"`` — Dwork–Rothblum–Vadhan (Dwork & Roth 2014, Thm 3.20), as the paper:
      ``ε = √(2k ln(1/δ')) ε_c + k ε_c (e^{ε_c} − 1)``, δ = kδ0/T + δ';
    * ``"optimal"`` — Kairouz–Oh–Viswanath's exact optimal composition of k
      (ε_c, δ0/T) guarantees at the same total δ: the least ε valid for
      every such composition;
    * ``"pld"`` — the same worst case through the privacy-loss distribution
      of the (ε_c, δ0/T) dominating pair (grid rounding pessimistic).

    The global failure event E_δ of the LDP noise (the "δ" of the paper's
    (ε, δ0 + δ)) is the caller's to add. **Soundness**: as sound as Prop. 13,
    whose constants rest on a reconstructed Cheu et al. lemma [R]; every
    step after it is rigorous and rounded up.

    >>> advanced = garcelon_total_guarantee(10**7, 10**8, 0.5, bits=1, dimension=1, delta=1e-6,
    ...                                     delta_slack=1e-6)
    >>> optimal = garcelon_total_guarantee(10**7, 10**8, 0.5, bits=1, dimension=1, delta=1e-6,
    ...                                    delta_slack=1e-6, composition="optimal")
    >>> optimal.epsilon <= advanced.epsilon, advanced.delta <= 2e-6
    (True, True)
    """
    composition = check_choice(composition, "composition", GARCELON_COMPOSITIONS)
    horizon = check_positive_int(horizon, "horizon", maximum=MAX_FORMULA_INTEGER)
    delta0 = check_delta(delta, "delta", allow_zero=False)
    delta_slack = check_delta(delta_slack, "delta_slack", allow_zero=False)
    per_batch_delta = delta0 / horizon
    batches = -(-horizon // check_positive_int(batch_length, "batch_length",
                                               maximum=MAX_FORMULA_INTEGER))
    epsilon = garcelon_per_batch_epsilon(batch_length, randomization_probability, bits=bits,
                                         dimension=dimension, delta=per_batch_delta)
    total_delta = round_up(batches * Fraction(per_batch_delta) + Fraction(delta_slack))
    if total_delta >= 1:
        raise value_error("delta_slack", delta_slack, f"< 1 - {batches} * delta / horizon")
    if composition == "advanced":
        return advanced_composition(epsilon, per_batch_delta, batches, delta_slack=delta_slack)
    if composition == "optimal":
        return optimal_composition(epsilon, per_batch_delta, batches, target_delta=total_delta)
    pld = PrivacyLossDistribution.from_approx_dp(epsilon, per_batch_delta).self_compose(batches)
    return ApproxDP(epsilon=pld.epsilon_for_delta(total_delta), delta=total_delta)


# --------------------------------------------------------------------------- tenenbaum


#: Readings of Tenenbaum et al. 2021, Cor. 3.2's batch size: ⌈σ²⌉ (what its regret needs) or ⌈σ⌉ (printed).
TENENBAUM_BATCH_READINGS = ("squared", "printed")


def tenenbaum_noise_bits(epsilon: float, delta: float) -> int:
    """Total noise bits N of the noise-bit ``M_sum`` for an (ε, δ)-SDP batch (Tenenbaum et al. 2021, §2.1, App. C).

    Their ``M_sum`` (specified in an Appendix C that was not available) is
    read as :class:`~dpverify.mechanisms.protocols.NoisyBitSummation`: the
    users' reward bits plus N fair coins, shuffled, so the analyser sees
    ``Σ r_i + Bin(N, 1/2)``. One user's reward moves the count by one, so the
    batch is (ε, δ)-SDP (replace-one) exactly when binomial noise of N
    trials is (ε, δ)-DP at sensitivity 1; this is the smallest such N
    (:func:`~dpverify.accountants.calibrate.noise.min_binomial_trials`, exact). It
    does not depend on the batch size m: the N coins are spread over the m
    users.

    >>> tenenbaum_noise_bits(1.0, 1e-6)
    80
    """
    return min_binomial_trials(epsilon, delta)


def tenenbaum_msum_sigma(epsilon: float, delta: float, *, protocol: str = "noise-bits",
                         batch_size: int | None = None) -> float:
    """σ_{ε,δ}: the sub-Gaussian scale of the chosen ``M_sum``'s error (Tenenbaum et al. 2021, Alg. 1–2, Def. 1).

    * ``"noise-bits"`` (default; meets §2.1's requirements for every batch
      size): the error ``Bin(N, 1/2) − N/2`` is SG(N/4) (Hoeffding), so
      ``σ = √N / 2`` with N = :func:`tenenbaum_noise_bits`, whatever the
      batch size (a batch carries exactly N coins; ``batch_size`` is ignored).
    * ``"randomized-response"``: Cheu et al.'s shuffled binary RR
      (:class:`~dpverify.mechanisms.protocols.BinarySummation`) with the
      smallest randomization probability p whose exact shuffled guarantee is (ε, δ)
      for the ``batch_size`` m users (required); the debiased error is a sum
      of m independent terms each in an interval of length 1/(1 − p), so
      SG(m/(4(1 − p)²)) and ``σ = √m / (2(1 − p))``. Its error depends on
      the input in law, so it is not the drop-in §3 asks for, and below m ≈ log(1/δ)/ε² users
      shuffling gains little: p stays
      near the local ``2/(e^ε + 1)`` and σ grows like √m/(1 − p).

    Rounded up.

    >>> tenenbaum_msum_sigma(1.0, 1e-6)
    4.47213595499958
    """
    protocol = check_choice(protocol, "protocol", ("noise-bits", "randomized-response"))
    if batch_size is not None:
        batch_size = check_positive_int(batch_size, "batch_size", maximum=MAX_FORMULA_INTEGER)
    with working_precision():
        if protocol == "noise-bits":
            return round_up(mpmath.sqrt(tenenbaum_noise_bits(epsilon, delta)) / 2,
                            relative_error=1e-40)
        if batch_size is None:
            raise value_error("batch_size", batch_size, "an integer >= 1",
                              "the randomized-response M_sum is calibrated to its batch")
        p = min_randomization_probability(batch_size, epsilon, delta)  # < 1: ε0-LDP RR alone has ε0 = ε
        return round_up(mpmath.sqrt(batch_size) / (2 * (1 - mpmath.mpf(p))), relative_error=1e-40)


def tenenbaum_batch_size(sigma: float, *, reading: str = "squared") -> int:
    """SDP-AE's batch size m of Tenenbaum et al. 2021, Cor. 3.2.

    The corollary prints ``m = ⌈σ_{ε,δ}⌉`` but then uses m = Θ(log(1/δ)/ε²)
    = Θ(σ²), and its regret derivation (the mΔ_a term giving Δ_a log(1/δ)/ε²)
    needs ``m = ⌈σ²⌉``: ``reading="squared"`` (default) or
    ``"printed"``. The batch size only tunes regret (every batch is private
    whatever its size), and σ usually arrives rounded up, so a relative
    excess of 1e-12 is forgiven: σ = √20 (as a float) gives m = 20.

    >>> sigma = tenenbaum_msum_sigma(1.0, 1e-6)  # √80 / 2
    >>> tenenbaum_batch_size(sigma), tenenbaum_batch_size(sigma, reading="printed")
    (20, 5)
    """
    sigma = check_positive(sigma, "sigma")
    reading = check_choice(reading, "reading", TENENBAUM_BATCH_READINGS)
    value = Fraction(sigma) ** 2 if reading == "squared" else Fraction(sigma)
    return max(1, math.ceil(value * (1 - Fraction(1, 10 ** 12))))
