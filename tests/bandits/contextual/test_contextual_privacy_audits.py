"""SBLB's privacy checked, not assumed (Garcelon et al. 2022, Prop. 4 and 13) with :func:`dpverify.auditing.audit`.

* the per-user ``M_LDP`` report at its ε0 (pure DP) — not flagged; the same
  report with the budget split over d coordinates instead of ``d(d+3)/2``
  (per-bit ε = ε0/(m d)) — flagged;
* one shuffler release (Z, U) on neighbouring batches (one user's (x, r)
  changed), drawn by the exact-law fast path (same law as the per-user path,
  test_contextual_reports.py) — at Prop. 13's per-batch claim, and on a pair
  where only Z moves, at the exact ε of the shuffled binary randomized
  response (:func:`dpverify.accountants.shuffle.shuffled_binary_rr_epsilon`) —
  neither flagged.

Why these inputs (d = 1, m = 1: the report is two bits, ỹ = r x/(2L) + ½ and
z̃ = x²/(2L²) + ½ ∈ [½, 1]): ``x x ᵀ`` does not see the sign of x, so no pair
moves every entry fully. The pair (x = L, r = 1) vs (x = 0, r = 0) moves both
entries from 1 to ½, and the outcome (0, 0) has likelihood ratio ``1/p²``.
With the correct p (per-bit ε0/2) that is ``2 ln((e^{ε0/2} + 1)/2) < ε0``;
with the buggy p' (per-bit ε0) it is ``2 ln((e^{ε0} + 1)/2) ≈ 2ε0 − 1.4``,
which exceeds ε0 = 4 by far: the categorical code ``b + 2w`` of the two bits
is the 1-D statistic that shows it. Every audit has confidence 0.999: a
correct mechanism is flagged with probability <= 1e-3 (fixed seeds here).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pytest

auditing = pytest.importorskip("dpverify.auditing")

from dpverify.accountants.shuffle import shuffled_binary_rr_epsilon  # noqa: E402
from dpverify.accountants.shuffle_papers import garcelon_per_batch_epsilon  # noqa: E402
from dpverify.bandits.contextual import reports  # noqa: E402
from dpverify.mechanisms.encoding import LocalPrivatizer  # noqa: E402

SAMPLES = 200_000
CONFIDENCE = 0.999
EPSILON_0 = 4.0


@dataclass(frozen=True)
class SplitOverCoordinates(LocalPrivatizer):
    """The bug: ε0 split over the d coordinates (per-bit ε0/(m d)) instead of d(d+3)/2 entries."""

    @property
    def randomization_probability(self) -> float:
        return 2 / (math.exp(self.local_epsilon / (self.bits * self.dimension)) + 1)


def _report_sampler(mech: LocalPrivatizer):
    def draw(data, size, rng):
        x, r = data
        b, w = mech.simulate(np.tile(x, (size, 1)), np.full(size, r), rng=rng)
        return b[:, 0, 0] + 2 * w[:, 0, 0, 0]  # the two bits as one categorical code
    return draw


PAIR = (([1.0], 1.0), ([0.0], 0.0))


def test_mldp_report_meets_its_local_epsilon() -> None:
    mech = LocalPrivatizer(dimension=1, bits=1, local_epsilon=EPSILON_0, context_bound=1.0)
    report = auditing.audit(_report_sampler(mech), *PAIR, epsilon=EPSILON_0, delta=0.0,
                            samples=SAMPLES, confidence=CONFIDENCE, seed=11)
    assert not report.violation, report


def test_mldp_with_the_budget_split_over_d_is_flagged() -> None:
    buggy = SplitOverCoordinates(dimension=1, bits=1, local_epsilon=EPSILON_0, context_bound=1.0)
    report = auditing.audit(_report_sampler(buggy), *PAIR, epsilon=EPSILON_0, delta=0.0,
                            samples=SAMPLES, confidence=CONFIDENCE, seed=11)
    assert report.violation and report.epsilon_lower_bound > 1.2 * EPSILON_0, report


# ----------------------------------------------------------------------------- one shuffler release

USERS, DELTA0 = 200, 0.01
SHUFFLE_MECH = LocalPrivatizer(dimension=1, bits=1, local_epsilon=2 * math.log(3), context_bound=1.0)
P = SHUFFLE_MECH.randomization_probability  # ε0 = (m d(d+3)/2) ln(2/p − 1) = 2 ln 3: p = 1/2


def _batch(first_context: float, first_reward: float) -> tuple[np.ndarray, np.ndarray]:
    """200 users, half x = L, half x = −L (r = 1: every encoding deterministic); user 0 replaced."""
    x = np.where(np.arange(USERS) % 2 == 0, 1.0, -1.0)[:, None]
    r = np.ones(USERS)
    x[0, 0], r[0] = first_context, first_reward
    return x, r


def _release_sampler(statistic):
    def draw(data, size, rng):
        x, r = data
        # users 1.. encode 0/1 values: their unary codes are deterministic (checked)
        rest = reports.encoded_values(SHUFFLE_MECH, x[1:], r[1:])
        assert np.all((rest == 0) | (rest == 1))
        ones = rest.sum(axis=0) + reports.encoded_ones(SHUFFLE_MECH, np.tile(x[:1], (size, 1)),
                                                       np.full(size, r[0]), rng=rng)
        release = reports.randomize_totals(ones, USERS, bits=1, randomization_probability=P, rng=rng)  # (Z, U)
        return statistic(release)
    return draw


# An audit of Prop. 13's own epsilon (69 at these parameters) could never fail at any practical
# sample size (2e5 samples per side certify at most ~9.8); the claim it implied is covered by the
# next test, which audits the exact shuffled-RR epsilon (smaller than Prop. 13's, asserted there).


@pytest.mark.slow
def test_shuffler_release_meets_the_exact_shuffled_rr_epsilon() -> None:
    """Pair moving Z only (x = L vs x = −L, r = 1; U has the same law): Z's exact ε is tight."""
    delta = 1e-3
    epsilon = shuffled_binary_rr_epsilon(P, USERS, delta)
    assert epsilon < garcelon_per_batch_epsilon(USERS, P, bits=1, dimension=1, delta=DELTA0)
    report = auditing.audit(_release_sampler(lambda z: z[:, 0]), _batch(1.0, 1.0),
                            _batch(-1.0, 1.0), epsilon=epsilon, delta=delta, samples=SAMPLES,
                            confidence=CONFIDENCE, seed=13)
    assert not report.violation, report
    assert report.epsilon_lower_bound > 0.3 * epsilon  # the audit sees most of the real loss
