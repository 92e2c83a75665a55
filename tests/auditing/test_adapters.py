"""sampler_from_calls: one-output-per-call mechanisms as audit samplers (numpy-only mechanisms here).

The real libraries' recipes are audited in tests/auditing/recipes/. Statistical
tests use fixed seeds; each states its false-failure probability.
"""

from __future__ import annotations

import random
import warnings
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.auditing import audit
from dpverify.auditing.adapters import (
    DEFAULT_CHUNK_CALLS,
    CallSampler,
    _plan_tasks,
    sampler_from_calls,
)
from dpverify.errors import AuditError, AuditWarning


def laplace_release(data, rng):
    return data + rng.laplace(0.0, 1.0)


def legacy_release(data, random_state):
    return data + random_state.laplace(0.0, 1.0)


def global_release(data):
    return data + random.gauss(0.0, 1.0)


def unseeded_release(data):
    return data + np.random.default_rng().laplace(0.0, 1.0)


def test_outputs_are_stacked_by_kind() -> None:
    rng = np.random.default_rng(0)
    scalars = sampler_from_calls(laplace_release)(0.0, 7, rng)
    assert scalars.shape == (7,) and scalars.dtype == np.float64
    vectors = sampler_from_calls(lambda data, g: g.normal(size=3) + data)(0.0, 5, rng)
    assert vectors.shape == (5, 3)
    record = sampler_from_calls(lambda data, g: (int(g.integers(3)), g.normal()))(0, 4, rng)
    assert isinstance(record, tuple) and [c.shape for c in record] == [(4,), (4,)]
    fields = sampler_from_calls(lambda data, g: {"arm": "ab"[int(g.integers(2))], "v": 1.0}
                                )(0, 6, rng)
    assert set(fields) == {"arm", "v"} and fields["arm"].dtype.kind == "U"


def test_chunks_concatenate_every_kind() -> None:
    record = sampler_from_calls(lambda data, g: (int(g.integers(3)), g.normal()),
                                chunk_samples=3)(0, 10, np.random.default_rng(0))
    assert [c.shape for c in record] == [(10,), (10,)]
    fields = sampler_from_calls(lambda data, g: {"v": g.normal()}, chunk_samples=4
                                )(0, 9, np.random.default_rng(0))
    assert fields["v"].shape == (9,)


def test_ragged_outputs_are_refused() -> None:
    ragged = sampler_from_calls(lambda data, g: g.normal(size=int(g.integers(1, 4))))
    with pytest.raises(AuditError, match="different shapes"):
        ragged(0.0, 50, np.random.default_rng(0))


@pytest.mark.parametrize("function, seeding", [(laplace_release, "generator"),
                                               (legacy_release, "random_state"),
                                               (global_release, random.seed)])
def test_seeded_strategies_reproduce_bit_for_bit_whatever_the_executor(function, seeding) -> None:
    sampler = sampler_from_calls(function, seeding=seeding, chunk_samples=100)
    first = sampler(0.0, 1000, np.random.default_rng(5))
    assert np.array_equal(first, sampler(0.0, 1000, np.random.default_rng(5)))
    with ThreadPoolExecutor(2) as pool:
        threaded = sampler_from_calls(function, seeding=seeding, chunk_samples=100,
                                      executor=pool)(0.0, 1000, np.random.default_rng(5))
    assert np.array_equal(first, threaded)
    assert not np.array_equal(first, sampler(0.0, 1000, np.random.default_rng(6)))
    # every chunk has a stream of its own: no chunk repeats another
    chunks = first.reshape(10, 100)
    assert len({chunk.tobytes() for chunk in chunks}) == 10


def test_global_seeding_sets_the_source_per_chunk() -> None:
    seeds = []
    sampler = sampler_from_calls(lambda data: data, seeding=seeds.append, chunk_samples=4)
    sampler(0, 10, np.random.default_rng(1))
    assert len(seeds) == 3 and len(set(seeds)) == 3
    assert all(isinstance(s, int) and 0 <= s < 2**32 for s in seeds)


@pytest.mark.slow
def test_local_process_pool_gives_the_same_outputs() -> None:
    """Two spawned workers (about 2 s to start on 2 cores), the same bits as in this process."""
    here = sampler_from_calls(laplace_release, chunk_samples=500)(1.0, 3000,
                                                                   np.random.default_rng(2))
    pooled = sampler_from_calls(laplace_release, chunk_samples=500, n_jobs=2
                                )(1.0, 3000, np.random.default_rng(2))
    assert np.array_equal(here, pooled)
    # random.seed seeds each worker's own global source (a pickled bound method seeded a copy)
    here = sampler_from_calls(global_release, seeding=random.seed, chunk_samples=500
                              )(1.0, 3000, np.random.default_rng(2))
    pooled = sampler_from_calls(global_release, seeding=random.seed, chunk_samples=500, n_jobs=2
                                )(1.0, 3000, np.random.default_rng(2))
    assert np.array_equal(here, pooled)


def test_a_module_level_seed_method_travels_by_name() -> None:
    """``random.seed`` pickles as a reference to ``random``'s global source, not to a copy."""
    import pickle

    from dpverify.auditing.adapters import _check_seeding

    sent = pickle.loads(pickle.dumps(_check_seeding(random.seed)))
    sent(123)
    drawn = random.random()
    random.seed(123)
    assert drawn == random.random()
    assert repr(sent) == "random.seed"
    own = random.Random()   # not reachable as a module attribute: kept as it is
    assert _check_seeding(own.seed) == own.seed and _check_seeding(np.random.seed) is np.random.seed


@pytest.mark.slow
def test_dask_local_cluster_gives_the_same_outputs() -> None:
    pytest.importorskip("distributed")
    from dpverify.execution import open_executor

    here = sampler_from_calls(legacy_release, seeding="random_state", chunk_samples=250
                              )(0.0, 1000, np.random.default_rng(3))
    with open_executor(scheduler="local", n_jobs=2) as pool:
        on_dask = sampler_from_calls(legacy_release, seeding="random_state", chunk_samples=250,
                                     executor=pool)(0.0, 1000, np.random.default_rng(3))
    assert np.array_equal(here, on_dask)


@settings(max_examples=30, deadline=None)
@given(size=st.integers(1, 300), chunk=st.integers(1, 120), seed=st.integers(0, 2**32 - 1))
def test_size_outputs_a_function_of_rng_size_and_chunk(size: int, chunk: int, seed: int) -> None:
    sampler = sampler_from_calls(laplace_release, chunk_samples=chunk)
    outputs = sampler(0.0, size, np.random.default_rng(seed))
    assert outputs.shape == (size,)
    with ThreadPoolExecutor(3) as pool:
        again = sampler_from_calls(laplace_release, chunk_samples=chunk, executor=pool
                                   )(0.0, size, np.random.default_rng(seed))
    assert np.array_equal(outputs, again)


def test_an_audit_through_the_adapter_refutes_a_false_claim_and_passes_the_true_one() -> None:
    """Laplace of scale 1 (true ε = 1 on (0, 1)); fixed seeds, so deterministic.

    False-failure probability of the two statements at these seeds: at most
    0.05 each for the claim ε = 1 (the audit's confidence), and the false claim
    0.6 is refuted at 2·10^4 samples with margin (bound ≈ 0.93 measured).
    """
    sampler = sampler_from_calls(laplace_release)
    refuted = audit(sampler, 0.0, 1.0, epsilon=0.6, samples=20_000, seed=1)
    assert refuted.violation and 0.6 < refuted.epsilon_lower_bound <= 1.0
    assert refuted.reproducible and "reproducible" not in str(refuted)
    again = audit(sampler, 0.0, 1.0, epsilon=0.6, samples=20_000, seed=1)
    assert again.epsilon_lower_bound == refuted.epsilon_lower_bound


def test_an_unseedable_source_is_audited_without_warning_and_reported_unreproducible() -> None:
    sampler = sampler_from_calls(unseeded_release, seeding="none")
    assert sampler.reproducible is False
    with warnings.catch_warnings():
        warnings.simplefilter("error", AuditWarning)
        report = audit(sampler, 0.0, 1.0, epsilon=0.5, samples=5_000, seed=1)
    assert report.violation and not report.reproducible
    assert "reproducible         no" in str(report)
    assert report.to_dict()["reproducible"] is False


def test_a_function_ignoring_its_generator_is_still_flagged_by_the_probe() -> None:
    sampler = sampler_from_calls(lambda data, rng: unseeded_release(data))
    with pytest.warns(AuditWarning, match="ignores its rng"):
        audit(sampler, 0.0, 1.0, epsilon=2.0, samples=2_000, seed=1)


def test_defaults_and_repr() -> None:
    sampler = sampler_from_calls(laplace_release)
    assert isinstance(sampler, CallSampler)
    assert sampler.chunk_samples == DEFAULT_CHUNK_CALLS and sampler.reproducible
    assert "laplace_release" in repr(sampler) and "generator" in repr(sampler)
    assert "seed" in repr(sampler_from_calls(global_release, seeding=random.seed))


@pytest.mark.parametrize("arguments, error, name", [
    ({"function": 3}, TypeError, "function"),
    ({"seeding": "numpy"}, ValueError, "seeding"),
    ({"seeding": 4}, TypeError, "seeding"),
    ({"chunk_samples": 0}, ValueError, "chunk_samples"),
    ({"n_jobs": 0}, ValueError, "n_jobs"),
    ({"executor": "pool"}, TypeError, "executor"),
    ({"n_jobs": 2, "executor": ThreadPoolExecutor(1)}, ValueError, "executor"),
])
def test_bad_arguments_are_refused_by_name(arguments, error, name) -> None:
    arguments = {"function": laplace_release, **arguments}
    with pytest.raises(error, match=name):
        sampler_from_calls(arguments.pop("function"), **arguments)


def test_bad_calls_are_refused_by_name() -> None:
    sampler = sampler_from_calls(laplace_release)
    with pytest.raises(ValueError, match="size"):
        sampler(0.0, 0, np.random.default_rng(0))
    with pytest.raises(TypeError, match="rng"):
        sampler(0.0, 5, 3)


class CountingPool(ThreadPoolExecutor):
    """A thread pool that counts the tasks it is given."""

    def __init__(self, workers: int) -> None:
        super().__init__(workers)
        self.submitted = 0

    def submit(self, *arguments, **options):
        self.submitted += 1
        return super().submit(*arguments, **options)


class ManyAtOnce:
    """A release with ``release_many`` only (``seeding="none"``): records the chunk sizes asked for."""

    def __init__(self) -> None:
        self.asked: list[tuple[object, int]] = []

    def __call__(self, data):
        raise AssertionError("the adapter must use release_many")

    def release_many(self, data, source, calls):
        self.asked.append((source, calls))
        return [data + 0.5] * calls


@settings(max_examples=200, deadline=None)
@given(chunks=st.integers(0, 5000), workers=st.integers(1, 64), least=st.integers(1, 5000))
def test_plan_tasks_covers_every_chunk_in_shrinking_tasks(chunks: int, workers: int,
                                                          least: int) -> None:
    groups = _plan_tasks(chunks, workers, least)
    assert sum(groups) == chunks and all(group >= 1 for group in groups)
    assert groups == sorted(groups, reverse=True)  # long tasks first, short ones last
    share = -(-chunks // workers)
    assert all(group <= max(share, 1) for group in groups)  # no task beyond one worker's share
    # every task but the last runs at least `least` chunks, unless that would starve a worker
    assert all(group >= min(least, share) for group in groups[:-1])
    if least == 1 and chunks:  # about 2·workers·ln(chunks) tasks, not one per chunk
        assert len(groups) <= 2 * workers * (1 + np.log(max(chunks, 1))) + 1


def test_plan_tasks_refuses_bad_arguments_by_name() -> None:
    with pytest.raises(ValueError, match="workers"):
        _plan_tasks(10, 0)
    with pytest.raises(ValueError, match="least"):
        _plan_tasks(10, 2, 0)
    with pytest.raises(ValueError, match="chunks"):
        _plan_tasks(-1, 2)


@pytest.mark.parametrize("function, seeding", [(laplace_release, "generator"),
                                               (legacy_release, "random_state"),
                                               (global_release, random.seed)])
def test_grouping_chunks_into_tasks_never_changes_the_outputs(function, seeding) -> None:
    """Inline, on 1-3 threads, before and after a measured cost (short and long tasks): same bits."""
    here = sampler_from_calls(function, seeding=seeding, chunk_samples=7)
    expected = here(1.0, 500, np.random.default_rng(11))
    for workers in (1, 2, 3):
        with ThreadPoolExecutor(workers) as pool:
            sampler = sampler_from_calls(function, seeding=seeding, chunk_samples=7, executor=pool)
            for cost in (None, 1.0, 1e-9):  # no estimate; tasks of one chunk; capped at a share
                sampler.seconds_per_call = cost
                assert np.array_equal(sampler(1.0, 500, np.random.default_rng(11)), expected)


def test_the_cost_is_measured_and_sets_the_shortest_task() -> None:
    sampler = sampler_from_calls(laplace_release, chunk_samples=100)
    assert sampler.seconds_per_call is None
    sampler(0.0, 1000, np.random.default_rng(0))
    assert 0 < sampler.seconds_per_call < 1
    with CountingPool(2) as pool:
        pooled = sampler_from_calls(laplace_release, chunk_samples=100, executor=pool)
        pooled(0.0, 100_000, np.random.default_rng(0))  # 1000 chunks, no estimate yet
        first = pool.submitted
        assert 2 <= first <= len(_plan_tasks(1000, 2))
        pooled.seconds_per_call = 1e-6  # TASK_SECONDS / (1e-6 · 100) = 500 chunks a task
        pool.submitted = 0
        pooled(0.0, 100_000, np.random.default_rng(0))
        assert pool.submitted == len(_plan_tasks(1000, 2, 500)) == 2
    assert pooled.seconds_per_call != 1e-6  # measured again by that call


def test_unseedable_release_many_gets_whole_chunks() -> None:
    function = ManyAtOnce()
    outputs = sampler_from_calls(function, seeding="none", chunk_samples=40
                                 )(1.0, 100, np.random.default_rng(0))
    assert function.asked == [(None, 40), (None, 40), (None, 20)]
    assert np.array_equal(outputs, np.full(100, 1.5))


def test_tasks_are_planned_for_the_executor_s_own_workers() -> None:
    """A Dask client's executor plans for its cluster's threads, not this machine's cores."""
    from dpverify._validation import usable_cores
    from dpverify.auditing.adapters import _workers

    class _Client:
        def nthreads(self):
            return {"tcp://a:1": 3, "tcp://b:1": 4}

    class _DaskLike:
        _client = _Client()

    with ThreadPoolExecutor(5) as pool:
        assert _workers(1, pool) == 5
    assert _workers(1, _DaskLike()) == 7
    assert _workers(3, None) == 3
    assert _workers(1, object()) == usable_cores()
