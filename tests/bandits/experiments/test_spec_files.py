"""Sweep specs from mappings (TOML files): a bad key is named; a spec can name a registered experiment."""

from __future__ import annotations

import pytest

from dpverify.bandits.experiments.spec_files import sweep_spec_from_mapping


@pytest.mark.parametrize("bad, name", [
    ({"runs": 2, "epsilons": [1.0], "horizons": [100], "instances": [{"family": "easy"}]}, "algorithms"),
    ({"algorithms": [{"name": "nope"}], "epsilons": [1.0], "horizons": [100],
      "instances": [{"family": "easy"}]}, "algorithms.name"),
    ({"algorithms": [{"name": "se"}], "epsilons": [1.0], "horizons": [100],
      "instances": [{"means": [0.5, 1.5]}]}, "means"),
    ({"algorithms": [{"name": "se"}], "epsilons": [1.0], "horizons": [100],
      "instances": [{"family": "easy"}], "colour": "red"}, "spec"),
])
def test_bad_specs_name_the_key(bad, name) -> None:
    with pytest.raises((ValueError, TypeError), match=name):
        sweep_spec_from_mapping(bad)


def test_a_spec_file_can_name_a_registered_experiment() -> None:
    spec = sweep_spec_from_mapping({"experiment": "chowdhury2023-fig1", "panels": ["b"],
                                    "runs": 2, "preset": "quick", "seed": 4})
    assert (spec.name, spec.runs, spec.seed) == ("chowdhury2023-fig1", 2, 4)
    assert [(p.key, p.horizon) for p in spec.panels] == [("b", 10 ** 5)]
