"""Laws of aggregated noise the privatizers need beyond :mod:`dpverify.mechanisms.sampling`.

* :func:`distributed_discrete_gaussian_zcdp` — the zCDP of a sum of ``n`` i.i.d.
  discrete Gaussians (Kairouz, Liu & Steinke 2021, Prop. 13; Chowdhury & Zhou 2023, Lemma 4),
  which is **not** a discrete Gaussian.
* :func:`simulation_discrete_gaussian_sum` — simulation only: the sum of ``n``
  i.i.d. discrete Gaussians drawn from its pmf computed by FFT (float64).
* :func:`simulation_discrete_laplace_sum` — simulation only: the sum of ``n``
  i.i.d. discrete Laplace variables, ``NB(n, 1−β) − NB(n, 1−β)`` (numpy's float
  negative-binomial sampler).
* :func:`discrete_laplace_subexponential` — explicit sub-exponential constants
  of ``Lap_Z(b)`` from its moment generating function, replacing the unknown
  absolute constant ``c`` of Chowdhury & Zhou's Lemma 5, which the paper leaves unspecified.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import mpmath
import numpy as np

from dpverify._numeric import round_up, working_precision
from dpverify._validation import check_positive, check_positive_int, value_error
from dpverify.guarantees import ZCDP

__all__ = [
    "distributed_discrete_gaussian_epsilon",
    "distributed_discrete_gaussian_zcdp",
    "simulation_discrete_gaussian_sum",
    "simulation_discrete_laplace_sum",
    "discrete_laplace_subexponential",
]

_EXACT_TERMS = 2_000


def _xi_upper(sigma: float, users: int) -> mpmath.mpf:
    """Upper bound on ``ξ = 10 Σ_{k=1}^{n−1} exp(−2π²σ² k/(k+1))``.

    With c = 2π²σ², the terms are ``e^{−c} e^{c/(k+1)}``. The first
    :data:`_EXACT_TERMS` are summed in float64 (relative error below 1e-12,
    added back); for the rest ``e^x <= 1 + x e^x`` and
    ``Σ_{k=K+1}^{n−1} 1/(k+1) <= log(n/(K+1))`` give
    ``e^{−c}[(n − 1 − K) + c e^{c/(K+2)} log(n/(K+1))]``.
    """
    c = 2 * math.pi ** 2 * sigma ** 2
    exact = min(users - 1, _EXACT_TERMS)
    ks = np.arange(1, exact + 1, dtype=float)
    head = mpmath.mpf(float(np.exp(-c * ks / (ks + 1)).sum())) * (1 + mpmath.mpf(1e-12))
    rest = users - 1 - exact
    tail = mpmath.mpf(0)
    if rest > 0:
        cm = mpmath.mpf(c)
        tail = mpmath.exp(-cm) * (rest + cm * mpmath.exp(cm / (exact + 2))
                                  * mpmath.log(mpmath.mpf(users) / (exact + 1)))
    return 10 * (head + tail)


def distributed_discrete_gaussian_epsilon(sigma: float, users: int, *, sensitivity: int) -> float:
    """ε̂ such that adding ``Σ_{i≤n} N_Z(0, σ²)`` to a Δ-sensitive query is ½ε̂²-CDP.

    Kairouz, Liu & Steinke 2021, Prop. 13 (Chowdhury & Zhou 2023, Lemma 4,
    reconstructed [R]), for per-user σ >= 1/2:

    .. math::

        \\hat ε = \\min\\Big\\{\\sqrt{\\tfrac{Δ^2}{nσ^2} + 2ξ},\\; \\tfrac{Δ}{\\sqrt n σ} + ξ\\Big\\},
        \\qquad ξ = 10\\sum_{k=1}^{n-1} e^{-2π^2σ^2 k/(k+1)}

    with the actual n (Chowdhury & Zhou's Thm 4 bounds n <= T/2 instead).
    **Soundness**: upper bound (ξ bounded above, mpmath, rounded up).

    >>> round(distributed_discrete_gaussian_epsilon(1.0, 1, sensitivity=1), 12)
    1.0
    >>> distributed_discrete_gaussian_epsilon(1.0, 10**6, sensitivity=1000) > 1.0
    True
    """
    sigma = check_positive(sigma, "sigma")
    if sigma < 0.5:
        raise value_error("sigma", sigma, ">= 1/2", "Prop. 13 of Kairouz et al. needs sigma >= 1/2")
    users = check_positive_int(users, "users")
    sensitivity = check_positive_int(sensitivity, "sensitivity")
    with working_precision():
        xi = _xi_upper(sigma, users)
        ratio = mpmath.mpf(sensitivity) / (mpmath.sqrt(users) * mpmath.mpf(sigma))
        value = min(mpmath.sqrt(ratio ** 2 + 2 * xi), ratio + xi)
    return round_up(value, relative_error=1e-40)


def distributed_discrete_gaussian_zcdp(sigma: float, users: int, *, sensitivity: int) -> ZCDP:
    """``ZCDP(ρ = ε̂²/2)`` of :func:`distributed_discrete_gaussian_epsilon` (rounded up).

    >>> distributed_discrete_gaussian_zcdp(1.0, 1, sensitivity=1).rho
    0.5000000000000003
    """
    epsilon = distributed_discrete_gaussian_epsilon(sigma, users, sensitivity=sensitivity)
    return ZCDP(round_up(mpmath.mpf(epsilon) ** 2 / 2, relative_error=1e-40))


@functools.lru_cache(maxsize=64)
def _discrete_gaussian_sum_cdf(sigma: float, users: int) -> tuple[np.ndarray, int]:
    """CDF of ``Σ_{i≤n} N_Z(0, σ²)`` on ``[−W, W]`` by FFT (characteristic function to the n-th power)."""
    single = int(math.ceil(12 * sigma)) + 1
    ks = np.arange(-single, single + 1)
    pmf = np.exp(-ks.astype(float) ** 2 / (2 * sigma * sigma))
    pmf /= pmf.sum()
    width = int(math.ceil(12 * sigma * math.sqrt(users))) + single
    size = 1 << int(math.ceil(math.log2(2 * width + 1)))
    grid = np.zeros(size)
    grid[ks % size] = pmf
    characteristic = np.fft.rfft(grid).real  # symmetric pmf: real, and positive (a theta function)
    total = np.fft.irfft(np.clip(characteristic, 0.0, None) ** users, n=size)
    total = np.clip(np.concatenate([total[-width:], total[: width + 1]]), 0.0, None)
    return np.cumsum(total / total.sum()), width


def simulation_discrete_gaussian_sum(sigma: float, users: int, *, rng: np.random.Generator,
                                     size: int | None = None) -> Any:
    """Simulation only: one draw of ``Σ_{i≤n} N_Z(0, σ²)`` from its FFT-computed pmf.

    The pmf of the sum is the n-th power of the discrete Gaussian's
    characteristic function, computed in float64 on a grid of ±12σ√n (the mass
    outside is below 1e-30); its float error (~1e-13 total variation) makes
    this a simulation sampler. The deployable route is the per-user exact
    sampler (:func:`dpverify.mechanisms.samplers.discrete_gaussian`).

    >>> simulation_discrete_gaussian_sum(2.0, 100, rng=np.random.default_rng(0))
    7
    """
    cdf, width = _discrete_gaussian_sum_cdf(float(sigma), int(users))
    if size is None:
        return int(np.searchsorted(cdf, rng.random() * cdf[-1], side="right")) - width
    return np.searchsorted(cdf, rng.random(size) * cdf[-1], side="right").astype(np.int64) - width


def simulation_discrete_laplace_sum(scale: float, users: int, *, rng: np.random.Generator,
                                    size: int | None = None) -> Any:
    """Simulation only: one draw of ``Σ_{i≤n} Lap_Z(scale)`` as ``NB(n, 1−β) − NB(n, 1−β)``.

    ``Lap_Z(b)`` is the difference of two i.i.d. geometric(β = e^{−1/b})
    variables and the sum of n geometrics is negative binomial (Chowdhury & Zhou 2023, Fact 1, Remark 7),
    so the law is exact; numpy's negative-binomial sampler uses floats
    (Gamma–Poisson), hence simulation only.

    >>> simulation_discrete_laplace_sum(3.0, 10, rng=np.random.default_rng(0))
    -9
    """
    success = -math.expm1(-1.0 / check_positive(scale, "scale"))  # 1 − β
    users = check_positive_int(users, "users")
    if size is None:
        first, second = rng.negative_binomial(users, success, size=2)
        return int(first) - int(second)
    both = rng.negative_binomial(users, success, size=(2, size))
    return both[0] - both[1]


def discrete_laplace_subexponential(scale: float) -> tuple[float, float]:
    """Explicit ``(ν², α)`` with ``E e^{λX} <= e^{λ²ν²/2}`` for ``|λ| <= 1/α``, ``X ~ Lap_Z(b)``.

    With α = 2b and β = e^{−1/b}, the log-MGF
    ``K(λ) = 2 log(1 − β) − log(1 − βe^λ) − log(1 − βe^{−λ})
    = Σ_k (2β^k/k)(cosh kλ − 1)`` has ``K(λ)/λ²`` increasing in |λ|, so
    ``ν² = 2α² K(1/α)`` works on the whole range. This replaces the unknown
    absolute constant c of Chowdhury & Zhou 2023, Lemma 5 (c = ν/b).
    **Soundness**: upper bound, mpmath, rounded up.

    >>> nu2, alpha = discrete_laplace_subexponential(10.0)
    >>> round(nu2 / 10.0 ** 2, 3), alpha
    (2.3, 20.0)
    """
    scale = check_positive(scale, "scale")
    with working_precision():
        b = mpmath.mpf(scale)
        beta, lam = mpmath.exp(-1 / b), 1 / (2 * b)
        log_mgf = (2 * mpmath.log1p(-beta) - mpmath.log1p(-beta * mpmath.exp(lam))
                   - mpmath.log1p(-beta * mpmath.exp(-lam)))
        nu2 = 2 * (2 * b) ** 2 * log_mgf
    return round_up(nu2, relative_error=1e-40), 2 * scale
