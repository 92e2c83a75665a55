"""Closed-form amplification-by-shuffling bounds, their validity conditions, float twins.

Each bound is a pair of functions on already validated arguments:

* ``<name>_epsilon(...) -> mpmath.mpf`` evaluates the paper's formula in mpmath
  at :data:`~dpverify._numeric.DEFAULT_DPS` digits (relative error far below
  :data:`FORMULA_RELATIVE_ERROR`); callers round it up;
* ``<name>_check(...)`` raises :class:`~dpverify.errors.DpverifyValueError`
  naming the violated condition of the paper's theorem, so a bound is never
  extrapolated outside the regime it was proven in.

Validity conditions are compared with a relative margin of
:data:`FORMULA_RELATIVE_ERROR` *against* the caller: a point on the boundary
up to the precision of the evaluation counts as outside.

``fmt2021_epsilon_array`` / ``fmt2021_tight_epsilon_array`` are float64
numpy twins (``inf`` outside the validity region) used only to *locate* a
root quickly; every value dpverify returns is re-checked with the mpmath
functions.

Tags: [R] marks a statement reconstructed from secondary sources (the
primary text was not available to check constants and conditions).
"""

from __future__ import annotations

import functools
from typing import Any

import mpmath
import numpy as np

from dpverify._numeric import working_precision
from dpverify.errors import DpverifyValueError

__all__ = [
    "FORMULA_RELATIVE_ERROR",
    "fmt2021_epsilon",
    "fmt2021_check",
    "fmt2021_epsilon_array",
    "fmt2021_meets",
    "fmt2021_tight_epsilon",
    "fmt2021_tight_check",
    "fmt2021_tight_epsilon_array",
    "erlingsson2019_epsilon",
    "erlingsson2019_check",
    "balle2019_epsilon",
    "balle2019_check",
    "cheu2019_epsilon",
    "cheu2019_check",
]

#: Bound on the relative error of every mpmath evaluation in this module.
FORMULA_RELATIVE_ERROR = 1e-40


def _regime_error(bound: str, condition: str, detail: str) -> DpverifyValueError:
    return DpverifyValueError(
        f"{bound} is outside its validity region: the condition {condition} fails ({detail}); "
        "the bound is not proven there (use another bound, or bound='best')"
    )


def _at_most(lhs: Any, rhs: Any) -> bool:
    """``lhs <= rhs`` with a margin of FORMULA_RELATIVE_ERROR against the caller."""
    return lhs <= rhs * (1 - mpmath.mpf(FORMULA_RELATIVE_ERROR)) if rhs >= 0 else \
        lhs <= rhs * (1 + mpmath.mpf(FORMULA_RELATIVE_ERROR))


# --- Feldman, McMillan, Talwar 2021, Thm 3.1 (Hanna et al. 2022, eq. (10)) ----------------------

def _fmt_terms(local_epsilon: mpmath.mpf, n: int, delta: mpmath.mpf) -> tuple[Any, Any, Any]:
    """``(e^{ε0}, a, c)`` with ``a = 8 √(e^{ε0} ln(4/δ) / n)`` and ``c = 8 e^{ε0} / n``."""
    growth = mpmath.exp(local_epsilon)
    a = 8 * mpmath.sqrt(growth * mpmath.log(4 / delta) / n)
    return growth, a, 8 * growth / n


def fmt2021_epsilon(local_epsilon: float, n: int, delta: float) -> mpmath.mpf:
    """FMT 2021 Thm 3.1 as Hanna et al. 2022, eq. (10): ``ln(1 + (e^{ε0}−1)/(e^{ε0}+1) · (a + c))``."""
    with working_precision():
        growth, a, c = _fmt_terms(mpmath.mpf(local_epsilon), n, mpmath.mpf(delta))
        return mpmath.log1p((growth - 1) / (growth + 1) * (a + c))


def _fmt_limit(n: int, delta: float, log_argument: int) -> mpmath.mpf:
    return mpmath.log(mpmath.mpf(n) / (16 * mpmath.log(log_argument / mpmath.mpf(delta))))


def _check_fmt_limit(bound: str, log_argument: int, local_epsilon: float, n: int,
                     delta: float) -> None:
    """Raise unless ``ε0 <= ln(n / (16 ln(log_argument/δ)))`` (FMT's validity region)."""
    with working_precision():
        limit = _fmt_limit(n, delta, log_argument)
        if not _at_most(mpmath.mpf(local_epsilon), limit):
            raise _regime_error(bound, f"local_epsilon <= ln(users / (16 ln({log_argument}/delta)))",
                                f"local_epsilon={local_epsilon!r}, users={n}, delta={delta!r}: "
                                f"the limit is {mpmath.nstr(limit, 8)}")


def fmt2021_check(local_epsilon: float, n: int, delta: float) -> None:
    """Validity of FMT 2021 Thm 3.1: ``ε0 <= ln(n / (16 ln(2/δ)))``."""
    _check_fmt_limit("fmt2021", 2, local_epsilon, n, delta)


@functools.lru_cache(maxsize=64)
def _fmt_thresholds(delta: float, target: float, prec: int) -> tuple[Any, Any, Any]:
    """``(ln(4/δ), 1/(16 ln(2/δ)), (e^{target} − 1)/8)``, the last two shrunk by the margin."""
    delta_mp, shrink = mpmath.mpf(delta), 1 - mpmath.mpf(FORMULA_RELATIVE_ERROR)
    return (mpmath.log(4 / delta_mp), shrink / (16 * mpmath.log(2 / delta_mp)),
            shrink * mpmath.expm1(mpmath.mpf(target)) / 8)


def fmt2021_meets(local_epsilon: float, n: int, delta: float, target: float) -> bool:
    """``fmt2021_check`` passes and ``fmt2021_epsilon <= target``, in one lean mpmath pass.

    With ``g = e^{ε0}`` and ``q = g/n`` the two conditions read
    ``q <= 1/(16 ln(2/δ))`` and ``(g−1)/(g+1) · (√(q ln(4/δ)) + q) <= (e^{target} − 1)/8``;
    both right-hand sides are shrunk by :data:`FORMULA_RELATIVE_ERROR` (the
    budget predicate of the inverse searches, evaluated once per candidate).
    """
    with working_precision():
        log4, validity, budget = _fmt_thresholds(float(delta), float(target), mpmath.mp.prec)
        growth = mpmath.exp(local_epsilon)
        ratio = growth / n
        if not ratio <= validity:
            return False
        return (growth - 1) / (growth + 1) * (mpmath.sqrt(ratio * log4) + ratio) <= budget


def fmt2021_tight_epsilon(local_epsilon: float, n: int, delta: float) -> mpmath.mpf:
    """FMT's code (apple/ml-shuffling-amplification): ``ln(1 + (1 − e^{−ε0})/(1 + e^{−ε0−ê}) · (a + c))``.

    With ``ê = ln(1 + a + c) >= 0`` the factor is at least the printed
    ``(e^{ε0} − 1)/(e^{ε0} + 1) = (1 − e^{−ε0})/(1 + e^{−ε0})`` of
    :func:`fmt2021_epsilon`, by ``(1 + e^{−ε0})/(1 + e^{−ε0−ê}) >= 1``: despite
    its name ("tight") this variant is never tighter than the printed
    closed form (it is FMT's code, kept for fidelity; ``bound="best"`` takes
    the smaller). Its validity condition (``ln(4/δ)``) is also stricter.
    """
    with working_precision():
        eps0 = mpmath.mpf(local_epsilon)
        _, a, c = _fmt_terms(eps0, n, mpmath.mpf(delta))
        e_hat = mpmath.log1p(a + c)
        return mpmath.log1p(-mpmath.expm1(-eps0) / (1 + mpmath.exp(-eps0 - e_hat)) * (a + c))


def fmt2021_tight_check(local_epsilon: float, n: int, delta: float) -> None:
    """FMT's code's conservative validity: ``ε0 <= ln(n / (16 ln(4/δ)))``."""
    _check_fmt_limit("fmt2021-tight", 4, local_epsilon, n, delta)


def _fmt_array_terms(eps0: np.ndarray, n: np.ndarray, delta: float) -> tuple[Any, Any, Any]:
    growth = np.exp(eps0)
    return growth, 8 * np.sqrt(growth * np.log(4 / delta) / n), 8 * growth / n


def fmt2021_epsilon_array(eps0: np.ndarray, n: np.ndarray, delta: float) -> np.ndarray:
    """Float64 approximation of :func:`fmt2021_epsilon`; ``inf`` outside the validity region."""
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        growth, a, c = _fmt_array_terms(eps0, n, delta)
        value = np.log1p(np.tanh(eps0 / 2) * (a + c))
        return np.where(eps0 <= np.log(n / (16 * np.log(2 / delta))), value, np.inf)


def fmt2021_tight_epsilon_array(eps0: np.ndarray, n: np.ndarray, delta: float) -> np.ndarray:
    """Float64 approximation of :func:`fmt2021_tight_epsilon`; ``inf`` outside the region."""
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        _, a, c = _fmt_array_terms(eps0, n, delta)
        factor = -np.expm1(-eps0) / (1 + np.exp(-eps0 - np.log1p(a + c)))
        value = np.log1p(factor * (a + c))
        return np.where(eps0 <= np.log(n / (16 * np.log(4 / delta))), value, np.inf)


# --- Erlingsson, Feldman, Mironov, Raghunathan, Talwar, Thakurta 2019 ----------------------------

def erlingsson2019_epsilon(local_epsilon: float, n: int, delta: float) -> mpmath.mpf:
    """[R] Erlingsson et al. 2019 (SODA), corollary for ε0 < 1/2: ``12 ε0 √(ln(1/δ)/n)``."""
    with working_precision():
        return 12 * mpmath.mpf(local_epsilon) * mpmath.sqrt(mpmath.log(1 / mpmath.mpf(delta)) / n)


def erlingsson2019_check(local_epsilon: float, n: int, delta: float) -> None:
    """[R] Conditions of the corollary: ``ε0 < 1/2``, ``n >= 1000``, ``δ < 1/100``."""
    detail = f"local_epsilon={local_epsilon!r}, users={n}, delta={delta!r}"
    if not local_epsilon < 0.5:
        raise _regime_error("erlingsson2019", "local_epsilon < 1/2", detail)
    if n < 1000:
        raise _regime_error("erlingsson2019", "users >= 1000", detail)
    if not delta < 0.01:
        raise _regime_error("erlingsson2019", "delta < 1/100", detail)


# --- Balle, Bell, Gascón, Nissim 2019: the privacy blanket of k-ary randomized response ------------

def balle2019_epsilon(local_epsilon: float, n: int, delta: float, k: int) -> mpmath.mpf:
    """[R] Balle et al. 2019, k-RR blanket theorem solved for ε.

    With blanket probability ``γ = k / (e^{ε0} + k − 1)``, the theorem's
    condition ``γ >= max(14 k ln(2/δ) / ((n−1) ε²), 27 k / ((n−1) ε))`` holds
    for ``ε = max(√(14 ln(2/δ) (e^{ε0}+k−1)/(n−1)), 27 (e^{ε0}+k−1)/(n−1))``.
    """
    with working_precision():
        spread = mpmath.exp(mpmath.mpf(local_epsilon)) + k - 1
        gaussian_part = mpmath.sqrt(14 * mpmath.log(2 / mpmath.mpf(delta)) * spread / (n - 1))
        return max(gaussian_part, 27 * spread / (n - 1))


def balle2019_check(local_epsilon: float, n: int, delta: float, k: int) -> None:
    """[R] The blanket theorem needs ``n >= 2`` and gives its ε only for ``ε <= 1``."""
    detail = f"local_epsilon={local_epsilon!r}, users={n}, delta={delta!r}, categories={k}"
    if n < 2:
        raise _regime_error("balle2019", "users >= 2", detail)
    value = balle2019_epsilon(local_epsilon, n, delta, k)
    if not _at_most(value, mpmath.mpf(1)):
        raise _regime_error("balle2019", "epsilon <= 1",
                            f"{detail}: the bound is {mpmath.nstr(value, 8)}")


# --- Cheu, Smith, Ullman, Zeber, Zhilyaev 2019: binary randomized response -------------------------

def _cheu_mass(randomization_probability: float, n: int, delta: mpmath.mpf) -> tuple[Any, Any]:
    """``(λ, λ − √(2 λ ln(2/δ)))`` with ``λ = p n``."""
    rate = mpmath.mpf(randomization_probability) * n
    return rate, rate - mpmath.sqrt(2 * rate * mpmath.log(2 / delta))


def cheu2019_epsilon(randomization_probability: float, n: int, delta: float) -> mpmath.mpf:
    """[R] ``√(32 ln(4/δ) / (λ − √(2λ ln(2/δ)))) · (1 − (λ − √(2λ ln(2/δ)))/n)``.

    Known only through Garcelon et al. 2022, Prop. 13.
    """
    with working_precision():
        delta_mp = mpmath.mpf(delta)
        _, mass = _cheu_mass(randomization_probability, n, delta_mp)
        return mpmath.sqrt(32 * mpmath.log(4 / delta_mp) / mass) * (1 - mass / n)


def cheu2019_check(randomization_probability: float, n: int, delta: float) -> None:
    """[R] The condition ``λ = p n >= 14 ln(4/δ)`` (via Garcelon et al. 2022, Prop. 13)."""
    with working_precision():
        rate = mpmath.mpf(randomization_probability) * n
        needed = 14 * mpmath.log(4 / mpmath.mpf(delta))
        if not _at_most(needed, rate):
            raise _regime_error("cheu2019", "randomization_probability * users >= 14 ln(4/delta)",
                                f"randomization_probability={randomization_probability!r}, users={n}, "
                                f"delta={delta!r}: p n = {mpmath.nstr(rate, 8)} < "
                                f"{mpmath.nstr(needed, 8)}")
