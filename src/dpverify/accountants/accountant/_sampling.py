"""Translators of sampled events: :class:`PoissonSampledEvent` and :class:`SampledWithoutReplacementEvent`.

Poisson sampling is accounted under add-remove and replace-special, sampling
without replacement (a batch of m of n) under replace-one, as the theorems are
stated.

* PLD: the Poisson-subsampled Gaussian's own pairs (Zhu, Dong, Wang 2022, Prop. 30;
  replace-one included), a mixture of Gaussians with the rate folded in, and the
  subsampled finite dominating pair of any other single mechanism
  (:mod:`dpverify.accountants.dominating_pairs`); without replacement, the
  Balle–Barthe–Gaboardi profile made a symmetric pair
  (:mod:`dpverify.accountants.pld.subsampling_wor`).
* RDP: the subsampled Gaussian's exact moments, the tight form for a single Laplace
  release, the exact curve of a finite dominating pair (randomized response, pure DP,
  discrete Laplace) where it is smaller, and the general bounds (Zhu & Wang 2019,
  Thm 6; Wang, Balle & Kasiviswanathan 2019, Thm 9) for any inner event with an RDP
  curve (:mod:`dpverify.accountants.rdp.subsampling`).
* zCDP: refused (no amplification by subsampling is accounted in zCDP), naming RDP and PLD.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from dpverify.accountants.accountant._common import (
    gaussian_noise,
    poisson_gaussian,
    pure_epsilon,
    releases_mixture,
)
from dpverify.accountants.accountant._mechanisms import mixture_pld, mixture_rdp
from dpverify.accountants.accountant._registry import (
    Request,
    refuses,
    translate,
    translates,
    unsupported,
)
from dpverify.accountants.dominating_pairs import dominating_pair
from dpverify.accountants.events import (
    Event,
    MechanismEvent,
    PoissonSampledEvent,
    SampledWithoutReplacementEvent,
)
from dpverify.accountants.pld import (
    PrivacyLossDistribution,
    dp_sgd_interval,
    poisson_subsampled_pld,
    without_replacement_gaussian_pld,
    without_replacement_pld,
)
from dpverify.accountants.rdp import (
    poisson_subsampled_laplace_rdp,
    poisson_subsampled_pair_rdp,
    poisson_subsampled_rdp,
    subsampled_gaussian_rdp,
    without_replacement_gaussian_rdp,
    without_replacement_rdp,
)
from dpverify.accountants.rdp.subsampling import integer_orders_needed
from dpverify.errors import UnsupportedError
from dpverify.guarantees import PureDP, RDPCurve
from dpverify.mechanisms import (
    BinaryRandomizedResponse,
    DiscreteLaplace,
    Laplace,
    RandomizedResponse,
)

__all__ = ["common_dp_sgd_interval"]   # and the translators: importing this module registers them

_WITHOUT_REPLACEMENT_RELATION = ("sampling without replacement is accounted under replace-one "
                                 "only (neighbouring='replace-one')")

for _sampled in (PoissonSampledEvent, SampledWithoutReplacementEvent):
    refuses(_sampled, "zcdp", "amplification by subsampling is not accounted in zCDP; "
                              "use method='rdp' or method='pld'")


# ---------------------------------------------------------------- PLD
@translates(PoissonSampledEvent, "pld")
def _poisson_pld(event: PoissonSampledEvent, request: Request) -> Any:
    inner = event.event
    if releases_mixture(inner):
        return mixture_pld(event, request)
    if gaussian_noise(inner) is None:
        return _poisson_finite_pair_pld(event, request)
    sigma, q = poisson_gaussian(event, request)
    if request.probe:
        return None
    # add-remove and replace-special: DP-SGD's one grid (the same ε as dp_sgd_epsilon), or the
    # grid planned for a history of several of them (common_dp_sgd_interval)
    interval = None if request.neighbouring == "replace-one" else dp_sgd_interval(sigma, q)
    planned = request.value_discretization_interval
    if interval is not None and planned is not None and planned != interval:
        try:
            return PrivacyLossDistribution.from_subsampled_gaussian(
                sigma, q, neighbouring=request.neighbouring, value_discretization_interval=planned)
        except ValueError:   # a planned point on ln(1 − q): this event keeps its own grid
            pass
    return PrivacyLossDistribution.from_subsampled_gaussian(
        sigma, q, neighbouring=request.neighbouring, value_discretization_interval=interval)


def common_dp_sgd_interval(counts: Mapping[Event, int], request: Request) -> float | None:
    """The one PLD grid spacing of a DP-SGD history with several noise multipliers (or rates).

    When every distinct event of the history (``counts``: event -> number of runs) is a
    Poisson-sampled Gaussian accounted on its DP-SGD grid (:func:`_poisson_pld`: PLD,
    add-remove or replace-special), and there are at least two: the coarsest of their
    :func:`~dpverify.accountants.pld.dp_sgd_interval` spacings among the events run most
    often, the spacing :func:`~dpverify.accountants.pld.compose_plds` composes such PLDs on
    (:func:`~dpverify.accountants.pld._compose.common_interval`). The ledger translates
    every event on it, so each is discretised there directly, instead of on its own finer
    grid and then spread onto the common one (connect-the-dots twice). ``None`` otherwise
    (each event on its own grid, as a single event always is).

    **Soundness.** The subsampled Gaussian's grid is an upper bound at every spacing
    (``docs/proofs/pld.md``, §2), and the composition of upper bounds is one (§3–5).
    It is also at least as tight in exact arithmetic: on each coarse interval the
    direct grid is the mean-preserving spread of ``e^{−L}`` onto its two end points,
    while the spread of a finer grid is a further mean-preserving spread of it
    (``docs/proofs/pld.md``, §3). A 60-σ epoch schedule (σ = 0.8…2.0, q = 256/60000,
    234 steps each) evaluates its normal tails on 42 % fewer points, spreads nothing, and
    reports ε = 2.1456119 at δ = 1e-5 (2.1457860 on the spread grids).
    """
    if request.method != "pld" or request.neighbouring == "replace-one" or len(counts) < 2:
        return None
    intervals = []
    for event in counts:
        if (not isinstance(event, PoissonSampledEvent) or releases_mixture(event.event)
                or gaussian_noise(event.event) is None):
            return None
        intervals.append(dp_sgd_interval(*poisson_gaussian(event, request)))
    most = max(counts.values())
    return max(interval for interval, count in zip(intervals, counts.values()) if count == most)


def _poisson_finite_pair_pld(event: PoissonSampledEvent, request: Request) -> Any:
    """Poisson subsampling of a mechanism with a finite dominating pair (add/remove, replace-special)."""
    inner = event.event
    if not isinstance(inner, MechanismEvent) or request.neighbouring == "replace-one":
        raise unsupported(event, "pld", "Poisson sampling of a single mechanism with a finite "
                                        "dominating pair, under add-remove or replace-special")
    dominating_pair(inner.mechanism, sensitivity=inner.sensitivity)   # raises if none
    if request.probe:
        return None
    return poisson_subsampled_pld(inner.mechanism, event.sampling_probability,
                                  sensitivity=inner.sensitivity)


@translates(SampledWithoutReplacementEvent, "pld")
def _without_replacement_pld(event: SampledWithoutReplacementEvent, request: Request) -> Any:
    """A batch of m of n records (replace-one): a Gaussian or a mechanism with a finite dominating pair."""
    inner = event.event
    if request.neighbouring != "replace-one":
        raise unsupported(event, "pld", _WITHOUT_REPLACEMENT_RELATION)
    noise = gaussian_noise(inner)
    if noise is not None:
        return None if request.probe else without_replacement_gaussian_pld(
            noise[0], event.sample_size, event.population_size, sensitivity=noise[1])
    if not isinstance(inner, MechanismEvent):
        raise unsupported(event, "pld", "sampling without replacement of a single mechanism with "
                                        "a finite dominating pair only (so far)")
    dominating_pair(inner.mechanism, sensitivity=inner.sensitivity)   # raises if none
    if request.probe:
        return None
    return without_replacement_pld(inner.mechanism, event.sample_size, event.population_size,
                                   sensitivity=inner.sensitivity)


# ---------------------------------------------------------------- RDP
@translates(PoissonSampledEvent, "rdp")
def _poisson_rdp(event: PoissonSampledEvent, request: Request) -> Any:
    """RDP of a Poisson-sampled event (add-remove, replace-special) whose inner event has a curve."""
    inner, orders = event.event, request.orders
    if releases_mixture(inner):
        return mixture_rdp(event, request)
    if gaussian_noise(inner) is not None:
        sigma, q = poisson_gaussian(event, request)
        return None if request.probe else subsampled_gaussian_rdp(sigma, q, orders=orders)
    _check_orders(event, orders)
    if request.neighbouring == "replace-one":
        raise UnsupportedError(f"rdp cannot account {event!r}: Poisson subsampling is "
                               "accounted under add-remove or replace-special")
    if isinstance(inner, MechanismEvent) and isinstance(inner.mechanism, Laplace):
        return None if request.probe else poisson_subsampled_laplace_rdp(
            inner.mechanism.scale, event.sampling_probability,
            sensitivity=inner.sensitivity, orders=orders)
    base = translate(inner, request.at(integer_orders_needed(orders)))
    if request.probe:
        return None
    general = poisson_subsampled_rdp(base, event.sampling_probability, orders=orders,
                                     pure_epsilon=_pure(inner))
    if not _has_exact_pair(inner):
        return general
    exact = poisson_subsampled_pair_rdp(inner.mechanism, event.sampling_probability,
                                        sensitivity=inner.sensitivity, orders=orders)
    return RDPCurve(orders=orders, epsilons=tuple(map(min, general.epsilons, exact.epsilons)))


@translates(SampledWithoutReplacementEvent, "rdp")
def _without_replacement_rdp(event: SampledWithoutReplacementEvent, request: Request) -> Any:
    """RDP of a batch of m of n records (replace-one) whose inner event has a curve."""
    inner, orders = event.event, request.orders
    _check_orders(event, orders)
    if request.neighbouring != "replace-one":
        raise UnsupportedError(f"rdp cannot account {event!r}: {_WITHOUT_REPLACEMENT_RELATION}")
    noise = gaussian_noise(inner)
    if noise is not None:
        return None if request.probe else without_replacement_gaussian_rdp(
            noise[0], event.sample_size, event.population_size, sensitivity=noise[1], orders=orders)
    base = translate(inner, request.at(integer_orders_needed(orders)))
    return None if request.probe else without_replacement_rdp(
        base, event.sample_size, event.population_size, orders=orders, pure_epsilon=_pure(inner))


def _check_orders(event: Event, orders: tuple) -> None:
    """Refuse orders past MAX_SUBSAMPLED_ORDER, or too much work, as unsupported at these orders."""
    try:
        integer_orders_needed(orders)
    except ValueError as error:
        raise UnsupportedError(f"rdp cannot account {event!r} at these orders: {error}") from None


def _has_exact_pair(inner: Event) -> bool:
    """True when ``inner`` is one release whose finite dominating pair is exact and atom-free.

    Randomized response (binary, k-ary) and pure DP at sensitivity 1, and the
    discrete Laplace mechanism at an integer sensitivity: for them the pair's
    curve (:mod:`dpverify.accountants.rdp.subsampling_pairs`) is exact at every
    order, and the accountant takes the smaller of it and the general bound,
    order by order.
    """
    if not isinstance(inner, MechanismEvent):
        return False
    mechanism, sensitivity = inner.mechanism, inner.sensitivity
    if isinstance(mechanism, (RandomizedResponse, BinaryRandomizedResponse, PureDP)):
        return sensitivity == 1.0
    return isinstance(mechanism, DiscreteLaplace) and float(sensitivity).is_integer()


def _pure(inner: Event) -> float:
    """ε∞ of a single pure-DP mechanism event (``inf`` when unknown)."""
    if isinstance(inner, MechanismEvent):
        value = pure_epsilon(inner)
        if value is not None:
            return value
    return math.inf
