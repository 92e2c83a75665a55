"""Contract every accountant path must honour, on the one mechanism with an exact answer.

k adaptively composed Gaussian releases with noise σ (ℓ2 sensitivity 1) are
exactly one Gaussian release with noise σ/√k, whose exact privacy profile is
the analytic Gaussian formula. Each accountant in the fixture table below must:

* never report less than the exact ε (soundness);
* report less ε when σ grows, more when k grows, less when δ grows (laws of the domain).

The table is the place to add a new accountant path.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify import ZCDP
from dpverify.accountants import (
    PrivacyLossDistribution,
    compose_rdp,
    gaussian_rdp,
    rdp_to_dp,
    zcdp_to_dp,
)
from dpverify.mechanisms import gaussian_privacy_profile
from dpverify.testing import assert_conservative
from dpverify.testing import strategies as dst

EpsilonPath = Callable[[float, int, float], float]


def _pld(sigma: float, k: int, delta: float) -> float:
    return PrivacyLossDistribution.from_gaussian(sigma).self_compose(k).epsilon_for_delta(delta)


def _rdp(method: str) -> EpsilonPath:
    return lambda sigma, k, delta: rdp_to_dp(compose_rdp([gaussian_rdp(sigma)] * k), delta=delta,
                                             method=method).epsilon


def _zcdp(method: str) -> EpsilonPath:
    return lambda sigma, k, delta: zcdp_to_dp(ZCDP(k / (2 * sigma**2)), delta=delta,
                                              method=method).epsilon


PATHS: dict[str, EpsilonPath] = {
    "pld": _pld,
    "rdp-tight": _rdp("tight"),
    "rdp-mironov": _rdp("mironov"),
    "zcdp-tight": _zcdp("tight"),
    "zcdp-bun-steinke": _zcdp("bun-steinke"),
}


def _exact(sigma: float, k: int, delta: float) -> float:
    """True ε, rounded up; compare with a 1e-12 relative allowance for that rounding."""
    return gaussian_privacy_profile(sigma / math.sqrt(k)).epsilon_for_delta(delta)


sigmas = st.floats(0.5, 20.0)
counts = st.integers(1, 64)
deltas = dst.deltas(min_value=1e-8, max_value=1e-3)  # log-uniform, as in the papers' regimes


@pytest.mark.slow
@pytest.mark.parametrize("name", PATHS)
@settings(max_examples=12, deadline=None)
@given(sigma=sigmas, k=counts, delta=deltas)
def test_never_below_the_exact_epsilon(name: str, sigma: float, k: int, delta: float) -> None:
    assert_conservative(PATHS[name](sigma, k, delta), _exact(sigma, k, delta),
                        name=f"{name} epsilon of {k} Gaussians (sigma={sigma!r}, delta={delta!r})",
                        rtol=1e-12)


@pytest.mark.slow
@pytest.mark.parametrize("name", PATHS)
@settings(max_examples=8, deadline=None)
@given(sigma=sigmas, k=counts, delta=deltas, factor=st.floats(1.05, 3.0))
def test_more_noise_less_epsilon(name: str, sigma: float, k: int, delta: float,
                                 factor: float) -> None:
    assert PATHS[name](sigma * factor, k, delta) <= PATHS[name](sigma, k, delta)


@pytest.mark.slow
@pytest.mark.parametrize("name", PATHS)
@settings(max_examples=8, deadline=None)
@given(sigma=sigmas, k=counts, delta=deltas, extra=st.integers(1, 64))
def test_composition_costs_at_least_each_part(name: str, sigma: float, k: int, delta: float,
                                              extra: int) -> None:
    assert PATHS[name](sigma, k + extra, delta) >= PATHS[name](sigma, k, delta)


@pytest.mark.slow
@pytest.mark.parametrize("name", PATHS)
@settings(max_examples=8, deadline=None)
@given(sigma=sigmas, k=counts)
def test_larger_delta_smaller_epsilon(name: str, sigma: float, k: int) -> None:
    assert PATHS[name](sigma, k, 1e-3) <= PATHS[name](sigma, k, 1e-6)
