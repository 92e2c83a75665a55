"""Finite dominating pairs of mechanisms: what subsampling, in PLD and in RDP, is computed from.

A pair of distributions (P, Q) *dominates* a mechanism M if every hockey-stick
divergence of M on neighbouring inputs is at most that of (P, Q) (Zhu, Dong,
Wang, AISTATS 2022, Def. 7). :func:`dominating_pair` returns a finite one,
computed in mpmath at 50 digits; Poisson subsampling of it is accounted as a PLD by
:func:`~dpverify.accountants.pld.subsampling.poisson_subsampled_pld` and in RDP by
:func:`~dpverify.accountants.rdp.subsampling_pairs.poisson_subsampled_pair_rdp`,
sampling without replacement by
:func:`~dpverify.accountants.pld.subsampling_wor.without_replacement_pld`. The pairs:

* ε-DP (``PureDP``, ``Laplace`` via its ε, k-ary/binary randomized response
  with their exact laws): the two-point pair ``(e^ε, 1)/(1 + e^ε)`` and its
  reverse, or the randomized response's own pair of output laws;
* (ε, δ)-DP: the four-point pair of Kairouz, Oh, Viswanath (2015, Thm 2.1);
* the discrete Laplace mechanism with integer sensitivity Δ: its exact pair,
  outcomes with equal likelihood ratio merged (k <= 0, 0 < k < Δ, k >= Δ);
* the truncated discrete Gaussian with integer sensitivity: its exact finite pair;
* the discrete Gaussian with integer sensitivity: its exact pair on
  ``[−N, N + Δ]`` (N ≈ 15σ) and two outcomes holding rigorous bounds on the
  tails' mass where they can only make the pair more pessimistic;
* the Laplace mechanism: its continuous pair ``(Lap(Δ, b), Lap(0, b))`` made
  finite pessimistically: the regions y <= 0 and y >= Δ (constant ratio) are
  exact atoms; each of ``LAPLACE_BINS`` bins of (0, Δ), whose likelihood
  ratio lies in ``[r_min, r_max]``, is split between two outcomes of ratio
  exactly ``r_min`` and ``r_max`` keeping its P- and Q-mass (connect-the-dots
  in the ratio: the bin is a garbling of that two-outcome experiment, so the
  pair dominates at every α, and so does its Poisson or without-replacement
  mixture). Adjacent bins share outcomes: ``LAPLACE_BINS + 1`` in all.

Each pair is registered for its type (:func:`functools.singledispatch`, looked up
along the value's MRO): a new mechanism with a finite dominating pair is one
registered function here, and every subsampled accountant that works from pairs
supports it.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import mpmath

from dpverify._numeric import working_precision
from dpverify._validation import check_positive, check_positive_int, shown
from dpverify.errors import UnsupportedError
from dpverify.guarantees import ApproxDP, PureDP
from dpverify.mechanisms import (
    BinaryRandomizedResponse,
    DiscreteGaussian,
    DiscreteLaplace,
    Laplace,
    RandomizedResponse,
    TruncatedDiscreteGaussian,
)

__all__ = ["dominating_pair"]

#: Bins of (0, Δ) in the Laplace mechanism's finite pessimistic pair.
LAPLACE_BINS = 1024
#: Largest Δ/b of the Laplace mechanism's binned pair; beyond it the pure-DP pair of ε = Δ/b.
LAPLACE_MAX_LOSS = 1e4
#: Most outcomes of the discrete Gaussian's pair (about 30σ + Δ).
MAX_DISCRETE_GAUSSIAN_OUTCOMES = 20_000


def dominating_pair(value: Any, *, sensitivity: float = 1.0) -> tuple[list, list]:
    """A finite dominating pair ``(P, Q)`` (mpmath lists over the same outcomes) of ``value``.

    ``value`` is a ``PureDP``, ``ApproxDP``, ``RandomizedResponse``,
    ``BinaryRandomizedResponse``, ``Laplace`` (a pessimistic finite pair of its
    continuous one), ``DiscreteLaplace`` (integer ``sensitivity``; exact) or
    ``DiscreteGaussian`` (integer ``sensitivity``; exact within 10⁻⁴⁰ tails) or
    ``TruncatedDiscreteGaussian`` (integer ``sensitivity``; exact).

    Raises
    ------
    UnsupportedError
        For any other value; the message names the supported types.

    >>> p, q = dominating_pair(PureDP(1.0))
    >>> [round(float(x), 4) for x in p]
    [0.7311, 0.2689]
    """
    with working_precision():
        return _pair(value, sensitivity)


@functools.singledispatch
def _pair(value: Any, sensitivity: float) -> tuple[list, list]:
    """The pair of ``value`` (implementations registered per type below); none for this type."""
    supported = ", ".join(kind.__name__ for kind in _pair.registry if kind is not object)
    raise UnsupportedError(f"value={shown(value)} has no finite dominating pair; supported: "
                           f"{supported} (the discrete noises at an integer sensitivity)")


@_pair.register
def _randomized_response_pair(value: RandomizedResponse, sensitivity: float) -> tuple[list, list]:
    weight = mpmath.exp(mpmath.mpf(value.epsilon))
    total = weight + value.categories - 1
    rest = [1 / total] * (value.categories - 2)
    return [weight / total, 1 / total, *rest], [1 / total, weight / total, *rest]


@_pair.register
def _binary_randomized_response_pair(value: BinaryRandomizedResponse,
                                     sensitivity: float) -> tuple[list, list]:
    p = mpmath.mpf(value.randomization_probability) / 2
    return [1 - p, p], [p, 1 - p]


@_pair.register
def _pure_dp_pair(value: PureDP, sensitivity: float) -> tuple[list, list]:
    weight = mpmath.exp(mpmath.mpf(value.epsilon))
    return [weight / (1 + weight), 1 / (1 + weight)], [1 / (1 + weight), weight / (1 + weight)]


@_pair.register
def _approx_dp_pair(value: ApproxDP, sensitivity: float) -> tuple[list, list]:
    weight, rest = mpmath.exp(mpmath.mpf(value.epsilon)), 1 - mpmath.mpf(value.delta)
    delta = mpmath.mpf(value.delta)
    return ([delta, rest * weight / (1 + weight), rest / (1 + weight), mpmath.mpf(0)],
            [mpmath.mpf(0), rest / (1 + weight), rest * weight / (1 + weight), delta])


@_pair.register
def _laplace_pair(value: Laplace, sensitivity: float) -> tuple[list, list]:
    """A finite pair dominating ``(Lap(Δ, b), Lap(0, b))`` at every α (see :func:`dominating_pair`).

    Outcome j = 0..K has ratio ``r_j = e^{(2jΔ/K − Δ)/b}``; y <= 0 is outcome 0
    and y >= Δ outcome K exactly; bin j of (0, Δ) splits its masses ``(p, q)``
    between outcomes j and j + 1 as ``(a, a/r_{j+1})`` and ``(c, c/r_j)``.
    """
    sensitivity = check_positive(sensitivity, "sensitivity")
    b, shift, bins = mpmath.mpf(value.scale), mpmath.mpf(sensitivity), LAPLACE_BINS
    if shift / b > LAPLACE_MAX_LOSS:
        # the bins' masses (e^{−Δ/b} and below) cost mpmath time growing with Δ/b; the mechanism
        # is (Δ/b)-DP, so the pure-DP pair of ε = Δ/b (rounded up) dominates it
        return _pure_dp_pair(PureDP(math.nextafter(float(shift / b), math.inf)), sensitivity)
    edge = mpmath.exp(-shift / b)
    first = [mpmath.mpf(0)] * (bins + 1)
    second = [mpmath.mpf(0)] * (bins + 1)
    first[0], second[0] = edge / 2, mpmath.mpf(1) / 2        # y <= 0
    first[bins], second[bins] = mpmath.mpf(1) / 2, edge / 2  # y >= Δ
    ratios = [mpmath.exp((2 * shift * j / bins - shift) / b) for j in range(bins + 1)]
    if any(ratios[j + 1] == ratios[j] for j in range(bins)):
        # Δ/b below the working precision: the bins cannot be told apart; the Laplace
        # mechanism is (Δ/b)-DP, so the pure-DP pair of ε = Δ/b (rounded up) dominates it
        weight = mpmath.exp(mpmath.mpf(math.nextafter(float(shift / b), math.inf)))
        return ([weight / (1 + weight), 1 / (1 + weight)],
                [1 / (1 + weight), weight / (1 + weight)])
    for j in range(bins):
        low, high = shift * j / bins, shift * (j + 1) / bins
        p_mass = (mpmath.exp(-(shift - high) / b) - mpmath.exp(-(shift - low) / b)) / 2
        q_mass = (mpmath.exp(-low / b) - mpmath.exp(-high / b)) / 2
        upper = (q_mass - p_mass / ratios[j]) / (1 / ratios[j + 1] - 1 / ratios[j])
        upper = min(max(upper, mpmath.mpf(0)), p_mass)
        first[j + 1] += upper
        second[j + 1] += upper / ratios[j + 1]
        first[j] += p_mass - upper
        second[j] += (p_mass - upper) / ratios[j]
    return first, second


@_pair.register
def _discrete_gaussian_pair(law: DiscreteGaussian, sensitivity: float) -> tuple[list, list]:
    """``(N_Z(Δ, σ²), N_Z(0, σ²))`` on ``[−N, N + Δ]``, N = ⌈15σ⌉ + 1, plus two tail outcomes.

    Each tail (|k − centre| > N) has mass at most ``T = 2σ√(π/2) erfc(N/(σ√2))``
    under either law (Z >= 1). The outcome ``(2T, 0)`` puts P's dropped mass at
    loss +∞; ``(0, 2T)`` holds Q's, which in any Poisson/without-replacement
    mixture lands at the largest loss the reverse direction has. Both only
    add mass or raise losses, so the pair stays pessimistic.
    """
    sensitivity = check_positive_int(sensitivity, "sensitivity")
    sigma = mpmath.mpf(law.sigma)
    reach = int(mpmath.ceil(15 * sigma)) + 1
    outcomes, most = 2 * reach + sensitivity, MAX_DISCRETE_GAUSSIAN_OUTCOMES
    if outcomes > most:
        raise UnsupportedError(f"the discrete Gaussian's pair at sigma={law.sigma!r} needs "
                               f"{outcomes} outcomes (at most {most})")
    scale = law.pmf(0)                       # 1/Z
    a = 1 / (2 * sigma * sigma)
    ks = range(-reach, reach + sensitivity + 1)
    first = [mpmath.exp(-a * (k - sensitivity) ** 2) * scale for k in ks]
    second = [mpmath.exp(-a * k * k) * scale for k in ks]
    tail = 2 * sigma * mpmath.sqrt(mpmath.pi / 2) * mpmath.erfc(reach / (sigma * mpmath.sqrt(2)))
    return first + [2 * tail, mpmath.mpf(0)], second + [mpmath.mpf(0), 2 * tail]


@_pair.register
def _truncated_pair(law: TruncatedDiscreteGaussian, sensitivity: float) -> tuple[list, list]:
    """The exact pair ``(law at Δ, law at 0)`` on ``[−B, B + Δ]``: finite, with the outputs only one
    side can produce at loss ±∞ (the worst shift is Δ: module docstring of
    :mod:`dpverify.mechanisms.truncated_discrete_gaussian`)."""
    sensitivity = check_positive_int(sensitivity, "sensitivity")
    outcomes = 2 * law.support_bound + sensitivity + 1
    if outcomes > MAX_DISCRETE_GAUSSIAN_OUTCOMES:
        raise UnsupportedError(f"the truncated discrete Gaussian's pair at support_bound={law.support_bound!r}, "
                               f"sensitivity={sensitivity!r} needs {outcomes} outcomes "
                               f"(at most {MAX_DISCRETE_GAUSSIAN_OUTCOMES})")
    a = 1 / (2 * mpmath.mpf(law.sigma) ** 2)
    weights = [mpmath.exp(-a * k * k) for k in range(-law.support_bound, law.support_bound + 1)]
    total = mpmath.fsum(weights)
    centred = [w / total for w in weights] + [mpmath.mpf(0)] * sensitivity
    shifted = [mpmath.mpf(0)] * sensitivity + [w / total for w in weights]
    return shifted, centred


@_pair.register
def _discrete_laplace_pair(value: DiscreteLaplace, sensitivity: float) -> tuple[list, list]:
    """The exact pair ``(DLap(Δ, t), DLap(0, t))``, outcomes of equal ratio merged (k <= 0, k >= Δ)."""
    sensitivity = check_positive_int(sensitivity, "sensitivity")
    beta = mpmath.exp(-1 / mpmath.mpf(value.scale))
    norm = (1 - beta) / (1 + beta)
    tail, rest = beta ** sensitivity / (1 + beta), 1 / (1 + beta)
    first, second = [tail, rest], [rest, tail]
    for k in range(1, sensitivity):
        first.append(norm * beta ** (sensitivity - k))
        second.append(norm * beta ** k)
    return first, second
