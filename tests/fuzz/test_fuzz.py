"""Fuzz every public callable with hostile values, one parameter at a time (issue 17).

Each (row, parameter) pair gets every value of ``CANONICAL`` (every CLI option every
value of ``CLI_HOSTILE``), run up front on ``--dpverify-fuzz-workers`` forked workers
at once (``_worker.run_all``), plus ``--dpverify-fuzz-examples`` values per row drawn
by a seeded hypothesis strategy (``hostile_values``; a drawn value equal to a fixed
one is not run again). Every call runs under a timeout and an address-space cap; the
outcome must be a refusal naming the parameter or a finite result for a value that
is not invalid (see ``_harness``).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzz._harness import (
    CANONICAL,
    CLI_HOSTILE,
    PASSING,
    avoided,
    cli_options,
    describe,
    hostile_values,
    row_tasks,
)
from fuzz._registry import load_cli_rows, load_rows, missing_cli_rows, missing_rows
from fuzz._worker import Worker, machine_timeout, run_all
from fuzz.known_failures import KNOWN_FAILURES

#: The whole module is slow: its fixed hostile calls run in forked workers over every public name.
pytestmark = pytest.mark.slow

ROWS = load_rows()
CLI_ROWS = load_cli_rows()


def test_every_public_name_has_a_fuzz_row():
    problems = missing_rows()
    assert not problems, "\n".join(problems)


def test_every_cli_command_has_a_fuzz_row():
    problems = missing_cli_rows()
    assert not problems, "\n".join(problems)


def fixed_tasks() -> list[tuple[str, str, object]]:
    """Every (row, parameter, fixed hostile value) call, known failures and avoided values out."""
    tasks = []
    for key, row in sorted({**ROWS, **CLI_ROWS}.items()):
        if key in CLI_ROWS:
            params, values = sorted(set(cli_options(row.argv)) - set(row.skip)), CLI_HOSTILE
        else:
            params, values = sorted(row.parameters()), CANONICAL
        tasks += [task for task in row_tasks(key, row, params, values)
                  if (key, task[1]) not in KNOWN_FAILURES]
    return tasks


@pytest.fixture(scope="module")
def timeout():
    return machine_timeout()


@pytest.fixture(scope="module")
def fixed_outcomes(request, timeout):
    """Outcome of every fixed call, by row key: a list of (parameter, value, outcome, detail).

    Only the rows of the tests selected in this session run (``-k shuffle`` runs the
    shuffle rows' calls, not every row's).
    """
    selected = {item.callspec.params["key"] for item in request.session.items
                if hasattr(item, "callspec") and "key" in item.callspec.params}
    tasks = [task for task in fixed_tasks() if task[0] in selected]
    results = run_all({**ROWS, **CLI_ROWS}, tasks,
                      workers=request.config.getoption("--dpverify-fuzz-workers"),
                      timeout=timeout)
    by_row: dict[str, list] = {}
    for (key, param, value), (outcome, detail, _) in zip(tasks, results):
        by_row.setdefault(key, []).append((param, value, outcome, detail))
    return by_row


@pytest.fixture(scope="module")
def worker(timeout):
    pool = Worker({**ROWS, **CLI_ROWS}, timeout=timeout)
    yield pool
    pool.close()


def _fixed_failures(fixed_outcomes, key):
    return [f"{param}={describe(value)}: {outcome}: {detail}"
            for param, value, outcome, detail in fixed_outcomes.get(key, [])
            if outcome not in PASSING]


def _is_fixed(value) -> bool:
    return any(type(value) is type(v) and repr(value) == repr(v) for v in CANONICAL)


@pytest.mark.slow
@pytest.mark.parametrize("key", sorted(ROWS))
def test_hostile_values_are_refused_by_name_or_give_finite_results(key, fixed_outcomes, worker,
                                                                   request):
    row = ROWS[key]
    params = sorted(row.parameters())
    failures = _fixed_failures(fixed_outcomes, key)
    examples = request.config.getoption("--dpverify-fuzz-examples")
    if examples and params and not row.cases_only:
        @settings(max_examples=examples, derandomize=True, database=None, deadline=None,
                  suppress_health_check=list(HealthCheck))
        @given(param=st.sampled_from(params), value=hostile_values())
        def drawn(param, value):
            if _is_fixed(value) or avoided(row, param, value) or (key, param) in KNOWN_FAILURES:
                return   # already run among the fixed values, or not to be run
            outcome, detail = worker.run(key, param, value)
            if outcome not in PASSING:
                failures.append(f"{param}={describe(value)}: {outcome}: {detail}")

        drawn()
    assert not failures, f"{key}: {len(failures)} failing calls:\n" + "\n".join(failures[:40])


@pytest.mark.parametrize("key", sorted(CLI_ROWS))
def test_every_cli_option_refuses_hostile_values_by_name(key, fixed_outcomes):
    """Exit 2 naming the option, or a result (exit 0/1) whose --json output is strict JSON."""
    failures = _fixed_failures(fixed_outcomes, key)
    assert not failures, f"{key}: {len(failures)} failing command lines:\n" + "\n".join(
        failures[:40])


def test_known_failures_are_still_failing_rows():
    """Every allow-listed (row, parameter) still names an existing row and parameter."""
    for key, param in KNOWN_FAILURES:
        if key in CLI_ROWS:
            assert param in cli_options(CLI_ROWS[key].argv), f"known_failures.py lists {key} {param}"
            continue
        assert key in ROWS, f"known_failures.py lists {key}, which has no row"
        assert param in ROWS[key].parameters(), f"known_failures.py lists {key}.{param}"
