"""Options of the project's own test suite."""

from __future__ import annotations


def pytest_addoption(parser):
    parser.addoption(
        "--dpverify-fuzz-examples", type=int, default=4, metavar="N",
        help="hostile values drawn by hypothesis per fuzz row, on top of the fixed "
             "hostile set (default 4; e.g. 500 for an on-demand run)")
