"""dpverify.execution: the same results in this process, on a spawn pool, on any Executor, on Dask.

One 2-worker Dask ``LocalCluster`` (worker processes, started here) serves
every Dask test of the module; the bit-identity checks compare simulate, a
sweep and audit_interactive across local 1 job, local 2 jobs and that cluster.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from dpverify._validation import usable_cores
from dpverify.execution import check_scheduler, open_executor, resolve_jobs, run_tasks


def _square_with_noise(value: int, seed: np.random.SeedSequence) -> float:
    return value ** 2 + float(np.random.default_rng(seed).normal())


def _tasks(count: int = 12) -> list[tuple]:
    return list(zip(range(count), np.random.SeedSequence(3).spawn(count)))


@pytest.fixture(scope="module")
def dask_client():
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=":0")
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


@pytest.mark.slow
def test_results_in_task_order_whatever_the_executor(dask_client) -> None:
    expected = [_square_with_noise(*task) for task in _tasks()]
    assert run_tasks(_square_with_noise, _tasks()) == expected
    assert run_tasks(_square_with_noise, _tasks(), n_jobs=2) == expected
    with ThreadPoolExecutor(3) as pool:
        assert run_tasks(_square_with_noise, _tasks(), executor=pool) == expected
    assert run_tasks(_square_with_noise, _tasks(), executor=dask_client) == expected
    assert run_tasks(_square_with_noise, _tasks(), executor=dask_client.get_executor()) == expected


def test_closures_reach_spawned_workers() -> None:
    offset = 7
    assert run_tasks(lambda x: x + offset, [(1,), (2,), (3,)], n_jobs=2) == [8, 9, 10]


def test_on_result_sees_every_task_once() -> None:
    seen: dict[int, float] = {}
    results = run_tasks(_square_with_noise, _tasks(6), n_jobs=2,
                        on_result=lambda i, r: seen.__setitem__(i, r))
    assert [seen[i] for i in range(6)] == results


def test_worker_errors_propagate() -> None:
    with pytest.raises(ZeroDivisionError):
        run_tasks(lambda x: 1 / x, [(1,), (0,)], n_jobs=2)


def test_jobs_and_scheduler_validation() -> None:
    assert resolve_jobs(-1) == usable_cores() <= (os.cpu_count() or 1)
    assert resolve_jobs(3) == 3
    for bad in (0, -2, 1.5, "2", float("nan")):
        with pytest.raises((ValueError, TypeError), match="n_jobs"):
            resolve_jobs(bad)
    assert check_scheduler("tcp://10.0.0.1:8786") == "tcp://10.0.0.1:8786"
    assert check_scheduler("localhost:8786") == "localhost:8786"
    assert check_scheduler("local") == "local"
    for bad in ("", "nowhere", 5, "host:port"):
        with pytest.raises(ValueError, match="scheduler"):
            check_scheduler(bad)
    with ThreadPoolExecutor(1) as pool, pytest.raises(ValueError, match="executor"):
        with open_executor(executor=pool, n_jobs=2):
            pass
    with pytest.raises(TypeError, match="executor"):
        run_tasks(abs, [(1,)], executor="pool")


@pytest.mark.slow
def test_simulate_bit_identical_across_executors(dask_client) -> None:
    from dpverify.bandits.environments import InstanceFamily
    from dpverify.bandits.mab import make_algorithm
    from dpverify.bandits.simulate import simulate

    algorithm = make_algorithm("dist-dp-se", epsilon=1.0)
    family = InstanceFamily("easy", 4)
    results = [simulate(algorithm, family, 20_000, runs=3, seed=11, **where)
               for where in ({"n_jobs": 1}, {"n_jobs": 2}, {"executor": dask_client})]
    for other in results[1:]:
        for name in ("pseudo_regret", "realised_regret", "pulls"):
            assert np.array_equal(getattr(results[0], name), getattr(other, name)), name


@pytest.mark.slow
def test_audit_interactive_bit_identical_across_executors(dask_client) -> None:
    from dpverify.auditing import audit_interactive
    from dpverify.auditing.interactive import run_outputs

    def run(stream, rng):
        totals = np.asarray(stream).sum(axis=0) + rng.laplace(0.0, 1.0, 2)
        return int(np.argmax(totals))

    stream, neighbour = np.array([[1, 0], [0, 0]]), np.array([[0, 0], [0, 0]])
    reports = [audit_interactive(run, stream, neighbour, statistic=lambda t: t, epsilon=1.0,
                                 runs=400, seed=4, **where)
               for where in ({"n_jobs": 1}, {"n_jobs": 2}, {"executor": dask_client})]
    assert all(r.epsilon_lower_bound == reports[0].epsilon_lower_bound for r in reports)
    assert all((r.p_hat, r.p_prime_hat) == (reports[0].p_hat, reports[0].p_prime_hat)
               for r in reports)
    outputs = [run_outputs(run, stream, neighbour, statistic=lambda t: t, runs=300, seed=2, **where)
               for where in ({"n_jobs": 1}, {"n_jobs": 2}, {"executor": dask_client})]
    for first, second in outputs[1:]:
        assert np.array_equal(first, outputs[0][0]) and np.array_equal(second, outputs[0][1])


def _worker_settings(value: int, seed: np.random.SeedSequence) -> tuple:
    import dask

    return (_square_with_noise(value, seed), os.environ.get("MALLOC_TRIM_THRESHOLD_"),
            dask.config.get("distributed.worker.profile.enabled"),
            dask.config.get("distributed.admin.tick.interval"))


@pytest.mark.slow
def test_scheduler_local_starts_and_closes_a_cluster() -> None:
    """The cluster's workers run without the profiler and without MALLOC_TRIM_THRESHOLD_
    (each costs CPU in every task, module docstring of dpverify.execution) and with a
    slower event-loop tick, and the
    nannies' pre-spawn variables do not stay in this process's environment."""
    pytest.importorskip("distributed")
    before = dict(os.environ)
    outcomes = run_tasks(_worker_settings, _tasks(4), scheduler="local", n_jobs=2)
    assert [o[0] for o in outcomes] == [_square_with_noise(*task) for task in _tasks(4)]
    if "MALLOC_TRIM_THRESHOLD_" not in before:
        assert {o[1] for o in outcomes} == {None}
    assert {o[2] for o in outcomes} == {False} and {o[3] for o in outcomes} == {"1s"}
    assert dict(os.environ) == before


@pytest.mark.slow
def test_sweep_bit_identical_across_executors(dask_client) -> None:
    from dpverify.bandits.environments import InstanceFamily
    from dpverify.bandits.experiments import AlgorithmSpec, Panel, SweepSpec, sweep

    algorithms = (AlgorithmSpec("dist-rdp-se", "Dist-RDP-SE"), AlgorithmSpec("dp-se", "DP-SE"))
    panels = tuple(Panel(f"eps={e:g}", "", InstanceFamily("hard", 3), e, 10_000, algorithms)
                   for e in (0.5, 1.0))
    spec = SweepSpec("executors", panels, runs=2, seed=1, checkpoints=10)
    results = [sweep(spec, cache=False, **where)
               for where in ({"n_jobs": 1}, {"n_jobs": 2}, {"executor": dask_client})]
    for other in results[1:]:
        assert other.computed == spec.tasks
        for (_, first), (_, second) in zip(results[0].results, other.results):
            for a, b in zip(first, second):
                assert np.array_equal(a.pseudo_regret, b.pseudo_regret)
                assert np.array_equal(a.realised_regret, b.realised_regret)
                assert np.array_equal(a.pulls, b.pulls)


def _laplace_half(data, size, rng):
    return data + rng.laplace(0.0, 0.5, size)


@pytest.mark.slow
def test_chunked_audit_counts_merge_exactly_whatever_the_executor(dask_client) -> None:
    from dpverify.auditing import audit

    kwargs = {"epsilon": 1.0, "samples": 60_000, "seed": 3, "chunk_samples": 7_000}
    reports = [audit(_laplace_half, 0.0, 1.0, **kwargs, **where)
               for where in ({"n_jobs": 1}, {"n_jobs": 2}, {"executor": dask_client})]
    first = reports[0]
    assert first.violation and first.certify_samples == 60_000 - first.search_samples
    for other in reports[1:]:
        assert (other.p_hat, other.p_prime_hat, other.epsilon_lower_bound) == \
            (first.p_hat, first.p_prime_hat, first.epsilon_lower_bound)
    # the counts are exact sums over the chunks: one chunk of everything gives the same p̂ law,
    # and the chunk count does not change how many outputs certify
    whole = audit(_laplace_half, 0.0, 1.0, epsilon=1.0, samples=60_000, seed=3,
                  chunk_samples=10 ** 6)
    assert whole.certify_samples == first.certify_samples and whole.violation
    with pytest.raises(ValueError, match="chunk_samples"):
        audit(_laplace_half, 0.0, 1.0, epsilon=1.0, samples=1000, chunk_samples=0)


@pytest.mark.slow
def test_the_core_never_imports_dask() -> None:
    import subprocess
    import sys

    code = ("import sys, dpverify.execution, dpverify.bandits.experiments, dpverify.auditing; "
            "assert not {'dask', 'distributed'} & set(sys.modules), sorted(sys.modules)")
    subprocess.run([sys.executable, "-c", code], check=True)
