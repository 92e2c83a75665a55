"""The simulator: determinism across processes, exact bookkeeping at checkpoints, exit at T."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.bandits.environments import BernoulliBandit, ClippedGaussianBandit, InstanceFamily
from dpverify.bandits.mab import make_algorithm
from dpverify.bandits.simulate import log_checkpoints, simulate

LOG: list[tuple[str, Any]] = []


@dataclass
class _Recorder:
    inner: Any

    def next_batch(self):
        batch = self.inner.next_batch()
        LOG.append(("batch", batch))
        return batch

    def update(self, batch, rewards, *, rng):
        LOG.append(("update", batch))
        self.inner.update(batch, rewards, rng=rng)


@dataclass(frozen=True)
class Recording:
    """Wraps an algorithm and logs the batches asked for and the updates received."""

    inner: Any
    name: str = "recording"

    def start(self, **kwargs):
        return _Recorder(self.inner.start(**kwargs))

    def guarantee(self, **kwargs):
        return self.inner.guarantee(**kwargs)


def test_same_seed_same_result_for_any_number_of_jobs() -> None:
    algorithm = make_algorithm("dist-rdp-se", epsilon=0.5, batch_base=4, failure_probability=0.1)
    family = InstanceFamily("easy", 5)
    one = simulate(algorithm, family, 20_000, runs=4, seed=42, n_jobs=1)
    two = simulate(algorithm, family, 20_000, runs=4, seed=42, n_jobs=2)
    for name in ("pseudo_regret", "realised_regret", "pulls", "checkpoints"):
        np.testing.assert_array_equal(getattr(one, name), getattr(two, name))
    other = simulate(algorithm, family, 20_000, runs=4, seed=43)
    assert not np.array_equal(one.pseudo_regret, other.pseudo_regret)


def test_pseudo_regret_at_checkpoints_is_exact_and_run_exits_at_horizon() -> None:
    LOG.clear()
    env = BernoulliBandit((0.2, 0.5, 0.45))
    horizon = 3000
    result = simulate(Recording(make_algorithm("dist-dp-se", epsilon=1.0)), env, horizon, runs=1,
                      seed=1, checkpoints=[1, 2, 5, 17, 100, 1000, 2047, 2999])
    arms = []
    for kind, batch in LOG:
        if kind == "batch":
            arms.extend([batch.arm] * batch.size)
    arms = np.array(arms[:horizon])
    per_round = np.cumsum(env.gaps[arms])
    np.testing.assert_allclose(result.pseudo_regret[0], per_round[result.checkpoints - 1], rtol=1e-12)
    assert result.pulls.sum() == horizon and result.checkpoints[-1] == horizon
    # the batch cut by the horizon is never aggregated (Chowdhury & Zhou 2023, Alg. 1 l. 9;
    # Tenenbaum et al. 2021, Alg. 1 l. 8)
    updated = sum(b.size for kind, b in LOG if kind == "update")
    asked = [b for kind, b in LOG if kind == "batch"]
    assert updated == sum(b.size for b in asked[:-1]) < horizon < updated + asked[-1].size


def test_realised_regret_has_the_pseudo_regrets_mean() -> None:
    env = ClippedGaussianBandit((0.3, 0.6))
    result = simulate(make_algorithm("se", batch_base=2), env, 5000, runs=60, seed=3, checkpoints=10)
    difference = result.final_regret("realised") - result.final_regret("pseudo")
    assert abs(difference.mean()) < 5 * difference.std(ddof=1) / np.sqrt(60) + 1e-9


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2 ** 32 - 1), st.sampled_from(["dist-dp-se", "vb-sdp-ae", "dp-se"]))
def test_regret_curves_are_nondecreasing(seed, name) -> None:
    env = BernoulliBandit((0.3, 0.5, 0.7))
    result = simulate(make_algorithm(name, epsilon=1.0), env, 3000, runs=2, seed=seed, checkpoints=30)
    assert np.all(np.diff(result.pseudo_regret, axis=1) >= 0)
    assert np.all(result.pseudo_regret[:, -1] <= 3000 * env.gaps.max())


@given(st.integers(1, 10 ** 9), st.integers(1, 400))
def test_log_checkpoints(horizon, count) -> None:
    points = log_checkpoints(horizon, count)
    assert points[0] >= 1 and points[-1] == horizon and np.all(np.diff(points) > 0)
    assert len(points) <= count + 1


def test_result_summary_and_per_user_path() -> None:
    env = BernoulliBandit((0.4, 0.6))
    result = simulate(make_algorithm("dist-dp-se", epsilon=1.0), env, 2000, runs=1, seed=0,
                      per_user=True)
    summary = result.summary()
    assert summary["epsilon"] == 1.0 and summary["delta"] == 0.0 and summary["final_regret_std"] == 0.0
    assert result.per_user and np.all(result.standard_error() == 0)
    assert result.time_average_regret().shape == result.checkpoints.shape
    with pytest.raises(ValueError, match="kind"):
        result.regret("expected")


@pytest.mark.parametrize("kwargs, name", [
    ({"checkpoints": [5, 3]}, "checkpoints"),
    ({"checkpoints": [0, 10]}, "checkpoints"),
    ({"runs": 0}, "runs"),
    ({"n_jobs": 0}, "n_jobs"),
])
def test_invalid_arguments(kwargs, name) -> None:
    with pytest.raises(ValueError, match=name):
        simulate(make_algorithm("se"), BernoulliBandit((0.5,)), 100, **kwargs)
    with pytest.raises(ValueError, match="environment"):
        simulate(make_algorithm("se"), "easy", 100)


# ---------------------------------------------------------------- simulators by environment type


class _Ring:
    """An environment the batch simulator cannot run (no gaps): a registered simulator runs it."""

    n_arms = 2


class _SmallRing(_Ring):
    pass


def test_simulate_hands_a_registered_environment_type_to_its_simulator(monkeypatch) -> None:
    from dpverify.bandits import simulate as module

    calls = []

    def ring_simulator(algorithm, environment, horizon, **options):
        calls.append((algorithm, environment, horizon, options))
        return "ring result"

    monkeypatch.setattr(module, "_SIMULATORS", dict(module._SIMULATORS))
    assert module.register_simulator(_Ring)(ring_simulator) is ring_simulator
    ring, small = _Ring(), _SmallRing()
    assert simulate("algorithm", ring, 10, runs=3, seed=7) == "ring result"
    assert simulate("algorithm", small, 5) == "ring result"  # subclasses: by the type's MRO
    assert [call[1:3] for call in calls] == [(ring, 10), (small, 5)]
    assert calls[0][3]["runs"] == 3 and calls[0][3]["seed"] == 7
    assert set(calls[0][3]) == {"runs", "seed", "n_jobs", "executor", "scheduler", "progress",
                                "per_user", "checkpoints", "cache_dir", "cache"}


@pytest.mark.parametrize("types", [(), ("ContextualLinearBandit",), (_Ring, 3)])
def test_register_simulator_takes_environment_types_only(types) -> None:
    from dpverify.bandits.simulate import register_simulator

    with pytest.raises(TypeError, match="environment_types"):
        register_simulator(*types)


def test_contextual_instances_run_through_simulate_as_through_simulate_contextual() -> None:
    from dpverify.bandits.contextual import ContextualInstanceFamily, LinUCB, simulate_contextual

    family = ContextualInstanceFamily(dimension=2, n_arms=3)
    direct = simulate_contextual(LinUCB(), family, 1500, runs=2, seed=5)
    dispatched = simulate(LinUCB(), family, 1500, runs=2, seed=5)
    np.testing.assert_array_equal(direct.pseudo_regret, dispatched.pseudo_regret)
    np.testing.assert_array_equal(direct.pulls, dispatched.pulls)
    assert dispatched.environment == direct.environment
