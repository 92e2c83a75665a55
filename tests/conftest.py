"""Shared test set-up: the result store of sweeps and reproductions lives in a temporary directory;
the options of the project's own test suite."""

from __future__ import annotations

import os

import pytest


def pytest_addoption(parser):
    parser.addoption(
        "--dpverify-fuzz-examples", type=int, default=4, metavar="N",
        help="hostile values drawn by hypothesis per fuzz row, on top of the fixed "
             "hostile set (default 4; e.g. 500 for an on-demand run)")
    parser.addoption(
        "--dpverify-fuzz-workers", type=int, default=2, metavar="N",
        help="forked worker processes running the fuzz test's fixed calls at once (default 2)")


@pytest.fixture(autouse=True, scope="session")
def _private_result_store(tmp_path_factory: pytest.TempPathFactory):
    """Never read or fill the user's cache (``~/.cache/dpverify``) from the tests; CLI subprocesses inherit it."""
    previous = os.environ.get("DPVERIFY_CACHE_DIR")
    os.environ["DPVERIFY_CACHE_DIR"] = str(tmp_path_factory.mktemp("dpverify-cache"))
    yield
    if previous is None:
        os.environ.pop("DPVERIFY_CACHE_DIR", None)
    else:
        os.environ["DPVERIFY_CACHE_DIR"] = previous
