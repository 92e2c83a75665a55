"""The result store: keys change with every setting, outcomes round-trip, only missing runs are
computed, the default directory follows the environment."""

from __future__ import annotations

import numpy as np
import pytest

from dpverify.bandits.environments import InstanceFamily
from dpverify.bandits.experiments import AlgorithmSpec
from dpverify.bandits.store import (
    ResultStore,
    canonical,
    default_cache_dir,
    run_cached,
    task_key,
)

EASY = InstanceFamily("easy", 4)
ALGORITHMS = (AlgorithmSpec("dist-dp-se", "Dist-DP-SE"), AlgorithmSpec("se", "SE (non-private)"))


def test_keys_change_with_every_setting() -> None:
    seed = np.random.SeedSequence([0, 0]).spawn(1)[0]
    base = {"algorithm": ALGORITHMS[0], "epsilon": 0.1, "instances": EASY, "horizon": 10, "seed": seed}
    keys = {task_key(base),
            task_key({**base, "epsilon": 0.1000000000000001}),
            task_key({**base, "instances": InstanceFamily("easy", 5)}),
            task_key({**base, "seed": np.random.SeedSequence([0, 0]).spawn(2)[1]}),
            task_key({**base, "algorithm": AlgorithmSpec("dist-dp-se", "x", (("batch_base", 4),))})}
    assert len(keys) == 5
    relabelled = {**base, "algorithm": AlgorithmSpec("dist-dp-se", "another label")}
    assert task_key(relabelled) == task_key(base)
    with pytest.raises(TypeError):
        canonical(object())


def test_an_outcome_round_trips_with_arrays_scalars_and_none(tmp_path) -> None:
    store = ResultStore(tmp_path)
    key = task_key({"run": 1})
    assert key not in store and store.get(key) is None
    store.put(key, (np.arange(3), 0.25, None))
    regret, cost, missing = store.get(key)
    assert key in store and np.array_equal(regret, [0, 1, 2]) and isinstance(regret, np.ndarray)
    assert cost == 0.25 and isinstance(cost, float) and missing is None
    (entry,) = tmp_path.rglob("*.npz")
    entry.write_bytes(b"not an npz file")
    assert store.get(key) is None  # an unreadable entry is recomputed, not an error


def test_run_cached_computes_only_the_missing_runs(tmp_path) -> None:
    calls = []

    def square(x: int) -> tuple:
        calls.append(x)
        return (np.asarray(x * x),)

    store = ResultStore(tmp_path)
    outcomes, computed = run_cached(square, [(2,), (3,)], [{"x": 2}, {"x": 3}], store)
    assert computed == 2 and [int(o[0]) for o in outcomes] == [4, 9]
    outcomes, computed = run_cached(square, [(3,), (4,)], [{"x": 3}, {"x": 4}], store)
    assert computed == 1 and [int(o[0]) for o in outcomes] == [9, 16] and calls == [2, 3, 4]
    assert run_cached(square, [(3,)], [{"x": 3}], None)[1] == 1 and calls[-1] == 3


def test_default_cache_dir_follows_the_environment(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("DPVERIFY_CACHE_DIR", str(tmp_path / "explicit"))
    assert default_cache_dir() == tmp_path / "explicit"
    monkeypatch.delenv("DPVERIFY_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_dir() == tmp_path / "xdg" / "dpverify" / "results"
    assert ResultStore().directory == tmp_path / "xdg" / "dpverify" / "results"
