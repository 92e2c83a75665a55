"""The two branches of truncated Poisson sampling: a Poisson sample capped at B records.

Each of the records is kept independently with probability q; if more than B are
kept, a uniformly random B of them are used (dp_accounting's
``TruncatedSubsampledGaussianDpEvent``; arXiv:2508.15089). For a neighbouring pair
that differs in one record x, let K be the number of the *other* records kept,
``K ~ Binomial(N − 1, q)`` where N counts x:

* ``K < B``: no truncation can involve x; the release is the Poisson-subsampled
  mechanism at rate q;
* ``K >= B`` (probability T): x is kept w.p. ``qB/(K + 1)``, and then replaces one of
  the B records; the kept set is otherwise a uniform B-subset of the other records
  whatever K is, so the branch is the subsampled *swap* at the averaged rate

  .. math:: p̄ = E[qB/(K+1) \\mid K >= B] = \\frac{(B/N)\\,P(\\mathrm{Bin}(N, q) >= B + 1)}{T}.

The privacy of the release is at most the mixture, weights ``1 − T`` and ``T``, of
the two branches' (hockey-stick or Rényi-moment) values: ``docs/proofs/pld.md``,
"Truncated Poisson sampling".
"""

from __future__ import annotations

from dataclasses import dataclass

import mpmath

from dpverify._numeric import round_up, working_precision

__all__ = ["TruncationWeights", "truncation_weights"]

#: Relative error allowed for mpmath's regularised incomplete beta at 50 digits (far larger).
_BETA_SLACK = 1e-30


@dataclass(frozen=True, slots=True)
class TruncationWeights:
    """Bounds on the branch weights of truncated Poisson sampling (floats, rounded outwards).

    ``untruncated_weight >= 1 − T`` and ``truncated_weight >= T`` for every covered
    pair (their sum may exceed 1 slightly: added mass is pessimistic), and
    ``truncated_rate >= p̄`` (a larger rate dominates: the subsampled pair's divergences
    are non-decreasing in the rate).
    """

    untruncated_weight: float
    truncated_weight: float
    truncated_rate: float


def _binomial_upper_tail(trials: int, probability: mpmath.mpf, at_least: int) -> mpmath.mpf:
    """``P(Binomial(trials, probability) >= at_least)`` (regularised incomplete beta, mpmath)."""
    if at_least <= 0:
        return mpmath.mpf(1)
    if at_least > trials:
        return mpmath.mpf(0)
    return mpmath.betainc(at_least, trials - at_least + 1, 0, probability, regularized=True)


def truncation_weights(sampling_probability: float, max_sample_size: int, population_size: int) -> TruncationWeights:
    """Branch weights covering the add/remove neighbours of a dataset of ``population_size`` records.

    Removing a record pairs datasets of ``n − 1`` and ``n`` records (N = n), adding one
    pairs ``n`` and ``n + 1`` (N = n + 1); the weights bound both: ``1 − T`` and ``T``
    by their maxima over the two N, ``p̄`` by its maximum. Arguments are validated by
    the caller.
    """
    with working_precision():
        q = mpmath.mpf(sampling_probability)
        truncation, rate = [], []
        for size in (population_size, population_size + 1):
            tail = _binomial_upper_tail(size - 1, q, max_sample_size)  # T
            swapped = max_sample_size * _binomial_upper_tail(size, q, max_sample_size + 1) / size
            truncation.append(tail)
            rate.append(swapped / tail if tail > 0 else mpmath.mpf(0))
        slack = mpmath.mpf(_BETA_SLACK)
        return TruncationWeights(
            untruncated_weight=round_up(min(1, (1 - min(truncation)) * (1 + slack) + slack)),
            truncated_weight=round_up(min(1, max(truncation) * (1 + slack))),
            truncated_rate=round_up(min(1, max(rate) * (1 + 4 * slack))),
        )
