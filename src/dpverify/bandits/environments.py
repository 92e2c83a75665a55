"""Stochastic K-armed bandit instances: frozen parameters, rewards drawn with an explicit ``rng``.

* :class:`BernoulliBandit` — rewards in {0, 1} (tenenbaum 2021's setting);
  the sum of a batch is drawn from its exact binomial law in one step.
* :class:`ClippedGaussianBandit` — ``clip(N(μ, sd²), 0, 1)`` with ``sd = 0.1``
  (chowdhury 2023 Sec. 7: "Gaussian ... projected to [0, 1]"; the reference
  code clips). The arm means of the *clipped* law (:attr:`reward_means`,
  exact closed form) differ slightly from μ near 0 and 1; regret is measured
  against them.
* :class:`CategoricalBandit` — rewards ``label/4`` with a categorical law of the
  label on {0, …, 4}: the synthetic stand-in for chowdhury's MSLR-WEB10K
  instance (:func:`mslr_synthetic_instance`).

Instance generators (CATALOGUE A5): :func:`easy_instance` (μ ~ U[0.25, 0.75]),
:func:`hard_instance` (μ ~ U[0.45, 0.55]), K = 10, and
:func:`mslr_synthetic_instance` (K = 50). :class:`InstanceFamily` wraps a
generator as a picklable callable ``rng → instance``, so that
:func:`~dpverify.bandits.simulate.simulate` draws a fresh instance per run
(the papers average over 20 random instances).

Every environment exposes ``n_arms``, ``reward_means`` (exact), ``best_arm``,
``gaps``, ``binary`` (rewards in {0, 1}), ``rewards(arm, size, *, rng)``
(individual rewards) and ``reward_sum(arm, size, *, rng)`` (the sum of
``size`` rewards, from its exact law where it has one).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy import stats

from dpverify._validation import (
    check_choice,
    check_int_at_least,
    check_positive,
    check_positive_int,
    value_error,
)

__all__ = [
    "BernoulliBandit",
    "ClippedGaussianBandit",
    "CategoricalBandit",
    "InstanceFamily",
    "easy_instance",
    "hard_instance",
    "mslr_synthetic_instance",
    "instance_family",
    "clipped_normal_mean",
    "REWARD_FAMILIES",
    "LinearBandit",
    "DistributedLinearBandit",
    "LinearInstanceFamily",
    "sphere_instance",
    "dpdpe_instance",
    "LINEAR_INSTANCES",
]

#: Reward families of :func:`easy_instance` / :func:`hard_instance`.
REWARD_FAMILIES = ("clipped-gaussian", "bernoulli")


def _check_means(means: Any) -> tuple[float, ...]:
    try:
        values = tuple(float(m) for m in means)
    except (TypeError, ValueError):
        raise value_error("means", means, "a sequence of arm means in [0, 1]") from None
    if len(values) < 1 or not all(0.0 <= m <= 1.0 for m in values):  # NaN fails
        raise value_error("means", means, "a non-empty sequence of arm means in [0, 1]")
    return values


def _check_arm(arm: Any, n_arms: int) -> int:
    if type(arm) is int and 0 <= arm < n_arms:  # the simulator's hot path
        return arm
    arm = check_int_at_least(arm, "arm", 0)
    if arm >= n_arms:
        raise value_error("arm", arm, f"an arm index in [0, {n_arms})")
    return arm


def _check_size(size: Any) -> int:
    if type(size) is int and size >= 1:
        return size
    return check_positive_int(size, "size")


class _Bandit:
    """Shared read-only properties of the K-armed instances."""

    __slots__ = ()

    @property
    def n_arms(self) -> int:
        return len(self.reward_means)

    @property
    def best_arm(self) -> int:
        """Index of the best arm (the first one on ties)."""
        return int(np.argmax(self.reward_means))

    @property
    def best_mean(self) -> float:
        return float(max(self.reward_means))

    @property
    def gaps(self) -> NDArray[np.float64]:
        """``Δ_a = μ* − μ_a`` of the reward law (exact)."""
        means = np.asarray(self.reward_means)
        return means.max() - means


@dataclass(frozen=True, slots=True)
class BernoulliBandit(_Bandit):
    """Arm ``a`` pays ``Ber(means[a])``.

    >>> env = BernoulliBandit((0.2, 0.7))
    >>> env.best_arm, env.gaps.tolist()
    (1, [0.49999999999999994, 0.0])
    >>> env.reward_sum(1, 1000, rng=np.random.default_rng(0))
    680
    """

    means: tuple[float, ...]
    binary = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "means", _check_means(self.means))

    @property
    def reward_means(self) -> tuple[float, ...]:
        return self.means

    def rewards(self, arm: int, size: int, *, rng: np.random.Generator) -> NDArray[np.int64]:
        """``size`` independent rewards of ``arm`` (int64 zeros and ones)."""
        arm, size = _check_arm(arm, self.n_arms), _check_size(size)
        return (rng.random(size) < self.means[arm]).astype(np.int64)

    def reward_sum(self, arm: int, size: int, *, rng: np.random.Generator) -> int:
        """The sum of ``size`` rewards of ``arm``: one ``Bin(size, μ_a)`` draw."""
        arm, size = _check_arm(arm, self.n_arms), _check_size(size)
        return int(rng.binomial(size, self.means[arm]))


def clipped_normal_mean(mu: float, sd: float) -> float:
    """``E[clip(X, 0, 1)]`` for ``X ~ N(mu, sd²)`` (exact closed form).

    .. math:: E = μ + E[(−X)^+] − E[(X − 1)^+], \\quad
              E[(X − c)^+] = (μ − c)Φ(\\tfrac{μ − c}{σ}) + σφ(\\tfrac{μ − c}{σ})

    >>> clipped_normal_mean(0.5, 0.1)
    0.5
    >>> round(clipped_normal_mean(0.25, 0.1) - 0.25, 6)
    0.0002
    """
    def excess(shift: float) -> float:  # E[(Y)^+], Y ~ N(shift, sd²)
        z = shift / sd
        return shift * stats.norm.cdf(z) + sd * stats.norm.pdf(z)

    return float(mu + excess(-mu) - excess(mu - 1.0))


@dataclass(frozen=True, slots=True)
class ClippedGaussianBandit(_Bandit):
    """Arm ``a`` pays ``clip(N(means[a], sd²), 0, 1)`` (chowdhury Sec. 7, sd = 0.1).

    >>> env = ClippedGaussianBandit((0.25, 0.75))
    >>> round(env.reward_means[0], 6), env.binary
    (0.2502, False)
    >>> env.rewards(0, 3, rng=np.random.default_rng(0)).round(3).tolist()
    [0.263, 0.237, 0.314]
    """

    means: tuple[float, ...]
    sd: float = 0.1
    #: Means of the clipped rewards (exact), which the regret is measured against.
    reward_means: tuple[float, ...] = field(init=False, repr=False, compare=False)
    binary = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "means", _check_means(self.means))
        object.__setattr__(self, "sd", check_positive(self.sd, "sd"))
        object.__setattr__(self, "reward_means",
                           tuple(clipped_normal_mean(m, self.sd) for m in self.means))

    def rewards(self, arm: int, size: int, *, rng: np.random.Generator) -> NDArray[np.float64]:
        """``size`` independent clipped-Gaussian rewards of ``arm``."""
        arm, size = _check_arm(arm, self.n_arms), _check_size(size)
        values = rng.normal(self.means[arm], self.sd, size)
        return np.clip(values, 0.0, 1.0, out=values)

    def reward_sum(self, arm: int, size: int, *, rng: np.random.Generator) -> float:
        """The sum of ``size`` rewards (drawn one by one: the clipped sum has no closed law)."""
        return float(self.rewards(arm, size, rng=rng).sum())


#: Reward values of :class:`CategoricalBandit`: relevance labels 0..4 scaled to [0, 1].
LABEL_REWARDS = (0.0, 0.25, 0.5, 0.75, 1.0)


@dataclass(frozen=True, slots=True)
class CategoricalBandit(_Bandit):
    """Arm ``a`` pays ``label/4`` with ``label ~ Categorical(label_probabilities[a])`` on {0..4}.

    >>> env = CategoricalBandit(((1.0, 0, 0, 0, 0), (0, 0, 0.5, 0, 0.5)))
    >>> env.reward_means
    (0.0, 0.75)
    """

    label_probabilities: tuple[tuple[float, ...], ...]
    reward_means: tuple[float, ...] = field(init=False, repr=False, compare=False)
    binary = False

    def __post_init__(self) -> None:
        rows = []
        for row in self.label_probabilities:
            values = np.asarray(row, dtype=float)
            if values.shape != (len(LABEL_REWARDS),) or not (
                    np.all(values >= 0) and abs(values.sum() - 1.0) <= 1e-9):
                raise value_error("label_probabilities", self.label_probabilities,
                                  "rows of 5 probabilities summing to 1")
            rows.append(tuple((values / values.sum()).tolist()))
        if not rows:
            raise value_error("label_probabilities", self.label_probabilities, "non-empty")
        object.__setattr__(self, "label_probabilities", tuple(rows))
        object.__setattr__(self, "reward_means",
                           tuple(float(np.dot(row, LABEL_REWARDS)) for row in rows))

    @property
    def means(self) -> tuple[float, ...]:
        return self.reward_means

    def rewards(self, arm: int, size: int, *, rng: np.random.Generator) -> NDArray[np.float64]:
        arm, size = _check_arm(arm, self.n_arms), _check_size(size)
        cdf = np.cumsum(self.label_probabilities[arm])
        labels = np.searchsorted(cdf, rng.random(size) * cdf[-1], side="right")
        return np.minimum(labels, len(LABEL_REWARDS) - 1) / 4.0

    def reward_sum(self, arm: int, size: int, *, rng: np.random.Generator) -> float:
        """The sum of ``size`` rewards from the exact multinomial law of the label counts."""
        arm, size = _check_arm(arm, self.n_arms), _check_size(size)
        counts = rng.multinomial(size, self.label_probabilities[arm])
        return float(np.dot(counts, np.arange(len(LABEL_REWARDS)))) / 4.0


def _uniform_means(k: int, gap: float, rng: np.random.Generator) -> tuple[float, ...]:
    """CATALOGUE A5: ``μ = gap·U[0,1)^K + (0.5 − gap/2)``."""
    return tuple((gap * rng.random(k) + (0.5 - gap / 2)).tolist())


def _instance(means: tuple[float, ...], rewards: str) -> Any:
    rewards = check_choice(rewards, "rewards", REWARD_FAMILIES)
    return ClippedGaussianBandit(means) if rewards == "clipped-gaussian" else BernoulliBandit(means)


def easy_instance(k: int = 10, *, rng: np.random.Generator,
                  rewards: str = "clipped-gaussian") -> Any:
    """chowdhury's (after Vaswani et al. 2020) easy instance: μ_a ~ U[0.25, 0.75].

    >>> env = easy_instance(rng=np.random.default_rng(0))
    >>> env.n_arms, min(env.means) >= 0.25, max(env.means) <= 0.75
    (10, True, True)
    """
    return _instance(_uniform_means(check_positive_int(k, "k"), 0.5, rng), rewards)


def hard_instance(k: int = 10, *, rng: np.random.Generator,
                  rewards: str = "clipped-gaussian") -> Any:
    """chowdhury's hard instance: μ_a ~ U[0.45, 0.55].

    >>> env = hard_instance(rng=np.random.default_rng(0), rewards="bernoulli")
    >>> type(env).__name__, max(env.means) - min(env.means) <= 0.1
    ('BernoulliBandit', True)
    """
    return _instance(_uniform_means(check_positive_int(k, "k"), 0.1, rng), rewards)


def mslr_synthetic_instance(k: int = 50, *, rng: np.random.Generator) -> CategoricalBandit:
    """Synthetic stand-in for chowdhury's MSLR-WEB10K instance (Fig. 1 d–f); **not the real data**.

    The paper clusters the 1,200,192 query–url rows of MSLR-WEB10K (Qin & Liu
    2013) into K = 50 clusters with K-means and takes each cluster's relevance
    labels (0..4) as the arm's rewards. The data set cannot be downloaded in
    this environment, so this generator (CATALOGUE A5, "synthetic stand-in",
    ours) draws, per arm, a label distribution skewed towards low labels, as
    relevance labels are: ``Dirichlet((4, 3, 1.5, 0.6, 0.3) · c)`` with
    concentration ``c ~ U[0.5, 3]``; rewards are ``label/4`` (the
    protocol needs rewards in [0, 1]).

    >>> env = mslr_synthetic_instance(rng=np.random.default_rng(0))
    >>> env.n_arms, 0.0 < min(env.reward_means) < max(env.reward_means) < 1.0
    (50, True)
    """
    k = check_positive_int(k, "k")
    base = np.array([4.0, 3.0, 1.5, 0.6, 0.3])
    rows = tuple(tuple(rng.dirichlet(base * rng.uniform(0.5, 3.0)).tolist()) for _ in range(k))
    return CategoricalBandit(rows)


_GENERATORS: dict[str, Callable[..., Any]] = {
    "easy": easy_instance,
    "hard": hard_instance,
    "mslr-synthetic": mslr_synthetic_instance,
}


@dataclass(frozen=True, slots=True)
class InstanceFamily:
    """A picklable random-instance generator: ``family(rng)`` draws one instance.

    >>> family = instance_family("hard", k=5, rewards="bernoulli")
    >>> family(np.random.default_rng(0)).n_arms
    5
    """

    name: str
    k: int
    rewards: str = "clipped-gaussian"
    draws_instances = True

    def __post_init__(self) -> None:
        check_choice(self.name, "name", tuple(_GENERATORS))
        object.__setattr__(self, "k", check_positive_int(self.k, "k"))
        check_choice(self.rewards, "rewards", REWARD_FAMILIES)

    def __call__(self, rng: np.random.Generator) -> Any:
        if self.name == "mslr-synthetic":
            return mslr_synthetic_instance(self.k, rng=rng)
        return _GENERATORS[self.name](self.k, rng=rng, rewards=self.rewards)

    def describe(self) -> str:
        suffix = "" if self.name == "mslr-synthetic" else f", {self.rewards}"
        return f"{self.name} (K={self.k}{suffix})"


def instance_family(name: str, *, k: int | None = None,
                    rewards: str = "clipped-gaussian") -> InstanceFamily:
    """The named family (``easy``, ``hard``, ``mslr-synthetic``) with the papers' default K."""
    name = check_choice(name, "name", tuple(_GENERATORS))
    default = 50 if name == "mslr-synthetic" else 10
    return InstanceFamily(name, default if k is None else k, rewards)


# =========================================================================== linear bandits
# Finite-action linear bandits (hanna 2022 §6) and dpdpe's distributed population (dpdpe §7).
# The same interface as the K-armed instances: an "arm" is the index of an action in the
# finite action set, so :func:`dpverify.bandits.simulate.simulate` runs them unchanged; the
# linear algorithms additionally read the (public) ``actions``.


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
    """hanna 2022's finite-action linear bandit: action ``x`` pays ±1 with mean ``⟨θ*, x⟩``.

    The paper fixes only Assumption 1 (1-sub-Gaussian noise, ``|r| <= 1``,
    ``‖x‖, ‖θ*‖ <= 1``); our reward law (documented choice) is the
    **Rademacher-type** reward ``r = +1`` w.p. ``(1 + ⟨θ*, x⟩)/2``, else ``−1``:
    mean ``⟨θ*, x⟩`` exactly, values in [−1, 1] (the range hanna's privacy
    analysis assumes; sensitivity 2, trap T-H1), and ``r − ⟨θ*, x⟩`` is
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


def sphere_instance(k: int = 10, d: int = 2, *, rng: np.random.Generator) -> LinearBandit:
    """hanna §6: k actions and θ* uniform on the unit sphere ``S^{d−1}`` (normalised Gaussians).

    >>> env = sphere_instance(10, 2, rng=np.random.default_rng(0))
    >>> env.n_arms, env.dimension, bool(np.allclose(np.linalg.norm(env.actions, axis=1), 1))
    (10, 2, True)
    """
    k, d = check_positive_int(k, "k"), check_positive_int(d, "d")
    return LinearBandit(_unit_rows(rng, k, d), _unit_rows(rng, 1, d)[0])


@dataclass(frozen=True, slots=True, eq=False)
class DistributedLinearBandit(_LinearBandit):
    """dpdpe's distributed population: client u has ``θ_u = θ* + ξ_u``, ``ξ_u ~ N(0, σ²I_d)``.

    dpdpe §7 gives |𝒰| = 10^5, σ = 0.1, k = 1000 actions in R^20, Gaussian
    reward noise and a bound B; the generators are unstated (CATALOGUE B5), so
    these are our documented choices:

    * a client observing action x in a round sees ``⟨θ_u, x⟩ + η``,
      ``η ~ N(0, noise_sd²)`` (noise_sd = 1: 1-sub-Gaussian as assumed);
    * clients are sampled uniformly **without replacement** from an iid
      population, so the θ_u of the sampled clients are iid; they are drawn
      when sampled (:meth:`client_averages`), which has the same law as
      drawing the 10^5 θ_u first (and no 10^5 × d array to carry); θ* is the
      population mean (regret is measured against it, as in the paper);
    * a client's average of ``T`` plays of x is drawn from its exact law
      ``N(⟨θ_u, x⟩, noise_sd²/T)``;
    * ``reward_bound`` B is the bound the privatizers assume: the algorithm's
      clients clip their averages to [−B, B] (trap B6-11);
    * the **global reward** of a round (the simulator's reward stream, used for
      the realised regret only) is the population average
      ``⟨θ*, x⟩ + N(0, noise_sd²/|𝒰|)``.

    >>> env = dpdpe_instance(50, 5, rng=np.random.default_rng(0))
    >>> env.client_averages([0, 1], [4, 9], 3, rng=np.random.default_rng(1)).shape
    (3, 2)
    """

    actions: NDArray[np.float64]
    theta: NDArray[np.float64]
    heterogeneity: float = 0.1
    population: int = 10 ** 5
    noise_sd: float = 1.0
    reward_bound: float = 1.0
    binary = False

    def __post_init__(self) -> None:
        points, vector = _check_linear(self.actions, self.theta)
        object.__setattr__(self, "actions", points)
        object.__setattr__(self, "theta", vector)
        object.__setattr__(self, "heterogeneity", check_positive(self.heterogeneity,
                                                                 "heterogeneity"))
        object.__setattr__(self, "population", check_positive_int(self.population, "population"))
        object.__setattr__(self, "noise_sd", check_positive(self.noise_sd, "noise_sd"))
        object.__setattr__(self, "reward_bound", check_positive(self.reward_bound,
                                                                "reward_bound"))

    def rewards(self, arm: int, size: int, *, rng: np.random.Generator) -> NDArray[np.float64]:
        """``size`` global rewards of action ``arm``: ``⟨θ*, x⟩ + N(0, noise_sd²/|𝒰|)``."""
        arm, size = _check_arm(arm, self.n_arms), _check_size(size)
        mean = float(self.actions[arm] @ self.theta)
        return mean + rng.normal(0.0, self.noise_sd / math.sqrt(self.population), size)

    def reward_sum(self, arm: int, size: int, *, rng: np.random.Generator) -> float:
        arm, size = _check_arm(arm, self.n_arms), _check_size(size)
        mean = float(self.actions[arm] @ self.theta)
        return float(size * mean + rng.normal(0.0, self.noise_sd * math.sqrt(
            size / self.population)))

    def client_averages(self, arms: Any, plays: Any, clients: int, *,
                        rng: np.random.Generator) -> NDArray[np.float64]:
        """Each of ``clients`` fresh clients' average reward on every action of ``arms``.

        Shape ``(clients, len(arms))``; entry (u, j) is the mean of
        ``plays[j]`` rewards of ``arms[j]`` seen by client u, drawn from its
        exact law ``N(⟨θ_u, x_j⟩, noise_sd²/plays[j])`` (unclipped).
        """
        index = np.asarray(arms, dtype=np.int64)
        counts = np.asarray(plays, dtype=float)
        clients = check_positive_int(clients, "clients")
        if index.ndim != 1 or counts.shape != index.shape or np.any(counts < 1) or \
                np.any(index < 0) or np.any(index >= self.n_arms):
            raise value_error("plays", plays, "positive play counts, one per valid action index")
        thetas = self.theta + self.heterogeneity * rng.normal(size=(clients, self.dimension))
        means = thetas @ self.actions[index].T
        return means + rng.normal(size=means.shape) * (self.noise_sd / np.sqrt(counts))


def dpdpe_instance(k: int = 1000, d: int = 20, *, rng: np.random.Generator,
                   heterogeneity: float = 0.1, population: int = 10 ** 5,
                   reward_bound: float = 1.0) -> DistributedLinearBandit:
    """dpdpe §7's setting with our stand-in generators: k actions and θ* uniform on S^{d−1}.

    >>> dpdpe_instance(rng=np.random.default_rng(0)).actions.shape
    (1000, 20)
    """
    k, d = check_positive_int(k, "k"), check_positive_int(d, "d")
    return DistributedLinearBandit(_unit_rows(rng, k, d), _unit_rows(rng, 1, d)[0],
                                   heterogeneity=heterogeneity, population=population,
                                   reward_bound=reward_bound)


#: Linear instance kinds of :class:`LinearInstanceFamily` (and ``dpverify simulate --instance``).
LINEAR_INSTANCES = ("sphere", "dpdpe")


@dataclass(frozen=True, slots=True)
class LinearInstanceFamily:
    """A picklable generator of random linear instances: ``family(rng)`` draws one.

    ``kind="sphere"``: :func:`sphere_instance` (hanna); ``"dpdpe"``:
    :func:`dpdpe_instance`. ``k`` actions in R^``d``.

    >>> LinearInstanceFamily("sphere", 10, 2)(np.random.default_rng(0)).n_arms
    10
    """

    kind: str
    k: int
    d: int
    heterogeneity: float = 0.1
    population: int = 10 ** 5
    reward_bound: float = 1.0
    draws_instances = True

    def __post_init__(self) -> None:
        check_choice(self.kind, "kind", LINEAR_INSTANCES)
        object.__setattr__(self, "k", check_positive_int(self.k, "k"))
        object.__setattr__(self, "d", check_positive_int(self.d, "d"))

    def __call__(self, rng: np.random.Generator) -> Any:
        if self.kind == "sphere":
            return sphere_instance(self.k, self.d, rng=rng)
        return dpdpe_instance(self.k, self.d, rng=rng, heterogeneity=self.heterogeneity,
                              population=self.population, reward_bound=self.reward_bound)

    def describe(self) -> str:
        return f"{self.kind} (k={self.k}, d={self.d})"
