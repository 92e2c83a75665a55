"""Rényi DP: the RDP curves of basic mechanisms, their composition, and conversion to (ε, δ)-DP.

An :class:`~dpverify.guarantees.RDPCurve` bounds the Rényi divergence
``D_α(M(x) ‖ M(x'))`` at a grid of orders α (Mironov 2017, Def. 4). Curves
compose by adding them order by order (Mironov 2017, Prop. 1) and convert to
(ε, δ)-DP by minimising a conversion formula over the orders.

Every value returned here is an upper bound: it is evaluated in mpmath (with
extra digits where a difference cancels) and rounded up to a float with
:func:`dpverify._numeric.round_up`. The conversions and their soundness are
explained in ``docs/proofs/rdp_conversions.md``. The conversions live in
the private module ``_conversions``, composition in ``_composition``;
both are re-exported here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction

import mpmath

from dpverify._deprecation import renamed_parameters
from dpverify._numeric import round_up, working_precision
from dpverify._validation import (
    check_epsilon,
    check_increasing_sequence,
    check_int_at_least,
    check_positive,
    check_probability,
    value_error,
)
from dpverify.accountants._subsampled_gaussian_float import log_moments_upper_float
from dpverify.accountants.rdp._composition import compose_rdp, scale_rdp
from dpverify.accountants.rdp._conversions import rdp_to_dp, rdp_to_dp_delta
from dpverify.accountants.rdp._subsampled_gaussian import log_moment_upper
from dpverify.guarantees import PureDP, RDPCurve

__all__ = [
    "DEFAULT_ORDERS",
    "gaussian_rdp",
    "laplace_rdp",
    "randomized_response_rdp",
    "pure_dp_rdp",
    "subsampled_gaussian_rdp",
    "compose_rdp",
    "scale_rdp",
    "rdp_to_dp",
    "rdp_to_dp_delta",
]

#: Default Rényi orders: 1.01–1.09, 1.1–10.9 in steps of 0.1, the integers
#: 11–64, and a sparser tail up to 1024. A superset of dp-accounting's default
#: grid, so a minimum over it is never worse than one over theirs.
DEFAULT_ORDERS: tuple[float, ...] = tuple(
    [1 + x / 100 for x in range(1, 10)]
    + [1 + x / 10 for x in range(1, 100)]
    + [float(a) for a in range(11, 65)]
    + [72.0, 80.0, 96.0, 128.0, 160.0, 192.0, 256.0, 320.0, 384.0, 512.0, 640.0, 768.0,
       1024.0]
)

#: Relative slack added when an mpmath result becomes a float: covers the few
#: ulps of error of the final mpmath operations (log, division) at >= 50 digits.
_MPMATH_SLACK = 1e-30
_UNIT_ROUNDOFF = 2.0 ** -53



# --------------------------------------------------------------------------- helpers


def _check_orders(orders: Sequence[float] | None) -> tuple[float, ...]:
    """Validate an order grid (finite, > 1, strictly increasing); ``None`` is the default grid."""
    if orders is None:
        return DEFAULT_ORDERS
    return check_increasing_sequence(orders, "orders", low=1.0, low_closed=False)


def _curve(orders: tuple[float, ...], upper: Callable[[mpmath.mpf], mpmath.mpf]) -> RDPCurve:
    """Build a curve from an mpmath upper bound ``upper(alpha)``, rounding every value up."""
    with working_precision():
        values = tuple(round_up(upper(mpmath.mpf(a)), relative_error=_MPMATH_SLACK)
                       for a in orders)
    return RDPCurve(orders=orders, epsilons=values)


def _extra_digits(small: float) -> int:
    """Decimal digits a difference of order ``small`` (relative to 1) cancels away."""
    if small >= 1 or small == 0:  # no cancellation, or exact zeros
        return 0
    return min(2000, math.ceil(-math.log10(small)) + 5)


def _log1p_of_sum_upper(terms: Sequence[mpmath.mpf]) -> mpmath.mpf:
    """Upper bound on ``log(1 + Σ terms)`` for terms each computed to a few ulps.

    The absolute error of the sum is at most ``16 ulp Σ|terms|``; adding it
    before the logarithm makes the result an upper bound on the exact value.
    """
    excess = mpmath.fsum(terms)
    slack = 16 * mpmath.mpf(10) ** (3 - mpmath.mp.dps) * mpmath.fsum(abs(t) for t in terms)
    return mpmath.log1p(max(excess, 0) + slack)


# --------------------------------------------------------------------------- mechanisms


def gaussian_rdp(sigma: float, *, sensitivity: float = 1.0,
                 orders: Sequence[float] | None = None) -> RDPCurve:
    """RDP curve of the Gaussian mechanism ``f(x) + N(0, sigma²)``.

    Parameters
    ----------
    sigma
        Standard deviation of the noise, > 0.
    sensitivity
        ℓ2 sensitivity Δ of ``f``, > 0.
    orders
        Rényi orders (strictly increasing, > 1); default :data:`DEFAULT_ORDERS`.

    Returns
    -------
    RDPCurve
        ``ε(α) = α Δ² / (2σ²)`` at every order.

    Raises
    ------
    ValueError, TypeError
        If an argument is not a valid number or grid (the message names it).

    Notes
    -----
    .. math:: D_α\\big(N(Δ, σ^2) \\,\\|\\, N(0, σ^2)\\big) = \\frac{α Δ^2}{2σ^2}

    (Mironov 2017, Prop. 7). **Soundness**: exact value, rounded up; holds
    for any neighbouring relation under which ``f`` has ℓ2 sensitivity Δ.

    References
    ----------
    I. Mironov, "Rényi differential privacy", CSF 2017, arXiv:1702.07476.

    Examples
    --------
    >>> gaussian_rdp(1.0, orders=[2, 8]).epsilons
    (1.0, 4.0)
    """
    sigma = check_positive(sigma, "sigma")
    sensitivity = check_positive(sensitivity, "sensitivity")
    orders = _check_orders(orders)
    ratio = Fraction(sensitivity) ** 2 / (2 * Fraction(sigma) ** 2)
    return RDPCurve(orders=orders,
                    epsilons=tuple(round_up(Fraction(a) * ratio) for a in orders))


def laplace_rdp(scale: float, *, sensitivity: float = 1.0,
                orders: Sequence[float] | None = None) -> RDPCurve:
    """Exact RDP curve of the Laplace mechanism ``f(x) + Lap(scale)``.

    Parameters
    ----------
    scale
        Scale ``b`` of the Laplace noise, > 0.
    sensitivity
        ℓ1 sensitivity Δ of the scalar ``f``, > 0; write ``ε0 = Δ / b``.
    orders
        Rényi orders; default :data:`DEFAULT_ORDERS`.

    Returns
    -------
    RDPCurve

    Raises
    ------
    ValueError, TypeError
        If an argument is invalid (the message names it).

    Notes
    -----
    .. math:: D_α = \\frac{1}{α-1} \\log\\left(\\frac{α}{2α-1} e^{(α-1)ε_0}
              + \\frac{α-1}{2α-1} e^{-αε_0}\\right)

    (Mironov 2017, Prop. 6). The bracket minus one is evaluated as
    ``α/(2α-1)·expm1((α-1)ε0) + (α-1)/(2α-1)·expm1(-αε0)`` in mpmath with
    enough extra digits for the cancellation at small ε0; large α is no
    problem since mpmath has no overflow.

    **Soundness**: exact value plus an explicit bound on the arithmetic error,
    rounded up; holds for any neighbouring relation under which ``f`` has ℓ1
    sensitivity Δ.

    References
    ----------
    I. Mironov, "Rényi differential privacy", CSF 2017, Prop. 6.

    Examples
    --------
    >>> round(laplace_rdp(1.0, orders=[2.0]).epsilons[0], 6)
    0.619124
    """
    scale = check_positive(scale, "scale")
    sensitivity = check_positive(sensitivity, "sensitivity")
    orders = _check_orders(orders)
    epsilon_0 = Fraction(sensitivity) / Fraction(scale)
    if epsilon_0 > 1e300:
        raise value_error(f"sensitivity/scale (scale={scale!r}, sensitivity={sensitivity!r})",
                          float(epsilon_0) if epsilon_0 < 2**1000 else math.inf,
                          "at most 1e300", "the mechanism is then not private at any order")

    def upper(alpha: mpmath.mpf) -> mpmath.mpf:
        with mpmath.workdps(mpmath.mp.dps + _extra_digits(float(epsilon_0) * float(alpha - 1))):
            e0 = mpmath.mpf(epsilon_0.numerator) / epsilon_0.denominator
            terms = (alpha / (2 * alpha - 1) * mpmath.expm1((alpha - 1) * e0),
                     (alpha - 1) / (2 * alpha - 1) * mpmath.expm1(-alpha * e0))
            return _log1p_of_sum_upper(terms) / (alpha - 1)

    return _curve(orders, upper)


@renamed_parameters(k="categories")
def randomized_response_rdp(epsilon: float, *, orders: Sequence[float] | None = None,
                            categories: int = 2) -> RDPCurve:
    """Exact RDP curve of (k-ary) randomized response with parameter ε.

    The mechanism reports the true value with probability ``e^ε / (e^ε + k − 1)``
    and each other value with ``1/(e^ε + k − 1)``; ``k = 2`` is binary RR
    (true bit with ``p = e^ε / (1 + e^ε)``). For k > 2 the worst pair of inputs
    x ≠ x' gives ``Σ_o P^α Q^{1−α} = (e^{αε} + e^{(1−α)ε} + k − 2)/(e^ε + k − 1)``:
    the numerator of the binary case over ``e^ε + k − 1``.

    Parameters
    ----------
    epsilon
        The randomized-response parameter (its pure-DP ε), in [0, inf).
    orders
        Rényi orders; default :data:`DEFAULT_ORDERS`.
    categories
        The number k >= 2 of values (outputs) of the randomized response.

    Returns
    -------
    RDPCurve
        ``D_α(Bernoulli(p) ‖ Bernoulli(1 - p))`` at every order.

    Raises
    ------
    ValueError, TypeError
        If an argument is invalid (the message names it).

    Notes
    -----
    .. math:: D_α = \\frac{1}{α-1}\\log\\left(p^α (1-p)^{1-α} + (1-p)^α p^{1-α}\\right)
              = \\frac{1}{α-1}\\log\\frac{e^{αε} + e^{(1-α)ε}}{1 + e^{ε}}

    (Mironov 2017, Prop. 5). The fraction minus one is evaluated as
    ``(e^ε expm1((α-1)ε) + expm1((1-α)ε)) / (1 + e^ε)`` with extra digits for
    the cancellation at small ε.

    **Soundness**: exact value, arithmetic error bounded and added, rounded up.
    The two inputs of the bit are the neighbouring pair.

    References
    ----------
    I. Mironov, "Rényi differential privacy", CSF 2017, Prop. 5.

    Examples
    --------
    >>> round(randomized_response_rdp(1.0, orders=[2.0]).epsilons[0], 6)
    0.735326
    """
    epsilon = check_epsilon(epsilon, "epsilon")
    orders = _check_orders(orders)
    k = check_int_at_least(categories, "categories", 2)
    return _curve(orders, lambda alpha: _randomized_response_upper(epsilon, alpha, k))


def _randomized_response_upper(epsilon: float, alpha: mpmath.mpf, k: int = 2) -> mpmath.mpf:
    """Upper bound on the Rényi divergence of order α of k-ary RR (mpmath)."""
    with mpmath.workdps(mpmath.mp.dps + _extra_digits(epsilon * float(alpha - 1))):
        e = mpmath.mpf(epsilon)
        denominator = k - 1 + mpmath.exp(e)
        terms = (mpmath.exp(e) * mpmath.expm1((alpha - 1) * e) / denominator,
                 mpmath.expm1((1 - alpha) * e) / denominator)
        return _log1p_of_sum_upper(terms) / (alpha - 1)


def pure_dp_rdp(epsilon: float | PureDP, *,
                orders: Sequence[float] | None = None) -> RDPCurve:
    """The tightest RDP curve implied by ε-DP alone: valid for *every* ε-DP mechanism.

    Parameters
    ----------
    epsilon
        The pure-DP parameter, in [0, inf), or a :class:`~dpverify.guarantees.PureDP`.
    orders
        Rényi orders; default :data:`DEFAULT_ORDERS`.

    Returns
    -------
    RDPCurve
        ``min(ε, α ε²/2, D_α(RR_ε))`` at every order, where ``D_α(RR_ε)`` is
        :func:`randomized_response_rdp`.

    Raises
    ------
    ValueError, TypeError
        If an argument is invalid (the message names it).

    Notes
    -----
    .. math:: D_α(P \\| Q) \\le \\frac{1}{α-1}\\log\\frac{e^{αε} + e^{(1-α)ε}}{1 + e^{ε}}
              = \\frac{1}{α-1}\\log\\frac{\\sinh(αε) - \\sinh((α-1)ε)}{\\sinh ε}
              \\le \\min\\left(ε, \\frac{αε^2}{2}\\right)

    Every pair (P, Q) with ``e^{-ε} <= dP/dQ <= e^ε`` is a post-processing of
    binary randomized response with parameter ε (the dominance of RR, Kairouz,
    Oh & Viswanath 2015; explicit kernel in ``docs/proofs/rdp_conversions.md``, Sec. 2), so
    by the data-processing inequality for Rényi divergence the RR value bounds
    every ε-DP mechanism, and RR itself attains it: no smaller bound is
    sound. ``α ε²/2`` is Bun & Steinke 2016, Prop. 3.3, and ``ε`` is
    ``D_α <= D_∞``; both are kept in the minimum only as a numerical safeguard.

    **Soundness**: upper bound for any neighbouring relation under which the
    mechanism is ε-DP in both directions (symmetric relations such as
    add/remove or replace-one); rounded up.

    References
    ----------
    M. Bun, T. Steinke, "Concentrated differential privacy: simplifications,
    extensions, and lower bounds", TCC 2016, arXiv:1605.02065, Prop. 3.3.
    P. Kairouz, S. Oh, P. Viswanath, "The composition theorem for
    differential privacy", ICML 2015. T. Steinke, "Tight RDP & zCDP bounds from
    pure DP", differentialprivacy.org (2022).

    Examples
    --------
    >>> round(pure_dp_rdp(1.0, orders=[2.0]).epsilons[0], 6)
    0.735326
    """
    if isinstance(epsilon, PureDP):
        epsilon = epsilon.epsilon
    epsilon = check_epsilon(epsilon, "epsilon")
    orders = _check_orders(orders)
    square_half = Fraction(epsilon) ** 2 / 2
    rr = randomized_response_rdp(epsilon, orders=orders).epsilons
    values = tuple(min(epsilon, round_up(Fraction(a) * square_half), r)
                   for a, r in zip(orders, rr))
    return RDPCurve(orders=orders, epsilons=values)


#: Larger noise multipliers are evaluated at this one (an upper bound, see below).
_LARGEST_SAMPLED_SIGMA = 1e12
#: Largest order whose subsampled value is computed (the series' cost grows with α, seconds
#: at 10^4); beyond it the Gaussian curve α/(2σ²), an upper bound within log(1/q)/(α − 1).
MAX_SERIES_ORDER = 4096.0
#: Sampling probabilities near 1/2, where the fractional-order series of MTZ 2019 converges
#: slowly (its ratio r is close to 1 over most of the range: seconds per order in mpmath).
_SLOW_SERIES_RATES = (0.25, 0.75)


def _mpmath_order_value(q: float, sigma: float, alpha: float) -> float:
    """ε at order ``alpha`` where the float evaluation could not certify it, rounded up.

    A fractional order at a rate in :data:`_SLOW_SERIES_RATES` is bounded by the next
    integer order (exact binomial expansion, milliseconds): ``D_α`` is non-decreasing in α
    (van Erven & Harremoës 2014, Thm 3), so this is an upper bound, slightly looser than the
    series (which took minutes for DP-SGD's calibration at q = 0.5).
    """
    if not float(alpha).is_integer() and _SLOW_SERIES_RATES[0] < q < _SLOW_SERIES_RATES[1]:
        alpha = float(math.ceil(alpha))
    return round_up(log_moment_upper(q, sigma, alpha) / (mpmath.mpf(alpha) - 1),
                    relative_error=_MPMATH_SLACK)
#: Below this noise multiplier the curve is the unsampled Gaussian's ``α/(2σ²)`` (above 1e119 at
#: every order; an upper bound, see below): the series' terms ``e^{k²/(2σ²)}`` make the exact
#: evaluation take seconds to minutes (measured: 0.8 s at 1e-60, 13 s at 1e-80, more below).
SMALLEST_SAMPLED_SIGMA = 1e-60


def subsampled_gaussian_rdp(sigma: float, sampling_probability: float, *,
                            orders: Sequence[float] | None = None) -> RDPCurve:
    """RDP curve of the Poisson-subsampled Gaussian mechanism (add/remove, sensitivity 1).

    Each record is included independently with probability ``q =
    sampling_probability``, and ``N(0, sigma²)`` noise is added to the sum of
    a sensitivity-1 function over the sample.

    Parameters
    ----------
    sigma
        Noise multiplier (noise standard deviation / ℓ2 sensitivity), > 0.
    sampling_probability
        Poisson sampling probability q, in [0, 1].
    orders
        Rényi orders; default :data:`DEFAULT_ORDERS`. Cost grows linearly with
        the order (and fractional orders near 1 are the slowest).

    Returns
    -------
    RDPCurve

    Raises
    ------
    ValueError, TypeError
        If an argument is invalid (the message names it).

    Notes
    -----
    ``ε(α) = log(A_α) / (α - 1)`` with

    .. math:: A_α = \\mathbb{E}_{z \\sim μ_0}\\left[\\left((1-q) + q\\,
              \\frac{μ_1(z)}{μ_0(z)}\\right)^α\\right],\\quad μ_0 = N(0,σ^2),\\
              μ_1 = N(1, σ^2),

    the Rényi divergence of the mixture from μ0, which dominates the reverse
    direction (Mironov, Talwar & Zhang 2019, Sec. 3). Integer α: the exact
    binomial expansion ``A_α = Σ_k C(α,k)(1-q)^{α-k} q^k e^{(k²-k)/(2σ²)}``
    (MTZ 2019, Sec. 3.3), with ``A_α - 1`` summed from positive terms.
    Fractional α: the two-series expansion of MTZ 2019, Sec. 3.3, split at
    ``z0 = σ² log(1/q - 1) + 1/2``, truncated with a Taylor remainder bound
    that certifies an *upper* bound (``docs/proofs/rdp_conversions.md``,
    Sec. 3). Both are first evaluated in floats for all orders at once with a
    proven error bound added (:mod:`~dpverify.accountants._subsampled_gaussian_float`,
    ~10 ms for the 175 default orders); orders whose float error exceeds 1e-4
    of ``A_α − 1`` are recomputed in mpmath. Since ``D_α`` is non-decreasing in α (van Erven & Harremoës
    2014, Thm. 3), each value is finally replaced by the minimum of the values
    at the same or larger orders. ``q = 0`` gives 0 and ``q = 1`` the
    Gaussian curve ``α / (2σ²)``.

    **Soundness**: upper bound under the add/remove-one relation with Poisson
    sampling; integer orders exact up to a bounded arithmetic error,
    fractional orders upper bounds within ~1e-9 relative in typical regimes;
    everything rounded up.

    References
    ----------
    I. Mironov, K. Talwar, L. Zhang, "Rényi differential privacy of the
    sampled Gaussian mechanism", arXiv:1908.10530 (2019), Sec. 3.
    T. van Erven, P. Harremoës, "Rényi divergence and Kullback-Leibler
    divergence", IEEE Trans. Inf. Theory 60(7), 2014.

    Examples
    --------
    >>> curve = subsampled_gaussian_rdp(1.0, 0.01, orders=[2.0, 8.0])
    >>> [round(e, 8) for e in curve.epsilons]
    [0.00017181, 0.00089364]
    """
    sigma = check_positive(sigma, "sigma")
    q = check_probability(sampling_probability, "sampling_probability")
    orders = _check_orders(orders)
    if q == 0:
        return RDPCurve(orders=orders, epsilons=(0.0,) * len(orders))
    if q == 1 or sigma < SMALLEST_SAMPLED_SIGMA:
        # subsampling never increases Rényi divergence (joint quasi-convexity: the sampled pair
        # is a mixture of (μ0, μ0) and (μ1, μ0), van Erven & Harremoës 2014, Thm 13), so the
        # Gaussian curve bounds it; below 1e-60 the two agree to 1e-119 relative anyway
        return gaussian_rdp(sigma, orders=orders)
    # Beyond 1e12 the moments' cancellation costs the mpmath series hundreds of digits (48 s
    # at 1e150). The curve is non-increasing in σ (more noise is post-processing: add
    # independent Gaussian noise), so the curve at σ = 1e12 (every ε below α·1e-24) is an
    # upper bound for any larger σ.
    sigma = min(sigma, _LARGEST_SAMPLED_SIGMA)
    series = tuple(a for a in orders if a <= MAX_SERIES_ORDER)
    fast = log_moments_upper_float(q, sigma, series) if series else ()
    # orders beyond MAX_SERIES_ORDER: the (unsampled) Gaussian curve, an upper bound (above)
    values = [_mpmath_order_value(q, sigma, a) if math.isnan(f)
              else math.nextafter(f / (a - 1) * (1 + 4 * _UNIT_ROUNDOFF), math.inf)
              for a, f in zip(series, list(fast))]
    values += gaussian_rdp(sigma, orders=orders[len(series):]).epsilons if len(series) < len(
        orders) else ()
    for i in range(len(values) - 2, -1, -1):  # monotone envelope: D_α grows with α
        values[i] = min(values[i], values[i + 1])
    return RDPCurve(orders=orders, epsilons=tuple(values))
