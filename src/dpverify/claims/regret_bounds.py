"""Every regret theorem and corollary of the five papers, as a function of its parameters.

Explicit bounds (all constants printed by the paper) return the bound itself:

* Li, Zhou & Ji 2022 (DP-DPE) Thm 4 / 5 / 6 (appendix Eqs. 39, 52, 66; expected regret, β = 1/(kT));
* Garcelon et al. 2022, Thm 10 (Eqs. 9/10, w.p. 1 − δ), Cor. 8 (end of App. B.4), the
  fixed-batch Eq. (46).

Order bounds (``O(·)``/``Õ(·)``, constants the paper leaves unspecified) take
the constant as a required keyword ``constant`` — no paper gives one — and
return ``constant × (the printed expression)``: Hanna et al. 2022, Thm 1–3; Tenenbaum et al. 2021,
Thm 3.1 / Cor. 3.2 / Thm 3.3 / Cor. 3.4; Chowdhury & Zhou 2023, Lemma 2 (its Thms 1–6 through
the (σ, h) of their privatizers); Garcelon et al., Cor. 7; Li, Zhou & Ji, Thm 7 (σ_ns's C).
Logs are natural (the papers write log). Each function validates the theorem's
assumptions it can check, and raises ``ValueError`` naming the parameter when
they fail.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from dpverify._deprecation import renamed_parameters
from dpverify._validation import (
    check_choice,
    check_delta,
    check_epsilon,
    check_in_range,
    check_nonnegative,
    check_positive,
    check_positive_int,
    check_probability,
    value_error,
)
from dpverify.bandits.design import design_budget

__all__ = [
    "dpdpe_thm4",
    "dpdpe_thm5",
    "dpdpe_thm6",
    "dpdpe_thm7",
    "dpdpe_sigma0",
    "garcelon_thm10",
    "garcelon_cor8",
    "garcelon_cor7",
    "garcelon_fixed_batch",
    "hanna_thm1",
    "hanna_thm2",
    "hanna_thm3",
    "tenenbaum_thm31",
    "tenenbaum_cor32",
    "tenenbaum_thm33",
    "tenenbaum_cor34",
    "chowdhury_lemma2",
    "chowdhury_theorem",
    "CHOWDHURY_VARIANTS",
]


def _horizon(horizon: Any) -> int:
    T = check_positive_int(horizon, "horizon")
    if T < 2:
        raise value_error("horizon", T, ">= 2", "the bounds contain log T")
    return T


def _constant(constant: Any) -> float:
    return check_positive(constant, "constant")


def _gaps(gaps: Any) -> np.ndarray:
    try:
        values = np.asarray(gaps, dtype=float)
    except (TypeError, ValueError):
        raise value_error("gaps", gaps, "a non-empty 1-d sequence of finite numbers >= 0") from None
    if values.ndim != 1 or values.size < 1 or not np.all(np.isfinite(values)) or np.any(values < 0):
        raise value_error("gaps", gaps, "a non-empty 1-d sequence of finite numbers >= 0")
    return values


# --------------------------------------------------------------------------- dpdpe


def _dpdpe_common(horizon: Any, dimension: Any, n_arms: Any, client_sampling_exponent: Any,
                  heterogeneity: Any) -> tuple[int, int, int, float, float]:
    """(T, d, k, α, σ) validated under their parameter names."""
    T = _horizon(horizon)
    d, k = check_positive_int(dimension, "dimension"), check_positive_int(n_arms, "n_arms")
    alpha = check_in_range(client_sampling_exponent, "client_sampling_exponent", 0.0, 1.0,
                           low_closed=False, high_closed=False)
    sigma = check_nonnegative(heterogeneity, "heterogeneity")
    return T, d, k, alpha, sigma


def _dpdpe_base(T: int, d: int, k: int, alpha: float, sigma: float) -> tuple[float, float, float]:
    """``(h₁, C₁, 4h₁ + 32√(2dT log kT) + 16σ√(2h₁ log kT) T^{1−α/2})`` (the shared terms)."""
    h1 = design_budget(d)
    c1 = 1 / (2 ** (alpha / 2) - 1)
    log_kt = math.log(k * T)
    base = (4 * h1 + 32 * math.sqrt(2 * d * T * log_kt)
            + 16 * sigma * math.sqrt(2 * h1 * log_kt) * T ** (1 - alpha / 2))
    return h1, c1, base


@renamed_parameters(B="reward_bound")
def dpdpe_sigma0(*, epsilon: float, delta: float, reward_bound: float = 1.0) -> float:
    """``σ₀ = 2B√(2 ln(1.25/δ))/ε`` of Li, Zhou & Ji 2022 (Thms 5–6, the Gaussian mechanism's ratio).

    B = ``reward_bound``.

    >>> round(dpdpe_sigma0(epsilon=10.0, delta=0.25), 4)
    0.3588
    """
    epsilon = check_epsilon(epsilon, allow_zero=False)
    delta = check_delta(delta, allow_zero=False)
    B = check_positive(reward_bound, "reward_bound")
    return 2 * B * math.sqrt(2 * math.log(1.25 / delta)) / epsilon


@renamed_parameters(T="horizon", d="dimension", k="n_arms", alpha="client_sampling_exponent",
                    sigma="heterogeneity")
def dpdpe_thm4(horizon: int, *, dimension: int, n_arms: int,
               client_sampling_exponent: float = 0.8, heterogeneity: float = 0.1) -> float:
    """Li, Zhou & Ji 2022, Thm 4 (non-private DP-DPE), appendix Eq. (39), expected regret with β = 1/(kT):

    .. math::

        4h_1 + 32\\sqrt{2dT\\log kT} + 16σ\\sqrt{2h_1\\log kT}\\,T^{1-α/2}
        + 4C_1h_1σ\\sqrt{2\\log kT} + 4\\log(2T/h_1)

    with ``h₁ = 4d ln ln d + 16`` (log log clipped at 0, as the algorithm) and
    ``C₁ = 1/(2^{α/2} − 1)``; T = ``horizon``, d = ``dimension``, k = ``n_arms``,
    α = ``client_sampling_exponent``, σ = ``heterogeneity``. Defaults α = 0.8, σ = 0.1
    (their §7).

    >>> round(dpdpe_thm4(10 ** 5, dimension=2, n_arms=10))
    109074
    """
    T, d, k, alpha, sigma = _dpdpe_common(horizon, dimension, n_arms, client_sampling_exponent,
                                          heterogeneity)
    h1, c1, base = _dpdpe_base(T, d, k, alpha, sigma)
    return (base + 4 * c1 * h1 * sigma * math.sqrt(2 * math.log(k * T))
            + 4 * math.log(2 * T / h1))


def _private_tail(T: int, d: int, k: int, alpha: float, sigma: float, sigma0: float,
                  phases_term: float) -> float:
    h1, c1, _ = _dpdpe_base(T, d, k, alpha, sigma)
    return (4 * c1 * h1 * (sigma + 2 * sigma0 * math.sqrt(d * h1)) * math.sqrt(2 * math.log(k * T))
            + phases_term * math.log(2 * T / h1))


@renamed_parameters(T="horizon", d="dimension", k="n_arms", B="reward_bound",
                    alpha="client_sampling_exponent", sigma="heterogeneity")
def dpdpe_thm5(horizon: int, *, dimension: int, n_arms: int, epsilon: float, delta: float,
               reward_bound: float = 1.0, client_sampling_exponent: float = 0.8,
               heterogeneity: float = 0.1) -> float:
    """Li, Zhou & Ji 2022, Thm 5 (CDP-DPE), appendix Eq. (52), with ``σ₀`` = :func:`dpdpe_sigma0`:

    .. math::

        4h_1 + 32\\sqrt{2dT\\log kT} + 16σ\\sqrt{2h_1\\log kT}\\,T^{1-α/2}
        + \\frac{8}{2^{1-α}-1}h_1^{1/2+α}σ_0\\sqrt{2d\\log kT}\\,T^{1-α}
        + 4C_1h_1(σ + 2σ_0\\sqrt{dh_1})\\sqrt{2\\log kT} + 6L

    ``L`` (the number of phases) <= ``log(2T/h₁)``; Eq. (52)'s display drops the
    ``3kβL·2T = 6L`` of its own previous line, which is kept here.

    >>> sizes = dict(dimension=2, n_arms=10)
    >>> dpdpe_thm5(10 ** 5, **sizes, epsilon=10.0, delta=0.25) > dpdpe_thm4(10 ** 5, **sizes)
    True
    """
    T, d, k, alpha, sigma = _dpdpe_common(horizon, dimension, n_arms, client_sampling_exponent,
                                          heterogeneity)
    sigma0 = dpdpe_sigma0(epsilon=epsilon, delta=delta, reward_bound=reward_bound)
    h1, _, base = _dpdpe_base(T, d, k, alpha, sigma)
    central = (8 / (2 ** (1 - alpha) - 1) * h1 ** (0.5 + alpha) * sigma0
               * math.sqrt(2 * d * math.log(k * T)) * T ** (1 - alpha))
    return base + central + _private_tail(T, d, k, alpha, sigma, sigma0, 6)


@renamed_parameters(T="horizon", d="dimension", k="n_arms", B="reward_bound",
                    alpha="client_sampling_exponent", sigma="heterogeneity")
def dpdpe_thm6(horizon: int, *, dimension: int, n_arms: int, epsilon: float, delta: float,
               reward_bound: float = 1.0, client_sampling_exponent: float = 0.8,
               heterogeneity: float = 0.1) -> float:
    """Li, Zhou & Ji 2022, Thm 6 (LDP-DPE), appendix Eq. (66):

    .. math::

        4h_1 + 32\\sqrt{2dT\\log kT} + 16σ\\sqrt{2h_1\\log kT}\\,T^{1-α/2}
        + 32σ_0h_1\\sqrt{2d\\log kT}\\,T^{1-α/2}
        + 4C_1h_1(σ + 2σ_0\\sqrt{dh_1})\\sqrt{2\\log kT} + 6L

    >>> dpdpe_thm6(10 ** 5, dimension=2, n_arms=10, epsilon=10.0, delta=0.25) > 10 ** 5
    True
    """
    T, d, k, alpha, sigma = _dpdpe_common(horizon, dimension, n_arms, client_sampling_exponent,
                                          heterogeneity)
    sigma0 = dpdpe_sigma0(epsilon=epsilon, delta=delta, reward_bound=reward_bound)
    h1, _, base = _dpdpe_base(T, d, k, alpha, sigma)
    local = 32 * sigma0 * h1 * math.sqrt(2 * d * math.log(k * T)) * T ** (1 - alpha / 2)
    return base + local + _private_tail(T, d, k, alpha, sigma, sigma0, 6)


@renamed_parameters(T="horizon", d="dimension", k="n_arms", B="reward_bound",
                    alpha="client_sampling_exponent", sigma="heterogeneity")
def dpdpe_thm7(horizon: int, *, dimension: int, n_arms: int, epsilon: float, delta: float,
               constant: float, reward_bound: float = 1.0, client_sampling_exponent: float = 0.8,
               heterogeneity: float = 0.1) -> float:
    """Li, Zhou & Ji 2022, Thm 7 (SDP-DPE), Eq. (80): Eq. (52)'s form with ``σ₀ = C·B·ln(h₁/δ)/ε``.

    ``constant`` is that C, which the paper never gives (Thm 7 and Thm 9 state σ_ns only as O(·)).

    >>> dpdpe_thm7(10 ** 5, dimension=2, n_arms=10, epsilon=10.0, delta=0.25, constant=1.0) > 0
    True
    """
    T, d, k, alpha, sigma = _dpdpe_common(horizon, dimension, n_arms, client_sampling_exponent,
                                          heterogeneity)
    epsilon = check_epsilon(epsilon, allow_zero=False)
    delta = check_delta(delta, allow_zero=False)
    h1, _, base = _dpdpe_base(T, d, k, alpha, sigma)
    B = check_positive(reward_bound, "reward_bound")
    sigma0 = _constant(constant) * B * math.log(h1 / delta) / epsilon
    central = (8 / (2 ** (1 - alpha) - 1) * h1 ** (0.5 + alpha) * sigma0
               * math.sqrt(2 * d * math.log(k * T)) * T ** (1 - alpha))
    return base + central + _private_tail(T, d, k, alpha, sigma, sigma0, 6)


# --------------------------------------------------------------------------- garcelon


def _garcelon_g(T: int, d: int, L: float, delta: float, p: float, eta: float) -> float:
    """``G = 1 + d^{3/2} log(L²T/d + 16√T log(2T/δ)/(1−p))^{3/2} / log(1+η)``."""
    inner = L * L * T / d + 16 * math.sqrt(T) * math.log(2 * T / delta) / (1 - p)
    return 1 + d ** 1.5 * math.log(inner) ** 1.5 / math.log(1 + eta)


@renamed_parameters(T="horizon", d="dimension", L="context_bound", S="theta_bound", m="bits",
                    p="randomization_probability", lam="regularization", delta0="shuffle_delta")
def garcelon_thm10(horizon: int, *, dimension: int, context_bound: float, theta_bound: float,
                   bits: int, randomization_probability: float, eta: float, regularization: float,
                   epsilon: float, delta: float, shuffle_delta: float) -> float:
    """Garcelon et al. 2022, Thm 10 (Eqs. 9/10): SBLB's regret w.p. >= 1 − δ.

    T = ``horizon``, d = ``dimension``, L = ``context_bound``, S = ``theta_bound``, m =
    ``bits``, p = ``randomization_probability``, λ = ``regularization``, δ0 = ``shuffle_delta``.

    With ``F = 2√3 (S + md) T^{3/4}/√(1−p) · √((1+η) log(1 + T/(dλ)))`` and G as in
    the theorem: if ``p²(1−p) <= 7T^{−1/2}ε/(64√(2 ln(2T/δ0)) d(d+1))`` the bound
    is ``F + (dLm/√λ) G · 14 log(8mT/δ0)/p²`` (Eq. 9), else
    ``F + (264/√λ)√2 d³ log(8mT/δ0)^{3/2} L m G √T(1−p)/ε`` (Eq. 10).
    Assumptions checked: δ, δ0 ∈ (0, 1), ε ∈ (0, 1), p ∈ (0, 1) (the theorem's
    ε0 ∈ (0, 1) is implied by p through Prop. 4; Cor. 8's
    ``ε0 = (d(d+3)/2) ln(…)`` is not below 1 in general).

    >>> garcelon_thm10(10 ** 4, dimension=2, context_bound=1, theta_bound=1, bits=1,
    ...                randomization_probability=0.9, eta=0.5, regularization=100, epsilon=0.5,
    ...                delta=0.1, shuffle_delta=0.1) > 10 ** 4
    True
    """
    T = _horizon(horizon)
    d, m = check_positive_int(dimension, "dimension"), check_positive_int(bits, "bits")
    L, S, lam, eta = (check_positive(v, n) for v, n in (
        (context_bound, "context_bound"), (theta_bound, "theta_bound"),
        (regularization, "regularization"), (eta, "eta")))
    p = check_probability(randomization_probability, "randomization_probability", open_low=True,
                          open_high=True)
    epsilon = check_in_range(epsilon, "epsilon", 0.0, 1.0, low_closed=False, high_closed=False)
    delta = check_in_range(delta, "delta", 0.0, 1.0, low_closed=False, high_closed=False)
    delta0 = check_in_range(shuffle_delta, "shuffle_delta", 0.0, 1.0, low_closed=False,
                            high_closed=False)
    first = (2 * math.sqrt(3) * (S + m * d) * T ** 0.75 / math.sqrt(1 - p)
             * math.sqrt((1 + eta) * math.log(1 + T / (d * lam))))
    g = _garcelon_g(T, d, L, delta, p, eta)
    log8 = math.log(8 * m * T / delta0)
    threshold = 7 * T ** -0.5 * epsilon / (64 * math.sqrt(2 * math.log(2 * T / delta0)) * d * (d + 1))
    if p * p * (1 - p) <= threshold:
        return first + d * L * m / math.sqrt(lam) * g * 14 * log8 / p ** 2
    return first + (264 / math.sqrt(lam) * math.sqrt(2) * d ** 3 * log8 ** 1.5 * L * m * g
                    * math.sqrt(T) * (1 - p) / epsilon)


@renamed_parameters(T="horizon", d="dimension", L="context_bound", S="theta_bound",
                    delta0="shuffle_delta")
def garcelon_cor8(horizon: int, *, epsilon: float, dimension: int, context_bound: float = 1.0,
                  theta_bound: float = 1.0, delta: float = 1e-6,
                  shuffle_delta: float = 1e-6) -> float:
    """Garcelon et al. 2022, Cor. 8 (explicit form, end of App. B.4), w.p. >= 1 − δ:

    ``(T^{2/3}/ε^{1/3}) [ (264/√λ)√2 d³ log(8mT/δ0)^{3/2} L m G + 2√3 (S + md)√((1+η) log(1 + T/(dλ))) ]``
    with η = 1/2, λ = √T, m = 1, p = 1 − ε^{2/3}T^{1/6} (L = ``context_bound``, S =
    ``theta_bound``, δ0 = ``shuffle_delta``). Requires ``ε <= 1/(27 T^{1/4})`` (checked).

    >>> garcelon_cor8(10 ** 4, epsilon=0.003, dimension=2) > 10 ** 4
    True
    """
    T = _horizon(horizon)
    epsilon = check_epsilon(epsilon, allow_zero=False)
    if epsilon > 1 / (27 * T ** 0.25):
        raise value_error("epsilon", epsilon, f"<= 1/(27 T^(1/4)) = {1 / (27 * T ** 0.25)!r}",
                          "Cor. 8's assumption")
    d = check_positive_int(dimension, "dimension")
    delta = check_in_range(delta, "delta", 0.0, 1.0, low_closed=False, high_closed=False)
    delta0 = check_in_range(shuffle_delta, "shuffle_delta", 0.0, 1.0, low_closed=False,
                            high_closed=False)
    L = check_positive(context_bound, "context_bound")
    S = check_positive(theta_bound, "theta_bound")
    eta, lam, m = 0.5, math.sqrt(T), 1
    p = 1 - epsilon ** (2 / 3) * T ** (1 / 6)
    g = _garcelon_g(T, d, L, delta, p, eta)
    inner = (264 / math.sqrt(lam) * math.sqrt(2) * d ** 3 * math.log(8 * m * T / delta0) ** 1.5 * L * m * g
             + 2 * math.sqrt(3) * (S + m * d) * math.sqrt((1 + eta) * math.log(1 + T / (d * lam))))
    return T ** (2 / 3) / epsilon ** (1 / 3) * inner


@renamed_parameters(T="horizon", epsilon_0="local_epsilon")
def garcelon_cor7(horizon: int, *, local_epsilon: float, constant: float) -> float:
    """Garcelon et al. 2022, Cor. 7, Eq. (4), an Õ bound (C unspecified):

    ``C (T^{3/4}√(e^{ε0}+1)/√(e^{ε0}−1) + log T (e^{ε0}+1)²/4 + √T/√(e^{ε0}−1))``.

    ε0 = ``local_epsilon``.

    >>> round(garcelon_cor7(10 ** 4, local_epsilon=1.0, constant=1.0))
    1579
    """
    T = _horizon(horizon)
    e = math.exp(check_epsilon(local_epsilon, "local_epsilon", allow_zero=False))
    return _constant(constant) * (T ** 0.75 * math.sqrt((e + 1) / (e - 1))
                                  + math.log(T) * (e + 1) ** 2 / 4 + math.sqrt(T / (e - 1)))


@renamed_parameters(T="horizon", beta="radius", d="dimension")
def garcelon_fixed_batch(horizon: int, *, radius: float, batches: int, dimension: int) -> float:
    """Garcelon et al. 2022, App. C, Eq. (46): ``2β_M √(10T/M) log(T+1) (√(Md) + d√(T/M))`` (fixed-batch LinUCB).

    β_M = ``radius`` (the confidence radius after the M = ``batches`` batches), d = ``dimension``.

    >>> round(garcelon_fixed_batch(100, radius=1.0, batches=10, dimension=1), 2)
    583.77
    """
    T = _horizon(horizon)
    beta = check_positive(radius, "radius")
    M, d = check_positive_int(batches, "batches"), check_positive_int(dimension, "dimension")
    return 2 * beta * math.sqrt(10 * T / M) * math.log(T + 1) * (math.sqrt(M * d) + d * math.sqrt(T / M))


# --------------------------------------------------------------------------- hanna


@renamed_parameters(T="horizon", d="dimension")
def hanna_thm1(horizon: int, *, epsilon: float, constant: float,
               dimension: int | None = None) -> float:
    """Hanna et al. 2022, Thm 1 (central, w.p. >= 1 − 1/T): ``C(√(T log T) + log²T/ε)`` (Eq. 6), or with
    d = ``dimension`` the appendix form ``C(d√(T log T) + d² log²T/ε)`` (Eq. 20). C is unspecified.

    >>> round(hanna_thm1(10 ** 6, epsilon=1.0, constant=1.0))
    3908
    """
    T = _horizon(horizon)
    epsilon = check_epsilon(epsilon, allow_zero=False)
    log_t = math.log(T)
    factor = 1 if dimension is None else check_positive_int(dimension, "dimension")
    return _constant(constant) * (factor * math.sqrt(T * log_t) + factor ** 2 * log_t ** 2 / epsilon)


@renamed_parameters(T="horizon", epsilon_0="local_epsilon", d="dimension")
def hanna_thm2(horizon: int, *, local_epsilon: float, dimension: int, constant: float) -> float:
    """Hanna et al. 2022, Thm 2 (local): ``C(1 + 1/ε0) d√(dT log T)`` (Eqs. 8/9/34), ε0 = ``local_epsilon``.
    C unspecified.

    >>> round(hanna_thm2(10 ** 6, local_epsilon=1.0, dimension=2, constant=1.0))
    21026
    """
    T = _horizon(horizon)
    epsilon_0 = check_epsilon(local_epsilon, "local_epsilon", allow_zero=False)
    d = check_positive_int(dimension, "dimension")
    return _constant(constant) * (1 + 1 / epsilon_0) * d * math.sqrt(d * T * math.log(T))


@renamed_parameters(T="horizon", d="dimension")
def hanna_thm3(horizon: int, *, epsilon: float, delta: float, constant: float,
               dimension: int | None = None) -> float:
    """Hanna et al. 2022, Thm 3 (shuffled): ``C(√(T log T) + √log(1/δ) log^{3/2}T/ε)`` (Eq. 11); with
    d = ``dimension``: ``C(d√(T log T) + (d log T)^{3/2}√log(1/δ)/ε)`` (Eq. 42). Stated only for
    ε = O(√(log(1/δ)/T)) (by Thm 3 itself; an order condition, not checkable here). C unspecified.

    >>> round(hanna_thm3(10 ** 6, epsilon=1.0, delta=1e-6, constant=1.0))
    3908
    """
    T = _horizon(horizon)
    epsilon = check_epsilon(epsilon, allow_zero=False)
    delta = check_delta(delta, allow_zero=False)
    log_t, privacy = math.log(T), math.sqrt(math.log(1 / delta))
    if dimension is None:
        return _constant(constant) * (math.sqrt(T * log_t) + privacy * log_t ** 1.5 / epsilon)
    d = check_positive_int(dimension, "dimension")
    return _constant(constant) * (d * math.sqrt(T * log_t) + (d * log_t) ** 1.5 * privacy / epsilon)


# --------------------------------------------------------------------------- tenenbaum


def _positive_gaps(gaps: Any) -> np.ndarray:
    values = _gaps(gaps)
    return values[values > 0]


@renamed_parameters(T="horizon")
def tenenbaum_thm31(gaps: Sequence[float], horizon: int, *, sigma: float, batch_size: int,
                    constant: float) -> float:
    """Tenenbaum et al. 2021, Thm 3.1 (SDP-AE): ``C Σ_{Δ_a>0} (log T/Δ_a + σ² log T/(mΔ_a) + mΔ_a)``.

    C unspecified.

    >>> round(tenenbaum_thm31([0.0, 0.5], 10 ** 4, sigma=2.0, batch_size=4, constant=1.0), 2)
    38.84
    """
    T, positive = _horizon(horizon), _positive_gaps(gaps)
    sigma, m = check_nonnegative(sigma, "sigma"), check_positive_int(batch_size, "batch_size")
    log_t = math.log(T)
    return _constant(constant) * float(np.sum(log_t / positive + sigma ** 2 * log_t / (m * positive)
                                              + m * positive))


@renamed_parameters(T="horizon")
def tenenbaum_cor32(gaps: Sequence[float], horizon: int, *, epsilon: float, delta: float,
                    constant: float) -> float:
    """Tenenbaum et al. 2021, Cor. 3.2: ``C Σ_{Δ_a>0} (log T/Δ_a + Δ_a log(1/δ)/ε²)``. C unspecified.

    >>> round(tenenbaum_cor32([0.0, 0.5], 10 ** 4, epsilon=1.0, delta=1e-6, constant=1.0), 2)
    25.33
    """
    T, positive = _horizon(horizon), _positive_gaps(gaps)
    epsilon = check_epsilon(epsilon, allow_zero=False)
    delta = check_delta(delta, allow_zero=False)
    return _constant(constant) * float(np.sum(math.log(T) / positive
                                              + positive * math.log(1 / delta) / epsilon ** 2))


@renamed_parameters(T="horizon")
def tenenbaum_thm33(gaps: Sequence[float], horizon: int, *, sigma: float, constant: float) -> float:
    """Tenenbaum et al. 2021, Thm 3.3 (VB-SDP-AE): ``C (Σ_{Δ_a>0} log T/Δ_a + kσ log T)``. C unspecified.

    >>> round(tenenbaum_thm33([0.0, 0.5], 10 ** 4, sigma=2.0, constant=1.0), 2)
    55.26
    """
    T, values = _horizon(horizon), _gaps(gaps)
    positive = values[values > 0]
    log_t = math.log(T)
    return _constant(constant) * (float(np.sum(log_t / positive))
                                  + values.size * check_nonnegative(sigma, "sigma") * log_t)


@renamed_parameters(T="horizon")
def tenenbaum_cor34(gaps: Sequence[float], horizon: int, *, epsilon: float, delta: float,
                    constant: float) -> float:
    """Tenenbaum et al. 2021, Cor. 3.4 as Thm 3.3 implies it: ``C (Σ log T/Δ_a + k√log(1/δ) log T/ε)``.

    >>> round(tenenbaum_cor34([0.0, 0.5], 10 ** 4, epsilon=1.0, delta=1e-6, constant=1.0), 2)
    86.89
    """
    T, values = _horizon(horizon), _gaps(gaps)
    epsilon = check_epsilon(epsilon, allow_zero=False)
    delta = check_delta(delta, allow_zero=False)
    positive = values[values > 0]
    log_t = math.log(T)
    return _constant(constant) * (float(np.sum(log_t / positive))
                                  + values.size * math.sqrt(math.log(1 / delta)) * log_t / epsilon)


# --------------------------------------------------------------------------- chowdhury


@renamed_parameters(T="horizon", h="sub_exponential_scale")
def chowdhury_lemma2(gaps: Sequence[float], horizon: int, *, sigma: float,
                     sub_exponential_scale: float, constant: float) -> float:
    """Chowdhury & Zhou 2023, Lemma 2 with p = 1/T: ``C (Σ_{Δ_a>0} log T/Δ_a + Kσ√log T + Kh log T)``.

    The generic engine under Assumption 1 (noise ``(σ, h)``, h = ``sub_exponential_scale``);
    requires T >= K. C unspecified.

    >>> round(chowdhury_lemma2([0.0, 0.5], 10 ** 4, sigma=1.0, sub_exponential_scale=1.0,
    ...                        constant=1.0), 2)
    42.91
    """
    T, values = _horizon(horizon), _gaps(gaps)
    if T < values.size:
        raise value_error("horizon", T, f">= K = {values.size}", "Lemma 2 assumes T >= K")
    sigma = check_nonnegative(sigma, "sigma")
    h = check_nonnegative(sub_exponential_scale, "sub_exponential_scale")
    positive = values[values > 0]
    log_t = math.log(T)
    return _constant(constant) * (float(np.sum(log_t / positive)) + values.size * sigma * math.sqrt(log_t)
                                  + values.size * h * log_t)


#: Chowdhury & Zhou 2023's theorems by privatizer, with the (σ, h) of :mod:`dpverify.bandits.privatizers`.
CHOWDHURY_VARIANTS = ("dist-dp-se", "dist-rdp-se", "dist-cdp-se", "shuffle-dp-se", "cdp-se", "ldp-se")


@renamed_parameters(T="horizon")
def chowdhury_theorem(variant: str, gaps: Sequence[float], horizon: int, *, epsilon: float,
                      constant: float, scale_factor: float = 10.0, ldp_constant: float | None = None
                      ) -> float:
    """Chowdhury & Zhou 2023, Thms 1–6, through Lemma 2 and their privatizers' ``(σ, h)``.

    dist-dp-se / cdp-se: σ = √2/ε, h = 1/ε (Thm 1 / 5); shuffle-dp-se (Thm 3):
    as Thm 1 with ε' = ε/2 (Thm 3's proof); dist-rdp-se:
    σ = 2/ε + √2/(sε), h = 1/(sε) (Thm 2); dist-cdp-se: σ = √2/ε + √2/(sε),
    h = 0 (Thm 4, ε ∈ (0, 1)); ldp-se: Thm 6's ``O(Σ log T/(ε²Δ_a))`` (its
    Lemma 5 constant c is unknown, so ``ldp_constant`` is unused and the
    order form is returned). Thms 4–6 assume ε ∈ (0, 1) (checked).

    >>> chowdhury_theorem("dist-dp-se", [0.0, 0.5], 10 ** 4, epsilon=1.0, constant=1.0) > 0
    True
    """
    variant = check_choice(variant, "variant", CHOWDHURY_VARIANTS)
    epsilon = check_epsilon(epsilon, allow_zero=False)
    if variant in ("dist-cdp-se", "cdp-se", "ldp-se") and not epsilon < 1:
        raise value_error("epsilon", epsilon, "< 1",
                          f"Chowdhury & Zhou 2023's theorem for {variant} assumes ε ∈ (0, 1)")
    s = check_in_range(scale_factor, "scale_factor", 1.0, math.inf, high_closed=False)
    if variant == "ldp-se":
        T, values = _horizon(horizon), _gaps(gaps)
        positive = values[values > 0]
        return _constant(constant) * float(np.sum(math.log(T) / (epsilon ** 2 * positive)))
    sigma, h = {"dist-dp-se": (math.sqrt(2) / epsilon, 1 / epsilon),
                "cdp-se": (math.sqrt(2) / epsilon, 1 / epsilon),
                "shuffle-dp-se": (2 * math.sqrt(2) / epsilon, 2 / epsilon),
                "dist-rdp-se": (2 / epsilon + math.sqrt(2) / (s * epsilon), 1 / (s * epsilon)),
                "dist-cdp-se": (math.sqrt(2) / epsilon + math.sqrt(2) / (s * epsilon), 0.0)}[variant]
    return chowdhury_lemma2(gaps, horizon, sigma=sigma, sub_exponential_scale=h,
                            constant=constant)
