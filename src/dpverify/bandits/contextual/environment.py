"""Linear contextual bandit instances (Garcelon et al. 2022, Assumption 3), contexts drawn a batch at once.

Every round t brings K contexts ``x_{t,a} ∈ R^d`` with ``‖x_{t,a}‖₂ <= L``;
playing arm a returns ``r_t = ⟨x_{t,a}, θ*⟩ + η_t`` with ``‖θ*‖₂ <= S``.
Regret is measured against each round's best arm
``a*_t = argmax_a ⟨x_{t,a}, θ*⟩`` (Garcelon et al., Sec. 2).

**How Assumption 3 (``r_t ∈ [0, 1]``) is made to hold.** A context law that
is symmetric (``x`` and ``−x`` equally likely, e.g. uniform on the whole
sphere) cannot have all its mean rewards ``⟨x, θ*⟩`` in [0, 1] unless
θ* = 0, since ``⟨−x, θ*⟩ = −⟨x, θ*⟩``. The instances here therefore live in
the **positive orthant**: contexts are uniform on the part of the sphere of
radius L in the positive orthant (``L |g|/‖g‖``, ``g ~ N(0, I_d)``), θ* has
non-negative entries and ``‖θ*‖ = S`` with ``L S <= 1``, so every mean
reward lies in [0, L S] ⊂ [0, 1]. The reward is **Bernoulli** with that mean:
``r ∈ {0, 1}`` and ``η = r − ⟨x, θ*⟩`` is bounded in an interval of length 1,
hence conditionally σ-sub-Gaussian with σ = 1/2 (Hoeffding).

Context generators (:data:`CONTEXT_GENERATORS`):

* ``"sphere"`` — every ``x_{t,a}`` i.i.d. uniform on the positive-orthant
  part of the sphere of radius L (above);
* ``"correlated"`` (harder) — the K contexts of a round share a common
  direction: ``x_{t,a} = L (√ρ u_t + √(1 − ρ) u_{t,a}) / ‖·‖`` with ``u``'s
  i.i.d. uniform on the positive-orthant unit sphere and
  ``ρ = correlation`` (default 0.9): the arms of a round are close to each
  other, so the per-round gaps are small and the best arm changes from round
  to round, while a round's common direction moves the whole reward level
  (the within-round differences carry little signal). ``ρ = 0`` is ``"sphere"``.
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpverify._deprecation import renamed_parameters, renamed_property
from dpverify._validation import (
    check_choice,
    check_in_range,
    check_positive,
    check_positive_int,
    check_real_array,
    value_error,
)

__all__ = ["ContextualLinearBandit", "CONTEXT_GENERATORS", "ContextualInstanceFamily",
           "MAX_DIMENSION"]

#: Largest context dimension d (users send m·d(d+3)/2 bits; learners keep d × d statistics).
MAX_DIMENSION = 10**4

#: Context generators of :class:`ContextualLinearBandit`.
CONTEXT_GENERATORS = ("sphere", "correlated")


def _orthant_sphere(gaussians: NDArray[np.float64], radius: float) -> NDArray[np.float64]:
    """Project Gaussian vectors (last axis) to the positive-orthant sphere of the given radius."""
    values = np.abs(gaussians)
    norms = np.linalg.norm(values, axis=-1, keepdims=True)
    norms[norms == 0] = 1.0  # probability zero; keeps the division defined
    return values * (radius / norms)


@dataclass(frozen=True, eq=False)
class ContextualLinearBandit:
    """A K-armed linear contextual bandit with Bernoulli rewards of mean ``⟨x, θ*⟩ ∈ [0, 1]``.

    Parameters
    ----------
    theta
        θ* (shape ``(d,)``), non-negative entries, ``‖θ*‖ <= S`` and ``L‖θ*‖ <= 1``.
    n_arms
        K, the contexts (arms) per round.
    context_bound
        L (every context has norm exactly L).
    generator, correlation
        ``"sphere"`` or ``"correlated"`` (ρ = ``correlation`` ∈ [0, 1)); see the module notes.

    >>> env = ContextualLinearBandit(theta=(0.6, 0.8), n_arms=3)
    >>> x = env.contexts(4, rng=np.random.default_rng(0))
    >>> x.shape, bool(np.allclose(np.linalg.norm(x, axis=-1), 1.0))
    ((4, 3, 2), True)
    >>> means = env.mean_rewards(x)
    >>> bool(((means >= 0) & (means <= 1)).all())
    True
    """

    theta: Any
    n_arms: int
    context_bound: float = 1.0
    generator: str = "sphere"
    correlation: float = 0.9
    theta_star: NDArray[np.float64] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        theta = check_real_array(self.theta, "theta", max_size=MAX_DIMENSION)
        if theta.ndim != 1 or theta.size == 0 or not np.all(np.isfinite(theta)) or np.any(theta < 0):
            raise value_error("theta", self.theta, "a non-empty vector of finite, non-negative entries")
        object.__setattr__(self, "n_arms", check_positive_int(self.n_arms, "n_arms"))
        bound = check_positive(self.context_bound, "context_bound")
        object.__setattr__(self, "context_bound", bound)
        if bound * np.linalg.norm(theta) > 1 + 1e-12:
            raise value_error("theta", self.theta, f"of norm at most 1/context_bound = {1 / bound!r}",
                              "mean rewards must stay in [0, 1] (Assumption 3)")
        object.__setattr__(self, "generator", check_choice(self.generator, "generator",
                                                           CONTEXT_GENERATORS))
        object.__setattr__(self, "correlation", check_in_range(
            self.correlation, "correlation", 0.0, 1.0, high_closed=False))
        theta.setflags(write=False)
        object.__setattr__(self, "theta_star", theta)

    @property
    def dimension(self) -> int:
        """d."""
        return int(self.theta_star.size)

    @property
    def theta_bound(self) -> float:
        """S = ‖θ*‖₂ (known to the algorithms through their own S >= this)."""
        return float(np.linalg.norm(self.theta_star))

    parameter_bound = renamed_property("parameter_bound", "theta_bound")

    def contexts(self, rounds: int, *, rng: np.random.Generator) -> NDArray[np.float64]:
        """The contexts of ``rounds`` consecutive rounds at once: shape ``(rounds, K, d)``."""
        rounds = check_positive_int(rounds, "rounds")
        shape = (rounds, self.n_arms, self.dimension)
        directions = _orthant_sphere(rng.standard_normal(shape), 1.0)
        if self.generator == "correlated":
            common = _orthant_sphere(rng.standard_normal((rounds, 1, self.dimension)), 1.0)
            directions = (np.sqrt(self.correlation) * common
                          + np.sqrt(1 - self.correlation) * directions)
        return _orthant_sphere(directions, self.context_bound)

    def mean_rewards(self, contexts: NDArray[np.float64]) -> NDArray[np.float64]:
        """``⟨x, θ*⟩`` for every context (last axis d), clipped to [0, 1] against rounding."""
        return np.clip(np.asarray(contexts) @ self.theta_star, 0.0, 1.0)

    def draw_rewards(self, means: NDArray[np.float64], *,
                     rng: np.random.Generator) -> NDArray[np.float64]:
        """Bernoulli rewards with the given means (one per played round), as floats in {0, 1}."""
        return (rng.random(np.shape(means)) < means).astype(float)

    def describe(self) -> str:
        return (f"ContextualLinearBandit(d={self.dimension}, K={self.n_arms}, "
                f"L={self.context_bound:g}, {self.generator})")


@renamed_parameters(parameter_bound="theta_bound")
@dataclass(frozen=True)
class ContextualInstanceFamily:
    """A picklable instance family: ``family(rng)`` draws θ* uniformly on the positive-orthant sphere.

    ``‖θ*‖ = S = theta_bound`` (default 1; ``L S <= 1`` is required, L = ``context_bound``).
    The sizes are keyword-only (``n_arms``, ``dimension``: the names and order of every family).

    >>> family = ContextualInstanceFamily(n_arms=5, dimension=3)
    >>> env = family(np.random.default_rng(1))
    >>> env.dimension, env.n_arms, round(env.theta_bound, 12)
    (3, 5, 1.0)
    """

    _: KW_ONLY
    n_arms: int
    dimension: int
    generator: str = "sphere"
    context_bound: float = 1.0
    theta_bound: float = 1.0
    correlation: float = 0.9

    # the old spellings, read-only, for one release
    parameter_bound = renamed_property("parameter_bound", "theta_bound")

    def __post_init__(self) -> None:
        check_positive_int(self.dimension, "dimension", maximum=MAX_DIMENSION,
                           instead="learners keep d × d statistics; reduce the dimension")
        check_positive_int(self.n_arms, "n_arms")
        check_choice(self.generator, "generator", CONTEXT_GENERATORS)
        bound = check_positive(self.context_bound, "context_bound")
        if bound * check_positive(self.theta_bound, "theta_bound") > 1 + 1e-12:
            raise value_error("theta_bound", self.theta_bound,
                              f"at most 1/context_bound = {1 / bound!r}")
        check_in_range(self.correlation, "correlation", 0.0, 1.0, high_closed=False)

    def __call__(self, rng: np.random.Generator) -> ContextualLinearBandit:
        theta = _orthant_sphere(rng.standard_normal(self.dimension), self.theta_bound)
        return ContextualLinearBandit(theta=theta, n_arms=self.n_arms,
                                      context_bound=self.context_bound, generator=self.generator,
                                      correlation=self.correlation)

    def describe(self) -> str:
        return (f"contextual(d={self.dimension}, K={self.n_arms}, {self.generator}, "
                f"L={self.context_bound:g}, S={self.theta_bound:g})")
