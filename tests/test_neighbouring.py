"""Neighbouring relations."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dpverify import Neighbouring, are_neighbours


@pytest.mark.slow
@given(st.lists(st.integers(0, 3), min_size=1, max_size=20), st.data())
def test_replacing_one_record_gives_neighbours(data: list[int], draw) -> None:
    i = draw.draw(st.integers(0, len(data) - 1))
    other = list(data)
    other[i] = draw.draw(st.integers(0, 3))
    assert are_neighbours(data, other, Neighbouring.REPLACE_ONE)
    assert are_neighbours(data, other, "replace-special")
    assert are_neighbours(data, data[:i] + data[i + 1:], "add-remove")
    assert not are_neighbours(data, data[:i] + data[i + 1:], "replace-one")


def test_two_changes_are_not_neighbours() -> None:
    assert not are_neighbours([0, 0, 0], [1, 1, 0])
    assert not are_neighbours([0, 0, 0], [0], "add-remove")
    assert not are_neighbours([1, 2, 3], [2, 1], "add-remove")


def test_vector_records() -> None:
    x = [np.array([0.0, 1.0]), np.array([1.0, 1.0])]
    assert are_neighbours(x, [np.array([0.0, 1.0]), np.array([0.5, 0.5])])


def test_bad_relation_and_data() -> None:
    with pytest.raises(ValueError, match="neighbouring='swap' must be one of 'add-remove', "
                                         "'replace-one', 'replace-special'"):
        are_neighbours([1], [2], "swap")
    with pytest.raises(TypeError, match="x="):
        are_neighbours("abc", [1, 2, 3])


def test_members_are_their_strings_and_parse_either() -> None:
    for member in Neighbouring:
        assert Neighbouring.parse(member) is member
        assert Neighbouring.parse(member.value) is member
        assert member == member.value
    with pytest.raises(TypeError, match="neighbouring=1 must be a Neighbouring or a string"):
        Neighbouring.parse(1)


def test_the_spellings_of_0_1_mean_replace_one_with_a_warning() -> None:
    with pytest.warns(DeprecationWarning, match="Neighbouring.REPLACE is deprecated.*REPLACE_ONE"):
        assert Neighbouring.REPLACE is Neighbouring.REPLACE_ONE
    with pytest.warns(DeprecationWarning, match="'replace' is deprecated.*'replace-one'"):
        assert Neighbouring.parse("replace") is Neighbouring.REPLACE_ONE
    with pytest.warns(DeprecationWarning, match="'replace' is deprecated"):
        assert Neighbouring("replace") is Neighbouring.REPLACE_ONE
    with pytest.raises(AttributeError):
        Neighbouring.SWAP  # noqa: B018


def test_require_names_the_supported_relations() -> None:
    from dpverify.errors import UnsupportedError

    supported = (Neighbouring.ADD_REMOVE, Neighbouring.REPLACE_SPECIAL)
    assert Neighbouring.require("add-remove", supported, "it") is Neighbouring.ADD_REMOVE
    with pytest.raises(UnsupportedError, match=r"it supports neighbouring in \('add-remove', "
                                               r"'replace-special'\), not 'replace-one'"):
        Neighbouring.require(Neighbouring.REPLACE_ONE, supported, "it")


@pytest.mark.parametrize("neighbouring", [Neighbouring.ADD_REMOVE, "add-remove"])
def test_are_neighbours_takes_the_enum_or_the_string(neighbouring) -> None:
    assert are_neighbours([1, 2], [1], neighbouring=neighbouring)
    assert not are_neighbours([1, 2], [1, 3], neighbouring=neighbouring)


# --- every public function taking ``neighbouring`` takes the enum or its string ------------------

BOTH_SPELLINGS = pytest.mark.parametrize("spelling", [lambda m: m, lambda m: m.value],
                                         ids=["enum", "string"])


@BOTH_SPELLINGS
def test_privacy_map_takes_the_enum_or_the_string(spelling) -> None:
    from dpverify import PrivacyProfile
    from dpverify.mechanisms import MixtureOfGaussians, privacy_map

    mechanism = MixtureOfGaussians(1.0, (0.0, 1.0), (0.5, 0.5))
    profile = privacy_map(mechanism, neighbouring=spelling(Neighbouring.ADD_REMOVE),
                          target=PrivacyProfile)
    assert profile.delta_for_epsilon(1.0) == privacy_map(
        mechanism, neighbouring="add-remove", target=PrivacyProfile).delta_for_epsilon(1.0)


@BOTH_SPELLINGS
def test_neighbouring_datasets_takes_the_enum_or_the_string(spelling) -> None:
    from hypothesis import find

    from dpverify.testing.strategies import neighbouring_datasets

    x, x_prime = find(neighbouring_datasets(st.integers(0, 3), min_size=2,
                                            neighbouring=spelling(Neighbouring.ADD_REMOVE)),
                      lambda pair: True)
    assert abs(len(x) - len(x_prime)) == 1


@BOTH_SPELLINGS
def test_subsampled_gaussian_pld_takes_the_enum_or_the_string(spelling) -> None:
    from dpverify.accountants.pld import PrivacyLossDistribution

    replace = PrivacyLossDistribution.from_subsampled_gaussian(
        1.0, 0.1, neighbouring=spelling(Neighbouring.REPLACE_ONE))
    remove = PrivacyLossDistribution.from_subsampled_gaussian(1.0, 0.1)
    assert replace.delta_for_epsilon(0.5) > remove.delta_for_epsilon(0.5)


@BOTH_SPELLINGS
def test_privacy_accountant_takes_the_enum_or_the_string(spelling) -> None:
    from dpverify.accountants import PrivacyAccountant

    accountant = PrivacyAccountant("pld", neighbouring=spelling(Neighbouring.REPLACE_SPECIAL))
    assert accountant.neighbouring is Neighbouring.REPLACE_SPECIAL
    assert accountant.state_dict()["neighbouring"] == "replace-special"
    assert PrivacyAccountant.from_state_dict(accountant.state_dict()).neighbouring \
        is Neighbouring.REPLACE_SPECIAL
