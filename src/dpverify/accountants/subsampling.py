"""Amplification by Poisson subsampling for mechanisms with a finite dominating pair, as PLDs.

A pair of distributions (P, Q) *dominates* a mechanism M if every hockey-stick
divergence of M on neighbouring inputs is at most that of (P, Q) (Zhu, Dong,
Wang, AISTATS 2022, Def. 7). Under the add/remove relation, running M on a
Poisson sample (each record kept w.p. q) is dominated by

* ``(qP + (1 − q)Q, Q)`` for removal and ``(Q, qP + (1 − q)Q)`` for addition

(ZDW 2022, Thm 11 / Prop. 30), which is what
:meth:`PrivacyLossDistribution.from_subsampled_gaussian` uses for the
Gaussian. Here the pair is finite, computed in mpmath at 50 digits and
discretised connect-the-dots (masses rounded up, losses with a margin), so
the PLD is a rigorous upper bound. Finite dominating pairs
(:func:`dominating_pair`):

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
"""

from __future__ import annotations

import math
from typing import Any

import mpmath

from dpverify._numeric import working_precision
from dpverify._validation import (check_positive, check_positive_int, check_probability, shown,
                                  value_error)
from dpverify.accountants._pld_grid import HARD_LIMIT_GRID_POINTS, grid_from_atoms
from dpverify.accountants.pld import DEFAULT_TAIL_MASS_TRUNCATION, PrivacyLossDistribution
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

__all__ = ["dominating_pair", "poisson_subsampled_pld"]

#: Grid points per unit of the largest finite loss of the subsampled pair (default spacing).
POINTS_PER_LOSS = 1024
#: Bins of (0, Δ) in the Laplace mechanism's finite pessimistic pair.
LAPLACE_BINS = 1024
#: Most outcomes of the discrete Gaussian's pair (about 30σ + Δ).
MAX_DISCRETE_GAUSSIAN_OUTCOMES = 20_000


def dominating_pair(value: Any, *, sensitivity: float = 1.0) -> tuple[list, list]:
    """A finite dominating pair ``(P, Q)`` (mpmath lists over the same outcomes) of ``value``.

    ``value`` is a ``PureDP``, ``ApproxDP``, ``RandomizedResponse``,
    ``BinaryRandomizedResponse``, ``Laplace`` (a pessimistic finite pair of its
    continuous one), ``DiscreteLaplace`` (integer ``sensitivity``; exact) or
    ``DiscreteGaussian`` (integer ``sensitivity``; exact within 10⁻⁴⁰ tails) or
    ``TruncatedDiscreteGaussian`` (integer ``sensitivity``; exact).

    >>> p, q = dominating_pair(PureDP(1.0))
    >>> [round(float(x), 4) for x in p]
    [0.7311, 0.2689]
    """
    with working_precision():
        if isinstance(value, RandomizedResponse):
            weight = mpmath.exp(mpmath.mpf(value.epsilon))
            total = weight + value.categories - 1
            rest = [1 / total] * (value.categories - 2)
            return [weight / total, 1 / total, *rest], [1 / total, weight / total, *rest]
        if isinstance(value, BinaryRandomizedResponse):
            p = mpmath.mpf(value.flip_probability) / 2
            return [1 - p, p], [p, 1 - p]
        if isinstance(value, Laplace):
            return _laplace_pair(value.scale, check_positive(sensitivity, "sensitivity"))
        if isinstance(value, DiscreteLaplace):
            return _discrete_laplace_pair(value.scale, check_positive_int(sensitivity, "sensitivity"))
        if isinstance(value, DiscreteGaussian):
            return _discrete_gaussian_pair(value, check_positive_int(sensitivity, "sensitivity"))
        if isinstance(value, TruncatedDiscreteGaussian):
            return _truncated_pair(value, check_positive_int(sensitivity, "sensitivity"))
        if isinstance(value, PureDP):
            weight = mpmath.exp(mpmath.mpf(value.epsilon))
            return [weight / (1 + weight), 1 / (1 + weight)], [1 / (1 + weight), weight / (1 + weight)]
        if isinstance(value, ApproxDP):
            weight, rest = mpmath.exp(mpmath.mpf(value.epsilon)), 1 - mpmath.mpf(value.delta)
            delta = mpmath.mpf(value.delta)
            return ([delta, rest * weight / (1 + weight), rest / (1 + weight), mpmath.mpf(0)],
                    [mpmath.mpf(0), rest / (1 + weight), rest * weight / (1 + weight), delta])
    raise UnsupportedError(f"value={shown(value)} has no finite dominating pair; supported: PureDP, "
                           "ApproxDP, RandomizedResponse, BinaryRandomizedResponse, Laplace, "
                           "DiscreteLaplace, DiscreteGaussian and TruncatedDiscreteGaussian "
                           "(integer sensitivity)")


def _laplace_pair(scale: float, sensitivity: float) -> tuple[list, list]:
    """A finite pair dominating ``(Lap(Δ, b), Lap(0, b))`` at every α (see :func:`dominating_pair`).

    Outcome j = 0..K has ratio ``r_j = e^{(2jΔ/K − Δ)/b}``; y <= 0 is outcome 0
    and y >= Δ outcome K exactly; bin j of (0, Δ) splits its masses ``(p, q)``
    between outcomes j and j + 1 as ``(a, a/r_{j+1})`` and ``(c, c/r_j)``.
    """
    b, shift, bins = mpmath.mpf(scale), mpmath.mpf(sensitivity), LAPLACE_BINS
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


def _discrete_gaussian_pair(law: DiscreteGaussian, sensitivity: int) -> tuple[list, list]:
    """``(N_Z(Δ, σ²), N_Z(0, σ²))`` on ``[−N, N + Δ]``, N = ⌈15σ⌉ + 1, plus two tail outcomes.

    Each tail (|k − centre| > N) has mass at most ``T = 2σ√(π/2) erfc(N/(σ√2))``
    under either law (Z >= 1). The outcome ``(2T, 0)`` puts P's dropped mass at
    loss +∞; ``(0, 2T)`` holds Q's, which in any Poisson/without-replacement
    mixture lands at the largest loss the reverse direction has. Both only
    add mass or raise losses, so the pair stays pessimistic.
    """
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


def _truncated_pair(law: TruncatedDiscreteGaussian, sensitivity: int) -> tuple[list, list]:
    """The exact pair ``(law at Δ, law at 0)`` on ``[−B, B + Δ]``: finite, with the outputs only one
    side can produce at loss ±∞ (the worst shift is Δ: module docstring of
    :mod:`dpverify.mechanisms.truncated_discrete_gaussian`)."""
    outcomes = 2 * law.bound + sensitivity + 1
    if outcomes > MAX_DISCRETE_GAUSSIAN_OUTCOMES:
        raise UnsupportedError(f"the truncated discrete Gaussian's pair at bound={law.bound!r}, "
                               f"sensitivity={sensitivity!r} needs {outcomes} outcomes "
                               f"(at most {MAX_DISCRETE_GAUSSIAN_OUTCOMES})")
    a = 1 / (2 * mpmath.mpf(law.sigma) ** 2)
    weights = [mpmath.exp(-a * k * k) for k in range(-law.bound, law.bound + 1)]
    total = mpmath.fsum(weights)
    centred = [w / total for w in weights] + [mpmath.mpf(0)] * sensitivity
    shifted = [mpmath.mpf(0)] * sensitivity + [w / total for w in weights]
    return shifted, centred


def _discrete_laplace_pair(scale: float, sensitivity: int) -> tuple[list, list]:
    """The exact pair ``(DLap(Δ, t), DLap(0, t))``, outcomes of equal ratio merged (k <= 0, k >= Δ)."""
    beta = mpmath.exp(-1 / mpmath.mpf(scale))
    norm = (1 - beta) / (1 + beta)
    tail, rest = beta ** sensitivity / (1 + beta), 1 / (1 + beta)
    first, second = [tail, rest], [rest, tail]
    for k in range(1, sensitivity):
        first.append(norm * beta ** (sensitivity - k))
        second.append(norm * beta ** k)
    return first, second


def _direction(first: list, second: list, interval: float):
    """Connect-the-dots grid of the loss ``ln(first/second)`` under ``first`` (masses inflated)."""
    losses, masses = [], []
    for a, b in zip(first, second):
        if a > 0:
            losses.append(mpmath.log(a / b) if b > 0 else mpmath.inf)
            masses.append(a * (1 + mpmath.mpf(10) ** -40))
    return grid_from_atoms(losses, masses, interval=interval)


def loss_grid_interval(largest: float, interval: float | None, *, sensitivity: Any,
                       value: Any) -> float:
    """The grid spacing for losses up to ``largest``: ``interval`` if given (checked > 0), else
    ``largest / POINTS_PER_LOSS``; refused by :func:`check_loss_grid` if the grid is too large."""
    if interval is None:
        interval = max(largest, 1e-12) / POINTS_PER_LOSS
    interval = check_positive(interval, "value_discretization_interval")
    check_loss_grid(largest, interval, sensitivity=sensitivity, value=value)
    return interval


def check_loss_grid(largest: float, interval: float, *, sensitivity: Any, value: Any) -> None:
    """Refuse, before the grid is built, privacy losses up to ``largest`` that need more than
    ``HARD_LIMIT_GRID_POINTS`` points of ``interval`` (the message names ``sensitivity``, the
    parameter that made the losses large)."""
    if not largest / interval <= HARD_LIMIT_GRID_POINTS:
        raise value_error("sensitivity", sensitivity,
                          f"small enough for value={shown(value)} that its privacy losses (up to "
                          f"{largest:.6g}) fit in {HARD_LIMIT_GRID_POINTS} grid points of "
                          f"value_discretization_interval={interval!r}",
                          "use a smaller sensitivity or a larger value_discretization_interval "
                          "(or leave it None)")


def poisson_subsampled_pld(value: Any, sampling_probability: float, *, sensitivity: float = 1.0,
                           value_discretization_interval: float | None = None,
                           ) -> PrivacyLossDistribution:
    """PLD of ``value``'s mechanism run on a Poisson sample of rate q (add/remove relation).

    Both directions ``(qP + (1−q)Q, Q)`` and ``(Q, qP + (1−q)Q)`` of the finite
    dominating pair (:func:`dominating_pair`) are kept. Default spacing: the
    largest finite loss / 1024.

    **Soundness.** Upper bound under add/remove with Poisson sampling (ZDW 2022,
    Thm 11); the pair is exact to 50 digits, masses rounded up, atoms split
    connect-the-dots with a margin for mpmath's error.

    >>> pld = poisson_subsampled_pld(PureDP(1.0), 0.01)
    >>> pld.delta_for_epsilon(0.0175) <= 1e-12   # ln(1 + q(e − 1)) = 0.01703
    True
    """
    q = check_probability(sampling_probability, "sampling_probability", open_low=True)
    p_pair, q_pair = dominating_pair(value, sensitivity=sensitivity)
    with working_precision():
        rate = mpmath.mpf(q)
        mixture = [rate * a + (1 - rate) * b for a, b in zip(p_pair, q_pair)]
        finite = [abs(mpmath.log(a / b)) for a, b in zip(mixture, q_pair) if a > 0 and b > 0]
        largest = float(max(finite)) if finite else 1.0
    interval = loss_grid_interval(largest, value_discretization_interval,
                                  sensitivity=sensitivity, value=value)
    with working_precision():
        directions = (_direction(mixture, q_pair, interval), _direction(q_pair, mixture, interval))
    return PrivacyLossDistribution(directions, DEFAULT_TAIL_MASS_TRUNCATION)
