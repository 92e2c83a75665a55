"""Returning users (Chowdhury & Zhou 2023, App. I): the per-batch noise when one user joins up to B batches.

Their Assumption 2: each user contributes to at most ``B`` batches, once
per batch. The batches' releases then compose over a user's B
participations (parallel composition no longer applies). For Gaussian-type
per-batch noise (Skellam, discrete Gaussian: sub-Gaussian with the same
variance, the routes of App. I) the ratio σ/Δ a batch needs is:

* ``"advanced"`` — App. I eq. (14): advanced composition with
  ``ε_i = ε/(2√(2B ln(2/δ)))``, ``δ_i = δ/(2B)`` (δ' = δ/2), each batch by the
  classical Gaussian mechanism ``σ_i = Δ√(2 ln(1.25/δ_i))/ε_i`` (valid for
  ε_i < 1): ``σ_i² = O(B log(1/δ) log(B/δ)/ε²)``;
* ``"zcdp"`` — App. I eq. (15): each batch ``ρ/B``-zCDP with ρ the largest zCDP
  level whose conversion (Canonne–Kamath–Steinke, tight) is (ε, δ):
  ``σ_i² = BΔ²/(2ρ) = O(B log(1/δ)/ε²)``;
* ``"exact"`` — B Gaussian releases composed exactly (PLD calibration,
  :func:`dpverify.accountants.calibrate.min_gaussian_sigma`): the least σ.

Pure DP (Pólya / discrete Laplace, Remark 9): ``ε_i = ε/B``, linear in B.
"""

from __future__ import annotations

import mpmath

from dpverify._numeric import bisect_passing, round_up, working_precision
from dpverify._validation import (
    check_choice,
    check_delta,
    check_epsilon,
    check_positive,
    check_positive_int,
    value_error,
)
from dpverify.accountants.calibrate import min_gaussian_sigma
from dpverify.accountants.zcdp import zcdp_to_dp
from dpverify.guarantees import ZCDP

__all__ = ["RETURNING_ROUTES", "returning_users_sigma", "returning_users_pure_epsilon"]

#: Accounting routes of :func:`returning_users_sigma`.
RETURNING_ROUTES = ("advanced", "zcdp", "exact")


def _largest_rho(epsilon: float, delta: float) -> float:
    def meets(rho: float) -> bool:
        return zcdp_to_dp(ZCDP(rho), delta=delta).epsilon <= epsilon

    high = epsilon
    while meets(high):
        high *= 2
    return bisect_passing(meets, 0.0, high, rtol=1e-10)


def returning_users_sigma(epsilon: float, delta: float, *, participations: int,
                          route: str = "zcdp", sensitivity: float = 1.0) -> float:
    """Per-batch Gaussian σ so that a user's ``participations`` batches are together (ε, δ)-DP.

    Parameters
    ----------
    epsilon, delta
        The total budget of one user over all the batches it joins.
    participations
        B, the most batches one user joins (Chowdhury & Zhou 2023, Assumption 2).
    route
        ``"advanced"`` (eq. 14), ``"zcdp"`` (eq. 15) or ``"exact"`` (PLD), see the module.
    sensitivity
        Δ, the ℓ2 sensitivity of one batch's sum to one user.

    Returns
    -------
    float
        σ, rounded up (more noise). **Soundness**: every route is an upper bound
        on the σ needed (advanced: Dwork–Rothblum–Vadhan with the classical
        Gaussian, which requires ε_i < 1, checked; zCDP: the largest ρ is the
        passing end of a bisection; exact: PLD with pessimistic discretisation).

    Examples
    --------
    >>> exact = returning_users_sigma(1.0, 1e-6, participations=10, route="exact")
    >>> zcdp = returning_users_sigma(1.0, 1e-6, participations=10)
    >>> advanced = returning_users_sigma(1.0, 1e-6, participations=10, route="advanced")
    >>> exact <= zcdp <= advanced
    True
    """
    epsilon = check_epsilon(epsilon, allow_zero=False)
    delta = check_delta(delta, allow_zero=False)
    b = check_positive_int(participations, "participations")
    route = check_choice(route, "route", RETURNING_ROUTES)
    sensitivity = check_positive(sensitivity, "sensitivity")
    with working_precision():
        if route == "advanced":
            eps_i = mpmath.mpf(epsilon) / (2 * mpmath.sqrt(2 * b * mpmath.log(2 / mpmath.mpf(delta))))
            if not eps_i < 1:
                raise value_error(
                    "epsilon", epsilon, f"small enough that ε_i = {float(eps_i)!r} < 1",
                    "the classical Gaussian mechanism of eq. (14) needs ε_i < 1")
            delta_i = mpmath.mpf(delta) / (2 * b)
            return round_up(sensitivity * mpmath.sqrt(2 * mpmath.log(mpmath.mpf(1.25) / delta_i)) / eps_i)
        if route == "zcdp":
            rho = _largest_rho(epsilon, delta)
            return round_up(sensitivity * mpmath.sqrt(b / (2 * mpmath.mpf(rho))))
    return min_gaussian_sigma(epsilon, delta, count=b, sensitivity=sensitivity)


def returning_users_pure_epsilon(epsilon: float, *, participations: int) -> float:
    """Remark 9: per-batch ε_i = ε/B for pure DP (basic composition; exact for pure DP's worst case).

    >>> returning_users_pure_epsilon(1.0, participations=4)
    0.25
    """
    return check_epsilon(epsilon, allow_zero=False) / check_positive_int(participations, "participations")

