"""Simulated regret against a paper's bound: the rows, the verdict rule, the figure.

Two rules, both stated with their false-failure probability:

* an **explicit** bound (every constant printed) is refuted at horizon T when
  the simulated mean regret exceeds it by more than ``Z_MARGIN`` standard
  errors (one-sided normal approximation: false failure <= 3.2e-5 per horizon);
* an **order** bound (unspecified constant C) cannot be refuted by any finite
  run; we report the implied constant ``Ĉ = mean regret / bound(C = 1)``. The
  rate in T is called refuted only when Ĉ at the largest horizon exceeds
  ``RATE_FACTOR`` times every earlier Ĉ by more than ``Z_MARGIN`` standard
  errors (small horizons are pre-asymptotic: their Ĉ is smaller, never
  larger); a constant claimed independent of a parameter (ε, σ) is called
  refuted when Ĉ varies by more than ``RATE_FACTOR`` across that parameter by
  more than ``Z_MARGIN`` standard errors (:func:`uniform_verdict`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from dpverify.bandits.simulate import simulate
from dpverify.claims._types import NOT_CHECKABLE, NOT_REFUTED, REFUTED

__all__ = ["Z_MARGIN", "RATE_FACTOR", "regret_rows", "explicit_verdict", "rate_verdict", "uniform_verdict",
           "detectable_growth", "rate_power", "horizon_verdict", "bound_figure"]

#: One-sided normal quantile for 3.2e-5.
Z_MARGIN = 4.0
#: Growth of the implied constant that counts as a refuted rate.
RATE_FACTOR = 2.0


def regret_rows(algorithm: Any, environment: Any, horizons: Sequence[int], *, runs: int, seed: int,
                bound: Callable[[int], float]) -> list[dict[str, float]]:
    """One run of ``simulate`` to the largest horizon, read at every horizon (checkpoints).

    Each row: ``T``, ``mean`` and ``se`` of the pseudo-regret over ``runs``, ``bound(T)``.
    """
    horizons = sorted(int(h) for h in horizons)
    result = simulate(algorithm, environment, horizons[-1], runs=runs, seed=seed,
                      checkpoints=horizons)
    regrets = np.asarray(result.pseudo_regret, dtype=float)
    points = [int(c) for c in np.asarray(result.checkpoints)]
    rows = []
    for T in horizons:
        column = regrets[:, points.index(T)]
        rows.append({"horizon": T, "mean": float(column.mean()),
                     "se": float(column.std(ddof=1) / math.sqrt(runs)) if runs > 1 else math.inf,
                     "bound": float(bound(T))})
    return rows


def explicit_verdict(rows: Sequence[dict[str, float]]) -> bool:
    """True when no row refutes the bound: ``mean − Z_MARGIN·se <= bound`` at every T."""
    return all(r["mean"] - Z_MARGIN * r["se"] <= r["bound"] for r in rows)


def _low(row: dict[str, float]) -> float:
    return (row["mean"] - Z_MARGIN * row["se"]) / row["bound"]


def _high(row: dict[str, float]) -> float:
    return (row["mean"] + Z_MARGIN * row["se"]) / row["bound"]


def rate_verdict(rows: Sequence[dict[str, float]]) -> tuple[bool, list[float]]:
    """(rate in T not refuted, implied constants Ĉ = mean/bound(C=1)) — see the module docstring."""
    constants = [r["mean"] / r["bound"] for r in rows]
    earlier = max(_high(r) for r in rows[:-1]) if len(rows) > 1 else math.inf
    return not _low(rows[-1]) > RATE_FACTOR * earlier, constants


def detectable_growth(rows: Sequence[dict[str, float]]) -> float:
    """The power of :func:`rate_verdict`: the smallest growth of Ĉ from the earlier horizons to the last it refutes.

    The rate is refuted when ``Ĉ_last (1 − Z se_last/mean_last) > RATE_FACTOR Ĉ_j (1 + Z se_j/mean_j)``
    for the earlier j with the largest upper end, so a growth ``Ĉ_last / Ĉ_j`` above
    ``RATE_FACTOR (1 + Z rse_j)/(1 − Z rse_last)`` is detected (inf when the last
    horizon's mean is within Z standard errors of 0).

    >>> rows = [{"mean": 10.0, "se": 0.5, "bound": 1.0}, {"mean": 40.0, "se": 1.0, "bound": 2.0}]
    >>> round(detectable_growth(rows), 3)  # 2 (1 + 4·0.05) / (1 − 4·0.025)
    2.667
    """
    if len(rows) < 2:
        return math.inf
    last = rows[-1]
    low = 1 - Z_MARGIN * last["se"] / last["mean"] if last["mean"] > 0 else 0.0
    if low <= 0:
        return math.inf
    earlier = max(rows[:-1], key=_high)
    return RATE_FACTOR * (1 + Z_MARGIN * earlier["se"] / earlier["mean"]) / low


def rate_power(rows: Sequence[dict[str, float]], runs: int) -> str:
    """One sentence: horizons, runs, and the smallest growth of the implied constant the test detects."""
    return (f"{runs} runs at T = {', '.join(str(r['horizon']) for r in rows)}; the test detects a growth of "
            f"the implied constant by ×{detectable_growth(rows):.3g} or more from the earlier horizons to "
            f"the last (a rate off by a smaller factor over this range goes undetected)")


def uniform_verdict(rows: Sequence[dict[str, float]]) -> tuple[bool, list[float]]:
    """(constant not refuted as uniform across the rows, implied constants) — see the module docstring."""
    constants = [r["mean"] / r["bound"] for r in rows]
    return not max(_low(r) for r in rows) > RATE_FACTOR * min(_high(r) for r in rows), constants


def horizon_verdict(agrees: bool, claim_horizon: int, horizon: int) -> tuple[str, bool]:
    """(verdict, inside the claim's hypotheses) of an empirical claim about ``claim_horizon``, run at ``horizon``.

    At the claim's horizon (or beyond) the run decides: not refuted or refuted.
    A shorter run can only say "not contradicted at T"; when it disagrees it
    decides nothing (pre-asymptotic) and the claim is not checkable at that scale.

    >>> horizon_verdict(False, 10**6, 10**4)
    ('not checkable', False)
    """
    if horizon >= claim_horizon:
        return (NOT_REFUTED if agrees else REFUTED), True
    return (NOT_REFUTED if agrees else NOT_CHECKABLE), False


def bound_figure(title: str, rows: Sequence[dict[str, float]], *, label: str,
                 scale: float = 1.0) -> dict[str, Any]:
    """A plain-data figure: simulated mean regret (± 2 se) and ``scale × bound`` against T."""
    return {"kind": "bound", "title": title, "x": [r["horizon"] for r in rows], "xlabel": "T",
            "ylabel": "regret", "log": True,
            "series": {"simulated mean": [r["mean"] for r in rows],
                       label: [scale * r["bound"] for r in rows]},
            "errors": {"simulated mean": [2 * r["se"] for r in rows]}}
