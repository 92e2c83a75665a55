"""Old path of :mod:`dpverify.accountants.rdp.subsampling_pairs` (Poisson-subsampled RDP from a finite dominating pair).

The module moved into the ``rdp`` family; this path re-exports its names so that
imports written for dpverify 0.1 keep working. New code imports from
:mod:`dpverify.accountants.rdp.subsampling_pairs`.
"""

from dpverify.accountants.rdp.subsampling_pairs import (  # noqa: F401 (re-exported)
    MAX_PAIR_TERMS,
    poisson_subsampled_pair_rdp,
)
