"""The model audit's check that the stated family holds on **both** inputs, one side at a time.

:func:`~dpverify.auditing.model.audit_model` pools the two sides to bound the
family's one parameter. A model that holds on ``x`` but not on ``x'`` (say
``Bin(100, p)`` noise on one side and something more spread on the other)
would give a pooled parameter that describes neither side, and a bound that
means nothing — silently. So before any bound each side's outputs are tested
against the family at the fitted parameter, and a side that fails is refused
with the test's numbers (:class:`~dpverify.errors.AuditError`).

**The statistic needs no centre.** Pairing a side's outputs
``(y_1, y_2), (y_3, y_4), …`` gives differences ``D = y_{2i−1} − y_{2i} =
Z − Z'`` of two independent noises, whatever ``f(data)`` is:

==========================  ============================================
family                      law of ``D`` (per coordinate)
==========================  ============================================
gaussian σ                  ``N(0, 2σ²)``
laplace b                   ``P[|D| > d] = e^{−d/b}(1 + d/(2b))``
integer families            the noise pmf convolved with its reflection
randomized response         (the truthful rate of each side; 2 × 2 test)
==========================  ============================================

Each side's ``D`` is binned (equal-probability bins under the fitted law, at
least :data:`MIN_EXPECTED` expected per bin) and Pearson's χ² is compared with
``χ²(bins − 1)`` — the conservative end of the Chernoff–Lehmann range for one
fitted parameter. A side is refused when its p-value is below
:data:`MODEL_CHECK_LEVEL` (10⁻⁶: a correct model is refused with probability
about 2·10⁻⁶ per audit, so the false-alarm tests of 200 tight model audits per
family run through it). The check guards the bound; it does not prove the
model (a goodness-of-fit test never does).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from scipy import stats

from dpverify.errors import AuditError

__all__ = ["MODEL_CHECK_LEVEL", "MIN_EXPECTED", "check_family_on_both_sides", "pair_differences"]

#: A side whose χ² p-value is below this is refused.
MODEL_CHECK_LEVEL = 1e-6
#: Least expected count per bin of the χ² test (bins are merged or fewer until it holds).
MIN_EXPECTED = 10
#: Most bins per side.
_MAX_BINS = 32
_SIDE_NAMES = ("x", "x'")


def pair_differences(side: np.ndarray) -> np.ndarray:
    """``y_1 − y_2, y_3 − y_4, …`` per coordinate, flattened (the noise's law only)."""
    half = len(side) // 2
    return (side[0:2 * half:2] - side[1:2 * half:2]).reshape(-1)


def _continuous_bins(differences: np.ndarray, quantile: Callable[[np.ndarray], np.ndarray]
                     ) -> tuple[np.ndarray, np.ndarray]:
    """Observed and expected counts of ``|D|`` in equal-probability bins (``quantile`` of ``|D|``)."""
    size = differences.size
    bins = min(_MAX_BINS, size // MIN_EXPECTED)
    edges = quantile(np.arange(1, bins) / bins)
    observed = np.bincount(np.searchsorted(edges, np.abs(differences), side="right"),
                           minlength=bins)
    return observed, np.full(bins, size / bins)


def _discrete_bins(differences: np.ndarray, pmf: np.ndarray, offset: int
                   ) -> tuple[np.ndarray, np.ndarray]:
    """Observed and expected counts of integer ``D`` (``pmf[k]`` at ``k − offset``), merged bins."""
    size = differences.size
    cumulative = np.cumsum(pmf)
    levels = np.arange(1, _MAX_BINS) / _MAX_BINS
    # bin j holds the values v with cuts[j-1] <= v + offset < cuts[j]
    cuts = np.unique(np.searchsorted(cumulative, levels, side="left") + 1)
    cuts = cuts[(cuts > 0) & (cuts < len(pmf))]
    probabilities = np.diff(np.concatenate([[0.0], cumulative[cuts - 1], [1.0]]))
    index = np.searchsorted(cuts, np.clip(np.rint(differences).astype(np.int64) + offset, 0,
                                          len(pmf) - 1), side="right")
    observed = np.bincount(index, minlength=len(probabilities)).astype(np.float64)
    expected = probabilities * size
    return _merge(observed, expected)


def _merge(observed: np.ndarray, expected: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Merge neighbouring bins until each expects at least :data:`MIN_EXPECTED`."""
    kept_observed: list[float] = []
    kept_expected: list[float] = []
    held_observed = held_expected = 0.0
    for seen, wanted in zip(observed.tolist(), expected.tolist()):
        held_observed += seen
        held_expected += wanted
        if held_expected >= MIN_EXPECTED:
            kept_observed.append(held_observed)
            kept_expected.append(held_expected)
            held_observed = held_expected = 0.0
    if kept_expected:
        kept_observed[-1] += held_observed
        kept_expected[-1] += held_expected
    return np.asarray(kept_observed), np.asarray(kept_expected)


def _integer_difference_pmf(family: str, parameter: float, trials: int | None
                            ) -> tuple[np.ndarray, int]:
    """The pmf of ``Z − Z'`` on ``−offset … offset`` (window holding all but ~1e-15 of it)."""
    if family == "binomial":
        spread = math.sqrt(trials * parameter * (1 - parameter))
        low = max(0, math.floor(trials * parameter - 12 * spread - 10))
        high = min(trials, math.ceil(trials * parameter + 12 * spread + 10))
        noise = stats.binom.pmf(np.arange(low, high + 1), trials, parameter)
    else:
        reach = math.ceil((40 if family == "discrete_laplace" else 12) * parameter) + 10
        support = np.arange(-reach, reach + 1, dtype=np.float64)
        if family == "discrete_laplace":
            noise = np.exp(-np.abs(support) / parameter)
        else:
            noise = np.exp(-support ** 2 / (2 * parameter * parameter))
    noise = noise / noise.sum()
    pmf = np.convolve(noise, noise[::-1])
    return pmf / pmf.sum(), len(noise) - 1


def _fit_integer(family: str, variance: float, trials: int | None) -> float:
    """The parameter whose noise variance is ``variance`` (moments: ``E D² = 2 Var Z``); ``nan`` if none."""
    if variance <= 0:
        return math.nan
    if family == "binomial":  # N p (1 − p) = v, p <= 1/2
        share = variance / trials
        return 0.5 if share >= 0.25 else (1 - math.sqrt(1 - 4 * share)) / 2
    if family == "discrete_laplace":  # Var = 2β/(1 − β)², β = e^{−1/t}
        beta = ((variance + 1) - math.sqrt(2 * variance + 1)) / variance
        return -1 / math.log(beta) if 0 < beta < 1 else math.nan

    def spread(sigma: float) -> float:  # the discrete Gaussian's variance at σ
        reach = math.ceil(12 * sigma) + 10
        support = np.arange(-reach, reach + 1, dtype=np.float64)
        weights = np.exp(-support ** 2 / (2 * sigma * sigma))
        return float(np.sum(weights * support ** 2) / np.sum(weights))

    low, high = 1e-3, max(1.0, 2 * math.sqrt(variance))
    if spread(high) < variance or spread(low) > variance:
        return math.nan
    for _ in range(60):
        middle = (low + high) / 2
        low, high = (middle, high) if spread(middle) < variance else (low, middle)
    return (low + high) / 2


def _laplace_difference_quantile(scale: float) -> Callable[[np.ndarray], np.ndarray]:
    """Quantiles of ``|D|`` for ``D`` a difference of two Laplace(b): ``sf(d) = e^{−d/b}(1 + d/2b)``."""
    grid = np.linspace(0.0, 80.0, 160_001)
    cdf = 1 - np.exp(-grid) * (1 + grid / 2)
    return lambda levels: scale * np.interp(levels, cdf, grid)


def _refuse(name: str, family: str, what: str, observed: np.ndarray,
            expected: np.ndarray) -> None:
    if len(expected) < 2:
        return
    statistic = float(np.sum((observed - expected) ** 2 / expected))
    dof = len(expected) - 1
    p_value = float(stats.chi2.sf(statistic, dof))
    if p_value < MODEL_CHECK_LEVEL:
        raise AuditError(
            f"the stated model (family={family!r}) does not hold on {name}: {what} (Pearson "
            f"chi-square {statistic:.4g} on {dof} degrees of freedom, p = {p_value:.3g} < "
            f"{MODEL_CHECK_LEVEL:g}); a model-based bound would mean nothing here: audit() "
            f"gives a model-free one")


def check_family_on_both_sides(family: str, sides: list[np.ndarray], *,
                               trials: int | None = None, data: tuple[Any, Any] | None = None
                               ) -> None:
    """Refuse (:class:`~dpverify.errors.AuditError`) a model that fails on either input.

    ``sides`` are the two sides' outputs as rows; the family's parameter is
    fitted here on both sides' pair differences by moments (``E D² = 2σ²``,
    ``E|D| = 3b/2``, ``E D² = 2 Var Z`` for the integer families), so that no
    centre enters and the fit is efficient; ``data`` is the pair ``(x, x')``
    (randomized response). A side is not tested when no parameter fits
    (degenerate outputs: the bound itself is then trivial or refused elsewhere).
    """
    if family == "randomized_response":
        _check_truthful_rates(sides, data)
        return
    pooled = np.concatenate([pair_differences(side) for side in sides])
    if pooled.size == 0:
        return
    if family == "gaussian":
        estimate = math.sqrt(float(np.mean(pooled ** 2)) / 2)
    elif family == "laplace":
        estimate = float(np.mean(np.abs(pooled))) / 1.5  # E|D| = 3b/2
    else:
        estimate = _fit_integer(family, float(np.mean(pooled ** 2)) / 2, trials)
    if not (math.isfinite(estimate) and estimate > 0):
        return
    for name, side in zip(_SIDE_NAMES, sides):
        differences = pair_differences(side)
        if differences.size < 3 * MIN_EXPECTED:
            continue
        if family == "gaussian":
            scale = estimate * math.sqrt(2)
            quantile = lambda levels, scale=scale: scale * stats.norm.isf((1 - levels) / 2)  # noqa: E731
            observed, expected = _continuous_bins(differences, quantile)
            what = f"the pair differences are not N(0, 2 sigma^2) at sigma = {estimate:.6g}"
        elif family == "laplace":
            observed, expected = _continuous_bins(differences,
                                                  _laplace_difference_quantile(estimate))
            what = f"the pair differences are not those of Lap(b) noise at b = {estimate:.6g}"
        else:
            pmf, offset = _integer_difference_pmf(family, estimate, trials)
            observed, expected = _discrete_bins(differences, pmf, offset)
            what = (f"the pair differences are not those of {family} noise at the fitted "
                    f"parameter {estimate:.6g}" + (f" ({trials} trials)" if trials else ""))
        _refuse(name, family, what, observed, expected)


def _check_truthful_rates(sides: list[np.ndarray], data: tuple[Any, Any] | None) -> None:
    """Randomized response: both sides report the truth at one rate q (2 × 2 χ² test)."""
    truthful = [int(np.count_nonzero(side[:, 0] == np.asarray(value, dtype=np.float64)))
                for side, value in zip(sides, data)]
    totals = [len(side) for side in sides]
    table = np.array([[t, n - t] for t, n in zip(truthful, totals)], dtype=np.float64)
    expected = np.outer(table.sum(axis=1), table.sum(axis=0)) / table.sum()
    if np.any(expected < MIN_EXPECTED):
        return
    statistic = float(np.sum((table - expected) ** 2 / expected))
    p_value = float(stats.chi2.sf(statistic, 1))
    if p_value < MODEL_CHECK_LEVEL:
        rates = ", ".join(f"{t / n:.6g} on {name}" for t, n, name in zip(truthful, totals,
                                                                         _SIDE_NAMES))
        raise AuditError(
            f"the stated model (family='randomized_response') does not hold on both inputs: "
            f"the truthful rates differ ({rates}; chi-square {statistic:.4g} on 1 degree of "
            f"freedom, p = {p_value:.3g} < {MODEL_CHECK_LEVEL:g}); a model-based bound would "
            f"mean nothing here: audit() gives a model-free one")
