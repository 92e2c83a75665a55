"""Confidence bounds on event probabilities, and the ε and δ lower bounds they certify.

The building block of every audit: an event ``S`` is fixed, ``k`` of ``n``
independent outputs of ``M(x)`` fall in it, and the Clopper–Pearson bound
turns ``k`` into a one-sided bound on ``p = P[M(x) ∈ S]`` that fails with
probability at most ``alpha``, whatever ``p`` is. Two such bounds, a lower one
on ``p`` and an upper one on ``p' = P[M(x') ∈ S]``, certify

.. math:: ε \\ge ε_{lb} = \\ln\\frac{p_{low} - δ}{p'_{high}}

for every ε at which the mechanism could be (ε, δ)-DP on the pair, because
(ε, δ)-DP requires ``p <= e^ε p' + δ`` (Jagielski, Ullman & Oprea 2020, §3;
the δ = 0 case is DP-Sniper's, Bichsel et al. 2021).

Soundness
---------
``scipy.stats.beta.ppf`` is accurate to a few ulps; every bound is widened by
a relative ``1e-9`` in its conservative direction, and the ε bound is
evaluated in mpmath and rounded down (:func:`dpverify._numeric.round_down`).

References
----------
Clopper, C. J. & Pearson, E. S. (1934). The use of confidence or fiducial
limits illustrated in the case of the binomial. *Biometrika* 26(4).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np
from scipy import stats

from dpverify._deprecation import renamed_parameters
from dpverify._numeric import round_down, working_precision
from dpverify._record_validation import check_record
from dpverify._validation import (
    check_confidence,
    check_delta,
    check_epsilon,
    check_int_at_least,
    check_probability,
    value_error,
)
from dpverify.errors import DpverifyTypeError

__all__ = [
    "ConfidenceInterval",
    "clopper_pearson",
    "clopper_pearson_lower",
    "clopper_pearson_upper",
    "epsilon_lower_bound",
    "delta_lower_bound",
    "conditional_ratio_lower",
    "ratio_epsilon",
]

#: Relative widening applied to scipy's beta quantiles (their error is a few ulps).
BETA_SLACK = 1e-9


@dataclass(frozen=True, slots=True)
class ConfidenceInterval:
    """A confidence interval ``lower <= p <= upper`` on a probability.

    One-sided intervals carry the trivial end (0 or 1) on their other side.

    >>> ConfidenceInterval(lower=0.25, upper=1.0)
    ConfidenceInterval(lower=0.25, upper=1.0)
    """

    lower: float
    upper: float

    def __post_init__(self) -> None:
        check_record(self)
        lower = check_probability(self.lower, "lower")
        upper = check_probability(self.upper, "upper")
        if not lower <= upper:
            raise value_error("lower", self.lower, f"<= upper={self.upper!r}")
        object.__setattr__(self, "lower", lower)
        object.__setattr__(self, "upper", upper)

    def __contains__(self, value: float) -> bool:
        return self.lower <= value <= self.upper


def _counts(successes: Any, trials: Any) -> tuple[np.ndarray, int]:
    trials = check_int_at_least(trials, "trials", 1)
    array = np.asarray(successes)
    if array.dtype == bool or not (np.issubdtype(array.dtype, np.integer) or (
            np.issubdtype(array.dtype, np.floating) and np.all(array == np.floor(array)))):
        raise DpverifyTypeError(f"successes={successes!r} must be an integer count "
                                f"or an array of counts")
    if array.size and not (array.min() >= 0 and array.max() <= trials):
        raise value_error("successes", successes, f"in [0, trials={trials}]")
    return array.astype(np.float64), trials


def _failure_probability(value: Any) -> float:
    return check_probability(value, "failure_probability", open_low=True, open_high=True)


@renamed_parameters(alpha="failure_probability")
def clopper_pearson_lower(successes: Any, trials: int, *, failure_probability: float) -> Any:
    """One-sided Clopper–Pearson lower bound: ``P[p < bound] <= α`` for every ``p``.

    ``failure_probability`` is α in (0, 1), the probability that the bound fails
    (its confidence is 1 − α).

    .. math:: p_{low} = B^{-1}(α;\\, k, n - k + 1), \\qquad p_{low} = 0 \\text{ if } k = 0,

    with ``B^{-1}`` the Beta quantile (Clopper & Pearson 1934). Vectorised
    over ``successes``; returns a float for a scalar count.

    **Soundness:** exact coverage ``>= 1 − α`` (the binomial tail is
    monotone in p); the quantile is lowered by a relative ``1e-9``.

    >>> round(clopper_pearson_lower(50, 100, failure_probability=0.025), 4)
    0.3983
    """
    k, n = _counts(successes, trials)
    alpha = _failure_probability(failure_probability)
    with np.errstate(all="ignore"):
        bound = np.where(k > 0, stats.beta.ppf(alpha, np.maximum(k, 1), n - k + 1), 0.0)
    bound = np.clip(bound * (1 - BETA_SLACK), 0.0, 1.0)
    return float(bound) if bound.ndim == 0 else bound


@renamed_parameters(alpha="failure_probability")
def clopper_pearson_upper(successes: Any, trials: int, *, failure_probability: float) -> Any:
    """One-sided Clopper–Pearson upper bound: ``P[p > bound] <= α`` for every ``p``.

    ``failure_probability`` is α in (0, 1), as in :func:`clopper_pearson_lower`.

    .. math:: p_{high} = B^{-1}(1 - α;\\, k + 1, n - k), \\qquad p_{high} = 1 \\text{ if } k = n.

    With ``k = 0`` this is ``1 − α^{1/n}`` (≈ ``ln(1/α)/n``, the "rule of
    three" at α = 0.05).

    **Soundness:** as :func:`clopper_pearson_lower`; raised by a relative ``1e-9``.

    >>> round(clopper_pearson_upper(0, 1000, failure_probability=0.05), 6)  # 1 - 0.05**(1/1000)
    0.002991
    """
    k, n = _counts(successes, trials)
    alpha = _failure_probability(failure_probability)
    with np.errstate(all="ignore"):
        bound = np.where(k < n, stats.beta.isf(alpha, k + 1, np.maximum(n - k, 1)), 1.0)
    bound = np.clip(bound * (1 + BETA_SLACK), 0.0, 1.0)
    return float(bound) if bound.ndim == 0 else bound


def clopper_pearson(successes: Any, trials: int, *, confidence: float = 0.95) -> ConfidenceInterval:
    """Two-sided Clopper–Pearson interval at ``confidence`` (``(1 − confidence)/2`` per side).

    Parameters
    ----------
    successes
        ``k``, the number of outputs in the event (an integer in ``[0, trials]``).
    trials
        ``n >= 1``, the number of independent outputs.
    confidence
        Coverage in [0.5, 1).

    Returns
    -------
    ConfidenceInterval
        Contains ``k/n``; covers the true probability with probability at
        least ``confidence`` (Clopper & Pearson 1934).

    Examples
    --------
    >>> interval = clopper_pearson(7, 10, confidence=0.95)
    >>> round(interval.lower, 4), round(interval.upper, 4)
    (0.3475, 0.9333)
    """
    confidence = check_confidence(confidence)
    alpha = (1 - confidence) / 2
    if np.ndim(successes) != 0:
        raise value_error("successes", successes, "a single count")
    return ConfidenceInterval(
        lower=clopper_pearson_lower(successes, trials, failure_probability=alpha),
        upper=clopper_pearson_upper(successes, trials, failure_probability=alpha))


def epsilon_lower_bound(p_lower: float, p_prime_upper: float, *, delta: float = 0.0) -> float:
    """``ε_lb = ln((p_low − δ)/p'_high)``, rounded down; 0 when nothing is certified.

    If ``P[M(x) ∈ S] >= p_lower`` and ``P[M(x') ∈ S] <= p_prime_upper``, no
    ε below ``ε_lb`` makes the pair (ε, δ)-DP, since (ε, δ)-DP demands
    ``P[M(x) ∈ S] <= e^ε P[M(x') ∈ S] + δ`` (Jagielski et al. 2020). ``inf``
    when ``p_prime_upper = 0`` and ``p_lower > δ``.

    **Soundness:** ``p_low − δ`` exact, the quotient rounded towards 0 and
    the logarithm taken at 100 digits, then rounded down; clamped at 0.

    >>> round(epsilon_lower_bound(0.7, 0.2), 6)  # ln 3.5
    1.252763
    >>> epsilon_lower_bound(0.1, 0.2, delta=0.05)
    0.0
    """
    p_lower = check_probability(p_lower, "p_lower")
    p_prime_upper = check_probability(p_prime_upper, "p_prime_upper")
    delta = check_delta(delta, "delta")
    if not p_lower > delta:
        return 0.0
    if p_prime_upper == 0.0:
        return math.inf
    with working_precision(100):
        numerator = mpmath.fsub(p_lower, delta, exact=True)
        value = mpmath.log(mpmath.fdiv(numerator, p_prime_upper, rounding="f"))
    return max(0.0, round_down(value, relative_error=1e-40))


@renamed_parameters(other="successes_prime", alpha="failure_probability")
def conditional_ratio_lower(successes: int, successes_prime: int, *,
                            failure_probability: float) -> float:
    """Lower confidence bound on ``λ/μ`` from independent ``X ~ Poisson(λ)``, ``Y ~ Poisson(μ)``.

    ``successes`` is X (the event's count on the side of ``x``), ``successes_prime``
    is Y (on the side of ``x'``), ``failure_probability`` is α in (0, 1).

    Given ``X + Y = K``, ``X ~ Bin(K, r)`` with ``r = λ/(λ + μ)`` (a classical
    fact: Poisson counts split binomially), so the Clopper–Pearson lower bound
    ``r_low`` on ``r`` from ``(X, K)`` fails with probability at most
    α for every ``K``, hence unconditionally, and ``r/(1 − r) = λ/μ``
    is increasing in ``r``:

    .. math:: \\frac{λ}{μ} \\ge \\frac{r_{low}}{1 - r_{low}}
              \\quad\\text{with probability} \\ge 1 - α.

    In an audit, ``X`` and ``Y`` count one event's outputs among Poisson-sized
    prefixes of mean ``λ_0`` on each side, so ``λ/μ = p/p'`` (the event's
    probability ratio): one bound on the ratio instead of two on its terms
    (the conditional test of two Poisson means, Przyborowski & Wileński 1940).

    **Soundness:** ``r_low`` is the widened Clopper–Pearson bound;
    ``1 − r_low`` is rounded up and the quotient down. ``successes = 0``
    gives 0; ``successes_prime = 0`` a finite bound (``r_low = α^{1/K}``).

    >>> round(conditional_ratio_lower(600, 400, failure_probability=0.05), 4)  # plug-in ratio 1.5
    1.3464
    >>> conditional_ratio_lower(0, 50, failure_probability=0.05)
    0.0
    """
    successes = check_int_at_least(successes, "successes", 0)
    other = check_int_at_least(successes_prime, "successes_prime", 0)
    alpha = _failure_probability(failure_probability)
    if successes == 0:
        return 0.0
    r_low = float(clopper_pearson_lower(successes, successes + other, failure_probability=alpha))
    if r_low <= 0.0:
        return 0.0
    with working_precision(100):
        complement = mpmath.fsub(1, r_low, rounding="c")
        if complement <= 0:
            return math.inf
        value = mpmath.fdiv(r_low, complement, rounding="f")
    return round_down(value, relative_error=1e-40)


def ratio_epsilon(ratio_lower: float) -> float:
    """``ln`` of a certified lower bound on ``p/p'``, rounded down and clamped at 0 (an ε_lb at δ = 0).

    >>> round(ratio_epsilon(math.e), 12)
    1.0
    >>> ratio_epsilon(0.5)
    0.0
    """
    if not ratio_lower > 1.0:
        return 0.0
    if math.isinf(ratio_lower):
        return math.inf
    with working_precision(100):
        value = mpmath.log(mpmath.mpf(ratio_lower))
    return max(0.0, round_down(value, relative_error=1e-40))


def delta_lower_bound(p_lower: float, p_prime_upper: float, *, epsilon: float) -> float:
    """``δ_lb = p_low − e^ε p'_high``, rounded down; 0 when nothing is certified.

    A lower bound on the hockey-stick divergence ``H_{e^ε}(M(x) ‖ M(x'))``
    (the smallest δ for which the pair can be (ε, δ)-DP) when the two
    probability bounds hold: ``H_{e^ε} >= P[S] − e^ε P'[S]`` for every S.

    **Soundness:** ``e^ε p'_high`` is rounded up and the difference taken
    exactly, then rounded down (a tiny ``p'_high`` is never lost to rounding).

    >>> round(delta_lower_bound(0.5, 0.1, epsilon=1.0), 6)  # 0.5 - e * 0.1
    0.228172
    """
    p_lower = check_probability(p_lower, "p_lower")
    p_prime_upper = check_probability(p_prime_upper, "p_prime_upper")
    epsilon = check_epsilon(epsilon, "epsilon")
    if epsilon > 1e6:  # e^ε p' >= p for every p' >= e^{-1e6}; below that p' is 0 to any float
        epsilon = 1e6
    with working_precision():
        factor = mpmath.exp(epsilon) * (1 + mpmath.mpf(10) ** -45)  # >= e^ε despite mpmath's error
        product = mpmath.fmul(factor, p_prime_upper, rounding="c")
        value = mpmath.fsub(p_lower, product, exact=True)
    return max(0.0, round_down(value))
