"""Old path of :mod:`dpverify.accountants.pld.mixture_gaussian` (the PLD of a mixture of Gaussians).

The module moved into the ``pld`` family; this path re-exports its names so that
imports written for dpverify 0.1 keep working. New code imports from
:mod:`dpverify.accountants.pld.mixture_gaussian`.
"""

from dpverify.accountants.pld.mixture_gaussian import (  # noqa: F401 (re-exported)
    mixture_gaussian_pld,
)
