"""Amplification by subsampling in Rényi DP, for any mechanism with an RDP curve.

Given the RDP curve ``ε(·)`` of a base mechanism M, these functions bound the
RDP curve of M run on a random subsample:

* :func:`poisson_subsampled_rdp` — Poisson sampling (each record kept w.p. γ),
  add/remove (or replace-with-a-special-value) neighbours: Zhu & Wang,
  "Poisson subsampled Rényi differential privacy", ICML 2019, Thm 6 (general
  upper bound); :func:`poisson_subsampled_laplace_rdp` uses their tight bound,
  exact for the Laplace mechanism;
* :func:`without_replacement_rdp` — a uniformly random batch of m of n records,
  replace-one neighbours: Wang, Balle & Kasiviswanathan, "Subsampled Rényi
  differential privacy and analytical moments accountant", AISTATS 2019,
  Thm 9; :func:`without_replacement_gaussian_rdp` adds their Gaussian-specific
  strengthening (Thm 27 of arXiv:1808.00087, as dp_accounting and autodp do).

The bounds are stated at *integer* orders ``α ≥ 2``. A fractional order
``α ∈ (a, a + 1)`` gets the bound from the convexity of the cumulant
``K(α) = (α − 1) D_α`` in α (log-convexity of ``E[(P/Q)^α]``, Hölder; WBK
2019, Cor. 10): ``K(α) ≤ (a + 1 − α) K(a) + (α − a) K(a + 1)``, with
``K(1) = 0`` for ``α ∈ (1, 2)``. It holds for every neighbouring pair, and the
integer values bound every pair's ``K``, so the interpolation is sound.

Every value is also capped by two bounds that hold for any mechanism: joint
convexity of ``e^{(α−1)D_α}`` (``K(α) ≤ log(1 − γ + γ e^{(α−1)ε(α)})``), and,
when the base is ``ε∞``-DP, the amplified pure ε ``log(1 + γ(e^{ε∞} − 1))``
(Li, Qardaji, Su 2012 for Poisson; Balle, Barthe, Gaboardi 2018, Thm 10 for
sampling without replacement), since ``D_α ≤ D_∞``.

**Soundness**: upper bounds, computed in mpmath with an explicit slack for
the arithmetic error and rounded up (:mod:`._subsampling_moments`). The
base curve's values must be upper bounds on the base mechanism's Rényi
divergence, in both orders of each neighbouring pair, under the relation
stated above. The proof sketch is in ``docs/proofs/rdp_conversions.md``,
Sec. "Subsampling for any mechanism".
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction

import mpmath

from dpverify._numeric import round_up, working_precision
from dpverify._validation import (
    check_epsilon,
    check_increasing_sequence,
    check_instance,
    check_int_at_least,
    check_positive,
    check_positive_int,
    check_probability,
    limit_error,
    value_error,
)
from dpverify.accountants.rdp._subsampling_moments import (
    gaussian_chi_moment_upper,
    poisson_factors,
    poisson_log_moment_upper,
    without_replacement_factors,
    without_replacement_log_moment_upper,
)
from dpverify.accountants.rdp.curves import gaussian_rdp, laplace_rdp
from dpverify.guarantees import RDPCurve

__all__ = ["poisson_subsampled_rdp", "poisson_subsampled_laplace_rdp",
           "without_replacement_rdp", "without_replacement_gaussian_rdp",
           "integer_orders_needed", "MAX_SUBSAMPLED_ORDER", "MAX_SUBSAMPLED_TERMS"]

#: Largest order accepted: the bound at order α sums α terms, and the base
#: curve is needed at every integer up to it.
MAX_SUBSAMPLED_ORDER = 4096
#: Largest total number of terms (the sum of the integer orders evaluated) per call, ~5 s.
MAX_SUBSAMPLED_TERMS = 100_000
#: Orders up to which the Gaussian's Pearson–Vajda moments are computed
#: (dp_accounting's cut-off); above it the general Thm 9 terms are used.
_CHI_MAX_ORDER = 256
#: Relative slack for the final log / division when the mpmath value becomes a float.
_MPMATH_SLACK = 1e-30


def integer_orders_needed(orders: Sequence[float]) -> tuple[float, ...]:
    """The integer orders ``2, 3, ..., ⌈max(orders)⌉`` at which the base curve is read.

    >>> integer_orders_needed([1.5, 3.25])
    (2.0, 3.0, 4.0)
    """
    orders = _check_orders(orders)
    return tuple(float(a) for a in range(2, max(2, math.ceil(orders[-1])) + 1))


def _check_orders(orders: Sequence[float]) -> tuple[float, ...]:
    """Orders > 1, increasing, at most :data:`MAX_SUBSAMPLED_ORDER`, and a bounded total work.

    The bound at integer order α sums α terms; the integers read are the floor
    and ceiling of every order, and their sum is capped by :data:`MAX_SUBSAMPLED_TERMS`.
    """
    orders = check_increasing_sequence(orders, "orders", low=1.0, low_closed=False)
    if orders[-1] > MAX_SUBSAMPLED_ORDER:
        raise limit_error("orders", orders[-1], MAX_SUBSAMPLED_ORDER,
                          "larger orders add nothing for practical ε")
    integers = {bound for a in orders for bound in (math.floor(a), math.ceil(a)) if bound >= 2}
    if sum(integers) > MAX_SUBSAMPLED_TERMS:
        raise limit_error("orders", f"{len(orders)} orders summing {sum(integers)} terms",
                          f"{MAX_SUBSAMPLED_TERMS} terms",
                          "use fewer large orders (DEFAULT_ORDERS costs about 7,000)")
    return orders


def _base_epsilons(base: RDPCurve, top: int) -> list[float]:
    """``[_, _, ε(2), ..., ε(top)]`` read from ``base``; refuses a missing integer order."""
    check_instance(base, "base", RDPCurve, "an RDPCurve")
    by_order = dict(zip(base.orders, base.epsilons))
    values = [0.0, 0.0]
    for order in range(2, top + 1):
        if float(order) not in by_order:
            raise value_error("base", f"RDPCurve with orders up to {base.orders[-1]}",
                              f"an RDP curve with every integer order 2..{top}",
                              "build it at integer_orders_needed(orders)")
        values.append(by_order[float(order)])
    return values


def _default_orders(base: RDPCurve) -> tuple[float, ...]:
    """``base``'s orders up to the largest M with all of 2..M present (at least order 2)."""
    present = set(base.orders)
    top = 1
    while float(top + 1) in present and top + 1 <= MAX_SUBSAMPLED_ORDER:
        top += 1
    if top < 2:
        raise value_error("base", f"RDPCurve with orders {base.orders[:4]}...",
                          "an RDP curve with the integer order 2 (pass orders= with it)")
    return tuple(a for a in base.orders if a <= top)


def _subsampled_curve(orders: tuple[float, ...], log_moment: Callable[[int], mpmath.mpf],
                      cap: Callable[[int], mpmath.mpf]) -> RDPCurve:
    """Curve at ``orders`` from upper bounds on ``K(α)`` at integers (interpolated between them).

    ``log_moment(α)`` and ``cap(α)`` are upper bounds on ``K(α) = (α − 1)D_α``;
    the smaller is used at each integer.
    """
    cache: dict[int, mpmath.mpf] = {}

    def cumulant(alpha: int) -> mpmath.mpf:
        if alpha == 1:
            return mpmath.mpf(0)
        if alpha not in cache:
            cache[alpha] = min(log_moment(alpha), cap(alpha))
        return cache[alpha]

    epsilons = []
    with working_precision():
        for order in orders:
            low = math.floor(order)
            if low == order:
                value = cumulant(low) / (order - 1)
            else:
                t = mpmath.mpf(order) - low
                value = ((1 - t) * cumulant(low) + t * cumulant(low + 1)) / (mpmath.mpf(order) - 1)
            epsilons.append(round_up(value, relative_error=_MPMATH_SLACK))
    return RDPCurve(orders=orders, epsilons=tuple(epsilons))


def _convexity_and_pure_cap(epsilons: list[float], gamma: float,
                            pure_epsilon: float) -> Callable[[int], mpmath.mpf]:
    """``K(α)`` bounds valid for any mechanism: joint convexity and the amplified pure ε."""
    g = mpmath.mpf(gamma)
    pure = mpmath.mpf(pure_epsilon)
    pure_amplified = mpmath.log1p(g * mpmath.expm1(pure)) if pure != mpmath.inf else mpmath.inf

    def cap(alpha: int) -> mpmath.mpf:
        exponent = (alpha - 1) * mpmath.mpf(epsilons[alpha])
        convexity = mpmath.log1p(g * mpmath.expm1(exponent)) if exponent != mpmath.inf else mpmath.inf
        # a few ulps of the log1p/expm1 chain, relative to the value
        bound = min(convexity, (alpha - 1) * pure_amplified)
        return bound * (1 + mpmath.mpf(10) ** (5 - mpmath.mp.dps) * (abs(exponent) + 10))
    return cap


def _check_pure(pure_epsilon: float | None) -> float:
    return math.inf if pure_epsilon is None else check_epsilon(pure_epsilon, "pure_epsilon",
                                                               allow_inf=True)


def poisson_subsampled_rdp(base: RDPCurve, sampling_probability: float, *,
                           orders: Sequence[float] | None = None,
                           pure_epsilon: float | None = None) -> RDPCurve:
    """RDP curve of any mechanism run on a Poisson sample (rate γ), from its own RDP curve.

    Parameters
    ----------
    base
        RDP curve of the base mechanism M under add/remove (or
        replace-with-a-special-value) neighbours; it must hold every integer
        order ``2..⌈max(orders)⌉`` (see :func:`integer_orders_needed`).
    sampling_probability
        γ in [0, 1]: each record is kept independently with probability γ.
    orders
        Orders of the result (> 1, at most :data:`MAX_SUBSAMPLED_ORDER`); default:
        ``base``'s orders up to the largest M such that ``2..M`` are all present.
    pure_epsilon
        ε∞ if M is also ε∞-DP (caps the result; optional).

    Returns
    -------
    RDPCurve
        Upper bounds on ``D_α`` of ``M∘PoissonSample`` in both orders of each pair.

    Raises
    ------
    ValueError, TypeError
        If an argument is invalid, or ``base`` lacks an integer order needed.

    Notes
    -----
    At integer α (Zhu & Wang, ICML 2019, Thm 6):

    .. math:: e^{(α-1)ε'(α)} \\le (1-γ)^{α-1}(1 + (α-1)γ) + \\binom{α}{2}γ^2(1-γ)^{α-2}e^{ε(2)}
              + 3\\sum_{ℓ=3}^{α}\\binom{α}{ℓ}γ^ℓ(1-γ)^{α-ℓ}e^{(ℓ-1)ε(ℓ)},

    then the caps and the interpolation of the module docstring. The factor 3
    pays for the direction ``D_α(μ0 ‖ (1−γ)μ0 + γμ1)``, which the binomial
    expansion does not reach; for the Gaussian and the Laplace mechanism the
    bound without it is exact (:func:`~dpverify.accountants.rdp.curves.subsampled_gaussian_rdp`,
    :func:`poisson_subsampled_laplace_rdp`).

    **Soundness**: upper bound, rounded up; add/remove or replace-special.

    Examples
    --------
    >>> from dpverify.accountants.rdp import randomized_response_rdp
    >>> base = randomized_response_rdp(1.0, orders=[2, 3, 4])
    >>> curve = poisson_subsampled_rdp(base, 0.01)
    >>> curve.epsilons[0] < 2e-4 < base.epsilons[0]
    True
    """
    gamma = check_probability(sampling_probability, "sampling_probability")
    pure = _check_pure(pure_epsilon)
    orders = _default_orders(check_instance(base, "base", RDPCurve, "an RDPCurve")) if orders is None \
        else _check_orders(orders)
    epsilons = _base_epsilons(base, max(2, math.ceil(orders[-1])))
    return _poisson(orders, epsilons, gamma, pure, general=True)


def _poisson(orders: tuple[float, ...], epsilons: list[float], gamma: float, pure: float, *,
             general: bool) -> RDPCurve:
    if gamma == 0:
        return RDPCurve(orders=orders, epsilons=(0.0,) * len(orders))
    if gamma == 1:
        return _interpolated_base(orders, epsilons)
    with working_precision():
        factors = poisson_factors(epsilons, len(epsilons) - 1, general=general)
    return _subsampled_curve(
        orders, lambda alpha: poisson_log_moment_upper(factors, gamma, alpha),
        _convexity_and_pure_cap(epsilons, gamma, pure))


def _interpolated_base(orders: tuple[float, ...], epsilons: list[float]) -> RDPCurve:
    """The base curve itself at ``orders`` (γ = 1), fractional orders interpolated."""
    curve = _subsampled_curve(orders, lambda alpha: (alpha - 1) * mpmath.mpf(epsilons[alpha]),
                              lambda alpha: mpmath.inf)
    return RDPCurve(orders=orders, epsilons=tuple(
        epsilons[int(a)] if a.is_integer() else e for a, e in zip(orders, curve.epsilons)))


def poisson_subsampled_laplace_rdp(scale: float, sampling_probability: float, *,
                                   sensitivity: float = 1.0,
                                   orders: Sequence[float] | None = None) -> RDPCurve:
    """RDP curve of the Poisson-subsampled Laplace mechanism ``f(S) + Lap(scale)``.

    Zhu & Wang's tight bound (the formula of :func:`poisson_subsampled_rdp`
    without the factor 3), which they prove exact for the Laplace mechanism
    (ICML 2019, Sec. 3.3: the direction ``D_α((1−γ)μ0 + γμ1 ‖ μ0)`` is the
    larger one), with the exact Laplace curve (Mironov 2017, Prop. 6).

    Parameters
    ----------
    scale
        Laplace scale b > 0.
    sampling_probability
        γ in [0, 1].
    sensitivity
        ℓ1 sensitivity Δ of ``f`` under add/remove, > 0.
    orders
        Orders (> 1, at most :data:`MAX_SUBSAMPLED_ORDER`); default: the integers 2..64.

    Returns
    -------
    RDPCurve

    Raises
    ------
    ValueError, TypeError
        If an argument is invalid (the message names it).

    Notes
    -----
    **Soundness**: upper bound (the exact value at integer orders, rounded up;
    tests compare it with the divergence integrated numerically in both
    directions); add/remove or replace-special.

    Examples
    --------
    >>> tight = poisson_subsampled_laplace_rdp(1.0, 0.1, orders=[2, 8])
    >>> general = poisson_subsampled_rdp(laplace_rdp(1.0, orders=range(2, 9)), 0.1, orders=[2, 8])
    >>> tight.epsilons[0] == general.epsilons[0], tight.epsilons[1] < general.epsilons[1]
    (True, True)
    """
    scale = check_positive(scale, "scale")
    sensitivity = check_positive(sensitivity, "sensitivity")
    gamma = check_probability(sampling_probability, "sampling_probability")
    orders = tuple(float(a) for a in range(2, 65)) if orders is None else _check_orders(orders)
    needed = integer_orders_needed(orders)
    epsilons = [0.0, 0.0, *laplace_rdp(scale, sensitivity=sensitivity, orders=needed).epsilons]
    pure = round_up(Fraction(sensitivity) / Fraction(scale))
    return _poisson(orders, epsilons, gamma, pure, general=False)


def _check_batch(sample_size: int, population_size: int) -> float:
    population_size = check_positive_int(population_size, "population_size")
    sample_size = check_int_at_least(sample_size, "sample_size", 1)
    if sample_size > population_size:
        raise value_error("sample_size", sample_size, f"at most population_size ({population_size})")
    return sample_size / population_size


def without_replacement_rdp(base: RDPCurve, sample_size: int, population_size: int, *,
                            orders: Sequence[float] | None = None,
                            pure_epsilon: float | None = None) -> RDPCurve:
    """RDP curve of any mechanism run on a uniform batch of m of n records, from its RDP curve.

    Parameters
    ----------
    base
        RDP curve of M (on batches of size m) under replace-one neighbours; it
        must hold every integer order ``2..⌈max(orders)⌉``.
    sample_size, population_size
        m and n, ``1 <= m <= n``; γ = m/n.
    orders
        As for :func:`poisson_subsampled_rdp`.
    pure_epsilon
        ε∞ if M is ε∞-DP (tightens the terms and caps the result; optional).

    Returns
    -------
    RDPCurve
        Upper bounds on ``D_α`` of ``M∘Subsample`` under replace-one.

    Raises
    ------
    ValueError, TypeError
        If an argument is invalid, or ``base`` lacks an integer order needed.

    Notes
    -----
    At integer α (Wang, Balle & Kasiviswanathan, AISTATS 2019, Thm 9):

    .. math:: e^{(α-1)ε'(α)} \\le 1 + γ^2\\binom{α}{2}\\min\\{4(e^{ε(2)}-1),
              e^{ε(2)}\\min\\{2, (e^{ε(∞)}-1)^2\\}\\}
              + \\sum_{j=3}^{α}γ^j\\binom{α}{j}e^{(j-1)ε(j)}\\min\\{2, (e^{ε(∞)}-1)^j\\},

    then the caps (the base's own ε(α) among them, by joint convexity) and the
    interpolation of the module docstring.

    **Soundness**: upper bound, rounded up; replace-one only.

    Examples
    --------
    >>> from dpverify.accountants.rdp import randomized_response_rdp
    >>> base = randomized_response_rdp(1.0, orders=[2, 3, 4])
    >>> curve = without_replacement_rdp(base, 10, 1000, pure_epsilon=1.0)
    >>> curve.epsilons[-1] < base.epsilons[-1]
    True
    """
    gamma = _check_batch(sample_size, population_size)
    pure = _check_pure(pure_epsilon)
    orders = _default_orders(check_instance(base, "base", RDPCurve, "an RDPCurve")) if orders is None \
        else _check_orders(orders)
    epsilons = _base_epsilons(base, max(2, math.ceil(orders[-1])))
    return _without_replacement(orders, epsilons, gamma, pure, chi_upper=None)


def _without_replacement(orders: tuple[float, ...], epsilons: list[float], gamma: float,
                         pure: float, chi_upper: Callable[[int], mpmath.mpf] | None) -> RDPCurve:
    if gamma == 1:
        return _interpolated_base(orders, epsilons)
    with working_precision():
        factors = without_replacement_factors(epsilons, pure, len(epsilons) - 1,
                                              chi_upper=chi_upper, chi_top=_CHI_MAX_ORDER)
    return _subsampled_curve(
        orders, lambda alpha: without_replacement_log_moment_upper(factors, gamma, alpha),
        _convexity_and_pure_cap(epsilons, gamma, pure))


def without_replacement_gaussian_rdp(sigma: float, sample_size: int, population_size: int, *,
                                     sensitivity: float = 1.0,
                                     orders: Sequence[float] | None = None) -> RDPCurve:
    """RDP curve of the Gaussian mechanism run on a uniform batch of m of n records (replace-one).

    :func:`without_replacement_rdp` with the Gaussian's exact curve
    ``ε(α) = αΔ²/(2σ²)``, strengthened at orders ``α ≤ 256`` by the
    Pearson–Vajda moments of the Gaussian pair (WBK 2019, Thm 27 of
    arXiv:1808.00087; the bound dp_accounting's ``_compute_rdp_sample_wor_gaussian``
    and autodp's ``improved_bound_flag`` compute).

    Parameters
    ----------
    sigma
        Standard deviation of the Gaussian noise, > 0.
    sample_size, population_size
        m and n, ``1 <= m <= n``.
    sensitivity
        ℓ2 sensitivity Δ of the query under replace-one, > 0.
    orders
        Orders (> 1, at most :data:`MAX_SUBSAMPLED_ORDER`); default: the integers 2..64.

    Returns
    -------
    RDPCurve

    Raises
    ------
    ValueError, TypeError
        If an argument is invalid (the message names it).

    Notes
    -----
    The j-th term (j ≥ 3) is ``γ^j C(α,j) min{2e^{(j−1)ε(j)}, 4√(χ_{2⌊j/2⌋}χ_{2⌈j/2⌉})}``
    with ``χ_k = E_q[(p/q − 1)^k] = Σ_i C(k,i)(−1)^{k−i}e^{i(i−1)Δ²/(2σ²)}``
    for the pair ``p = N(Δ, σ²)``, ``q = N(0, σ²)``, evaluated with a bounded
    error (:func:`~dpverify.accountants.rdp._subsampling_moments.gaussian_chi_moment_upper`).

    **Soundness**: upper bound, rounded up; replace-one.

    Examples
    --------
    >>> curve = without_replacement_gaussian_rdp(2.0, 10, 1000, orders=[2, 16])
    >>> general = without_replacement_rdp(gaussian_rdp(2.0, orders=range(2, 17)), 10, 1000,
    ...                                   orders=[2, 16])
    >>> curve.epsilons[1] < general.epsilons[1]
    True
    """
    sigma = check_positive(sigma, "sigma")
    sensitivity = check_positive(sensitivity, "sensitivity")
    gamma = _check_batch(sample_size, population_size)
    orders = tuple(float(a) for a in range(2, 65)) if orders is None else _check_orders(orders)
    ratio = Fraction(sensitivity) ** 2 / Fraction(sigma) ** 2
    if ratio > 10**6:
        raise value_error(f"sensitivity/sigma (sigma={sigma!r}, sensitivity={sensitivity!r})",
                          "above 1000", "at most 1000",
                          "the mechanism is then not private at any useful order")
    needed = integer_orders_needed(orders)
    epsilons = [0.0, 0.0, *gaussian_rdp(sigma, sensitivity=sensitivity, orders=needed).epsilons]
    chi_upper = gaussian_chi_moment_upper(round_up(ratio), min(_CHI_MAX_ORDER, int(needed[-1])) + 1)
    return _without_replacement(orders, epsilons, gamma, math.inf, chi_upper=chi_upper)
