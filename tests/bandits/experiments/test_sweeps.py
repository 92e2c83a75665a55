"""Sweeps: specs from TOML, the result store (no work on a re-run, resume after interruption), CRN."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

from dpverify.bandits.environments import InstanceFamily
from dpverify.bandits.experiments import (
    AlgorithmSpec,
    Panel,
    ResultStore,
    SweepSpec,
    load_sweep_spec,
    sweep,
)
from dpverify.bandits.experiments import sweeps as sweeps_module
from dpverify.bandits.instance_files import FixedInstance, load_instance

EASY = InstanceFamily("easy", 4)
ALGORITHMS = (AlgorithmSpec("dist-dp-se", "Dist-DP-SE"), AlgorithmSpec("se", "SE (non-private)"))


def _spec(runs: int = 3) -> SweepSpec:
    panels = tuple(Panel(f"eps={e:g}", f"ε = {e:g}", EASY, e, 20_000, ALGORITHMS) for e in (0.5, 2.0))
    return SweepSpec("tiny", panels, runs=runs, seed=5, checkpoints=20)


def _arrays(result) -> list[np.ndarray]:
    return [a for _, sims in result.results for sim in sims
            for a in (sim.pseudo_regret, sim.realised_regret, sim.pulls)]


def _same(first, second) -> bool:
    return all(np.array_equal(a, b) for a, b in zip(_arrays(first), _arrays(second), strict=True))


@pytest.mark.slow
def test_a_finished_sweep_recomputes_nothing(tmp_path) -> None:
    spec = _spec()
    first = sweep(spec, cache_dir=tmp_path)
    assert (first.computed, first.cached) == (spec.tasks, 0) == (12, 0)
    again = sweep(spec, cache_dir=tmp_path)
    assert (again.computed, again.cached) == (0, 12)
    assert _same(first, again)
    uncached = sweep(spec, cache=False)
    assert uncached.computed == 12 and _same(first, uncached)
    assert not any(ResultStore(tmp_path / "elsewhere").directory.glob("*"))


@pytest.mark.slow
def test_an_interrupted_sweep_resumes_and_ends_identical(tmp_path, monkeypatch) -> None:
    spec, calls = _spec(), []
    real = sweeps_module._run_task

    def interrupted(*task):
        if len(calls) == 5:
            raise KeyboardInterrupt
        calls.append(task)
        return real(*task)

    monkeypatch.setattr(sweeps_module, "_run_task", interrupted)
    with pytest.raises(KeyboardInterrupt):
        sweep(spec, cache_dir=tmp_path)
    monkeypatch.setattr(sweeps_module, "_run_task", real)
    resumed = sweep(spec, cache_dir=tmp_path)
    assert (resumed.computed, resumed.cached) == (7, 5)
    assert _same(resumed, sweep(spec, cache=False))


@pytest.mark.slow
def test_more_runs_reuse_the_first_ones(tmp_path) -> None:
    sweep(_spec(runs=2), cache_dir=tmp_path)
    more = sweep(_spec(runs=3), cache_dir=tmp_path)
    assert (more.computed, more.cached) == (4, 8)


@pytest.mark.slow
def test_panels_differing_only_in_epsilon_share_instances_and_streams() -> None:
    result = sweep(_spec(), cache=False)
    (_, low), (_, high) = result.results
    # the non-private algorithm ignores ε: with common random numbers its runs coincide
    assert np.array_equal(low[1].pseudo_regret, high[1].pseudo_regret)
    assert not np.array_equal(low[0].pseudo_regret, high[0].pseudo_regret)


@pytest.mark.slow
def test_toml_spec_with_user_instances_writes_tidy_tables(tmp_path) -> None:
    pytest.importorskip("matplotlib")
    (tmp_path / "linear.json").write_text(json.dumps(
        {"theta": [0.6, 0.8], "actions": [[1, 0], [0, 1], [0.6, 0.8]]}))
    (tmp_path / "spec.toml").write_text("""
name = "mine"
runs = 2
seed = 3
checkpoints = 10
epsilons = [1.0]
horizons = [5000]

[[algorithms]]
name = "dist-dp-se"
label = "Dist-DP-SE"
options = { batch_base = 4 }

[[instances]]
name = "three arms"
means = [0.2, 0.5, 0.7]
rewards = "bernoulli"
""")
    spec = load_sweep_spec(tmp_path / "spec.toml")
    assert spec.panels[0].instances == FixedInstance("three arms", means=(0.2, 0.5, 0.7))
    result = sweep(spec, cache_dir=tmp_path / "cache", out_dir=tmp_path / "out")
    names = {path.name for path in result.files}
    assert {"mine.csv", "mine-runs.csv", "mine-summary.csv", "mine.png"} <= names
    rows = list(csv.DictReader((tmp_path / "out" / "mine-runs.csv").open()))
    assert len(rows) == 2 * len(result.results[0][1][0].checkpoints)
    assert {r["run"] for r in rows} == {"0", "1"}
    assert {r["guarantee_model"] for r in rows} == {"distributed (secure aggregation)"}
    assert float(rows[-1]["round"]) == 5000
    linear = load_instance(tmp_path / "linear.json")
    assert linear.linear and linear.k == 3 and linear.build().best_arm == 2


def test_simulate_reads_its_runs_from_the_store(tmp_path, monkeypatch) -> None:
    from dpverify.bandits import simulate as simulate_module
    from dpverify.bandits.mab import make_algorithm

    algorithm = make_algorithm("dist-dp-se", epsilon=1.0)
    first = simulate_module.simulate(algorithm, EASY, 5000, runs=3, seed=2, cache=True,
                                     cache_dir=tmp_path)

    import dpverify.bandits.store

    real = dpverify.bandits.store.run_tasks

    def no_simulation(function, tasks, **where):
        if tasks:
            raise AssertionError("a cached run was simulated again")
        return real(function, tasks, **where)

    monkeypatch.setattr(dpverify.bandits.store, "run_tasks", no_simulation)
    again = simulate_module.simulate(algorithm, EASY, 5000, runs=3, seed=2, cache=True,
                                     cache_dir=tmp_path)
    assert np.array_equal(first.pseudo_regret, again.pseudo_regret)
    assert np.array_equal(first.pulls, again.pulls)
    with pytest.raises(AssertionError, match="simulated again"):
        simulate_module.simulate(algorithm, EASY, 5000, runs=3, seed=3, cache=True,
                                 cache_dir=tmp_path)
