"""Monte-Carlo runs of the contextual algorithms → :class:`~dpverify.bandits.simulate.SimulationResult`.

:func:`simulate_contextual` mirrors :func:`dpverify.bandits.simulate.simulate`
(same result type, so the CLI's JSON keys match): runs are seeded by
``np.random.SeedSequence(seed).spawn(runs)``, run i spawns one stream for its
instance (when given an instance family) and one for the run; the result does
not depend on ``n_jobs``; regrets are kept at log-spaced checkpoints. The
batch/arm-oriented simulator does not fit (contexts change every round), the
shared loop is :func:`dpverify.bandits.contextual._engine.run`. It is registered
for the contextual instances and families
(:func:`~dpverify.bandits.simulate.register_simulator`), so
:func:`~dpverify.bandits.simulate.simulate` runs them too.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpverify._validation import check_flag, check_has, check_seed, value_error
from dpverify.bandits._limits import check_horizon, check_runs
from dpverify.bandits.contextual._engine import run
from dpverify.bandits.contextual.environment import (
    ContextualInstanceFamily,
    ContextualLinearBandit,
)
from dpverify.bandits.simulate import (
    SimulationResult,
    _check_checkpoints,
    _frozen,
    register_simulator,
    run_seeded,
)
from dpverify.execution import resolve_jobs

__all__ = ["simulate_contextual"]


def _run_once(algorithm: Any, source: Any, horizon: int, checkpoints: NDArray[np.int64],
              per_user: bool, seed: np.random.SeedSequence) -> tuple[NDArray, NDArray, NDArray]:
    instance_seed, run_seed = seed.spawn(2)
    environment = source(np.random.default_rng(instance_seed)) \
        if isinstance(source, ContextualInstanceFamily) else source
    learner = algorithm.start(horizon=horizon, dimension=environment.dimension, per_user=per_user)
    return run(learner, environment, horizon, checkpoints, np.random.default_rng(run_seed))


#: Largest T of a contextual run: every round draws contexts and updates the learner.
MAX_CONTEXTUAL_HORIZON = 10**7


@register_simulator(ContextualLinearBandit, ContextualInstanceFamily)
def simulate_contextual(algorithm: Any, environment: Any, horizon: int, *, runs: int = 1,
                        seed: Any = None, n_jobs: int = 1, executor: Any = None,
                        scheduler: str | None = None, progress: bool = False,
                        per_user: bool = False,
                        checkpoints: int | Sequence[int] = 200, cache_dir: Any = None,
                        cache: bool = False) -> SimulationResult:
    """Run a contextual algorithm ``runs`` times for ``horizon`` rounds.

    ``environment`` is a :class:`ContextualLinearBandit` or a
    :class:`ContextualInstanceFamily` family (a fresh θ* per run).
    ``per_user=True`` draws every user's M_LDP bits (slow, auditable);
    ``progress`` shows a tqdm bar over runs; ``n_jobs``, ``executor`` and
    ``scheduler`` say where the runs go, as in
    :func:`dpverify.bandits.simulate.simulate` (the result does not depend on them);
    ``cache_dir``/``cache`` as there.

    >>> from dpverify.bandits.contextual.linucb import LinUCB
    >>> family = ContextualInstanceFamily(dimension=2, n_arms=5)
    >>> result = simulate_contextual(LinUCB(), family, 2000, runs=2, seed=0)
    >>> result.pseudo_regret.shape[0], bool(np.all(np.diff(result.pseudo_regret, axis=1) >= 0))
    (2, True)
    """
    horizon = check_horizon(horizon, maximum=MAX_CONTEXTUAL_HORIZON,
                            instead="every round draws contexts and updates the learner; "
                                    "regret curves are log-spaced, so shorter runs suffice")
    runs = check_runs(runs)
    resolve_jobs(n_jobs)
    check_flag(progress, "progress")
    check_flag(per_user, "per_user")
    check_flag(cache, "cache")
    if cache_dir is not None and not isinstance(cache_dir, (str, os.PathLike)):
        raise value_error("cache_dir", cache_dir, "a directory path or None")
    check_has(algorithm, "algorithm", ("start", "guarantee", "name"),
              "a contextual algorithm (e.g. make_contextual_algorithm(...))")
    check_seed(seed)
    if not isinstance(environment, (ContextualLinearBandit, ContextualInstanceFamily)):
        raise value_error("environment", environment,
                          "a ContextualLinearBandit or a ContextualInstanceFamily family")
    points = _check_checkpoints(checkpoints, horizon)
    root = np.random.SeedSequence(seed)
    seeds = root.spawn(runs)
    dimension = environment.dimension
    guarantee = algorithm.guarantee(horizon=horizon, dimension=dimension)
    start = time.perf_counter()
    outcomes = run_seeded(_run_once, (algorithm, environment, horizon, points, per_user), seeds,
                          n_jobs=n_jobs, executor=executor, scheduler=scheduler,
                          progress=progress, label=algorithm.name, cache_dir=cache_dir,
                          cache=cache and seed is not None)
    seconds = time.perf_counter() - start
    return SimulationResult(
        algorithm=algorithm.name, environment=environment.describe(), horizon=horizon, runs=runs,
        seed=seed if seed is not None else root.entropy, checkpoints=_frozen(points),
        pseudo_regret=_frozen(np.stack([o[0] for o in outcomes])),
        realised_regret=_frozen(np.stack([o[1] for o in outcomes])),
        pulls=_frozen(np.stack([o[2] for o in outcomes])),
        guarantee=guarantee, seconds=seconds, per_user=per_user,
        mode=getattr(algorithm, "mode", None))
