"""Old path of :mod:`dpverify.accountants.pld.subsampling` (Poisson subsampling as PLDs) and of
:func:`~dpverify.accountants.dominating_pairs.dominating_pair` (finite dominating pairs).

The PLD half moved into the ``pld`` family, the pairs down to
:mod:`dpverify.accountants.dominating_pairs` (PLD and RDP both compute from them); this
path re-exports their names so that imports written for dpverify 0.1 keep working.
"""

from dpverify.accountants.dominating_pairs import dominating_pair  # noqa: F401 (re-exported)
from dpverify.accountants.pld.subsampling import poisson_subsampled_pld  # noqa: F401 (re-exported)
