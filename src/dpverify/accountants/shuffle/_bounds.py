"""Registry and evaluation of the shuffle-amplification bounds (private helper of ``shuffle``).

Holds :class:`ShuffleBound`, the registry :data:`SHUFFLE_BOUNDS` with the
built-in bounds, argument checks, and the mpmath evaluation of one bound
(or ``"best"``) that both the forward bounds and the inverse searches of
:mod:`dpverify.accountants.shuffle.amplification` use.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np

import dpverify.accountants.shuffle._closed_forms as closed
import dpverify.accountants.shuffle._numerical as numerical
from dpverify._numeric import round_up, working_precision
from dpverify._validation import check_choice, check_delta, check_epsilon, check_positive_int, value_error
from dpverify.accountants.shuffle._exact import (
    _LARGE_N,
    MAX_EXACT_SHUFFLE_USERS,
    delta_at_most,
    shuffled_binary_rr_epsilon,
)
from dpverify.accountants.shuffle._screen import clearly_fails
from dpverify.errors import DpverifyTypeError, DpverifyValueError, UnsupportedError
from dpverify.mechanisms.randomized_response import BinaryRandomizedResponse, RandomizedResponse

__all__ = [
    "ShuffleBound",
    "SHUFFLE_BOUNDS",
    "Randomizer",
    "register_shuffle_bound",
    "bound_value",
    "check_bound_name",
    "check_randomizer",
    "checked_forward",
    "passes_budget",
]

Randomizer = BinaryRandomizedResponse | RandomizedResponse | None

@dataclass(frozen=True, slots=True)
class ShuffleBound:
    """A registered amplification bound.

    ``epsilon(local_epsilon, n, delta, randomizer)`` returns an mpmath upper
    bound on ε (relative error below ``1e-40``); ``check`` (same arguments)
    raises :class:`ValueError` naming the violated validity condition.
    ``randomizers`` is ``None`` for bounds proven for every ε0-LDP randomizer,
    otherwise the randomizer classes the bound is proven for. ``approximate``
    (optional) is a float64 numpy twin of ``epsilon`` for generic randomizers,
    ``inf`` outside the validity region, used only to locate roots.
    ``meets(local_epsilon, n, delta, target)`` (optional, generic randomizers)
    is a faster mpmath form of "``check`` passes and ``epsilon <= target``"
    for the inverse searches.
    """

    name: str
    epsilon: Callable[[float, int, float, Any], mpmath.mpf]
    check: Callable[[float, int, float, Any], None]
    randomizers: tuple[type, ...] | None = None
    approximate: Callable[[np.ndarray, np.ndarray, float], np.ndarray] | None = None
    meets: Callable[[float, int, float, float], bool] | None = None

    def supports(self, randomizer: Randomizer) -> bool:
        """Whether the bound is proven for ``randomizer`` (None: a generic ε0-LDP randomizer)."""
        if self.randomizers is None:
            return True
        return randomizer is not None and isinstance(randomizer, self.randomizers)


#: name → :class:`ShuffleBound`; extend it with :func:`register_shuffle_bound`.
SHUFFLE_BOUNDS: dict[str, ShuffleBound] = {}


def register_shuffle_bound(name: str, *, epsilon: Callable[..., mpmath.mpf],
                           check: Callable[..., None], randomizers: Sequence[type] | None,
                           approximate: Callable[..., np.ndarray] | None = None,
                           meets: Callable[..., bool] | None = None,
                           replace: bool = False) -> ShuffleBound:
    """Register an amplification bound under ``name`` and return it.

    ``randomizers=None`` declares the bound proven for every ε0-LDP
    randomizer; otherwise pass the classes it is proven for (calls with other
    randomizers raise :class:`~dpverify.errors.UnsupportedError`).

    >>> from dpverify.accountants.shuffle import amplified_epsilon
    >>> bound = register_shuffle_bound("doc-example", epsilon=lambda e, n, d, r: mpmath.mpf(e),
    ...                                check=lambda e, n, d, r: None, randomizers=None)
    >>> amplified_epsilon(0.5, 10, 1e-6, bound="doc-example") >= 0.5
    True
    >>> del SHUFFLE_BOUNDS["doc-example"]
    """
    if not isinstance(name, str) or not name or name == "best":
        raise value_error("name", name, "a non-empty string other than 'best'")
    if name in SHUFFLE_BOUNDS and not replace:
        raise value_error("name", name, "not already registered", "pass replace=True to replace it")
    if not (callable(epsilon) and callable(check)):
        raise DpverifyTypeError("epsilon and check must be callables (local_epsilon, n, delta, "
                                "randomizer)")
    classes = None if randomizers is None else tuple(randomizers)
    bound = ShuffleBound(name, epsilon, check, classes, approximate, meets)
    SHUFFLE_BOUNDS[name] = bound
    return bound


def blanket_k(randomizer: Randomizer) -> int:
    return 2 if isinstance(randomizer, BinaryRandomizedResponse) else randomizer.categories


register_shuffle_bound(
    "fmt2021", epsilon=lambda e, n, d, r: closed.fmt2021_epsilon(e, n, d),
    check=lambda e, n, d, r: closed.fmt2021_check(e, n, d), randomizers=None,
    approximate=closed.fmt2021_epsilon_array, meets=closed.fmt2021_meets)
register_shuffle_bound(
    "fmt2021-tight", epsilon=lambda e, n, d, r: closed.fmt2021_tight_epsilon(e, n, d),
    check=lambda e, n, d, r: closed.fmt2021_tight_check(e, n, d), randomizers=None,
    approximate=closed.fmt2021_tight_epsilon_array)
register_shuffle_bound(
    "erlingsson2019", epsilon=lambda e, n, d, r: closed.erlingsson2019_epsilon(e, n, d),
    check=lambda e, n, d, r: closed.erlingsson2019_check(e, n, d), randomizers=None)
register_shuffle_bound(
    "balle2019", epsilon=lambda e, n, d, r: closed.balle2019_epsilon(e, n, d, blanket_k(r)),
    check=lambda e, n, d, r: closed.balle2019_check(e, n, d, blanket_k(r)),
    randomizers=(BinaryRandomizedResponse, RandomizedResponse))
register_shuffle_bound(
    "cheu2019", epsilon=lambda e, n, d, r: closed.cheu2019_epsilon(r.randomization_probability, n, d),
    check=lambda e, n, d, r: closed.cheu2019_check(r.randomization_probability, n, d),
    randomizers=(BinaryRandomizedResponse,))
register_shuffle_bound(
    "fmt2021-numerical",
    epsilon=lambda e, n, d, r: mpmath.mpf(numerical.fmt_numerical_epsilon(e, n, d)),
    check=lambda e, n, d, r: numerical.check_users(n), randomizers=None)
register_shuffle_bound(
    "variation-ratio",
    epsilon=lambda e, n, d, r: mpmath.mpf(numerical.variation_ratio_epsilon(e, n, d,
                                                                            k=blanket_k(r))),
    check=lambda e, n, d, r: numerical.check_users(n),
    randomizers=(BinaryRandomizedResponse, RandomizedResponse))


def check_bound_name(bound: Any) -> str:
    return check_choice(bound, "bound", (*SHUFFLE_BOUNDS, "best"))


def check_randomizer(randomizer: Any, local_epsilon: float) -> float:
    """Validate ``randomizer``; return the ε0 to account with (at least the randomizer's own)."""
    if randomizer is None:
        return local_epsilon
    if isinstance(randomizer, BinaryRandomizedResponse):
        p = mpmath.mpf(randomizer.randomization_probability)
        with working_precision():
            own = mpmath.log((2 - p) / p)
    elif isinstance(randomizer, RandomizedResponse):
        own = mpmath.mpf(randomizer.epsilon)
    else:
        raise DpverifyTypeError(f"randomizer={randomizer!r} must be None (a generic ε0-LDP "
                                "randomizer), a BinaryRandomizedResponse or a RandomizedResponse")
    if own > local_epsilon * (1 + 1e-9) + 1e-300:
        raise value_error("local_epsilon", local_epsilon, f"at least the randomizer's own ε0 = "
                          f"{mpmath.nstr(own, 12)}", f"randomizer={randomizer!r}")
    # Any randomizer is also ε0'-LDP for ε0' >= its own ε0, and every bound increases in ε0.
    return max(local_epsilon, round_up(own, relative_error=closed.FORMULA_RELATIVE_ERROR))


def unsupported(bound: ShuffleBound, randomizer: Randomizer) -> UnsupportedError:
    names = ", ".join(c.__name__ for c in bound.randomizers or ())
    given = "a generic ε0-LDP randomizer (randomizer=None)" if randomizer is None \
        else type(randomizer).__name__
    return UnsupportedError(f"bound={bound.name!r} is proven only for {names}, not for {given}; "
                            "pass randomizer=... or use a generic bound such as 'fmt2021'")


def _exact_binary_rr_epsilon(randomizer: Randomizer, n: int, delta: float) -> mpmath.mpf | None:
    """The exact shuffled binary-RR ε (rounded up) when ``randomizer`` is binary RR, else None."""
    if not isinstance(randomizer, BinaryRandomizedResponse):
        return None
    return mpmath.mpf(shuffled_binary_rr_epsilon(randomizer.randomization_probability, n, delta))


def bound_value(name: str, local_epsilon: float, n: int, delta: float,
                 randomizer: Randomizer) -> mpmath.mpf:
    """The named bound in mpmath, after its validity check; ``"best"`` is the valid minimum.

    For a binary randomized response ``"best"`` also takes the **exact**
    shuffled binary-RR ε (:func:`~dpverify.accountants.shuffle.amplification.shuffled_binary_rr_epsilon`,
    valid for every n and δ), which no closed form beats.
    """
    if name != "best":
        bound = SHUFFLE_BOUNDS[name]
        if not bound.supports(randomizer):
            raise unsupported(bound, randomizer)
        bound.check(local_epsilon, n, delta, randomizer)
        return bound.epsilon(local_epsilon, n, delta, randomizer)
    values, reasons = [], []
    for bound in SHUFFLE_BOUNDS.values():
        if bound.randomizers is not None and not bound.supports(randomizer):
            continue
        try:
            bound.check(local_epsilon, n, delta, randomizer)
        except DpverifyValueError as error:
            reasons.append(str(error))
            continue
        values.append(bound.epsilon(local_epsilon, n, delta, randomizer))
    exact = _exact_binary_rr_epsilon(randomizer, n, delta)
    if exact is not None:
        values.append(exact)
    if not values:
        raise DpverifyValueError("bound='best': no registered bound is valid here: "
                                 + " | ".join(reasons))
    return min(values)


def passes_budget(name: str, local_epsilon: float, n: int, delta: float, randomizer: Randomizer,
            target: float) -> bool:
    """The budget predicate of the searches: valid here and the bound is ``<= target``.

    A budget below the true ε of the shuffled randomizer
    (:func:`~dpverify.accountants.shuffle._screen.clearly_fails`, a proven lower bound) fails
    at once: no sound bound can meet it, and the numerical bounds took seconds per batch size
    to say so (``plan shuffle --local-epsilon 1 --epsilon 1e-300``: 12-20 s). Every "passes"
    is still decided by the bound itself.
    """
    if clearly_fails(local_epsilon, n, delta, randomizer, target):
        return False
    bound = SHUFFLE_BOUNDS.get(name)
    if bound is not None and bound.meets is not None and randomizer is None:
        return bound.meets(local_epsilon, n, delta, target)
    if name == "best" and isinstance(randomizer, BinaryRandomizedResponse):
        # the exact shuffled binary RR meets ε = target iff its exact δ(target) <= δ (an upper
        # bound on δ); every valid closed form bounds the same true ε from above, so none can
        # pass where the exact one fails (up to the exact δ's upward rounding): decide here
        check_positive_int(n, "users", maximum=MAX_EXACT_SHUFFLE_USERS, instead=_LARGE_N)
        return delta_at_most(randomizer.randomization_probability, n, target, delta)[0]
    try:
        value = bound_value(name, local_epsilon, n, delta, randomizer)
    except DpverifyValueError:
        return False
    return value * (1 + closed.FORMULA_RELATIVE_ERROR) <= target


def checked_forward(local_epsilon: Any, n: Any, delta: Any, bound: Any) -> tuple:
    return (check_epsilon(local_epsilon, "local_epsilon"), check_positive_int(n, "users"),
            check_delta(delta, "delta", allow_zero=False), check_bound_name(bound))
