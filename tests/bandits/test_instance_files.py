"""User-defined instances: the same instance from JSON, TOML or a mapping; bad files and keys
are named."""

from __future__ import annotations

import json

import numpy as np
import pytest

from dpverify.bandits.environments import BernoulliBandit, ClippedGaussianBandit
from dpverify.bandits.instance_files import FixedInstance, instance_from_mapping, load_instance


def test_json_and_toml_files_give_the_same_instance_named_by_the_file(tmp_path) -> None:
    (tmp_path / "arms.json").write_text(json.dumps({"means": [0.2, 0.5, 0.7]}))
    (tmp_path / "arms.toml").write_text("means = [0.2, 0.5, 0.7]\n")
    from_json = load_instance(tmp_path / "arms.json")
    from_toml = load_instance(tmp_path / "arms.toml")
    assert from_json == from_toml == FixedInstance("arms", means=(0.2, 0.5, 0.7))
    assert hash(from_json) == hash(from_toml)  # keyed by content, never by path
    environment = from_json(np.random.default_rng(0))
    assert isinstance(environment, BernoulliBandit) and environment.best_arm == 2


def test_rewards_and_linear_instances() -> None:
    gaussian = instance_from_mapping({"means": [0.1, 0.3], "rewards": "clipped-gaussian",
                                      "sigma": 0.2})
    assert isinstance(gaussian.build(), ClippedGaussianBandit) and gaussian.build().sigma == 0.2
    assert gaussian.describe() == "instance (K=2, clipped-gaussian)"
    linear = instance_from_mapping({"name": "plane", "theta": [0.6, 0.8],
                                    "actions": [[1, 0], [0, 1], [0.6, 0.8]]})
    assert linear.linear and (linear.n_arms, linear.dimension) == (3, 2)
    assert linear.build().best_arm == 2 and linear.describe() == "plane (k=3, d=2)"


@pytest.mark.parametrize("data, fragment", [
    ({"means": [0.5], "colour": "red"}, "colour"),
    ({"means": [0.5], "theta": [1.0], "actions": [[1.0]]}, "either means, or theta and actions"),
    ({"theta": [1.0]}, "both theta and actions"),
    ({"means": [0.5], "rewards": "poisson"}, "rewards"),
    ({"means": [1.5]}, "means"),
    ([0.5], "mapping"),
])
def test_bad_mappings_are_refused_naming_what_is_wrong(data, fragment) -> None:
    with pytest.raises(ValueError, match=fragment):
        instance_from_mapping(data)


def test_bad_files_are_refused(tmp_path) -> None:
    with pytest.raises(ValueError, match="existing"):
        load_instance(tmp_path / "missing.json")
    (tmp_path / "arms.yaml").write_text("means: [0.5]\n")
    with pytest.raises(ValueError, match=r"\.json or \.toml"):
        load_instance(tmp_path / "arms.yaml")
    (tmp_path / "broken.toml").write_text("means = [0.5\n")
    with pytest.raises(ValueError, match="valid TOML"):
        load_instance(tmp_path / "broken.toml")
