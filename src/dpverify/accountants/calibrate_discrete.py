"""Old path of :mod:`dpverify.accountants.calibrate.discrete` (the least discrete-Gaussian σ for a budget).

The module moved into the ``calibrate`` family; this path re-exports its names so that
imports written for dpverify 0.1 keep working. New code imports from
:mod:`dpverify.accountants.calibrate.discrete`.
"""

from dpverify.accountants.calibrate.discrete import (  # noqa: F401 (re-exported)
    min_discrete_gaussian_sigma,
)
