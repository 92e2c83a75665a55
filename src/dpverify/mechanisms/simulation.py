"""Simulation only: floating-point samplers, labelled so (STYLE rule 6).

These use numpy's float generators (Poisson, Gamma, Laplace, normal); their
laws are only approximately the stated ones, so they are for simulations and
benchmarks, never for deployments. The deployable integer samplers are in
:mod:`dpverify.mechanisms.samplers`. A Pólya share has no exact sampler here,
but the *sum* over all ``shares`` users is discrete Laplace, which has one
(:func:`dpverify.mechanisms.samplers.discrete_laplace`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from dpverify._deprecation import renamed_parameters
from dpverify._validation import check_positive, check_positive_int, check_real, value_error
from dpverify.mechanisms.samplers import _check_rng, _count, _shape, _shaped

__all__ = [
    "simulation_skellam",
    "simulation_polya",
    "simulation_polya_difference",
    "simulation_laplace",
    "simulation_laplace_sum",
    "simulation_gaussian",
]


def simulation_skellam(mu: Any, *, rng: np.random.Generator, size: Any = None) -> Any:
    """Simulation only: Skellam(mu) as the difference of two numpy Poisson(mu) draws.

    The draws are integers, but numpy's Poisson sampler computes with floats
    (multiplication method below 10, PTRS transformed rejection above), so the
    law is only approximately Skellam; dpverify has no exact integer Poisson
    sampler, hence no deployable Skellam sampler.

    Examples
    --------
    >>> rng = np.random.default_rng(12345)
    >>> simulation_skellam(4.0, rng=rng, size=3).tolist()
    [1, 2, 2]
    """
    mu = check_positive(mu, "mu")
    rng, shape = _check_rng(rng), _shape(size)
    count = _count(shape)
    return _shaped(rng.poisson(mu, count) - rng.poisson(mu, count), shape)


@renamed_parameters(r="shape", beta="probability")
def simulation_polya(shape: Any, probability: Any, *, rng: np.random.Generator,
                     size: Any = None) -> Any:
    """Simulation only: Pólya(r, β) as Poisson(λ), λ ~ Gamma(shape r, **scale β/(1 − β)**).

    :math:`P[k] = \\frac{Γ(k + r)}{k!\\,Γ(r)} β^k (1 - β)^r` (negative binomial
    with real ``shape`` = r > 0 and success probability 1 − β, β = ``probability``
    in (0, 1)); Chowdhury & Zhou 2023, footnote 3.
    The authors' public code uses scale (1 − β)/β, the inverse of footnote 3,
    which is wrong. Float Gamma and Poisson: simulation only.

    Examples
    --------
    >>> rng = np.random.default_rng(12345)
    >>> simulation_polya(1.0, 0.5, rng=rng, size=3).tolist()
    [0, 0, 5]
    """
    r = check_positive(shape, "shape")
    beta = check_real(probability, "probability")
    if not 0 < beta < 1:
        raise value_error("probability", beta, "in (0, 1)")
    rng, shape = _check_rng(rng), _shape(size)
    count = _count(shape)
    rates = rng.gamma(r, beta / (1 - beta), size=count)
    return _shaped(rng.poisson(rates), shape)


def simulation_polya_difference(shares: Any, scale: Any, *, rng: np.random.Generator,
                                size: Any = None) -> Any:
    """Simulation only: one user's share γ⁺ − γ⁻ of distributed discrete Laplace noise.

    γ± i.i.d. Pólya(1/``shares``, exp(−1/``scale``)) (:func:`simulation_polya`);
    the sum of ``shares`` i.i.d. shares is discrete Laplace(``scale``)
    (Goryczka & Xiong 2015, Thm 5.1; Chowdhury & Zhou 2023, Thm 1). For that sum, the exact
    deployable route is :func:`discrete_laplace` (``sampling.sample_aggregate``).

    Examples
    --------
    >>> rng = np.random.default_rng(12345)
    >>> simulation_polya_difference(4, 8.0, rng=rng, size=3).tolist()
    [0, 0, 1]
    """
    shares = check_positive_int(shares, "shares")
    scale = check_positive(scale, "scale")
    rng, shape = _check_rng(rng), _shape(size)
    beta = math.exp(-1 / scale)
    count = (2,) + ((1,) if shape is None else shape)
    both = simulation_polya(1 / shares, beta, rng=rng, size=count)
    difference = both[0] - both[1]
    return difference.reshape(-1)[0].item() if shape is None else difference


def simulation_laplace(scale: Any, *, rng: np.random.Generator, size: Any = None) -> Any:
    """Simulation only: float Laplace(0, scale) draws from numpy (not for deployment).

    Examples
    --------
    >>> rng = np.random.default_rng(12345)
    >>> simulation_laplace(1.0, rng=rng, size=2).round(3).tolist()
    [-0.788, -0.456]
    """
    scale = check_positive(scale, "scale")
    rng, shape = _check_rng(rng), _shape(size)
    return _shaped(rng.laplace(0.0, scale, _count(shape)), shape)


def simulation_laplace_sum(scale: Any, terms: int, *, rng: np.random.Generator,
                           size: Any = None) -> Any:
    """Simulation only: the sum of ``terms`` Laplace(0, scale) draws, from its exact law.

    Lap(b) = Exp(b) − Exp(b) and a sum of n independent Exp(b) is Γ(n, b), so
    the sum is Γ(n, b) − Γ(n, b): two draws however large n is.

    Examples
    --------
    >>> draws = simulation_laplace_sum(1.0, 50, rng=np.random.default_rng(1), size=100_000)
    >>> bool(abs(draws.var() / (2 * 50) - 1) < 0.02)  # variance n · 2b²
    True
    """
    scale = check_positive(scale, "scale")
    terms = check_positive_int(terms, "terms")
    rng, shape = _check_rng(rng), _shape(size)
    count = _count(shape)
    return _shaped(rng.gamma(terms, scale, count) - rng.gamma(terms, scale, count), shape)


def simulation_gaussian(sigma: Any, *, rng: np.random.Generator, size: Any = None) -> Any:
    """Simulation only: float N(0, sigma²) draws from numpy (not for deployment).

    Examples
    --------
    >>> rng = np.random.default_rng(12345)
    >>> simulation_gaussian(1.0, rng=rng, size=2).round(3).tolist()
    [-1.424, 1.264]
    """
    sigma = check_positive(sigma, "sigma")
    rng, shape = _check_rng(rng), _shape(size)
    return _shaped(rng.normal(0.0, sigma, _count(shape)), shape)
