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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath

from dpverify._numeric import round_down, round_up, working_precision
from dpverify._validation import (
    check_delta,
    check_epsilon,
    check_in_range,
    check_int_at_least,
    check_positive,
    check_positive_int,
    check_probability,
    value_error,
)
from dpverify.accountants._pld_fft import compose_grids
from dpverify.accountants._pld_grid import (
    LossGrid,
    delta_upper,
    epsilon_upper,
    grid_from_atoms,
    regrid,
)
from dpverify.accountants._pld_losses import (
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
#: Range of the loss scale (μ = Δ/σ of a Gaussian, ε0 = Δ/b of a Laplace) a PLD is built for.
LOSS_SCALE_RANGE = (1e-12, 1e4)
#: Largest grid spacing h (nats); coarser grids say nothing at the ε anyone asks about.
MAX_VALUE_DISCRETIZATION_INTERVAL = 100.0
#: Smallest Poisson sampling rate q of a subsampled-Gaussian PLD (ln(1 − q) must be resolvable).
MIN_SAMPLING_PROBABILITY = 1e-200


def _check_grid_options(interval: Any, tail: Any, default: float) -> tuple[float, float]:
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
        return cls((monotone_grid(spec, interval, tail),), tail)

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
        _check_loss_scale(epsilon_0, f"sensitivity/scale (scale={scale!r}, "
                                     f"sensitivity={sensitivity!r})")
        interval, tail = _check_grid_options(value_discretization_interval, tail_mass_truncation,
                                             epsilon_0 / POINTS_PER_EPSILON)
        return cls((laplace_grid(epsilon_0, interval),), tail)

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
                                 sensitivity: float = 1.0,
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
        remove = SubsampledGaussian(_noise(sigma, sensitivity), q)
        interval, tail = _check_grid_options(value_discretization_interval, tail_mass_truncation,
                                             remove.loss_std() / POINTS_PER_STANDARD_DEVIATION)
        if q == 1.0:
            return cls((monotone_grid(remove, interval, tail),), tail)
        add = SubsampledGaussian(remove.sigma, q, swapped=True)
        return cls((monotone_grid(remove, interval, tail), monotone_grid(add, interval, tail)),
                   tail)

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

        >>> round(PrivacyLossDistribution.from_gaussian(1.0).delta_for_epsilon(1.0), 3)
        0.127
        """
        epsilon = check_epsilon(epsilon, "epsilon")
        with working_precision():
            return min(1.0, round_up(max(delta_upper(d, epsilon) for d in self.directions)))

    def epsilon_for_delta(self, delta: float) -> float:
        """Smallest ε (to 1e-13 relative, rounded up) whose bounded δ is <= ``delta``.

        Returns ``0.0`` if δ(0) <= ``delta`` and ``math.inf`` if the mass at
        ``+∞`` plus the error bound already exceeds ``delta``. Exact for the
        discrete distribution: a closed form on the right grid interval,
        refined by :func:`~dpverify._numeric.bisect_passing` on the rigorous δ.

        >>> round(PrivacyLossDistribution.from_gaussian(1.0).epsilon_for_delta(1e-5), 3)
        4.377
        """
        delta = check_delta(delta, "delta")
        return max(epsilon_upper(d, delta) for d in self.directions)

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
    """Compose ``count`` copies of each PLD: regrid onto the coarsest spacing, then one FFT.

    A symmetric PLD contributes its one direction to both directions of an
    asymmetric composition.
    """
    tail = max(pld.tail_mass_truncation for pld, _ in factors)
    interval = max(pld.value_discretization_interval for pld, _ in factors)
    count = max(len(pld.directions) for pld, _ in factors)
    counts = [k for _, k in factors]
    directions = []
    for direction in range(count):
        grids = [regrid(pld.directions[min(direction, len(pld.directions) - 1)], interval)
                 for pld, _ in factors]
        directions.append(compose_grids(grids, counts, tail=tail))
    return PrivacyLossDistribution(tuple(directions), tail)


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
