"""Two-sample tests shared by the bandit tests (imported as ``_stats``; pytest puts this directory on sys.path)."""

from __future__ import annotations

import numpy as np
import scipy.stats

#: p-value below which a same-law test fails; with a fresh seed each such test
#: fails falsely with probability 1e-3 (the tests use fixed seeds).
P_MIN = 1e-3


def two_sample_chisquare(first: np.ndarray, second: np.ndarray, *, min_expected: float = 5.0) -> float:
    """p-value of the chi-square homogeneity test of two integer samples.

    Values are binned on their joint support; adjacent bins are merged from
    the left until both expected counts are at least ``min_expected``.
    """
    first, second = np.asarray(first, dtype=np.int64), np.asarray(second, dtype=np.int64)
    low = min(first.min(), second.min())
    size = max(first.max(), second.max()) - low + 1
    a = np.bincount(first - low, minlength=size).astype(float)
    b = np.bincount(second - low, minlength=size).astype(float)
    share = len(first) / (len(first) + len(second))
    rows, acc_a, acc_b = [], 0.0, 0.0
    for x, y in zip(a, b):
        acc_a, acc_b = acc_a + x, acc_b + y
        total = acc_a + acc_b
        if total * min(share, 1 - share) >= min_expected:
            rows.append((acc_a, acc_b))
            acc_a = acc_b = 0.0
    if acc_a or acc_b:
        rows[-1] = (rows[-1][0] + acc_a, rows[-1][1] + acc_b)
    assert len(rows) >= 2, "too few bins"
    return float(scipy.stats.chi2_contingency(np.array(rows).T, correction=False)[1])
