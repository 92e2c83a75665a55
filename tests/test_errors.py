"""The exception hierarchy: every error is a DpverifyError and the built-in it stands for."""

from __future__ import annotations

import warnings

import pytest

import dpverify
from dpverify import errors

BUILT_IN = {
    errors.DpverifyValueError: ValueError,
    errors.DpverifyTypeError: TypeError,
    errors.UnsupportedError: NotImplementedError,
    errors.CalibrationError: ValueError,
    errors.AuditError: RuntimeError,
}


def test_every_public_name_is_in_the_table_or_the_base_or_the_warning() -> None:
    assert set(errors.__all__) == {cls.__name__ for cls in BUILT_IN} | {"DpverifyError",
                                                                        "AuditWarning"}


@pytest.mark.parametrize("cls, built_in", BUILT_IN.items(), ids=lambda v: v.__name__)
def test_each_error_is_caught_as_a_dpverify_error_and_as_its_built_in(cls, built_in) -> None:
    for caught in (errors.DpverifyError, built_in):
        with pytest.raises(caught, match="the message"):
            raise cls("the message")
    assert issubclass(errors.DpverifyError, Exception)
    assert not issubclass(errors.DpverifyError, (ValueError, TypeError, RuntimeError))


def test_the_audit_warning_is_a_warning_not_an_error() -> None:
    assert issubclass(errors.AuditWarning, UserWarning)
    assert not issubclass(errors.AuditWarning, errors.DpverifyError)
    with pytest.warns(errors.AuditWarning, match="sampler"):
        warnings.warn("the sampler misbehaved", errors.AuditWarning, stacklevel=1)


def test_library_refusals_are_of_this_hierarchy() -> None:
    """A bad argument to a public function raises the dpverify class (``except ValueError`` works
    too)."""
    assert dpverify.DpverifyError is errors.DpverifyError  # also at the top level
    with pytest.raises(errors.DpverifyValueError, match="epsilon"):
        dpverify.PureDP(-1.0)
    with pytest.raises(errors.DpverifyTypeError, match="epsilon"):
        dpverify.PureDP("one")
