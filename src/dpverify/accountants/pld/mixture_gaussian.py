"""PLD of the mixture-of-Gaussians mechanism (a Gaussian whose sensitivity is random), add/remove.

The query's change on the removed record is ``c_i >= 0`` with probability
``p_i`` (for example DP-SGD with per-example sensitivities, or Poisson
sampling folded in as ``c = 0`` w.p. ``1 − q``), plus ``N(0, σ²)`` noise; as
dp_accounting's ``MixtureGaussianPrivacyLoss``. Pair (remove direction)::

    P = Σ_i p_i N(c_i, σ²),   Q = N(0, σ²),

and the add direction is the pair swapped. The likelihood ratio
``r(y) = Σ_i p_i e^{(c_i y − c_i²/2)/σ²}`` increases in y, so the output line
is cut into bins whose ratio lies in ``[r(y_j), r(y_{j+1})]``; each bin's P-
and Q-mass (exact through Φ in mpmath) is split between two outcomes of ratio
exactly ``r(y_j)`` and ``r(y_{j+1})`` (connect-the-dots in the ratio: the bin is
a garbling of that two-outcome experiment), the lower tail uses
``r(−∞) = Σ_{c_i = 0} p_i`` and the upper tail puts its excess P-mass at ratio
``∞``. The finite pair dominates the true one at every α (post-processing),
so the PLD built from it is an upper bound.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import mpmath

from dpverify._numeric import working_precision
from dpverify._validation import check_int_at_least, check_nonnegative, check_positive, value_error
from dpverify.accountants.pld._constructors import DEFAULT_TAIL_MASS_TRUNCATION
from dpverify.accountants.pld.distribution import PrivacyLossDistribution
from dpverify.accountants.pld.subsampling import loss_grid_interval, pair_loss_grid, pair_loss_spread

__all__ = ["mixture_gaussian_pld"]

#: Largest ``max(c_i)/σ`` accepted (losses up to about ``(c/σ)²/2``; measured: fast to 1e50,
#: seconds and an infinite ε at 1e80).
MAX_SENSITIVITY_TO_SIGMA = 1e50
#: Most bins of :func:`mixture_gaussian_pld`'s pair (mpmath work per bin: ~5 ms, seconds at 2048).
MAX_BINS = 4096


def _split(p_mass, q_mass, low_ratio, high_ratio):
    """Masses ``((a, a/high), (c, c/low))``, ``a + c = p``, ``a/high + c/low = q`` (``high`` may be inf)."""
    if mpmath.isinf(high_ratio):
        c = q_mass * low_ratio if low_ratio > 0 else mpmath.mpf(0)
        c = min(c, p_mass)
        return (p_mass - c, mpmath.mpf(0)), (c, q_mass if low_ratio == 0 else c / low_ratio)
    if high_ratio == low_ratio:
        return (p_mass, q_mass), (mpmath.mpf(0), mpmath.mpf(0))
    a = (q_mass - p_mass / low_ratio) / (1 / high_ratio - 1 / low_ratio) if low_ratio > 0 else p_mass
    a = min(max(a, mpmath.mpf(0)), p_mass)
    upper = (a, a / high_ratio)
    c = p_mass - a
    lower = (c, q_mass - a / high_ratio) if low_ratio == 0 else (c, c / low_ratio)
    return upper, lower


def mixture_gaussian_pair(sigma: float, sensitivities: Sequence[float], probabilities: Sequence[float],
                          *, bins: int = 2048) -> tuple[list, list]:
    """A finite pair dominating ``(Σ p_i N(c_i, σ²), N(0, σ²))`` at every α (module docstring)."""
    with working_precision():
        s = mpmath.mpf(sigma)
        cs = [mpmath.mpf(c) for c in sensitivities]
        ps = [mpmath.mpf(p) for p in probabilities]
        total = mpmath.fsum(ps)  # floats summing to 1 within 1e-12: the mixture they describe
        ps = [p / total for p in ps]
        low_y, high_y = -12 * s, max(cs) + 12 * s
        edges = [low_y + (high_y - low_y) * j / bins for j in range(bins + 1)]

        def ratio(y):
            return mpmath.fsum(p * mpmath.exp((c * y - c * c / 2) / (s * s)) for p, c in zip(ps, cs))

        def p_cdf(y):
            return mpmath.fsum(p * mpmath.ncdf((y - c) / s) for p, c in zip(ps, cs))

        ratios = [ratio(y) for y in edges]
        p_cdfs = [p_cdf(y) for y in edges]
        q_cdfs = [mpmath.ncdf(y / s) for y in edges]
        floor_ratio = mpmath.fsum(p for p, c in zip(ps, cs) if c == 0)
        # outcomes: one per edge ratio, plus ratio floor (lower tail) and ratio inf (upper tail)
        first = [mpmath.mpf(0)] * (bins + 3)
        second = [mpmath.mpf(0)] * (bins + 3)

        def add(index, masses):
            first[index] += masses[0]
            second[index] += masses[1]

        upper, lower = _split(p_cdfs[0], q_cdfs[0], floor_ratio, ratios[0])     # y < low_y
        add(1, upper)
        add(0, lower)
        for j in range(bins):
            upper, lower = _split(p_cdfs[j + 1] - p_cdfs[j], q_cdfs[j + 1] - q_cdfs[j], ratios[j],
                                  ratios[j + 1])
            add(j + 2, upper)
            add(j + 1, lower)
        # y > high_y, by survival functions: 1 − cdf would cancel to the working precision and lose
        # the ~1e-33 masses whose excess goes to ratio ∞ (it is all of δ at large ε)
        p_tail = mpmath.fsum(p * mpmath.ncdf((c - high_y) / s) for p, c in zip(ps, cs))
        upper, lower = _split(p_tail, mpmath.ncdf(-high_y / s), ratios[-1], mpmath.inf)
        add(bins + 2, upper)
        add(bins + 1, lower)
        return first, second


def mixture_gaussian_pld(sigma: float, sensitivities: Sequence[float], probabilities: Sequence[float],
                         *, bins: int = 2048, value_discretization_interval: float | None = None,
                         ) -> PrivacyLossDistribution:
    """PLD of ``N(0, σ²)`` added to a query whose sensitivity is ``c_i`` w.p. ``p_i`` (add/remove).

    Parameters
    ----------
    sigma
        Noise standard deviation, > 0.
    sensitivities, probabilities
        ``c_i >= 0`` and ``p_i >= 0`` summing to 1 (within 1e-12; renormalised
        upwards is not done: they must be a distribution).
    bins
        Bins of the output line in the finite dominating pair (module docstring).

    **Soundness.** Upper bound: the finite pair dominates at every α; it is
    computed in mpmath at 50 digits and discretised connect-the-dots with
    masses rounded up. Default spacing: the smaller of the largest finite loss / 1024 and the
    loss's standard deviation / 100 (no finer than the largest loss / 2^18).

    >>> pld = mixture_gaussian_pld(1.0, [0.0, 1.0], [0.99, 0.01])   # Poisson q = 0.01
    >>> round(pld.self_compose(100).epsilon_for_delta(1e-5), 2)
    0.72
    """
    sigma = check_positive(sigma, "sigma")
    bins = check_int_at_least(bins, "bins", 16, maximum=MAX_BINS,
                              instead="the pair is pessimistic at any number of bins: use fewer")
    for name, values in (("sensitivities", sensitivities), ("probabilities", probabilities)):
        if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
            raise value_error(name, values, "a sequence of numbers")
    cs = [check_nonnegative(c, "sensitivities") for c in sensitivities]
    ps = [check_nonnegative(p, "probabilities") for p in probabilities]
    if not cs or len(cs) != len(ps):
        raise value_error("probabilities", probabilities, f"as many as sensitivities ({len(cs)}), at least 1")
    if abs(math.fsum(ps) - 1) > 1e-12:
        raise value_error("probabilities", probabilities, "summing to 1")
    if max(cs) == 0:
        raise value_error("sensitivities", sensitivities, "not all 0")
    if max(cs) > MAX_SENSITIVITY_TO_SIGMA * sigma:
        raise value_error("sigma", sigma, f">= max(sensitivities)/{MAX_SENSITIVITY_TO_SIGMA:g} = "
                          f"{max(cs) / MAX_SENSITIVITY_TO_SIGMA:.3g}",
                          "a smaller σ puts privacy losses beyond (c/σ)²/2 = 5e99 (no "
                          "meaningful privacy), where the exact pair's mpmath arithmetic stalls")
    first, second = mixture_gaussian_pair(sigma, cs, ps, bins=bins)
    with working_precision():
        finite = [abs(mpmath.log(a / b)) for a, b in zip(first, second) if a > 0 and b > 0]
        largest = float(max(finite)) if finite else 1.0
    interval = loss_grid_interval(largest, value_discretization_interval, sensitivity=sensitivities,
                                  value=sigma, value_name="sigma", sensitivity_name="sensitivities",
                                  spread=pair_loss_spread(first, second))
    with working_precision():
        directions = (pair_loss_grid(first, second, interval), pair_loss_grid(second, first, interval))
    return PrivacyLossDistribution(directions, DEFAULT_TAIL_MASS_TRUNCATION)
