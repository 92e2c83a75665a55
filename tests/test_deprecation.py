"""Old parameter and attribute names keep working for one release, loudly."""

from __future__ import annotations

import dataclasses
import inspect
import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dpverify._deprecation import renamed_attributes, renamed_parameters, renamed_property


@renamed_parameters(eps0="local_epsilon", n="users")
def _amplify(local_epsilon: float, *, users: int = 1) -> tuple[float, int]:
    return local_epsilon, users


@renamed_parameters(lam="regularization")
@dataclasses.dataclass(frozen=True)
class _Ridge:
    regularization: float = 1.0

    lam = renamed_property("lam", "regularization")


def test_new_names_pass_silently() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _amplify(1.0, users=3) == (1.0, 3)
        assert _Ridge(regularization=2.0).regularization == 2.0


@given(st.floats(0, 10), st.integers(1, 10**6))
def test_old_names_translate_with_a_warning_naming_the_new_one(epsilon: float, users: int) -> None:
    with pytest.warns(DeprecationWarning, match="'eps0' is deprecated.*use 'local_epsilon'"):
        with pytest.warns(DeprecationWarning, match="use 'users'"):
            assert _amplify(eps0=epsilon, n=users) == (epsilon, users)


def test_classes_translate_too() -> None:
    with pytest.warns(DeprecationWarning, match="_Ridge\\(\\): the parameter 'lam'.*'regularization'"):
        assert _Ridge(lam=3.0) == _Ridge(regularization=3.0)


def test_a_renamed_field_reads_under_its_old_name_with_a_warning() -> None:
    with pytest.warns(DeprecationWarning, match="_Ridge.lam is deprecated.*use .regularization"):
        assert _Ridge(regularization=4.0).lam == 4.0
    assert [f.name for f in dataclasses.fields(_Ridge)] == ["regularization"]


def test_both_names_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="both 'eps0'.*'local_epsilon'"):
        _amplify(eps0=1.0, local_epsilon=2.0)


def test_the_signature_shows_the_new_names_and_the_renames_are_listed() -> None:
    assert list(inspect.signature(_amplify).parameters) == ["local_epsilon", "users"]
    assert _amplify.__renamed_parameters__ == {"eps0": "local_epsilon", "n": "users"}
    assert "lam" not in inspect.signature(_Ridge).parameters
    assert _Ridge.__renamed_parameters__ == {"lam": "regularization"}


def test_renamed_attributes_serve_the_old_name_with_a_warning() -> None:
    getattr_ = renamed_attributes("pkg", {"Event": ("OutputEvent", int)})
    with pytest.warns(DeprecationWarning, match="pkg.Event is deprecated.*pkg.OutputEvent"):
        assert getattr_("Event") is int
    with pytest.raises(AttributeError, match="no attribute 'Other'"):
        getattr_("Other")


def test_a_rename_to_itself_is_refused() -> None:
    with pytest.raises(ValueError, match="cannot rename"):
        renamed_parameters(epsilon="epsilon")


def test_a_renamed_cli_option_is_hidden_warns_and_acts_as_the_new_one(capsys) -> None:
    import argparse

    from dpverify.cli._core import rename_option

    parser = argparse.ArgumentParser()
    parser.add_argument("--sampling-probability", type=float, required=True)
    parser.add_argument("--json", action="store_true")
    length = parser.add_mutually_exclusive_group(required=True)
    length.add_argument("--steps", type=int)
    length.add_argument("--epochs", type=float)
    rename_option(parser, "--sampling-rate", "--sampling-probability")
    rename_option(parser, "--print-json", "--json")
    rename_option(parser, "--step-count", "--steps")
    assert "--sampling-rate" not in parser.format_help()
    args = parser.parse_args(["--sampling-rate", "0.5", "--print-json", "--step-count", "3"])
    assert (args.sampling_probability, args.json, args.steps) == (0.5, True, 3)
    err = capsys.readouterr().err
    assert err.count("deprecated") == 3 and "--sampling-rate is deprecated" in err
    assert "use --sampling-probability" in err
    for both in (["--sampling-rate", "1", "--sampling-probability", "1", "--steps", "1"],
                 ["--sampling-probability", "1", "--step-count", "1", "--epochs", "1"],
                 ["--steps", "1"]):
        with pytest.raises(SystemExit):
            parser.parse_args(both)
