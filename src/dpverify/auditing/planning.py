"""Sample planning: what an audit of ``n`` samples can certify, and how many samples a violation needs.

An audit certifies ``ε_lb = ln((p_low − δ)/p'_high)`` from Clopper–Pearson
bounds at level ``α = (1 − confidence)/m`` (``m`` one-sided bounds, Bonferroni;
:func:`dpverify.auditing._pipeline.engine.certified_bounds`). Two questions
follow:

* :func:`largest_certifiable_epsilon` — the most any event can certify with
  ``n`` certifying outputs per side: all ``n`` outputs of one side in ``S``
  and none of the other, ``p_low = α^{1/n}``, ``p'_high = 1 − α^{1/n}``. If
  that is at most the claimed ε the audit cannot refute the claim whatever
  the mechanism does: :func:`check_samples_can_certify` refuses such an audit
  (the CLI) or warns (:func:`~dpverify.auditing.audit`). A pure-ε audit with
  at least :data:`~dpverify.auditing._pipeline.engine.PREFIX_MIN` certifying
  outputs may also certify by the conditional ratio bound; its best case
  (every prefix output on one side, ``K <= n`` of them) is included.
* :func:`samples_to_certify` — the samples per side at which an event of
  probability ``p`` under ``M(x)`` and true ratio ``e^{ε_true}`` certifies
  ``ε_lb > ε`` with a stated probability (``power``), from the exact binomial
  quantiles of the two counts.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

from scipy import stats

from dpverify._deprecation import renamed_parameters
from dpverify._validation import (
    check_confidence,
    check_delta,
    check_epsilon,
    check_int_at_least,
    check_probability,
    value_error,
)
from dpverify.auditing._pipeline.engine import (
    PREFIX_MIN,
    SEARCH_CAP,
    SEARCH_FRACTION,
    SEPARATE_SHARE,
)
from dpverify.auditing.estimators import (
    clopper_pearson_lower,
    clopper_pearson_upper,
    conditional_ratio_lower,
    epsilon_lower_bound,
    ratio_epsilon,
)
from dpverify.errors import AuditWarning

__all__ = ["largest_certifiable_epsilon", "samples_to_certify", "check_samples_can_certify",
           "PLANNED_BOUNDS", "MAX_PLANNED_SAMPLES"]

#: One-sided bounds of a one-point audit with the default event search (2 x 2 x 3).
PLANNED_BOUNDS = 12
#: :func:`samples_to_certify` answers ``inf`` beyond this many samples per side.
MAX_PLANNED_SAMPLES = 10 ** 15


def _bound(n: int, k: int, k_prime: int, alpha: float, delta: float) -> float:
    low = float(clopper_pearson_lower(k, n, failure_probability=alpha))
    high = float(clopper_pearson_upper(k_prime, n, failure_probability=alpha))
    return epsilon_lower_bound(low, high, delta=delta)


@renamed_parameters(n_certify="certify_samples")
def largest_certifiable_epsilon(certify_samples: int, *, confidence: float = 0.95,
                                delta: float = 0.0, bounds: int = 2) -> float:
    """The largest ε lower bound ``certify_samples`` outputs per side can ever certify.

    Parameters
    ----------
    certify_samples
        Certifying outputs per side.
    confidence
        The audit's confidence.
    delta
        The claimed δ.
    bounds
        One-sided bounds sharing ``1 − confidence`` (2 for one event in one
        direction, the least any audit uses).

    Examples
    --------
    Ten outputs per side cannot refute ε = 1 at confidence 0.95:

    >>> round(largest_certifiable_epsilon(10, confidence=0.95), 3)
    0.807
    """
    n_certify = check_int_at_least(certify_samples, "certify_samples", 1)
    confidence = check_confidence(confidence)
    delta = check_delta(delta, "delta")
    bounds = check_int_at_least(bounds, "bounds", 1)
    if delta == 0 and n_certify >= PREFIX_MIN:  # conditional bounds share the budget
        candidates = max(1, bounds // 2)
        separate = _bound(n_certify, n_certify, 0,
                          SEPARATE_SHARE * (1 - confidence) / (2 * candidates), delta)
        ratio = conditional_ratio_lower(n_certify, 0, failure_probability=(1 - SEPARATE_SHARE)
                                        * (1 - confidence) / candidates)
        return max(separate, ratio_epsilon(ratio))
    return _bound(n_certify, n_certify, 0, (1 - confidence) / bounds, delta)


def certify_split_size(samples: int, events: Any) -> int:
    """Certifying outputs per side of an audit of ``samples``: all, or what the search leaves."""
    if not isinstance(events, str):
        return samples
    return samples - min(max(1, int(samples * SEARCH_FRACTION)), SEARCH_CAP)


def _clearly_certifiable(n_certify: int, epsilon: float, delta: float, confidence: float) -> bool:
    """Whether :func:`largest_certifiable_epsilon` is plainly above ``epsilon``, in closed form.

    Its separate bound at the extreme counts ``(n, 0)`` is ``ln((a − δ)/(1 − a))`` with
    ``a = α^{1/n}``, both Clopper–Pearson bounds in closed form (``k = n`` and ``k' = 0``),
    and the function returns at least that. Computed in floats and kept only when it
    exceeds ``epsilon`` by a relative ``10^-6`` (the exact bounds differ from it by about
    ``10^-9``): the check then passes without the exact quantiles (a few ms of scipy and
    mpmath per audit); otherwise the exact computation decides.
    """
    try:
        if not (epsilon >= 0 and 0 <= delta < 1 and 0 < confidence < 1 and n_certify >= 1):
            return False
    except TypeError:   # not numbers: the exact path refuses them by name
        return False
    share = SEPARATE_SHARE / 2 if delta == 0 and n_certify >= PREFIX_MIN else 0.5
    log_low = math.log(share * (1 - confidence)) / n_certify
    low, high = math.exp(log_low), -math.expm1(log_low)
    if not (low > delta and high > 0):
        return False
    estimate = math.log((low - delta) / high)
    return estimate - 1e-6 * (1 + abs(estimate)) > epsilon


def check_samples_can_certify(samples: int, *, epsilon: float, delta: float, confidence: float,
                              events: Any, refuse: bool = True) -> None:
    """Refuse (``ValueError`` naming ``samples``) an audit that cannot certify any ε above the claim.

    ``refuse=False`` warns instead (:class:`~dpverify.errors.AuditWarning`),
    which is what :func:`~dpverify.auditing.audit` does: such an audit runs, but it can never
    fail, and says so.

    Even the most separating event (every output of one side in it, none of
    the other) certifies at most
    :func:`largest_certifiable_epsilon` of the certifying split; the message says how many samples the most extreme
    violation needs and points to ``samples="auto"``.
    """
    samples = check_int_at_least(samples, "samples", 10)  # an audit's least: named before the split
    if _clearly_certifiable(certify_split_size(samples, events), epsilon, delta, confidence):
        return
    bound = largest_certifiable_epsilon(certify_split_size(samples, events), confidence=confidence,
                                        delta=delta)
    if bound > epsilon:
        return
    needed = samples
    while largest_certifiable_epsilon(certify_split_size(needed, events), confidence=confidence,
                                      delta=delta) <= epsilon:
        needed *= 2
        if needed > 10 ** 13:
            break
    if needed > 10 ** 13:  # the claim itself is beyond any practical audit: name epsilon
        most = largest_certifiable_epsilon(certify_split_size(needed, events),
                                           confidence=confidence, delta=delta)
        error = value_error("epsilon", epsilon, f"at most {most:.3g} for an audit to refute it",
                            f"even {needed} samples per side (samples={samples} given) cannot "
                            f"certify an epsilon above it at confidence {confidence:g}; audit a "
                            f"smaller claim")
    else:
        error = value_error("samples", samples, "large enough to certify an epsilon above the "
                            f"claim {epsilon!r}",
                            f"with {samples} samples per side no event can certify more than "
                            f"{bound:.3g} at confidence {confidence:g}, so the audit could never "
                            f"refute the claim; use samples={needed} or more (the least that can "
                            f"refute it even for a mechanism with disjoint outputs; real "
                            f"violations need more: see dpverify.auditing.samples_to_certify) or "
                            f"samples='auto'")
    if refuse:
        raise error
    warnings.warn(f"this audit cannot fail: {error}", AuditWarning, stacklevel=3)


def samples_to_certify(probability: float, true_epsilon: float, *, epsilon: float,
                       delta: float = 0.0, confidence: float = 0.95, power: float = 0.5,
                       bounds: int = PLANNED_BOUNDS, search_fraction: float = 1 / 3) -> float:
    """Outputs per side an audit needs to certify a violation on one event.

    The event ``S`` has ``p = P[M(x) ∈ S] = probability`` and
    ``p' = P[M(x') ∈ S] = (p − δ) e^{−ε_true}``. With ``n`` certifying outputs
    per side the counts are ``K ~ Bin(n, p)`` and ``K' ~ Bin(n, p')``; the
    audit certifies when ``ln((CP_low(K) − δ)/CP_high(K')) > ε``. This returns
    the smallest ``n`` (on a grid of ratio 1.05) at which that happens when
    ``K`` is at its ``(1 − √power)``-quantile and ``K'`` at its
    ``√power``-quantile — so with probability at least ``power`` (the counts
    are independent) — scaled up by the search split:
    ``n/(1 − search_fraction)``.

    Parameters
    ----------
    probability
        ``p`` in (0, 1].
    true_epsilon
        The event's log ratio (``inf``: ``p' = 0``).
    epsilon, delta
        The claim; ``true_epsilon`` must exceed ``epsilon``.
    confidence, bounds
        The audit's confidence and its number of one-sided bounds (12 for a
        default one-point audit).
    power
        Probability of certifying (default 0.5: the median case).
    search_fraction
        The share of samples spent on the event search (1/3 by default; 0 for
        user-supplied events).

    Returns
    -------
    float
        Samples per side (``inf`` when no ``n <= 10^15`` suffices).

    Examples
    --------
    An event of probability 0.1 with true ratio e^{1.2}, claim ε = 1:

    >>> n = samples_to_certify(0.1, 1.2, epsilon=1.0)
    >>> 10_000 < n < 100_000
    True
    """
    p = check_probability(probability, "probability", open_low=True)
    true_epsilon = check_epsilon(true_epsilon, "true_epsilon", allow_inf=True)
    epsilon = check_epsilon(epsilon, "epsilon")
    delta = check_delta(delta, "delta")
    confidence = check_confidence(confidence)
    power = check_probability(power, "power", open_low=True, open_high=True)
    bounds = check_int_at_least(bounds, "bounds", 1)
    search_fraction = check_probability(search_fraction, "search_fraction", open_high=True)
    if true_epsilon <= epsilon:
        raise value_error("true_epsilon", true_epsilon, f"> epsilon={epsilon!r}",
                          "an audit cannot certify a violation that is not there")
    if p <= delta:
        raise value_error("probability", probability, f"> delta={delta!r}")
    p_prime = 0.0 if math.isinf(true_epsilon) else (p - delta) * math.exp(-true_epsilon)
    alpha = (1 - confidence) / bounds
    each = math.sqrt(power)

    def certifies(n: int) -> bool:
        k = int(stats.binom.ppf(1 - each, n, p))
        k_prime = int(stats.binom.ppf(each, n, p_prime)) if p_prime > 0 else 0
        return _bound(n, k, k_prime, alpha, delta) > epsilon

    n = 2
    while not certifies(n):
        if n > MAX_PLANNED_SAMPLES:
            return math.inf
        n = max(n + 1, int(n * 1.05))
    return math.ceil(n / (1 - search_fraction))
