"""The dpverify pytest plugin (entry point ``pytest11`` → ``dpverify``).

Command-line options (group "dpverify"):

``--dpverify-seed=N``
    Session seed (default 0). Every test's streams — the ``dp_rng`` fixture
    and the audits of :func:`~dpverify.testing.assert_satisfies` — are spawned
    from ``(N, sha256(test node id))``, so the same seed gives the same
    streams and verdicts whichever tests are selected and in whatever order.
``--dpverify-samples=N``
    Outputs per side for audits that do not set ``samples`` (>= 10; default
    :data:`~dpverify.testing.assertions.DEFAULT_SAMPLES`).
``--dpverify-confidence=C``
    Confidence for audits that do not set it (in [0.5, 1); default
    :data:`~dpverify.testing.assertions.DEFAULT_CONFIDENCE`).

``--dpverify-rerun``
    Re-audit a flagged :func:`~dpverify.testing.assert_satisfies` call once
    on fresh, independent samples and fail only if the violation reproduces:
    a correct mechanism fails with probability at most ``(1 − confidence)²``
    instead of ``1 − confidence``; a violation flagged with probability ``β``
    by one audit now fails with probability ``β²`` (the power it costs;
    ``docs/proofs/auditing.md`` §13).

Fixture ``dp_rng``: a fresh ``numpy.random.Generator`` per test, as above.

Marker ``@pytest.mark.dp_audit(samples=..., confidence=..., seed=...)``: the
test's own defaults for the :func:`assert_satisfies` calls inside it. Each
keyword is optional; precedence is *argument of the call > marker >
command-line option > library default*; ``seed`` replaces the session seed for
this test only (``dp_rng`` included). Unknown keywords or bad values make the
test error with a message naming them.

At the end of the session a table lists one row per test that audited: its
worst audit (a violation first, else the largest certified ε lower bound
relative to its claim) — mechanism label, claim, certified ε lower bound,
verdict — and how many audits the test ran (a hypothesis test runs one per
example).

The module is light on purpose: at import it loads only pytest (already
loaded) and :mod:`dpverify.testing._session` (no imports). numpy is imported by
the ``dp_rng`` fixture, :mod:`dpverify.testing.strategies` (which registers
``st.from_type`` strategies for the guarantee types) only in runs whose test
files mention both dpverify and hypothesis, before the first such file is
imported, and
:mod:`dpverify.auditing` only by the tests that call ``assert_satisfies``.
"""

from __future__ import annotations

import sys
from typing import Any

import pytest

import dpverify.testing._session as _session

_STATE = pytest.StashKey[_session.RunState]()
_MARKER_KEYS = ("samples", "confidence", "seed", "rerun")
_MARKER_HELP = ("dp_audit(samples=None, confidence=None, seed=None, rerun=None): this test's "
                "defaults for "
                "dpverify.testing.assert_satisfies (call arguments still win; seed also "
                "re-seeds dp_rng)")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("dpverify", "dpverify privacy audits")
    group.addoption("--dpverify-seed", action="store", default="0", metavar="N",
                    help="session seed for dp_rng and assert_satisfies (non-negative int; "
                         "default 0)")
    group.addoption("--dpverify-samples", action="store", default=None, metavar="N",
                    help="outputs per side for audits that do not set samples (int >= 10)")
    group.addoption("--dpverify-confidence", action="store", default=None, metavar="C",
                    help="confidence (the probability that an audit's bound holds, in "
                         "[0.5, 1)) for audits that do not set it")
    group.addoption("--dpverify-rerun", action="store_true", default=False,
                    help="re-audit a flagged assert_satisfies on fresh samples; fail only if the "
                         "violation reproduces (false alarms <= (1 - confidence)^2 per call)")


def _parse_int(option: str, text: Any, minimum: int) -> int:
    try:
        value = int(str(text), 10)
    except ValueError:
        value = None
    if value is None or value < minimum:
        raise pytest.UsageError(f"{option}={text!r} must be an integer >= {minimum}")
    return value


def _parse_confidence(option: str, text: Any) -> float:
    try:
        value = float(text)
    except (TypeError, ValueError):
        value = float("nan")
    if not 0.5 <= value < 1:
        raise pytest.UsageError(f"{option}={text!r} must be a number in [0.5, 1), e.g. 0.999 (the "
                                f"probability that an audit's bound holds; for a failure "
                                f"probability p give 1 - p)")
    return value


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", _MARKER_HELP)
    samples = config.getoption("dpverify_samples")
    confidence = config.getoption("dpverify_confidence")
    state = _session.RunState(
        seed=_parse_int("--dpverify-seed", config.getoption("dpverify_seed"), 0),
        samples=None if samples is None else _parse_int("--dpverify-samples", samples, 10),
        confidence=None if confidence is None else _parse_confidence("--dpverify-confidence",
                                                                     confidence),
        rerun=bool(config.getoption("dpverify_rerun")))
    config.stash[_STATE] = state
    _session.push(state)
    _register_type_strategies()


def pytest_unconfigure(config: pytest.Config) -> None:
    state = config.stash.get(_STATE, None)
    if state is not None:
        _session.pop(state)


def _register_type_strategies(*, needed: bool = False) -> None:
    """``st.from_type`` for dpverify's guarantee types, in runs that use hypothesis and dpverify.

    Importing :mod:`dpverify.testing.strategies` registers them. Hypothesis
    resolves ``st.from_type(ApproxDP)`` against the registry when the
    strategy is *created* — typically in a ``@given`` at a test module's
    import — so registration must come first: it happens in
    ``pytest_configure`` when a conftest already loaded hypothesis and
    :mod:`dpverify.guarantees`, and otherwise when collection reaches the
    first ``.py`` file whose text mentions both ``dpverify`` and
    ``hypothesis`` (``needed=True``), just before that file is imported. A run
    that never does pays nothing.
    """
    if "dpverify.testing.strategies" in sys.modules:
        return
    if not needed and not ("hypothesis" in sys.modules and "dpverify.guarantees" in sys.modules):
        return
    try:
        import dpverify.testing.strategies  # deferred: hypothesis, only when needed  # noqa: F401
    except ModuleNotFoundError as error:  # hypothesis is not installed: nothing to register for
        if error.name is None or not error.name.startswith("hypothesis"):
            raise


def pytest_collect_file(file_path: Any, parent: Any) -> None:
    if file_path.suffix == ".py" and "dpverify.testing.strategies" not in sys.modules:
        try:
            source = file_path.read_bytes()
        except OSError:
            return None
        if b"dpverify" in source and b"hypothesis" in source:
            _register_type_strategies(needed=True)
    return None


def pytest_collection_finish(session: pytest.Session) -> None:
    _register_type_strategies()


def pytest_report_header(config: pytest.Config) -> str | None:
    state = config.stash.get(_STATE, None)
    if state is None or (state.seed == 0 and config.option.verbose < 1):
        return None
    return f"dpverify: --dpverify-seed={state.seed}"


def _marker_settings(item: pytest.Item, state: _session.RunState) -> dict[str, Any]:
    settings: dict[str, Any] = {"samples": state.samples, "confidence": state.confidence,
                                "seed": state.seed, "rerun": state.rerun}
    marker = item.get_closest_marker("dp_audit")
    if marker is None:
        return settings
    where = f"@pytest.mark.dp_audit on {item.nodeid}"
    unknown = sorted(set(marker.kwargs) - set(_MARKER_KEYS))
    if marker.args or unknown:
        pytest.fail(f"{where}: takes only the keywords {', '.join(_MARKER_KEYS)} "
                    f"(got args={marker.args!r}, unknown keywords={unknown})", pytrace=False)
    problem = None
    try:
        for key, value in marker.kwargs.items():
            if key == "confidence":
                settings[key] = _parse_confidence("confidence", value)
            elif key == "rerun":
                if not isinstance(value, bool):
                    raise pytest.UsageError(f"rerun={value!r} must be True or False")
                settings[key] = value
            elif isinstance(value, bool) or not isinstance(value, int):
                raise pytest.UsageError(f"{key}={value!r} must be an int")
            else:
                settings[key] = _parse_int(key, value, 10 if key == "samples" else 0)
    except pytest.UsageError as error:
        problem = str(error)
    if problem is not None:
        pytest.fail(f"{where}: {problem}", pytrace=False)
    return settings


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    state = item.config.stash.get(_STATE, None)
    if state is None:
        return
    state.test = None
    settings = _marker_settings(item, state)
    state.test = _session.TestContext(nodeid=item.nodeid, **settings)


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item: pytest.Item) -> None:
    state = item.config.stash.get(_STATE, None)
    if state is not None:
        state.test = None


@pytest.fixture
def dp_rng(request: pytest.FixtureRequest) -> Any:
    """A fresh ``numpy.random.Generator`` for this test, reproducible from ``--dpverify-seed``.

    Spawned from ``SeedSequence(entropy=(seed, sha256(nodeid)), spawn_key=(0,))``:
    independent of which other tests run and in what order.
    """
    import numpy as np  # deferred: the plugin loads in every pytest run

    state = request.config.stash.get(_STATE, None)
    test = state.test if state is not None else None
    if test is not None and test.nodeid == request.node.nodeid:
        seed = test.seed
    else:
        seed = state.seed if state is not None else 0
    return np.random.default_rng(_session.stream_seed(seed, request.node.nodeid, 0))


def _cell(text: str, width: int) -> str:
    return text if len(text) <= width else "…" + text[-(width - 1):]


def worst_per_test(records: list[_session.AuditRecord]) -> list[tuple[_session.AuditRecord, int]]:
    """Per test (in first-seen order), its worst record and its number of audits."""
    worst: dict[str, tuple[_session.AuditRecord, int]] = {}
    for record in records:
        kept, count = worst.get(record.test, (record, 0))
        if (record.violation, record.excess) > (kept.violation, kept.excess):
            kept = record
        worst[record.test] = (kept, count + 1)
    return list(worst.values())


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    state = config.stash.get(_STATE, None)
    if state is None or not state.records:
        return
    rows = [(_cell(r.test.rsplit("/", 1)[-1], 60), _cell(r.label, 32), r.claim,
             f"{r.epsilon_lower_bound:.4g}", "VIOLATION" if r.violation else
             ("ok (rerun)" if r.rerun else "ok"), str(count))
            for r, count in worst_per_test(state.records)]
    header = ("test", "mechanism (worst audit)", "claim", "certified eps >=", "verdict",
              "audits")
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    line = lambda row: "  ".join(cell.ljust(width) for cell, width in zip(row, widths))  # noqa: E731
    violations = sum(r.violation for r in state.records)
    cleared = sum(bool(r.rerun) and not r.violation for r in state.records)
    plural = lambda n, word: f"{n} {word}" + ("" if n == 1 else "s")  # noqa: E731
    title = (f"dpverify audits: {len(state.records)} run in {plural(len(rows), 'test')}, "
             f"{plural(violations, 'violation')}")
    if cleared:
        title += f", {plural(cleared, 'flag')} not reproduced on rerun"
    terminalreporter.write_sep("=", f"{title} (--dpverify-seed={state.seed})")
    terminalreporter.write_line(line(header))
    for row in rows:
        terminalreporter.write_line(line(row))
