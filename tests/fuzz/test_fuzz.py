"""Fuzz every public callable with hostile values, one parameter at a time (issue 17).

Each (row, parameter) pair gets every value of ``CANONICAL`` plus
``--dpverify-fuzz-examples`` values drawn by a seeded hypothesis strategy
(``hostile_values``). Every call runs in a forked worker under a timeout and an
address-space cap; the outcome must be a refusal naming the parameter or a
finite result for a value that is not invalid (see ``_harness``).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzz._harness import (
    CANONICAL, CLI_HOSTILE, PASSING, Worker, avoided, cli_options, describe, hostile_values,
)
from fuzz._registry import load_cli_rows, load_rows, missing_cli_rows, missing_rows
from fuzz.known_failures import KNOWN_FAILURES

ROWS = load_rows()
CLI_ROWS = load_cli_rows()
OUTCOME_COUNTS: dict[str, int] = {}


def test_every_public_name_has_a_fuzz_row():
    problems = missing_rows()
    assert not problems, "\n".join(problems)


def test_every_cli_command_has_a_fuzz_row():
    problems = missing_cli_rows()
    assert not problems, "\n".join(problems)


@pytest.fixture(scope="module")
def worker():
    pool = Worker({**ROWS, **CLI_ROWS})
    yield pool
    pool.close()


def _check(worker, key, row, param, value, failures):
    if avoided(row, param, value) or (key, param) in KNOWN_FAILURES:
        return
    outcome, detail = worker.run(key, param, value)
    OUTCOME_COUNTS[outcome] = OUTCOME_COUNTS.get(outcome, 0) + 1
    if outcome not in PASSING and (key, param) not in KNOWN_FAILURES:
        failures.append(f"{param}={describe(value)}: {outcome}: {detail}")


@pytest.mark.parametrize("key", sorted(ROWS))
def test_hostile_values_are_refused_by_name_or_give_finite_results(key, worker, request):
    row = ROWS[key]
    params = sorted(row.parameters())
    failures: list[str] = []
    for param in params:
        for value in CANONICAL:
            _check(worker, key, row, param, value, failures)
    examples = request.config.getoption("--dpverify-fuzz-examples")
    if examples and params:
        @settings(max_examples=examples, derandomize=True, database=None, deadline=None,
                  suppress_health_check=list(HealthCheck))
        @given(param=st.sampled_from(params), value=hostile_values())
        def drawn(param, value):
            _check(worker, key, row, param, value, failures)

        drawn()
    assert not failures, f"{key}: {len(failures)} failing calls:\n" + "\n".join(failures[:40])


@pytest.mark.parametrize("key", sorted(CLI_ROWS))
def test_every_cli_option_refuses_hostile_values_by_name(key, worker):
    """Exit 2 naming the option, or a result (exit 0/1) whose --json output is strict JSON."""
    row = CLI_ROWS[key]
    failures: list[str] = []
    for option in sorted(set(cli_options(row.argv)) - set(row.skip)):
        for value in CLI_HOSTILE:
            _check(worker, key, row, option, value, failures)
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
