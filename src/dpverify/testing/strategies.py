"""Hypothesis strategies for privacy code: parameters, guarantees, neighbouring inputs, mechanisms.

Every function returns a :class:`hypothesis.strategies.SearchStrategy`, takes
its bounds as keyword-only arguments, validates them **eagerly** (a bad bound
raises ``ValueError``/``TypeError`` naming the argument when the function is
called, not when the strategy is first drawn from), and says in its docstring
how its examples shrink.

Importing this module registers a strategy for every guarantee type
(:class:`~dpverify.guarantees.PureDP`, ``ApproxDP``, ``ZCDP``, ``RDPCurve``,
``PrivacyProfile``, ``EpsilonBounds``) with
:func:`hypothesis.strategies.register_type_strategy`, so ``st.from_type(ApproxDP)``
and ``st.builds`` on functions annotated with them draw valid values. The
pytest plugin imports this module for you in runs that use hypothesis and
dpverify.

>>> from hypothesis import given
>>> @given(neighbouring_datasets(st.integers(0, 1), max_size=5))
... def test_counts_differ_by_at_most_one(pair):
...     x, x_prime = pair
...     assert abs(sum(x) - sum(x_prime)) <= 1
>>> test_counts_differ_by_at_most_one()
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from hypothesis import strategies as st

from dpverify._validation import (
    check_delta,
    check_epsilon,
    check_finite,
    check_positive,
    value_error,
)
from dpverify.errors import DpverifyTypeError
from dpverify.guarantees import ZCDP, ApproxDP, EpsilonBounds, PrivacyProfile, PureDP, RDPCurve
from dpverify.testing._neighbouring_strategies import (
    bounded_vectors,
    neighbouring_bounded_vectors,
    neighbouring_datasets,
    neighbouring_query_vectors,
    neighbouring_reward_streams,
)

__all__ = [
    "epsilons",
    "deltas",
    "orders",
    "sensitivities",
    "guarantees",
    "neighbouring_datasets",
    "neighbouring_reward_streams",
    "bounded_vectors",
    "neighbouring_bounded_vectors",
    "neighbouring_query_vectors",
    "mechanisms",
    "register_type_strategies",
    "GUARANTEE_TYPES",
    "MECHANISM_TYPES",
    "SMALLEST_POSITIVE_DELTA",
]

#: The positive δ closest to zero that :func:`deltas` draws when ``min_value=0``.
SMALLEST_POSITIVE_DELTA = 1e-12


def _check_range(min_value: float, max_value: float, *, name: str = "max_value") -> None:
    if not max_value >= min_value:
        raise value_error(name, max_value, f">= min_value={min_value!r}")


# --------------------------------------------------------------------------- parameters


def epsilons(*, min_value: float = 0.0, max_value: float = 10.0) -> st.SearchStrategy[float]:
    """Privacy parameters ε in ``[min_value, max_value]`` (finite, never NaN).

    Shrinks like :func:`hypothesis.strategies.floats`: towards ``min_value``
    or the simplest (integral, small) value in the range — ``0.0`` with the
    defaults.

    >>> from hypothesis import find
    >>> find(epsilons(min_value=0.5), lambda e: e > 2)
    3.0
    """
    min_value = check_epsilon(min_value, "min_value")
    max_value = check_epsilon(max_value, "max_value")
    _check_range(min_value, max_value)
    return st.floats(min_value, max_value, allow_nan=False, allow_infinity=False)


@st.composite
def _log_uniform(draw: Any, low: float, high: float) -> float:
    """``10**t`` for ``t`` uniform on ``[log10 low, log10 high]``, shrinking ``t`` to the low end."""
    span = math.log10(high) - math.log10(low)
    t = draw(st.floats(0.0, span, allow_nan=False, allow_infinity=False))
    return float(min(high, max(low, low * 10.0 ** t)))


def deltas(*, min_value: float = 0.0, max_value: float = 0.1) -> st.SearchStrategy[float]:
    """Failure probabilities δ in ``[min_value, max_value]``, on a logarithmic scale.

    Positive values are log-uniform, so 1e-10 is drawn as often as 1e-2;
    with ``min_value=0`` the exact ``0.0`` (pure DP) is drawn too, and the
    positive values start at ``SMALLEST_POSITIVE_DELTA = 1e-12``.
    ``max_value`` must be below 1. Pass ``min_value > 0`` for functions that
    need δ > 0.

    Shrinks towards ``min_value`` (``0.0`` with the defaults, then the
    smallest positive δ).

    >>> from hypothesis import find
    >>> find(deltas(), lambda d: d > 0) == SMALLEST_POSITIVE_DELTA
    True
    """
    min_value = check_delta(min_value, "min_value")
    max_value = check_delta(max_value, "max_value")
    _check_range(min_value, max_value)
    if max_value == 0:
        return st.just(0.0)
    low = min_value if min_value > 0 else min(SMALLEST_POSITIVE_DELTA, max_value)
    positive = _log_uniform(low, max_value)
    return st.one_of(st.just(0.0), positive) if min_value == 0 else positive


def orders(*, min_value: float = 1.0, max_value: float = 256.0,
           integers: bool = False) -> st.SearchStrategy[float]:
    """Rényi orders α with ``min_value < α <= max_value`` (``α > 1`` always).

    ``integers=True`` draws integral orders (as floats), ``>= 2``, for
    formulas that hold only there. Shrinks towards the smallest (simplest)
    order in the range: ``2.0`` with the defaults.

    >>> from hypothesis import find
    >>> find(orders(), lambda a: a >= 2.5)
    3.0
    """
    min_value = check_finite(min_value, "min_value")
    if not min_value >= 1:
        raise value_error("min_value", min_value, ">= 1", "Rényi orders are > 1")
    max_value = check_finite(max_value, "max_value")
    if not max_value > min_value:
        raise value_error("max_value", max_value, f"> min_value={min_value!r}")
    if integers:
        low, high = max(2, math.floor(min_value) + 1), math.floor(max_value)
        if high < low:
            raise value_error("max_value", max_value, f"at least one integer order above "
                                                      f"min_value={min_value!r}")
        return st.integers(low, high).map(float)
    return st.floats(min_value, max_value, exclude_min=True, allow_nan=False)


def sensitivities(*, min_value: float = 0.0, max_value: float = 10.0,
                  integers: bool = False) -> st.SearchStrategy[float]:
    """Query sensitivities Δ with ``min_value < Δ <= max_value`` (``Δ > 0`` always).

    ``integers=True`` draws integral sensitivities ``>= 1`` (as ints), for
    integer-valued queries. Shrinks towards ``1`` when it is in range, else
    towards the simplest value near ``min_value``.

    >>> from hypothesis import find
    >>> find(sensitivities(), lambda s: s > 0)
    1.0
    """
    min_value = check_epsilon(min_value, "min_value")
    max_value = check_positive(max_value, "max_value")
    if not max_value > min_value:
        raise value_error("max_value", max_value, f"> min_value={min_value!r}")
    if integers:
        low, high = math.floor(min_value) + 1, math.floor(max_value)
        if high < low:
            raise value_error("max_value", max_value, f"at least one integer above "
                                                      f"min_value={min_value!r}")
        return st.integers(low, high)
    return st.floats(min_value, max_value, exclude_min=True, allow_nan=False)


# --------------------------------------------------------------------------- guarantees


@st.composite
def _rdp_curves(draw: Any, max_epsilon: float, max_order: float) -> RDPCurve:
    points = draw(st.lists(orders(max_value=max_order), min_size=1, max_size=8, unique=True))
    grid = tuple(sorted(points))
    steps = draw(st.lists(st.floats(0.0, max_epsilon / len(grid)), min_size=len(grid),
                          max_size=len(grid)))
    return RDPCurve(orders=grid, epsilons=tuple(float(v) for v in np.cumsum(steps)))


def _profile(kind: str, parameter: float, sensitivity: float) -> PrivacyProfile:
    from dpverify.mechanisms.continuous import (  # deferred: scipy.stats, unneeded at collection
        gaussian_privacy_profile,
        laplace_privacy_profile,
    )

    build = gaussian_privacy_profile if kind == "gaussian" else laplace_privacy_profile
    return build(parameter, sensitivity=sensitivity)


def _epsilon_bounds(max_epsilon: float) -> st.SearchStrategy[EpsilonBounds]:
    values = st.floats(0.0, max_epsilon)
    return st.tuples(values, values).map(lambda p: EpsilonBounds(min(p), max(p)))


GUARANTEE_TYPES = (PureDP, ApproxDP, ZCDP, RDPCurve, PrivacyProfile)


def guarantees(*, types: Sequence[type] | None = None, max_epsilon: float = 10.0,
               max_delta: float = 0.1, max_rho: float = 10.0) -> st.SearchStrategy[Any]:
    """Valid guarantee values of the given ``types`` (default: all five guarantee types).

    * ``PureDP(ε)``, ``ApproxDP(ε, δ)`` with ε from :func:`epsilons` and δ
      from :func:`deltas` (``0 < δ <= max_delta``);
    * ``ZCDP(ρ, ξ)`` with ``ρ <= max_rho``, ``ξ = 0`` or up to ``max_epsilon/4``;
    * ``RDPCurve`` on 1–8 orders in (1, 256], non-decreasing in the order
      (as every mechanism's Rényi curve is), values up to ``max_epsilon``;
    * ``PrivacyProfile``: the exact profile of a Gaussian (σ in [0.2, 20])
      or a Laplace (scale in [0.1, 20]) mechanism, sensitivity 1 to 4.

    Shrinks towards the first type listed (``PureDP`` by default) with its
    simplest parameters (ε = 0, smallest δ, ρ = 0, one order).

    >>> from hypothesis import find
    >>> find(guarantees(types=(ApproxDP,)), lambda g: g.epsilon >= 1)
    ApproxDP(epsilon=1.0, delta=1e-12)
    """
    if types is None:
        types = GUARANTEE_TYPES
    if isinstance(types, type) or isinstance(types, (str, bytes)) or not isinstance(types, Sequence):
        raise DpverifyTypeError(f"types={types!r} must be a sequence of guarantee types, "
                                f"e.g. (PureDP, ApproxDP)")
    if not types or any(t not in (*GUARANTEE_TYPES, EpsilonBounds) for t in types):
        raise value_error("types", types, "a non-empty sequence drawn from "
                                          "PureDP, ApproxDP, ZCDP, RDPCurve, PrivacyProfile")
    max_epsilon = check_epsilon(max_epsilon, "max_epsilon")
    max_delta = check_delta(max_delta, "max_delta", allow_zero=False)
    max_rho = check_epsilon(max_rho, "max_rho")
    eps = epsilons(max_value=max_epsilon)
    builders = {
        PureDP: lambda: st.builds(PureDP, eps),
        ApproxDP: lambda: st.builds(ApproxDP, eps, deltas(min_value=min(
            SMALLEST_POSITIVE_DELTA, max_delta), max_value=max_delta)),
        ZCDP: lambda: st.builds(ZCDP, st.floats(0.0, max_rho),
                                st.one_of(st.just(0.0), st.floats(0.0, max_epsilon / 4))),
        RDPCurve: lambda: _rdp_curves(max_epsilon, 256.0),
        PrivacyProfile: lambda: st.one_of(
            st.builds(_profile, st.just("gaussian"), st.floats(0.2, 20.0), st.floats(1.0, 4.0)),
            st.builds(_profile, st.just("laplace"), st.floats(0.1, 20.0), st.floats(1.0, 4.0))),
        EpsilonBounds: lambda: _epsilon_bounds(max_epsilon),
    }
    return st.one_of(*(builders[t]() for t in types))


def register_type_strategies() -> None:
    """``st.register_type_strategy`` for every guarantee type (done when this module is imported)."""
    for kind in (*GUARANTEE_TYPES, EpsilonBounds):
        st.register_type_strategy(kind, guarantees(types=(kind,)))


# --------------------------------------------------------------------------- neighbouring inputs
# (in dpverify.testing._neighbouring_strategies, re-exported above)


# --------------------------------------------------------------------------- mechanisms


def _mechanism_builders() -> dict[type, st.SearchStrategy[Any]]:
    import dpverify.mechanisms as m  # deferred: scipy.stats, unneeded at collection

    scales = st.floats(0.1, 10.0)
    return {
        m.Laplace: st.builds(m.Laplace, scale=scales),
        m.Gaussian: st.builds(m.Gaussian, sigma=scales),
        m.DiscreteLaplace: st.builds(m.DiscreteLaplace, scale=scales),
        m.DiscreteGaussian: st.builds(m.DiscreteGaussian, sigma=scales),
        m.Skellam: st.builds(m.Skellam, mu=st.floats(0.1, 50.0)),
        m.PolyaDifference: st.builds(m.PolyaDifference, shares=st.integers(1, 16), scale=scales),
        m.BinomialNoise: st.builds(m.BinomialNoise, trials=st.integers(1, 200),
                                   probability=st.floats(0.05, 0.95)),
        m.BinaryRandomizedResponse: st.builds(m.BinaryRandomizedResponse,
                                              randomization_probability=st.floats(0.01, 1.0)),
        m.RandomizedResponse: st.builds(m.RandomizedResponse, categories=st.integers(2, 16),
                                        epsilon=epsilons(max_value=5.0)),
    }


#: Names of the mechanism types :func:`mechanisms` draws, in its default order.
MECHANISM_TYPES = ("Laplace", "Gaussian", "DiscreteLaplace", "DiscreteGaussian", "Skellam",
                   "PolyaDifference", "BinomialNoise", "BinaryRandomizedResponse",
                   "RandomizedResponse")


def mechanisms(*, types: Sequence[type] | None = None) -> st.SearchStrategy[Any]:
    """Instances of dpverify's mechanisms with valid parameters.

    Parameter ranges: scales and σ in [0.1, 10], Skellam μ in [0.1, 50],
    Pólya shares 1–16, binomial trials 1–200 with p in [0.05, 0.95], binary
    RR randomization probability in [0.01, 1], k-ary RR with k in 2–16 and ε <= 5.
    ``types`` restricts the draw to some of the classes (see
    :data:`MECHANISM_TYPES`), e.g. ``mechanisms(types=(Laplace, Gaussian))``.

    Shrinks towards the first type listed (``Laplace`` by default) with
    simple parameters (``scale=1.0``).

    >>> from hypothesis import find
    >>> find(mechanisms(), lambda m: True)
    Laplace(scale=1.0)
    """
    builders = _mechanism_builders()
    if types is None:
        return st.one_of(*builders.values())
    if isinstance(types, type) or isinstance(types, (str, bytes)) or not isinstance(types, Sequence):
        raise DpverifyTypeError(f"types={types!r} must be a sequence of mechanism classes, "
                                f"e.g. (Laplace, Gaussian)")
    if not types or any(t not in builders for t in types):
        raise value_error("types", types, f"a non-empty sequence of {', '.join(MECHANISM_TYPES)}")
    return st.one_of(*(builders[t] for t in types))


register_type_strategies()
