"""Old path of :mod:`dpverify.accountants.rdp.subsampling` (amplification by subsampling in Rényi DP).

The module moved into the ``rdp`` family; this path re-exports its names so that
imports written for dpverify 0.1 keep working. New code imports from
:mod:`dpverify.accountants.rdp.subsampling`.
"""

from dpverify.accountants.rdp.subsampling import (  # noqa: F401 (re-exported)
    MAX_SUBSAMPLED_ORDER,
    MAX_SUBSAMPLED_TERMS,
    integer_orders_needed,
    poisson_subsampled_laplace_rdp,
    poisson_subsampled_rdp,
    without_replacement_gaussian_rdp,
    without_replacement_rdp,
)
