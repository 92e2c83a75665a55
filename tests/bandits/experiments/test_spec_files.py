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


_GOOD = {"algorithms": [{"name": "dp-se"}], "epsilons": [1.0], "horizons": [100],
         "instances": [{"family": "easy"}]}


@pytest.mark.parametrize("key, value, named", [
    ("epsilons", ["abc"], r"epsilons\[0\]"), ("epsilons", [""], r"epsilons\[0\]"),
    ("epsilons", [1.0, -1.0], r"epsilons\[1\]"), ("deltas", ["abc"], r"deltas\[0\]"),
    ("deltas", [1.5], r"deltas\[0\]"), ("horizons", [100, 0], r"horizons\[1\]"),
    ("runs", 1.5, "runs"), ("runs", "3", "runs"), ("seed", -1, "seed"),
])
def test_every_value_is_checked_before_a_run(key, value, named) -> None:
    """Issue 28: ``epsilons = ["abc"]`` or ``runs = 1.0``-like values ended in exit 3 or were
    ignored; each is refused up front, naming the key (and the entry's index)."""
    with pytest.raises((ValueError, TypeError), match=named):
        sweep_spec_from_mapping({**_GOOD, key: value})


def test_a_spec_file_error_names_the_file(tmp_path) -> None:
    from dpverify.bandits.experiments.spec_files import load_sweep_spec

    path = tmp_path / "bad.toml"
    path.write_text('algorithms = [{name = "dp-se"}]\nepsilons = ["abc"]\nhorizons = [100]\n'
                    'instances = [{family = "easy"}]\n')
    with pytest.raises(TypeError, match=r"bad\.toml: epsilons\[0\]"):
        load_sweep_spec(path)


@pytest.mark.parametrize("key, value, named, limit", [
    ("runs", 10**12, "runs", "100000"), ("horizons", [100, 10**11], r"horizons\[1\]", "10000000000"),
    ("checkpoints", 10**9, "checkpoints", "100000"),
])
def test_work_that_grows_with_a_value_is_refused_before_it_starts(key, value, named, limit) -> None:
    """``runs = 1e12`` in a spec file listed 10^12 runs before the first simulation (a hang);
    each size is refused up front, naming the key and the limit."""
    import time

    start = time.process_time()
    with pytest.raises(ValueError, match=named) as info:
        sweep_spec_from_mapping({**_GOOD, key: value})
    assert limit in str(info.value)
    assert time.process_time() - start < 5


def test_a_sweep_of_too_many_runs_in_all_is_refused() -> None:
    from dpverify.bandits.experiments.sweeps import MAX_SWEEP_TASKS

    many = {**_GOOD, "runs": 10**5, "epsilons": [0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0,
                                                   128.0, 256.0, 512.0]}
    with pytest.raises(ValueError, match="split the sweep") as info:
        sweep_spec_from_mapping(many)
    assert str(MAX_SWEEP_TASKS) in str(info.value) and "1100000" in str(info.value)
    assert sweep_spec_from_mapping({**many, "runs": 9 * 10**4}).tasks == 990_000
