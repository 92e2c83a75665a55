"""The vector-average privatizers of Li, Zhou & Ji 2022 (central / local Gaussian, shuffled vector summation, exact).

Re-exported by :mod:`dpverify.bandits.linear.privatizers` (see its table and
the paper/sound modes there).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpverify._deprecation import renamed_parameters, renamed_property
from dpverify._validation import (
    check_choice,
    check_delta,
    check_epsilon,
    check_in_range,
    check_positive,
    check_positive_int,
    value_error,
)
from dpverify.accountants.calibrate import analytic_gaussian_sigma, classical_gaussian_sigma
from dpverify.guarantees import ApproxDP, Guarantee, PrivacyProfile
from dpverify.mechanisms import Gaussian, VectorSummation, privacy_map

__all__ = [
    "MODES",
    "LOCAL_CONSTANTS",
    "CentralGaussianAverage",
    "LocalGaussianAverage",
    "ShuffleVectorAverage",
    "ExactAverage",
]

#: Modes of every linear privatizer and algorithm.
MODES = ("paper", "sound")
#: Li, Zhou & Ji 2022's two printed local noise constants: Thm 6 / App. A.2 (√2 inside) and Thm 2 (without).
LOCAL_CONSTANTS = ("thm6", "thm2")


@functools.lru_cache(maxsize=256)
def _gaussian_delta(sigma_over_sensitivity: float, epsilon: float) -> float:
    profile = privacy_map(Gaussian(sigma=sigma_over_sensitivity), sensitivity=1.0,
                          target=PrivacyProfile)
    return float(profile.delta_for_epsilon(epsilon))


def _clip_check(values: Any, bound: float) -> NDArray[np.float64]:
    array = np.asarray(values, dtype=float)
    if array.ndim != 2 or array.shape[0] < 1 or array.shape[1] < 1:
        raise value_error("values", f"<shape {array.shape}>", "a (users, dimension) array")
    if not np.all(np.abs(array) <= bound * (1 + 1e-12)):
        raise value_error("values", "<array>", f"entries in [-value_bound, value_bound] = [-{bound}, {bound}]")
    return array


class _GaussianAverage:
    """Shared parts of the Gaussian DP-DPE privatizers (``sigma_ratio`` = σ/Δ is phase-independent)."""

    epsilon: float
    delta: float
    value_bound: float
    mode: str

    def _check(self) -> None:
        object.__setattr__(self, "epsilon", check_epsilon(self.epsilon, allow_zero=False))
        object.__setattr__(self, "delta", check_delta(self.delta, allow_zero=False))
        object.__setattr__(self, "value_bound", check_positive(self.value_bound, "value_bound"))
        object.__setattr__(self, "mode", check_choice(self.mode, "mode", MODES))

    @functools.cached_property
    def _sound_ratio(self) -> float:
        return analytic_gaussian_sigma(self.epsilon, self.delta)

    @property
    def claimed(self) -> Guarantee:
        return ApproxDP(self.epsilon, self.delta)

    def communication(self, users: int, dimension: int) -> float:
        """Reals sent in a phase: ``|U_l|·s_l``."""
        return float(users * dimension)

    def guarantee(self, users: int = 1, dimension: int = 1) -> ApproxDP:
        """``(ε, δ_exact(ε))`` of the noise actually added (exact Gaussian profile, Balle–Wang).

        σ/Δ does not depend on the phase, so neither does the guarantee. In paper
        mode δ_exact(ε) exceeds the claimed δ when the classical calibration fails
        (e.g. ε = 10, δ = 0.25: δ_exact ≈ 0.79), i.e. the claim is not established.
        """
        return ApproxDP(self.epsilon, _gaussian_delta(self.sigma_ratio, self.epsilon))


@renamed_parameters(bound="value_bound")
@dataclass(frozen=True)
class CentralGaussianAverage(_GaussianAverage):
    """Li, Zhou & Ji 2022, Thm 1 (Eq. 5): the server adds ``N(0, σ_nc² I)`` to the clients' average.

    Sensitivity of the average (replace one client): ``Δ = 2B√s/|U|``;
    ``σ_nc = Δ√(2 ln(1.25/δ))/ε`` (paper) or the analytic-Gaussian σ (sound).
    Width noise ``σ_n = 2σ_nc√d``. Continuous Gaussian: simulation only.

    >>> privatizer = CentralGaussianAverage(10.0, 0.25)
    >>> privatizer.guarantee().delta > 0.25, CentralGaussianAverage(10.0, 0.25, mode="sound").guarantee().delta <= 0.25
    (True, True)
    """

    epsilon: float
    delta: float
    value_bound: float = 1.0
    mode: str = "paper"
    name = "central Gaussian (CDP-DPE)"
    model = "central"
    bound = renamed_property("bound", "value_bound")  # the old spelling, for one release

    def __post_init__(self) -> None:
        self._check()

    @property
    def sigma_ratio(self) -> float:
        return classical_gaussian_sigma(self.epsilon, self.delta) if self.mode == "paper" \
            else self._sound_ratio

    def sensitivity(self, users: int, dimension: int) -> float:
        return 2 * self.value_bound * math.sqrt(dimension) / users

    def noise_sd(self, users: int, dimension: int) -> float:
        """σ_nc of a phase with ``users`` clients and ``dimension`` = s_l coordinates."""
        return self.sigma_ratio * self.sensitivity(users, dimension)

    @renamed_parameters(d="span_dimension")
    def width_sigma(self, users: int, dimension: int, span_dimension: int) -> float:
        """σ_n = 2σ_nc√d (Li, Zhou & Ji 2022, Thm 5)."""
        return 2 * self.noise_sd(users, dimension) * math.sqrt(span_dimension)

    def privatize_average(self, values: Any, *, rng: np.random.Generator,
                          per_user: bool = False) -> NDArray[np.float64]:
        array = _clip_check(values, self.value_bound)
        users, dimension = array.shape
        return array.mean(axis=0) + rng.normal(0.0, self.noise_sd(users, dimension), dimension)

    def sample_averages(self, values: Any, *, size: int, rng: np.random.Generator
                        ) -> NDArray[np.float64]:
        """``size`` independent draws of :meth:`privatize_average`, shape ``(size, s)`` (audits)."""
        array = _clip_check(values, self.value_bound)
        users, dimension = array.shape
        size = check_positive_int(size, "size")
        return array.mean(axis=0) + rng.normal(0.0, self.noise_sd(users, dimension),
                                               (size, dimension))


@renamed_parameters(constant="local_constant", bound="value_bound")
@dataclass(frozen=True)
class LocalGaussianAverage(_GaussianAverage):
    """Li, Zhou & Ji 2022, Thm 2/6 (Eq. 7): every client adds ``N(0, σ_nl² I)``; the server averages.

    Per-message sensitivity ``Δ = 2B√s``; ``σ_nl = 2B√(2 s ln(1.25/δ))/ε``
    (``local_constant="thm6"``, App. A.2, the default) or ``2B√(s ln(1.25/δ))/ε``
    (``"thm2"``, §4.2 as printed: √2 smaller than Thm 6, which follows from
    the Gaussian mechanism, their Thm 8) in paper mode; the
    analytic σ in sound mode. Width noise ``σ_n = 2σ_nl√(d/|U|)``. The fast path
    draws the average noise ``N(0, σ_nl²/|U|)`` (its exact law).

    >>> LocalGaussianAverage(1.0, 1e-5, local_constant="thm2").guarantee().delta > 1e-5
    True
    """

    epsilon: float
    delta: float
    value_bound: float = 1.0
    mode: str = "paper"
    local_constant: str = "thm6"
    name = "local Gaussian (LDP-DPE)"
    model = "local"

    # the old spellings, read-only, for one release
    constant = renamed_property("constant", "local_constant")
    bound = renamed_property("bound", "value_bound")

    def __post_init__(self) -> None:
        self._check()
        object.__setattr__(self, "local_constant", check_choice(
            self.local_constant, "local_constant", LOCAL_CONSTANTS))

    @property
    def sigma_ratio(self) -> float:
        if self.mode == "sound":
            return self._sound_ratio
        factor = 1.0 if self.local_constant == "thm6" else 1 / math.sqrt(2)
        return factor * classical_gaussian_sigma(self.epsilon, self.delta)

    def sensitivity(self, users: int, dimension: int) -> float:
        return 2 * self.value_bound * math.sqrt(dimension)

    def noise_sd(self, users: int, dimension: int) -> float:
        """σ_nl (each client's noise)."""
        return self.sigma_ratio * self.sensitivity(users, dimension)

    @renamed_parameters(d="span_dimension")
    def width_sigma(self, users: int, dimension: int, span_dimension: int) -> float:
        """``σ_n = 2σ_nl√(d/|U|)`` (Li, Zhou & Ji 2022, Thm 6; its proof's ``2σ_nl√d/|U|`` is a typo)."""
        return 2 * self.noise_sd(users, dimension) * math.sqrt(span_dimension / users)

    def privatize_average(self, values: Any, *, rng: np.random.Generator,
                          per_user: bool = False) -> NDArray[np.float64]:
        array = _clip_check(values, self.value_bound)
        users, dimension = array.shape
        sd = self.noise_sd(users, dimension)
        if per_user:
            return (array + rng.normal(0.0, sd, array.shape)).mean(axis=0)
        return array.mean(axis=0) + rng.normal(0.0, sd / math.sqrt(users), dimension)

    def sample_messages(self, value: Any, *, size: int, rng: np.random.Generator
                        ) -> NDArray[np.float64]:
        """``size`` draws of one client's message ``ȳ + N(0, σ_nl² I)``, shape ``(size, s)`` (audits)."""
        row = _clip_check(np.atleast_2d(value), self.value_bound)
        if row.shape[0] != 1:
            raise value_error("value", value, "one client's vector")
        size = check_positive_int(size, "size")
        return row[0] + rng.normal(0.0, self.noise_sd(1, row.shape[1]), (size, row.shape[1]))


@renamed_parameters(bound="value_bound")
@dataclass(frozen=True)
class ShuffleVectorAverage:
    """Li, Zhou & Ji 2022, Alg. 2: the (ε, δ)-SDP shuffled vector average, on
    :class:`~dpverify.mechanisms.VectorSummation`.

    Inputs ``‖y_u‖₂ <= Δ2 = B√s`` (a norm bound, as in the proof of Thm 3, not
    the sensitivity ``2B√s``); parameters
    ``(g, b, p)`` of Eq. (22) ([R], from Cheu et al. 2021 as printed by Li, Zhou & Ji,
    ε ∈ (0, 15), δ ∈ (0, 1/2)). The fast path draws each coordinate's count
    of ones from its exact law: Σ floors + Σ Ber(fractions) + ``Bin(|U|b, p)``;
    the per-user path runs every client's encoder and the shuffler.
    Width noise σ_n = 2σ_ns√d with σ_ns² the input-free variance proxy
    ``Δ2²(1 + b)/(g²|U|)`` (the first bound in the proof of Thm 9: the σ_ns of
    Thm 7 has an unspecified constant). Both modes are identical (no sound alternative to the [R]
    constants is available); the guarantee is the claim of Thm 3/9.
    Communication: ``(g + b)·s`` bits per client.
    """

    epsilon: float
    delta: float
    value_bound: float = 1.0
    mode: str = "paper"
    name = "shuffle vector summation (SDP-DPE)"
    model = "shuffle"
    bound = renamed_property("bound", "value_bound")  # the old spelling, for one release

    def __post_init__(self) -> None:
        object.__setattr__(self, "epsilon", check_in_range(
            self.epsilon, "epsilon", 0.0, 15.0, low_closed=False, high_closed=False))
        object.__setattr__(self, "delta", check_in_range(
            self.delta, "delta", 0.0, 0.5, low_closed=False, high_closed=False))
        object.__setattr__(self, "value_bound", check_positive(self.value_bound, "value_bound"))
        object.__setattr__(self, "mode", check_choice(self.mode, "mode", MODES))

    @property
    def claimed(self) -> Guarantee:
        return ApproxDP(self.epsilon, self.delta)

    @functools.lru_cache(maxsize=256)
    def protocol(self, users: int, dimension: int) -> VectorSummation:
        return VectorSummation.from_privacy(self.epsilon, self.delta, users=users,
                                            dimension=dimension,
                                            norm_bound=self.value_bound * math.sqrt(dimension))

    def noise_sd(self, users: int, dimension: int) -> float:
        """σ_ns = √(variance proxy) of one coordinate of the average."""
        return math.sqrt(self.protocol(users, dimension).variance_proxy())

    @renamed_parameters(d="span_dimension")
    def width_sigma(self, users: int, dimension: int, span_dimension: int) -> float:
        return 2 * self.noise_sd(users, dimension) * math.sqrt(span_dimension)

    def communication(self, users: int, dimension: int) -> float:
        protocol = self.protocol(users, dimension)
        return float(users * dimension * (protocol.precision + protocol.trials))

    def privatize_average(self, values: Any, *, rng: np.random.Generator,
                          per_user: bool = False) -> NDArray[np.float64]:
        array = _clip_check(values, self.value_bound)
        users, dimension = array.shape
        protocol = self.protocol(users, dimension)
        if per_user:
            reports = protocol.simulate_reports(array, rng=rng)
            return protocol.analyse(protocol.shuffle_view(reports))
        return protocol.analyse(protocol.simulate_totals(array, rng=rng))

    def guarantee(self, users: int = 1, dimension: int = 1) -> ApproxDP:
        """The claim of Li, Zhou & Ji 2022, Thm 3/9 ([R]: Cheu et al. 2021's constants, not verified here)."""
        return ApproxDP(self.epsilon, self.delta)


@renamed_parameters(bound="value_bound")
@dataclass(frozen=True)
class ExactAverage:
    """DPE: the plain average (no privacy; σ_n = 0).

    >>> ExactAverage().privatize_average([[0.5], [0.0]], rng=np.random.default_rng(0)).tolist()
    [0.25]
    """

    value_bound: float = 1.0
    name = "non-private (DPE)"
    model = "none"
    claimed = None
    bound = renamed_property("bound", "value_bound")  # the old spelling, for one release

    @renamed_parameters(d="span_dimension")
    def width_sigma(self, users: int, dimension: int, span_dimension: int) -> float:
        return 0.0

    def communication(self, users: int, dimension: int) -> float:
        return float(users * dimension)

    def privatize_average(self, values: Any, *, rng: np.random.Generator,
                          per_user: bool = False) -> NDArray[np.float64]:
        return _clip_check(values, self.value_bound).mean(axis=0)

    def guarantee(self, users: int = 1, dimension: int = 1) -> None:
        return None
