"""Trade-off (f-DP) curves from privacy profiles: how well can a test tell the neighbours apart?

For a pair (P, Q) and a test with type-I error α (false-positive rate), the
smallest achievable type-II error β is the trade-off function ``T(α)``
(Dong, Roth, Su 2022, Def. 2.1); ``1 − T(α)`` is the best true-positive rate.
Every hockey-stick bound gives lines below T: for every real ε and every
rejection region,

.. math:: β \\ge 1 − δ(ε) − e^{ε} α, \\qquad β \\ge e^{−ε}(1 − δ(ε) − α)

(Dong, Roth, Su 2022, Prop. 2.12 / Wasserman–Zhou 2010), where δ(ε) bounds
both orders of the pair. :func:`tradeoff_curve` takes the maximum of these
lines over a grid of ε with δ(ε) from a :class:`~dpverify.accountants.pld.distribution.PrivacyLossDistribution`
(an upper bound), so the returned β is a *lower* bound on the true trade-off
(conservative: the mechanism is at least this private), rounded down.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from dpverify._validation import check_positive_int, check_probability, check_real_array, limit_error
from dpverify.accountants.pld.distribution import PrivacyLossDistribution
from dpverify.errors import DpverifyTypeError

__all__ = ["tradeoff_curve", "true_positive_rate"]

_U = 2.0 ** -53


def _epsilon_grid(pld, points: int) -> np.ndarray:
    top = pld.epsilon_for_delta(1e-12)
    top = 50.0 if not math.isfinite(top) else max(top, 1e-3)
    positive = np.linspace(0.0, top, points)
    return np.concatenate([-positive[:0:-1], positive])


#: Most ε points :func:`tradeoff_curve` evaluates (each costs two hockey-stick divergences).
MAX_TRADEOFF_POINTS = 10_000


def tradeoff_curve(pld, false_positive_rates: Sequence[float], *, points: int = 200) -> np.ndarray:
    """Lower bounds on the trade-off function β = T(α) at each false-positive rate α.

    Parameters
    ----------
    pld
        A :class:`~dpverify.accountants.pld.distribution.PrivacyLossDistribution` (both orders
        of the pair are covered: its δ is the maximum over them).
    false_positive_rates
        Type-I errors α in [0, 1].
    points
        ε values in ``[0, ε(1e-12)]`` (and their negatives) at which δ is evaluated.

    Returns
    -------
    numpy.ndarray
        β lower bounds in [0, 1 − α], rounded down: no test with type-I error α
        has a type-II error below them.

    Examples
    --------
    >>> from dpverify.accountants.pld import PrivacyLossDistribution
    >>> beta = tradeoff_curve(PrivacyLossDistribution.from_gaussian(1.0), [0.05])
    >>> 0.73 < float(beta[0]) < 0.75   # Gaussian trade-off with μ = 1: Φ(Φ⁻¹(0.95) − 1) = 0.7405
    True
    """
    if not isinstance(pld, PrivacyLossDistribution):
        raise DpverifyTypeError(f"pld={pld!r} must be a PrivacyLossDistribution")
    alphas = check_real_array(false_positive_rates, "false_positive_rates", ndim=1, low=0.0,
                              high=1.0)
    points = check_positive_int(points, "points")
    if points > MAX_TRADEOFF_POINTS:  # two δ evaluations and a row of the table per point
        raise limit_error("points", points, MAX_TRADEOFF_POINTS,
                          f"use at most {MAX_TRADEOFF_POINTS} (the default 200 is usually tight)")
    epsilons = _epsilon_grid(pld, points)
    deltas = np.array([pld.hockey_stick_divergence(float(e)) for e in epsilons])
    factor = np.exp(epsilons)[:, None]
    first = 1.0 - deltas[:, None] - factor * alphas[None, :]
    second = (1.0 - deltas[:, None] - alphas[None, :]) / factor
    # float error of each line: a few roundings of terms of size <= 1 + e^ε α (rounded down below)
    slack = 8 * _U * (2.0 + factor * alphas[None, :])
    best = np.maximum(np.maximum(first, second) - slack, 0.0).max(axis=0)
    return np.minimum(best, 1.0 - alphas)


def true_positive_rate(pld, false_positive_rate: float, *, points: int = 200) -> float:
    """Upper bound on the best true-positive rate ``1 − T(α)`` of any test at false-positive rate α."""
    false_positive_rate = check_probability(false_positive_rate, "false_positive_rate")
    beta = tradeoff_curve(pld, [false_positive_rate], points=points)[0]
    return float(np.nextafter(1.0 - beta, 2.0))
