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
from hypothesis.extra import numpy as hnp

from dpverify._validation import (
    check_choice,
    check_delta,
    check_epsilon,
    check_finite,
    check_int_at_least,
    check_positive,
    check_positive_int,
    value_error,
)
from dpverify.errors import DpverifyTypeError
from dpverify.guarantees import ZCDP, ApproxDP, EpsilonBounds, PrivacyProfile, PureDP, RDPCurve
from dpverify.neighbouring import Neighbouring, query_vector_patterns

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
    from dpverify.mechanisms.continuous import gaussian_privacy_profile, laplace_privacy_profile

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


@st.composite
def _replace_pairs(draw: Any, elements: Any, min_size: int, max_size: int) -> tuple[list, list]:
    x = draw(st.lists(elements, min_size=min_size, max_size=max_size))
    position = draw(st.integers(0, len(x) - 1))
    x_prime = list(x)
    x_prime[position] = draw(elements)
    return x, x_prime


@st.composite
def _add_remove_pairs(draw: Any, elements: Any, min_size: int, max_size: int) -> tuple[list, list]:
    larger = draw(st.lists(elements, min_size=min_size + 1, max_size=max_size))
    position = draw(st.integers(0, len(larger) - 1))
    smaller = larger[:position] + larger[position + 1:]
    return (smaller, larger) if draw(st.booleans()) else (larger, smaller)


def neighbouring_datasets(elements: st.SearchStrategy[Any], *, min_size: int = 1,
                          max_size: int = 10,
                          relation: Neighbouring | str = "replace") -> st.SearchStrategy[tuple]:
    """Pairs ``(x, x_prime)`` of lists of records that are neighbours under ``relation``.

    Every pair satisfies :func:`dpverify.neighbouring.are_neighbours`.

    ``"replace"``
        ``x`` has ``min_size``–``max_size`` records (``min_size >= 1``);
        ``x_prime`` is ``x`` with the record at one position replaced by a
        fresh draw from ``elements`` (which may equal the old record: a pair
        at distance 0 is neighbouring too — filter if you need them to differ).
    ``"add-remove"``
        One dataset is the other with one record removed; both sizes lie in
        ``[min_size, max_size]`` (so ``max_size > min_size``); either side
        may be the larger.

    Shrinks towards short datasets of ``elements``' simplest records, the
    changed record at position 0, and (add-remove) ``x`` the larger one.

    >>> from hypothesis import find
    >>> find(neighbouring_datasets(st.integers(0, 9)), lambda p: p[0] != p[1])
    ([0], [1])
    """
    if not isinstance(elements, st.SearchStrategy):
        raise DpverifyTypeError(f"elements={elements!r} must be a hypothesis SearchStrategy "
                                f"of records, e.g. st.integers(0, 1)")
    relation = Neighbouring.parse(relation)
    if relation is Neighbouring.REPLACE:
        min_size = check_positive_int(min_size, "min_size")
        max_size = check_int_at_least(max_size, "max_size", min_size)
        return _replace_pairs(elements, min_size, max_size)
    min_size = check_int_at_least(min_size, "min_size", 0)
    max_size = check_int_at_least(max_size, "max_size", min_size + 1)
    return _add_remove_pairs(elements, min_size, max_size)


@st.composite
def _reward_pairs(draw: Any, horizon: int, kind: str) -> tuple[np.ndarray, np.ndarray]:
    if kind == "bernoulli":
        rewards = draw(hnp.arrays(np.float64, horizon, elements=st.sampled_from([0.0, 1.0])))
    else:
        rewards = draw(hnp.arrays(np.float64, horizon, elements=st.floats(0.0, 1.0)))
    user = draw(st.integers(0, horizon - 1))
    changed = rewards.copy()
    if kind == "bernoulli":
        changed[user] = 1.0 - rewards[user]
    else:
        old = float(rewards[user])
        changed[user] = draw(st.floats(0.0, 1.0).filter(lambda value: value != old))
    return rewards, changed


def neighbouring_reward_streams(horizon: int, *,
                                kind: str = "bernoulli") -> st.SearchStrategy[tuple]:
    """Pairs of reward streams (float arrays of length ``horizon``) differing in one user's reward.

    ``kind="bernoulli"``: rewards in {0, 1}, the chosen user's reward
    flipped; ``kind="unit-interval"``: rewards in [0, 1], the chosen user's
    reward replaced by a different value in [0, 1]. The two streams always
    differ in exactly one position (neighbours under replace-one, the
    relation of the bandit papers' user-level DP). Plain numpy arrays, so
    they feed any bandit privatizer without this module importing
    :mod:`dpverify.bandits`.

    Shrinks towards all-zero streams with the changed user first.

    >>> from hypothesis import find
    >>> find(neighbouring_reward_streams(3), lambda p: True)
    (array([0., 0., 0.]), array([1., 0., 0.]))
    """
    horizon = check_positive_int(horizon, "horizon")
    kind = check_choice(kind, "kind", ("bernoulli", "unit-interval"))
    return _reward_pairs(horizon, kind)


_NORMS = {"l1": 1, "l2": 2}


def _check_vector_arguments(dimension: Any, norm: Any, bound: Any) -> tuple[int, int, float]:
    dimension = check_positive_int(dimension, "dimension")
    order = _NORMS[check_choice(norm, "norm", tuple(_NORMS))]
    return dimension, order, check_positive(bound, "bound")


def _within(direction: np.ndarray, radius: float, order: int, bound: float) -> np.ndarray:
    """``direction`` scaled to norm ``radius <= bound``, shrunk past any rounding above ``bound``.

    The direction is first divided by its largest coordinate, so its norm is
    in ``[1, dimension]`` and no tiny direction overflows when scaled up.
    """
    peak = float(np.max(np.abs(direction)))
    if peak == 0.0:
        return np.zeros_like(direction)  # the zero vector (and no negative zeros)
    unit = direction / peak
    vector = unit * (radius / float(np.linalg.norm(unit, ord=order)))
    for _ in range(64):  # rounding overshoots by a few ulps at most
        if np.linalg.norm(vector, ord=order) <= bound:
            return vector
        vector = vector * (1.0 - 1e-15)
    return vector * 0.5  # pragma: no cover  (unreachable: the loop removes ~64e-15 relative)


@st.composite
def _bounded(draw: Any, dimension: int, order: int, bound: float) -> np.ndarray:
    direction = draw(hnp.arrays(np.float64, dimension, elements=st.floats(-1.0, 1.0)))
    radius = draw(st.floats(0.0, 1.0)) * bound
    return _within(direction, radius, order, bound)


def bounded_vectors(dimension: int, *, norm: str = "l2",
                    bound: float = 1.0) -> st.SearchStrategy[np.ndarray]:
    """Float vectors of shape ``(dimension,)`` with ℓ1 or ℓ2 norm at most ``bound``.

    A direction with coordinates in [−1, 1] scaled to a radius drawn in
    ``[0, bound]`` (the boundary ``bound`` included), then stepped down by
    ulps if rounding pushed the norm past ``bound`` — the inputs of the
    linear-bandit privatizers (feature vectors ``‖x‖ <= L``, rewards times
    features). Shrinks towards the zero vector.

    >>> from hypothesis import find
    >>> find(bounded_vectors(2, norm="l1", bound=2.0), lambda v: v[0] > 0)
    array([2., 0.])
    """
    dimension, order, bound = _check_vector_arguments(dimension, norm, bound)
    return _bounded(dimension, order, bound)


@st.composite
def _vector_pairs(draw: Any, dimension: int, order: int, bound: float, min_users: int,
                  max_users: int) -> tuple[np.ndarray, np.ndarray]:
    users = draw(st.integers(min_users, max_users))
    rows = draw(st.lists(_bounded(dimension, order, bound), min_size=users, max_size=users))
    data = np.stack(rows)
    user = draw(st.integers(0, users - 1))
    changed = data.copy()
    changed[user] = draw(_bounded(dimension, order, bound))
    return data, changed


def neighbouring_bounded_vectors(dimension: int, *, norm: str = "l2", bound: float = 1.0,
                                 min_users: int = 1,
                                 max_users: int = 10) -> st.SearchStrategy[tuple]:
    """Pairs of ``(users, dimension)`` arrays, one vector per user, differing in one user's row.

    Every row has ℓ1/ℓ2 norm at most ``bound`` (drawn as in
    :func:`bounded_vectors`); the pair are neighbours under replace-one,
    ``users`` in ``[min_users, max_users]``. Shrinks towards one user, zero
    rows and the changed user first.
    """
    dimension, order, bound = _check_vector_arguments(dimension, norm, bound)
    min_users = check_positive_int(min_users, "min_users")
    max_users = check_int_at_least(max_users, "max_users", min_users)
    return _vector_pairs(dimension, order, bound, min_users, max_users)


@st.composite
def _query_pairs(draw: Any, length: int, sensitivity: float, norm: str, low: float,
                 high: float) -> tuple[np.ndarray, np.ndarray]:
    base = draw(hnp.arrays(np.float64, length, elements=st.floats(low, high)))
    if norm == "linf":
        step = st.one_of(st.sampled_from([0.0, sensitivity, -sensitivity]),
                         st.floats(-sensitivity, sensitivity))
        change = draw(hnp.arrays(np.float64, length, elements=step))
    else:
        direction = draw(hnp.arrays(np.float64, length, elements=st.floats(-1.0, 1.0)))
        radius = draw(st.one_of(st.just(1.0), st.floats(0.0, 1.0))) * sensitivity
        change = _within(direction, radius, 1, sensitivity)
    return base, base + change


def neighbouring_query_vectors(length: int, *, sensitivity: float = 1.0, norm: str = "linf",
                               min_value: float = 0.0,
                               max_value: float | None = None) -> st.SearchStrategy[tuple]:
    """Pairs ``(q, q')`` of query-answer vectors of one neighbouring pair of datasets.

    Every answer moves by at most ``sensitivity`` (``norm="linf"``: each
    query has sensitivity ``s``, as for counting queries and sparse vector)
    or the total move is at most ``sensitivity`` (``norm="l1"``: a histogram's
    bins). Draws are either one of StatDP's patterns
    (:func:`dpverify.neighbouring.query_vector_patterns`: one above, half
    half, X shape, …) or a random base vector in ``[min_value, max_value]``
    (default ``[0, 2·sensitivity]``) with random moves — per coordinate ``0``,
    ``±s`` or any value in ``[−s, s]`` (ℓ∞), or a direction scaled to ℓ1 norm
    ``<= s``. Shrinks towards the random branch with a zero base and no move;
    with :func:`~dpverify.testing.assert_satisfies` (which calls
    ``hypothesis.target`` on the certified excess) the search climbs towards
    the pair that violates the claim the most.

    >>> from hypothesis import find
    >>> q, q_prime = find(neighbouring_query_vectors(3), lambda pair: pair[1][0] - pair[0][0] > 0.5)
    >>> float(q_prime[0] - q[0]) <= 1.0
    True
    """
    length = check_positive_int(length, "length")
    if length > 10_000:
        raise value_error("length", length, "<= 10000")
    sensitivity = check_positive(sensitivity, "sensitivity")
    norm = check_choice(norm, "norm", ("linf", "l1"))
    low = check_finite(min_value, "min_value")
    high = 2 * sensitivity + low if max_value is None else check_finite(max_value, "max_value")
    _check_range(low, high)
    patterns = [(p.x, p.x_prime) for p in query_vector_patterns(length, sensitivity=sensitivity,
                                                                 norm=norm)]
    return st.one_of(_query_pairs(length, sensitivity, norm, low, high),
                     st.sampled_from(patterns).map(lambda pair: (pair[0].copy(), pair[1].copy())))


# --------------------------------------------------------------------------- mechanisms


def _mechanism_builders() -> dict[type, st.SearchStrategy[Any]]:
    from dpverify import mechanisms as m

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
                                              flip_probability=st.floats(0.01, 1.0)),
        m.RandomizedResponse: st.builds(m.RandomizedResponse, k=st.integers(2, 16),
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
    RR flip probability in [0.01, 1], k-ary RR with k in 2–16 and ε <= 5.
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
