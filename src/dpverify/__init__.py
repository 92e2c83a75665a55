"""dpverify: differential-privacy accounting and verification.

The names most users need are re-exported here; everything else lives in the
subpackages ``dpverify.accountants`` and ``dpverify.mechanisms``. Importing
``dpverify`` imports nothing heavy beyond numpy and mpmath.
"""

from dpverify.errors import (
    AuditError,
    CalibrationError,
    DpverifyError,
    UnsupportedError,
)
from dpverify.guarantees import (
    ApproxDP,
    EpsilonBounds,
    Guarantee,
    PrivacyProfile,
    PureDP,
    RDPCurve,
    ZCDP,
)
from dpverify.neighbouring import Neighbouring, are_neighbours

__version__ = "0.1.0"

__all__ = [
    "__version__",
    "PureDP",
    "ApproxDP",
    "ZCDP",
    "RDPCurve",
    "PrivacyProfile",
    "EpsilonBounds",
    "Guarantee",
    "Neighbouring",
    "are_neighbours",
    "DpverifyError",
    "UnsupportedError",
    "CalibrationError",
    "AuditError",
]
