"""Privacy-loss-distribution (PLD) accounting with pessimistic discretisation.

A :class:`PrivacyLossDistribution` holds, for each direction of a neighbouring
pair (P, Q), a discretised copy of the privacy loss ``L = ln(P(o)/Q(o))``,
``o ~ P``, on the grid ``{i h}`` by *connect-the-dots* [3]: the mass of each
interval goes to its two end points so that ``E[e^{−L}]`` is kept (a
mean-preserving spread of ``e^{−L}``), with every float uncertainty resolved
upwards. By default h is scaled to the mechanism (1/100 of the loss's
standard deviation). Composition is one FFT per factor on a Chernoff window,
the spectrum raised to the number of copies; ``delta_for_epsilon`` and
``epsilon_for_delta`` evaluate the hockey-stick divergence

.. math:: δ(ε) = E_P[(1 − e^{ε − L})_+] + P(L = ∞)

of the discrete distribution exactly, then add a rigorous bound on every float
error made on the way. The soundness argument is in ``docs/proofs/pld.md``.

References
----------
.. [1] Koskela, Jälkö, Honkela. Computing tight differential privacy guarantees
   using FFT. AISTATS 2020. https://arxiv.org/abs/1906.03049
.. [2] Meiser, Mohammadi. Tight on budget? Tight bounds for r-fold approximate
   differential privacy. CCS 2018 (pessimistic "privacy buckets").
.. [3] Doroshenko, Ghazi, Kamath, Kumar, Manurangsi. Connect the dots: tighter
   discrete approximations of privacy loss distributions. PETS 2022.
.. [4] Zhu, Dong, Wang. Optimal accounting of differential privacy via
   characteristic function. AISTATS 2022 (dominating pairs compose adaptively).
.. [5] Higham. Accuracy and Stability of Numerical Algorithms, 2nd ed., 2002,
   Thm 24.2 (error of the FFT).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from typing import Any

import mpmath

from dpverify._numeric import round_down, round_up, working_precision
from dpverify._validation import (
    check_choice,
    check_delta,
    check_epsilon,
    check_finite,
    check_in_range,
    check_int_at_least,
    check_positive,
    check_positive_int,
    check_probability,
    value_error,
)
from dpverify.accountants._pld_compose import compose_directions, flatten, refined_directions
from dpverify.accountants._pld_grid import (
    LossGrid,
    delta_upper,
    epsilon_upper,
    grid_from_atoms,
)
from dpverify.accountants._pld_losses import (
    ReplaceSubsampledGaussian,
    SubsampledGaussian,
    check_normalised,
    laplace_grid,
    monotone_grid,
    pmf_items,
    pmf_loss_atoms,
)
from dpverify.errors import DpverifyTypeError
from dpverify.guarantees import PrivacyProfile

__all__ = [
    "PrivacyLossDistribution",
    "compose_plds",
    "epsilon_for_delta",
    "delta_for_epsilon",
]

#: Default grid spacing h of :meth:`PrivacyLossDistribution.from_pmfs` (and of
#: randomized response with ε = 0).
DEFAULT_VALUE_DISCRETIZATION_INTERVAL = 1e-4
#: Default tail mass cut at each end of a continuous loss (and after each composition).
DEFAULT_TAIL_MASS_TRUNCATION = 1e-15
#: With ``value_discretization_interval=None``, continuous losses get h = (loss std) / this.
POINTS_PER_STANDARD_DEVIATION = 100
#: With ``value_discretization_interval=None``, atoms at ±ε get h = ε / this (exact in floats).
POINTS_PER_EPSILON = 128
#: A query is recomputed (tilted, finer tails) when the float error and truncated mass
#: it carries exceed this fraction of the δ in question.
REFINE_FRACTION = 1e-3


def _check_grid_options(interval: Any, tail: Any, default: float) -> tuple[float, float]:
    """Validate the grid options; ``interval=None`` means ``default`` (scaled to the mechanism)."""
    if interval is None:
        interval = default
    interval = check_positive(interval, "value_discretization_interval")
    tail = check_in_range(tail, "tail_mass_truncation", 0.0, 0.01, low_closed=False)
    return interval, tail


def _atom_interval(epsilon: float) -> float:
    """``ε / 128`` (exact in floats, so ±ε are grid points), or the default for ε = 0."""
    return epsilon / POINTS_PER_EPSILON if epsilon > 0 else DEFAULT_VALUE_DISCRETIZATION_INTERVAL


def _noise(sigma: float, sensitivity: float) -> float:
    """``σ/Δ`` rounded down: a smaller noise multiplier dominates (post-processing)."""
    return round_down(Fraction(sigma) / Fraction(sensitivity))


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class PrivacyLossDistribution:
    """A pessimistic (upper-bound) discretised privacy-loss distribution.

    For a dominating pair (P, Q) of a mechanism, holds the privacy loss
    ``L = ln(P(o)/Q(o))``, ``o ~ P``, connect-the-dots onto ``{i h}``; when the pair is
    not symmetric the reverse direction (Q, P) is kept too, and every ε or δ
    reported is the maximum over the directions. Build it with the ``from_*``
    class methods; do not construct the fields by hand.

    Parameters
    ----------
    directions
        One :class:`~dpverify.accountants._pld_grid.LossGrid` (symmetric pair)
        or two: ``(P vs Q, Q vs P)``. For Poisson subsampling these are the
        remove and add directions of the add/remove relation.
    tail_mass_truncation
        Mass cut at each tail after each composition (moved pessimistically).

    Notes
    -----
    **Soundness.** Upper bound, for the neighbouring relation of the pair it
    was built from (documented by each constructor). Writing ``Y = e^{−L}``,
    every step either spreads Y keeping its mean (connect-the-dots, with the
    upper share computed from a *lower* bound on the interval's tilt), lowers
    Y (losses moved up: regridding, tail truncation, unknown tilts) or adds
    mass. ``δ(ε) = E[(1 − e^ε Y)_+]`` is convex, non-increasing and
    non-negative in Y, so none of these decreases any δ(ε), and the order is
    kept by composition (products of independent Y). Float errors that
    cannot be absorbed this way (FFT, sums) are bounded in ℓ1 and *added* to
    every δ (and subtracted from the target δ when solving for ε).
    Proof: ``docs/proofs/pld.md``.

    Examples
    --------
    >>> pld = PrivacyLossDistribution.from_gaussian(1.0).self_compose(10)
    >>> round(pld.epsilon_for_delta(1e-5), 2)
    17.86
    """

    directions: tuple[LossGrid, ...]
    tail_mass_truncation: float = DEFAULT_TAIL_MASS_TRUNCATION
    #: ``((base PLD, count), ...)`` for a composition: what queries may recompute from.
    recipe: tuple = field(default=())
    #: For a base PLD: ``rebuild(tail)`` builds it again with another tail truncation.
    rebuild: Callable[[float], PrivacyLossDistribution] | None = field(default=None)

    def __post_init__(self) -> None:
        directions = self.directions
        if (not isinstance(directions, tuple) or len(directions) not in (1, 2)
                or not all(isinstance(d, LossGrid) for d in directions)):
            raise DpverifyTypeError(
                f"directions={directions!r} must be a tuple of one or two LossGrid values")
        _check_grid_options(1.0, self.tail_mass_truncation, 1.0)

    def __repr__(self) -> str:
        points = "+".join(str(len(d.probabilities)) for d in self.directions)
        return (f"PrivacyLossDistribution(directions={len(self.directions)}, "
                f"value_discretization_interval={self.value_discretization_interval!r}, "
                f"points={points}, error_bound={self.error_bound!r})")

    @property
    def symmetric(self) -> bool:
        """True when one direction describes both (the pair is symmetric)."""
        return len(self.directions) == 1

    @property
    def value_discretization_interval(self) -> float:
        """The (coarsest) grid spacing h; composition may have coarsened it."""
        return max(d.interval for d in self.directions)

    @property
    def error_bound(self) -> float:
        """The ℓ1 float-error bound added to every δ (max over directions)."""
        return max(d.error for d in self.directions)

    # ----------------------------------------------------------------- constructors
    @classmethod
    def from_gaussian(cls, sigma: float, *, sensitivity: float = 1.0,
                      value_discretization_interval: float | None = None,
                      tail_mass_truncation: float = DEFAULT_TAIL_MASS_TRUNCATION,
                      ) -> PrivacyLossDistribution:
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
        >>> pld = PrivacyLossDistribution.from_gaussian(1.0)
        >>> 4.377178 < pld.epsilon_for_delta(1e-5) < 4.3775
        True
        """
        sigma = check_positive(sigma, "sigma")
        sensitivity = check_positive(sensitivity, "sensitivity")
        spec = SubsampledGaussian(_noise(sigma, sensitivity), 1.0)
        interval, tail = _check_grid_options(value_discretization_interval, tail_mass_truncation,
                                             spec.loss_std() / POINTS_PER_STANDARD_DEVIATION)
        return cls((monotone_grid(spec, interval, tail),), tail, rebuild=partial(
            cls.from_gaussian, sigma, sensitivity=sensitivity,
            value_discretization_interval=interval))

    @classmethod
    def from_laplace(cls, scale: float, *, sensitivity: float = 1.0,
                     value_discretization_interval: float | None = None,
                     tail_mass_truncation: float = DEFAULT_TAIL_MASS_TRUNCATION,
                     ) -> PrivacyLossDistribution:
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
        >>> pld = PrivacyLossDistribution.from_laplace(1.0)
        >>> pld.delta_for_epsilon(1.0001) <= 1e-12
        True
        """
        scale = check_positive(scale, "scale")
        sensitivity = check_positive(sensitivity, "sensitivity")
        epsilon_0 = round_up(Fraction(sensitivity) / Fraction(scale))
        interval, tail = _check_grid_options(value_discretization_interval, tail_mass_truncation,
                                             epsilon_0 / POINTS_PER_EPSILON)
        return cls((laplace_grid(epsilon_0, interval),), tail)  # no tail cut: nothing to rebuild

    @classmethod
    def from_discrete_laplace(cls, scale: float, *, sensitivity: int = 1,
                              value_discretization_interval: float | None = None,
                              tail_mass_truncation: float = DEFAULT_TAIL_MASS_TRUNCATION,
                              ) -> PrivacyLossDistribution:
        """PLD of the discrete Laplace mechanism ``f(x) + DLap(t)`` (``t = scale``), integer sensitivity Δ.

        With ``P[k] ∝ e^{−|k|/t}`` the loss of ``X`` vs ``X + Δ`` is
        ``(|k − Δ| − |k|)/t``: ``Δ/t`` for ``k <= 0`` (mass ``1/(1 + β)``,
        ``β = e^{−1/t}``), ``(Δ − 2k)/t`` for ``0 < k < Δ`` and ``−Δ/t`` for
        ``k >= Δ``; finitely many atoms, computed in mpmath (the pair is
        symmetric). Unlike the pure ε = Δ/t it composes with δ > 0 tightly.
        Default spacing ``h = (Δ/t)/128`` (atoms ``(Δ − 2k)/t`` on the grid only
        approximately: split connect-the-dots with a margin).

        **Soundness.** Upper bound for integer-valued ``f`` with ℓ1 sensitivity Δ.

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
        interval, tail = _check_grid_options(value_discretization_interval, tail_mass_truncation,
                                             top / POINTS_PER_EPSILON)
        return cls((grid_from_atoms(losses, masses, interval=interval, exact_losses=exact),), tail)

    @classmethod
    def from_randomized_response(cls, epsilon: float, *, k: int = 2,
                                 value_discretization_interval: float | None = None,
                                 tail_mass_truncation: float = DEFAULT_TAIL_MASS_TRUNCATION,
                                 ) -> PrivacyLossDistribution:
        """PLD of k-ary randomized response: keep w.p. ``e^ε/(e^ε+k−1)``, else uniform on the rest.

        The loss is ε w.p. ``e^ε/Z``, −ε w.p. ``1/Z`` and 0 w.p. ``(k−2)/Z``,
        ``Z = e^ε + k − 1``, computed in mpmath; by default ``h = ε/128`` (exact
        in floats), so the atoms are grid points and the grid is exact.

        **Soundness.** Upper bound under the replace-one relation (the only
        one for local randomizers); atoms off the grid are split
        connect-the-dots in mpmath, shares and masses rounded up.

        >>> pld = PrivacyLossDistribution.from_randomized_response(1.0)
        >>> round(pld.delta_for_epsilon(0.0), 6)  # (e − 1)/(e + 1)
        0.462117
        """
        epsilon = check_epsilon(epsilon, "epsilon")
        k = check_int_at_least(k, "k", 2)
        interval, tail = _check_grid_options(value_discretization_interval, tail_mass_truncation,
                                             _atom_interval(epsilon))
        with working_precision():
            weight = mpmath.exp(epsilon)
            total = weight + k - 1
            slack = 1 + mpmath.mpf(10) ** -40  # masses computed at 50 digits: upper bounds
            atoms = ([mpmath.mpf(epsilon), -mpmath.mpf(epsilon), mpmath.mpf(0)],
                     [weight / total * slack, slack / total, (k - 2) / total * slack])
        return cls((grid_from_atoms(*atoms, interval=interval, exact_losses=True),), tail)

    @classmethod
    def from_approx_dp(cls, epsilon: float, delta: float, *,
                       value_discretization_interval: float | None = None,
                       tail_mass_truncation: float = DEFAULT_TAIL_MASS_TRUNCATION,
                       ) -> PrivacyLossDistribution:
        """PLD of the dominating pair of (ε, δ)-DP (Kairouz, Oh, Viswanath 2015, Thm 2.1).

        The pair ``P = (δ, (1−δ)e^ε/(1+e^ε), (1−δ)/(1+e^ε), 0)`` and ``Q`` its
        reverse dominates every (ε, δ)-DP mechanism; its loss is ``+∞`` w.p. δ,
        ε w.p. ``(1−δ)e^ε/(1+e^ε)`` and −ε otherwise. Composing it k times
        reproduces the optimal composition theorem (KOV 2015, Thm 3.3) up to
        the grid rounding.

        **Soundness.** Upper bound for any mechanism that is (ε, δ)-DP under
        the same relation; by default ``h = ε/128`` (atoms on the grid);
        otherwise split connect-the-dots, shares and masses rounded up.

        >>> pld = PrivacyLossDistribution.from_approx_dp(1.0, 1e-6)
        >>> pld.delta_for_epsilon(1.0) <= 1.0001e-6
        True
        """
        epsilon = check_epsilon(epsilon, "epsilon")
        delta = check_delta(delta, "delta")
        interval, tail = _check_grid_options(value_discretization_interval, tail_mass_truncation,
                                             _atom_interval(epsilon))
        with working_precision():
            weight, rest = mpmath.exp(epsilon), 1 - mpmath.mpf(delta)
            slack = 1 + mpmath.mpf(10) ** -40  # computed at 50 digits: upper bounds
            atoms = ([mpmath.inf, mpmath.mpf(epsilon), -mpmath.mpf(epsilon)],
                     [mpmath.mpf(delta), rest * weight / (1 + weight) * slack,
                      rest / (1 + weight) * slack])
        return cls((grid_from_atoms(*atoms, interval=interval, exact_losses=True),), tail)

    @classmethod
    def from_pmfs(cls, p: Any, q: Any, *, symmetric: bool = False,
                  value_discretization_interval: float | None = None,
                  tail_mass_truncation: float = DEFAULT_TAIL_MASS_TRUNCATION,
                  ) -> PrivacyLossDistribution:
        """PLD of a pair of finite pmfs: the outputs on two neighbouring inputs.

        Parameters
        ----------
        p, q
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

        >>> pld = PrivacyLossDistribution.from_pmfs([0.5, 0.5], [0.25, 0.75])
        >>> round(pld.delta_for_epsilon(0.0), 3)
        0.25
        """
        first, second = pmf_items(p, "p"), pmf_items(q, "q")
        if not isinstance(symmetric, bool):
            raise DpverifyTypeError(f"symmetric={symmetric!r} must be a bool")
        if not isinstance(p, Mapping) and len(first) != len(second):
            raise value_error("q", q, f"of the same length as p ({len(first)})")
        first = {**{key: 0.0 for key in second}, **first}
        second = {**{key: 0.0 for key in first}, **second}
        check_normalised(first, "p")
        check_normalised(second, "q")
        interval, tail = _check_grid_options(value_discretization_interval, tail_mass_truncation,
                                             DEFAULT_VALUE_DISCRETIZATION_INTERVAL)
        forward = grid_from_atoms(*pmf_loss_atoms(first, second), interval=interval)
        if symmetric:
            return cls((forward,), tail)
        return cls((forward, grid_from_atoms(*pmf_loss_atoms(second, first),
                                             interval=interval)), tail)

    @classmethod
    def from_subsampled_gaussian(cls, sigma: float, sampling_probability: float, *,
                                 sensitivity: float = 1.0, relation: str = "add-remove",
                                 value_discretization_interval: float | None = None,
                                 tail_mass_truncation: float = DEFAULT_TAIL_MASS_TRUNCATION,
                                 ) -> PrivacyLossDistribution:
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

        ``relation="replace"`` (replace-one) uses the symmetric pair
        ``(1−q)N(0, σ²) + qN(Δ, σ²)`` vs ``(1−q)N(0, σ²) + qN(−Δ, σ²)`` (the record's
        clipped contributions differ by at most 2Δ; dp_accounting's
        ``REPLACE_ONE``), whose loss is also monotone in the output with a
        closed-form inverse (:class:`~dpverify.accountants._pld_losses.ReplaceSubsampledGaussian`);
        ``"replace-special"`` (replace by a record contributing 0) is the
        add/remove pair.

        >>> pld = PrivacyLossDistribution.from_subsampled_gaussian(1.0, 0.01)
        >>> pld.symmetric
        False
        """
        sigma = check_positive(sigma, "sigma")
        q = check_probability(sampling_probability, "sampling_probability", open_low=True)
        sensitivity = check_positive(sensitivity, "sensitivity")
        relation = check_choice(relation, "relation", ("add-remove", "replace", "replace-special"))
        if relation == "replace":
            if q == 1.0:
                return cls.from_gaussian(sigma, sensitivity=2 * sensitivity,
                                         value_discretization_interval=value_discretization_interval,
                                         tail_mass_truncation=tail_mass_truncation)
            spec = ReplaceSubsampledGaussian(_noise(sigma, sensitivity), q)
            interval, tail = _check_grid_options(value_discretization_interval, tail_mass_truncation,
                                                 spec.loss_std() / POINTS_PER_STANDARD_DEVIATION)
            return cls((monotone_grid(spec, interval, tail),), tail, rebuild=partial(
                cls.from_subsampled_gaussian, sigma, q, sensitivity=sensitivity, relation=relation,
                value_discretization_interval=interval))
        remove = SubsampledGaussian(_noise(sigma, sensitivity), q)
        interval, tail = _check_grid_options(value_discretization_interval, tail_mass_truncation,
                                             remove.loss_std() / POINTS_PER_STANDARD_DEVIATION)
        rebuild = partial(cls.from_subsampled_gaussian, sigma, q, sensitivity=sensitivity,
                          value_discretization_interval=interval)
        if q == 1.0:
            return cls((monotone_grid(remove, interval, tail),), tail, rebuild=rebuild)
        add = SubsampledGaussian(remove.sigma, q, swapped=True)
        return cls((monotone_grid(remove, interval, tail), monotone_grid(add, interval, tail)),
                   tail, rebuild=rebuild)

    # ----------------------------------------------------------------- composition
    def compose(self, other: PrivacyLossDistribution) -> PrivacyLossDistribution:
        """PLD of the composition of the two mechanisms (directions composed pairwise).

        Grids of different spacing, in any ratio, are reconciled by moving every
        loss of the finer grid up to the smallest point of the coarser grid at or
        above it (computed exactly). The composition is one FFT per factor on a
        Chernoff-bounded window; a window wider than ``MAX_WINDOW_POINTS`` is
        computed on a coarser grid (losses rounded up).

        **Soundness.** Upper bound (docs/proofs/pld.md, §3–5); holds for
        adaptive composition of mechanisms dominated by these pairs (Zhu et
        al. 2022, Thm 10).

        >>> a = PrivacyLossDistribution.from_laplace(1.0)
        >>> a.compose(a).delta_for_epsilon(2.0001) <= 1e-9
        True
        """
        if not isinstance(other, PrivacyLossDistribution):
            raise DpverifyTypeError(f"other={other!r} must be a PrivacyLossDistribution")
        return _compose_counted([(self, 1), (other, 1)])

    def self_compose(self, count: int) -> PrivacyLossDistribution:
        """PLD of ``count`` compositions of this mechanism (one FFT, spectrum to the power ``count``).

        **Soundness.** Upper bound, as for :meth:`compose`.

        >>> pld = PrivacyLossDistribution.from_randomized_response(1.0).self_compose(3)
        >>> pld.delta_for_epsilon(3.0) <= 1e-9
        True
        """
        count = check_positive_int(count, "count")
        return _compose_counted([(self, count)])

    # ----------------------------------------------------------------- queries
    def delta_for_epsilon(self, epsilon: float) -> float:
        """Upper bound on δ(ε), rounded up (max over directions, float error added).

        The float error is the grid's, not recomputed per query, so δ(ε) is
        exactly non-increasing in ε. For ε < 0 see :meth:`hockey_stick_divergence`. For δ far below the float error
        (``error_bound`` at small ε, ~1e-12 after an FFT) ask the composition
        recomputed for this ε: ``pld.refined(epsilon=ε).delta_for_epsilon(ε)``.

        >>> round(PrivacyLossDistribution.from_gaussian(1.0).delta_for_epsilon(1.0), 3)
        0.127
        """
        return self._delta(check_epsilon(epsilon, "epsilon"))

    def hockey_stick_divergence(self, epsilon: float) -> float:
        """Upper bound on ``sup_S P(S) − e^ε Q(S)`` for any real ε, negative included (max over orders).

        For ε >= 0 this is :meth:`delta_for_epsilon`; for ε < 0 (``e^ε < 1``) it
        is the "δ at negative ε" of the profile, used e.g. by trade-off curves.
        The pessimistic-grid argument holds for every real ε
        (``docs/proofs/pld.md``, §1) and so does the float-error bound.

        >>> pld = PrivacyLossDistribution.from_gaussian(1.0)
        >>> 0.8674 < pld.hockey_stick_divergence(-2.0) < 0.8676
        True
        """
        return self._delta(check_finite(epsilon, "epsilon"))

    def _delta(self, epsilon: float) -> float:
        with working_precision():
            return min(1.0, round_up(max(delta_upper(d, epsilon) for d in self.directions)))

    def epsilon_for_delta(self, delta: float) -> float:
        """Smallest ε (to 1e-13 relative, rounded up) whose bounded δ is <= ``delta``.

        Returns ``0.0`` if δ(0) <= ``delta`` and ``math.inf`` if the mass at
        ``+∞`` already exceeds ``delta``. Exact for the discrete distribution: a
        closed form on the right grid interval, refined by
        :func:`~dpverify._numeric.bisect_passing` on the rigorous δ. When the
        float error and truncated tail mass are not negligible at this δ (more
        than :data:`REFINE_FRACTION` of it), the composition is recomputed for
        it (:meth:`refined`) and the smaller ε returned: there is no fixed
        floor on δ (1e-30 and below work). Both answers are sound; near the
        switch (δ ≈ 1000 × the float error) ε may therefore step down by up to
        ~1e-4 relative as δ decreases.

        >>> round(PrivacyLossDistribution.from_gaussian(1.0).epsilon_for_delta(1e-5), 3)
        4.377
        """
        delta = check_delta(delta, "delta")
        eager = self._epsilon(delta)
        if not self._refinable:
            return eager
        intrinsic = max(d.infinity_mass - d.truncation for d in self.directions)
        if intrinsic > delta:
            return math.inf
        uncertainty = max(d.truncation + float(d.error_at(min(eager, d.largest_loss)))
                          for d in self.directions)
        if uncertainty > REFINE_FRACTION * delta:
            eager = min(eager, self.refined(delta=delta)._epsilon(delta))
        return eager

    def _epsilon(self, delta: float) -> float:
        return max(epsilon_upper(d, delta) for d in self.directions)

    @property
    def _refinable(self) -> bool:
        return bool(self.recipe) or self.rebuild is not None

    def refined(self, *, epsilon: float | None = None,
                delta: float | None = None) -> PrivacyLossDistribution:
        """This PLD recomputed for a query at ``epsilon`` (a δ query) or ``delta`` (an ε query).

        The base mechanisms are rebuilt with tails cut below 1e-8 of the δ in
        question (over all compositions), and each direction is composed with
        an exponential tilt ``t`` chosen by Chernoff's bound for the query
        (:func:`~dpverify.accountants._pld_fft.choose_tilt`), so the FFT's
        float error at losses above ε is ``e^{−tε}`` times the error in the
        tilted norm: relative to δ rather than a fixed ~1e-12 floor.

        **Soundness.** Upper bound, as every PLD: the same pessimistic grids,
        only smaller tails and a weighted error norm (``docs/proofs/pld.md``, §6).
        """
        directions, tail = refined_directions(self.recipe or ((self, 1),), self.tail_mass_truncation,
                                              epsilon=epsilon, delta=delta)
        return PrivacyLossDistribution(directions, tail)

    def to_privacy_profile(self) -> PrivacyProfile:
        """The bounded δ(ε) as a :class:`~dpverify.guarantees.PrivacyProfile` (upper bound).

        >>> profile = PrivacyLossDistribution.from_gaussian(1.0).to_privacy_profile()
        >>> round(profile.epsilon_for_delta(1e-5), 3)
        4.377
        """
        directions = self.directions

        def curve(epsilon: mpmath.mpf) -> mpmath.mpf:
            low = max(0.0, round_down(epsilon))  # δ is non-increasing: a smaller ε is safe
            return min(mpmath.mpf(1), max(delta_upper(d, low) for d in directions))

        return PrivacyProfile(curve, description=repr(self), relative_error=0.0)


def _check_pld(pld: Any, name: str = "pld") -> PrivacyLossDistribution:
    if not isinstance(pld, PrivacyLossDistribution):
        raise DpverifyTypeError(f"{name}={pld!r} must be a PrivacyLossDistribution")
    return pld


def compose_plds(plds: Sequence[PrivacyLossDistribution]) -> PrivacyLossDistribution:
    """Compose a non-empty sequence of PLDs (see :meth:`PrivacyLossDistribution.compose`).

    >>> rr = PrivacyLossDistribution.from_randomized_response(0.5)
    >>> compose_plds([rr, rr]).delta_for_epsilon(1.0) <= 1e-9
    True
    """
    if isinstance(plds, (str, bytes)) or not isinstance(plds, Sequence):
        raise DpverifyTypeError(f"plds={plds!r} must be a sequence of PrivacyLossDistribution")
    if not plds:
        raise value_error("plds", plds, "non-empty")
    items = [_check_pld(pld, f"plds[{i}]") for i, pld in enumerate(plds)]
    counted: dict[int, list] = {}
    for pld in items:  # the same object given several times is one factor with a count
        counted.setdefault(id(pld), [pld, 0])[1] += 1
    return _compose_counted([(pld, count) for pld, count in counted.values()])


def _compose_counted(factors: list[tuple[PrivacyLossDistribution, int]]) -> PrivacyLossDistribution:
    """Compose ``count`` copies of each PLD (flattened into base mechanisms, one FFT).

    The result remembers its base mechanisms (``recipe``) so that a query can
    recompute it tilted (:meth:`PrivacyLossDistribution.refined`); see
    :mod:`dpverify.accountants._pld_compose`.
    """
    factors = flatten(factors)
    tail = max(pld.tail_mass_truncation for pld, _ in factors)
    return PrivacyLossDistribution(compose_directions(factors, tail), tail, recipe=tuple(factors))


def epsilon_for_delta(pld: PrivacyLossDistribution, delta: float) -> float:
    """Upper bound on the ε of ``pld`` at ``delta`` (see the method of the same name).

    >>> round(epsilon_for_delta(PrivacyLossDistribution.from_laplace(1.0), 1e-9), 3)
    1.0
    """
    return _check_pld(pld).epsilon_for_delta(delta)


def delta_for_epsilon(pld: PrivacyLossDistribution, epsilon: float) -> float:
    """Upper bound on the δ of ``pld`` at ``epsilon`` (see the method of the same name).

    >>> delta_for_epsilon(PrivacyLossDistribution.from_laplace(1.0), 1.0) <= 1e-12
    True
    """
    return _check_pld(pld).delta_for_epsilon(epsilon)
