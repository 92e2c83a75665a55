"""Exception hierarchy of dpverify.

Every error raised on purpose by dpverify derives from :class:`DpverifyError`.
Where a built-in exception fits, the dpverify class also inherits it, so
``except ValueError`` keeps working (hypothesis's ``InvalidArgument`` pattern).
"""

from __future__ import annotations

__all__ = [
    "DpverifyError",
    "DpverifyValueError",
    "DpverifyTypeError",
    "UnsupportedError",
    "CalibrationError",
    "AuditError",
    "AuditWarning",
]


class DpverifyError(Exception):
    """Base class of every error dpverify raises on purpose."""


class DpverifyValueError(DpverifyError, ValueError):
    """An argument has the right kind but a value outside its allowed range."""


class DpverifyTypeError(DpverifyError, TypeError):
    """An argument has the wrong kind (a string where a number is needed, ...)."""


class UnsupportedError(DpverifyError, NotImplementedError):
    """A combination (mechanism, guarantee, method) that dpverify does not support.

    The message names the supported combinations.
    """


class CalibrationError(DpverifyError, ValueError):
    """A calibration has no feasible value, or its search bracket cannot be verified."""


class AuditError(DpverifyError, RuntimeError):
    """An audit cannot be carried out as requested (too few samples, bad sampler output)."""


class AuditWarning(UserWarning):
    """An audit found its sampler misbehaving and changed how it draws (the message says how).

    Raised as a warning, not an error: the audit still runs, in the safe way.
    """
