"""Fuzz rows for :mod:`dpverify` (guarantee values, neighbouring relations)."""

from __future__ import annotations

import mpmath

import dpverify
from dpverify import ZCDP, ApproxDP, EpsilonBounds, Neighbouring, PrivacyProfile, PureDP, RDPCurve
from fuzz._harness import Row

MODULE = dpverify

ROWS = {
    "PureDP": Row(PureDP, {"epsilon": 1.0}),
    "ApproxDP": Row(ApproxDP, {"epsilon": 1.0, "delta": 1e-5}),
    "ZCDP": Row(ZCDP, {"rho": 0.5, "xi": 0.0}, kinds={"xi": "epsilon"}),
    "RDPCurve": Row(RDPCurve, {"orders": (2.0, 3.0), "epsilons": (1.0, 2.0)}),
    "PrivacyProfile": Row(PrivacyProfile, {"curve": lambda eps: mpmath.mpf(0), "description": "zero"},
                          kinds={"relative_error": "positive"}),
    "EpsilonBounds": Row(EpsilonBounds, {"lower": 0.5, "upper": 1.0},
                         kinds={"lower": "epsilon", "upper": "epsilon"}),
    "Neighbouring": Row(Neighbouring, {"value": "replace-one"}, skip={
        "names": "Enum functional API", "module": "Enum functional API",
        "qualname": "Enum functional API", "type": "Enum functional API",
        "start": "Enum functional API", "boundary": "Enum functional API"}),
    "are_neighbours": Row(dpverify.are_neighbours, {"x": [1, 2, 3], "x_prime": [1, 2, 4],
                                                    "neighbouring": "replace-one"},
                          kinds={"x": "any", "x_prime": "any"}),
}

# Names of MODULE.__all__ that are not fuzzed, with the reason.
NOT_FUZZED = {
    "__version__": "a string constant",
    "Guarantee": "a typing.Union alias, not callable",
    "DpverifyError": "an exception type (its argument is a message)",
    "UnsupportedError": "an exception type (its argument is a message)",
    "CalibrationError": "an exception type (its argument is a message)",
    "AuditError": "an exception type (its argument is a message)",
}
