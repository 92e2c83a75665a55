"""Poisson-subsampled RDP from a finite dominating pair: exact Rényi divergences at every order.

If ``(P, Q)`` dominates a mechanism M (every hockey-stick divergence ``H_α``,
``α ≥ 0``, of M on neighbouring inputs is at most that of ``(P, Q)``; Zhu,
Dong, Wang, AISTATS 2022, Def. 7), then under add/remove (or
replace-special) the Poisson-subsampled mechanism is dominated by
``(γP + (1 − γ)Q, Q)`` for removal and ``(Q, γP + (1 − γ)Q)`` for addition
(ZDW 2022, Thm 11 / Prop. 30; the pairs of
:func:`~dpverify.accountants.dominating_pairs.dominating_pair` are symmetric).
Domination of ``H_α`` for every ``α ≥ 0`` is domination of the trade-off
curve, hence (Blackwell) the mechanism's pair is a post-processing of the
dominating one, and every Rényi divergence of the mechanism is at most that
of the pair. So the RDP curve of M∘PoissonSample is bounded, at *every*
order (fractional ones included, no interpolation), by

.. math:: \\max\\{D_α(γP + (1-γ)Q \\,\\|\\, Q),\\; D_α(Q \\,\\|\\, γP + (1-γ)Q)\\},

computed here as finite sums. For randomized response (binary, k-ary), pure
DP and the discrete Laplace mechanism the pair is exact, so is the curve;
it is usually well below Zhu & Wang's general bound
(:func:`~dpverify.accountants.rdp.subsampling.poisson_subsampled_rdp`).
A pair with mass where the other has none (the discrete Gaussian's
tail atoms, (ε, δ)-DP's δ atoms) has ``D_α = ∞``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import mpmath

from dpverify._numeric import round_up
from dpverify._validation import check_increasing_sequence, check_positive, check_probability, limit_error
from dpverify.accountants.dominating_pairs import dominating_pair
from dpverify.guarantees import RDPCurve

__all__ = ["poisson_subsampled_pair_rdp", "MAX_PAIR_TERMS"]

#: Largest number of (outcome, order) terms per call: outcomes of the pair times orders.
MAX_PAIR_TERMS = 400_000
#: Units in the last place charged per term (a power, a product, a sum).
_ULPS_PER_TERM = 16


def poisson_subsampled_pair_rdp(value: Any, sampling_probability: float, *,
                                sensitivity: float = 1.0,
                                orders: Sequence[float] | None = None) -> RDPCurve:
    """RDP curve of ``value`` run on a Poisson sample, from its finite dominating pair.

    Parameters
    ----------
    value
        A mechanism or guarantee with a finite dominating pair
        (:func:`~dpverify.accountants.dominating_pairs.dominating_pair`): ``PureDP``,
        ``ApproxDP``, ``RandomizedResponse``, ``BinaryRandomizedResponse``,
        ``Laplace``, ``DiscreteLaplace``, ``DiscreteGaussian`` (integer sensitivity).
    sampling_probability
        γ in [0, 1].
    sensitivity
        Sensitivity of the query ``value`` privatises (add/remove), > 0.
    orders
        Orders > 1; default the integers 2..64. At most :data:`MAX_PAIR_TERMS`
        outcomes × orders.

    Returns
    -------
    RDPCurve
        Upper bounds on ``D_α`` of the subsampled mechanism, both orders of each pair.

    Raises
    ------
    ValueError, TypeError, UnsupportedError
        For an invalid argument, or a value with no finite dominating pair.

    Notes
    -----
    With ``M = γP + (1 − γ)Q`` the two sums are ``Σ M^α Q^{1−α}`` and
    ``Σ Q^α M^{1−α}``, evaluated in mpmath with ``2 log10(1/γ)`` extra digits
    (the sums are ``1 + O(γ²)``); a slack of 16 ulps per term, relative to the
    sum, is added before the logarithm.

    **Soundness**: upper bound (exact for an exact pair, up to the slack),
    rounded up; add/remove or replace-special.

    Examples
    --------
    >>> from dpverify.accountants.rdp import randomized_response_rdp
    >>> from dpverify.accountants.rdp.subsampling import poisson_subsampled_rdp
    >>> from dpverify.mechanisms import RandomizedResponse
    >>> exact = poisson_subsampled_pair_rdp(RandomizedResponse(2, 1.0), 0.01, orders=[8.0])
    >>> general = poisson_subsampled_rdp(randomized_response_rdp(1.0, orders=range(2, 9)), 0.01,
    ...                                  orders=[8.0])
    >>> exact.epsilons[0] < general.epsilons[0]
    True
    """
    gamma = check_probability(sampling_probability, "sampling_probability")
    sensitivity = check_positive(sensitivity, "sensitivity")
    orders = tuple(float(a) for a in range(2, 65)) if orders is None else \
        check_increasing_sequence(orders, "orders", low=1.0, low_closed=False)
    first, second = dominating_pair(value, sensitivity=sensitivity)
    if len(first) * len(orders) > MAX_PAIR_TERMS:
        raise limit_error("orders", f"{len(orders)} orders × {len(first)} outcomes",
                          f"{MAX_PAIR_TERMS} terms", "pass fewer orders")
    if gamma == 0:
        return RDPCurve(orders=orders, epsilons=(0.0,) * len(orders))
    extra = 0 if gamma >= 0.1 else math.ceil(-2 * math.log10(gamma))
    with mpmath.workdps(50 + min(extra, 700)):
        g = mpmath.mpf(gamma)
        mixture = [g * p + (1 - g) * q for p, q in zip(first, second)]
        pairs = [(m, q) for m, q in zip(mixture, second) if m > 0 or q > 0]
        epsilons = tuple(_both_directions_upper(pairs, mpmath.mpf(alpha)) for alpha in orders)
    return RDPCurve(orders=orders, epsilons=epsilons)


def _both_directions_upper(pairs: list, alpha: mpmath.mpf) -> float:
    """``max(D_α(M‖Q), D_α(Q‖M))`` rounded up, for atoms ``(m_i, q_i)`` of two pmfs."""
    worst = mpmath.mpf(0)
    for forward in (True, False):
        total = mpmath.mpf(0)
        for m, q in pairs:
            top, bottom = (m, q) if forward else (q, m)
            if top == 0:
                continue
            if bottom == 0:
                return math.inf
            total += top ** alpha * bottom ** (1 - alpha)
        # 16 ulps per term relative to the (positive) sum; ulps of a power grow with |α log ratio|
        slack = total * _ULPS_PER_TERM * (len(pairs) + 10) * (abs(alpha) + 10) \
            * mpmath.mpf(10) ** (3 - mpmath.mp.dps)
        worst = max(worst, mpmath.log(total + slack) / (alpha - 1))
    return round_up(worst, relative_error=1e-30)
