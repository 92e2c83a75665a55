"""Old path of :mod:`dpverify.accountants.rdp.repeat_select` (Rényi DP of repeat-and-select).

The module moved into the ``rdp`` family; this path re-exports its names so that
imports written for dpverify 0.1 keep working. New code imports from
:mod:`dpverify.accountants.rdp.repeat_select`.
"""

from dpverify.accountants.rdp.repeat_select import (  # noqa: F401 (re-exported)
    repeat_and_select_rdp,
    truncated_negative_binomial_gamma,
)
