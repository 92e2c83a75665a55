"""Hypothesis strategies for neighbouring inputs: datasets, reward streams, bounded vectors, query answers.

Public through :mod:`dpverify.testing.strategies` (import them from there);
this module holds the "pairs of neighbouring inputs" idea so that the
strategies module stays one idea per file. Every strategy validates its
arguments eagerly and says how it shrinks.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from dpverify._deprecation import renamed_parameters
from dpverify._validation import (
    check_choice,
    check_finite,
    check_int_at_least,
    check_positive,
    check_positive_int,
    value_error,
)
from dpverify.errors import DpverifyTypeError
from dpverify.neighbouring import Neighbouring, query_vector_patterns

__all__ = ["neighbouring_datasets", "neighbouring_reward_streams", "bounded_vectors",
           "neighbouring_bounded_vectors", "neighbouring_query_vectors"]


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


@renamed_parameters(relation="neighbouring")
def neighbouring_datasets(elements: st.SearchStrategy[Any], *, min_size: int = 1,
                          max_size: int = 10,
                          neighbouring: Neighbouring | str = Neighbouring.REPLACE_ONE,
                          ) -> st.SearchStrategy[tuple]:
    """Pairs ``(x, x_prime)`` of lists of records that are neighbours under ``neighbouring``.

    Every pair satisfies :func:`dpverify.neighbouring.are_neighbours`.

    ``"replace-one"`` (the default; ``"replace-special"`` draws the same pairs)
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
    relation = Neighbouring.parse(neighbouring)
    if relation is not Neighbouring.ADD_REMOVE:
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


def _check_vector_arguments(dimension: Any, norm: Any, norm_bound: Any) -> tuple[int, int, float]:
    dimension = check_positive_int(dimension, "dimension")
    order = _NORMS[check_choice(norm, "norm", tuple(_NORMS))]
    return dimension, order, check_positive(norm_bound, "norm_bound")


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


@renamed_parameters(bound="norm_bound")
def bounded_vectors(dimension: int, *, norm: str = "l2",
                    norm_bound: float = 1.0) -> st.SearchStrategy[np.ndarray]:
    """Float vectors of shape ``(dimension,)`` with ℓ1 or ℓ2 norm at most ``norm_bound``.

    A direction with coordinates in [−1, 1] scaled to a radius drawn in
    ``[0, norm_bound]`` (the boundary ``norm_bound`` included), then stepped down by
    ulps if rounding pushed the norm past ``norm_bound`` — the inputs of the
    linear-bandit privatizers (feature vectors ``‖x‖ <= L``, rewards times
    features). Shrinks towards the zero vector.

    >>> from hypothesis import find
    >>> vector = find(bounded_vectors(2, norm="l1", norm_bound=2.0), lambda v: v[0] > 0)
    >>> bool(vector[0] > 0 and abs(vector).sum() <= 2.0)
    True
    """
    dimension, order, norm_bound = _check_vector_arguments(dimension, norm, norm_bound)
    return _bounded(dimension, order, norm_bound)


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


@renamed_parameters(bound="norm_bound")
def neighbouring_bounded_vectors(dimension: int, *, norm: str = "l2", norm_bound: float = 1.0,
                                 min_users: int = 1,
                                 max_users: int = 10) -> st.SearchStrategy[tuple]:
    """Pairs of ``(users, dimension)`` arrays, one vector per user, differing in one user's row.

    Every row has ℓ1/ℓ2 norm at most ``norm_bound`` (drawn as in
    :func:`bounded_vectors`); the pair are neighbours under replace-one,
    ``users`` in ``[min_users, max_users]``. Shrinks towards one user, zero
    rows and the changed user first.
    """
    dimension, order, norm_bound = _check_vector_arguments(dimension, norm, norm_bound)
    min_users = check_positive_int(min_users, "min_users")
    max_users = check_int_at_least(max_users, "max_users", min_users)
    return _vector_pairs(dimension, order, norm_bound, min_users, max_users)


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
    if not high >= low:
        raise value_error("max_value", high, f">= min_value={low!r}")
    patterns = [(p.x, p.x_prime) for p in query_vector_patterns(length, sensitivity=sensitivity,
                                                                 norm=norm)]
    return st.one_of(_query_pairs(length, sensitivity, norm, low, high),
                     st.sampled_from(patterns).map(lambda pair: (pair[0].copy(), pair[1].copy())))
