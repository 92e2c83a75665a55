"""Assertions for privacy tests: :func:`assert_satisfies` and :func:`assert_conservative`.

``assert_satisfies`` turns a statistical audit (:func:`dpverify.auditing.audit`)
into a test verdict: it fails only when a violation of the claim is
*certified* at the stated confidence, so a correct mechanism fails with
probability at most ``1 − confidence`` per call. ``assert_conservative`` is the
accountant-side check: an upper bound must not fall below the exact value.
"""

from __future__ import annotations

import decimal
import hashlib
import math
import sys
import warnings
from typing import Any

import numpy as np

import dpverify.testing._session as _session
from dpverify._deprecation import renamed_parameters
from dpverify._validation import check_flag, check_real, value_error
from dpverify.auditing.audit import Sampler, audit
from dpverify.auditing.report import AuditReport
from dpverify.errors import AuditWarning, DpverifyTypeError

__all__ = ["assert_satisfies", "assert_conservative", "DEFAULT_SAMPLES", "DEFAULT_CONFIDENCE",
           "DEFAULT_SEED", "RERUN_KEY"]

#: Outputs per side when neither the call, the ``dp_audit`` marker nor ``--dpverify-samples`` sets it.
DEFAULT_SAMPLES = 100_000
#: Confidence when nothing else sets it: a correct mechanism fails a call with probability <= 1e-3.
DEFAULT_CONFIDENCE = 0.999
#: Seed outside the plugin (fixed, so a test is reproducible run to run).
DEFAULT_SEED = 0
#: Spawn key of a rerun's stream under an explicit seed (the audit's own streams use 0 to 4).
RERUN_KEY = 1009


def _claim_text(epsilon: float, delta: float, *, compact: bool = False) -> str:
    if compact:
        return f"{epsilon:.4g}-DP" if delta == 0 else f"({epsilon:.4g}, {delta:.3g})-DP"
    return f"{epsilon!r}-DP" if delta == 0 else f"({epsilon!r}, {delta!r})-DP"


def _fingerprint(*values: Any) -> int:
    """A 64-bit digest of an audit's question (arrays by their bytes, anything else by repr)."""
    digest = hashlib.sha256()
    for value in values:
        if isinstance(value, np.ndarray):
            digest.update(f"{value.dtype}{value.shape}".encode() + np.ascontiguousarray(value).tobytes())
        else:
            digest.update(repr(value).encode("utf-8", "backslashreplace"))
        digest.update(b"\x00")
    return int.from_bytes(digest.digest()[:8], "little")


def _settings(samples: Any, confidence: Any, seed: Any, rerun: Any,
              question: tuple[Any, ...]) -> tuple[Any, Any, Any, Any, bool, str]:
    """Explicit argument > ``dp_audit`` marker > command-line option > library default.

    Returns ``(samples, confidence, seed, rerun seed, rerun, where)``; the
    rerun seed is a stream independent of the first audit's.
    """
    state = _session.current()
    test = state.test if state is not None else None
    rerun_seed = None
    if test is not None:
        samples = test.samples if samples is None else samples
        confidence = test.confidence if confidence is None else confidence
        rerun = test.rerun if rerun is None else rerun
        if seed is None:
            digest = _fingerprint(*question)
            seed = _session.stream_seed(test.seed, test.nodeid, 1, digest)
            rerun_seed = _session.stream_seed(test.seed, test.nodeid, 2, digest)
        where = test.nodeid
    else:
        where = "<no pytest plugin>"
    samples = DEFAULT_SAMPLES if samples is None else samples
    confidence = DEFAULT_CONFIDENCE if confidence is None else confidence
    seed = DEFAULT_SEED if seed is None else seed
    rerun = False if rerun is None else check_flag(rerun, "rerun")
    if rerun_seed is None:
        rerun_seed = _rerun_seed(seed)
    return samples, confidence, seed, rerun_seed, rerun, where


def _rerun_seed(seed: Any) -> Any:
    """A stream independent of every stream the audit of ``seed`` draws (child ``RERUN_KEY``).

    The audit spawns its streams as children ``(0,)``, ``(1,)``, … of
    ``SeedSequence(seed)``; the rerun uses the child ``(RERUN_KEY,)`` of the same
    root, whose descendants are disjoint from them. A bad ``seed`` is passed on
    as it is, for :func:`~dpverify.auditing.audit` to refuse by name.
    """
    if isinstance(seed, np.random.SeedSequence):
        return np.random.SeedSequence(seed.entropy, spawn_key=(*seed.spawn_key, RERUN_KEY))
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool) and seed >= 0:
        return np.random.SeedSequence(int(seed), spawn_key=(RERUN_KEY,))
    return seed


def assert_satisfies(sampler: Sampler, x: Any, x_prime: Any, *, epsilon: float,
                     delta: float = 0.0, samples: int | None = None,
                     confidence: float | None = None, seed: Any = None,
                     label: str | None = None, events: Any = "auto",
                     threads: Any = "auto", rerun: bool | None = None) -> AuditReport:
    """Assert that ``sampler`` is (ε, δ)-DP on the neighbouring pair (x, x'), by audit.

    Runs :func:`dpverify.auditing.audit` and raises :class:`AssertionError`,
    whose message is the audit report (claim, certified ε lower bound, the
    distinguishing event, the counts on both sides and their confidence
    bounds), when the certified lower bound exceeds ``epsilon``.

    Parameters
    ----------
    sampler
        ``sampler(data, size, rng) -> np.ndarray`` of ``size`` independent
        outputs on ``data`` (see :func:`~dpverify.auditing.audit`).
    x, x_prime
        The neighbouring inputs.
    epsilon, delta
        The claim.
    samples, confidence, seed
        ``None`` takes, in this order, the ``dp_audit`` marker of the running
        test, the ``--dpverify-samples`` / ``--dpverify-confidence`` options,
        then :data:`DEFAULT_SAMPLES` (100 000) and :data:`DEFAULT_CONFIDENCE`
        (0.999). ``seed=None`` under the plugin is a stream spawned from
        ``--dpverify-seed``, the test's node id and a digest of the call's
        question ``(x, x_prime, epsilon, delta, label)`` — so a hypothesis
        replay of the same example re-runs the same audit, and the verdict
        does not depend on which tests run or in what order; outside the
        plugin it is :data:`DEFAULT_SEED`.
    label
        The name shown in the failure message and the plugin's summary table
        (default: the sampler's qualified name).
    events, threads
        As in :func:`~dpverify.auditing.audit`.
    rerun
        Re-audit a flagged call once on fresh, independent samples (same
        size and confidence) and fail only if the violation reproduces.
        ``None`` takes the ``dp_audit`` marker's ``rerun``, then
        ``--dpverify-rerun``, else ``False``.

    Returns
    -------
    AuditReport
        The report, when no violation is certified (the claim may still be
        false: an audit only ever refutes).

    Notes
    -----
    **False failures.** If the claim is true, the call fails with probability
    at most ``1 − confidence`` (the audit's whole-audit guarantee,
    ``docs/proofs/auditing.md``); with the default 0.999, one test in a
    thousand at worst. Raise ``confidence`` for suites with many audits: a suite of
    ``k`` tight tests at confidence ``c`` expects up to ``k(1 − c)`` false failures per
    run (20 at 0.95: up to one a run, by design).

    **Reruns** (``rerun=True`` or ``--dpverify-rerun``). The two audits draw
    independent samples, each flags a correct mechanism with probability at
    most ``α = 1 − confidence``, so the call fails a correct mechanism with
    probability at most ``α²`` (``docs/proofs/auditing.md`` §13). The cost is
    power: a violation one audit certifies with probability ``β`` now fails
    the test with probability ``β²`` (0.9 becomes 0.81; a clear violation,
    ``β ≈ 1``, loses nothing). A flag that does not reproduce passes, is
    recorded in the summary table as ``ok (rerun)`` and warns
    (:class:`~dpverify.errors.AuditWarning`) with both audits' bounds.

    **Under hypothesis** the call reports the certified lower bound minus the
    claim to :func:`hypothesis.target` (label ``"dpverify: certified epsilon
    excess"``), so hypothesis's search climbs towards the inputs that come
    closest to a violation (e.g. the half-up/half-down query pattern of a
    sparse vector; pair it with
    :func:`~dpverify.testing.strategies.neighbouring_query_vectors`). Failing
    tracebacks hide this function's frames (``__tracebackhide__``).

    Examples
    --------
    >>> def laplace(data, size, rng):
    ...     return data + rng.laplace(0.0, 1.0, size)  # scale 1: ln(e)-DP for sensitivity 1
    >>> report = assert_satisfies(laplace, 0.0, 1.0, epsilon=1.0, samples=20_000, seed=1)
    >>> report.violation
    False
    >>> def half_scale(data, size, rng):
    ...     return data + rng.laplace(0.0, 0.5, size)  # really 2-DP
    >>> assert_satisfies(half_scale, 0.0, 1.0, epsilon=1.0, samples=20_000, seed=1)
    Traceback (most recent call last):
    ...
    AssertionError: half_scale is not 1.0-DP on (x, x'): certified epsilon lower bound ...
    """
    __tracebackhide__ = True
    label = _session.describe(sampler) if label is None else label
    if not isinstance(label, str):
        raise DpverifyTypeError(f"label={label!r} must be a string")
    samples, confidence, seed, rerun_seed, rerun, where = _settings(
        samples, confidence, seed, rerun, (x, x_prime, epsilon, delta, label))
    report = audit(sampler, x, x_prime, epsilon=epsilon, delta=delta, samples=samples,
                   confidence=confidence, seed=seed, events=events, threads=threads)
    first = report
    if report.violation and rerun:
        report = audit(sampler, x, x_prime, epsilon=epsilon, delta=delta, samples=samples,
                       confidence=confidence, seed=rerun_seed, events=events, threads=threads)
    rerun_text = "" if report is first else (
        f"flagged (epsilon lower bound {first.epsilon_lower_bound:.6g}), rerun on fresh samples "
        f"{'reproduced' if report.violation else 'did not reproduce'} it (epsilon lower bound "
        f"{report.epsilon_lower_bound:.6g}); false-alarm probability of the pair <= "
        f"{(1 - confidence) ** 2:.3g}")
    _target(report)
    state = _session.current()
    if state is not None:
        state.records.append(_session.AuditRecord(
            test=where, label=label, claim=_claim_text(report.guarantee.epsilon, report.delta, compact=True),
            epsilon_lower_bound=report.epsilon_lower_bound, violation=report.violation,
            samples=report.samples, confidence=report.confidence,
            claimed_epsilon=report.guarantee.epsilon, rerun=rerun_text))
    if report.violation:
        claim = _claim_text(report.guarantee.epsilon, report.delta)
        raise AssertionError(
            f"{label} is not {claim} on (x, x'): certified epsilon lower bound "
            f"{report.epsilon_lower_bound:.6g} > claimed epsilon {report.guarantee.epsilon!r} "
            f"(confidence {report.confidence:g}; x={x!r}, x'={x_prime!r})"
            + (f"\n{label} {rerun_text}" if rerun_text else "") + f"\n{report}")
    if rerun_text:
        warnings.warn(f"{label}: {rerun_text}", AuditWarning, stacklevel=2)
    return report


def _target(report: AuditReport) -> None:
    """``hypothesis.target(ε_lb − ε)`` when running inside a hypothesis test (else nothing)."""
    if "hypothesis" not in sys.modules:
        return
    from hypothesis import target  # deferred: optional; used only when already loaded
    from hypothesis.control import currently_in_test_context  # deferred: optional, as above

    if currently_in_test_context():
        excess = report.epsilon_lower_bound - report.guarantee.epsilon
        target(excess if math.isfinite(excess) else 1e6, label="dpverify: certified epsilon excess")


def _as_array(value: Any, name: str) -> np.ndarray:
    if isinstance(value, (bool, str, bytes, decimal.Decimal, complex)) or value is None:
        raise DpverifyTypeError(f"{name}={value!r} must be a real number or an array of them")
    try:
        array = np.asarray(value, dtype=float)
    except (TypeError, ValueError, OverflowError):
        raise DpverifyTypeError(f"{name}={value!r} must be a real number or an array of "
                                f"them") from None
    if np.isnan(array).any():
        raise value_error(name, value, "free of NaN (a NaN bound is never conservative)")
    return array


@renamed_parameters(rel_tol="rtol", abs_tol="atol")
def assert_conservative(upper_bound: Any, exact: Any, *, name: str, rtol: float = 0.0,
                        atol: float = 0.0) -> None:
    """Assert that ``upper_bound`` (an accountant's answer) is at least the ``exact`` value.

    Passes when ``upper_bound >= exact − max(rtol·|exact|, atol)``,
    element-wise for arrays (broadcast together), and raises
    :class:`AssertionError` naming the bound (``name``) otherwise.

    Parameters
    ----------
    upper_bound
        The bound under test (a real number or an array; ``inf`` is
        conservative).
    exact
        The true value (or a lower bound on it).
    name
        What the bound is, for the message (e.g. ``"rdp_to_dp epsilon"``).
    rtol, atol
        Relative and absolute slack for a floating-point ``exact``. The defaults are **zero**: a
        bound rounded up (as every dpverify upper bound is) must be at least
        an exact value computed to higher precision. Give a slack only when
        ``exact`` is itself a float computation with known error, and say so
        in the test.

    Raises
    ------
    AssertionError
        ``upper_bound`` falls below ``exact`` by more than the slack; the
        message gives both values, the shortfall and the slack.
    ValueError, TypeError
        NaN or non-numeric values, negative or NaN slack, an empty ``name``.

    Examples
    --------
    >>> assert_conservative(1.0000001, 1.0, name="composed epsilon")
    >>> assert_conservative(0.99, 1.0, name="composed epsilon")
    Traceback (most recent call last):
    ...
    AssertionError: composed epsilon is not conservative: upper bound 0.99 < exact value 1.0 ...
    """
    if not isinstance(name, str) or not name:
        raise DpverifyTypeError(f"name={name!r} must be a non-empty string naming the bound")
    rtol = _check_tolerance(rtol, "rtol")
    atol = _check_tolerance(atol, "atol")
    upper = _as_array(upper_bound, "upper_bound")
    truth = _as_array(exact, "exact")
    upper, truth = np.broadcast_arrays(upper, truth)
    with np.errstate(invalid="ignore"):
        slack = np.maximum(rtol * np.abs(truth), atol)
        short = ~(upper >= truth - np.where(np.isinf(truth), 0.0, slack))
    if not short.any():
        return None
    index = int(np.argmax(np.where(short, truth - upper, -np.inf)))
    bad_upper, bad_exact = float(upper.flat[index]), float(truth.flat[index])
    position = tuple(int(i) for i in np.unravel_index(index, upper.shape))
    where = "" if upper.ndim == 0 else f" at index {position}"
    raise AssertionError(
        f"{name} is not conservative: upper bound {bad_upper!r} < exact value {bad_exact!r}"
        f"{where} (shortfall {bad_exact - bad_upper:.6g}, relative "
        f"{(bad_exact - bad_upper) / abs(bad_exact) if bad_exact else math.inf:.3g}; "
        f"allowed slack rtol={rtol!r}, atol={atol!r})")


def _check_tolerance(value: Any, name: str) -> float:
    tolerance = check_real(value, name)
    if not (0 <= tolerance < math.inf):
        raise value_error(name, value, "in [0, inf)")
    return tolerance
