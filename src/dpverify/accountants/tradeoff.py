"""Old path of :mod:`dpverify.accountants.pld.tradeoff` (trade-off (f-DP) curves of a PLD).

The module moved into the ``pld`` family; this path re-exports its names so that
imports written for dpverify 0.1 keep working. New code imports from
:mod:`dpverify.accountants.pld.tradeoff`.
"""

from dpverify.accountants.pld.tradeoff import (  # noqa: F401 (re-exported)
    tradeoff_curve,
    true_positive_rate,
)
