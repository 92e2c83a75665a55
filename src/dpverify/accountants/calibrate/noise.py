"""Calibration: the smallest noise that meets an (ε, δ) budget.

Every function here bisects a boolean *meets the budget* predicate on a
verified bracket with :func:`dpverify._numeric.bisect_passing` and returns the
passing end, so ``evaluate(calibrate(budget)) <= budget`` holds by
construction (the returned parameter has been evaluated and passed). This is
the one accountants module that builds mechanisms, because it searches over
their parameters. The DP-SGD pair (:func:`min_noise_multiplier`,
:func:`dp_sgd_epsilon`) lives in :mod:`dpverify.accountants.calibrate.dp_sgd` and is
re-exported here.
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction

import mpmath
import numpy as np
from scipy import special

from dpverify._deprecation import renamed_parameters
from dpverify._numeric import bisect_passing, round_up, working_precision
from dpverify._validation import (
    check_choice,
    check_delta,
    check_epsilon,
    check_positive,
    check_positive_int,
    limit_error,
    value_error,
)
from dpverify.accountants.calibrate._search import naming, request, smallest_passing
from dpverify.accountants.calibrate.dp_sgd import dp_sgd_epsilon, min_noise_multiplier  # re-exported
from dpverify.accountants.pld.distribution import PrivacyLossDistribution
from dpverify.accountants.rdp.curves import (
    gaussian_rdp,
    laplace_rdp,
    rdp_to_dp,
    scale_rdp,
)
from dpverify.errors import CalibrationError, DpverifyValueError
from dpverify.mechanisms import MAX_BINOMIAL_TRIALS, binomial_noise_delta
from dpverify.mechanisms.continuous import gaussian_delta, gaussian_privacy_profile

__all__ = [
    "GAUSSIAN_METHODS",
    "LAPLACE_METHODS",
    "analytic_gaussian_sigma",
    "classical_gaussian_sigma",
    "gaussian_epsilon",
    "laplace_epsilon",
    "min_binomial_trials",
    "min_gaussian_sigma",
    "min_laplace_scale",
    "min_noise_multiplier",
    "dp_sgd_epsilon",
]

#: Accounting methods for composed Gaussian mechanisms.
GAUSSIAN_METHODS = ("pld", "rdp", "analytic")
#: Accounting methods for composed Laplace mechanisms.
LAPLACE_METHODS = ("pld", "rdp", "pure")

#: Relative precision of searches whose predicate needs a PLD composition (each costs ~0.01–1 s).
_PLD_RTOL = 1e-9


#: Largest ``sensitivity`` of :func:`min_binomial_trials` (seconds at 10).
MAX_BINOMIAL_SENSITIVITY = 16
MAX_PLD_CALIBRATION_COMPOSITIONS = 10**3
"""Largest k :func:`min_laplace_scale` searches over by PLD (each candidate composes k times:
seconds at 10^3). Gaussian PLDs need no limit: k Gaussians are one Gaussian of sensitivity Δ√k."""


def _check_pld_compositions(count: int, method: str) -> None:
    if method == "pld" and count > MAX_PLD_CALIBRATION_COMPOSITIONS:
        raise limit_error("count", count, MAX_PLD_CALIBRATION_COMPOSITIONS,
                          "a PLD calibration composes every candidate; use method='rdp' "
                          "(cost independent of k)")


def classical_gaussian_sigma(epsilon: float, delta: float, *, sensitivity: float = 1.0) -> float:
    """The classical calibration ``Δ√(2 ln(1.25/δ))/ε`` (Dwork & Roth 2014, Thm A.1).

    **Not a guarantee by itself**: the theorem proves (ε, δ)-DP only for
    ε < 1; above it the noise can be too small (check with
    :func:`analytic_gaussian_sigma`, which is exact). Kept because papers
    (the experiments of Li, Zhou & Ji 2022) use it at any ε.

    >>> round(classical_gaussian_sigma(1.0, 1e-5), 4)
    4.8448
    """
    epsilon = check_epsilon(epsilon, allow_zero=False)
    delta = check_delta(delta, allow_zero=False)
    sensitivity = check_positive(sensitivity, "sensitivity")
    sigma = sensitivity * math.sqrt(2 * math.log(1.25 / delta)) / epsilon
    if not math.isfinite(sigma):
        smallest = sensitivity * math.sqrt(2 * math.log(1.25 / delta)) / sys.float_info.max
        raise value_error("epsilon", epsilon, f">= {smallest:.3g} with sensitivity={sensitivity!r}, "
                          f"delta={delta!r}", "below it σ = Δ√(2 ln(1.25/δ))/ε exceeds the "
                          "float range")
    return sigma


def analytic_gaussian_sigma(epsilon: float, delta: float, *, sensitivity: float = 1.0) -> float:
    """Smallest σ making one Gaussian release (ε, δ)-DP: the analytic Gaussian mechanism.

    Parameters
    ----------
    epsilon : float
        Target ε in (0, inf).
    delta : float
        Target δ in (0, 1).
    sensitivity : float
        ℓ2 sensitivity Δ of the released function.

    Returns
    -------
    float
        σ such that the exact profile satisfies δ(ε) <= ``delta``; within a
        relative 1e-12 of the smallest such σ.

    Notes
    -----
    Balle & Wang 2018 (ICML), Thm. 8: ``N(0, σ²)`` noise is (ε, δ)-DP iff

    .. math:: Φ\\left(\\frac{Δ}{2σ} - \\frac{εσ}{Δ}\\right)
              - e^{ε} Φ\\left(-\\frac{Δ}{2σ} - \\frac{εσ}{Δ}\\right) \\le δ .

    The left side decreases in σ. Unlike their Algorithm 1 (a float root
    finder), the condition is evaluated in mpmath and the search returns the
    passing end of a verified bracket.

    Soundness: the returned σ is verified to satisfy the exact condition
    (δ evaluated in mpmath with relative error < 1e-20, compared with a
    1e-18 margin). Valid for any neighbouring relation under which the
    ℓ2 sensitivity is Δ.

    Examples
    --------
    >>> round(analytic_gaussian_sigma(1.0, 1e-5), 4)
    3.7306
    """
    epsilon = check_epsilon(epsilon, allow_zero=False)
    delta = check_delta(delta, allow_zero=False)
    sensitivity = check_positive(sensitivity, "sensitivity")
    bound = mpmath.mpf(delta)

    def meets(sigma: float) -> bool:
        with working_precision():
            return gaussian_delta(sensitivity / sigma, epsilon) * (1 + mpmath.mpf(1e-18)) <= bound

    return smallest_passing(meets, classical_gaussian_sigma(epsilon, delta,
                                                             sensitivity=sensitivity), rtol=1e-12,
                             described=request(epsilon=epsilon, delta=delta,
                                              sensitivity=sensitivity))


@renamed_parameters(compositions="count")
def gaussian_epsilon(sigma: float, *, delta: float, count: int = 1,
                     sensitivity: float = 1.0, method: str = "pld") -> float:
    """Upper bound on ε of ``count`` Gaussian releases with noise σ, at δ.

    ``method`` is ``"pld"`` (privacy loss distribution, pessimistic
    discretisation, of the composition: one Gaussian of sensitivity Δ√k, at a
    cost independent of k), ``"rdp"`` (Rényi DP with the tight conversion) or
    ``"analytic"`` (exact: k Gaussians with noise σ are exactly one Gaussian
    with noise σ/√k, so the analytic Gaussian profile gives the true ε).

    Soundness: an upper bound, rounded up, for adaptive composition of
    Gaussian mechanisms with ℓ2 sensitivity ``sensitivity``.

    >>> gaussian_epsilon(1.0, delta=1e-5, count=10, method="analytic") >= 0
    True
    """
    sigma = check_positive(sigma, "sigma")
    delta = check_delta(delta, allow_zero=False)
    count = check_positive_int(count, "count")
    sensitivity = check_positive(sensitivity, "sensitivity")
    method = check_choice(method, "method", GAUSSIAN_METHODS)
    with naming(request(sigma=sigma, delta=delta, count=count,
                          sensitivity=sensitivity, method=method)):
        return _gaussian_epsilon(sigma, delta, count, sensitivity, method)


def _gaussian_epsilon(sigma: float, delta: float, count: int, sensitivity: float,
                      method: str) -> float:
    if method == "analytic":
        profile = gaussian_privacy_profile(sigma / math.sqrt(count), sensitivity=sensitivity)
        return profile.epsilon_for_delta(delta)
    if method == "rdp":
        curve = scale_rdp(gaussian_rdp(sigma, sensitivity=sensitivity), count)
        return rdp_to_dp(curve, delta=delta).epsilon
    # k Gaussians of sensitivity Δ compose exactly to one of sensitivity Δ√k (their losses add):
    # one PLD whose cost does not grow with k; Δ√k rounded up (more sensitivity, larger ε)
    composed = math.nextafter(sensitivity * math.sqrt(count), math.inf)
    return PrivacyLossDistribution.from_gaussian(
        sigma, sensitivity=composed).epsilon_for_delta(delta)


@renamed_parameters(compositions="count")
def min_gaussian_sigma(epsilon: float, delta: float, *, count: int = 1,
                       sensitivity: float = 1.0, method: str = "pld") -> float:
    """Smallest σ (to a small relative tolerance) such that k Gaussian releases are (ε, δ)-DP.

    Parameters
    ----------
    epsilon, delta : float
        The total budget, ε in (0, inf) and δ in (0, 1).
    count : int
        Number k of adaptively composed Gaussian releases, each with the same σ.
    sensitivity : float
        ℓ2 sensitivity of each release.
    method : {"pld", "rdp", "analytic"}
        Accountant used to evaluate a candidate σ (see :func:`gaussian_epsilon`).

    Returns
    -------
    float
        A σ verified to meet the budget under ``method``: ``gaussian_epsilon(σ,
        delta=delta, count=k, method=method) <= epsilon``. It is within
        1e-12 (analytic, rdp) or 1e-9 (pld) relative of the smallest such σ.

    Notes
    -----
    The search starts at the exact answer √k · σ_analytic(ε, δ) (valid since
    the k-fold composition is one Gaussian with noise σ/√k), which every sound
    accountant needs at least as much noise as, so the bracket is narrow.

    Soundness: calibrate-then-evaluate lands on the passing side by
    construction (the returned end of the bracket was evaluated and passed).

    Examples
    --------
    >>> sigma = min_gaussian_sigma(1.0, 1e-5, count=100, method="rdp")
    >>> gaussian_epsilon(sigma, delta=1e-5, count=100, method="rdp") <= 1.0
    True
    """
    epsilon = check_epsilon(epsilon, allow_zero=False)
    delta = check_delta(delta, allow_zero=False)
    count = check_positive_int(count, "count")
    sensitivity = check_positive(sensitivity, "sensitivity")
    method = check_choice(method, "method", GAUSSIAN_METHODS)
    exact = math.sqrt(count) * analytic_gaussian_sigma(epsilon, delta,
                                                              sensitivity=sensitivity)
    if method == "analytic":
        return exact

    def meets(sigma: float) -> bool:
        return gaussian_epsilon(sigma, delta=delta, count=count,
                                sensitivity=sensitivity, method=method) <= epsilon

    return smallest_passing(meets, exact, rtol=_PLD_RTOL if method == "pld" else 1e-12,
                             described=request(epsilon=epsilon, delta=delta,
                                              count=count,
                                              sensitivity=sensitivity, method=method))


@renamed_parameters(compositions="count")
def laplace_epsilon(scale: float, *, delta: float = 0.0, count: int = 1,
                    sensitivity: float = 1.0, method: str | None = None) -> float:
    """Upper bound on ε of ``count`` Laplace releases with noise ``scale``, at δ.

    ``method="pure"`` gives the exact pure-DP answer k·Δ/b (δ is then
    ignored); ``"pld"`` and ``"rdp"`` need δ > 0. The default is ``"pure"``
    when δ = 0 and ``"pld"`` otherwise.

    Soundness: an upper bound, rounded up, for adaptive composition of
    Laplace mechanisms on scalar queries with ℓ1 sensitivity ``sensitivity``.

    >>> laplace_epsilon(10.0, count=10, method="pure")
    1.0
    """
    scale = check_positive(scale, "scale")
    count = check_positive_int(count, "count")
    sensitivity = check_positive(sensitivity, "sensitivity")
    if method is None:
        method = "pure" if check_delta(delta) == 0.0 else "pld"
    method = check_choice(method, "method", LAPLACE_METHODS)
    if method == "pure":
        check_delta(delta)
        return round_up(Fraction(count) * Fraction(sensitivity) / Fraction(scale))
    delta = check_delta(delta, allow_zero=False)
    with naming(request(scale=scale, delta=delta, count=count,
                          sensitivity=sensitivity, method=method)):
        if method == "rdp":
            curve = scale_rdp(laplace_rdp(scale, sensitivity=sensitivity), count)
            return rdp_to_dp(curve, delta=delta).epsilon
        pld = PrivacyLossDistribution.from_laplace(scale, sensitivity=sensitivity)
        return pld.self_compose(count).epsilon_for_delta(delta)


@renamed_parameters(compositions="count")
def min_laplace_scale(epsilon: float, delta: float = 0.0, *, count: int = 1,
                      sensitivity: float = 1.0, method: str = "pld") -> float:
    """Smallest Laplace scale b such that k Laplace releases are (ε, δ)-DP.

    With ``method="pure"`` (or δ = 0) this is exactly b = kΔ/ε. Otherwise the
    search starts at the pure answer divided by √k (no accountant can do
    better than the central-limit rate) and uses the chosen accountant.

    Soundness: the returned scale is verified, ``laplace_epsilon(b, ...) <= ε``.

    >>> min_laplace_scale(1.0, count=10, method="pure")
    10.0
    """
    epsilon = check_epsilon(epsilon, allow_zero=False)
    delta = check_delta(delta)
    count = check_positive_int(count, "count")
    sensitivity = check_positive(sensitivity, "sensitivity")
    method = check_choice(method, "method", LAPLACE_METHODS)
    if delta > 0.0:
        _check_pld_compositions(count, method)
    pure = count * sensitivity / epsilon
    if not math.isfinite(pure):
        raise DpverifyValueError(
            f"epsilon={epsilon!r}, sensitivity={sensitivity!r}, count={count} "
            f"give a Laplace scale count·sensitivity/epsilon beyond the float range: "
            f"epsilon must be >= {count * (sensitivity / sys.float_info.max):.3g} "
            f"(or sensitivity smaller)")
    if method == "pure" or delta == 0.0:
        def meets_pure(scale: float) -> bool:
            return laplace_epsilon(scale, count=count,
                                   sensitivity=sensitivity, method="pure") <= epsilon
        return pure if meets_pure(pure) else math.nextafter(pure, math.inf)

    def meets(scale: float) -> bool:
        return laplace_epsilon(scale, delta=delta, count=count,
                               sensitivity=sensitivity, method=method) <= epsilon

    start = pure / math.sqrt(count) / 4
    return smallest_passing(meets, start, rtol=_PLD_RTOL if method == "pld" else 1e-10,
                             described=request(epsilon=epsilon, delta=delta,
                                              count=count,
                                              sensitivity=sensitivity, method=method))


def _binomial_delta_estimate(trials: int, epsilon: float, shift: int) -> float:
    """Float estimate of δ(ε) for ``Bin(trials, 1/2)`` noise at integer sensitivity ``shift``.

    The same sum as :func:`~dpverify.mechanisms._noise_maps.binomial_noise_delta`
    (the prefix where the loss exceeds ε), in numpy over the 40 standard
    deviations below the crossing point: only a search guide, never reported.
    """
    def loss(y: np.ndarray) -> np.ndarray:
        return (special.gammaln(y - shift + 1) + special.gammaln(trials - y + shift + 1)
                - special.gammaln(y + 1) - special.gammaln(trials - y + 1))

    low, high = shift - 1, trials
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if loss(np.array(middle)) > epsilon else (low, middle)
    start = max(0, low - int(20 * math.sqrt(trials)) - 100)
    y = np.arange(start, low + 1)
    log_mass = (special.gammaln(trials + 1) - special.gammaln(y + 1)
                - special.gammaln(trials - y + 1) - trials * math.log(2))
    with np.errstate(over="ignore"):
        excess = np.where(y >= shift, -np.expm1(epsilon - loss(np.maximum(y, shift))), 1.0)
    return float(np.sum(np.exp(log_mass) * excess))


def min_binomial_trials(epsilon: float, delta: float, *, sensitivity: int = 1) -> int:
    """Smallest N such that an integer query of sensitivity Δ plus ``Bin(N, 1/2)`` is (ε, δ)-DP.

    The binomial mechanism's calibration (Dwork et al. 2006; Tenenbaum et al. 2021's
    ``M_sum`` with noise bits): δ_N(ε), the exact hockey-stick divergence
    of the shifted binomials
    (:func:`~dpverify.mechanisms._noise_maps.binomial_noise_delta`), is
    non-increasing in N, because ``Bin(N + 1, 1/2) = Bin(N, 1/2) + Ber(1/2)``
    and adding independent noise is post-processing. A float estimate of δ_N
    locates N by bisection; the answer is then confirmed exactly: N passes
    and N − 1 fails, both in mpmath (a neighbour is stepped to otherwise).

    Soundness: the returned N has been evaluated exactly and meets (ε, δ)
    (any neighbouring relation under which the count moves by at most Δ).

    >>> n = min_binomial_trials(1.0, 1e-6)
    >>> n, float(binomial_noise_delta(n, 1.0)) <= 1e-6 < float(binomial_noise_delta(n - 1, 1.0))
    (80, True)
    """
    epsilon = check_epsilon(epsilon, allow_zero=False)
    delta = check_delta(delta, allow_zero=False)
    shift = check_positive_int(sensitivity, "sensitivity", maximum=MAX_BINOMIAL_SENSITIVITY,
                               instead="the exact check sums every shift 1..sensitivity (time "
                                       "grows as its square); rescale the query")

    def meets(trials: int) -> bool:
        return trials >= shift and binomial_noise_delta(trials, epsilon, sensitivity=shift) <= delta

    def estimate_meets(trials: int) -> bool:
        return trials >= shift and _binomial_delta_estimate(trials, epsilon, shift) <= delta

    guess = max(shift, math.ceil(4 * analytic_gaussian_sigma(epsilon, delta, sensitivity=shift) ** 2))
    too_many = CalibrationError(f"no binomial noise up to 2^40 trials meets epsilon={epsilon!r}, "
                                f"delta={delta!r} at sensitivity={shift}")
    if guess > MAX_BINOMIAL_TRIALS:  # (before any sum: its terms grow with the trials)
        raise too_many
    low, high = max(shift, guess // 4), guess * 4
    while not estimate_meets(high):
        low, high = high, high * 4
        if high > MAX_BINOMIAL_TRIALS:
            raise too_many
    while low > shift and estimate_meets(low):
        low, high = max(shift, low // 4), low
    trials = low if estimate_meets(low) else bisect_passing(estimate_meets, low, high, integer=True)
    while not meets(trials):
        trials += 1
    while trials > shift and meets(trials - 1):
        trials -= 1
    return trials
