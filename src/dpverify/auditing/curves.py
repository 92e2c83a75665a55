"""Audits of a whole privacy profile: :func:`audit_curve` and the claims it reads.

:func:`audit_curve` audits a claimed ε ↦ δ(ε) at a grid of ε (the
Delta-Siege idea, Lokna et al. 2023) with the pipeline of
:func:`dpverify.auditing.audit` — one search, one certification, one
Bonferroni split over every point (``docs/proofs/auditing.md`` §4);
:func:`claimed_delta_curve` turns any guarantee type into that δ(ε), rounded up.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import mpmath
import numpy as np

from dpverify._numeric import bisect_passing, round_up, working_precision
from dpverify._validation import check_epsilon, check_flag, value_error
from dpverify.auditing._pipeline.arguments import check_common
from dpverify.auditing._pipeline.engine import certified_bounds, run_search_and_count
from dpverify.auditing._pipeline.sampler import Sampler, prepare_draw
from dpverify.auditing.estimators import delta_lower_bound, epsilon_lower_bound
from dpverify.auditing.report import CurveAuditReport, CurvePoint
from dpverify.errors import DpverifyTypeError
from dpverify.guarantees import ZCDP, ApproxDP, PrivacyProfile, PureDP, RDPCurve

__all__ = ["audit_curve", "claimed_delta_curve"]


def _approx_dp_delta(epsilon_0: float, delta_0: float) -> Callable[[float], float]:
    """δ(ε) of the dominating pair of (ε0, δ0)-DP (Kairouz, Oh & Viswanath 2015, Thm 2.1).

    .. math:: δ(ε) = δ_0 + (1 - δ_0)\\frac{(e^{ε_0} - e^{ε})_+}{1 + e^{ε_0}},

    the largest δ(ε) any (ε0, δ0)-DP pair can have; rounded up.
    """
    def curve(epsilon: float) -> float:
        with working_precision():
            weight = mpmath.exp(epsilon_0)
            excess = max(mpmath.mpf(0), weight - mpmath.exp(epsilon))
            return min(1.0, round_up(delta_0 + (1 - mpmath.mpf(delta_0)) * excess / (1 + weight),
                                     relative_error=1e-40))
    return curve


def claimed_delta_curve(profile: Any) -> Callable[[float], float]:
    """The claim as ``ε ↦ δ(ε)`` (an upper bound, rounded up) for any guarantee type.

    ``PrivacyProfile`` is evaluated directly; ``ZCDP`` and ``RDPCurve`` go
    through :mod:`dpverify.accountants` (``zcdp_to_dp_delta``,
    ``rdp_to_dp_delta``); ``PureDP`` and ``ApproxDP`` use their dominating
    pair. Rounding up can only hide violations, never invent them.

    >>> curve = claimed_delta_curve(PureDP(1.0))
    >>> round(curve(0.0), 6)  # (e - 1)/(e + 1)
    0.462117
    """
    if isinstance(profile, PrivacyProfile):
        return profile.delta_for_epsilon
    if isinstance(profile, ZCDP):
        # dpverify.accountants loads the PLD machinery (scipy.signal, ~0.35 s), which
        # `import dpverify.auditing` should not pay for (PureDP and ApproxDP claims need none)
        from dpverify.accountants.zcdp import zcdp_to_dp_delta  # deferred: heavy

        return lambda epsilon: zcdp_to_dp_delta(profile, epsilon=epsilon)
    if isinstance(profile, RDPCurve):
        from dpverify.accountants.rdp import rdp_to_dp_delta  # deferred: heavy (as above)

        return lambda epsilon: rdp_to_dp_delta(profile, epsilon=epsilon)
    if isinstance(profile, ApproxDP):
        return _approx_dp_delta(profile.epsilon, profile.delta)
    if isinstance(profile, PureDP):
        return _approx_dp_delta(profile.epsilon, 0.0)
    raise DpverifyTypeError(f"profile={profile!r} must be a PrivacyProfile, ZCDP, RDPCurve, "
                            f"ApproxDP or PureDP")


def _default_epsilons(curve: Callable[[float], float], samples: int) -> tuple[float, ...]:
    """Eight ε in (0, ε_hi], ε_hi where the claimed δ falls to ~10/samples (or its floor)."""
    target = max(10.0 / samples, curve(64.0) * (1 + 1e-9))
    if curve(0.0) <= target:
        return (0.0,)
    high = bisect_passing(lambda e: curve(e) <= target, 0.0, 64.0, rtol=1e-3)
    return tuple(float(e) for e in np.linspace(high / 8, high, 8))


def _check_epsilons(epsilons: Any) -> tuple[float, ...]:
    if isinstance(epsilons, (str, bytes)) or not isinstance(epsilons, Sequence) or not epsilons:
        raise DpverifyTypeError(f"epsilons={epsilons!r} must be a non-empty sequence of "
                                f"epsilons")
    values = tuple(check_epsilon(e, f"epsilons[{i}]") for i, e in enumerate(epsilons))
    if len(values) > 40:
        raise value_error("epsilons", f"<{len(values)} values>", "at most 40 points")
    return values


def audit_curve(sampler: Sampler, x: Any, x_prime: Any, *, profile: Any,
                epsilons: Sequence[float] | None = None, samples: int = 1_000_000,
                confidence: float = 0.95, seed: Any = None, events: Any = "auto",
                progress: bool | None = False, threads: Any = "auto") -> CurveAuditReport:
    """Audit a claimed privacy profile ε ↦ δ(ε) at a grid of ε; report the most violated point.

    Parameters
    ----------
    sampler, x, x_prime, samples, confidence, seed, events, progress, threads
        As in :func:`audit` (``samples`` a number).
    profile
        The claim: a :class:`~dpverify.guarantees.PrivacyProfile`, or a
        ``ZCDP``, ``RDPCurve``, ``ApproxDP`` or ``PureDP`` converted to its
        implied δ(ε) (:func:`claimed_delta_curve`).
    epsilons
        The ε grid (at most 40 points); default eight points up to where the
        claimed δ falls to about ``10/samples``.

    Returns
    -------
    CurveAuditReport
        Per point, the certified ``δ_lb(ε) = max_S p_low(S) − e^ε p'_high(S)``
        and ``ε_lb(δ(ε))``; a point is violated when ``ε_lb > ε``.

    Notes
    -----
    The Delta-Siege idea (Lokna et al. 2023): audit the whole (ε, δ) curve,
    not one point, since an implementation can meet one (ε, δ) and fail
    another. **Correction across points:** the search picks the best events
    for each point's δ; all picked events are certified once, with the
    Bonferroni split of :func:`audit` over the union (at most 20 per
    direction). Every point's bound is a function of those simultaneous
    bounds, so the false-alarm probability of the *whole curve* is at most
    ``1 − confidence``.

    Examples
    --------
    A Gaussian claimed as 0.5-zCDP (σ = 1) but run with σ = 0.5:

    >>> from dpverify import ZCDP
    >>> def gaussian(data, size, rng):
    ...     return data + rng.normal(0.0, 0.5, size)
    >>> report = audit_curve(gaussian, 0.0, 1.0, profile=ZCDP(0.5), samples=200_000, seed=3)
    >>> report.violation
    True
    """
    samples, confidence, events = check_common(sampler, samples, confidence, seed, events)
    if progress is not None:  # None: a bar only for long audits
        check_flag(progress, "progress")
    curve = claimed_delta_curve(profile)
    grid = _default_epsilons(curve, samples) if epsilons is None else _check_epsilons(epsilons)
    start = time.perf_counter()
    claimed = tuple(curve(e) for e in grid)
    draw, threaded = prepare_draw(sampler, x, x_prime, seed, threads, samples)
    counts = run_search_and_count(draw, samples=samples, families=events,
                                  targets=tuple(("delta", min(d, 1 - 1e-12)) for d in claimed),
                                  confidence=confidence, progress=progress, threads=threaded)
    bounds = certified_bounds(counts, confidence)
    pairs = list(zip(bounds.p_lower.tolist(), bounds.p_prime_upper.tolist()))
    points = []
    for epsilon, delta in zip(grid, claimed):
        safe_delta = min(delta, 1 - 1e-12)
        eps_bounds = [epsilon_lower_bound(low, high, delta=safe_delta) for low, high in pairs]
        best = int(np.argmax(eps_bounds))
        delta_bound = max(delta_lower_bound(low, high, epsilon=epsilon) for low, high in pairs)
        points.append(CurvePoint(epsilon, delta, delta_bound, eps_bounds[best],
                                 counts.candidates[best].event, eps_bounds[best] > epsilon))
    worst = max(points, key=lambda p: p.excess)
    return CurveAuditReport(guarantee=profile, points=tuple(points), most_violated=worst,
                            violation=any(p.violation for p in points), samples=samples,
                            seconds=time.perf_counter() - start, confidence=confidence,
                            bounds=bounds.bounds, kind=counts.kind)
