"""Li, Zhou & Ji 2022, Alg. 2: the (ε, δ)-SDP vector average of Cheu, Joseph, Mao & Peng 2021.

Each user shifts its vector ``y_u`` (``‖y_u‖₂ <= Δ2``) to ``w = y_u + Δ2 ∈
[0, 2Δ2]^s``, encodes every coordinate by randomized rounding at precision
``g`` plus ``Bin(b, p)`` noise, and sends ``g + b`` bits per coordinate
(tagged by coordinate); the shuffler permutes each coordinate's bits, so the
analyser sees, per coordinate, the count of ones ``T_j``:

.. math::

    T_j = \\sum_u \\left(⌊w_{u,j} g/(2Δ_2)⌋ + \\operatorname{Ber}(f_{u,j})\\right)
          + \\operatorname{Bin}(|U| b, p),
    \\qquad o_j = \\frac{2Δ_2}{g|U|}\\left(T_j - b|U|p\\right) - Δ_2 .

Re-exported by :mod:`dpverify.mechanisms.protocols`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np

from dpverify._numeric import round_up, working_precision
from dpverify._validation import (
    MAX_INTEGER,
    check_in_range,
    check_positive,
    check_positive_int,
    check_probability,
    value_error,
)

__all__ = ["VectorSummation", "VectorSummationParameters", "vector_summation_parameters"]


@dataclass(frozen=True, slots=True)
class VectorSummationParameters:
    """The parameters ``(ε̂, g, b, p)`` of Li, Zhou & Ji 2022, Eq. (22)."""

    epsilon_hat: float
    precision: int
    trials: int
    probability: float


def vector_summation_parameters(epsilon: float, delta: float, *, users: int,
                                dimension: int) -> VectorSummationParameters:
    """Li, Zhou & Ji 2022, Eq. (22): ``(ε̂, g, b, p)`` for an (ε, δ)-SDP vector average over ``|U|`` users.

    .. math::

        \\hat ε = \\frac{ε}{18\\sqrt{\\ln(2/δ)}}, \\quad
        g = \\left\\lceil \\max\\left\\{\\frac{\\hat ε \\sqrt{|U|}}{6\\sqrt{5\\ln(4s/δ)}},
            \\sqrt s, 10\\right\\}\\right\\rceil, \\quad
        b = \\left\\lceil \\frac{180 g^2 \\ln(4s/δ)}{\\hat ε^2 |U|} \\right\\rceil, \\quad
        p = \\frac{90 g^2 \\ln(4s/δ)}{b\\, \\hat ε^2 |U|} \\in (0, 1/2].

    [R] Constants as printed by Li, Zhou & Ji (Alg. 2, Eq. 22), who attribute them
    to Cheu et al. 2021; they are not verified against that paper. ``log`` is
    taken natural and ``g`` is rounded up to an integer (Eq. (22) leaves the
    base of its log unstated and gives a real ``g``). Validity as in their Thm 3 (the stricter
    of Thm 3/Thm 9): ε ∈ (0, 15), δ ∈ (0, 1/2). ``p`` is rounded up to a float
    (more noise).

    >>> parameters = vector_summation_parameters(1.0, 1e-6, users=1000, dimension=4)
    >>> round(parameters.epsilon_hat, 6), parameters.precision, parameters.trials
    (0.014585, 10, 1403594)
    >>> round(parameters.probability, 6)
    0.5
    """
    epsilon = check_in_range(epsilon, "epsilon", 0.0, 15.0, low_closed=False, high_closed=False)
    delta = check_in_range(delta, "delta", 0.0, 0.5, low_closed=False, high_closed=False)
    users = check_positive_int(users, "users")
    dimension = check_positive_int(dimension, "dimension")
    with working_precision():
        epsilon_hat = mpmath.mpf(epsilon) / (18 * mpmath.sqrt(mpmath.log(2 / mpmath.mpf(delta))))
        log_term = mpmath.log(4 * dimension / mpmath.mpf(delta))
        precision = int(mpmath.ceil(max(
            epsilon_hat * mpmath.sqrt(users) / (6 * mpmath.sqrt(5 * log_term)),
            mpmath.sqrt(dimension), 10)))
        base = 180 * precision ** 2 * log_term / (epsilon_hat ** 2 * users)
        _check_trials(base, MAX_INTEGER, precision, epsilon, delta, users, dimension,
                      "trials <= 2**63 - 1")
        trials = int(mpmath.ceil(base))
        probability = min(0.5, round_up(base / (2 * trials), relative_error=1e-45))
        return VectorSummationParameters(float(epsilon_hat), precision, trials, probability)


def _check_trials(base: mpmath.mpf, room: int, precision: int, epsilon: float, delta: float,
                  users: int, dimension: int, limit: str) -> None:
    """Refuse, naming ε (or users, or the dimension when no ε < 15 fits), a request whose
    ``b = ⌈base⌉`` exceeds ``room``.

    ``b = 180 g² log(4s/δ) / (ε̂² |U|)`` grows like 1/ε², so a tiny ε asks for
    more trials than a 64-bit count holds; the smallest ε that fits follows by
    solving for ε̂ (``ε = 18 ε̂ √log(2/δ)``), with g as computed (for small ε g
    does not depend on ε).
    """
    if base <= room:
        return
    if room < 1:
        raise value_error("users", users, f"such that {limit} (precision g = {precision})")
    with working_precision():
        log_term = mpmath.log(4 * dimension / mpmath.mpf(delta))
        smallest_hat = mpmath.sqrt(180 * precision ** 2 * log_term / (users * room))
        smallest = round_up(18 * smallest_hat * mpmath.sqrt(mpmath.log(2 / mpmath.mpf(delta))))
    if smallest >= 15:  # no valid ε (Thm 3: ε < 15) fits: the dimension (g >= √s) is to blame
        raise value_error("dimension", dimension, f"smaller for |U| = {users} users at "
                          f"delta={delta!r}: at every epsilon < 15 (Thm 3's range) Eq. (22) breaks "
                          f"{limit}, since g >= sqrt(dimension) makes b grow like the dimension",
                          f"at epsilon={epsilon!r} the binomial noise of Eq. (22) needs "
                          f"b = {mpmath.nstr(base, 3)} trials per user and coordinate; use "
                          "fewer coordinates or more users")
    raise value_error("epsilon", epsilon, f">= {smallest:.4g} for delta={delta!r}, "
                      f"|U| = {users} users and s = {dimension} coordinates",
                      f"the binomial noise of Eq. (22) needs b = {mpmath.nstr(base, 3)} trials "
                      f"per user and coordinate, and {limit}")


@dataclass(frozen=True, slots=True)
class VectorSummation:
    """Li, Zhou & Ji 2022, Alg. 2 / Cheu et al. 2021: shuffled bit-encoded vector average with binomial noise.

    Parameters
    ----------
    users
        ``|U|``, the number of users.
    dimension
        ``s``, the vector dimension.
    norm_bound
        ``Δ2`` with ``‖y_u‖₂ <= Δ2`` (a norm bound, not a sensitivity: the
        proof of Thm 3 takes ``Δ2 = B√s``, the inputs' norm).
    precision, trials, probability
        ``g``, ``b`` and ``p`` (see :func:`vector_summation_parameters`).

    Notes
    -----
    The estimator is unbiased with variance (per coordinate, exact)

    .. math:: \\operatorname{Var}[o_j] = \\left(\\frac{2Δ_2}{g|U|}\\right)^2
              \\sum_u \\left(f_{u,j}(1 - f_{u,j}) + b p (1 - p)\\right)
              <= \\frac{Δ_2^2 (1 + b)}{g^2 |U|}.

    >>> protocol = VectorSummation.from_privacy(1.0, 1e-6, users=1000, dimension=2, norm_bound=1.0)
    >>> protocol.precision, protocol.trials
    (10, 1344944)
    """

    users: int
    dimension: int
    norm_bound: float
    precision: int
    trials: int
    probability: float

    def __post_init__(self) -> None:
        for name in ("users", "dimension", "precision", "trials"):
            object.__setattr__(self, name, check_positive_int(getattr(self, name), name))
        object.__setattr__(self, "norm_bound", check_positive(self.norm_bound, "norm_bound"))
        object.__setattr__(self, "probability", check_probability(
            self.probability, "probability", open_low=True, open_high=True))
        if (self.precision + self.trials) * self.users >= 1 << 62:
            raise value_error("trials", self.trials, "such that (precision + trials) * users < 2^62")

    @classmethod
    def from_privacy(cls, epsilon: float, delta: float, *, users: int, dimension: int,
                     norm_bound: float) -> VectorSummation:
        """The protocol with the parameters of Li, Zhou & Ji 2022, Eq. (22), for (ε, δ)-SDP ([R], see there)."""
        parameters = vector_summation_parameters(epsilon, delta, users=users, dimension=dimension)
        users = check_positive_int(users, "users")
        _check_trials(mpmath.mpf(parameters.trials), (1 << 62) // users - parameters.precision - 1,
                      parameters.precision, epsilon, delta, users, dimension,
                      "(precision + trials)·users < 2^62")
        return cls(users, dimension, norm_bound, parameters.precision, parameters.trials,
                   parameters.probability)

    def _scaled(self, vectors: Any) -> np.ndarray:
        """``w g/(2Δ2)`` per user and coordinate, in [0, g]."""
        y = np.asarray(vectors, dtype=float)
        if y.shape != (self.users, self.dimension):
            raise value_error("vectors", vectors, f"of shape (users, dimension) = "
                              f"({self.users}, {self.dimension})")
        if not np.all(np.linalg.norm(y, axis=1) <= self.norm_bound * (1 + 1e-12)):
            raise value_error("vectors", vectors, f"rows of norm at most norm_bound={self.norm_bound}")
        w = np.clip(y + self.norm_bound, 0.0, 2 * self.norm_bound)
        return w * self.precision / (2 * self.norm_bound)

    def simulate_reports(self, vectors: Any, *, rng: np.random.Generator) -> np.ndarray:
        """Simulation only: each user's count of ones per coordinate (numpy's float binomial).

        Returns an int64 array of shape ``(users, dimension)`` with entries in
        ``[0, g + b]``: user ``u`` sends, for coordinate ``j``, that many ones
        among ``g + b`` bits. The rounding and ``Bin(b, p)`` draws use numpy's
        floating-point samplers.

        >>> rng = np.random.default_rng(0)
        >>> protocol = VectorSummation(2, 1, 1.0, precision=10, trials=4, probability=0.5)
        >>> protocol.simulate_reports([[0.5], [-1.0]], rng=rng).tolist()
        [[7], [0]]
        """
        scaled = self._scaled(vectors)
        floor = np.floor(scaled)
        rounding = rng.random(scaled.shape) < scaled - floor
        noise = rng.binomial(self.trials, self.probability, size=scaled.shape)
        return (floor.astype(np.int64) + rounding + noise).astype(np.int64)

    def simulate_totals(self, vectors: Any, *, rng: np.random.Generator) -> np.ndarray:
        """Simulation only: :meth:`shuffle_view` of :meth:`simulate_reports`, drawn from its law.

        Per coordinate, the total is ``Σ_u ⌊w_u⌋`` plus ``Σ_u Ber(frac(w_u))``
        (the randomized roundings) plus ``Bin(|U| b, p)`` (the sum of the users'
        independent ``Bin(b, p)``): one binomial per coordinate instead of one
        per user.

        >>> protocol = VectorSummation(2, 1, 1.0, precision=10, trials=4, probability=0.5)
        >>> protocol.simulate_totals([[0.5], [-1.0]], rng=np.random.default_rng(0)).shape
        (1,)
        """
        scaled = self._scaled(vectors)
        floor = np.floor(scaled)
        rounding = (rng.random(scaled.shape) < scaled - floor).sum(axis=0)
        noise = rng.binomial(self.users * self.trials, self.probability, size=self.dimension)
        return floor.sum(axis=0).astype(np.int64) + rounding + noise

    def shuffle_view(self, reports: Any) -> np.ndarray:
        """The analyser's view after per-coordinate shuffling: the count of ones per coordinate."""
        counts = np.asarray(reports)
        if counts.shape != (self.users, self.dimension) or not np.issubdtype(counts.dtype,
                                                                              np.integer):
            raise value_error("reports", reports, f"integers of shape ({self.users}, "
                              f"{self.dimension})")
        if counts.min() < 0 or counts.max() > self.precision + self.trials:
            raise value_error("reports", reports, "counts in [0, precision + trials]")
        return counts.sum(axis=0)

    def analyse(self, totals: Any) -> np.ndarray:
        """Analyser of Li, Zhou & Ji 2022, Alg. 2: ``o_j = (2Δ2/(g|U|))(T_j − b|U|p) − Δ2``, the mean of ``y_u``."""
        totals = np.asarray(totals, dtype=float)
        if totals.shape != (self.dimension,):
            raise value_error("totals", totals, f"of shape ({self.dimension},)")
        scale = 2 * self.norm_bound / (self.precision * self.users)
        return scale * (totals - self.trials * self.users * self.probability) - self.norm_bound

    def estimator_variance(self, vectors: Any) -> np.ndarray:
        """Exact per-coordinate variance of :meth:`analyse` on the inputs ``vectors``."""
        scaled = self._scaled(vectors)
        fraction = scaled - np.floor(scaled)
        noise = self.trials * self.probability * (1 - self.probability)
        spread = (fraction * (1 - fraction) + noise).sum(axis=0)
        return (2 * self.norm_bound / (self.precision * self.users)) ** 2 * spread

    def variance_proxy(self) -> float:
        """Input-free sub-Gaussian variance proxy ``Δ2² (1 + b)/(g² |U|)`` (Li, Zhou & Ji 2022, proof of Thm 9)."""
        return self.norm_bound ** 2 * (1 + self.trials) / (self.precision ** 2 * self.users)


