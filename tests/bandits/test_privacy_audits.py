"""Privacy checked, not assumed: one batch of every privatizer audited on neighbouring rewards.

Each audit draws the analyser's output on two reward vectors that differ in one
user's reward and asks :func:`dpverify.auditing.audit` for a lower bound on ε
with confidence 0.999, against the privatizer's own per-batch claim (its
:meth:`guarantee`, in (ε, δ) form). A correct privatizer is flagged falsely
with probability at most 1e-3 per audit (fixed seeds here). The same audit flags
the reference code's Pólya sampler with the inverted Gamma scale
((1 − β)/β instead of footnote 3's β/(1 − β), Chowdhury & Zhou 2023), written only here.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

auditing = pytest.importorskip("dpverify.auditing")

from dpverify.bandits._policy import RewardBatch  # noqa: E402
from dpverify.bandits.privatizers import (  # noqa: E402
    CentralDiscreteLaplace,
    CentralLaplace,
    DiscreteGaussianSecureAggregation,
    LocalDiscreteLaplace,
    PolyaSecureAggregation,
    PolyaShuffle,
    ShuffledNoisyBits,
    ShuffledRandomizedResponse,
    SkellamSecureAggregation,
    as_approx_dp,
)

SAMPLES = 200_000
CONFIDENCE = 0.999
X = np.array([0.0, 1.0, 0.0, 0.7, 1.0, 0.0, 0.5, 0.2])
X_PRIME = X.copy()
X_PRIME[0] = 1.0  # one user's reward changed
BITS = np.array([0, 1, 0, 1, 1, 0, 0, 1])
BITS_PRIME = BITS.copy()
BITS_PRIME[0] = 1


def _sampler(privatizer, *, binary: bool, scale: float = 1.0):
    """``sampler(rewards, size, rng)``: the analyser's estimate of one batch (times ``scale``).

    Drawn with the privatizer's vectorised ``sample_estimates``, whose law is
    the fast path's (test_privatizers), which is the per-user path's.
    """
    def draw(data, size, rng):
        values = np.asarray(data)
        if binary:
            rewards = RewardBatch(size=len(values), total=int(values.sum()), binary=True)
        else:
            rewards = RewardBatch(size=len(values), total=float(values.sum()), values=values)
        out = privatizer.sample_estimates(rewards, size=size, rng=rng)
        return np.round(out * scale).astype(np.int64) if scale != 1.0 else out
    return draw


def _claim(privatizer, users: int):
    claim = as_approx_dp(privatizer.guarantee(users), delta=1e-3)
    return claim.epsilon, claim.delta


CASES = [
    ("Pólya SecAgg", PolyaSecureAggregation(1.0, 1e-3), False),
    ("Skellam SecAgg", SkellamSecureAggregation(1.0, 1.0, 1e-3), False),
    ("discrete Gaussian SecAgg", DiscreteGaussianSecureAggregation(0.9, 1.0, 1e-3), False),
    ("Pólya shuffle (Thm 3)", PolyaShuffle(2.0, 1e-3), False),
    ("central discrete Laplace", CentralDiscreteLaplace(1.0, 1e-3), False),
    ("local discrete Laplace", LocalDiscreteLaplace(1.0, 1e-3), False),
    ("central Laplace (DP-SE)", CentralLaplace(1.0), False),
    ("noise bits M_sum", ShuffledNoisyBits(1.0, 1e-3), True),
    ("randomized-response M_sum", ShuffledRandomizedResponse(1.0, 0.05), True),
]


def _scale(privatizer) -> float:
    if hasattr(privatizer, "parameters"):
        return float(privatizer.parameters(len(X)).precision)  # estimates are multiples of 1/g
    return 1.0


@pytest.mark.slow
@pytest.mark.parametrize("label, privatizer, binary", CASES, ids=[c[0] for c in CASES])
def test_privatizer_meets_its_claim(label, privatizer, binary) -> None:
    epsilon, delta = _claim(privatizer, len(X))
    x, x_prime = (BITS, BITS_PRIME) if binary else (X, X_PRIME)
    sampler = _sampler(privatizer, binary=binary, scale=_scale(privatizer))
    report = auditing.audit(sampler, x, x_prime, epsilon=epsilon, delta=delta, samples=SAMPLES,
                            confidence=CONFIDENCE, seed=7)
    assert not report.violation, report


class InvertedScalePolya(PolyaSecureAggregation):
    """The reference code's bug: Pólya via Gamma scale (1 − β)/β, not β/(1 − β) (Chowdhury & Zhou, fn. 3)."""

    def _aggregate_noise(self, parameters, rng, size=None):
        beta = math.exp(-self.epsilon / parameters.precision)
        shape, wrong_scale = 1 / parameters.users, (1 - beta) / beta
        draws = 1 if size is None else size
        shares = rng.poisson(rng.gamma(shape, wrong_scale, size=(draws, 2, parameters.users)))
        noise = shares[:, 0].sum(axis=1) - shares[:, 1].sum(axis=1)
        return int(noise[0]) if size is None else noise


@pytest.mark.slow
def test_the_audit_flags_the_inverted_scale_polya_sampler() -> None:
    buggy = InvertedScalePolya(1.0, 1e-3)
    epsilon, delta = _claim(buggy, len(X))  # it claims what the correct protocol claims: ε = 1
    report = auditing.audit(_sampler(buggy, binary=False, scale=_scale(buggy)), X, X_PRIME,
                            epsilon=epsilon, delta=delta, samples=SAMPLES, confidence=CONFIDENCE,
                            seed=7)
    assert report.violation and report.epsilon_lower_bound > 1.5 * epsilon
