"""Finite-action linear bandit instances: Hanna et al. 2022 §6 and Li, Zhou & Ji 2022's distributed population (§7).

The same interface as the K-armed instances of :mod:`dpverify.bandits.environments`
(``n_arms``, ``reward_means``, ``best_arm``, ``gaps``, ``binary``,
``rewards``, ``reward_sum``): an "arm" is the index of an action in the
finite action set, so :func:`dpverify.bandits.simulate.simulate` runs them
unchanged; the linear algorithms additionally read the (public) ``actions``.

* :class:`LinearBandit` / :func:`sphere_instance` — Hanna et al.'s instances;
* :class:`DistributedLinearBandit` / :func:`dpdpe_instance` — DP-DPE's clients
  with θ_u = θ* + ξ_u, whose per-client averages are drawn from their exact law;
* :class:`LinearInstanceFamily` — a picklable ``rng → instance`` generator.
"""

from __future__ import annotations

import math
from dataclasses import KW_ONLY, dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpverify._deprecation import renamed_parameters, renamed_property
from dpverify._validation import (
    check_choice,
    check_positive,
    check_positive_int,
    value_error,
)
from dpverify.bandits.environments import _Bandit, _check_arm, _check_size

__all__ = [
    "LinearBandit",
    "DistributedLinearBandit",
    "LinearInstanceFamily",
    "sphere_instance",
    "dpdpe_instance",
    "LINEAR_INSTANCES",
]


def _unit_rows(rng: np.random.Generator, rows: int, d: int) -> NDArray[np.float64]:
    points = rng.normal(size=(rows, d))
    return points / np.linalg.norm(points, axis=1, keepdims=True)


def _check_linear(actions: Any, theta: Any) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    points = np.array(actions, dtype=float, copy=True)
    vector = np.array(theta, dtype=float, copy=True).reshape(-1)
    if points.ndim != 2 or points.shape[0] < 1 or not np.all(np.isfinite(points)) or np.any(
            np.linalg.norm(points, axis=1) > 1 + 1e-9):
        raise value_error("actions", f"<array of shape {points.shape}>",
                          "a non-empty (k, d) array of finite actions with norm <= 1")
    if vector.shape != (points.shape[1],) or not np.all(np.isfinite(vector)) or \
            np.linalg.norm(vector) > 1 + 1e-9:
        raise value_error("theta", f"<array of shape {vector.shape}>",
                          f"a finite vector of dimension {points.shape[1]} with norm <= 1")
    points.setflags(write=False)
    vector.setflags(write=False)
    return points, vector


class _LinearBandit(_Bandit):
    """Shared properties: ``reward_means = actions @ theta`` (exact)."""

    __slots__ = ()

    @property
    def dimension(self) -> int:
        return int(self.actions.shape[1])

    @property
    def n_arms(self) -> int:
        return int(self.actions.shape[0])

    @property
    def reward_means(self) -> tuple[float, ...]:
        return tuple((self.actions @ self.theta).tolist())


@dataclass(frozen=True, slots=True, eq=False)
class LinearBandit(_LinearBandit):
    """Hanna et al. 2022's finite-action linear bandit: action ``x`` pays ±1 with mean ``⟨θ*, x⟩``.

    The paper fixes only Assumption 1 (1-sub-Gaussian noise, ``|r| <= 1``,
    ``‖x‖, ‖θ*‖ <= 1``); our reward law (documented choice) is the
    **Rademacher-type** reward ``r = +1`` w.p. ``(1 + ⟨θ*, x⟩)/2``, else ``−1``:
    mean ``⟨θ*, x⟩`` exactly, values in [−1, 1] (the range their privacy
    analysis assumes; sensitivity 2, not the 1 of their Eq. (12)), and ``r − ⟨θ*, x⟩`` is
    1-sub-Gaussian (Hoeffding). The sum of n rewards is ``2·Bin(n, (1+μ)/2) − n``
    (exact law, one draw).

    >>> env = LinearBandit(actions=[[1.0, 0.0], [0.0, 1.0]], theta=[0.6, 0.8])
    >>> env.best_arm, [round(g, 3) for g in env.gaps.tolist()]
    (1, [0.2, 0.0])
    >>> sorted(set(env.rewards(0, 50, rng=np.random.default_rng(0)).tolist()))
    [-1.0, 1.0]
    """

    actions: NDArray[np.float64]
    theta: NDArray[np.float64]
    binary = False
    reward_range = (-1.0, 1.0)

    def __post_init__(self) -> None:
        points, vector = _check_linear(self.actions, self.theta)
        object.__setattr__(self, "actions", points)
        object.__setattr__(self, "theta", vector)

    def _plus_probability(self, arm: int) -> float:
        return min(1.0, max(0.0, (1.0 + float(self.actions[arm] @ self.theta)) / 2))

    def rewards(self, arm: int, size: int, *, rng: np.random.Generator) -> NDArray[np.float64]:
        """``size`` independent ±1 rewards of action ``arm`` (float64)."""
        arm, size = _check_arm(arm, self.n_arms), _check_size(size)
        return np.where(rng.random(size) < self._plus_probability(arm), 1.0, -1.0)

    def reward_sum(self, arm: int, size: int, *, rng: np.random.Generator) -> float:
        """``2·Bin(size, (1 + μ)/2) − size``: the exact law of the sum."""
        arm, size = _check_arm(arm, self.n_arms), _check_size(size)
        return float(2 * rng.binomial(size, self._plus_probability(arm)) - size)


@renamed_parameters(k="n_arms", d="dimension")
def sphere_instance(n_arms: int = 10, dimension: int = 2, *,
                    rng: np.random.Generator) -> LinearBandit:
    """Hanna et al. 2022, §6: ``n_arms`` actions and θ* uniform on the unit sphere ``S^{d−1}``
    (normalised Gaussians), d = ``dimension``.

    >>> env = sphere_instance(10, 2, rng=np.random.default_rng(0))
    >>> env.n_arms, env.dimension, bool(np.allclose(np.linalg.norm(env.actions, axis=1), 1))
    (10, 2, True)
    """
    k = check_positive_int(n_arms, "n_arms")
    d = check_positive_int(dimension, "dimension")
    return LinearBandit(_unit_rows(rng, k, d), _unit_rows(rng, 1, d)[0])


@renamed_parameters(population="population_size", noise_sd="sigma")
@dataclass(frozen=True, slots=True, eq=False)
class DistributedLinearBandit(_LinearBandit):
    """Li, Zhou & Ji 2022's distributed population: client u has ``θ_u = θ* + ξ_u``, ``ξ_u ~ N(0, σ²I_d)``.

    Their §7 gives ``|𝒰| = 10^5``, σ = 0.1, k = 1000 actions in R^20, Gaussian
    reward noise and a bound B; the generators are unstated, so
    these are our documented choices:

    * a client observing action x in a round sees ``⟨θ_u, x⟩ + η``,
      ``η ~ N(0, σ²)`` (``sigma`` σ = 1: 1-sub-Gaussian as assumed);
    * clients are sampled uniformly **without replacement** from an iid
      population, so the θ_u of the sampled clients are iid; they are drawn
      when sampled (:meth:`client_averages`), which has the same law as
      drawing the 10^5 θ_u first (and no 10^5 × d array to carry); θ* is the
      population mean (regret is measured against it, as in the paper);
    * a client's average of ``T`` plays of x is drawn from its exact law
      ``N(⟨θ_u, x⟩, σ²/T)``;
    * ``reward_bound`` B is the bound the privatizers assume: the algorithm's
      clients clip their averages to [−B, B] (privacy needs ``|y| <= B``);
    * the **global reward** of a round (the simulator's reward stream, used for
      the realised regret only) is the population average
      ``⟨θ*, x⟩ + N(0, σ²/|𝒰|)``.

    >>> env = dpdpe_instance(50, 5, rng=np.random.default_rng(0))
    >>> env.client_averages([0, 1], [4, 9], 3, rng=np.random.default_rng(1)).shape
    (3, 2)
    """

    actions: NDArray[np.float64]
    theta: NDArray[np.float64]
    heterogeneity: float = 0.1
    population_size: int = 10 ** 5
    sigma: float = 1.0
    reward_bound: float = 1.0
    binary = False

    # the old spellings, read-only, for one release
    population = renamed_property("population", "population_size")
    noise_sd = renamed_property("noise_sd", "sigma")

    def __post_init__(self) -> None:
        points, vector = _check_linear(self.actions, self.theta)
        object.__setattr__(self, "actions", points)
        object.__setattr__(self, "theta", vector)
        object.__setattr__(self, "heterogeneity", check_positive(self.heterogeneity,
                                                                 "heterogeneity"))
        object.__setattr__(self, "population_size", check_positive_int(self.population_size,
                                                                       "population_size"))
        object.__setattr__(self, "sigma", check_positive(self.sigma, "sigma"))
        object.__setattr__(self, "reward_bound", check_positive(self.reward_bound,
                                                                "reward_bound"))

    def rewards(self, arm: int, size: int, *, rng: np.random.Generator) -> NDArray[np.float64]:
        """``size`` global rewards of action ``arm``: ``⟨θ*, x⟩ + N(0, σ²/|𝒰|)``."""
        arm, size = _check_arm(arm, self.n_arms), _check_size(size)
        mean = float(self.actions[arm] @ self.theta)
        return mean + rng.normal(0.0, self.sigma / math.sqrt(self.population_size), size)

    def reward_sum(self, arm: int, size: int, *, rng: np.random.Generator) -> float:
        arm, size = _check_arm(arm, self.n_arms), _check_size(size)
        mean = float(self.actions[arm] @ self.theta)
        return float(size * mean + rng.normal(0.0, self.sigma * math.sqrt(
            size / self.population_size)))

    def client_averages(self, arms: Any, plays: Any, clients: int, *,
                        rng: np.random.Generator) -> NDArray[np.float64]:
        """Each of ``clients`` fresh clients' average reward on every action of ``arms``.

        Shape ``(clients, len(arms))``; entry (u, j) is the mean of
        ``plays[j]`` rewards of ``arms[j]`` seen by client u, drawn from its
        exact law ``N(⟨θ_u, x_j⟩, σ²/plays[j])`` (unclipped).
        """
        index = np.asarray(arms, dtype=np.int64)
        counts = np.asarray(plays, dtype=float)
        clients = check_positive_int(clients, "clients")
        if index.ndim != 1 or counts.shape != index.shape or np.any(counts < 1) or \
                np.any(index < 0) or np.any(index >= self.n_arms):
            raise value_error("plays", plays, "positive play counts, one per valid action index")
        thetas = self.theta + self.heterogeneity * rng.normal(size=(clients, self.dimension))
        means = thetas @ self.actions[index].T
        return means + rng.normal(size=means.shape) * (self.sigma / np.sqrt(counts))


@renamed_parameters(k="n_arms", d="dimension", population="population_size")
def dpdpe_instance(n_arms: int = 1000, dimension: int = 20, *, rng: np.random.Generator,
                   heterogeneity: float = 0.1, population_size: int = 10 ** 5,
                   reward_bound: float = 1.0) -> DistributedLinearBandit:
    """Li, Zhou & Ji 2022, §7's setting with our stand-in generators: ``n_arms`` actions and θ*
    uniform on S^{d−1}, d = ``dimension``, among ``population_size`` clients.

    >>> dpdpe_instance(rng=np.random.default_rng(0)).actions.shape
    (1000, 20)
    """
    k = check_positive_int(n_arms, "n_arms")
    d = check_positive_int(dimension, "dimension")
    return DistributedLinearBandit(_unit_rows(rng, k, d), _unit_rows(rng, 1, d)[0],
                                   heterogeneity=heterogeneity, population_size=population_size,
                                   reward_bound=reward_bound)


#: Linear instance kinds of :class:`LinearInstanceFamily` (and ``dpverify simulate --instance``).
LINEAR_INSTANCES = ("sphere", "dpdpe")


#: Largest number of actions k (and dimension d) of a random linear instance.
MAX_ACTIONS = 10**6


@renamed_parameters(actions="n_arms", population="population_size")
@dataclass(frozen=True, slots=True)
class LinearInstanceFamily:
    """A picklable generator of random linear instances: ``family(rng)`` draws one.

    ``kind="sphere"``: :func:`sphere_instance` (Hanna et al. 2022); ``"dpdpe"``:
    :func:`dpdpe_instance`. ``n_arms`` actions in R^``dimension`` (keyword-only: the
    instance sizes are named ``n_arms`` and ``dimension`` in every family; ``k`` and
    ``d`` remain as read-only aliases).

    >>> LinearInstanceFamily("sphere", dimension=2, n_arms=10)(np.random.default_rng(0)).n_arms
    10
    """

    kind: str
    _: KW_ONLY
    dimension: int
    n_arms: int
    heterogeneity: float = 0.1
    population_size: int = 10 ** 5
    reward_bound: float = 1.0
    draws_instances = True

    # the old spellings, read-only, for one release
    actions = renamed_property("actions", "n_arms")
    population = renamed_property("population", "population_size")

    def __post_init__(self) -> None:
        check_choice(self.kind, "kind", LINEAR_INSTANCES)
        object.__setattr__(self, "dimension", check_positive_int(
            self.dimension, "dimension", maximum=MAX_ACTIONS, instead="designs hold k × d actions"))
        object.__setattr__(self, "n_arms", check_positive_int(
            self.n_arms, "n_arms", maximum=MAX_ACTIONS, instead="designs hold k × d actions"))
        object.__setattr__(self, "heterogeneity", check_positive(self.heterogeneity,
                                                                 "heterogeneity"))
        object.__setattr__(self, "population_size", check_positive_int(self.population_size,
                                                                       "population_size"))
        object.__setattr__(self, "reward_bound", check_positive(self.reward_bound,
                                                                "reward_bound"))

    @property
    def k(self) -> int:
        """Alias of :attr:`n_arms`."""
        return self.n_arms

    @property
    def d(self) -> int:
        """Alias of :attr:`dimension`."""
        return self.dimension

    def __call__(self, rng: np.random.Generator) -> Any:
        if self.kind == "sphere":
            return sphere_instance(self.k, self.d, rng=rng)
        return dpdpe_instance(self.k, self.d, rng=rng, heterogeneity=self.heterogeneity,
                              population_size=self.population_size,
                              reward_bound=self.reward_bound)

    def describe(self) -> str:
        return f"{self.kind} (k={self.k}, d={self.d})"
