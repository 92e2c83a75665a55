"""The mixture-of-Gaussians mechanism: Gaussian noise on a query whose sensitivity is random.

On the dataset with the record the query moves by ``c_i >= 0`` with
probability ``p_i`` (DP-SGD with per-example clipping norms, a Poisson sample
folded in as ``c = 0`` w.p. ``1 − q``); ``N(0, σ²)`` noise is added. The
neighbouring outputs are (add/remove relation; dp_accounting's
``MixtureOfGaussiansDpEvent``, Choquette-Choo et al., arXiv:2310.15526)::

    P = Σ_i p_i N(c_i Δ, σ²)    (with the record)     Q = N(0, σ²)   (without),

``Δ`` the ``sensitivity`` a privacy map is asked for (a scale on every ``c_i``;
1 by default). Under replace-one the pair is not of this form: the maps support
``neighbouring="add-remove"`` and ``"replace-special"`` (the record replaced by one
contributing nothing) and refuse ``"replace-one"``.

Privacy maps (registered, tightest first):

* ``PrivacyProfile`` — exact. The likelihood ratio ``r(y) = Σ_i p_i e^{(c_i y −
  c_i²/2)/σ²}`` (Δ folded into c) increases in y, so ``{r > e^ε}`` is a half-line
  ``y > y*`` and ``δ_remove(ε) = P(Y > y*) − e^ε Q(Y > y*)``, ``δ_add(ε) = Q(Y < y') −
  e^ε P(Y < y')`` with ``r(y') = e^{−ε}``; δ is their maximum.
* ``RDPCurve`` — by convexity of ``t ↦ t^α`` and of ``t ↦ t^{1−α}`` (α > 1), both
  ``D_α(P‖Q)`` and ``D_α(Q‖P)`` are at most
  ``ln Σ_i p_i e^{α(α−1)c_i²/(2σ²)} / (α − 1)`` (joint convexity of
  ``E_Q[(P/Q)^α]``; each component is a Gaussian pair). Sound, and exact for one
  component; a Poisson-type mixture gets amplification linear in q only (the
  PLD is much tighter there).
* ``ZCDP`` — ``ρ = max_i c_i²Δ²/(2σ²)`` (quasi-convexity of D_α).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath

from dpverify._numeric import round_up, working_precision
from dpverify._validation import (
    check_increasing_sequence,
    check_instance,
    check_mp_real,
    check_nonnegative,
    check_positive,
    value_error,
)
from dpverify.guarantees import ZCDP, PrivacyProfile, RDPCurve
from dpverify.mechanisms._lattice import CONVERSION_ORDERS
from dpverify.mechanisms.continuous import Gaussian, ShiftedDensity
from dpverify.mechanisms.privacy_maps import register_privacy_map
from dpverify.neighbouring import Neighbouring

__all__ = ["MixtureOfGaussians", "mixture_gaussian_delta", "mixture_gaussian_rdp"]

#: Most components of a mixture (its exact maps cost a few mpmath operations per component).
MAX_COMPONENTS = 1_000
#: Range of the loss scale ``max_i c_i Δ/σ`` of the exact profile (50 digits resolve ln r there).
LOSS_SCALE_RANGE = (1e-12, 1e6)


def _numbers(values: Any, name: str, check) -> tuple[float, ...]:
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise value_error(name, values, "a sequence of numbers")
    items = tuple(values)
    if not 1 <= len(items) <= MAX_COMPONENTS:
        raise value_error(name, f"<{len(items)} values>", f"between 1 and {MAX_COMPONENTS} values")
    return tuple(check(value, name) for value in items)


@dataclass(frozen=True, slots=True)
class MixtureOfGaussians:
    """``N(0, sigma²)`` noise on a query that moves by ``sensitivities[i]`` w.p. ``probabilities[i]``.

    Parameters
    ----------
    sigma
        Noise standard deviation, > 0.
    sensitivities
        ``c_i >= 0``, not all 0 (in units of the ``sensitivity`` a map is asked for).
    probabilities
        ``p_i >= 0`` summing to 1 (within 1e-12), as many as ``sensitivities``.

    >>> from dpverify.mechanisms import privacy_map
    >>> from dpverify.guarantees import PrivacyProfile
    >>> mechanism = MixtureOfGaussians(1.0, (0.0, 1.0), (0.99, 0.01))   # Poisson q = 0.01
    >>> profile = privacy_map(mechanism, neighbouring="add-remove", target=PrivacyProfile)
    >>> round(profile.delta_for_epsilon(0.1) * 1e5, 6)                 # δ(0.1) in units of 1e-5
    7.290038
    """

    sigma: float
    sensitivities: tuple
    probabilities: tuple

    def __post_init__(self) -> None:
        object.__setattr__(self, "sigma", check_positive(self.sigma, "sigma"))
        cs = _numbers(self.sensitivities, "sensitivities", check_nonnegative)
        ps = _numbers(self.probabilities, "probabilities", check_nonnegative)
        if len(cs) != len(ps):
            raise value_error("probabilities", self.probabilities,
                              f"as many values as sensitivities ({len(cs)})")
        if abs(math.fsum(ps) - 1) > 1e-12:
            raise value_error("probabilities", self.probabilities, "summing to 1 (within 1e-12)")
        if max(cs) == 0:
            raise value_error("sensitivities", self.sensitivities, "not all 0",
                              "a query that never moves needs no noise")
        object.__setattr__(self, "sensitivities", cs)
        object.__setattr__(self, "probabilities", ps)

    def law_on(self, x: Any) -> ShiftedDensity:
        """Output law ``x + N(0, σ²)`` on the query value ``x``."""
        return Gaussian(self.sigma).law_on(x)

    def components(self, sensitivity: float = 1.0) -> tuple[list[float], list[float]]:
        """``([c_i Δ], [p_i])`` over the components of positive mass, products rounded up.

        (Components are not merged: a float sum of their weights could round a
        zero-sensitivity weight up, which would make the pair look more private.)
        """
        pairs = [(c if sensitivity == 1 else round_up(Fraction(c) * Fraction(sensitivity)), p)
                 for c, p in zip(self.sensitivities, self.probabilities) if p > 0]
        return [c for c, _ in pairs], [p for _, p in pairs]


def _check_relation(neighbouring: Any) -> Neighbouring:
    return Neighbouring.require(neighbouring,
                                [Neighbouring.ADD_REMOVE, Neighbouring.REPLACE_SPECIAL],
                                "a mixture of Gaussians (its pair Σ p_i N(c_i, σ²) vs N(0, σ²) adds "
                                "or removes a record)")


def mixture_gaussian_delta(mechanism: MixtureOfGaussians, epsilon: Any, *,
                           sensitivity: float = 1.0) -> mpmath.mpf:
    """Exact ``δ(ε)`` of the mixture, both directions, as an upper bound within 10⁻³⁰ absolute (mpmath).

    The thresholds ``y*`` are bracketed by bisection (width 10⁻⁴⁰ relative); with
    ``[lo, hi] ∋ y*``, ``P(Y > lo) − e^ε Q(Y > hi)`` bounds the remove direction from
    above (and symmetrically for add), so no rounding of the root lowers δ; the
    10⁻³⁰ slack covers a bracket misplaced by mpmath's error in ``ln r``. A
    threshold beyond ``±(10¹⁰⁰σ + max c)`` contributes at most ``Φ̄(10¹⁰⁰) ≈ 0``.
    The loss scale ``μ = max_i c_i Δ/σ`` must lie in ``[1e-12, 1e6]`` (below it
    50 digits cannot resolve ``ln r``).

    >>> m = MixtureOfGaussians(1.0, (1.0,), (1.0,))        # a plain Gaussian
    >>> from dpverify.mechanisms import gaussian_delta
    >>> bool(0 <= mixture_gaussian_delta(m, 1.0) - gaussian_delta(1.0, 1.0) < 1e-29)
    True
    """
    check_instance(mechanism, "mechanism", MixtureOfGaussians, "a MixtureOfGaussians")
    sensitivity = check_positive(sensitivity, "sensitivity")
    epsilon = check_mp_real(epsilon, "epsilon", low=0.0)
    cs, ps = mechanism.components(sensitivity)
    scale = max(cs) / mechanism.sigma
    if not LOSS_SCALE_RANGE[0] <= scale <= LOSS_SCALE_RANGE[1]:
        raise value_error("sensitivity", sensitivity,
                          f"such that max(sensitivities)·sensitivity/sigma = {scale:.3g} lies in "
                          f"[{LOSS_SCALE_RANGE[0]:g}, {LOSS_SCALE_RANGE[1]:g}]")
    with working_precision():
        target = mpmath.mpf(epsilon)
        s = mpmath.mpf(mechanism.sigma)
        cs_mp, ps_mp = [mpmath.mpf(c) for c in cs], [mpmath.mpf(p) for p in ps]
        floor = mpmath.fsum(p for p, c in zip(ps_mp, cs_mp) if c == 0)
        mass = mpmath.fsum(ps_mp)         # the weights as given (1 within 1e-12), taken as exact
        reach = mpmath.mpf(10) ** 100 * s + max(cs_mp)

        def log_ratio(y: mpmath.mpf) -> mpmath.mpf:
            return mpmath.log(mpmath.fsum(p * mpmath.exp((c * y - c * c / 2) / (s * s))
                                          for p, c in zip(ps_mp, cs_mp)))

        def p_above(y: mpmath.mpf) -> mpmath.mpf:
            return mpmath.fsum(p * mpmath.ncdf((c - y) / s) for p, c in zip(ps_mp, cs_mp))

        def bracket(level: mpmath.mpf) -> tuple[mpmath.mpf, mpmath.mpf] | str:
            """``[lo, hi]`` around the y with ln r(y) = level, or where it lies: "below"/"above" reach."""
            if floor > 0 and mpmath.log(floor) >= level:
                return "below"
            low, high = -s, s + max(cs_mp)
            while log_ratio(low) >= level:
                low = 2 * low - s
                if low < -reach:
                    return "below"
            while log_ratio(high) < level:
                high = 2 * high + s
                if high > reach:
                    return "above"
            while high - low > mpmath.mpf(10) ** -40 * (s + abs(high)):
                middle = (low + high) / 2
                low, high = (middle, high) if log_ratio(middle) < level else (low, middle)
            return low, high

        factor = mpmath.exp(target)
        cut = bracket(target)             # remove: {r > e^ε} = {y > y*}
        if cut == "above":
            remove = mpmath.mpf(0)        # <= P(Y > reach) = Φ̄(≈10¹⁰⁰)
        elif cut == "below":
            remove = mass - factor        # r > e^ε everywhere: S = all outputs
        else:
            remove = p_above(cut[0]) - factor * mpmath.ncdf(-cut[1] / s)
        cut = bracket(-target)            # add: {r < e^{−ε}} = {y < y'}
        if cut == "below":
            add = mpmath.mpf(0)           # empty, or <= Q(Y < −reach)
        elif cut == "above":
            add = 1 - factor * mass       # r < e^{−ε} everywhere
        else:
            add = mpmath.ncdf(cut[1] / s) - factor * (mass - p_above(cut[0]))
        return min(mpmath.mpf(1), max(remove, add, mpmath.mpf(0)) + mpmath.mpf(10) ** -30)


def mixture_gaussian_rdp(mechanism: MixtureOfGaussians, orders: Any = CONVERSION_ORDERS, *,
                         sensitivity: float = 1.0) -> RDPCurve:
    """Convexity bound ``ln Σ_i p_i e^{α(α−1)c_i²Δ²/(2σ²)}/(α − 1)`` at each order (module docstring).

    Computed in mpmath and rounded up; holds for both directions of the pair.

    >>> curve = mixture_gaussian_rdp(MixtureOfGaussians(1.0, (1.0,), (1.0,)), (2.0,))
    >>> curve.epsilons[0] == 1.0 or curve.epsilons[0] == 1.0000000000000002   # α/(2σ²), rounded up
    True
    """
    check_instance(mechanism, "mechanism", MixtureOfGaussians, "a MixtureOfGaussians")
    sensitivity = check_positive(sensitivity, "sensitivity")
    orders = check_increasing_sequence(orders, "orders", low=1.0)
    cs, ps = mechanism.components(sensitivity)
    values = []
    with working_precision():
        s2 = 2 * mpmath.mpf(mechanism.sigma) ** 2
        for alpha in orders:
            a = mpmath.mpf(alpha)
            exponents = [a * (a - 1) * mpmath.mpf(c) ** 2 / s2 for c in cs]
            top = max(exponents)
            total = top + mpmath.log(mpmath.fsum(mpmath.mpf(p) * mpmath.exp(e - top)
                                                 for p, e in zip(ps, exponents)))
            values.append(round_up(total / (a - 1) * (1 + mpmath.mpf(10) ** -40)))
    return RDPCurve(orders, tuple(values))


@register_privacy_map(MixtureOfGaussians, PrivacyProfile)
def _mixture_profile(mechanism: MixtureOfGaussians, *, sensitivity: float,
                     neighbouring: Neighbouring) -> PrivacyProfile:
    """Exact profile (:func:`mixture_gaussian_delta`); add/remove only."""
    _check_relation(neighbouring)
    return PrivacyProfile(lambda epsilon: mixture_gaussian_delta(mechanism, epsilon,
                                                                 sensitivity=sensitivity),
                          description=f"{mechanism!r}, sensitivity={sensitivity!r}",
                          relative_error=1e-30)


@register_privacy_map(MixtureOfGaussians, RDPCurve)
def _mixture_rdp(mechanism: MixtureOfGaussians, *, sensitivity: float,
                 neighbouring: Neighbouring) -> RDPCurve:
    """Convexity RDP bound at :data:`~dpverify.mechanisms._lattice.CONVERSION_ORDERS`; add/remove only."""
    _check_relation(neighbouring)
    return mixture_gaussian_rdp(mechanism, sensitivity=sensitivity)


@register_privacy_map(MixtureOfGaussians, ZCDP)
def _mixture_zcdp(mechanism: MixtureOfGaussians, *, sensitivity: float,
                  neighbouring: Neighbouring) -> ZCDP:
    """``ZCDP(max_i c_i²Δ²/(2σ²))``, rounded up (quasi-convexity); add/remove only."""
    _check_relation(neighbouring)
    top = max(c for c, p in zip(mechanism.sensitivities, mechanism.probabilities) if p > 0)
    return ZCDP(round_up((Fraction(top) * Fraction(sensitivity)) ** 2
                         / (2 * Fraction(mechanism.sigma) ** 2)))
