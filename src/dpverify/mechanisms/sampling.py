"""Sampling a mechanism: law → sampler dispatch, and fast paths for sums over users.

:func:`sample` looks the mechanism's type up in a registry filled with
:func:`register_sampler` (like :mod:`~dpverify.mechanisms.privacy_maps`, never
an ``isinstance`` chain) and returns ``x + noise``. :func:`sample_aggregate`
returns the law of ``x_sum`` plus the sum of ``users`` independent noise draws,
drawing the sum directly where its law is known exactly, and
:func:`sample_users` is the user-by-user path it must agree with.

Deployable (exact, integer-only) draws: ``DiscreteLaplace``, ``DiscreteGaussian``,
``BinomialNoise``, and the sum of ``shares`` ``PolyaDifference(shares, scale)``
shares (= ``DiscreteLaplace(scale)``). Simulation only (floats inside):
``Laplace``, ``Gaussian``, ``Skellam`` and a single ``PolyaDifference`` share.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from fractions import Fraction
from typing import Any, TypeVar

import numpy as np

import dpverify.mechanisms.samplers as samplers
import dpverify.mechanisms.simulation as simulation
from dpverify._validation import (
    check_instance,
    check_positive_int,
    check_real_input,
    check_rng,
    limit_error,
    value_error,
)
from dpverify.errors import UnsupportedError
from dpverify.mechanisms.continuous import Gaussian, Laplace
from dpverify.mechanisms.discrete import (
    BinomialNoise,
    DiscreteGaussian,
    DiscreteLaplace,
    PolyaDifference,
    Skellam,
    _IntegerNoise,
)
from dpverify.mechanisms.randomized_response import BinaryRandomizedResponse, RandomizedResponse

__all__ = ["sample", "sample_aggregate", "sample_users", "register_sampler", "supported_samplers"]

SamplerFunction = Callable[..., Any]
F = TypeVar("F", bound=SamplerFunction)

_SAMPLERS: dict[type, SamplerFunction] = {}
_AGGREGATES: dict[type, Callable[..., Any]] = {}


def register_sampler(mechanism_type: type) -> Callable[[F], F]:
    """Decorator registering ``function(mechanism, x, *, rng, size)`` for a mechanism type.

    The function returns the mechanism's output on input ``x`` (``x`` broadcasts
    against ``size``). Registering a type twice is a programming error
    (``ValueError``), so a later definition never silently wins.
    """

    check_instance(mechanism_type, "mechanism_type", type, "a class")

    def decorator(function: F) -> F:
        if mechanism_type in _SAMPLERS:
            raise ValueError(f"a sampler for {mechanism_type.__name__} is already registered")
        _SAMPLERS[mechanism_type] = function
        return function

    return decorator


def _sampler_for(mechanism: Any) -> SamplerFunction:
    for klass in type(mechanism).__mro__:
        if klass in _SAMPLERS:
            return _SAMPLERS[klass]
    known = ", ".join(sorted(t.__name__ for t in _SAMPLERS))
    raise UnsupportedError(f"no sampler for {type(mechanism).__name__}; "
                           f"mechanisms with samplers: {known}")


def _check_broadcast(x: Any, size: Any, name: str = "x") -> None:
    shape = samplers._shape(size)
    if np.ndim(x) and shape is not None:
        try:
            np.broadcast_shapes(np.shape(x), shape)
        except ValueError:
            raise value_error(name, x, f"a scalar or an array broadcasting against size={size}"
                              ) from None


def supported_samplers() -> tuple[type, ...]:
    """Mechanism types :func:`sample` can draw from."""
    return tuple(_SAMPLERS)


def _check_query(x: Any, name: str, mechanism: Any) -> None:
    """A finite real query answer; an integral one for integer noise (its output is x + noise)."""
    check_real_input(x, name)
    if isinstance(mechanism, _IntegerNoise) and not isinstance(x, numbers.Integral):
        values = np.asarray(x, dtype=float)
        if not np.all(values == np.floor(values)):
            raise value_error(name, x, "integral for integer noise",
                              f"{type(mechanism).__name__} adds integers; round the query first")


def sample(mechanism: Any, x: Any = 0, *, rng: np.random.Generator, size: Any = None) -> Any:
    """Draw the output of ``mechanism`` on input ``x``: ``x + noise`` for additive noise.

    Parameters
    ----------
    mechanism
        A mechanism value with a registered sampler (``DiscreteLaplace(scale=2)``, …).
    x
        The exact query answer (an integer for integer noise), or an array
        broadcasting against ``size``.
    rng
        The random generator.
    size
        ``None`` for one draw, else an int or a shape tuple.

    Raises
    ------
    UnsupportedError
        No sampler is registered for the mechanism's type (the message names those that are).

    Examples
    --------
    >>> rng = np.random.default_rng(12345)
    >>> sample(DiscreteLaplace(scale=2.0), 10, rng=rng, size=4).tolist()
    [5, 10, 8, 10]
    """
    sampler = _sampler_for(mechanism)
    _check_query(x, "x", mechanism)
    _check_broadcast(x, size)
    return sampler(mechanism, x, rng=check_rng(rng), size=size)


def sample_users(mechanism: Any, x: Any = 0, *, users: int, rng: np.random.Generator,
                 size: Any = None) -> np.ndarray:
    """Each of ``users`` users' output, drawn independently: shape ``(users, *size)``.

    ``x`` is one value for every user or a length-``users`` sequence of per-user
    inputs. Summing over axis 0 is the user-by-user path of :func:`sample_aggregate`.

    Examples
    --------
    >>> rng = np.random.default_rng(12345)
    >>> sample_users(DiscreteLaplace(scale=2.0), [1, 2, 3], users=3, rng=rng, size=2).shape
    (3, 2)
    """
    users = check_positive_int(users, "users")
    _check_query(x, "x", mechanism)
    rng = check_rng(rng)
    shape = samplers._shape(size)
    shape = () if shape is None else shape
    if users * math.prod(shape) > samplers.MAX_DRAWS:
        raise limit_error("users", users, samplers.MAX_DRAWS // max(1, math.prod(shape)),
                          "users × size draws are held in memory at once; draw in chunks, "
                          "or call sample_aggregate (exact one-step laws where known)")
    inputs = np.asarray(x)
    if inputs.ndim:
        if inputs.shape != (users,):
            raise value_error("x", x, f"a scalar or a sequence of length users={users}")
        inputs = inputs.reshape((users,) + (1,) * len(shape))
    return np.asarray(sample(mechanism, inputs, rng=rng, size=(users, *shape)))


def sample_aggregate(mechanism: Any, x_sum: Any = 0, *, users: int, rng: np.random.Generator,
                     size: Any = None) -> Any:
    """Draw ``x_sum`` plus the sum of ``users`` independent noise draws of ``mechanism``.

    Where the law of the sum is known exactly it is drawn in one step:

    .. math::

        \\sum_{i=1}^{n} \\mathrm{PolyaDiff}_i(n, b) = \\mathrm{Lap}_\\mathbb{Z}(b)
        \\;(\\text{only for } n = \\text{shares}),\\quad
        \\sum_{i=1}^{n} \\mathrm{Sk}(μ) = \\mathrm{Sk}(nμ),\\quad
        \\sum_{i=1}^{n} \\mathrm{Bin}(N, p) = \\mathrm{Bin}(nN, p),\\quad
        \\sum_{i=1}^{n} N(0, σ^2) = N(0, nσ^2),\\quad
        \\sum_{i=1}^{n} \\mathrm{Lap}(b) = Γ(n, b) − Γ(n, b)

    (Goryczka & Xiong 2015, Thm 5.1 / Chowdhury & Zhou 2023, Fact 1 and Thm 1).
    The Pólya sum is then drawn with the exact :func:`~samplers.discrete_laplace`.
    Otherwise (discrete Laplace, discrete Gaussian — whose sum is *not* discrete
    Gaussian — Pólya shares with ``users != shares``) it sums
    :func:`sample_users`.

    Examples
    --------
    >>> rng = np.random.default_rng(12345)
    >>> sample_aggregate(PolyaDifference(shares=64, scale=8.0), 100, users=64, rng=rng,
    ...                  size=3).tolist()
    [121, 83, 101]
    """
    users = check_positive_int(users, "users")
    _check_query(x_sum, "x_sum", mechanism)
    _check_broadcast(x_sum, size, "x_sum")
    rng = check_rng(rng)
    shape = samplers._shape(size)
    _sampler_for(mechanism)  # unsupported types fail here, naming the supported ones
    for klass in type(mechanism).__mro__:
        if klass in _AGGREGATES:
            noise = _AGGREGATES[klass](mechanism, users=users, rng=rng, size=size)
            if noise is not None:
                return x_sum + noise
            break
    total = sample_users(mechanism, 0, users=users, rng=rng, size=size).sum(axis=0)
    return x_sum + (total.item() if shape is None else total)


def _aggregate(mechanism_type: type) -> Callable[[F], F]:
    def decorator(function: F) -> F:
        _AGGREGATES[mechanism_type] = function
        return function

    return decorator


# ----------------------------------------------------------------------------- registrations

@register_sampler(DiscreteLaplace)
def _sample_discrete_laplace(mechanism: DiscreteLaplace, x: Any, *, rng: np.random.Generator,
                             size: Any = None) -> Any:
    return x + samplers.discrete_laplace(mechanism.scale, rng=rng, size=size)


@register_sampler(DiscreteGaussian)
def _sample_discrete_gaussian(mechanism: DiscreteGaussian, x: Any, *,
                              rng: np.random.Generator, size: Any = None) -> Any:
    return x + samplers.discrete_gaussian(mechanism.sigma, rng=rng, size=size)


@register_sampler(Skellam)
def _sample_skellam(mechanism: Skellam, x: Any, *, rng: np.random.Generator,
                    size: Any = None) -> Any:
    return x + simulation.simulation_skellam(mechanism.mu, rng=rng, size=size)


@register_sampler(PolyaDifference)
def _sample_polya_difference(mechanism: PolyaDifference, x: Any, *,
                             rng: np.random.Generator, size: Any = None) -> Any:
    return x + simulation.simulation_polya_difference(mechanism.shares, mechanism.scale,
                                                    rng=rng, size=size)


@register_sampler(BinomialNoise)
def _sample_binomial_noise(mechanism: BinomialNoise, x: Any, *, rng: np.random.Generator,
                           size: Any = None) -> Any:
    return x + _centred_binomial(mechanism.trials, mechanism.probability, rng=rng, size=size)


def _centred_binomial(trials: int, probability: float, *, rng: np.random.Generator,
                      size: Any) -> Any:
    """Bin(trials, p) − trials·p: integers when trials·p is an integer, else floats."""
    draws = samplers.binomial(trials, probability, rng=rng, size=size)
    mean = trials * Fraction(probability)
    return draws - (int(mean) if mean.denominator == 1 else float(mean))


@register_sampler(Laplace)
def _sample_laplace(mechanism: Laplace, x: Any, *, rng: np.random.Generator,
                    size: Any = None) -> Any:
    return x + simulation.simulation_laplace(mechanism.scale, rng=rng, size=size)


@register_sampler(Gaussian)
def _sample_gaussian(mechanism: Gaussian, x: Any, *, rng: np.random.Generator,
                     size: Any = None) -> Any:
    return x + simulation.simulation_gaussian(mechanism.sigma, rng=rng, size=size)


@_aggregate(PolyaDifference)
def _sum_polya_differences(mechanism: PolyaDifference, *, users: int,
                           rng: np.random.Generator, size: Any) -> Any:
    if users != mechanism.shares:  # the sum is discrete Laplace only over all `shares` users
        return None
    return samplers.discrete_laplace(mechanism.scale, rng=rng, size=size)


@_aggregate(Skellam)
def _sum_skellams(mechanism: Skellam, *, users: int, rng: np.random.Generator,
                  size: Any) -> Any:
    return simulation.simulation_skellam(users * mechanism.mu, rng=rng, size=size)


@_aggregate(BinomialNoise)
def _sum_binomials(mechanism: BinomialNoise, *, users: int, rng: np.random.Generator,
                   size: Any) -> Any:
    return _centred_binomial(users * mechanism.trials, mechanism.probability, rng=rng,
                             size=size)


@_aggregate(Gaussian)
def _sum_gaussians(mechanism: Gaussian, *, users: int, rng: np.random.Generator,
                   size: Any) -> Any:
    return simulation.simulation_gaussian(mechanism.sigma * math.sqrt(users), rng=rng, size=size)


@_aggregate(Laplace)
def _sum_laplaces(mechanism: Laplace, *, users: int, rng: np.random.Generator,
                  size: Any) -> Any:
    return simulation.simulation_laplace_sum(mechanism.scale, users, rng=rng, size=size)


@register_sampler(BinaryRandomizedResponse)
def _binary_randomized_response(mechanism: BinaryRandomizedResponse, x: Any, *,
                                rng: np.random.Generator, size: Any) -> Any:
    """Exact (integer-only) binary randomized response, bit by bit."""
    return mechanism.simulate(x, rng=rng, size=size)


@register_sampler(RandomizedResponse)
def _randomized_response(mechanism: RandomizedResponse, x: Any, *, rng: np.random.Generator,
                         size: Any) -> Any:
    """Simulation only: k-ary randomized response (its probabilities involve e^ε)."""
    return mechanism.simulate(x, rng=rng, size=size)
