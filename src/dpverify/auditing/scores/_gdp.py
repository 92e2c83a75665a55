"""``method="gdp-model"``: the μ-GDP fit of Nasr et al. (2023), a **model-based** bound.

If the run is μ-GDP in the canary (Dong, Roth & Su 2022, Def. 2.5), every rule has
``TPR ≤ Φ(Φ⁻¹(FPR) + μ)``, so certified ``TPR_low`` and ``FPR_high`` give

.. math:: μ \\ge μ_{low} = Φ^{-1}(TPR_{low}) - Φ^{-1}(FPR_{high}),

and ε(δ) of μ-GDP (Balle & Wang 2018, Thm. 8:
``δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2)``) is increasing in μ, so
``ε_lb = ε_{μ_low}(δ)``. Valid **only if** the run's trade-off curve is exactly
Gaussian (the model), as :func:`~dpverify.auditing.model.audit_model`'s bounds;
labelled so in the report. Computed in mpmath; μ and ε rounded down.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
from scipy import special

from dpverify._numeric import bisect_passing, round_down, working_precision

__all__ = ["gdp_mu_lower", "gdp_epsilon_lower", "GDP_MODE"]

#: The report's ``mode`` for this method.
GDP_MODE = "model-based: Gaussian trade-off (mu-GDP fit, Nasr et al. 2023); valid only if the " \
           "run's trade-off curve is Gaussian"


def gdp_mu_lower(tpr_lower: np.ndarray, fpr_upper: np.ndarray) -> tuple[int, float]:
    """Index and value of the largest ``Φ⁻¹(TPR_low) − Φ⁻¹(FPR_high)`` (0 when none is positive)."""
    best, value = 0, 0.0
    with np.errstate(all="ignore"):
        plug_in = np.nan_to_num(special.ndtri(tpr_lower) - special.ndtri(fpr_upper), nan=-np.inf)
    leaders = np.argsort(-plug_in, kind="stable")[:5]  # exact evaluation of the leaders only
    with working_precision(50):
        for index in leaders.tolist():
            tpr, fpr = float(tpr_lower[index]), float(fpr_upper[index])
            if not (0.0 < tpr and fpr < 1.0 and tpr > fpr):
                continue
            if fpr <= 0.0 or tpr >= 1.0:
                return index, math.inf
            mu = mpmath.sqrt(2) * (mpmath.erfinv(2 * mpmath.mpf(tpr) - 1)
                                   - mpmath.erfinv(2 * mpmath.mpf(fpr) - 1))
            candidate = round_down(mu, relative_error=1e-30)
            if candidate > value:
                best, value = index, candidate
    return best, max(0.0, value)


def _gdp_delta(mu: mpmath.mpf, epsilon: mpmath.mpf) -> mpmath.mpf:
    return mpmath.ncdf(-epsilon / mu + mu / 2) - mpmath.exp(epsilon) * mpmath.ncdf(-epsilon / mu - mu / 2)


def gdp_epsilon_lower(mu: float, delta: float) -> float:
    """ε at ``delta`` of μ-GDP, rounded down (``delta > 0``; 0 for μ = 0, inf for μ = inf).

    >>> round(gdp_epsilon_lower(1.0, 1e-5), 3)
    4.377
    """
    if mu <= 0.0:
        return 0.0
    if math.isinf(mu):
        return math.inf
    with working_precision(50):
        above = lambda e: _gdp_delta(mpmath.mpf(mu), mpmath.mpf(e)) > delta * (1 + 1e-12)  # noqa: E731
        if not above(0.0):
            return 0.0
        high = 1.0
        while above(high):
            high *= 2
        return round_down(mpmath.mpf(bisect_passing(above, 0.0, high, rtol=1e-12)))
