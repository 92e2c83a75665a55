"""IBM's diffprivlib (0.6) mechanisms and tools as ready audits (:class:`~dpverify.auditing.recipes.recipe.Recipe`).

Each function builds one diffprivlib mechanism (``diffprivlib.mechanisms``)
or tool (``diffprivlib.tools``), the sampler of its one-value-per-call
``randomise`` (:func:`~dpverify.auditing.adapters.sampler_from_calls` with
``seeding="random_state"``: every chunk of calls builds the mechanism once
with its own ``numpy.random.RandomState`` as diffprivlib's ``random_state=``,
so audits are reproducible bit for bit), a neighbouring pair on which the
claim is tight or nearly, and the claim diffprivlib documents for its
parameters.

The tools get a fresh ``BudgetAccountant()`` per call: diffprivlib's
default accountant records every spend (``BudgetAccountant.spend``), and the
check before each spend sums them, so a million calls on the default
accountant take quadratic time; a throwaway accountant per call keeps the
claim per call (each call is one ε-DP release) and the cost constant.

Needs the ``peers-mechanisms`` extra: ``pip install "dpverify[peers-mechanisms]"``
(diffprivlib 0.6.6 imports ``sklearn.tree._tree.DOUBLE``, gone in
scikit-learn 1.9, and its ``LogisticRegression`` passes ``multi_class=``,
refused from 1.8: the extra pins ``scikit-learn<1.8``).

Examples
--------
>>> recipe = laplace(epsilon=1.0)
>>> recipe.name, recipe.guarantee
('diffprivlib.mechanisms.Laplace(epsilon=1.0, sensitivity=1.0)', PureDP(epsilon=1.0))
>>> report = recipe.audit(epsilon=0.5, samples=20_000, seed=1)   # a false claim
>>> report.violation
True
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

from dpverify._validation import (
    check_epsilon,
    check_finite,
    check_int_at_least,
    check_positive,
    check_positive_int,
    value_error,
)
from dpverify.auditing.adapters import sampler_from_calls
from dpverify.auditing.recipes.recipe import Recipe
from dpverify.guarantees import ApproxDP, PureDP

__all__ = ["laplace", "laplace_bounded_domain", "geometric", "exponential", "gaussian_analytic",
           "binary", "snapping", "mean", "var", "histogram", "MECHANISM_RECIPES", "TOOL_RECIPES"]

#: The last mechanism built on this thread: (call, random_state, data, mechanism).
_BUILT = threading.local()


class _MechanismCall:
    """``call(data, random_state)``: one ``randomise`` of ``diffprivlib.mechanisms.<mechanism>(**options)``.

    The mechanism is built once per ``random_state`` (per chunk of calls) and
    thread, and kept; with ``utility=True`` ``data`` is the utility vector
    (``Exponential``: built per ``data``, ``randomise()`` takes no value).
    Picklable (sent to workers by cloudpickle); holds no library object.
    """

    def __init__(self, mechanism: str, options: dict[str, Any], utility: bool = False) -> None:
        self.mechanism, self.options, self.utility = mechanism, dict(options), utility

    def __call__(self, data: Any, random_state: Any) -> Any:
        mechanism = self._built(data, random_state)
        return mechanism.randomise() if self.utility else mechanism.randomise(data)

    def release_many(self, data: Any, random_state: Any, calls: int) -> list[Any]:
        """``calls`` successive calls at once (:func:`~dpverify.auditing.adapters.sampler_from_calls`
        uses it for a chunk): the same draws from ``random_state``, without a per-call lookup."""
        mechanism = self._built(data, random_state)
        if self.utility:
            return [mechanism.randomise() for _ in range(calls)]
        return [mechanism.randomise(data) for _ in range(calls)]

    def _built(self, data: Any, random_state: Any) -> Any:
        built = getattr(_BUILT, "last", None)
        if built is None or built[0] is not self or built[1] is not random_state or (
                self.utility and built[2] is not data):
            from diffprivlib import mechanisms  # deferred: optional peer library (peers-mechanisms extra)

            options = dict(self.options, random_state=random_state)
            if self.utility:
                options["utility"] = list(data)
            built = (self, random_state, data, getattr(mechanisms, self.mechanism)(**options))
            _BUILT.last = built
        return built[3]


class _ToolCall:
    """``call(data, random_state)``: ``diffprivlib.tools.<tool>(data, **options)`` on a fresh ``BudgetAccountant``."""

    def __init__(self, tool: str, options: dict[str, Any]) -> None:
        self.tool, self.options = tool, dict(options)

    def __call__(self, data: Any, random_state: Any) -> Any:
        from diffprivlib import tools  # deferred: optional peer library (peers-mechanisms extra)
        from diffprivlib.accountant import BudgetAccountant  # deferred: as above

        released = getattr(tools, self.tool)(data, **self.options, random_state=random_state,
                                             accountant=BudgetAccountant())
        return released[0] if self.tool == "histogram" else released


def _text(options: dict[str, Any]) -> str:
    return ", ".join(f"{key}={value!r}" for key, value in options.items())


def _recipe(mechanism: str, options: dict[str, Any], x: Any, x_prime: Any, guarantee: Any,
            where: dict[str, Any], utility: bool = False) -> Recipe:
    return Recipe(name=f"diffprivlib.mechanisms.{mechanism}({_text(options)})",
                  sampler=sampler_from_calls(_MechanismCall(mechanism, options, utility),
                                             seeding="random_state", **where),
                  x=x, x_prime=x_prime, guarantee=guarantee)


def _check_domain(lower: Any, upper: Any, sensitivity: float) -> tuple[float, float]:
    """``[lower, upper]`` finite and wide enough for the pair ``(lower, lower + sensitivity)``."""
    lower, upper = check_finite(lower, "lower"), check_finite(upper, "upper")
    if not lower + sensitivity <= upper:
        raise value_error("upper", upper, f">= lower + sensitivity = {lower + sensitivity!r}")
    return lower, upper


def laplace(epsilon: float = 1.0, *, sensitivity: float = 1.0, n_jobs: Any = 1,
            executor: Any = None) -> Recipe:
    """``Laplace(epsilon, sensitivity)``: claim ε-DP; pair ``(0, sensitivity)``, on which ε is tight.

    ``n_jobs``, ``executor``: where the calls run (:func:`~dpverify.auditing.adapters.sampler_from_calls`).
    Its floating-point noise (``-scale·sign(u)·ln(1 − 2|u|)``, in
    ``diffprivlib.mechanisms.laplace.Laplace._laplace_sampler``) is refuted by
    ``events="float"`` (Mironov 2012), as the tests and notebook 13 show.
    """
    epsilon, sensitivity = check_epsilon(epsilon, allow_zero=False), check_positive(sensitivity, "sensitivity")
    return _recipe("Laplace", {"epsilon": epsilon, "sensitivity": sensitivity}, 0.0, sensitivity,
                   PureDP(epsilon), {"n_jobs": n_jobs, "executor": executor})


def laplace_bounded_domain(epsilon: float = 1.0, *, sensitivity: float = 1.0, lower: float = 0.0,
                           upper: float = 4.0, n_jobs: Any = 1, executor: Any = None) -> Recipe:
    """``LaplaceBoundedDomain(epsilon, sensitivity, lower, upper)``: claim ε-DP; pair ``(lower, lower + sensitivity)``.

    The truncated-and-renormalised Laplace of Holohan et al. 2018; its scale
    is raised so that the truncation keeps ε, so the pair's true ε is below
    the claim (an audit is tight only to that).
    """
    epsilon, sensitivity = check_epsilon(epsilon, allow_zero=False), check_positive(sensitivity, "sensitivity")
    lower, upper = _check_domain(lower, upper, sensitivity)
    options = {"epsilon": epsilon, "sensitivity": sensitivity, "lower": lower, "upper": upper}
    return _recipe("LaplaceBoundedDomain", options, lower, lower + sensitivity, PureDP(epsilon),
                   {"n_jobs": n_jobs, "executor": executor})


def geometric(epsilon: float = 1.0, *, sensitivity: int = 1, n_jobs: Any = 1,
              executor: Any = None) -> Recipe:
    """``Geometric(epsilon, sensitivity)`` (two-sided geometric on integers): claim ε-DP; pair ``(0, sensitivity)``, tight."""
    epsilon, sensitivity = check_epsilon(epsilon, allow_zero=False), check_positive_int(sensitivity, "sensitivity")
    return _recipe("Geometric", {"epsilon": epsilon, "sensitivity": sensitivity}, 0, sensitivity,
                   PureDP(epsilon), {"n_jobs": n_jobs, "executor": executor})


def exponential(epsilon: float = 1.0, *, categories: int = 8, n_jobs: Any = 1,
                executor: Any = None) -> Recipe:
    """``Exponential(epsilon, sensitivity=1, utility)`` over ``categories`` candidates: claim ε-DP.

    Pair: utilities ``(1, 0, …, 0)`` and ``(0, 1, …, 1)`` (every utility moves
    by the sensitivity, candidate 0 against all others). Candidate 0's
    probability ratio is ``e^{ε/2}(1 + (k−1)e^{ε/2})/(e^{ε/2} + k − 1)``,
    which tends to ``e^ε`` as ``k = categories`` grows (at ε = 1, k = 8:
    0.872).
    """
    epsilon = check_epsilon(epsilon, allow_zero=False)
    categories = check_int_at_least(categories, "categories", 2)
    x = (1.0,) + (0.0,) * (categories - 1)
    x_prime = (0.0,) + (1.0,) * (categories - 1)
    return _recipe("Exponential", {"epsilon": epsilon, "sensitivity": 1.0}, x, x_prime,
                   PureDP(epsilon), {"n_jobs": n_jobs, "executor": executor}, utility=True)


def gaussian_analytic(epsilon: float = 1.0, delta: float = 1e-5, *, sensitivity: float = 1.0,
                      n_jobs: Any = 1, executor: Any = None) -> Recipe:
    """``GaussianAnalytic(epsilon, delta, sensitivity)`` (Balle & Wang 2018): claim (ε, δ)-DP; pair ``(0, sensitivity)``.

    Tight in the analytic sense (σ is the smallest for (ε, δ)); counting
    certifies only part of ε at small δ (``docs/proofs/auditing.md`` §6).
    """
    epsilon, sensitivity = check_epsilon(epsilon, allow_zero=False), check_positive(sensitivity, "sensitivity")
    guarantee = ApproxDP(epsilon, delta)
    return _recipe("GaussianAnalytic", {"epsilon": epsilon, "delta": guarantee.delta,
                                        "sensitivity": sensitivity},
                   0.0, sensitivity, guarantee, {"n_jobs": n_jobs, "executor": executor})


def binary(epsilon: float = 1.0, *, n_jobs: Any = 1, executor: Any = None) -> Recipe:
    """``Binary(epsilon, value0="0", value1="1")`` (randomized response on two labels): claim ε-DP; pair ``("0", "1")``, tight."""
    epsilon = check_epsilon(epsilon, allow_zero=False)
    return _recipe("Binary", {"epsilon": epsilon, "value0": "0", "value1": "1"}, "0", "1",
                   PureDP(epsilon), {"n_jobs": n_jobs, "executor": executor})


def snapping(epsilon: float = 1.0, *, sensitivity: float = 1.0, lower: float = 0.0,
             upper: float = 4.0, n_jobs: Any = 1, executor: Any = None) -> Recipe:
    """``Snapping(epsilon, sensitivity, lower, upper)``: claim ε-DP; pair ``(lower, lower + sensitivity)``.

    Mironov 2012's float-safe Laplace: outputs are clamped to
    ``[lower, upper]`` and snapped to a power-of-two grid.
    """
    epsilon, sensitivity = check_epsilon(epsilon, allow_zero=False), check_positive(sensitivity, "sensitivity")
    lower, upper = _check_domain(lower, upper, sensitivity)
    options = {"epsilon": epsilon, "sensitivity": sensitivity, "lower": lower, "upper": upper}
    return _recipe("Snapping", options, lower, lower + sensitivity, PureDP(epsilon),
                   {"n_jobs": n_jobs, "executor": executor})


def _tool(tool: str, options: dict[str, Any], x: Any, x_prime: Any, epsilon: float,
          neighbouring: str, where: dict[str, Any]) -> Recipe:
    return Recipe(name=f"diffprivlib.tools.{tool}(array, {_text(options)})",
                  sampler=sampler_from_calls(_ToolCall(tool, options), seeding="random_state",
                                             **where),
                  x=x, x_prime=x_prime, guarantee=PureDP(epsilon), neighbouring=neighbouring)


def mean(epsilon: float = 1.0, *, users: int = 10, n_jobs: Any = 1, executor: Any = None) -> Recipe:
    """``tools.mean(array, epsilon, bounds=(0, 1))`` on ``users`` records: claim ε-DP under replace-one.

    Pair: all zeros, and all zeros but the last record 1 (the mean moves by
    the sensitivity ``1/users`` diffprivlib uses).
    """
    epsilon, users = check_epsilon(epsilon, allow_zero=False), check_positive_int(users, "users")
    x = np.zeros(users)
    x_prime = x.copy()
    x_prime[-1] = 1.0
    return _tool("mean", {"epsilon": epsilon, "bounds": (0.0, 1.0)}, x, x_prime, epsilon,
                 "replace-one", {"n_jobs": n_jobs, "executor": executor})


def var(epsilon: float = 1.0, *, users: int = 10, n_jobs: Any = 1, executor: Any = None) -> Recipe:
    """``tools.var(array, epsilon, bounds=(0, 1))`` on ``users`` records: claim ε-DP under replace-one.

    Pair: all zeros (variance 0) and all zeros but one 1 (variance
    ``(users − 1)/users²``, diffprivlib's sensitivity).
    """
    epsilon = check_epsilon(epsilon, allow_zero=False)
    users = check_int_at_least(users, "users", 2)
    x = np.zeros(users)
    x_prime = x.copy()
    x_prime[-1] = 1.0
    return _tool("var", {"epsilon": epsilon, "bounds": (0.0, 1.0)}, x, x_prime, epsilon,
                 "replace-one", {"n_jobs": n_jobs, "executor": executor})


def histogram(epsilon: float = 1.0, *, users: int = 10, bins: int = 4, n_jobs: Any = 1,
              executor: Any = None) -> Recipe:
    """``tools.histogram(sample, epsilon, bins, range=(0, 1))``: claim ε-DP under add-remove (one record more).

    Output: the noisy counts (a vector of ``bins``). Pair: ``users`` records
    spread over the bins, and the same with one record more in bin 0.
    """
    epsilon = check_epsilon(epsilon, allow_zero=False)
    users, bins = check_positive_int(users, "users"), check_positive_int(bins, "bins")
    x = (np.arange(users) % bins + 0.5) / bins
    x_prime = np.append(x, 0.5 / bins)
    return _tool("histogram", {"epsilon": epsilon, "bins": bins, "range": (0.0, 1.0)}, x,
                 x_prime, epsilon, "add-remove", {"n_jobs": n_jobs, "executor": executor})


#: The mechanism recipes by diffprivlib's class name.
MECHANISM_RECIPES = {"Laplace": laplace, "LaplaceBoundedDomain": laplace_bounded_domain,
                     "Geometric": geometric, "Exponential": exponential,
                     "GaussianAnalytic": gaussian_analytic, "Binary": binary,
                     "Snapping": snapping}
#: The tool recipes by diffprivlib's function name.
TOOL_RECIPES = {"mean": mean, "var": var, "histogram": histogram}
