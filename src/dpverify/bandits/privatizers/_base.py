"""The privatizer protocol, the error-law value and guarantee helpers shared by all privatizers."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from dpverify._deprecation import renamed_parameters, renamed_property
from dpverify._validation import (
    check_delta,
    check_nonnegative,
    check_probability,
    check_text,
    shown,
)
from dpverify.accountants import rdp_to_dp, zcdp_to_dp
from dpverify.bandits._policy import RewardBatch
from dpverify.errors import DpverifyTypeError
from dpverify.guarantees import ZCDP, ApproxDP, Guarantee, PureDP, RDPCurve

__all__ = ["Privatizer", "ErrorLaw", "worst_case_guarantee", "as_approx_dp"]


@renamed_parameters(h="sub_exponential_scale")
@dataclass(frozen=True, slots=True)
class ErrorLaw:
    """What is known about the analyser's error ``n = estimate − Σ x_i`` on one batch.

    ``sigma`` (σ) and ``sub_exponential_scale`` (h) are the constants of Assumption 1 of
    Chowdhury & Zhou 2023: with probability at least ``1 − 2q``,
    ``|n| <= σ√log(2/q) + h log(2/q)`` (:meth:`radius`), as in their Lemma 2 (h = 0: a
    sub-Gaussian tail). ``sub_gaussian_variance`` is set when
    the error is sub-Gaussian with that variance proxy and does not depend on
    the input (the requirement of Tenenbaum et al. 2021, §3, on M_sum). ``noise`` is the aggregate noise
    law (a :mod:`dpverify.mechanisms` value) when it has one.

    >>> law = ErrorLaw(sigma=2.0, sub_exponential_scale=1.0)
    >>> round(law.radius(0.01), 4)  # 2√log 200 + log 200
    9.9019
    """

    sigma: float
    sub_exponential_scale: float
    noise: Any = None
    description: str = ""
    sub_gaussian_variance: float | None = None

    # the old spellings, read-only, for one release
    h = renamed_property("h", "sub_exponential_scale")

    def __post_init__(self) -> None:
        check_nonnegative(self.sigma, "sigma")
        check_nonnegative(self.sub_exponential_scale, "sub_exponential_scale")
        check_text(self.description, "description")
        if self.sub_gaussian_variance is not None:
            check_nonnegative(self.sub_gaussian_variance, "sub_gaussian_variance")
        if self.noise is not None and not (dataclasses.is_dataclass(self.noise)
                                           and not isinstance(self.noise, type)):
            raise DpverifyTypeError(f"noise={shown(self.noise)} must be None or a noise law "
                                    f"(a dpverify.mechanisms value)")

    def radius(self, failure_probability: float) -> float:
        """``σ√log(2/q) + h log(2/q)`` (Assumption 1 at q = ``failure_probability``)."""
        q = check_probability(failure_probability, "failure_probability", open_low=True)
        log_term = math.log(2 / q)
        return self.sigma * math.sqrt(log_term) + self.sub_exponential_scale * log_term


class Privatizer(Protocol):
    """Randomizer + secure computation + analyser for one batch's reward sum.

    ``privatize_sum`` returns the analyser's estimate of the batch's reward
    sum (``sample_estimates`` draws ``size`` of them at once, for audits);
    ``guarantee(n)`` the per-batch guarantee for a batch of ``n`` users
    (through :func:`dpverify.mechanisms.privacy_map` and the accountants);
    ``estimate_error_law(n)`` the error information used for confidence widths.
    """

    name: str
    model: str

    def privatize_sum(self, rewards: RewardBatch, *, rng: np.random.Generator,
                      per_user: bool = False) -> float: ...

    def sample_estimates(self, rewards: RewardBatch, *, size: int,
                         rng: np.random.Generator) -> np.ndarray: ...

    def guarantee(self, users: int) -> Guarantee | None: ...

    def estimate_error_law(self, users: int) -> ErrorLaw: ...

    def for_horizon(self, horizon: int) -> Any: ...


def worst_case_guarantee(guarantees: Iterable[Guarantee]) -> Guarantee:
    """A guarantee every one of ``guarantees`` (all of one type) implies.

    Pure DP: the largest ε; (ε, δ): the largest ε and δ; zCDP: the largest ρ
    (and ξ); RDP curves on the same orders: the pointwise maximum. Used for
    the per-batch guarantee over a batch schedule; by parallel composition
    (each user in one batch) it is also the run's guarantee.

    >>> worst_case_guarantee([PureDP(0.5), PureDP(0.7)])
    PureDP(epsilon=0.7)
    """
    if isinstance(guarantees, (str, bytes)) or not isinstance(guarantees, Iterable):
        raise DpverifyTypeError(f"guarantees={shown(guarantees)} must be a sequence of "
                                f"guarantees")
    items = list(guarantees)
    if not items:
        raise DpverifyTypeError("guarantees=[] must contain at least one guarantee")
    kind = type(items[0])
    if any(type(g) is not kind for g in items):
        raise DpverifyTypeError(f"guarantees={items!r} must all be of one type")
    if kind is PureDP:
        return PureDP(max(g.epsilon for g in items))
    if kind is ApproxDP:
        return ApproxDP(max(g.epsilon for g in items), max(g.delta for g in items))
    if kind is ZCDP:
        return ZCDP(max(g.rho for g in items), max(g.xi for g in items))
    if kind is RDPCurve:
        orders = items[0].orders
        if any(g.orders != orders for g in items):
            raise DpverifyTypeError("RDP curves to combine must share their orders")
        return RDPCurve(orders, tuple(max(values) for values in zip(*(g.epsilons for g in items))))
    raise DpverifyTypeError(f"cannot combine guarantees of type {kind.__name__}")


def as_approx_dp(guarantee: Guarantee, *, delta: float) -> ApproxDP:
    """The (ε, δ) form of a guarantee: pure ε → (ε, 0); RDP / zCDP converted at ``delta``.

    Conversions go through :func:`dpverify.accountants.rdp_to_dp` and
    :func:`dpverify.accountants.zcdp_to_dp` (tight, rounded up); an
    :class:`ApproxDP` is returned unchanged.

    >>> as_approx_dp(PureDP(0.5), delta=1e-6)
    ApproxDP(epsilon=0.5, delta=0.0)
    """
    check_delta(delta)
    if isinstance(guarantee, PureDP):
        return ApproxDP(guarantee.epsilon, 0.0)
    if isinstance(guarantee, ApproxDP):
        return guarantee
    delta = check_delta(delta, allow_zero=False)
    if isinstance(guarantee, RDPCurve):
        return rdp_to_dp(guarantee, delta=delta)
    if isinstance(guarantee, ZCDP):
        return zcdp_to_dp(guarantee, delta=delta)
    raise DpverifyTypeError(f"guarantee={guarantee!r} has no (epsilon, delta) conversion here")
