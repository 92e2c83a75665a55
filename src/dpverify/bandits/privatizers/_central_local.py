"""Chowdhury & Zhou 2023, App. H: Algorithm 1's protocol in the central and the local model.

:class:`CentralDiscreteLaplace` (CDP-SE, Thm 5, Alg. 2–3) and
:class:`LocalDiscreteLaplace` (LDP-SE, Thm 6, Alg. 4–5), on the (R, S, A)
machinery of :mod:`dpverify.bandits.privatizers._secure_aggregation`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from dpverify._deprecation import renamed_parameters, renamed_property
from dpverify._validation import (
    MAX_INTEGER,
    check_epsilon,
    check_failure_probability,
    check_positive_int,
    value_error,
)
from dpverify.bandits.privatizers._aggregate_laws import (
    discrete_laplace_subexponential,
    simulation_discrete_laplace_sum,
)
from dpverify.bandits.privatizers._base import ErrorLaw
from dpverify.bandits.privatizers._protocol import ProtocolParameters, regret_assumption_note
from dpverify.bandits.privatizers._secure_aggregation import (
    PolyaSecureAggregation,
    _cached,
    _SecureAggregationPrivatizer,
)
from dpverify.guarantees import Guarantee
from dpverify.mechanisms import DiscreteLaplace, privacy_map
from dpverify.mechanisms.samplers import discrete_laplace

__all__ = ["CentralDiscreteLaplace", "LocalDiscreteLaplace"]

@renamed_parameters(tail_probability="failure_probability")
@dataclass(frozen=True)
class CentralDiscreteLaplace(PolyaSecureAggregation):
    """CDP-SE (Chowdhury & Zhou 2023, Thm 5, App. H.1, Alg. 2–3): no local noise; the analyser adds ``Lap_Z(g/ε)``.

    Central model: users send ``x̂ mod m`` through secure aggregation and the
    (trusted) analyser adds ``η mod m``, ``η ~ Lap_Z(g/ε)`` (exact CKS
    sampler), before the underflow rule. Same (g, τ, m) and tail constants
    as Thm 1; (ε, 0)-DP in the central model. Thm 5 states ε ∈ (0, 1); the
    privacy holds for every ε > 0.

    >>> CentralDiscreteLaplace(0.5, failure_probability=1e-6).guarantee(64)
    PureDP(epsilon=0.5)
    """

    name = "central discrete Laplace (CDP-SE)"

    @property
    def theorem_note(self) -> str:
        return regret_assumption_note(self.epsilon, "Thm 5")
    model = "central"

    def user_noise(self, parameters: ProtocolParameters) -> None:
        return None

    def analyser_noise(self, parameters: ProtocolParameters) -> DiscreteLaplace:
        return DiscreteLaplace(scale=parameters.precision / self.epsilon)

    def _aggregate_noise(self, parameters: ProtocolParameters, rng: np.random.Generator,
                         size: int | None = None) -> Any:
        return discrete_laplace(self.analyser_noise(parameters).scale, rng=rng, size=size)

    @_cached
    def guarantee(self, users: int) -> Guarantee:
        params = self.parameters(users)
        return privacy_map(self.analyser_noise(params), sensitivity=params.precision)


def _check_local_range(epsilon: float, users: int, log_term: float) -> None:
    """Refuse, naming ε, an LDP-SE request whose 64-bit protocol integers overflow.

    ``g = ⌈ε√n⌉ <= 2**63 - 1`` bounds ε above; ``τ >= 2α log(2/p) = 4 (g/ε) log(2/p)
    >= 4 log(2/p)/ε`` (α = 2b, b = g/ε) must stay below 2**63 - 1, which bounds ε below.
    """
    largest = MAX_INTEGER / math.sqrt(users)
    if epsilon > largest:
        raise value_error("epsilon", epsilon, f"<= {largest:.3g} for users={users}",
                          "the precision g = ⌈epsilon·√users⌉ must fit in 64 bits")
    smallest = 4 * log_term / MAX_INTEGER
    if epsilon < smallest:
        raise value_error("epsilon", epsilon, f">= {smallest:.3g} for this failure probability",
                          "the accuracy bound tau >= 4 log(2/p)/epsilon must fit in 64 bits")


@renamed_parameters(tail_probability="failure_probability")
@dataclass(frozen=True)
class LocalDiscreteLaplace(_SecureAggregationPrivatizer):
    """LDP-SE (Chowdhury & Zhou 2023, Thm 6, App. H.2, Alg. 4–5): every user adds ``Lap_Z(g/ε)``; local ε-DP.

    Each message ``(x̂ + η_i) mod m`` is itself ε-DP (sensitivity g). The
    paper's τ = ⌈(c g/ε)√(2n log(2/p))⌉ rests on an unknown absolute constant c
    (Lemma 5, which does not give c). **Deviation (documented)**: the explicit
    sub-exponential constants (ν², α = 2g/ε) of ``Lap_Z(g/ε)`` from its MGF
    (:func:`discrete_laplace_subexponential`) replace c, and by Lemma 7
    ``τ = ⌈ν√(2n log(2/p)) + 2α log(2/p)⌉``; for β(b),
    σ = (√(2n) + ν√(2n))/g and h = 2α/g = 4/ε.

    >>> privatizer = LocalDiscreteLaplace(0.5, failure_probability=1e-6)
    >>> privatizer.guarantee(16), privatizer.parameters(16).precision
    (PureDP(epsilon=0.5), 2)
    """

    epsilon: float
    failure_probability: float | None = None
    name = "local discrete Laplace (LDP-SE)"

    # the old spellings, read-only, for one release
    tail_probability = renamed_property("tail_probability", "failure_probability")

    @property
    def theorem_note(self) -> str:
        return regret_assumption_note(self.epsilon, "Thm 6")
    model = "local"

    def __post_init__(self) -> None:
        object.__setattr__(self, "epsilon", check_epsilon(self.epsilon, allow_zero=False))
        if self.failure_probability is not None:
            check_failure_probability(self.failure_probability)

    @_cached
    def parameters(self, users: int) -> ProtocolParameters:
        users = check_positive_int(users, "users")
        p = self._require_failure_probability()
        log_term = math.log(2 / p)
        _check_local_range(self.epsilon, users, log_term)
        precision = math.ceil(self.epsilon * math.sqrt(users))
        nu2, alpha = discrete_laplace_subexponential(precision / self.epsilon)
        tau = math.sqrt(nu2 * 2 * users * log_term) + 2 * alpha * log_term
        if not tau <= MAX_INTEGER:
            raise value_error("users", users, "such that tau = ν√(2 users log(2/p)) + "
                              f"2α log(2/p) <= 2**63 - 1 (here {tau:.3g}, "
                              f"epsilon={self.epsilon!r})")
        return ProtocolParameters(users, precision, math.ceil(tau))

    def user_noise(self, parameters: ProtocolParameters) -> DiscreteLaplace:
        return DiscreteLaplace(scale=parameters.precision / self.epsilon)

    def _aggregate_noise(self, parameters: ProtocolParameters, rng: np.random.Generator,
                         size: int | None = None) -> Any:
        return simulation_discrete_laplace_sum(self.user_noise(parameters).scale, parameters.users,
                                               rng=rng, size=size)

    @_cached
    def guarantee(self, users: int) -> Guarantee:
        """Each user's message alone: ``Lap_Z(g/ε)`` at sensitivity g (local ε-DP)."""
        params = self.parameters(users)
        return privacy_map(self.user_noise(params), sensitivity=params.precision)

    def estimate_error_law(self, users: int) -> ErrorLaw:
        params = self.parameters(users)
        nu2, alpha = discrete_laplace_subexponential(params.precision / self.epsilon)
        root = math.sqrt(2 * params.users)
        return ErrorLaw(sigma=(root + math.sqrt(nu2) * root) / params.precision,
                        sub_exponential_scale=2 * alpha / params.precision, noise=None,
                        description="Σ Lap_Z(g/ε)/g + rounding, explicit MGF constants (Thm 6)")
