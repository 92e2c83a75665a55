"""The claim a canary-score audit tests: any privacy statement dpverify has, as a trade-off curve.

A claim is read once into a :class:`ScoreClaim`, which answers the two questions
the score audits ask of it:

* ``epsilon_at(delta)`` — an **upper** bound on the claimed ε at δ (rounded up),
  for the one-run bound of Steinke, Nasr & Jagielski (2023), which tests one
  (ε, δ) pair;
* ``tradeoff(false_positive_rates)`` — a **lower** bound on the claimed
  trade-off function ``f`` (Dong, Roth & Su 2022, Def. 2.1): no test of the
  neighbours may have type-II error below ``f(α)`` at type-I error ``α``.

Both directions are the safe side: a smaller ``f`` and a larger ε can only hide a
violation. From a privacy profile ``δ(ε)`` (an upper bound, both orders of the
pair) the curve is the maximum of the lines

.. math:: f(α) \\ge \\max\\bigl(0,\\ 1 - δ(ε) - e^{ε} α,\\ e^{-ε}(1 - δ(ε) - α)\\bigr)

over a grid of ε (Dong, Roth & Su 2022, Prop. 2.12), each lowered by its float
error; a :class:`~dpverify.accountants.pld.distribution.PrivacyLossDistribution`
goes through :func:`~dpverify.accountants.pld.tradeoff.tradeoff_curve`.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from dpverify._numeric import bisect_passing
from dpverify._validation import check_delta, check_epsilon, value_error
from dpverify.auditing.curves import claimed_delta_curve
from dpverify.errors import CalibrationError, DpverifyTypeError, UnsupportedError
from dpverify.guarantees import ZCDP, ApproxDP, PrivacyProfile, PureDP, RDPCurve

__all__ = ["ScoreClaim", "read_claim", "CLAIM_KINDS"]

#: What ``claim=`` accepts, in words (error messages and docs).
CLAIM_KINDS = ("an (epsilon, delta) pair, PureDP, ApproxDP, ZCDP, RDPCurve, PrivacyProfile, "
               "PrivacyLossDistribution, PrivacyAccountant, or a trade-off function "
               "alpha -> beta (vectorised over numpy arrays)")

_U = 2.0 ** -53
#: ε points of the line grid that turns a profile into a trade-off curve.
_GRID_POINTS = 400


def _lines(deltas_of: Callable[[float], float], alphas: np.ndarray, top: float) -> np.ndarray:
    """max over an ε grid in [0, top] of Dong–Roth–Su's two lines, each lowered by its float error."""
    epsilons = np.linspace(0.0, top, _GRID_POINTS)
    deltas = np.array([min(1.0, deltas_of(float(e))) for e in epsilons])[:, None]
    factor = np.exp(epsilons)[:, None]
    first = 1.0 - deltas - factor * alphas[None, :]
    second = (1.0 - deltas - alphas[None, :]) / factor
    slack = 8 * _U * (2.0 + factor * alphas[None, :])
    best = np.maximum(np.maximum(first, second) - slack, 0.0).max(axis=0)
    return np.minimum(best, 1.0 - alphas)


def _top_epsilon(deltas_of: Callable[[float], float]) -> float:
    """An ε where the claimed δ has fallen below 1e-12 (or 50): the end of the line grid."""
    for top in (1.0, 2.0, 4.0, 8.0, 16.0, 32.0):
        if deltas_of(top) <= 1e-12:
            return top
    return 50.0


@dataclass(frozen=True)
class ScoreClaim:
    """A claim read for a score audit (see the module docstring).

    ``pair`` is the claimed ``(ε, δ)`` when the claim is one such pair (then the
    audit's ``delta`` is the claim's); ``None`` for a curve.
    """

    description: str
    pair: tuple[float, float] | None
    delta_of: Callable[[float], float] | None
    epsilon_of: Callable[[float], float] | None
    tradeoff_of: Callable[[np.ndarray], np.ndarray] | None = None

    def epsilon_at(self, delta: float) -> float:
        """Upper bound on the claimed ε at ``delta`` (``inf`` if none is finite)."""
        if self.pair is not None:
            epsilon, claimed_delta = self.pair
            return epsilon if delta >= claimed_delta else math.inf
        if self.epsilon_of is None:
            raise UnsupportedError(
                f"the claim {self.description} is a trade-off function only; an (epsilon, "
                f"delta) form of it is needed here (give a PrivacyProfile, PLD or accountant, "
                f"or an (epsilon, delta) pair)")
        return self.epsilon_of(delta)

    def tradeoff(self, false_positive_rates: Any) -> np.ndarray:
        """Lower bound on the claimed trade-off ``f(α)`` at each α (vectorised)."""
        alphas = np.clip(np.asarray(false_positive_rates, dtype=float), 0.0, 1.0)
        flat = np.atleast_1d(alphas)
        if self.tradeoff_of is not None:
            values = np.asarray(self.tradeoff_of(flat), dtype=float)
            if values.shape != flat.shape or not np.all(np.isfinite(values)):
                raise value_error("claim", self.description,
                                  "a trade-off function returning one finite β per α")
            values = np.clip(values, 0.0, 1.0 - flat)
        elif self.pair is not None:
            values = _pair_tradeoff(*self.pair, flat)
        else:
            values = _lines(self.delta_of, flat, _top_epsilon(self.delta_of))
        return values.reshape(alphas.shape)


def _pair_tradeoff(epsilon: float, delta: float, alphas: np.ndarray) -> np.ndarray:
    """The (ε, δ)-DP trade-off curve f_{ε,δ} (Kairouz, Oh & Viswanath 2015), lowered by its float error."""
    if not math.isfinite(epsilon):
        return np.zeros_like(alphas)
    factor = math.exp(epsilon)
    first = 1.0 - delta - factor * alphas
    second = (1.0 - delta - alphas) / factor
    slack = 8 * _U * (2.0 + factor * alphas)
    return np.minimum(np.maximum(np.maximum(first, second) - slack, 0.0), 1.0 - alphas)


def _epsilon_from_deltas(deltas_of: Callable[[float], float]) -> Callable[[float], float]:
    def epsilon_of(delta: float) -> float:
        if deltas_of(0.0) <= delta:
            return 0.0
        try:
            return bisect_passing(lambda e: deltas_of(e) <= delta, 0.0, 1e4, rtol=1e-9)
        except CalibrationError:  # no ε up to 1e4 meets δ
            return math.inf
    return epsilon_of


def _pair_claim(epsilon: Any, delta: Any, description: str) -> ScoreClaim:
    epsilon = check_epsilon(epsilon, "claim epsilon")
    delta = check_delta(delta, "claim delta")
    return ScoreClaim(description=description, pair=(epsilon, delta), delta_of=None,
                      epsilon_of=None)


def read_claim(claim: Any) -> ScoreClaim:
    """Read ``claim`` (any of :data:`CLAIM_KINDS`) into a :class:`ScoreClaim`.

    >>> read_claim((1.0, 1e-5)).epsilon_at(1e-5)
    1.0
    >>> round(float(read_claim(PureDP(1.0)).tradeoff(0.1)), 6)  # 1 - e * 0.1
    0.728172
    """
    # deferred: the accountants load the PLD machinery (~0.35 s), which `import
    # dpverify.auditing` should not pay for; used only to read a claim into its curve
    from dpverify.accountants.accountant.ledger import PrivacyAccountant  # deferred: heavy
    from dpverify.accountants.pld.distribution import PrivacyLossDistribution  # deferred: heavy
    from dpverify.accountants.pld.tradeoff import tradeoff_curve  # deferred: heavy

    if isinstance(claim, ScoreClaim):
        return claim
    if isinstance(claim, tuple) and len(claim) == 2 and all(
            isinstance(v, numbers.Real) and not isinstance(v, bool) for v in claim):
        return _pair_claim(claim[0], claim[1], f"({claim[0]!r}, {claim[1]!r})-DP")
    if isinstance(claim, PureDP):
        return _pair_claim(claim.epsilon, 0.0, f"{claim.epsilon!r}-DP")
    if isinstance(claim, ApproxDP):
        return _pair_claim(claim.epsilon, claim.delta, f"({claim.epsilon!r}, {claim.delta!r})-DP")
    if isinstance(claim, (PrivacyProfile, ZCDP, RDPCurve)):
        deltas_of = claimed_delta_curve(claim)
        description = getattr(claim, "description", "") or repr(claim)
        return ScoreClaim(description=description, pair=None, delta_of=deltas_of,
                          epsilon_of=_epsilon_from_deltas(deltas_of))
    if isinstance(claim, PrivacyLossDistribution):
        pld = claim
        return ScoreClaim(description=repr(pld), pair=None, delta_of=pld.delta_for_epsilon,
                          epsilon_of=pld.epsilon_for_delta,
                          tradeoff_of=lambda a: tradeoff_curve(pld, a))
    if isinstance(claim, PrivacyAccountant):
        accountant = claim
        return ScoreClaim(description=f"the accountant's composition ({accountant!r})",
                          pair=None, delta_of=accountant.get_delta,
                          epsilon_of=accountant.get_epsilon)
    if callable(claim) and not isinstance(claim, type):
        return ScoreClaim(description=f"trade-off function {getattr(claim, '__name__', claim)!s}",
                          pair=None, delta_of=None, epsilon_of=None, tradeoff_of=claim)
    raise DpverifyTypeError(f"claim={claim!r} must be {CLAIM_KINDS}")
