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
from dpverify._validation import check_int_at_least, check_positive, check_probability

__all__ = ["TruncationWeights", "truncation_weights", "checked_truncated_gaussian"]

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


#: Largest number of terms summed for a binomial lower tail (beyond: a Chernoff bound).
_MAX_TAIL_TERMS = 5000


def _upper_tail_bounds(trials: int, probability: mpmath.mpf, at_least: int) -> tuple[mpmath.mpf, mpmath.mpf]:
    """Lower and upper bounds (mpmath) on ``P(Binomial(trials, probability) >= at_least)``.

    The smaller tail is computed: the upper one by the regularised incomplete beta function
    (its series converges fast there), the lower one as a sum of at most ``_MAX_TAIL_TERMS``
    terms; beyond that, the lower tail is bounded by Chernoff and the upper tail by 1.
    """
    if at_least <= 0:
        return mpmath.mpf(1), mpmath.mpf(1)
    if at_least > trials:
        return mpmath.mpf(0), mpmath.mpf(0)
    if at_least - 1 >= trials * probability:
        value = mpmath.betainc(at_least, trials - at_least + 1, 0, probability, regularized=True)
        return value, value
    if at_least <= _MAX_TAIL_TERMS:
        log_q, log_p = mpmath.log(probability), mpmath.log1p(-probability)
        base = mpmath.loggamma(trials + 1)
        lower = mpmath.fsum(
            mpmath.exp(
                base - mpmath.loggamma(j + 1) - mpmath.loggamma(trials - j + 1) + j * log_q + (trials - j) * log_p
            )
            for j in range(at_least)
        )
        return 1 - lower, 1 - lower
    return 1 - _lower_tail_chernoff(trials, probability, at_least - 1), mpmath.mpf(1)


def _lower_tail_chernoff(trials: int, probability: mpmath.mpf, at_most: int) -> mpmath.mpf:
    """Chernoff bound ``P(Bin(trials, probability) <= at_most) <= e^{−trials·KL(at_most/trials ‖ probability)}``
    (for ``at_most < trials·probability``; 1 otherwise)."""
    a = mpmath.mpf(at_most) / trials
    if a >= probability:
        return mpmath.mpf(1)
    kl = (a * mpmath.log(a / probability) if a > 0 else 0) + (1 - a) * mpmath.log((1 - a) / (1 - probability))
    return min(mpmath.mpf(1), mpmath.exp(-trials * kl))


def _branch_bounds(size: int, q: mpmath.mpf, cap: int) -> tuple[mpmath.mpf, mpmath.mpf, mpmath.mpf]:
    """(lower bound on T, upper bound on T, upper bound on p̄) for datasets of ``size`` records (x included).

    ``p̄ = E[qB/(K + 1) | K >= B] <= qB/(B + 1)`` caps the rate.
    """
    low, high = _upper_tail_bounds(size - 1, q, cap)  # T
    swapped = cap * _upper_tail_bounds(size, q, cap + 1)[1] / size
    rate = q * cap / (cap + 1)
    if low > 0:
        rate = min(rate, swapped / low)
    return low, high, rate


def truncation_weights(sampling_probability: float, max_sample_size: int, population_size: int) -> TruncationWeights:
    """Branch weights covering the add/remove neighbours of a dataset of ``population_size`` records.

    Removing a record pairs datasets of ``n − 1`` and ``n`` records (N = n), adding one
    pairs ``n`` and ``n + 1`` (N = n + 1); the weights bound both: ``1 − T`` and ``T``
    by their maxima over the two N, ``p̄`` by its maximum. Arguments are validated by
    the caller. Binomial tails: see :func:`_upper_tail_bounds`.
    """
    with working_precision():
        q = mpmath.mpf(sampling_probability)
        bounds = [_branch_bounds(size, q, max_sample_size) for size in (population_size, population_size + 1)]
        slack = mpmath.mpf(_BETA_SLACK)
        return TruncationWeights(
            untruncated_weight=round_up(min(1, (1 - min(b[0] for b in bounds)) * (1 + slack) + slack)),
            truncated_weight=round_up(min(1, max(b[1] for b in bounds) * (1 + slack))),
            truncated_rate=round_up(min(1, max(b[2] for b in bounds) * (1 + 4 * slack))),
        )


def checked_truncated_gaussian(sigma: float, sampling_probability: float, sensitivity: float,
                               max_sample_size: int, population_size: int
                               ) -> tuple[float, float, float, TruncationWeights]:
    """The public arguments of a truncated-Poisson Gaussian, checked by name, and its weights.

    Returns ``(sigma, q, sensitivity, weights)`` for the PLD and RDP constructors alike.
    """
    sigma = check_positive(sigma, "sigma")
    q = check_probability(sampling_probability, "sampling_probability", open_low=True)
    sensitivity = check_positive(sensitivity, "sensitivity")
    max_sample_size = check_int_at_least(max_sample_size, "max_sample_size", 1)
    population_size = check_int_at_least(population_size, "population_size", 1)
    return sigma, q, sensitivity, truncation_weights(q, max_sample_size, population_size)
