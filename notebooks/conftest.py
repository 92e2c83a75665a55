"""Time limit for the executed notebooks (CI: ``pytest --nbmake notebooks/``, see ``.ci/run``).

``--nbmake-timeout`` bounds each cell; this hook bounds each whole notebook, so that
the documentation stays quick to re-execute: a notebook that takes longer than
:data:`NOTEBOOK_SECONDS` fails with its time.
"""

from __future__ import annotations

import time

import pytest

#: Wall-clock budget of one notebook, in seconds: each takes under a minute on 2 cores; the
#: margin is for a loaded CI machine, the limit for a notebook that runs away.
NOTEBOOK_SECONDS = 180.0


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item):
    start = time.perf_counter()
    result = yield  # a failing notebook raises here and its error propagates
    elapsed = time.perf_counter() - start
    if elapsed > NOTEBOOK_SECONDS:
        pytest.fail(f"{item.name} took {elapsed:.0f} s, over the {NOTEBOOK_SECONDS:.0f} s budget "
                    "of a notebook")
    return result
