"""The dpverify pytest plugin, driven through ``pytester`` as a user's test suite would use it.

The entry point ``pytest11``/``dpverify`` loads the plugin automatically once
dpverify is installed; in a development checkout installed before the entry
point existed it is absent, and then (only then — loading it twice is an
error) the inner runs get ``-p dpverify.testing._plugin``.

Statistical outcomes: every audit here runs with a fixed ``--dpverify-seed``,
so they are deterministic; the correct Laplace would fail with probability
<= 1 − 0.999 for a fresh seed, the half-scale one passes with negligible
probability (its true ε is 2 against a claim of 1).
"""

from __future__ import annotations

import importlib.metadata
import re
from pathlib import Path

# The in-process runs restore sys.modules after each run; numpy's C extension
# cannot be imported twice in one process, so everything the inner runs import
# is imported here first and stays loaded.
import numpy  # noqa: F401
import pytest

import dpverify.testing.assertions  # noqa: F401
import dpverify.testing.strategies  # noqa: F401

pytest_plugins = ["pytester"]

README = Path(__file__).resolve().parents[2] / "README.md"


def _plugin_args() -> list[str]:
    registered = any(e.value == "dpverify.testing._plugin"
                     for e in importlib.metadata.entry_points(group="pytest11"))
    return [] if registered else ["-p", "dpverify.testing._plugin"]


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest("-p", "no:cacheprovider", *_plugin_args(), *args)


def run_subprocess(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.RunResult:
    """A fresh interpreter importing the same dpverify as this one (a checkout's src or site-packages)."""
    import os

    here = str(Path(dpverify.testing.assertions.__file__).resolve().parents[2])
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH")])))
    return pytester.runpytest_subprocess("-p", "no:cacheprovider", *_plugin_args())


USER_TESTS = '''
import numpy as np
from dpverify.testing import assert_satisfies

def laplace(data, size, rng):
    return data + rng.laplace(0.0, 1.0, size)

def laplace_half_scale(data, size, rng):
    return data + rng.laplace(0.0, 0.5, size)

def test_correct_laplace():
    assert_satisfies(laplace, 0.0, 1.0, epsilon=1.0)

def test_buggy_laplace():
    assert_satisfies(laplace_half_scale, 0.0, 1.0, epsilon=1.0)
'''


@pytest.mark.slow
def test_correct_laplace_passes_and_half_scale_fails_readably(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_user=USER_TESTS)
    result = run(pytester)
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines([
        "*AssertionError: laplace_half_scale is not 1.0-DP on (x, x'): certified epsilon lower "
        "bound 1.* > claimed epsilon 1.0 (confidence 0.999*",
        "*audit of a 1.0-DP claim: VIOLATION*",
        "*epsilon lower bound*",
    ])
    result.stdout.fnmatch_lines([
        "*dpverify audits: 2 run in 2 tests, 1 violation (--dpverify-seed=0)*",
        "*test*mechanism (worst audit)*claim*certified eps >=*verdict*audits*",
        "*test_user.py::test_correct_laplace*laplace*1-DP*ok*",
        "*test_user.py::test_buggy_laplace*laplace_half_scale*1-DP*VIOLATION*",
    ])


def _summary(result: pytest.RunResult) -> list[str]:
    lines = result.stdout.lines
    start = next(i for i, line in enumerate(lines) if "dpverify audits:" in line)
    return [line for line in lines[start:start + 4]]


@pytest.mark.slow
def test_the_same_seed_gives_the_same_verdicts_and_bounds(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_user=USER_TESTS)
    first = _summary(run(pytester, "--dpverify-seed=7"))
    second = _summary(run(pytester, "--dpverify-seed=7"))
    other = _summary(run(pytester, "--dpverify-seed=8"))
    assert first == second
    assert first != other  # the bounds move with the seed (the verdicts do not)


def test_options_change_the_audits_defaults(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_user='''
from dpverify.testing import assert_satisfies

def test_settings():
    report = assert_satisfies(lambda d, n, rng: d + rng.laplace(0, 1, n), 0.0, 1.0, epsilon=1.0)
    assert (report.samples, report.confidence) == (5000, 0.9)
''')
    run(pytester, "--dpverify-samples=5000", "--dpverify-confidence=0.9").assert_outcomes(passed=1)


@pytest.mark.parametrize("option", ["--dpverify-seed=-1", "--dpverify-seed=x",
                                    "--dpverify-samples=5", "--dpverify-samples=1e5x",
                                    "--dpverify-confidence=1", "--dpverify-confidence=nan",
                                    "--dpverify-confidence=0.05"])
@pytest.mark.slow
def test_bad_options_are_usage_errors_naming_the_option(pytester: pytest.Pytester,
                                                       option: str) -> None:
    pytester.makepyfile(test_user="def test_nothing(): pass")
    result = run(pytester, option)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*{option.split('=')[0]}=*must be*"])


DRAWS = '''
def test_one(dp_rng):
    print("DRAW one", dp_rng.integers(2**62))

def test_two(dp_rng):
    print("DRAW two", dp_rng.integers(2**62))
'''


def _draws(result: pytest.RunResult) -> dict[str, str]:
    found = [re.search(r"DRAW (\w+) (\d+)", line) for line in result.stdout.lines]
    return {m.group(1): m.group(2) for m in found if m}


@pytest.mark.slow
def test_dp_rng_is_reproducible_per_test_and_seed(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_user=DRAWS)
    base = _draws(run(pytester, "-s", "--dpverify-seed=3"))
    assert set(base) == {"one", "two"} and base["one"] != base["two"]
    assert _draws(run(pytester, "-s", "--dpverify-seed=3")) == base
    alone = _draws(run(pytester, "-s", "--dpverify-seed=3", "-k", "two"))
    assert alone == {"two": base["two"]}  # selection does not move a test's stream
    other = _draws(run(pytester, "-s", "--dpverify-seed=4"))
    assert other["one"] != base["one"] and other["two"] != base["two"]


@pytest.mark.slow
def test_the_marker_sets_the_tests_audit_defaults(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_user='''
import pytest
from dpverify.testing import assert_satisfies

def lap(d, n, rng):
    return d + rng.laplace(0, 1, n)

@pytest.mark.dp_audit(samples=3000, confidence=0.8)
def test_marked():
    report = assert_satisfies(lap, 0.0, 1.0, epsilon=1.0)
    assert (report.samples, report.confidence) == (3000, 0.8)
    assert assert_satisfies(lap, 0.0, 1.0, epsilon=1.0, samples=4000).samples == 4000

def test_unmarked():
    assert assert_satisfies(lap, 0.0, 1.0, epsilon=1.0).samples == 6000

@pytest.mark.dp_audit(seed=5)
def test_marker_seed(dp_rng):
    print("DRAW marked", dp_rng.integers(2**62))

@pytest.mark.dp_audit(sample=10)
def test_typo():
    pass

@pytest.mark.dp_audit(confidence=1.5)
def test_bad_value():
    pass
''')
    result = run(pytester, "--strict-markers", "--dpverify-samples=6000", "-s")
    result.assert_outcomes(passed=3, errors=2)
    result.stdout.fnmatch_lines(["*dp_audit on test_user.py::test_typo: takes only the keywords "
                                 "samples, confidence, seed*unknown keywords=*sample*"])
    result.stdout.fnmatch_lines(["*dp_audit on test_user.py::test_bad_value: confidence=1.5 "
                                 "must be a number in [[]0.5, 1)*"])
    marked = _draws(result)["marked"]
    pytester.makepyfile(test_user='''
def test_marker_seed(dp_rng):
    print("DRAW marked", dp_rng.integers(2**62))
''')
    assert _draws(run(pytester, "-s", "--dpverify-seed=5"))["marked"] == marked


@pytest.mark.slow
def test_from_type_works_in_a_users_run(pytester: pytest.Pytester,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The plugin registers the guarantee strategies for a test module that never imports them.

    In a subprocess: hypothesis's type registry is global, and this process
    has imported :mod:`dpverify.testing.strategies` (so registered) already.
    Unregistered, ``from_type`` would build ``ApproxDP`` from arbitrary floats
    and the test would error.
    """
    pytester.makepyfile(test_user='''
import sys
from hypothesis import given, strategies as st
from dpverify import ApproxDP

def test_not_imported_by_the_user():
    assert "dpverify.testing.strategies" in sys.modules  # the plugin did it

@given(st.from_type(ApproxDP))
def test_valid(guarantee):
    assert 0 < guarantee.delta < 1 and guarantee.epsilon >= 0
''')
    run_subprocess(pytester, monkeypatch).assert_outcomes(passed=2)


@pytest.mark.slow
def test_the_plugin_imports_nothing_heavy_in_a_run_that_does_not_use_it(
        pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    pytester.makepyfile(test_user='''
import sys

def test_light():
    heavy = [m for m in sys.modules if m.startswith(("numpy", "scipy", "mpmath",
             "dpverify.auditing", "dpverify.mechanisms", "dpverify.guarantees",
             "dpverify.testing.strategies", "dpverify.testing.assertions"))]
    assert "dpverify.testing._plugin" in sys.modules and not heavy, heavy
''')
    run_subprocess(pytester, monkeypatch).assert_outcomes(passed=1)


def _readme_example() -> str:
    text = README.read_text(encoding="utf-8")
    block = re.search(r"<!-- README example: test-your-own-mechanism[^>]*-->\s*```python\n(.*?)```",
                      text, re.DOTALL)
    assert block, "README lost its 'Test your own mechanism' example"
    return block.group(1)


@pytest.mark.slow
def test_the_readme_example_runs_as_written(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_my_mechanism=_readme_example())
    # --hypothesis-seed fixes the examples, so the 10 audits of true claims are
    # fixed too (else each run would risk a false failure of up to 10 × 1e-3).
    result = run(pytester, "--strict-markers", "--hypothesis-seed=0")
    result.assert_outcomes(passed=4)
    result.stdout.fnmatch_lines(["*dpverify audits:*run in * tests, 1 violation (*",
                                 "*noisy_count, half noise*VIOLATION*"])


@pytest.mark.slow
def test_a_failure_hides_the_library_frames(pytester: pytest.Pytester) -> None:
    """``__tracebackhide__``: the user's line and the report, not dpverify's source."""
    pytester.makepyfile(test_user=USER_TESTS)
    result = run(pytester)
    text = result.stdout.str()
    assert "assert_satisfies(laplace_half_scale, 0.0, 1.0, epsilon=1.0)" in text
    assert "report = audit(sampler" not in text and "__tracebackhide__" not in text


@pytest.mark.slow
def test_the_summary_has_one_row_per_test_its_worst_audit(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_user='''
from hypothesis import given, settings, strategies as st
from dpverify.testing import assert_satisfies

@settings(max_examples=6, derandomize=True, database=None)
@given(st.sampled_from([1.0, 0.5]))
def test_scales(scale):
    assert_satisfies(lambda d, n, rng: d + rng.laplace(0, scale, n), 0.0, 1.0, epsilon=1.0,
                     samples=20_000, label=f"laplace({scale})")
''')
    result = run(pytester)
    result.assert_outcomes(failed=1)
    lines = [line for line in result.stdout.lines
             if line.startswith("test_user.py::test_scales")]
    assert len(lines) == 1, lines
    assert "laplace(0.5)" in lines[0] and "VIOLATION" in lines[0]


RERUN_TESTS = '''
import math
import numpy as np
import pytest
from dpverify.testing import _session, assert_satisfies

def rr(data, size, rng):  # binary randomized response at exactly epsilon = 1: a tight claim
    return np.where(rng.random(size) < math.e / (math.e + 1), data, 1 - data)

def test_settings():
    assert _session.current().test.rerun is True

@pytest.mark.dp_audit(rerun=False)
def test_marker_wins():
    assert _session.current().test.rerun is False

def test_half_scale_still_fails():
    assert_satisfies(lambda d, n, rng: d + rng.laplace(0.0, 0.5, n), 0.0, 1.0, epsilon=1.0,
                     samples=20_000, label="half scale")

@pytest.mark.parametrize("index", range(40))
def test_tight(index):  # confidence 0.5: about a fifth flag, far fewer reproduce
    assert_satisfies(rr, 0, 1, epsilon=1.0, samples=2_000, confidence=0.5, label=f"rr {index}")
'''


def test_dpverify_rerun_clears_flags_that_do_not_reproduce(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_user=RERUN_TESTS)
    result = run(pytester, "--dpverify-rerun", "-W", "ignore::dpverify.errors.AuditWarning")
    outcomes = result.parseoutcomes()
    assert outcomes["passed"] >= 2 + 40 - 6  # at most (1/2)² of 40 expected: 10; 6 is generous
    assert "rerun on fresh samples reproduced it" in result.stdout.str()  # the half scale
    summary = "\n".join(line for line in result.stdout.lines if "dpverify audits:" in line)
    assert "not reproduced on rerun" in summary
    assert "ok (rerun)" in result.stdout.str()


def test_the_rerun_marker_keyword_must_be_a_bool(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_user='''
import pytest

@pytest.mark.dp_audit(rerun="yes")
def test_bad():
    pass
''')
    result = run(pytester)
    result.assert_outcomes(errors=1)
    assert "rerun='yes' must be True or False" in result.stdout.str()
