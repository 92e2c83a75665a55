"""Shared test set-up: the result store of sweeps and reproductions lives in a temporary directory."""

from __future__ import annotations

import os

import pytest


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
