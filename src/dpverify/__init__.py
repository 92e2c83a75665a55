"""dpverify: differential-privacy accounting and verification.

The names most users need are re-exported here; everything else lives in the
subpackages ``dpverify.accountants`` and ``dpverify.mechanisms``.

The re-exports are resolved lazily (PEP 562 ``__getattr__``): ``import
dpverify`` itself imports nothing, so that loading a submodule that needs
none of them — the pytest plugin :mod:`dpverify.testing._plugin`, which every
test run of an environment with dpverify installed loads — costs no numpy or
mpmath import. ``from dpverify import PureDP`` works as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dpverify._lazy import lazy_exports

if TYPE_CHECKING:  # the static view of the lazy re-exports below
    from dpverify.errors import AuditError, CalibrationError, DpverifyError, UnsupportedError
    from dpverify.guarantees import (
        ZCDP,
        ApproxDP,
        EpsilonBounds,
        Guarantee,
        PrivacyProfile,
        PureDP,
        RDPCurve,
    )
    from dpverify.neighbouring import Neighbouring, are_neighbours

__version__ = "0.1.0"

_REEXPORTS = {
    "PureDP": "dpverify.guarantees",
    "ApproxDP": "dpverify.guarantees",
    "ZCDP": "dpverify.guarantees",
    "RDPCurve": "dpverify.guarantees",
    "PrivacyProfile": "dpverify.guarantees",
    "EpsilonBounds": "dpverify.guarantees",
    "Guarantee": "dpverify.guarantees",
    "Neighbouring": "dpverify.neighbouring",
    "are_neighbours": "dpverify.neighbouring",
    "DpverifyError": "dpverify.errors",
    "UnsupportedError": "dpverify.errors",
    "CalibrationError": "dpverify.errors",
    "AuditError": "dpverify.errors",
}

__all__ = ["__version__", *_REEXPORTS]


__getattr__, __dir__ = lazy_exports(__name__, globals(), _REEXPORTS)
