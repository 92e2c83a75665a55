"""RDP of Poisson-sampled and without-replacement-sampled *events* (the accountant's dispatch entry).

Private helper of :mod:`dpverify.accountants.accountant`: chooses the bound of
:mod:`dpverify.accountants.rdp_subsampling` for a sampled event whose inner
event has an RDP curve — exact/tight forms for a single Gaussian or Laplace
release, the exact curve of a finite dominating pair (randomized response,
pure DP, discrete Laplace) where it is smaller, the general bounds (Zhu & Wang 2019, Thm 6; Wang, Balle &
Kasiviswanathan 2019, Thm 9) for everything else — and states the
neighbouring relations each one holds under. :func:`mechanism_zcdp` gives the
inner curves of mechanisms known to the accountant only through a zCDP privacy
map (the discrete Gaussian), so that they can be subsampled too.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dpverify.accountants.events import (Event, MechanismEvent, PoissonSampledEvent,
                                         SampledWithoutReplacementEvent)
from dpverify.accountants.rdp_subsampling import (
    integer_orders_needed,
    poisson_subsampled_laplace_rdp,
    poisson_subsampled_rdp,
    without_replacement_gaussian_rdp,
    without_replacement_rdp,
)
from dpverify.accountants.rdp_subsampling_pairs import poisson_subsampled_pair_rdp
from dpverify.errors import UnsupportedError
from dpverify.guarantees import ZCDP, PureDP, RDPCurve
from dpverify.mechanisms import (BinaryRandomizedResponse, DiscreteLaplace, Laplace,
                                 RandomizedResponse, privacy_map)

__all__ = ["sampled_event_rdp", "mechanism_zcdp"]

#: ``inner_curve(event, orders)``: the RDP curve of an inner event at the given orders.
InnerCurve = Callable[[Event, tuple], RDPCurve]


def sampled_event_rdp(event: PoissonSampledEvent | SampledWithoutReplacementEvent, *,
                      orders: tuple[float, ...], neighbouring: str, inner_curve: InnerCurve,
                      gaussian_noise: Callable[[Event], tuple[float, float] | None],
                      pure_epsilon: Callable[[MechanismEvent], float | None],
                      probe: bool) -> RDPCurve | None:
    """RDP curve (at ``orders``) of a sampled event whose inner event has an RDP curve.

    ``inner_curve(inner, orders)`` is the caller's translator at other orders,
    with the caller's ``probe`` (it raises :class:`~dpverify.errors.UnsupportedError`
    when the inner event has no RDP curve, and returns ``None`` when probing). Poisson sampling is accounted under
    add-remove and replace-special, sampling without replacement under
    replace-one, as the theorems are stated; ``None`` when ``probe``.
    """
    inner = event.event
    try:
        integer_orders_needed(orders)   # refuses orders past MAX_SUBSAMPLED_ORDER / too much work
    except ValueError as error:
        raise UnsupportedError(f"rdp cannot account {event!r} at these orders: {error}") from None
    if isinstance(event, PoissonSampledEvent):
        if neighbouring == "replace-one":
            raise UnsupportedError(f"rdp cannot account {event!r}: Poisson subsampling is "
                                   "accounted under add-remove or replace-special")
        if isinstance(inner, MechanismEvent) and isinstance(inner.mechanism, Laplace):
            return None if probe else poisson_subsampled_laplace_rdp(
                inner.mechanism.scale, event.sampling_probability,
                sensitivity=inner.sensitivity, orders=orders)
        base = inner_curve(inner, integer_orders_needed(orders))
        if probe:
            return None
        general = poisson_subsampled_rdp(base, event.sampling_probability, orders=orders,
                                         pure_epsilon=_pure(inner, pure_epsilon))
        if not _has_exact_pair(inner):
            return general
        exact = poisson_subsampled_pair_rdp(inner.mechanism, event.sampling_probability,
                                            sensitivity=inner.sensitivity, orders=orders)
        return RDPCurve(orders=orders, epsilons=tuple(map(min, general.epsilons, exact.epsilons)))
    if neighbouring != "replace-one":
        raise UnsupportedError(f"rdp cannot account {event!r}: sampling without replacement is "
                               "accounted under replace-one only (neighbouring='replace-one')")
    noise = gaussian_noise(inner)
    if noise is not None:
        return None if probe else without_replacement_gaussian_rdp(
            noise[0], event.sample_size, event.population_size, sensitivity=noise[1], orders=orders)
    base = inner_curve(inner, integer_orders_needed(orders))
    return None if probe else without_replacement_rdp(
        base, event.sample_size, event.population_size, orders=orders,
        pure_epsilon=_pure(inner, pure_epsilon))


def _has_exact_pair(inner: Event) -> bool:
    """True when ``inner`` is one release whose finite dominating pair is exact and atom-free.

    Randomized response (binary, k-ary) and pure DP at sensitivity 1, and the
    discrete Laplace mechanism at an integer sensitivity: for them the pair's
    curve (:mod:`.rdp_subsampling_pairs`) is exact at every order, and the
    accountant takes the smaller of it and the general bound, order by order.
    """
    if not isinstance(inner, MechanismEvent):
        return False
    mechanism, sensitivity = inner.mechanism, inner.sensitivity
    if isinstance(mechanism, (RandomizedResponse, BinaryRandomizedResponse, PureDP)):
        return sensitivity == 1.0
    return isinstance(mechanism, DiscreteLaplace) and float(sensitivity).is_integer()


def _pure(inner: Event, pure_epsilon: Callable[[MechanismEvent], float | None]) -> float:
    """ε∞ of a single pure-DP mechanism event (``inf`` when unknown)."""
    if isinstance(inner, MechanismEvent):
        value = pure_epsilon(inner)
        if value is not None:
            return value
    return math.inf


def mechanism_zcdp(event: MechanismEvent) -> ZCDP | None:
    """The zCDP guarantee of a mechanism event's privacy map (e.g. the discrete Gaussian), or ``None``.

    Used for mechanisms the accountant has no dedicated RDP curve for; the
    map's own conversions along the guarantee lattice are sound.
    """
    try:
        guarantee = privacy_map(event.mechanism, sensitivity=event.sensitivity, target=ZCDP)
    except (UnsupportedError, TypeError, ValueError):
        return None
    return guarantee if isinstance(guarantee, ZCDP) else None
