"""Rényi DP of repeat-and-select (Papernot & Steinke, ICLR 2022): run a mechanism K times, release the best.

K is random: a truncated negative binomial ``TNB(η, γ)`` (η = ``shape``;
η = 1 geometric, η = 0 logarithmic) or a Poisson of mean μ (``shape = inf``).
Only the selected run is released (its output and index).

* **TNB** (Papernot & Steinke 2022, Thm 2): if the mechanism is
  ``(λ, ε)``-RDP and ``(λ̂, ε̂)``-RDP, the repetition is ``(λ, ε')``-RDP with

  .. math:: ε' = ε + (1 + η)(1 − 1/λ̂) ε̂ + (1 + η) \\ln(1/γ)/λ̂ + \\ln(μ)/(λ − 1),

  minimised over the available ``λ̂``; ``γ`` is solved from the mean
  ``μ = η(1/γ − 1)/(1 − γ^η)`` (``(1/γ − 1)/ln(1/γ)`` at η = 0, ``1/γ`` at
  η = 1) and taken *below* the true value (a smaller γ only increases ε').
* **Poisson** (their Thm 6): with ``ε̂ = ln(1 + 1/(λ − 1))`` and the mechanism
  ``(ε̂, δ̂)``-DP, ``ε' = ε + μ δ̂ + ln(μ)/(λ − 1)``; ``δ̂`` is
  :func:`~dpverify.accountants.rdp.curves.rdp_to_dp_delta` of the curve (an upper bound).

Then RDP is monotone in the order, so each ``ε'(λ)`` is replaced by the least
bound at orders ``>= λ``. Everything is evaluated in mpmath and rounded up.
"""

from __future__ import annotations

import math

import mpmath

from dpverify._numeric import round_up, working_precision
from dpverify._validation import check_in_range, value_error
from dpverify.accountants.rdp._conversions import rdp_to_dp_delta
from dpverify.errors import DpverifyTypeError
from dpverify.guarantees import RDPCurve

__all__ = ["repeat_and_select_rdp", "truncated_negative_binomial_gamma"]


def _tnb_mean(gamma: mpmath.mpf, shape: mpmath.mpf) -> mpmath.mpf:
    if shape == 0:
        return (1 / gamma - 1) / mpmath.log(1 / gamma)
    if shape == 1:
        return 1 / gamma
    # 1 − γ^η as −expm1(η ln γ): no cancellation for a tiny η (1 − γ^η rounds to 0)
    return shape * (1 / gamma - 1) / -mpmath.expm1(shape * mpmath.log(gamma))


#: Largest finite TNB shape η: beyond it γ is within 1e-12 of 1 and the search needs
#: more digits than the working precision; ``shape=inf`` is the Poisson limit (Thm 6).
MAX_TNB_SHAPE = 1e12


def _check_shape(shape: float) -> float:
    shape = check_in_range(shape, "shape", 0.0, math.inf)
    if MAX_TNB_SHAPE < shape < math.inf:
        raise value_error("shape", shape, f"in [0, {MAX_TNB_SHAPE:g}] or inf",
                          "a larger finite η needs γ closer to 1 than the working precision "
                          "resolves; shape=inf is the Poisson limit (Papernot & Steinke Thm 6)")
    return shape


def truncated_negative_binomial_gamma(mean: float, shape: float) -> mpmath.mpf:
    """A γ at most the one giving ``TNB(shape, γ)`` mean ``mean`` (mpmath; the mean decreases in γ).

    >>> float(truncated_negative_binomial_gamma(10.0, 1.0))
    0.1
    """
    mean = check_in_range(mean, "mean", 1.0, 1e12)
    shape = _check_shape(shape)
    with working_precision():
        target, eta = mpmath.mpf(mean), mpmath.mpf(shape)
        if eta == 1:
            return 1 / target * (1 - mpmath.mpf(10) ** -40)
        if target == 1:
            return mpmath.mpf(1)
        low, high = mpmath.mpf(0), mpmath.mpf(1)     # mean(low) >= target > mean(high), mean(0+) = inf
        for _ in range(200):
            middle = (low + high) / 2
            if _tnb_mean(middle, eta) >= target:
                low = middle
            else:
                high = middle
        if low == 0:
            raise value_error("mean", mean, "reachable by the truncated negative binomial")
        return low


def repeat_and_select_rdp(curve: RDPCurve, *, mean: float, shape: float) -> RDPCurve:
    """RDP curve of repeat-and-select of a mechanism with RDP curve ``curve`` (module docstring).

    Parameters
    ----------
    curve
        The single run's RDP curve.
    mean
        ``E[K] >= 1``, the mean number of runs.
    shape
        η >= 0 of the truncated negative binomial, or ``inf`` for Poisson.

    **Soundness.** Upper bound (Papernot & Steinke 2022, Thm 2 and Thm 6),
    γ taken below its true value, δ̂ an upper bound, mpmath rounded up.

    >>> from dpverify.accountants.rdp import gaussian_rdp
    >>> single = gaussian_rdp(10.0, orders=[2.0, 8.0, 32.0])
    >>> [round(e, 3) for e in repeat_and_select_rdp(single, mean=10, shape=1).epsilons]
    [0.688, 0.688, 0.688]
    """
    if not isinstance(curve, RDPCurve):
        raise DpverifyTypeError(f"curve={curve!r} must be an RDPCurve")
    mean = check_in_range(mean, "mean", 1.0, 1e12)
    shape = _check_shape(shape)
    bounds = []
    with working_precision():
        log_mean = mpmath.log(mpmath.mpf(mean))
        if math.isinf(shape):
            for order, epsilon in zip(curve.orders, curve.epsilons):
                if math.isinf(epsilon):
                    bounds.append(mpmath.inf)
                    continue
                hat = math.log1p(1 / (order - 1))
                hat_delta = mpmath.mpf(rdp_to_dp_delta(curve, epsilon=hat * (1 - 1e-15)))
                bounds.append(epsilon + mean * hat_delta + log_mean / (order - 1))
        else:
            gamma, eta = truncated_negative_binomial_gamma(mean, shape), mpmath.mpf(shape)
            constant = min(((1 - 1 / mpmath.mpf(o)) * e - mpmath.log(gamma) / o
                            for o, e in zip(curve.orders, curve.epsilons) if math.isfinite(e)),
                           default=mpmath.inf)
            constant = max(constant, mpmath.mpf(0)) * (1 + eta)
            for order, epsilon in zip(curve.orders, curve.epsilons):
                bounds.append(epsilon + constant + log_mean / (order - 1))
        epsilons = [round_up(b) if mpmath.isfinite(b) else math.inf for b in bounds]
    for i in range(len(epsilons) - 2, -1, -1):       # monotone in the order
        epsilons[i] = min(epsilons[i], epsilons[i + 1])
    return RDPCurve(curve.orders, tuple(epsilons))
