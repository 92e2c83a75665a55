"""OpenDP (0.16) measurements as ready audits (:class:`~dpverify.auditing.recipes.recipe.Recipe`).

Each function builds one OpenDP measurement (``opendp.measurements``, with
``dp.enable_features("contrib")``), its sampler (one ``measurement(data)``
per output, :func:`~dpverify.auditing.adapters.sampler_from_calls` with
``seeding="none"``: OpenDP draws from the operating system's generator and
takes no seed, so these audits are **not reproducible** and their reports
say ``reproducible: no``), a neighbouring pair at distance ``d_in = 1``, and
the claim OpenDP's own privacy map gives for it (``measurement.map(1)``;
for the Gaussian, ρ-zCDP turned into (ε, δ) by OpenDP's
``make_zCDP_to_approxDP`` and ``make_fix_delta``).

The measurement is built in each process that calls it (OpenDP's objects are
not picklable) and kept there. An OpenDP call costs about 0.15–0.5 ms, most
of it the Python↔Rust conversion around the sampling, so audits of 10^6
samples per side want workers (``n_jobs=``).

**Many releases in one call** (Laplace and Gaussian): OpenDP builds its
scalar noise measurement from its vector one — ``make_vec >> (noise on
vector_domain) >> then_index_or_default(0)``
(``rust/src/measurements/noise/nature/{float,integer}/pseudocode/MakeNoise_AtomDomain_for_*ExpFamily.py``,
OpenDP 0.16) — and the vector measurement draws each coordinate's noise
independently with the same distribution, scale and granularity. So the
recipe's ``release_many`` makes a chunk of ``calls`` releases as one call of
that vector measurement on ``[data] * calls``: each coordinate is one
release of the scalar measurement (the same code after ``make_vec``), and
the coordinates are independent (the audit's requirement,
``docs/proofs/auditing.md`` §10), at about 25 µs a release instead of 150 µs.
The claim is still the scalar measurement's own map.
``tests/auditing/recipes/test_recipes_opendp.py`` checks the two paths'
laws against each other.

Needs the ``peers-mechanisms`` extra: ``pip install "dpverify[peers-mechanisms]"``.

Examples
--------
>>> recipe = randomized_response(epsilon=1.0)
>>> recipe.name
'opendp.measurements.make_randomized_response(categories=[0, 1], prob=0.731058578630005)'
>>> round(recipe.guarantee.epsilon, 6)   # OpenDP's own map, rounded up by it
1.0
>>> report = recipe.audit(epsilon=0.25, samples=2_000, seed=1)   # a false claim
>>> report.violation, report.reproducible   # OpenDP takes no seed
(True, False)
"""

from __future__ import annotations

import math
from typing import Any

from dpverify._validation import (
    check_delta,
    check_epsilon,
    check_int_at_least,
    check_positive,
    value_error,
)
from dpverify.auditing.adapters import sampler_from_calls
from dpverify.auditing.recipes.recipe import Recipe
from dpverify.guarantees import ApproxDP, PureDP

__all__ = ["laplace", "gaussian", "report_noisy_max", "randomized_response", "RECIPES"]

#: Measurements built in this process, by their description.
_BUILT: dict[tuple, Any] = {}


def _build(description: tuple) -> Any:
    """The OpenDP measurement that ``description`` names (built once per process)."""
    measurement = _BUILT.get(description)
    if measurement is not None:
        return measurement
    import opendp.prelude as dp  # deferred: optional peer library (peers-mechanisms extra)

    dp.enable_features("contrib")
    kind, *arguments = description
    vector = kind == "vector"
    if vector:  # the vector measurement the scalar one is built from (module docstring)
        kind, *arguments = arguments
    if kind in ("laplace", "gaussian"):
        numbers, scale = arguments
        domain = dp.atom_domain(T=numbers, nan=False) if numbers == "f64" else \
            dp.atom_domain(T=numbers)
        make = dp.m.make_laplace if kind == "laplace" else dp.m.make_gaussian
        if vector:
            metric = dp.l1_distance(T=numbers) if kind == "laplace" else dp.l2_distance(T=numbers)
            measurement = make(dp.vector_domain(domain), metric, scale=scale)
        else:
            measurement = make(domain, dp.absolute_distance(T=numbers), scale=scale)
    elif kind == "report_noisy_max":
        (scale,) = arguments
        measurement = dp.m.make_noisy_max(dp.vector_domain(dp.atom_domain(T="i64")),
                                          dp.linf_distance(T="i64", monotonic=True),
                                          dp.max_divergence(), scale=scale)
    else:  # randomized_response
        categories, probability = arguments
        measurement = dp.m.make_randomized_response(list(categories), probability)
    _BUILT[description] = measurement
    return measurement


def _claim(description: tuple, delta: float) -> PureDP | ApproxDP:
    """OpenDP's own privacy map at ``d_in = 1``: ε, or (ε, δ) from ρ-zCDP."""
    measurement = _build(description)
    if description[0] != "gaussian":
        return PureDP(float(measurement.map(1)))
    import opendp.prelude as dp  # deferred: optional peer library (peers-mechanisms extra)

    epsilon, delta = dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(measurement), delta).map(1)
    return ApproxDP(float(epsilon), float(delta))


class _MeasurementCall:
    """``call(data)``: one invocation of the OpenDP measurement ``description`` names (picklable)."""

    def __init__(self, description: tuple) -> None:
        self.description = description

    def __call__(self, data: Any) -> Any:
        return _build(self.description)(data)


class _NoiseCall(_MeasurementCall):
    """A Laplace or Gaussian measurement's call, with ``release_many`` through its vector measurement."""

    def release_many(self, data: Any, source: None, calls: int) -> list[Any]:
        """``calls`` independent releases on ``data``: one call of the vector measurement (module docstring)."""
        return list(_build(("vector", *self.description))([data] * calls))


def _recipe(name: str, description: tuple, x: Any, x_prime: Any, delta: float,
            where: dict[str, Any]) -> Recipe:
    call = _NoiseCall(description) if description[0] in ("laplace", "gaussian") else \
        _MeasurementCall(description)
    return Recipe(name=f"opendp.measurements.{name}", x=x, x_prime=x_prime,
                  sampler=sampler_from_calls(call, seeding="none", **where),
                  guarantee=_claim(description, delta))


def _check_numbers(integers: Any) -> str:
    if not isinstance(integers, bool):
        raise value_error("integers", integers, "True (i64 inputs) or False (f64 inputs)")
    return "i64" if integers else "f64"


def laplace(scale: float = 1.0, *, integers: bool = False, n_jobs: Any = 1,
            executor: Any = None) -> Recipe:
    """``make_laplace(atom_domain(T), absolute_distance(T), scale)``: claim ``1/scale``-DP; pair ``(0, 1)``.

    ``integers=True``: the discrete Laplace on ``i64``; ``False``: floats,
    which OpenDP samples exactly on a grid and rounds (its map accounts for
    the rounding), so the float attack finds nothing to exploit.
    """
    scale, numbers = check_positive(scale, "scale"), _check_numbers(integers)
    one = 1 if integers else 1.0
    return _recipe(f"make_laplace(atom_domain(T={numbers!r}), scale={scale!r})",
                   ("laplace", numbers, scale), 0 * one, one, 0.0,
                   {"n_jobs": n_jobs, "executor": executor})


def gaussian(sigma: float = 1.0, delta: float = 1e-5, *, integers: bool = False,
             n_jobs: Any = 1, executor: Any = None) -> Recipe:
    """``make_gaussian(atom_domain(T), absolute_distance(T), scale=sigma)``: ρ-zCDP as (ε, δ); pair ``(0, 1)``.

    ``integers=True``: the discrete Gaussian on ``i64``.
    """
    sigma, numbers = check_positive(sigma, "sigma"), _check_numbers(integers)
    delta = check_delta(delta, allow_zero=False)
    one = 1 if integers else 1.0
    return _recipe(f"make_gaussian(atom_domain(T={numbers!r}), scale={sigma!r})",
                   ("gaussian", numbers, sigma), 0 * one, one, delta,
                   {"n_jobs": n_jobs, "executor": executor})


def report_noisy_max(scale: float = 1.0, *, categories: int = 4, n_jobs: Any = 1,
                     executor: Any = None) -> Recipe:
    """``make_noisy_max`` over ``categories`` scores (monotonic ℓ∞): claim ``1/scale``-DP.

    Its noise under ``max_divergence`` is exponential: report-noisy-max as
    permute-and-flip (McKenna & Sheldon 2020), which OpenDP cites.
    Pair: scores ``(1, 0, …, 0)`` and all zeros (monotonic: every score moves
    by at most 1, in one direction). Output: the index of the noisy maximum.
    """
    scale = check_positive(scale, "scale")
    categories = check_int_at_least(categories, "categories", 2)
    x = [1] + [0] * (categories - 1)
    return _recipe(f"make_noisy_max(vector_domain(atom_domain(T='i64')), scale={scale!r})",
                   ("report_noisy_max", scale), x, [0] * categories, 0.0,
                   {"n_jobs": n_jobs, "executor": executor})


def randomized_response(epsilon: float = 1.0, *, categories: int = 2, n_jobs: Any = 1,
                        executor: Any = None) -> Recipe:
    """``make_randomized_response(categories, prob)`` with ``prob = e^ε/(e^ε + k − 1)``: claim ε-DP; pair ``(0, 1)``, tight."""
    epsilon = check_epsilon(epsilon, allow_zero=False)
    categories = check_int_at_least(categories, "categories", 2)
    probability = math.exp(epsilon) / (math.exp(epsilon) + categories - 1)
    labels = tuple(range(categories))
    return _recipe(f"make_randomized_response(categories={list(labels)!r}, prob={probability!r})",
                   ("randomized_response", labels, probability), 0, 1, 0.0,
                   {"n_jobs": n_jobs, "executor": executor})


#: Every recipe by name (``laplace`` and ``gaussian`` take ``integers=``).
RECIPES = {"laplace": laplace, "gaussian": gaussian, "report_noisy_max": report_noisy_max,
           "randomized_response": randomized_response}
