"""The parameters of Chowdhury & Zhou 2023's secure-aggregation protocol P = (R, S, A): (n, g, τ, m) per theorem.

Every batch of ``n`` users runs with a precision ``g`` (randomized rounding of
each reward to ``g`` levels), an accuracy ``τ`` (the noise tail the modular
sum tolerates) and the modulus ``m = ng + 2τ + 1`` (Alg. 1 and Thms 1–6):
:func:`distributed_dp_parameters` (Thm 1, Pólya noise),
:func:`distributed_rdp_parameters` (Thm 2, Skellam) and
:func:`distributed_cdp_parameters` (Thm 4, discrete Gaussian), as
:class:`ProtocolParameters`. The privatizers that run the protocol are in
:mod:`dpverify.bandits.privatizers._secure_aggregation`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from dpverify._deprecation import renamed_parameters
from dpverify._validation import (
    MAX_INTEGER,
    check_choice,
    check_epsilon,
    check_failure_probability,
    check_in_range,
    check_int_at_least,
    check_positive_int,
    value_error,
)
from dpverify.mechanisms import secure_aggregation_modulus

__all__ = [
    "SECURE_AGGREGATION",
    "ProtocolParameters",
    "regret_assumption_note",
    "distributed_dp_parameters",
    "distributed_rdp_parameters",
    "distributed_cdp_parameters",
]

SECURE_AGGREGATION = "distributed (secure aggregation)"


def regret_assumption_note(epsilon: float, theorem: str) -> str:
    """The note of a guarantee at ε >= 1 where Chowdhury & Zhou's regret ``theorem`` assumes ε < 1 (privacy holds)."""
    if epsilon < 1:
        return ""
    return (f"epsilon={epsilon:g} >= 1: Chowdhury & Zhou 2023, {theorem}'s regret bound assumes epsilon < 1; "
            "the privacy guarantee holds for every epsilon > 0")


@dataclass(frozen=True, slots=True)
class ProtocolParameters:
    """``n`` users, precision ``g``, accuracy ``τ`` and modulus ``m = ng + 2τ + 1``.

    >>> ProtocolParameters(64, 8, 117).modulus, ProtocolParameters(64, 8, 117).bits_per_user
    (747, 10)
    """

    users: int
    precision: int
    tau: int

    def __post_init__(self) -> None:
        for name, minimum in (("users", 1), ("precision", 1), ("tau", 0)):
            object.__setattr__(self, name, check_int_at_least(getattr(self, name), name, minimum))

    @property
    def modulus(self) -> int:
        return secure_aggregation_modulus(self.users, self.precision, self.tau)

    @property
    def bits_per_user(self) -> int:
        """``⌈log2 m⌉`` bits each user sends to S (Chowdhury & Zhou 2023, Sec. 4, "communication bits")."""
        return (self.modulus - 1).bit_length()

    def as_dict(self) -> dict[str, int]:
        """The protocol's parameters under Chowdhury & Zhou 2023's names (one message of ⌈log2 m⌉ bits per user).

        >>> ProtocolParameters(64, 8, 117).as_dict()["modulus_m"]
        747
        """
        return {"users_n": self.users, "precision_g": self.precision, "tau": self.tau,
                "modulus_m": self.modulus, "bits_per_user": self.bits_per_user,
                "messages_per_user": 1}


def _tau(value: float, *, quantity: str = "tau", **arguments: Any) -> int:
    """``⌈value⌉`` for a protocol integer (τ or g), refused when it leaves int64."""
    if not (math.isfinite(value) and value < MAX_INTEGER):
        given = ", ".join(f"{k}={v!r}" for k, v in arguments.items())
        raise value_error(quantity, value, "an integer within int64",
                          f"{given} make the secure-aggregation {quantity} overflow; use a larger "
                          f"epsilon or failure_probability")
    return math.ceil(value)


@renamed_parameters(tail_probability="failure_probability")
def distributed_dp_parameters(epsilon: float, users: int,
                              failure_probability: float) -> ProtocolParameters:
    """Chowdhury & Zhou 2023, Thm 1: ``g = ⌈ε√n⌉``, ``τ = ⌈(g/ε) log(2/p)⌉`` (p = 1/T in the theorem).

    [R] ``g = ⌈ε√n⌉`` as the authors' public code computes it (the text of Thm 1 we read had lost its symbols).

    >>> p = distributed_dp_parameters(1.0, 64, 1e-6)
    >>> p.precision, p.tau, p.modulus
    (8, 117, 747)
    >>> distributed_dp_parameters(0.1, 4, 1e-6).modulus
    297
    """
    epsilon = check_epsilon(epsilon, allow_zero=False)
    users = check_positive_int(users, "users")
    p = check_failure_probability(failure_probability)
    precision = _tau(epsilon * math.sqrt(users), epsilon=epsilon, users=users, quantity="g")
    return ProtocolParameters(users, precision, _tau(precision / epsilon * math.log(2 / p),
                                                     epsilon=epsilon, failure_probability=p))


@renamed_parameters(tail_probability="failure_probability")
def distributed_rdp_parameters(epsilon: float, users: int, failure_probability: float, *,
                               scale_factor: float, tau_rule: str = "paper") -> ProtocolParameters:
    """Chowdhury & Zhou 2023, Thm 2: ``g = ⌈sε√n⌉``; τ from Prop. 1 with total σ = g/ε.

    ``tau_rule="paper"``: ``τ = ⌈(2g/ε)√log(2/p) + √2 log(2/p)⌉`` ([R], Thm 2's τ reconstructed);
    ``"code"``: the authors' public code's ``⌈2g log(2/p)/ε + √2 log(2/p)⌉`` (larger: log for Thm 2's √log).

    >>> p = distributed_rdp_parameters(1.0, 1024, 1e-6, scale_factor=10)
    >>> p.precision, p.tau, p.modulus
    (320, 2459, 332599)
    """
    epsilon = check_epsilon(epsilon, allow_zero=False)
    users = check_positive_int(users, "users")
    p = check_failure_probability(failure_probability)
    s = check_in_range(scale_factor, "scale_factor", 1.0, math.inf, high_closed=False)
    rule = check_choice(tau_rule, "tau_rule", ("paper", "code"))
    precision = _tau(s * epsilon * math.sqrt(users), epsilon=epsilon, scale_factor=s,
                     users=users, quantity="g")
    log_term = math.log(2 / p)
    first = (2 * precision / epsilon) * (math.sqrt(log_term) if rule == "paper" else log_term)
    return ProtocolParameters(users, precision, _tau(first + math.sqrt(2) * log_term,
                                                     epsilon=epsilon, scale_factor=s,
                                                     failure_probability=p))


@renamed_parameters(tail_probability="failure_probability")
def distributed_cdp_parameters(epsilon: float, users: int, failure_probability: float, *,
                               scale_factor: float) -> ProtocolParameters:
    """Chowdhury & Zhou 2023, Thm 4: ``g = ⌈sε√n⌉``, ``τ = ⌈(g/ε)√(2 log(2/p))⌉``.

    >>> distributed_cdp_parameters(0.5, 100, 1e-6, scale_factor=10).tau
    539
    """
    epsilon = check_epsilon(epsilon, allow_zero=False)
    users = check_positive_int(users, "users")
    p = check_failure_probability(failure_probability)
    s = check_in_range(scale_factor, "scale_factor", 1.0, math.inf, high_closed=False)
    precision = _tau(s * epsilon * math.sqrt(users), epsilon=epsilon, scale_factor=s,
                     users=users, quantity="g")
    return ProtocolParameters(users, precision,
                              _tau(precision / epsilon * math.sqrt(2 * math.log(2 / p)),
                                   epsilon=epsilon, scale_factor=s, failure_probability=p))
