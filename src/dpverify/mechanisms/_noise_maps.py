"""Privacy maps of the additive noise mechanisms (registered with ``register_privacy_map``).

For additive noise on a query ``f`` the guarantee depends on the neighbouring
relation only through the sensitivity ``Δ = sup |f(x) − f(x')|`` over
neighbouring pairs (ℓ1 for Laplace-type noise, ℓ2 for Gaussian-type noise;
the same number for scalar queries). Every map below therefore accepts both
``Neighbouring.REPLACE_ONE`` and ``Neighbouring.ADD_REMOVE``: the caller states Δ
*under the relation it uses*, and the guarantee holds under that relation.
The integer-noise maps require an integer Δ (integer-valued queries).

Maps are registered tightest first, so the first one is each mechanism's
default target. Every ε, ρ or δ reported is computed exactly (rationals) or
in mpmath and rounded up. Proof notes: ``docs/proofs/noise_maps.md``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import mpmath

from dpverify._numeric import round_up, working_precision
from dpverify._validation import (
    check_epsilon,
    check_mp_real,
    check_positive,
    check_positive_int,
    check_probability,
    value_error,
)
from dpverify.guarantees import ZCDP, ApproxDP, PrivacyProfile, PureDP, RDPCurve
from dpverify.mechanisms._discrete_series import _gaussian_series, discrete_gaussian_normaliser
from dpverify.mechanisms.continuous import (
    Gaussian,
    Laplace,
    gaussian_privacy_profile,
    laplace_privacy_profile,
)
from dpverify.mechanisms.discrete import (
    SERIES_RELATIVE_ERROR,
    BinomialNoise,
    DiscreteGaussian,
    DiscreteLaplace,
    PolyaDifference,
    Skellam,
)
from dpverify.mechanisms.privacy_maps import register_privacy_map
from dpverify.neighbouring import Neighbouring

__all__ = [
    "SKELLAM_ORDERS",
    "binomial_noise_delta",
    "discrete_gaussian_delta",
    "discrete_laplace_delta",
    "skellam_rdp",
]

#: Integer Rényi orders of the Skellam RDP curve (Agarwal et al.'s bound holds at integer orders).
SKELLAM_ORDERS: tuple[int, ...] = tuple(range(2, 65)) + (80, 96, 128, 160, 192, 256, 384, 512, 1024)


_SERIES_SIGMA_RANGE = (1e-100, 1e100)
MAX_INTEGER_SENSITIVITY = 10**5
"""Largest integer sensitivity Δ of the exact discrete profiles (their sums have Δ terms).

The closed-form maps (discrete Laplace and Pólya pure DP, discrete Gaussian
zCDP, Skellam RDP) take Δ up to :data:`MAX_CLOSED_FORM_SENSITIVITY`."""
MAX_CLOSED_FORM_SENSITIVITY = 10**7
"""Largest integer Δ of the closed-form maps: their exact rational arithmetic grows with
Δ's digits (the Skellam curve is 73 orders), and calibrations evaluate them ~100 times;
Chowdhury & Zhou 2023's secure aggregation at T = 10^7 needs Δ = g of about 10^5–10^6."""


def _integer_sensitivity(sensitivity: float, *, summed: bool = True) -> int:
    """Δ as an int, at most :data:`MAX_INTEGER_SENSITIVITY` when the caller sums Δ terms
    (``summed``), else :data:`MAX_CLOSED_FORM_SENSITIVITY`."""
    if sensitivity != math.floor(sensitivity):
        raise value_error("sensitivity", sensitivity, "an integer for integer-valued noise",
                          "an integer-valued query has integer sensitivity; round it up")
    limit = MAX_INTEGER_SENSITIVITY if summed else MAX_CLOSED_FORM_SENSITIVITY
    if sensitivity > limit:
        raise value_error("sensitivity", sensitivity,
                          f"at most {limit} for the exact discrete profile",
                          "rescale the query (divide it and the noise scale by a common "
                          "factor) or use the continuous Laplace/Gaussian profile")
    return int(sensitivity)


def _ratio(numerator: float, denominator: float) -> float:
    """``numerator / denominator`` rounded up (exact rational arithmetic first)."""
    return round_up(Fraction(numerator) / Fraction(denominator))


# --------------------------------------------------------------------------- Laplace, Gaussian


@register_privacy_map(Laplace, PureDP)
def _laplace_pure(mechanism: Laplace, *, sensitivity: float, neighbouring: Neighbouring) -> PureDP:
    """``PureDP(Δ/b)`` for ``f(x) + Lap(b)``, ``f`` of ℓ1 sensitivity Δ (Dwork et al. 2006).

    Soundness: exact (the maximal privacy loss is Δ/b), rounded up; any relation.
    """
    return PureDP(_ratio(sensitivity, mechanism.scale))


@register_privacy_map(Laplace, PrivacyProfile)
def _laplace_profile(mechanism: Laplace, *, sensitivity: float,
                     neighbouring: Neighbouring) -> PrivacyProfile:
    """Exact profile of ``f(x) + Lap(b)`` (:func:`laplace_privacy_profile`), ℓ1 sensitivity Δ."""
    return laplace_privacy_profile(mechanism.scale, sensitivity=sensitivity)


@register_privacy_map(Gaussian, PrivacyProfile)
def _gaussian_profile(mechanism: Gaussian, *, sensitivity: float,
                      neighbouring: Neighbouring) -> PrivacyProfile:
    """Exact analytic-Gaussian profile (Balle & Wang 2018, Thm 8), ℓ2 sensitivity Δ."""
    return gaussian_privacy_profile(mechanism.sigma, sensitivity=sensitivity)


@register_privacy_map(Gaussian, ZCDP)
def _gaussian_zcdp(mechanism: Gaussian, *, sensitivity: float, neighbouring: Neighbouring) -> ZCDP:
    """``ZCDP(Δ²/(2σ²))`` (Bun & Steinke 2016, Prop. 1.6), ℓ2 sensitivity Δ.

    Soundness: exact (``D_α = αΔ²/(2σ²)``), rounded up; any relation.
    """
    return ZCDP(round_up(Fraction(sensitivity) ** 2 / (2 * Fraction(mechanism.sigma) ** 2)))


# --------------------------------------------------------------------------- discrete Laplace


@register_privacy_map(DiscreteLaplace, PureDP)
def _discrete_laplace_pure(mechanism: DiscreteLaplace, *, sensitivity: float,
                           neighbouring: Neighbouring) -> PureDP:
    """``PureDP(Δ/t)`` for an integer query of sensitivity Δ plus ``DiscreteLaplace(t)``.

    Soundness: exact, the pmf ratio ``P[k]/P[k+Δ] = e^{(|k+Δ| − |k|)/t}`` is
    at most ``e^{Δ/t}``, attained at every k >= 0 (CKS 2020, Prop. 30);
    rounded up; integer Δ; any relation.
    """
    return PureDP(_ratio(_integer_sensitivity(sensitivity, summed=False), mechanism.scale))


def discrete_laplace_delta(scale: float, epsilon: Any, *, sensitivity: int = 1) -> mpmath.mpf:
    """Exact δ(ε) of an integer query of sensitivity Δ plus ``DiscreteLaplace(scale)``.

    With ``f(k) = tanh(1/(2t)) e^{−|k|/t}`` and loss ``L(k) = (|k+Δ| − |k|)/t``:

    .. math::

        δ(ε) = \\frac{(1 - e^{ε - Δ/t})_+}{1 + e^{-1/t}}
             + \\sum_{k=1-Δ}^{-1} f(k)\\,(1 - e^{ε - (Δ + 2k)/t})_+

    (the first term is ``k >= 0`` where the loss is Δ/t; ``k <= −Δ`` has loss
    −Δ/t). The pair is symmetric, so one order suffices. Notes:
    ``docs/proofs/noise_maps.md`` §1.

    >>> float(discrete_laplace_delta(1.0, 0.0)) == float(DiscreteLaplace(1.0).pmf(0))
    True
    """
    scale = check_positive(scale, "scale")
    delta = _integer_sensitivity(check_positive(sensitivity, "sensitivity"))
    epsilon = check_mp_real(epsilon, "epsilon", allow_inf=True)
    if mpmath.isinf(epsilon):
        return mpmath.mpf(0)
    with working_precision():
        t = mpmath.mpf(scale)
        total = mpmath.mpf(0)
        if epsilon < delta / t:
            total += -mpmath.expm1(epsilon - delta / t) / (1 + mpmath.exp(-1 / t))
        lead = mpmath.tanh(1 / (2 * t))
        for k in range(max(1 - delta, math.floor((epsilon * t - delta) / 2) + 1), 0):
            total += lead * mpmath.exp(k / t) * -mpmath.expm1(epsilon - (delta + 2 * k) / t)
        return total


@register_privacy_map(DiscreteLaplace, PrivacyProfile)
def _discrete_laplace_profile(mechanism: DiscreteLaplace, *, sensitivity: float,
                              neighbouring: Neighbouring) -> PrivacyProfile:
    """Exact profile (:func:`discrete_laplace_delta`); integer Δ; any relation.

    Soundness: exact for a shift of exactly Δ, and every term of the formula
    grows with the shift, so smaller shifts are dominated
    (``docs/proofs/noise_maps.md`` §1); δ rounded up when converted to a float.
    """
    delta = _integer_sensitivity(sensitivity)
    return PrivacyProfile(lambda e: discrete_laplace_delta(mechanism.scale, e, sensitivity=delta),
                          description=f"{mechanism!r}, sensitivity={delta}", relative_error=1e-40)


# --------------------------------------------------------------------------- discrete Gaussian


def discrete_gaussian_delta(sigma: float, epsilon: Any, *, sensitivity: int = 1) -> mpmath.mpf:
    """Exact δ(ε) of an integer query of sensitivity Δ plus ``DiscreteGaussian(sigma)``.

    Canonne, Kamath & Steinke 2020, Thm 7: with ``Y ~ N_Z(0, σ²)``

    .. math:: δ(ε) = P[Y > εσ²/Δ − Δ/2] − e^{ε} P[Y > εσ²/Δ + Δ/2]

    evaluated without cancellation as the sum of the non-negative terms
    ``(w(k) − e^ε w(k+Δ))/Z`` over ``k > εσ²/Δ − Δ/2`` (the privacy loss
    ``(2kΔ + Δ²)/(2σ²)`` is increasing in k), with the rigorous remainder
    bound of the discrete-Gaussian series; relative error below
    :data:`~dpverify.mechanisms.discrete.SERIES_RELATIVE_ERROR`.

    >>> round(float(discrete_gaussian_delta(1.0, 1.0)), 12)  # the continuous Gaussian: 0.126937
    0.141351339406
    """
    sigma = check_positive(sigma, "sigma")
    delta = _integer_sensitivity(check_positive(sensitivity, "sensitivity"))
    epsilon = check_mp_real(epsilon, "epsilon", allow_inf=True)
    if mpmath.isinf(epsilon):
        return mpmath.mpf(0)
    if not _SERIES_SIGMA_RANGE[0] <= sigma <= _SERIES_SIGMA_RANGE[1]:
        raise value_error("sigma", sigma, "in [1e-100, 1e100] for the exact discrete Gaussian "
                          "profile", "beyond it the series' arguments leave mpmath's range")
    if abs(epsilon) * sigma > _SERIES_SIGMA_RANGE[1] * delta:
        raise value_error("epsilon", epsilon, f"at most 1e100·sensitivity/sigma = "
                          f"{_SERIES_SIGMA_RANGE[1] * delta / sigma:g}",
                          "beyond it δ(ε) is below 1e-10^199, far below any float")
    with working_precision():
        a = 1 / (2 * mpmath.mpf(sigma) ** 2)
        start = int(mpmath.floor((epsilon / a - delta * delta) / (2 * delta))) + 1
        loss_start = epsilon - (2 * start * delta + delta * delta) * a
        total = _gaussian_series(a, start, loss_start=loss_start, loss_step=2 * delta * a)
        return total / discrete_gaussian_normaliser(sigma)


@register_privacy_map(DiscreteGaussian, PrivacyProfile)
def _discrete_gaussian_profile(mechanism: DiscreteGaussian, *, sensitivity: float,
                               neighbouring: Neighbouring) -> PrivacyProfile:
    """Exact profile (:func:`discrete_gaussian_delta`, CKS 2020 Thm 7); integer Δ; any relation.

    Soundness: CKS Thm 7 covers every pair with ``|f(x) − f(x')| <= Δ``; the
    series is summed with a rigorous remainder and the float is rounded up
    with ``relative_error = SERIES_RELATIVE_ERROR``.
    """
    delta = _integer_sensitivity(sensitivity)
    return PrivacyProfile(lambda e: discrete_gaussian_delta(mechanism.sigma, e, sensitivity=delta),
                          description=f"{mechanism!r}, sensitivity={delta}",
                          relative_error=SERIES_RELATIVE_ERROR)


@register_privacy_map(DiscreteGaussian, ZCDP)
def _discrete_gaussian_zcdp(mechanism: DiscreteGaussian, *, sensitivity: float,
                            neighbouring: Neighbouring) -> ZCDP:
    """``ZCDP(Δ²/(2σ²))`` for integer Δ (Canonne, Kamath & Steinke 2020, Thm 4).

    Soundness: ``D_α(N_Z(0,σ²) ‖ N_Z(Δ,σ²)) <= αΔ²/(2σ²)`` for integer Δ
    (CKS Thm 4, with equality only in the limit); rounded up; any relation.
    """
    delta = _integer_sensitivity(sensitivity, summed=False)
    return ZCDP(round_up(Fraction(delta) ** 2 / (2 * Fraction(mechanism.sigma) ** 2)))


# --------------------------------------------------------------------------- Skellam


def skellam_rdp(order: int, *, l1_sensitivity: float, l2_sensitivity: float,
                variance: float) -> Fraction:
    """Rényi-DP bound of the Skellam mechanism at an integer order (exact rational).

    Agarwal, Kairouz & Liu 2021, Thm 3.5 (its one-dimensional case is Chowdhury & Zhou 2023, Lemma 3):

    .. math::

        ε(α) <= \\frac{αΔ_2^2}{2μ} + \\min\\left(\\frac{(2α-1)Δ_2^2 + 6Δ_1}{4μ^2},
                 \\frac{3Δ_1}{2μ}\\right)

    with μ the per-coordinate variance of the noise (``2·mu`` for
    ``Skellam(mu)``). Integer α >= 2 only.

    >>> skellam_rdp(2, l1_sensitivity=1, l2_sensitivity=1, variance=4)
    Fraction(25, 64)
    """
    if isinstance(order, bool) or not isinstance(order, int) or order < 2:
        raise value_error("order", order, "an integer >= 2", "the Skellam bound holds at integer orders")
    l1 = Fraction(check_positive(l1_sensitivity, "l1_sensitivity"))
    l2 = Fraction(check_positive(l2_sensitivity, "l2_sensitivity"))
    var = Fraction(check_positive(variance, "variance"))
    return order * l2 ** 2 / (2 * var) + min(((2 * order - 1) * l2 ** 2 + 6 * l1) / (4 * var ** 2),
                                             3 * l1 / (2 * var))


@register_privacy_map(Skellam, RDPCurve)
def _skellam_rdp_curve(mechanism: Skellam, *, sensitivity: float,
                       neighbouring: Neighbouring) -> RDPCurve:
    """RDP curve of an integer query of sensitivity Δ plus ``Skellam(mu)`` at :data:`SKELLAM_ORDERS`.

    Soundness: Agarwal, Kairouz & Liu 2021, Thm 3.5 with Δ1 = Δ2 = Δ (scalar)
    and variance 2·mu, an upper bound for every pair with ``|f(x) − f(x')| <= Δ``
    (checked against the exact Rényi divergence in the tests); exact rational
    arithmetic, rounded up; integer Δ; any relation.
    """
    delta = _integer_sensitivity(sensitivity, summed=False)
    variance = 2 * Fraction(mechanism.mu)
    epsilons = tuple(round_up(skellam_rdp(order, l1_sensitivity=delta, l2_sensitivity=delta,
                                          variance=variance)) for order in SKELLAM_ORDERS)
    return RDPCurve(orders=SKELLAM_ORDERS, epsilons=epsilons)


# --------------------------------------------------------------------------- Pólya difference


@register_privacy_map(PolyaDifference, PureDP)
def _polya_difference_pure(mechanism: PolyaDifference, *, sensitivity: float,
                           neighbouring: Neighbouring) -> PureDP:
    """``PureDP(Δ/scale)`` of the **aggregate** of all ``shares`` users — not of one share.

    Distributed DP (Chowdhury & Zhou 2023, Thm 1; Goryczka & Xiong 2015 Thm 5.1): when each
    of ``shares`` users adds an independent ``PolyaDifference(shares, scale)``
    to its contribution and only the sum is released (secure aggregation),
    the total noise is exactly ``DiscreteLaplace(scale)``, so the released
    sum of an integer query of sensitivity Δ is (Δ/scale)-DP. It needs all
    ``shares`` users to add their share with the actual number ``shares``; a
    single share alone is far less private.

    Soundness: exact (as for the discrete Laplace), rounded up; integer Δ;
    any relation.
    """
    return PureDP(_ratio(_integer_sensitivity(sensitivity, summed=False), mechanism.scale))


# --------------------------------------------------------------------------- binomial


def _log_binomial_pmf(trials: int, probability: mpmath.mpf, count: int) -> mpmath.mpf:
    """``log P(Bin(trials, probability) = count)`` in mpmath (``-inf`` off the support)."""
    if not 0 <= count <= trials:
        return mpmath.ninf
    return (mpmath.loggamma(trials + 1) - mpmath.loggamma(count + 1)
            - mpmath.loggamma(trials - count + 1) + count * mpmath.log(probability)
            + (trials - count) * mpmath.log1p(-probability))


def _binomial_shift_delta(trials: int, probability: mpmath.mpf, shift: int,
                          epsilon: mpmath.mpf) -> mpmath.mpf:
    """``H_{e^ε}(B ‖ B + shift)`` for ``B ~ Bin(trials, probability)``: a sum of positive terms.

    The loss ``L(y) = log b(y) − log b(y − shift)`` decreases in ``y`` (the
    binomial pmf ``b`` is log-concave; ``L = ∞`` for ``y < shift``), so
    ``δ = Σ_{y <= y*} (b(y) − e^ε b(y − shift))`` with ``y*`` the last ``y``
    where ``L(y) > ε`` (integer bisection). Terms are summed downwards from
    ``y*`` with the ratio ``b(y−1)/b(y) = y(1−p)/((n−y+1)p)``; below the mode
    these ratios decrease, so what is left is at most ``b(y−1)/(1 − r)`` with
    ``r`` the next ratio. That tail bound is added once it is below
    ``10^-35`` of the sum: the result bounds δ from above up to the working
    precision's rounding (callers state ``relative_error=1e-30``).
    """
    def loss(y: int) -> mpmath.mpf:
        if y < shift:
            return mpmath.inf
        return (_log_binomial_pmf(trials, probability, y)
                - _log_binomial_pmf(trials, probability, y - shift))

    low, high = shift - 1, trials  # loss(shift − 1) = ∞ > ε; find the last y with loss > ε
    if loss(high) > epsilon:
        low = high
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if loss(middle) > epsilon else (low, middle)
    factor, odds = mpmath.exp(epsilon), (1 - probability) / probability
    mode = math.floor((trials + 1) * probability)
    mass = mpmath.exp(_log_binomial_pmf(trials, probability, low))
    partner = (mpmath.exp(_log_binomial_pmf(trials, probability, low - shift)) if low >= shift
               else mpmath.mpf(0))
    total, threshold = mpmath.mpf(0), mpmath.mpf(10) ** -35
    for y in range(low, -1, -1):
        total += mass - factor * partner
        mass *= y * odds / (trials - y + 1)
        partner *= (y - shift) * odds / (trials - y + shift + 1) if y > shift else 0
        if y - 1 < mode and y >= 1:
            tail = mass / (1 - (y - 1) * odds / (trials - y + 2))
            if tail <= threshold * total:
                return total + tail
    return total


#: Largest ``trials`` of :func:`binomial_noise_delta` (``min_binomial_trials`` searches up to it).
MAX_BINOMIAL_TRIALS = 2**40


def binomial_noise_delta(trials: int, epsilon: Any, *, probability: float = 0.5,
                         sensitivity: int = 1) -> mpmath.mpf:
    """Exact δ(ε) of an integer query of sensitivity Δ plus ``Bin(trials, p)`` noise.

    The maximum over the shifts d = 1..Δ and both orders of the hockey-stick
    divergence ``H_{e^ε}(B ‖ B + d)`` (the order ``(B + d, B)`` is the pair
    ``(B', B' + d)`` for ``B' = n − B ~ Bin(n, 1 − p)``, mirrored). Each is a
    sum of positive terms with a geometric tail bound
    (:func:`_binomial_shift_delta`): within a relative 1e-30 of the exact
    value (the truncated tail is bounded and added), in time proportional to the terms that matter (about
    ten standard deviations), not to ``trials``. For ``d > trials`` the
    supports separate and δ = 1.

    >>> from dpverify.mechanisms.privacy_maps import pmf_pair_profile
    >>> law = BinomialNoise(trials=40)
    >>> exact = pmf_pair_profile([law.pmf(k) for k in range(-20, 21)] + [0],
    ...                          [0] + [law.pmf(k) for k in range(-20, 21)]).curve(mpmath.mpf(0.5))
    >>> abs(float(binomial_noise_delta(40, 0.5)) / float(exact) - 1) < 1e-14
    True
    >>> float(binomial_noise_delta(10**6, 0.01))  # ~0.2 s: a hundred standard deviations of terms
    1.07477643...e-10
    """
    trials = check_positive_int(trials, "trials", maximum=MAX_BINOMIAL_TRIALS,
                                instead="the sum's terms grow with the noise's standard deviation")
    epsilon = check_mp_real(epsilon, "epsilon", low=0.0)
    shift_max = _integer_sensitivity(check_positive(sensitivity, "sensitivity"))
    probability = check_probability(probability, "probability", open_low=True, open_high=True)
    if shift_max > trials:
        return mpmath.mpf(1)
    with working_precision():
        p = mpmath.mpf(probability)
        return max(_binomial_shift_delta(trials, q, shift, epsilon)
                   for shift in range(1, shift_max + 1) for q in {p, 1 - p})


@register_privacy_map(BinomialNoise, PrivacyProfile)
def _binomial_profile(mechanism: BinomialNoise, *, sensitivity: float,
                      neighbouring: Neighbouring) -> PrivacyProfile:
    """Exact profile of an integer query of sensitivity Δ plus ``BinomialNoise``.

    :func:`binomial_noise_delta`: the maximum over every shift d = 1..Δ and
    both orders of the hockey-stick divergence of the shifted binomials.

    Soundness: exact (the supremum over all possible pairs) to a relative
    1e-35, bounded above; integer Δ, any relation; δ rounded up. For
    Δ > trials the supports separate and δ = 1.
    """
    shift = _integer_sensitivity(sensitivity)
    return PrivacyProfile(
        lambda e: binomial_noise_delta(mechanism.trials, e, probability=mechanism.probability,
                                       sensitivity=shift),
        description=f"{mechanism!r}, sensitivity={sensitivity:g}", relative_error=1e-30)


@register_privacy_map(BinomialNoise, ApproxDP)
def _binomial_approx(mechanism: BinomialNoise, *, sensitivity: float,
                     neighbouring: Neighbouring) -> ApproxDP:
    """The corner ``(ε*, δ(ε*))`` of the exact binomial profile.

    ε* is the largest finite privacy loss: by log-concavity the loss of the pair
    ``(B, B + d)`` is largest at its first common atom, ``log b(d)/b(0)`` (and
    the mirrored ``Bin(n, 1 − p)`` for the other order), maximised over
    d = 1..Δ. For ε >= ε* the profile is constant (the mass where the other
    pmf vanishes), so this is the pair with the least δ that any ε can buy.

    Soundness: ε* rounded up, then δ = δ(ε*) rounded up; integer Δ <= trials;
    any relation.
    """
    if sensitivity > mechanism.trials:
        raise value_error("sensitivity", sensitivity, f"at most trials={mechanism.trials}",
                          "larger shifts separate the supports: delta = 1")
    shift = _integer_sensitivity(sensitivity)
    with working_precision():
        p = mpmath.mpf(mechanism.probability)
        corner = max(_log_binomial_pmf(mechanism.trials, q, d) - _log_binomial_pmf(mechanism.trials, q, 0)
                     for d in range(1, shift + 1) for q in (p, 1 - p))
    epsilon = check_epsilon(max(0.0, round_up(corner, relative_error=1e-40)), "epsilon")
    profile = _binomial_profile(mechanism, sensitivity=sensitivity, neighbouring=neighbouring)
    return ApproxDP(epsilon=epsilon, delta=profile.delta_for_epsilon(epsilon))
