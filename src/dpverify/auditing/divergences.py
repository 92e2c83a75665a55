"""Hockey-stick divergence lower bounds from two samples, sound with confidence.

The hockey-stick divergence ``H_{e^ε}(P‖Q) = sup_S P(S) − e^ε Q(S)`` is the
δ(ε) of a pair of output laws. Any one event gives a lower bound, and
Clopper–Pearson bounds on its two probabilities make that bound hold with a
stated confidence; :func:`hockey_stick_lower_bound` searches the event on one
part of the samples and certifies it on the other, in both directions, with
the same Bonferroni accounting as :func:`dpverify.auditing.audit`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from dpverify._record_validation import check_record
from dpverify._validation import (
    check_confidence,
    check_epsilon,
    check_real_array,
    value_error,
)
from dpverify.auditing._pipeline.arguments import check_events
from dpverify.auditing._pipeline.engine import (
    certified_bounds,
    checked_output,
    run_search_and_count,
    sliced_draw,
)
from dpverify.auditing.estimators import delta_lower_bound
from dpverify.auditing.events import OutputEvent
from dpverify.errors import AuditError

__all__ = ["HockeyStickBound", "hockey_stick_lower_bound"]


@dataclass(frozen=True)
class HockeyStickBound:
    """``delta_lower_bound <= max(H_{e^ε}(P‖Q), H_{e^ε}(Q‖P))`` with probability >= ``confidence``."""

    epsilon: float
    delta_lower_bound: float
    event: OutputEvent
    direction: str
    confidence: float
    samples: int

    def __post_init__(self) -> None:
        check_record(self)


def hockey_stick_lower_bound(samples: Any, samples_prime: Any, *, epsilon: float,
                             confidence: float = 0.95, events: Any = "auto") -> HockeyStickBound:
    """A confidence lower bound on the hockey-stick divergence of two sampled laws.

    Parameters
    ----------
    samples, samples_prime
        Independent outputs of ``M(x)`` and ``M(x')``, equally many (>= 10),
        shape ``(n,)`` or ``(n, d)``. The first third (at most 10^6) chooses
        the event, the rest certifies it (order them as drawn).
    epsilon
        ε >= 0 of ``H_{e^ε}``.
    confidence
        Probability that the bound holds.
    events
        As in :func:`dpverify.auditing.audit`.

    Returns
    -------
    HockeyStickBound
        ``max_S p_low(S) − e^ε p'_high(S)`` over the certified candidates,
        rounded down (0 when nothing is certified).

    Notes
    -----
    **Soundness:** a lower bound on the larger of the two orders' divergences
    (the pair's δ(ε)), with probability >= ``confidence``; events are chosen
    on a split disjoint from the certifying one, and the Clopper–Pearson
    bounds are Bonferroni-corrected over every candidate and direction.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> p = rng.laplace(0.0, 1.0, 300_000)
    >>> q = rng.laplace(1.0, 1.0, 300_000)
    >>> bound = hockey_stick_lower_bound(p, q, epsilon=0.5)
    >>> 0.15 < bound.delta_lower_bound <= 0.2212  # exact: 1 - e^{-1/4}
    True
    """
    epsilon = check_epsilon(epsilon, "epsilon")
    confidence = check_confidence(confidence)
    for name, values in (("samples", samples), ("samples_prime", samples_prime)):
        if check_real_array(values, name).ndim == 0:
            raise value_error(name, values, "an array of outputs, one per draw")
    first, second = np.asarray(samples), np.asarray(samples_prime)  # keep integer codes exact
    events = check_events(events)
    if len(first) != len(second):
        raise value_error("samples_prime", f"<{len(second)} outputs>",
                          f"as many outputs as samples ({len(first)})")
    first = checked_output(first, len(first), None, "samples")
    second = checked_output(second, len(second), None, "samples_prime")
    try:
        counts = run_search_and_count(sliced_draw(first, second), samples=len(first),
                                      families=events, targets=(("epsilon", epsilon),),
                                      confidence=confidence)
    except AuditError as error:
        raise AuditError(f"no event to certify at epsilon={epsilon!r} with {len(first)} samples "
                         f"and events={events!r}: {error}") from error
    bounds = certified_bounds(counts, confidence)
    values = [delta_lower_bound(float(low), float(high), epsilon=epsilon)
              for low, high in zip(bounds.p_lower, bounds.p_prime_upper)]
    best = int(np.argmax(values))
    candidate = counts.candidates[best]
    return HockeyStickBound(epsilon, values[best], candidate.event,
                            "x, x'" if candidate.first == 0 else "x', x", confidence, len(first))
