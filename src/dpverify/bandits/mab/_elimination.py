"""Shared pieces of the elimination algorithms: confidence widths, the elimination rule, schedules.

Formulas (natural logarithms throughout):

* Chowdhury & Zhou 2023, Lemma 2, the radius of batch b with
  ``|Φ(b)|`` active arms (counted *before* the elimination), batch size l(b)
  and failure probability p:

  .. math::

      β(b) = \\sqrt{\\frac{\\log(4|Φ(b)|b^2/p)}{2l(b)}}
             + \\frac{σ\\sqrt{\\log(2|Φ(b)|b^2/p)} + h\\log(2|Φ(b)|b^2/p)}{l(b)}

* Tenenbaum et al. 2021, Alg. 1–2, the width after t calls of M_sum
  on arm a with N pulls in all:

  .. math:: I = \\Big(\\frac{2\\sqrt{t}\\,σ_{ε,δ}}{N} + \\frac{1}{\\sqrt N}\\Big)\\sqrt{2\\log T}

  with ``√t σ`` the scale of the sum of the t independent SG(σ²) errors;
  we use ``√(Σ_j σ_j²)`` with each call's *actual* variance proxy, which is
  the same when every call has the same σ (and is what the Hoeffding step
  of the proof needs when they differ).

* elimination (both papers): remove every active arm with
  ``UCB_a < max_{a′ active} LCB_{a′}`` (strict; the "a′ ∈ S" of Tenenbaum et al.,
  Alg. 2 l. 16, is a typo for the viable set V).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from dpverify._validation import (
    check_failure_probability,
    check_int_at_least,
    check_positive_int,
    value_error,
)
from dpverify.bandits._policy import BanditGuarantee
from dpverify.bandits.privatizers import ErrorLaw, as_approx_dp, worst_case_guarantee
from dpverify.guarantees import ApproxDP

__all__ = [
    "chowdhury_radius",
    "tenenbaum_width",
    "surviving_arms",
    "geometric_batch_sizes",
    "radius_p",
    "schedule_guarantee",
]


def chowdhury_radius(batch_size: int, *, active_arms: int, batch_index: int,
                     failure_probability: float, error_law: ErrorLaw) -> float:
    """β(b) of Chowdhury & Zhou 2023, Lemma 2 (eq. 2) with the privatizer's (σ, h); p = ``failure_probability``.

    >>> from dpverify.bandits.privatizers import ErrorLaw
    >>> round(chowdhury_radius(4, active_arms=10, batch_index=1, failure_probability=0.1,
    ...                        error_law=ErrorLaw(0.0, 0.0)), 6)  # √(log 400 / 8)
    0.865409
    """
    l = check_positive_int(batch_size, "batch_size")
    k = check_positive_int(active_arms, "active_arms")
    b = check_positive_int(batch_index, "batch_index")
    p = check_failure_probability(failure_probability)
    sampling = math.sqrt(math.log(4 * k * b * b / p) / (2 * l))
    return sampling + error_law.radius(p / (k * b * b)) / l


def tenenbaum_width(pulls: int, *, error_variance: float, horizon: int) -> float:
    """``I = (2√V/N + 1/√N)√(2 log T)``, V the summed variance proxies of the M_sum errors.

    With V = tσ² this is the ``I^t_a`` of Tenenbaum et al. 2021 (Alg. 2 l. 15) exactly.

    >>> round(tenenbaum_width(100, error_variance=0.0, horizon=10**6), 6)  # √(2 log 10^6)/10
    0.525652
    """
    n = check_positive_int(pulls, "pulls")
    v = float(error_variance)
    if not v >= 0:
        raise ValueError(f"error_variance={error_variance!r} must be >= 0")
    t = check_int_at_least(horizon, "horizon", 2)
    return (2 * math.sqrt(v) / n + 1 / math.sqrt(n)) * math.sqrt(2 * math.log(t))


def surviving_arms(active: Sequence[int], means: Mapping[int, float],
                   widths: Mapping[int, float] | float) -> list[int]:
    """The active arms with ``UCB_a >= max_{a′} LCB_{a′}`` (strict elimination of ``UCB < max LCB``).

    ``widths`` is one radius for all arms (Chowdhury & Zhou 2023) or one per arm (Tenenbaum et al. 2021).

    >>> surviving_arms([0, 1, 2], {0: 0.875, 1: 0.5, 2: 0.75}, 0.125)  # max LCB = 0.75
    [0, 2]
    >>> surviving_arms([0, 1], {0: 0.75, 1: 0.25}, 0.25)  # UCB = LCB = 0.5: kept (not strictly below)
    [0, 1]
    """
    width = (lambda a: widths[a]) if isinstance(widths, Mapping) else (lambda a: widths)
    best_lower = max(means[a] - width(a) for a in active)
    return [a for a in active if not means[a] + width(a) < best_lower]


def geometric_batch_sizes(base: int, horizon: int) -> list[int]:
    """``base^b`` for b = 1, 2, … while ``base^b <= horizon`` (batches that can complete).

    >>> geometric_batch_sizes(4, 1000)
    [4, 16, 64, 256]
    """
    base = check_int_at_least(base, "base", 2)
    horizon = check_positive_int(horizon, "horizon")
    sizes, size = [], base
    while size <= horizon:
        sizes.append(size)
        size *= base
    return sizes or [horizon]


def radius_p(value: float | None, horizon: int) -> float:
    """The radii's failure probability p: the given one (in (0, 1/2]), or the theorems'
    ``p = 1/T`` (1/2 at T = 1)."""
    if value is None:
        return min(0.5, 1.0 / horizon)
    value = check_failure_probability(value)
    if value < 1e-300:
        raise value_error("failure_probability", value, "at least 1e-300",
                          "the elimination radius divides it by the arms and batches")
    return value



def schedule_guarantee(privatizer: Any, batch_sizes: Sequence[int], *, delta: float,
                       notes: str = "", requested: ApproxDP | None = None) -> BanditGuarantee:
    """The run's guarantee from the per-batch guarantees of every batch size that can be aggregated.

    Per batch: the worst case over ``batch_sizes`` (:func:`worst_case_guarantee`);
    total: the same, by parallel composition (every user is in one batch only,
    Chowdhury & Zhou 2023, App. D.1 / Tenenbaum et al. 2021, Sec. 2.2); ``approx_dp``: the (ε, δ) form,
    RDP and zCDP converted at ``delta`` by :mod:`dpverify.accountants`;
    ``requested`` is recorded (``claim_met``).
    """
    per_size = [privatizer.guarantee(n) for n in sorted(set(batch_sizes))]
    if per_size[0] is None:
        return BanditGuarantee(model="none", per_batch=None, total=None, approx_dp=None,
                               notes="non-private", requested=requested)
    per_batch = worst_case_guarantee(per_size)
    composition = "total = per batch by parallel composition (each user in one batch)"
    approx = as_approx_dp(per_batch, delta=delta)
    unmeetable = ""
    if requested is not None and requested.delta == 0 and approx.delta > 0:
        unmeetable = (f"the request's delta = 0 cannot be met: the per-batch guarantee is "
                      f"{type(per_batch).__name__}, (epsilon, delta)-DP only with delta > 0")
    return BanditGuarantee(model=privatizer.model, per_batch=per_batch, total=per_batch,
                           approx_dp=approx,
                           notes="; ".join(filter(None, [composition, notes,
                                                         getattr(privatizer, "theorem_note", ""),
                                                         unmeetable])),
                           requested=requested)
