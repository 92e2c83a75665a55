"""Old path of :mod:`dpverify.accountants.pld.subsampling_wor` (sampling without replacement as PLDs).

The module moved into the ``pld`` family; this path re-exports its names so that
imports written for dpverify 0.1 keep working. New code imports from
:mod:`dpverify.accountants.pld.subsampling_wor`.
"""

from dpverify.accountants.pld.subsampling_wor import (  # noqa: F401 (re-exported)
    without_replacement_gaussian_pld,
    without_replacement_pld,
)
