"""Stochastic K-armed bandit instances: frozen parameters, rewards drawn with an explicit ``rng``.

* :class:`BernoulliBandit` — rewards in {0, 1} (the setting of Tenenbaum et al. 2021);
  the sum of a batch is drawn from its exact binomial law in one step.
* :class:`ClippedGaussianBandit` — ``clip(N(μ, σ²), 0, 1)`` with ``sigma`` σ = 0.1
  (Chowdhury & Zhou 2023, Sec. 7: "Gaussian ... projected to [0, 1]"; the reference
  code clips). The arm means of the *clipped* law (:attr:`reward_means`,
  exact closed form) differ slightly from μ near 0 and 1; regret is measured
  against them.
* :class:`CategoricalBandit` — rewards ``label/4`` with a categorical law of the
  label on {0, …, 4}: the synthetic stand-in for their MSLR-WEB10K
  instance (:func:`mslr_synthetic_instance`).

Instance generators (Chowdhury & Zhou 2023, §7 and their public code): :func:`easy_instance` (μ ~ U[0.25, 0.75]),
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

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy import stats

from dpverify._deprecation import renamed_parameters, renamed_property
from dpverify._validation import (
    check_choice,
    check_int_at_least,
    check_positive,
    check_positive_int,
    check_real_array,
    value_error,
)
from dpverify.bandits._limits import check_arms

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


@renamed_parameters(sd="sigma")
def clipped_normal_mean(mu: float, sigma: float) -> float:
    """``E[clip(X, 0, 1)]`` for ``X ~ N(mu, sigma²)`` (exact closed form).

    .. math:: E = μ + E[(−X)^+] − E[(X − 1)^+], \\quad
              E[(X − c)^+] = (μ − c)Φ(\\tfrac{μ − c}{σ}) + σφ(\\tfrac{μ − c}{σ})

    >>> clipped_normal_mean(0.5, 0.1)
    0.5
    >>> round(clipped_normal_mean(0.25, 0.1) - 0.25, 6)
    0.0002
    """
    def excess(shift: float) -> float:  # E[(Y)^+], Y ~ N(shift, σ²)
        z = shift / sigma
        return shift * stats.norm.cdf(z) + sigma * stats.norm.pdf(z)

    return float(mu + excess(-mu) - excess(mu - 1.0))


@renamed_parameters(sd="sigma")
@dataclass(frozen=True, slots=True)
class ClippedGaussianBandit(_Bandit):
    """Arm ``a`` pays ``clip(N(means[a], sigma²), 0, 1)`` (Chowdhury & Zhou 2023, Sec. 7, sigma = 0.1).

    >>> env = ClippedGaussianBandit((0.25, 0.75))
    >>> round(env.reward_means[0], 6), env.binary
    (0.2502, False)
    >>> env.rewards(0, 3, rng=np.random.default_rng(0)).round(3).tolist()
    [0.263, 0.237, 0.314]
    """

    means: tuple[float, ...]
    sigma: float = 0.1
    #: Means of the clipped rewards (exact), which the regret is measured against.
    reward_means: tuple[float, ...] = field(init=False, repr=False, compare=False)
    binary = False

    # the old spellings, read-only, for one release
    sd = renamed_property("sd", "sigma")

    def __post_init__(self) -> None:
        object.__setattr__(self, "means", _check_means(self.means))
        object.__setattr__(self, "sigma", check_positive(self.sigma, "sigma"))
        object.__setattr__(self, "reward_means",
                           tuple(clipped_normal_mean(m, self.sigma) for m in self.means))

    def rewards(self, arm: int, size: int, *, rng: np.random.Generator) -> NDArray[np.float64]:
        """``size`` independent clipped-Gaussian rewards of ``arm``."""
        arm, size = _check_arm(arm, self.n_arms), _check_size(size)
        values = rng.normal(self.means[arm], self.sigma, size)
        return np.clip(values, 0.0, 1.0, out=values)

    def reward_sum(self, arm: int, size: int, *, rng: np.random.Generator) -> float:
        """The sum of ``size`` rewards (drawn one by one: the clipped sum has no closed law).

        Batches beyond :data:`REWARD_CHUNK` rewards are drawn and summed in chunks of
        that size (the same stream of draws), so memory stays bounded for any T.
        """
        size = _check_size(size)
        if size <= REWARD_CHUNK:
            return float(self.rewards(arm, size, rng=rng).sum())
        total, left = 0.0, size
        while left:
            step = min(left, REWARD_CHUNK)
            total += float(self.rewards(arm, step, rng=rng).sum())
            left -= step
        return total


#: Rewards drawn at once by a reward sum without a closed law (128 MiB of float64).
REWARD_CHUNK = 2**24


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
        if isinstance(self.label_probabilities, (str, bytes)) or not hasattr(
                self.label_probabilities, "__iter__"):
            raise value_error("label_probabilities", self.label_probabilities,
                              f"rows of {len(LABEL_REWARDS)} probabilities summing to 1")
        for index, row in enumerate(self.label_probabilities):
            values = check_real_array(row, f"label_probabilities[{index}]")
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
    """``μ = gap·U[0,1)^K + (0.5 − gap/2)``, as in the public code of Chowdhury & Zhou 2023."""
    return tuple((gap * rng.random(k) + (0.5 - gap / 2)).tolist())


def _instance(means: tuple[float, ...], rewards: str) -> Any:
    rewards = check_choice(rewards, "rewards", REWARD_FAMILIES)
    return ClippedGaussianBandit(means) if rewards == "clipped-gaussian" else BernoulliBandit(means)


@renamed_parameters(k="n_arms")
def easy_instance(n_arms: int = 10, *, rng: np.random.Generator,
                  rewards: str = "clipped-gaussian") -> Any:
    """The easy instance of Chowdhury & Zhou 2023 (after Vaswani et al. 2020): μ_a ~ U[0.25, 0.75].

    >>> env = easy_instance(rng=np.random.default_rng(0))
    >>> env.n_arms, min(env.means) >= 0.25, max(env.means) <= 0.75
    (10, True, True)
    """
    return _instance(_uniform_means(check_positive_int(n_arms, "n_arms"), 0.5, rng), rewards)


@renamed_parameters(k="n_arms")
def hard_instance(n_arms: int = 10, *, rng: np.random.Generator,
                  rewards: str = "clipped-gaussian") -> Any:
    """The hard instance of Chowdhury & Zhou 2023: μ_a ~ U[0.45, 0.55].

    >>> env = hard_instance(rng=np.random.default_rng(0), rewards="bernoulli")
    >>> type(env).__name__, max(env.means) - min(env.means) <= 0.1
    ('BernoulliBandit', True)
    """
    return _instance(_uniform_means(check_positive_int(n_arms, "n_arms"), 0.1, rng), rewards)


@renamed_parameters(k="n_arms")
def mslr_synthetic_instance(n_arms: int = 50, *, rng: np.random.Generator) -> CategoricalBandit:
    """Synthetic stand-in for the MSLR-WEB10K instance of Chowdhury & Zhou 2023 (Fig. 1 d–f); **not the real data**.

    The paper clusters the 1,200,192 query–url rows of MSLR-WEB10K (Qin & Liu
    2013) into K = 50 clusters with K-means and takes each cluster's relevance
    labels (0..4) as the arm's rewards. The data set cannot be downloaded in
    this environment, so this generator (a synthetic stand-in,
    ours) draws, per arm, a label distribution skewed towards low labels, as
    relevance labels are: ``Dirichlet((4, 3, 1.5, 0.6, 0.3) · c)`` with
    concentration ``c ~ U[0.5, 3]``; rewards are ``label/4`` (the
    protocol needs rewards in [0, 1]).

    >>> env = mslr_synthetic_instance(rng=np.random.default_rng(0))
    >>> env.n_arms, 0.0 < min(env.reward_means) < max(env.reward_means) < 1.0
    (50, True)
    """
    k = check_positive_int(n_arms, "n_arms")
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

    ``n_arms`` is K (the name every family uses; ``k`` is a read-only alias).

    >>> family = instance_family("hard", n_arms=5, rewards="bernoulli")
    >>> family(np.random.default_rng(0)).n_arms
    5
    """

    name: str
    n_arms: int
    rewards: str = "clipped-gaussian"
    draws_instances = True

    def __post_init__(self) -> None:
        check_choice(self.name, "name", tuple(_GENERATORS))
        object.__setattr__(self, "n_arms", check_arms(self.n_arms, "n_arms"))
        check_choice(self.rewards, "rewards", REWARD_FAMILIES)

    @property
    def k(self) -> int:
        """Alias of :attr:`n_arms`."""
        return self.n_arms

    def __call__(self, rng: np.random.Generator) -> Any:
        if self.name == "mslr-synthetic":
            return mslr_synthetic_instance(self.n_arms, rng=rng)
        return _GENERATORS[self.name](self.n_arms, rng=rng, rewards=self.rewards)

    def describe(self) -> str:
        suffix = "" if self.name == "mslr-synthetic" else f", {self.rewards}"
        return f"{self.name} (K={self.n_arms}{suffix})"


@renamed_parameters(k="n_arms")
def instance_family(name: str, *, n_arms: int | None = None,
                    rewards: str = "clipped-gaussian") -> InstanceFamily:
    """The named family (``easy``, ``hard``, ``mslr-synthetic``) with the papers' default K.

    ``n_arms`` is K (default 10, 50 for ``mslr-synthetic``).
    """
    name = check_choice(name, "name", tuple(_GENERATORS))
    default = 50 if name == "mslr-synthetic" else 10
    return InstanceFamily(name, default if n_arms is None else n_arms, rewards)
