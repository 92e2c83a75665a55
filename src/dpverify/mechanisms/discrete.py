"""Integer-valued noise mechanisms: exact laws.

Each class is a frozen value holding the parameters of a noise law on the
integers; the mechanism adds a draw of it to an integer query. The classes
hold no RNG (samplers live in :mod:`dpverify.mechanisms.samplers`) and know no
accountant (maps live in :mod:`dpverify.mechanisms.privacy_maps`).
"""

from __future__ import annotations

from dataclasses import dataclass

from dpverify._validation import check_positive, check_positive_int, check_probability

__all__ = ["DiscreteLaplace", "DiscreteGaussian", "Skellam", "PolyaDifference", "BinomialNoise"]


@dataclass(frozen=True, slots=True)
class DiscreteLaplace:
    """Discrete Laplace noise: ``P[k] ∝ exp(−|k| / scale)`` on the integers.

    Canonne, Kamath & Steinke 2020, Def. 29 (parameter t = ``scale``); the
    difference of two i.i.d. geometric variables with ratio ``exp(−1/scale)``.
    """

    scale: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "scale", check_positive(self.scale, "scale"))


@dataclass(frozen=True, slots=True)
class DiscreteGaussian:
    """Discrete Gaussian noise: ``P[k] ∝ exp(−k² / (2 sigma²))`` on the integers.

    Canonne, Kamath & Steinke 2020, Def. 1 (``sigma`` is the parameter σ, not
    the standard deviation, which is slightly smaller).
    """

    sigma: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "sigma", check_positive(self.sigma, "sigma"))


@dataclass(frozen=True, slots=True)
class Skellam:
    """Skellam noise: the difference of two i.i.d. Poisson(``mu``) variables (variance 2·mu).

    Agarwal, Kairouz & Liu 2021 (the Skellam mechanism); chowdhury Thm 2.
    """

    mu: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "mu", check_positive(self.mu, "mu"))


@dataclass(frozen=True, slots=True)
class PolyaDifference:
    """One user's share of distributed discrete Laplace noise (chowdhury Thm 1).

    The law of ``γ⁺ − γ⁻`` with ``γ±`` i.i.d. Pólya(r = 1/``shares``,
    β = exp(−1/``scale``)); the sum of ``shares`` i.i.d. copies is exactly
    ``DiscreteLaplace(scale)`` (Goryczka & Xiong 2015, Thm 5.1). Pólya(r, β)
    is the Poisson–Gamma mixture with Gamma shape r and **scale β/(1 − β)**
    (CATALOGUE 003 trap T3-1: the public reference code inverts this scale).
    """

    shares: int
    scale: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "shares", check_positive_int(self.shares, "shares"))
        object.__setattr__(self, "scale", check_positive(self.scale, "scale"))


@dataclass(frozen=True, slots=True)
class BinomialNoise:
    """Centred binomial noise: ``Bin(trials, probability) − trials·probability``.

    Integer-valued when ``trials·probability`` is an integer (``probability``
    = 1/2 with even ``trials``: the binomial mechanism of Agarwal et al. 2018
    and Dwork et al. 2006's "our data, ourselves").
    """

    trials: int
    probability: float = 0.5

    def __post_init__(self) -> None:
        object.__setattr__(self, "trials", check_positive_int(self.trials, "trials"))
        object.__setattr__(self, "probability",
                           check_probability(self.probability, "probability", open_low=True,
                                             open_high=True))
