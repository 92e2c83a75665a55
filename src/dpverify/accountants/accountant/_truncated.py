"""Translators of :class:`TruncatedPoissonSampledEvent`: a Gaussian on a Poisson sample capped at B records.

Accounted under add/remove (the dataset size public) by PLD
(:func:`~dpverify.accountants.pld.truncated_poisson.truncated_poisson_gaussian_pld`) and RDP
(:func:`~dpverify.accountants.rdp.truncated_poisson.truncated_poisson_gaussian_rdp`);
zCDP refuses it, as it refuses every subsampled event.
"""

from __future__ import annotations

from typing import Any

from dpverify.accountants.accountant._common import gaussian_noise
from dpverify.accountants.accountant._registry import Request, refuses, translates, unsupported
from dpverify.accountants.events import TruncatedPoissonSampledEvent
from dpverify.accountants.pld.truncated_poisson import truncated_poisson_gaussian_pld
from dpverify.accountants.rdp.truncated_poisson import truncated_poisson_gaussian_rdp

__all__: list[str] = []  # translators only: importing this module registers them

refuses(
    TruncatedPoissonSampledEvent,
    "zcdp",
    "amplification by subsampling is not accounted in zCDP; use method='rdp' or method='pld'",
)


def _gaussian(event: TruncatedPoissonSampledEvent, request: Request) -> tuple[float, float]:
    noise = gaussian_noise(event.event)
    if noise is None:
        raise unsupported(event, request.method, "truncated Poisson sampling of a Gaussian only")
    if request.neighbouring != "add-remove":
        raise unsupported(
            event,
            request.method,
            "truncated Poisson sampling is accounted under add-remove only (neighbouring='add-remove')",
        )
    return noise


@translates(TruncatedPoissonSampledEvent, "pld")
def _truncated_pld(event: TruncatedPoissonSampledEvent, request: Request) -> Any:
    sigma, sensitivity = _gaussian(event, request)
    return (
        None
        if request.probe
        else truncated_poisson_gaussian_pld(
            sigma,
            event.sampling_probability,
            max_sample_size=event.max_sample_size,
            population_size=event.population_size,
            sensitivity=sensitivity,
        )
    )


@translates(TruncatedPoissonSampledEvent, "rdp")
def _truncated_rdp(event: TruncatedPoissonSampledEvent, request: Request) -> Any:
    sigma, sensitivity = _gaussian(event, request)
    return (
        None
        if request.probe
        else truncated_poisson_gaussian_rdp(
            sigma,
            event.sampling_probability,
            max_sample_size=event.max_sample_size,
            population_size=event.population_size,
            sensitivity=sensitivity,
            orders=request.orders,
        )
    )
