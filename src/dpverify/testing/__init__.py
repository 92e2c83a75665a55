"""Property-based testing of privacy claims: strategies, assertions and a pytest plugin.

* :mod:`dpverify.testing.strategies` — hypothesis strategies for privacy
  parameters, guarantees, neighbouring datasets, reward streams, bounded
  vectors and dpverify's mechanisms (imports hypothesis; import it yourself).
* :func:`assert_satisfies` — audit a sampler on a neighbouring pair and fail
  with the audit report when a violation of the (ε, δ) claim is certified.
* :func:`assert_conservative` — fail when an accountant's upper bound falls
  below the exact value.
* The pytest plugin (:mod:`dpverify.testing._plugin`, entry point
  ``pytest11``/``dpverify``): ``--dpverify-seed``, ``--dpverify-samples``,
  ``--dpverify-confidence``, the ``dp_rng`` fixture, the ``dp_audit`` marker
  and a summary table of the audits run.

Importing this package is cheap: the assertions (which need numpy, scipy and
:mod:`dpverify.auditing`) are imported on first use of their names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dpverify._lazy import lazy_exports

if TYPE_CHECKING:  # the static view of the lazy re-exports below
    from dpverify.testing.assertions import assert_conservative, assert_satisfies

__all__ = ["assert_satisfies", "assert_conservative"]

__getattr__, __dir__ = lazy_exports(__name__, globals(),
                                    dict.fromkeys(__all__, "dpverify.testing.assertions"))
