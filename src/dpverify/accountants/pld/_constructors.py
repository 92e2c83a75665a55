"""Constructors of :class:`~dpverify.accountants.pld.distribution.PrivacyLossDistribution` (one per mechanism).

A mixin: :class:`PLDConstructors` holds the ``from_*`` class methods, which
build each mechanism's pessimistic loss grids (``_losses``, ``_grid``)
and call ``cls(directions, tail, rebuild=...)``; the value class itself, its
composition and its queries are in :mod:`dpverify.accountants.pld.distribution`. Soundness
notes: ``docs/proofs/pld.md``, §2.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from functools import partial
from typing import Any, TypeVar

import mpmath

from dpverify._deprecation import renamed_parameters
from dpverify._numeric import round_down, round_up, working_precision
from dpverify._validation import (
    check_delta,
    check_epsilon,
    check_in_range,
    check_int_at_least,
    check_positive,
    check_probability,
    value_error,
)
from dpverify.accountants.pld._grid import grid_from_atoms
from dpverify.accountants.pld._losses import (
    ReplaceSubsampledGaussian,
    SubsampledGaussian,
    bounded_range_grid,
    check_normalised,
    laplace_grid,
    monotone_grid,
    pmf_items,
    pmf_loss_atoms,
)
from dpverify.accountants.pld._poisson_gaussian import subsampled_gaussian_grids
from dpverify.errors import DpverifyTypeError
from dpverify.neighbouring import Neighbouring

__all__ = ["PLDConstructors", "check_grid_options", "DEFAULT_VALUE_DISCRETIZATION_INTERVAL",
           "DEFAULT_TAIL_MASS_TRUNCATION", "POINTS_PER_STANDARD_DEVIATION", "POINTS_PER_EPSILON"]

#: The class the constructors build: :class:`~dpverify.accountants.pld.distribution.PrivacyLossDistribution`
#: (a type variable, so that this module does not import the class it is mixed into).
PLD = TypeVar("PLD", bound="PLDConstructors")
#: Default grid spacing h of :meth:`PrivacyLossDistribution.from_pmfs` (and of
#: randomized response with ε = 0).
DEFAULT_VALUE_DISCRETIZATION_INTERVAL = 1e-4
#: Default tail mass cut at each end of a continuous loss (and after each composition).
DEFAULT_TAIL_MASS_TRUNCATION = 1e-15
#: With ``value_discretization_interval=None``, continuous losses get h = (loss std) / this.
POINTS_PER_STANDARD_DEVIATION = 100
#: With ``value_discretization_interval=None``, atoms at ±ε get h = ε / this (exact in floats).
POINTS_PER_EPSILON = 128
#: Range of the loss scale (μ = Δ/σ of a Gaussian, ε0 = Δ/b of a Laplace) a PLD is built for.
LOSS_SCALE_RANGE = (1e-12, 1e4)
#: Largest grid spacing h (nats); coarser grids say nothing at the ε anyone asks about.
MAX_VALUE_DISCRETIZATION_INTERVAL = 100.0
#: Smallest Poisson sampling rate q of a subsampled-Gaussian PLD (ln(1 − q) must be resolvable).
MIN_SAMPLING_PROBABILITY = 1e-200


def check_grid_options(interval: Any, tail: Any, default: float) -> tuple[float, float]:
    """Validate the grid options; ``interval=None`` means ``default`` (scaled to the mechanism)."""
    if interval is None:
        interval = default
    interval = check_in_range(interval, "value_discretization_interval", 0.0,
                              MAX_VALUE_DISCRETIZATION_INTERVAL, low_closed=False)
    tail = check_in_range(tail, "tail_mass_truncation", 0.0, 0.01, low_closed=False)
    return interval, tail


def _atom_interval(epsilon: float) -> float:
    """``ε / 128`` (exact in floats, so ±ε are grid points), or the default for ε = 0."""
    if epsilon > LOSS_SCALE_RANGE[1]:
        raise value_error("epsilon", epsilon, f"at most {LOSS_SCALE_RANGE[1]:g} for a "
                          "discretised PLD", "the mechanism is not private at any useful ε")
    if 0 < epsilon < 1e-300:
        raise value_error("epsilon", epsilon, "0 or at least 1e-300 for a discretised PLD",
                          "a smaller ε is 0 to float precision; pass 1e-300, an upper bound")
    return epsilon / POINTS_PER_EPSILON if epsilon > 0 else DEFAULT_VALUE_DISCRETIZATION_INTERVAL


def _noise(sigma: float, sensitivity: float) -> float:
    """``σ/Δ`` rounded down: a smaller noise multiplier dominates (post-processing)."""
    multiplier = round_down(Fraction(sigma) / Fraction(sensitivity))
    _check_loss_scale(1 / multiplier if multiplier > 0 else math.inf,
                      f"sensitivity/sigma (sigma={sigma!r}, sensitivity={sensitivity!r})")
    return multiplier


def _check_loss_scale(scale: float, described: str) -> None:
    """Refuse a privacy-loss scale (μ = Δ/σ, ε0 = Δ/b) whose grid would over- or underflow."""
    low, high = LOSS_SCALE_RANGE
    if not low <= scale <= high:
        raise value_error(described, scale, f"in [{low:g}, {high:g}] for a discretised PLD",
                          "below it the loss is 0 to float precision (use a tiny positive ε), "
                          "above it the mechanism is not private at any useful ε")


class PLDConstructors:
    """The ``from_*`` class methods of :class:`~dpverify.accountants.pld.distribution.PrivacyLossDistribution`."""

    __slots__ = ()

    # ----------------------------------------------------------------- constructors
    @classmethod
    def from_gaussian(cls: type[PLD], sigma: float, *, sensitivity: float = 1.0,
                      value_discretization_interval: float | None = None,
                      tail_mass_truncation: float = DEFAULT_TAIL_MASS_TRUNCATION,
                      ) -> PLD:
        """PLD of the Gaussian mechanism ``f(x) + N(0, σ²)``.

        Parameters
        ----------
        sigma
            Noise standard deviation, > 0.
        sensitivity
            ℓ2 sensitivity Δ of ``f``, > 0.
        value_discretization_interval
            Grid spacing h of the loss; ``None`` (default) scales it to the
            mechanism: ``h = μ/100``, 1/100 of the loss's standard deviation.
        tail_mass_truncation
            Mass τ cut at each tail (lower tail moved up, upper tail to ``+∞``).

        Returns
        -------
        PrivacyLossDistribution
            Symmetric; the loss is ``N(μ²/2, μ²)`` with ``μ = Δ/σ``.

        Raises
        ------
        ValueError, TypeError
            For a non-positive or non-finite argument (named in the message).

        Notes
        -----
        The loss of ``N(0, σ²)`` vs ``N(Δ, σ²)`` is ``μ²/2 − μ Y``, ``Y ~ N(0, 1)``
        (Balle & Wang 2018, Lemma 3), so ``P(L > t) = Φ̄((t − μ²/2)/μ)``.

        **Soundness.** Upper bound for any relation under which ``f`` has ℓ2
        sensitivity Δ; ``σ/Δ`` is rounded down, interval masses and tilts
        carry error bounds (assumption: scipy's ``log_ndtr`` within
        1e-13 + 1e-14 relative), so the grid dominates (``docs/proofs/pld.md``, §2).

        Examples
        --------
        >>> from dpverify.accountants.pld import PrivacyLossDistribution
        >>> pld = PrivacyLossDistribution.from_gaussian(1.0)
        >>> 4.377178 < pld.epsilon_for_delta(1e-5) < 4.3775
        True
        """
        sigma = check_positive(sigma, "sigma")
        sensitivity = check_positive(sensitivity, "sensitivity")
        spec = SubsampledGaussian(_noise(sigma, sensitivity), 1.0)
        interval, tail = check_grid_options(value_discretization_interval, tail_mass_truncation,
                                             spec.loss_std() / POINTS_PER_STANDARD_DEVIATION)
        return cls((monotone_grid(spec, interval, tail),), tail, rebuild=partial(
            cls.from_gaussian, sigma, sensitivity=sensitivity,
            value_discretization_interval=interval))

    @classmethod
    def from_laplace(cls: type[PLD], scale: float, *, sensitivity: float = 1.0,
                     value_discretization_interval: float | None = None,
                     tail_mass_truncation: float = DEFAULT_TAIL_MASS_TRUNCATION,
                     ) -> PLD:
        """PLD of the Laplace mechanism ``f(x) + Lap(scale)``, ``ε0 = sensitivity/scale``.

        Notes
        -----
        The loss of ``Lap(0, b)`` vs ``Lap(Δ, b)`` has atoms ½ at ε0 and
        ``e^{−ε0}/2`` at −ε0 and density ``e^{(l−ε0)/2}/4`` between, so
        ``P(L > t) = 1 − e^{−(ε0 − t)/2}/2`` on ``[−ε0, ε0)``.

        **Soundness.** Upper bound for scalar ``f`` with ℓ1 sensitivity Δ under
        any relation; ``ε0 = Δ/b`` is rounded up; by default ``h = ε0/128`` so
        the atoms ±ε0 are grid points; interval masses carry error bounds.

        Examples
        --------
        >>> from dpverify.accountants.pld import PrivacyLossDistribution
        >>> pld = PrivacyLossDistribution.from_laplace(1.0)
        >>> pld.delta_for_epsilon(1.0001) <= 1e-12
        True
        """
        scale = check_positive(scale, "scale")
        sensitivity = check_positive(sensitivity, "sensitivity")
        epsilon_0 = round_up(Fraction(sensitivity) / Fraction(scale))
        _check_loss_scale(epsilon_0, f"sensitivity/scale (scale={scale!r}, "
                                     f"sensitivity={sensitivity!r})")
        interval, tail = check_grid_options(value_discretization_interval, tail_mass_truncation,
                                             epsilon_0 / POINTS_PER_EPSILON)
        return cls((laplace_grid(epsilon_0, interval),), tail)  # no tail cut: nothing to rebuild

    @classmethod
    def from_bounded_range(cls: type[PLD], epsilon: float, *,
                           value_discretization_interval: float | None = None,
                           tail_mass_truncation: float = DEFAULT_TAIL_MASS_TRUNCATION,
                           ) -> PLD:
        """PLD dominating every ε-bounded-range mechanism (the exponential mechanism with its ε).

        A mechanism is ε-bounded-range (Durfee & Rogers, NeurIPS 2019) when, on
        neighbouring inputs, its privacy loss takes values in an interval of width
        ε; so on each neighbouring pair it is dominated by the generalized
        randomized response ``RR_t`` whose loss is ``(1 − t)ε`` w.p.
        ``p_t = (1 − e^{−tε})/(1 − e^{−ε})`` and ``−tε`` otherwise, some ``t ∈ [0, 1]``
        (Dong, Durfee & Rogers, ICML 2020, Lemma 4.1). The pair returned here
        dominates every ``RR_t`` at once: its privacy profile is the envelope

        .. math:: δ(ε') = \\max_t δ_{RR_t}(ε') = \\frac{(1 − e^{(ε'−ε)/2})^2}{1 − e^{−ε}},
                  \\qquad 0 <= ε' <= ε,

        (the maximum is at ``e^{tε} = e^{(ε−ε')/2}``; negative ε' by symmetry), whose
        loss has density ``e^{(l−ε)/2}/(2(1 − e^{−ε}))`` on ``(−ε, ε)``. Composition of
        these PLDs is therefore sound under adaptive composition (Zhu, Dong, Wang
        2022, Thm 10), and tighter than the ε-DP pair (δ(0) = tanh(ε/4), not tanh(ε/2)).
        No single pair dominating every ``RR_t`` composes tighter, yet after many
        folds composing it is loose: its KL divergence is about ε²/6 while every
        ε-BR mechanism is ε²/8-zCDP (Cesar & Rogers 2021), so the zCDP/RDP route
        wins for large k (``PrivacyAccountant.report`` shows both). DDR's
        non-adaptive optimum ``max_t δ_{RR_t^{⊗k}}`` is smaller still and not
        sound adaptively (DDR §6).

        **Soundness.** Upper bound; ε taken as the exact float; grid masses carry
        the float error bounds of :func:`~dpverify.accountants.pld._losses.bounded_range_grid`;
        default spacing ``h = ε/128``.

        >>> from dpverify.accountants.pld import PrivacyLossDistribution
        >>> pld = PrivacyLossDistribution.from_bounded_range(1.0)
        >>> round(pld.delta_for_epsilon(0.0), 6)   # tanh(1/4)
        0.244919
        """
        epsilon = check_epsilon(epsilon, "epsilon", allow_zero=False)
        _check_loss_scale(epsilon, "epsilon")
        interval, tail = check_grid_options(value_discretization_interval, tail_mass_truncation,
                                             _atom_interval(epsilon))
        return cls((bounded_range_grid(epsilon, interval),), tail)

    @classmethod
    def from_discrete_laplace(cls: type[PLD], scale: float, *, sensitivity: int = 1,
                              value_discretization_interval: float | None = None,
                              tail_mass_truncation: float = DEFAULT_TAIL_MASS_TRUNCATION,
                              ) -> PLD:
        """PLD of the discrete Laplace mechanism ``f(x) + DLap(t)`` (``t = scale``), integer sensitivity Δ.

        With ``P[k] ∝ e^{−|k|/t}`` the loss of ``X`` vs ``X + Δ`` is
        ``(|k − Δ| − |k|)/t``: ``Δ/t`` for ``k <= 0`` (mass ``1/(1 + β)``,
        ``β = e^{−1/t}``), ``(Δ − 2k)/t`` for ``0 < k < Δ`` and ``−Δ/t`` for
        ``k >= Δ``; finitely many atoms, computed in mpmath (the pair is
        symmetric). Unlike the pure ε = Δ/t it composes with δ > 0 tightly.
        Default spacing ``h = (Δ/t)/128`` (atoms ``(Δ − 2k)/t`` on the grid only
        approximately: split connect-the-dots with a margin).

        **Soundness.** Upper bound for integer-valued ``f`` with ℓ1 sensitivity Δ.

        >>> from dpverify.accountants.pld import PrivacyLossDistribution
        >>> pld = PrivacyLossDistribution.from_discrete_laplace(1.0)
        >>> round(pld.delta_for_epsilon(0.0), 6)   # binary RR with ε = 1: tanh(1/2)
        0.462117
        """
        scale = check_positive(scale, "scale")
        sensitivity = check_int_at_least(sensitivity, "sensitivity", 1)
        with working_precision():
            t = mpmath.mpf(scale)
            beta = mpmath.exp(-1 / t)
            norm = (1 - beta) / (1 + beta)
            slack = 1 + mpmath.mpf(10) ** -40
            losses = [sensitivity / t, -sensitivity / t]
            masses = [1 / (1 + beta) * slack, beta ** sensitivity / (1 + beta) * slack]
            for k in range(1, sensitivity):
                losses.append((sensitivity - 2 * k) / t)
                masses.append(norm * beta ** k * slack)
            top = float(sensitivity / t)
            # Δ/t and (Δ − 2k)/t are rationals: equal to a float at 50 digits only if exactly it
            exact = all(loss == mpmath.mpf(float(loss)) for loss in losses)
        interval, tail = check_grid_options(value_discretization_interval, tail_mass_truncation,
                                             top / POINTS_PER_EPSILON)
        return cls((grid_from_atoms(losses, masses, interval=interval, exact_losses=exact),), tail)

    @classmethod
    @renamed_parameters(k="categories")
    def from_randomized_response(cls: type[PLD], epsilon: float, *, categories: int = 2,
                                 value_discretization_interval: float | None = None,
                                 tail_mass_truncation: float = DEFAULT_TAIL_MASS_TRUNCATION,
                                 ) -> PLD:
        """PLD of k-ary randomized response: keep w.p. ``e^ε/(e^ε+k−1)``, else uniform on the rest.

        ``categories`` is the number k >= 2 of outputs.

        The loss is ε w.p. ``e^ε/Z``, −ε w.p. ``1/Z`` and 0 w.p. ``(k−2)/Z``,
        ``Z = e^ε + k − 1``, computed in mpmath; by default ``h = ε/128`` (exact
        in floats), so the atoms are grid points and the grid is exact.

        **Soundness.** Upper bound under the replace-one relation (the only
        one for local randomizers); atoms off the grid are split
        connect-the-dots in mpmath, shares and masses rounded up.

        >>> from dpverify.accountants.pld import PrivacyLossDistribution
        >>> pld = PrivacyLossDistribution.from_randomized_response(1.0)
        >>> round(pld.delta_for_epsilon(0.0), 6)  # (e − 1)/(e + 1)
        0.462117
        """
        epsilon = check_epsilon(epsilon, "epsilon")
        k = check_int_at_least(categories, "categories", 2)
        interval, tail = check_grid_options(value_discretization_interval, tail_mass_truncation,
                                             _atom_interval(epsilon))
        with working_precision():
            weight = mpmath.exp(epsilon)
            total = weight + k - 1
            slack = 1 + mpmath.mpf(10) ** -40  # masses computed at 50 digits: upper bounds
            atoms = ([mpmath.mpf(epsilon), -mpmath.mpf(epsilon), mpmath.mpf(0)],
                     [weight / total * slack, slack / total, (k - 2) / total * slack])
        return cls((grid_from_atoms(*atoms, interval=interval, exact_losses=True),), tail)

    @classmethod
    def from_approx_dp(cls: type[PLD], epsilon: float, delta: float, *,
                       value_discretization_interval: float | None = None,
                       tail_mass_truncation: float = DEFAULT_TAIL_MASS_TRUNCATION,
                       ) -> PLD:
        """PLD of the dominating pair of (ε, δ)-DP (Kairouz, Oh, Viswanath 2015, Thm 2.1).

        The pair ``P = (δ, (1−δ)e^ε/(1+e^ε), (1−δ)/(1+e^ε), 0)`` and ``Q`` its
        reverse dominates every (ε, δ)-DP mechanism; its loss is ``+∞`` w.p. δ,
        ε w.p. ``(1−δ)e^ε/(1+e^ε)`` and −ε otherwise. Composing it k times
        reproduces the optimal composition theorem (KOV 2015, Thm 3.3) up to
        the grid rounding.

        **Soundness.** Upper bound for any mechanism that is (ε, δ)-DP under
        the same relation; by default ``h = ε/128`` (atoms on the grid);
        otherwise split connect-the-dots, shares and masses rounded up.

        >>> from dpverify.accountants.pld import PrivacyLossDistribution
        >>> pld = PrivacyLossDistribution.from_approx_dp(1.0, 1e-6)
        >>> pld.delta_for_epsilon(1.0) <= 1.0001e-6
        True
        """
        epsilon = check_epsilon(epsilon, "epsilon")
        delta = check_delta(delta, "delta")
        interval, tail = check_grid_options(value_discretization_interval, tail_mass_truncation,
                                             _atom_interval(epsilon))
        with working_precision():
            weight, rest = mpmath.exp(epsilon), 1 - mpmath.mpf(delta)
            slack = 1 + mpmath.mpf(10) ** -40  # computed at 50 digits: upper bounds
            atoms = ([mpmath.inf, mpmath.mpf(epsilon), -mpmath.mpf(epsilon)],
                     [mpmath.mpf(delta), rest * weight / (1 + weight) * slack,
                      rest / (1 + weight) * slack])
        return cls((grid_from_atoms(*atoms, interval=interval, exact_losses=True),), tail)

    @classmethod
    @renamed_parameters(p="pmf", q="pmf_prime")
    def from_pmfs(cls: type[PLD], pmf: Any, pmf_prime: Any, *, symmetric: bool = False,
                  value_discretization_interval: float | None = None,
                  tail_mass_truncation: float = DEFAULT_TAIL_MASS_TRUNCATION,
                  ) -> PLD:
        """PLD of a pair of finite pmfs: the outputs on two neighbouring inputs.

        Parameters
        ----------
        pmf, pmf_prime
            The pmfs p (on the input with the record) and q (on its neighbour):
            1-D array-likes of equal length, or dicts ``outcome -> probability``
            (a missing outcome has probability 0). Each must sum to 1 within 1e-9;
            the given numbers are taken as the exact pmfs.
        symmetric
            If True, only the direction (p vs q) is kept: use it only when the
            reverse direction has the same loss distribution.

        Notes
        -----
        Losses ``ln(p(o)/q(o))`` are computed in mpmath at 50 digits and split
        connect-the-dots between their two grid neighbours (``None``: h = 1e-4;
        shares widened by 10⁻²⁵ absolute against mpmath's error); ``p(o) > 0 = q(o)`` puts ``p(o)`` at ``+∞``. The
        directions are (p vs q, q vs p): when composing several pmf pairs, give
        each pair in the same orientation (the input with the record first).

        **Soundness.** Upper bound on ``sup_S max(p(S) − e^ε q(S), q(S) − e^ε p(S))``.

        >>> from dpverify.accountants.pld import PrivacyLossDistribution
        >>> pld = PrivacyLossDistribution.from_pmfs([0.5, 0.5], [0.25, 0.75])
        >>> round(pld.delta_for_epsilon(0.0), 3)
        0.25
        """
        first, second = pmf_items(pmf, "pmf"), pmf_items(pmf_prime, "pmf_prime")
        if not isinstance(symmetric, bool):
            raise DpverifyTypeError(f"symmetric={symmetric!r} must be a bool")
        if not isinstance(pmf, Mapping) and len(first) != len(second):
            raise value_error("pmf_prime", pmf_prime, f"of the same length as pmf ({len(first)})")
        first = {**{key: 0.0 for key in second}, **first}
        second = {**{key: 0.0 for key in first}, **second}
        check_normalised(first, "pmf")
        check_normalised(second, "pmf_prime")
        interval, tail = check_grid_options(value_discretization_interval, tail_mass_truncation,
                                             DEFAULT_VALUE_DISCRETIZATION_INTERVAL)
        forward = grid_from_atoms(*pmf_loss_atoms(first, second), interval=interval)
        if symmetric:
            return cls((forward,), tail)
        return cls((forward, grid_from_atoms(*pmf_loss_atoms(second, first),
                                             interval=interval)), tail)

    @classmethod
    @renamed_parameters(relation="neighbouring")
    def from_subsampled_gaussian(cls: type[PLD], sigma: float, sampling_probability: float, *,
                                 sensitivity: float = 1.0,
                                 neighbouring: Neighbouring | str = Neighbouring.ADD_REMOVE,
                                 value_discretization_interval: float | None = None,
                                 tail_mass_truncation: float = DEFAULT_TAIL_MASS_TRUNCATION,
                                 ) -> PLD:
        """PLD of the Poisson-subsampled Gaussian mechanism (add/remove relation).

        The default grid (``value_discretization_interval=None``) is 1/100 of
        the standard deviation of the remove direction's loss (by quadrature):
        q = 0.01, σ = 1, k = 1000 gives ε = 1.828251 at δ = 1e-5 in ~0.15 s
        (dp-accounting at a fine grid: 1.828244).

        Remove direction: ``P = (1−q)N(0,σ²) + qN(Δ,σ²)`` vs ``Q = N(0,σ²)``; add
        direction: the pair swapped. With ``μ = Δ/σ`` the loss of the remove
        direction is ``L(y) = ln(1 − q + q e^{μy − μ²/2})``, increasing in the
        output y, so its CDF is exact through Φ (and the add direction's too).

        Notes
        -----
        **Soundness.** Upper bound under the add/remove relation with Poisson
        sampling rate q (the dominating pairs of Zhu, Dong, Wang 2022, Prop. 30).
        The threshold ``L⁻¹(l)`` and the normal tails are evaluated in log
        space with explicit error bounds, so each interval mass is an upper
        bound and each tilt a lower bound; ``σ/Δ`` is rounded down.
        ``sampling_probability = 1`` is the plain Gaussian.

        ``neighbouring="replace-one"`` uses the symmetric pair
        ``(1−q)N(0, σ²) + qN(Δ, σ²)`` vs ``(1−q)N(0, σ²) + qN(−Δ, σ²)`` (the record's
        clipped contributions differ by at most 2Δ; dp_accounting's
        ``REPLACE_ONE``), whose loss is also monotone in the output with a
        closed-form inverse (:class:`~dpverify.accountants.pld._losses.ReplaceSubsampledGaussian`);
        ``"replace-special"`` (replace by a record contributing 0) is the
        add/remove pair.

        >>> from dpverify.accountants.pld import PrivacyLossDistribution
        >>> pld = PrivacyLossDistribution.from_subsampled_gaussian(1.0, 0.01)
        >>> pld.symmetric
        False
        """
        sigma = check_positive(sigma, "sigma")
        q = check_probability(sampling_probability, "sampling_probability", open_low=True)
        if q < MIN_SAMPLING_PROBABILITY:
            raise value_error("sampling_probability", q,
                              f"at least {MIN_SAMPLING_PROBABILITY:g} for a discretised PLD",
                              f"ln(1 − q) is then below the grid's resolution; "
                              f"sampling_probability={MIN_SAMPLING_PROBABILITY:g} is an upper "
                              f"bound for any smaller rate")
        sensitivity = check_positive(sensitivity, "sensitivity")
        relation = Neighbouring.parse(neighbouring)
        if relation is Neighbouring.REPLACE_ONE:
            if q == 1.0:
                return cls.from_gaussian(sigma, sensitivity=2 * sensitivity,
                                         value_discretization_interval=value_discretization_interval,
                                         tail_mass_truncation=tail_mass_truncation)
            spec = ReplaceSubsampledGaussian(_noise(sigma, sensitivity), q)
            interval, tail = check_grid_options(value_discretization_interval, tail_mass_truncation,
                                                 spec.loss_std() / POINTS_PER_STANDARD_DEVIATION)
            return cls((monotone_grid(spec, interval, tail),), tail, rebuild=partial(
                cls.from_subsampled_gaussian, sigma, q, sensitivity=sensitivity,
                neighbouring=relation, value_discretization_interval=interval))
        remove = SubsampledGaussian(_noise(sigma, sensitivity), q)
        interval, tail = check_grid_options(value_discretization_interval, tail_mass_truncation,
                                             remove.loss_std() / POINTS_PER_STANDARD_DEVIATION)
        rebuild = partial(cls.from_subsampled_gaussian, sigma, q, sensitivity=sensitivity,
                          value_discretization_interval=interval)
        if q == 1.0:
            return cls((monotone_grid(remove, interval, tail),), tail, rebuild=rebuild)
        return cls(subsampled_gaussian_grids(remove.sigma, q, interval, tail), tail, rebuild=rebuild)
