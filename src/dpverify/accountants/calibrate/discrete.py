"""The least discrete-Gaussian σ such that every larger σ meets an (ε, δ) budget.

δ(ε) of the discrete Gaussian (Canonne, Kamath, Steinke 2020, Thm 7) is *not*
monotone in σ at large ε (the integers where the loss exceeds ε change in
jumps), so bisecting on σ can return a σ whose neighbours above fail.
:func:`min_discrete_gaussian_sigma` instead certifies whole intervals:

* above ``σ_z`` every σ passes, because the mechanism is ``Δ²/(2σ²)``-zCDP
  (CKS 2020, Thm 4), which is monotone in σ, and its (ε, δ) conversion
  (:func:`~dpverify.accountants.zcdp.zcdp_to_dp_delta`) passes at ``σ_z``;
* below, intervals ``[s₁, s₂]`` are certified downwards with an upper bound
  on δ valid for every ``σ ∈ [s₁, s₂]`` (:func:`_interval_delta_bound`),
  adaptively shrinking the interval until one cannot be certified at
  relative width ``rtol``.

The answer ``σ̂`` is the lower end of the last certified interval: **every
σ' >= σ̂ meets the budget** (the certified intervals are contiguous up to
``σ_z``). It can exceed the least passing σ by the interval bound's slack
(relative ``rtol``) and may skip a lower island of passing σ below a
failing one (those are not "every larger σ passes").
"""

from __future__ import annotations

import math

import numpy as np

from dpverify._numeric import bisect_passing
from dpverify._validation import check_delta, check_epsilon, check_in_range, check_positive_int
from dpverify.accountants.zcdp import zcdp_to_dp_delta
from dpverify.errors import CalibrationError
from dpverify.guarantees import ZCDP

__all__ = ["min_discrete_gaussian_sigma"]

#: Relative margin on float sums of exponentials (each term within a few ulps; fsum exact).
_FLOAT_MARGIN = 1e-9
#: Largest σ searched (the series has ~40σ terms: the refinement takes seconds at 10^4).
MAX_SIGMA = 1e4


def _interval_delta_bound(low: float, high: float, epsilon: float, sensitivity: int) -> float:
    """Upper bound on the discrete Gaussian's δ(ε) for every σ in ``[low, high]``.

    ``δ_σ(ε) = Σ_k w_σ(k)/Z_σ · (1 − e^{ε − L_σ(k)})_+`` with
    ``w_σ(k) = e^{−k²/(2σ²)}``, ``L_σ(k) = (2kΔ + Δ²)/(2σ²)`` (CKS 2020, Thm 7).
    On the interval ``w_σ(k) <= w_high(k)``, ``Z_σ >= Z_low`` and, where the
    loss is positive, ``L_σ(k) <= L_low(k)``; the tail of the sum past
    ``K`` is at most ``∫_K^∞ e^{−x²/(2 high²)} dx``.
    """
    d = sensitivity
    start = math.floor((2 * low * low * epsilon - d * d) / (2 * d))      # one before the first L > ε
    start = max(start, -(d // 2) - 1)
    stop = max(start, 0) + math.ceil(40 * high) + 10
    ks = np.arange(start, stop + 1, dtype=np.float64)
    weights = np.exp(-ks * ks / (2 * high * high))
    factors = np.clip(-np.expm1(epsilon - (2 * ks * d + d * d) / (2 * low * low)), 0.0, 1.0)
    tail = high * math.sqrt(math.pi / 2) * math.erfc(stop / (high * math.sqrt(2)))
    numerator = math.fsum((weights * factors).tolist()) * (1 + _FLOAT_MARGIN) + tail
    js = np.arange(1, math.ceil(12 * low) + 2, dtype=np.float64)
    normaliser = (1 + 2 * math.fsum(np.exp(-js * js / (2 * low * low)).tolist())) * (1 - _FLOAT_MARGIN)
    return numerator / normaliser


def min_discrete_gaussian_sigma(epsilon: float, delta: float, *, sensitivity: int = 1,
                                rtol: float = 1e-3) -> float:
    """The least σ (to relative ``rtol``) such that ``DiscreteGaussian(σ')`` meets (ε, δ) for all σ' >= σ.

    Integer query of sensitivity Δ. See the module docstring for the method
    (zCDP above ``σ_z``, certified intervals below) and its guarantee.

    **Soundness.** Every σ' >= the returned σ meets (ε, δ)-DP: for σ' in a
    certified interval by :func:`_interval_delta_bound` (float sums with a
    ``1e-9`` relative margin, a rigorous tail), above ``σ_z`` by the zCDP bound.

    >>> sigma = min_discrete_gaussian_sigma(1.0, 1e-5)
    >>> from dpverify.mechanisms import discrete_gaussian_delta
    >>> float(discrete_gaussian_delta(sigma, 1.0)) <= 1e-5
    True
    """
    epsilon = check_epsilon(epsilon, allow_zero=False)
    delta = check_delta(delta, allow_zero=False)
    sensitivity = check_positive_int(sensitivity, "sensitivity")
    rtol = check_in_range(rtol, "rtol", 1e-9, 0.5)

    def zcdp_passes(sigma: float) -> bool:
        return zcdp_to_dp_delta(ZCDP(sensitivity ** 2 / (2 * sigma * sigma)), epsilon=epsilon) <= delta

    too_large = CalibrationError(
        f"no σ <= {MAX_SIGMA:g} meets epsilon={epsilon!r}, delta={delta!r} at "
        f"sensitivity={sensitivity!r} (this calibration's sums grow with σ and stop at "
        f"{MAX_SIGMA:g}): raise epsilon or delta, or lower sensitivity; any σ is "
        f"(sensitivity²/(2σ²))-zCDP (zcdp_to_dp converts it)")
    high = float(sensitivity)
    while not zcdp_passes(high):
        high *= 2
        if high > 2 * MAX_SIGMA:
            raise too_large
    low = high / 2
    while zcdp_passes(low) and low > 1e-6:
        low /= 2
    upper = bisect_passing(zcdp_passes, low, high, rtol=rtol) if not zcdp_passes(low) else low
    if upper > MAX_SIGMA:   # the refinement below costs time proportional to σ
        raise too_large
    width = 0.25
    for _ in range(100_000):
        below = upper / (1 + width)
        if _interval_delta_bound(below, upper, epsilon, sensitivity) <= delta:
            upper, width = below, min(2 * width, 0.25)
            if upper < 1e-3:
                break
        elif width <= rtol:
            break
        else:
            width /= 4
    return upper
