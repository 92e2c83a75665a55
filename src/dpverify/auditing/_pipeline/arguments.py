"""The arguments every audit entry point shares, checked at the public boundary.

:func:`check_common` validates ``sampler``, ``samples``, ``confidence``,
``seed`` and ``events`` for :func:`~dpverify.auditing.audit`,
:func:`~dpverify.auditing.audit_curve` and
:func:`~dpverify.auditing.audit_sequential`; the worst-pair search, the
interactive audits and the divergence bounds check their own and call
:func:`check_events`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dpverify._validation import check_confidence, check_int_at_least, check_seed, value_error
from dpverify.auditing.events import FAMILIES
from dpverify.errors import DpverifyTypeError

__all__ = ["check_events", "check_common", "check_audit_samples", "MAX_AUDIT_SAMPLES"]


def check_events(events: Any) -> Any:
    """``"auto"``, a family name, or a non-empty list of indicator callables."""
    if isinstance(events, str):
        if events not in ("auto", *FAMILIES):
            raise value_error("events", events, f"one of {('auto', *FAMILIES)!r} or a list of "
                                                f"indicator callables")
        return events
    if isinstance(events, Sequence) and events and all(callable(e) for e in events):
        return list(events)
    raise DpverifyTypeError(f"events={events!r} must be 'auto', a family name, or a non-empty "
                            f"list of callables samples -> bool array")


#: Most samples per side of one audit (drawn and counted in chunks; time grows with them).
MAX_AUDIT_SAMPLES = 10**9


def check_audit_samples(samples: Any, name: str = "samples", minimum: int = 10) -> int:
    """An int in ``[minimum, MAX_AUDIT_SAMPLES]``, refused by ``name`` before any draw."""
    return check_int_at_least(samples, name, minimum, maximum=MAX_AUDIT_SAMPLES,
                              instead="an audit's error shrinks like 1/sqrt(samples); run "
                                      "several seeded audits and combine them")


def check_common(sampler: Any, samples: Any, confidence: Any, seed: Any,
                  events: Any) -> tuple[int, float, Any]:
    if not callable(sampler):
        raise DpverifyTypeError(f"sampler={sampler!r} must be callable: (data, size, rng) -> "
                                f"array")
    samples = check_audit_samples(samples)
    confidence = check_confidence(confidence)
    check_seed(seed)
    return samples, confidence, check_events(events)


