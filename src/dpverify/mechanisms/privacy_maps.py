"""Privacy maps: (mechanism, sensitivity, neighbouring relation) → guarantee, through a registry.

A privacy map is a pure function registered for a (mechanism type, guarantee
type) pair with :func:`register_privacy_map`, as pyro's ``register_kl`` does
for KL divergences: adding a mechanism never edits a central ``isinstance``
chain. :func:`privacy_map` looks the pair up along the mechanism's MRO; with
no ``target`` it returns the first map registered for the type (each module
registers its tightest guarantee first). An unsupported pair raises
:class:`~dpverify.errors.UnsupportedError` naming the supported ones.
"""

from __future__ import annotations

import importlib
import inspect
import warnings
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any, TypeVar

import mpmath

from dpverify._deprecation import renamed_parameters
from dpverify._numeric import working_precision
from dpverify._validation import check_instance, check_positive, shown, value_error
from dpverify.errors import DpverifyTypeError, UnsupportedError
from dpverify.guarantees import ZCDP, ApproxDP, Guarantee, PrivacyProfile, PureDP, RDPCurve
from dpverify.mechanisms._lattice import convert
from dpverify.neighbouring import Neighbouring

__all__ = [
    "privacy_map",
    "register_privacy_map",
    "supported_guarantees",
    "pmf_pair_profile",
]

PrivacyMapFunction = Callable[..., Guarantee]
F = TypeVar("F", bound=PrivacyMapFunction)

_GUARANTEE_TYPES = (PureDP, ApproxDP, ZCDP, RDPCurve, PrivacyProfile)
_REGISTRY: dict[type, dict[type, PrivacyMapFunction]] = {}


def register_privacy_map(mechanism_type: type, guarantee_type: type) -> Callable[[F], F]:
    """Decorator registering ``function(mechanism, *, sensitivity, neighbouring)`` for a pair.

    ``neighbouring`` is a :class:`~dpverify.neighbouring.Neighbouring` member.
    The first guarantee type registered for a mechanism type is its default.
    Registering the same pair twice is a programming error (``ValueError``),
    so a later definition can never silently win (autodp's pitfall). A map
    written for dpverify 0.1, taking ``relation`` instead of ``neighbouring``,
    still works for one release, with a :class:`DeprecationWarning` at
    registration.
    """
    if guarantee_type not in _GUARANTEE_TYPES:
        raise DpverifyTypeError(f"guarantee_type={guarantee_type!r} must be one of "
                                f"{', '.join(t.__name__ for t in _GUARANTEE_TYPES)}")

    check_instance(mechanism_type, "mechanism_type", type, "a class")
    check_instance(guarantee_type, "guarantee_type", type, "a guarantee class")

    def decorator(function: F) -> F:
        maps = _REGISTRY.setdefault(mechanism_type, {})
        if guarantee_type in maps:
            raise ValueError(f"a privacy map for ({mechanism_type.__name__}, "
                             f"{guarantee_type.__name__}) is already registered")
        maps[guarantee_type] = _with_neighbouring_keyword(function)
        return function

    return decorator


def _with_neighbouring_keyword(function: PrivacyMapFunction) -> PrivacyMapFunction:
    """A 0.1 map taking ``relation=`` called as ``neighbouring=`` (deprecated for one release)."""
    try:
        parameters = inspect.signature(function).parameters
    except (TypeError, ValueError):
        return function
    if "relation" not in parameters or "neighbouring" in parameters:
        return function
    warnings.warn(f"privacy map {getattr(function, '__qualname__', function)!r}: the keyword "
                  "'relation' is deprecated and will be removed in the next release; "
                  "name it 'neighbouring'", DeprecationWarning, stacklevel=3)

    def translated(mechanism: Any, *, neighbouring: Neighbouring, **kwargs: Any) -> Guarantee:
        return function(mechanism, relation=neighbouring, **kwargs)

    return translated


def _maps_for(mechanism_type: type) -> dict[type, PrivacyMapFunction]:
    for klass in mechanism_type.__mro__:
        if klass in _REGISTRY:
            return _REGISTRY[klass]
    return {}


def _maps_of(mechanism: Any) -> dict[type, PrivacyMapFunction]:
    """The maps registered for ``mechanism``'s type; :class:`UnsupportedError` naming it if none."""
    maps = _maps_for(type(mechanism))
    if not maps:
        known = ", ".join(sorted(t.__name__ for t in _REGISTRY))
        raise UnsupportedError(f"no privacy map for {type(mechanism).__name__} "
                               f"(mechanism={shown(mechanism)}); mechanisms with maps: {known}")
    return maps


def supported_guarantees(mechanism: Any) -> tuple[type, ...]:
    """Guarantee types that :func:`privacy_map` can return for ``mechanism`` (default first).

    Raises :class:`~dpverify.errors.UnsupportedError` naming ``mechanism`` when its type has
    no privacy map (as :func:`privacy_map` does).
    """
    _ensure_registered()
    return tuple(_maps_of(mechanism))


@renamed_parameters(relation="neighbouring")
def privacy_map(mechanism: Any, *, sensitivity: float = 1.0,
                neighbouring: Neighbouring | str = Neighbouring.REPLACE_ONE,
                target: type | None = None) -> Guarantee:
    """Return the privacy guarantee of ``mechanism`` for a query of the given sensitivity.

    Parameters
    ----------
    mechanism
        A dpverify mechanism value (``DiscreteLaplace(scale=2.0)``, ...).
    sensitivity
        Sensitivity of the query the mechanism privatises, in the norm the
        mechanism's documentation states (ℓ1 for Laplace noise, ℓ2 for
        Gaussian noise, ...); > 0.
    neighbouring
        Neighbouring relation of the datasets, a :class:`~dpverify.neighbouring.Neighbouring`
        or its string (default ``"replace-one"``: a mechanism's input pair has one size).
    target
        Guarantee type wanted (``PureDP``, ``ZCDP``, ``RDPCurve``,
        ``PrivacyProfile``, ``ApproxDP``); default: the mechanism's tightest.
        With no map registered for it, a registered guarantee is converted
        along the lattice soundly (:mod:`dpverify.mechanisms._lattice`: e.g.
        Laplace's ε-DP to (ε, 0)-DP, ε²/2-zCDP or an RDP curve; a Gaussian's
        zCDP to its RDP curve).

    Raises
    ------
    UnsupportedError
        If no map is registered for the pair; the message names the supported
        guarantee types.
    """
    _ensure_registered()
    sensitivity = check_positive(sensitivity, "sensitivity")
    neighbouring = Neighbouring.parse(neighbouring)
    maps = _maps_of(mechanism)
    if target is None:
        target = next(iter(maps))
    elif not isinstance(target, type):
        raise DpverifyTypeError(f"target={shown(target)} must be a guarantee type such as "
                                f"{', '.join(t.__name__ for t in maps)}, or None")
    if target not in maps:
        converted = convert({kind: (lambda f=function: f(mechanism, sensitivity=sensitivity,
                                                        neighbouring=neighbouring))
                             for kind, function in maps.items()}, target)
        if converted is not None:
            return converted
        supported = ", ".join(t.__name__ for t in maps)
        raise UnsupportedError(f"no {getattr(target, '__name__', target)} map for "
                               f"{type(mechanism).__name__}; supported: {supported} "
                               "(and what they convert to soundly)")
    return maps[target](mechanism, sensitivity=sensitivity, neighbouring=neighbouring)


def _exact(value: Any, name: str) -> mpmath.mpf:
    """An exact rational or float probability as an mpmath number."""
    if isinstance(value, Fraction):
        return mpmath.mpf(value.numerator) / value.denominator
    try:
        return mpmath.mpf(value)
    except (TypeError, ValueError):
        raise DpverifyTypeError(f"{name} has an entry {value!r} that is not a number") from None


@renamed_parameters(p="pmf", q="pmf_prime")
def pmf_pair_profile(pmf: Sequence[Any], pmf_prime: Sequence[Any], *,
                     description: str = "pair of finite pmfs") -> PrivacyProfile:
    """Exact privacy profile of one ordered pair of finite pmfs on the same outcomes.

    .. math:: δ(ε) = \\sum_o \\max(0,\\; p(o) - e^{ε} q(o))

    with p = ``pmf`` (the output's pmf on x) and q = ``pmf_prime`` (on x′): the
    hockey-stick divergence ``H_{e^ε}(p \\| q)``. Entries may be floats,
    Fractions or mpmath numbers; they are taken as exact. For a mechanism's
    guarantee take the maximum over both orders and over every neighbouring
    pair (the worst pair of a randomized response, say).

    >>> profile = pmf_pair_profile([0.75, 0.25], [0.25, 0.75])
    >>> round(profile.delta_for_epsilon(0.0), 12)
    0.5
    """
    p, q = pmf, pmf_prime
    for name, values in (("pmf", p), ("pmf_prime", q)):
        if isinstance(values, (str, bytes)) or not hasattr(values, "__len__") or isinstance(
                values, Mapping):
            raise DpverifyTypeError(f"{name}={shown(values)} must be a sequence of probabilities, "
                                    f"not {type(values).__name__}")
    if len(p) != len(q) or not len(p):
        raise value_error("pmf_prime", q, f"a pmf of the same non-zero length as pmf ({len(p)})")
    with working_precision():
        first, second = [_exact(v, "pmf") for v in p], [_exact(v, "pmf_prime") for v in q]
    for name, values in (("pmf", first), ("pmf_prime", second)):
        if any(not (v >= 0) for v in values) or abs(sum(values) - 1) > 1e-9:
            raise value_error(name, list(values)[:8], "a pmf: non-negative entries summing to 1")

    def curve(epsilon: mpmath.mpf) -> mpmath.mpf:
        factor = mpmath.exp(epsilon)
        return mpmath.fsum(max(mpmath.mpf(0), a - factor * b) for a, b in zip(first, second))

    return PrivacyProfile(curve, description=description, relative_error=1e-40)


_REGISTERED = False


def _ensure_registered() -> None:
    """Import the modules that register maps (kept lazy so this module stays light)."""
    global _REGISTERED
    if not _REGISTERED:
        _REGISTERED = True
        for module in ("dpverify.mechanisms._noise_maps", "dpverify.mechanisms._local_maps",
                       "dpverify.mechanisms.mixture", "dpverify.mechanisms.truncated_discrete_gaussian"):
            try:
                importlib.import_module(module)
            except ModuleNotFoundError as error:
                if error.name != module:
                    raise
