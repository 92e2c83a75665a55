"""RDP of the Gaussian mechanism on a truncated Poisson sample (a Poisson sample capped at B records).

The Rényi moment ``E_Q[(P/Q)^α]`` of the revealed mixture of the two branches of
:mod:`dpverify.accountants._truncated_poisson` is the weighted sum of the branches'
moments, in each direction, so

.. math:: ε(α) = \\frac{1}{α − 1}\\ln\\left((1 − T) e^{(α−1)ε_q(α)} + T e^{(α−1)ε_{p̄}(α)}\\right),

with ``ε_q`` the Poisson-subsampled Gaussian's curve at (σ/Δ, q) and ``ε_p̄`` at
(σ/(2Δ), p̄). dp_accounting's RDP accountant does not account this event (its PLD
accountant does).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import mpmath

from dpverify._numeric import round_down, round_up, working_precision
from dpverify._validation import check_increasing_sequence
from dpverify.accountants._truncated_poisson import checked_truncated_gaussian
from dpverify.accountants.rdp.curves import DEFAULT_ORDERS, subsampled_gaussian_rdp
from dpverify.guarantees import RDPCurve

__all__ = ["truncated_poisson_gaussian_rdp"]


def truncated_poisson_gaussian_rdp(
    sigma: float,
    sampling_probability: float,
    *,
    max_sample_size: int,
    population_size: int,
    sensitivity: float = 1.0,
    orders: Sequence[float] | None = None,
) -> RDPCurve:
    """RDP curve of ``f(S) + N(0, σ²)``, S a Poisson sample (rate q) capped at B random records.

    Parameters are those of
    :func:`~dpverify.accountants.pld.truncated_poisson.truncated_poisson_gaussian_pld`;
    ``orders`` as for :func:`~dpverify.accountants.rdp.curves.subsampled_gaussian_rdp`.

    **Soundness.** Upper bound under add/remove with the dataset size public
    (``docs/proofs/pld.md``, "Truncated Poisson sampling"): both branch curves are
    upper bounds on both directions, ``1 − T`` and ``T`` are bounded above, p̄ is
    rounded up (the subsampled Gaussian's curve grows with the rate), σ/Δ and σ/(2Δ)
    are rounded down; the mixture is evaluated in mpmath and rounded up.

    >>> curve = truncated_poisson_gaussian_rdp(1.0, 0.01, max_sample_size=120,
    ...                                        population_size=10_000, orders=[2.0, 8.0])
    >>> [round(e, 5) for e in curve.epsilons]   # the swap branch (weight T = 0.028) rules order 8
    [0.00037, 10.18206]
    """
    sigma, q, sensitivity, weights = checked_truncated_gaussian(
        sigma, sampling_probability, sensitivity, max_sample_size, population_size)
    orders = (
        DEFAULT_ORDERS if orders is None else check_increasing_sequence(orders, "orders", low=1.0, low_closed=False)
    )
    untruncated = subsampled_gaussian_rdp(round_down(Fraction(sigma) / Fraction(sensitivity)), q, orders=orders)
    if weights.truncated_weight == 0:
        return untruncated
    swapped = subsampled_gaussian_rdp(
        round_down(Fraction(sigma) / (2 * Fraction(sensitivity))), weights.truncated_rate, orders=orders
    )
    values = []
    with working_precision():
        for alpha, first, second in zip(orders, untruncated.epsilons, swapped.epsilons):
            scale = mpmath.mpf(alpha) - 1
            moment = mpmath.mpf(weights.untruncated_weight) * mpmath.exp(scale * mpmath.mpf(first)) + mpmath.mpf(
                weights.truncated_weight
            ) * mpmath.exp(scale * mpmath.mpf(second))
            values.append(round_up(mpmath.log(moment) / scale, relative_error=1e-30))
    return RDPCurve(orders=orders, epsilons=tuple(values))
