"""The fuzz harness: rows, hostile values, and outcome classes (the worker: :mod:`fuzz._worker`).

A :class:`Row` is one public callable with a *valid* base call. The harness
substitutes one hostile value at a time for one parameter (every parameter of
the signature and every key of the base call) and runs the call in a forked
worker process under a CPU-time budget (with a wall-clock cap for calls that
block without computing) and an address-space cap (``resource.setrlimit``). Each call ends in exactly one outcome:

``refused``
    ``ValueError``/``TypeError`` (or a :class:`~dpverify.errors.DpverifyError`)
    raised by dpverify's own code, whose message names the parameter.
``ok``
    a result whose numbers are all finite, for a value that is not invalid.
``unclear``
    a refusal from dpverify's code that does not name the parameter.
``accepted-invalid``
    a result for a value that is invalid for this parameter (NaN, a string, a
    bool, δ ≥ 1, a negative count, ...).
``nan``
    a result containing NaN or an infinity.
``numpy-error``
    ``ValueError``/``TypeError`` raised from inside numpy, scipy, mpmath or the
    standard library rather than by dpverify.
``crash``
    any other exception (``OverflowError``, ``AttributeError``, ...).
``hang``
    the call used more than the timeout in CPU seconds (its worker's own time,
    so a loaded machine does not turn a slow call into a hang), or did not
    finish within :data:`fuzz._worker.WALL_FACTOR` times the timeout of wall time.
``oom``
    ``MemoryError`` under the cap, or the worker died.

Only ``refused`` and ``ok`` pass. Adding a row: see ``tests/fuzz/README.md``.
"""

from __future__ import annotations

import dataclasses
import decimal
import fractions
import inspect
import math
import numbers
import os
import traceback
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

PASSING = ("refused", "ok")
OUTCOMES = ("refused", "ok", "unclear", "accepted-invalid", "nan", "numpy-error", "crash", "hang",
            "oom")


class _Rng:
    """Placeholder for a fresh ``numpy.random.default_rng(0)`` built at each call."""

    def __repr__(self) -> str:
        return "RNG"


RNG = _Rng()


@dataclasses.dataclass(frozen=True)
class Row:
    """One public callable and a valid base call.

    Parameters
    ----------
    call
        The callable (a function, class, bound or unbound method).
    kwargs
        Valid keyword arguments (or a zero-argument function returning them, for
        values that must be fresh at every call). :data:`RNG` stands for a fresh
        seeded generator.
    skip
        Parameters not fuzzed, each with the reason.
    kinds
        Domain overrides for parameters whose name does not tell the harness what
        is invalid (see :func:`invalid_for`): ``"real"``, ``"count"``, ``"shape"`` (numpy's
        ``size``: a count, a tuple of counts (``()`` gives a scalar, as numpy's does) or None),
        ``"epsilon"``, ``"delta"``, ``"probability"``, ``"positive"``,
        ``"flag"``, ``"text"``, ``"sequence"``, ``"array"`` (a real scalar or array),
        ``"object"``, ``"any"`` (only NaN, complex and opaque objects are invalid),
        ``"anything"`` (no value is invalid).
    allow_infinite
        The result may hold ±inf legitimately (e.g. ε = inf is the honest answer): ``True``,
        or a predicate on the call's keyword arguments saying when (``exact_epsilon``: ε = inf
        exactly when one pmf charges an outcome the other does not).
    ok_exceptions
        Exceptions that are a legitimate answer (``AssertionError`` from an assertion helper).
    carries
        Parameters whose value the result holds unchanged, as an attribute of the same
        name: user data such as an audit's input pair, where a NaN is the user's datum,
        not a NaN result. The harness checks that the attribute *is* the value given
        (anything else is ``nan``) and checks the rest of the result as usual.
    avoid
        Values of a parameter that start legitimate long work (e.g. ``panels=None``
        runs a whole experiment); they are not tried.
    cases
        Regression values beyond the fixed set, by parameter: hostile values that once
        failed (a hang, a refusal naming a derived word), run with the fixed calls.
    cases_only
        Run only ``cases`` (a second row of a callable whose parameters another row fuzzes,
        kept for a base call the cases need).
    """

    call: Callable[..., Any]
    kwargs: Mapping[str, Any] | Callable[[], Mapping[str, Any]] = dataclasses.field(
        default_factory=dict)
    skip: Mapping[str, str] = dataclasses.field(default_factory=dict)
    kinds: Mapping[str, str] = dataclasses.field(default_factory=dict)
    allow_infinite: bool | Callable[[Mapping[str, Any]], bool] = False
    avoid: Mapping[str, tuple[Any, ...]] = dataclasses.field(default_factory=dict)
    ok_exceptions: tuple[type[BaseException], ...] = ()
    carries: tuple[str, ...] = ()
    cases: Mapping[str, tuple[Any, ...]] = dataclasses.field(default_factory=dict)
    cases_only: bool = False

    def base_kwargs(self) -> dict[str, Any]:
        raw = self.kwargs() if callable(self.kwargs) else self.kwargs
        return {k: (np.random.default_rng(0) if v is RNG else v) for k, v in raw.items()}

    def parameters(self) -> dict[str, Any]:
        """Every fuzzed parameter with its base value (the default when not in the base call)."""
        base = self.base_kwargs()
        found: dict[str, Any] = {}
        try:
            signature = inspect.signature(self.call)
        except (TypeError, ValueError):
            signature = None
        if signature is not None:
            for p in signature.parameters.values():
                if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) or p.name == "self":
                    continue
                if p.kind is p.POSITIONAL_ONLY:
                    continue
                if p.name in base:
                    found[p.name] = base[p.name]
                elif p.default is not p.empty:
                    found[p.name] = p.default
        for name, value in base.items():
            found.setdefault(name, value)
        return {k: v for k, v in found.items() if k not in self.skip}


# --------------------------------------------------------------------------- hostile values

class _Opaque:
    """An object of no expected type (picklable)."""

    def __repr__(self) -> str:
        return "<opaque object>"


CANONICAL: tuple[Any, ...] = (
    math.nan, math.inf, -math.inf, 0, 0.0, -1, -1.0, -1e-300, 5e-324, 1e-300,
    1.5, 1.0, 10**8, 10**9, 2**63, 10**30, 10**1000, 1e308, 1e300,
    "1", "", None, True, False, 1 + 1j, decimal.Decimal("0.5"), fractions.Fraction(1, 2),
    np.float64(math.nan), np.int64(-1), np.float32(0.25),
    [], [math.nan], [3.0, 2.0, 1.0], [1.0, 1.0], _Opaque(),
)


def hostile_values():
    """Hypothesis strategy of hostile values (seeded by the test's ``derandomize``)."""
    from hypothesis import strategies as st

    return st.one_of(
        st.sampled_from(CANONICAL),
        st.floats(allow_nan=True, allow_infinity=True),
        st.integers(min_value=-(2**80), max_value=2**80),
        st.floats(min_value=0.0, max_value=1e-250),
        st.floats(min_value=1e250, max_value=1e308),
        st.text(max_size=4),
        st.lists(st.floats(allow_nan=True, allow_infinity=True), max_size=4),
        st.lists(st.integers(min_value=-5, max_value=5), max_size=4),
    )


# --------------------------------------------------------------------------- domains

_COUNT_NAMES = {
    "k", "n", "users", "samples", "runs", "horizon", "T", "trials", "d", "dimension",
    "batch_size", "steps", "compositions", "n_jobs", "bits", "precision", "shares", "count",
    "n_arms", "order", "noise_bits", "m", "tau", "modulus", "batch_length", "min_size",
    "max_size", "max_users", "min_users", "batch_base", "terms", "active_arms", "batch_index",
    "pulls", "seed", "size", "successes", "arm", "panels_count", "fixed_users",
    "categories", "certify_samples", "first_samples", "successes_prime",
}
_PROBABILITY_NAMES = {
    "probability", "confidence", "alpha", "p", "randomization_probability", "sampling_probability",
    "tail_probability", "failure_probability", "p_lower", "p_prime_upper", "significance_level",
}
_POSITIVE_NAMES = {"sigma", "scale", "mu", "sensitivity", "sd", "norm_bound", "context_bound",
                   "variance", "l1_sensitivity", "l2_sensitivity", "rho", "shape"}


def kind_of(name: str, base: Any, row: Row) -> str:
    """The domain kind of parameter ``name`` (row override, then name, then base value)."""
    if name in row.kinds:
        return row.kinds[name]
    numeric_base = base is None or (isinstance(base, numbers.Real) and not isinstance(base, bool))
    if numeric_base:
        if name == "n_jobs":
            return "jobs"
        if name == "size":  # numpy's convention: a count or a shape tuple
            return "shape"
        if name in _COUNT_NAMES:
            return "count"
        if name in _PROBABILITY_NAMES:
            return "probability"
        if "delta" in name and not name.endswith("s"):
            return "delta"
        if "epsilon" in name and not name.endswith("s"):
            return "epsilon"
        if name in _POSITIVE_NAMES:
            return "positive"
    if base is None:
        return "any"
    if isinstance(base, bool):
        return "flag"
    if isinstance(base, numbers.Real):
        return "real"
    if isinstance(base, str):
        return "text"
    if isinstance(base, (list, tuple, np.ndarray)):
        return "sequence"
    return "object"


def _is_number(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))


def _is_nan(value: Any) -> bool:
    if not _is_number(value) or isinstance(value, numbers.Integral):
        return False
    try:
        return math.isnan(value)
    except OverflowError:  # a Fraction beyond the float range is a number, not NaN
        return False


def invalid_for(kind: str, value: Any, default_is_none: bool) -> bool:
    """Whether ``value`` is certainly invalid for a parameter of this kind.

    Values not certainly invalid may be refused or accepted; either passes if
    the refusal names the parameter or the result is finite.
    """
    if kind == "anything":
        return False
    if value is None:
        return not default_is_none and kind != "any"
    if kind == "any":
        return _is_nan(value) or isinstance(value, (complex, _Opaque))
    if kind == "flag":
        return not isinstance(value, (bool, np.bool_))
    if kind == "text":
        return not isinstance(value, str)
    if kind == "array":
        return _is_nan(value) or value is None or isinstance(
            value, (str, complex, bool, _Opaque, decimal.Decimal)) or (
            isinstance(value, list) and any(_is_nan(v) for v in value))
    if kind == "object":
        return _is_number(value) or isinstance(value, (str, complex, bool, _Opaque))
    if kind == "sequence":
        return _is_nan(value) or isinstance(value, (complex, bool, _Opaque, decimal.Decimal)) or (
            isinstance(value, list) and any(_is_nan(v) for v in value))
    if kind == "shape" and isinstance(value, (tuple, list)):
        return not all(isinstance(v, numbers.Integral) and not isinstance(v, (bool, np.bool_))
                       and v >= 0 for v in value)
    # numeric kinds (a shape's scalar form is a count)
    if kind == "shape":
        kind = "count"
    if not _is_number(value):
        return True  # str, bool, complex, Decimal, list, opaque
    if (isinstance(value, numbers.Integral) and abs(int(value)) >= 2**1000) or (
            isinstance(value, numbers.Rational) and abs(value) >= 2**1000):
        x = 2.0**1000 if value > 0 else -(2.0**1000)  # a huge exact rational is still finite
    else:
        x = float(value)
    if math.isnan(x):
        return True
    if kind == "count":
        return x < 0 or math.isinf(x) or x != math.floor(x)
    if kind == "jobs":  # -1 means every core
        return x < -1 or x == 0 or math.isinf(x) or x != math.floor(x)
    if kind == "probability":
        return not 0 <= x <= 1
    if kind == "delta":
        return not 0 <= x < 1
    if kind in ("epsilon", "positive"):
        return x < 0
    return False


# --------------------------------------------------------------------------- outcome of one call

_LIBRARY_MARKERS = (os.sep + "numpy" + os.sep, os.sep + "scipy" + os.sep, os.sep + "mpmath" + os.sep,
                    os.sep + "sympy" + os.sep)


def _raised_in_dpverify(exc: BaseException) -> bool:
    """Whether the innermost frame of the traceback is dpverify's own code."""
    tb = exc.__traceback__
    last = None
    while tb is not None:
        last = tb.tb_frame.f_code.co_filename
        tb = tb.tb_next
    return last is not None and (os.sep + "dpverify" + os.sep) in last and not any(
        m in last for m in _LIBRARY_MARKERS)


def nonfinite(result: Any, depth: int = 0) -> bool:
    """Whether ``result`` is NaN or ±inf, or holds a NaN (walking containers and dataclasses).

    Infinities *inside* records are legitimate (an event ``(-inf, t]``, an
    unbounded interval); a bare infinite number as the answer is not.
    """
    if depth > 6:
        return False
    if isinstance(result, (bool, np.bool_, str, bytes)) or result is None:
        return False
    if isinstance(result, numbers.Real):
        try:
            x = float(result)
        except OverflowError:
            return False  # a huge exact integer or fraction is finite
        return math.isnan(x) or (depth == 0 and math.isinf(x))
    if type(result).__module__.startswith("mpmath"):
        try:
            import mpmath

            return bool(mpmath.isnan(result) or (depth == 0 and mpmath.isinf(result)))
        except TypeError:
            return False
    if isinstance(result, np.ndarray):
        if result.dtype.kind in "fc":
            return bool(np.isnan(result).any()) or (depth == 0 and not np.isfinite(result).all())
        return False
    if dataclasses.is_dataclass(result) and not isinstance(result, type):
        return any(nonfinite(getattr(result, f.name, None), depth + 1)
                   for f in dataclasses.fields(result))
    if isinstance(result, Mapping):
        return any(nonfinite(v, depth + 1) for v in list(result.values())[:1000])
    if isinstance(result, (list, tuple)):
        return any(nonfinite(v, depth + 1) for v in result[:1000])
    return False


def _name_in(message: str, name: str) -> bool:
    return name in message


def classify_call(row: Row, param: str, value: Any) -> tuple[str, str]:
    """Run ``row`` with ``param`` replaced by ``value``; return (outcome, detail)."""
    from dpverify.errors import DpverifyError

    base = row.base_kwargs()
    signature_default_none = False
    try:
        p = inspect.signature(row.call).parameters.get(param)
        signature_default_none = p is not None and p.default is None
    except (TypeError, ValueError):
        pass
    base_value = base.get(param, None if signature_default_none else base.get(param))
    if param not in base:
        try:
            base_value = inspect.signature(row.call).parameters[param].default
        except (TypeError, ValueError, KeyError):
            base_value = None
    kind = kind_of(param, base_value, row)
    invalid = invalid_for(kind, value, signature_default_none or base_value is None)
    kwargs = {**base, param: value}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = row.call(**kwargs)
            if inspect.isgenerator(result):
                result = list(result)
    except MemoryError:
        return "oom", "MemoryError"
    except row.ok_exceptions:
        return "ok", ""
    except RecursionError as exc:
        return "crash", f"RecursionError: {exc}"[:300]
    except (ValueError, TypeError, DpverifyError) as exc:
        message = " ".join(f"{type(exc).__name__}: {exc}".split())
        if not _raised_in_dpverify(exc) and not isinstance(exc, DpverifyError):
            where = traceback.extract_tb(exc.__traceback__)[-1]
            return "numpy-error", f"{message[:200]} (at {os.path.basename(where.filename)}:{where.lineno})"
        if not _name_in(str(exc), param):
            return "unclear", message[:300]
        return "refused", message[:300]
    except BaseException as exc:  # noqa: BLE001 - classifying every failure is the point
        if isinstance(exc, (KeyboardInterrupt, SystemExit)) and not isinstance(exc, SystemExit):
            raise
        where = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
        at = f" (at {os.path.basename(where.filename)}:{where.lineno})" if where else ""
        return "crash", " ".join(f"{type(exc).__name__}: {exc}".split())[:250] + at
    if invalid:
        return "accepted-invalid", f"returned {type(result).__name__}"
    checked = result
    if param in row.carries:
        if getattr(result, param, None) is not value:
            return "nan", f"{param} is not carried unchanged: {getattr(result, param, None)!r}"
        checked = {f.name: getattr(result, f.name) for f in dataclasses.fields(result)
                   if f.name != param}
    allow_infinite = (row.allow_infinite(kwargs) if callable(row.allow_infinite)
                      else row.allow_infinite)
    if not allow_infinite and nonfinite(checked):
        return "nan", f"returned non-finite {' '.join(repr(result).split())[:300]}"
    return "ok", ""



def row_tasks(key: str, row: Any, params: Sequence[str], values: Sequence[Any]
              ) -> list[tuple[str, str, Any]]:
    """The row's calls: every value for every parameter (unless ``cases_only``), then its cases."""
    tasks = [] if row.cases_only else [(key, p, v) for p in params for v in values
                                       if not avoided(row, p, v)]
    return tasks + [(key, p, v) for p, case_values in row.cases.items() for v in case_values]


def avoided(row: Any, param: str, value: Any) -> bool:
    """Whether ``value`` is one the row does not try for ``param`` (same type and value)."""
    return any(type(value) is type(v) and value == v
               for v in getattr(row, "avoid", {}).get(param, ()))


def describe(value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"<integer of {value.bit_length()} bits>"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def sequence_values(values: Sequence[Any]) -> list[Any]:
    return list(values)


# --------------------------------------------------------------------------- the command line

CLI_HOSTILE: tuple[str, ...] = (
    "nan", "inf", "-inf", "0", "-1", "-0", "1e-300", "5e-324", "1e308", "1e400", "1.5",
    "1e8", "1e9", "1e15", "9223372036854775808", "1" + "0" * 30, "abc", "", "0x10", "1e",
)


@dataclasses.dataclass(frozen=True)
class CliRow:
    """A valid ``dpverify`` command line; every option of its (sub-)command gets hostile values."""

    argv: tuple[str, ...]
    skip: Mapping[str, str] = dataclasses.field(default_factory=dict)
    avoid: Mapping[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    #: As :class:`Row`'s: regression values by option, and whether to run only those.
    cases: Mapping[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    cases_only: bool = False


def cli_options(argv: Sequence[str]) -> dict[str, Any]:
    """The value-taking options of the (sub-)command ``argv`` runs: option string -> action."""
    import argparse

    from dpverify.cli import build_parser

    parser = build_parser()
    for token in argv:
        sub = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)),
                   None)
        if sub is None or token not in sub.choices:
            break
        parser = sub.choices[token]
    return {a.option_strings[-1]: a for a in parser._actions  # hidden: deprecated spellings
            if a.option_strings and a.nargs != 0 and a.dest not in ("help", "version")
            and a.help != argparse.SUPPRESS}


def _numeric_option(action: Any) -> bool:
    return getattr(action.type, "__name__", "") in ("count", "finite_float", "seed", "jobs",
                                                    "float", "int")


def classify_cli(row: CliRow, option: str, value: str) -> tuple[str, str]:
    """Run ``dpverify`` with ``option`` set to ``value``; return (outcome, detail).

    Passing: exit 2 with a message naming the option, or exit 0/1 (a result) whose
    ``--json`` output is strict JSON. A non-number accepted by a numeric option
    is ``accepted-invalid``; exit 3, a traceback or any other exception is a crash.
    """
    import contextlib
    import io
    import json

    from dpverify.cli import main

    argv = list(row.argv)
    if option in argv:
        argv[argv.index(option) + 1] = value
    else:
        argv += [option, value]
    action = cli_options(row.argv)[option]
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
                warnings.catch_warnings():
            warnings.simplefilter("ignore")
            code = main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 2
    except MemoryError:
        return "oom", "MemoryError"
    except BaseException as exc:  # noqa: BLE001
        return "crash", f"{type(exc).__name__}: {exc}"[:300]
    stderr = " ".join(err.getvalue().split())
    if code == 2:
        names = [s for s in action.option_strings]
        if any(name in stderr for name in names):
            return "refused", stderr[:300]
        return "unclear", stderr[:300]
    if code not in (0, 1):
        return "crash", f"exit {code}: {stderr[:300]}"
    if _numeric_option(action) and value.strip().lower() in ("nan", "inf", "-inf", "abc", "",
                                                              "1e", "0x10"):
        return "accepted-invalid", f"exit {code}"
    if "--json" in argv and out.getvalue().strip():  # exit 1 may be a message on stderr only
        def refuse(constant: str) -> None:
            raise ValueError(f"non-standard JSON constant {constant}")

        try:
            json.loads(out.getvalue(), parse_constant=refuse)
        except ValueError as exc:
            return "nan", f"--json output is not strict JSON: {exc}"[:300]
    return "ok", ""
