"""Monte-Carlo simulation of batched bandit algorithms: regret curves, guarantee, wall time.

:func:`simulate` runs an algorithm (:class:`~dpverify.bandits._policy.BanditAlgorithm`)
``runs`` times on an environment (or on a fresh random instance per run,
when given an :class:`~dpverify.bandits.environments.InstanceFamily`) and
returns a frozen :class:`SimulationResult`.

Speed without approximation:

* a batch's rewards are drawn at once; for binary rewards only their **sum**
  is drawn (one binomial per segment) unless the per-user path is requested;
* the privatizers draw the aggregate noise from its exact law (the per-user
  path, ``per_user=True``, runs every user's randomizer instead);
* regret is booked per batch in O(1): pseudo-regret grows by ``pulls × Δ_a``,
  linearly inside a batch, so its value at a checkpoint inside a batch is
  exact; the realised regret is exact at checkpoints too, because the batch's
  rewards are drawn segment by segment between checkpoints (the sum of the
  segments is the batch's sum, so the law is unchanged);
* curves are kept at log-spaced checkpoints (default 200), not at every round.

Regrets (both recorded: the papers define pseudo-regret, the public code of
Chowdhury & Zhou 2023 plots realised regret):

* **pseudo-regret** ``Σ_a Δ_a N_a(t)`` (both papers' definition);
* **realised regret** ``Σ_{s<=t} r_s(a*) − r_s(a_s)`` on a common reward
  vector (what their public code plots): ``a*`` is the arm with the
  highest mean; its rewards on the rounds another arm is played are drawn
  independently (the components of the reward vector are independent), and
  the increment is 0 when ``a*`` is played.

Randomness: ``np.random.SeedSequence(seed).spawn(runs)``; run i spawns one
stream for its instance and one for the run (rewards and privatizer noise).
The same seed gives the same result for any ``n_jobs``, ``executor`` or
``scheduler`` (runs are independent tasks of :func:`dpverify.execution.run_tasks`,
reassembled in order).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray

from dpverify._deprecation import renamed_parameters
from dpverify._record_validation import check_record
from dpverify._validation import (
    check_choice,
    check_flag,
    check_has,
    check_positive_int,
    check_seed,
    shown,
    value_error,
)
from dpverify.bandits._limits import MAX_CHECKPOINTS, check_horizon, check_runs
from dpverify.bandits._policy import BanditGuarantee, RewardBatch
from dpverify.bandits.environments import InstanceFamily
from dpverify.bandits.store import open_store, run_cached
from dpverify.errors import DpverifyTypeError
from dpverify.execution import resolve_jobs

__all__ = ["simulate", "SimulationResult", "log_checkpoints", "run_seeded", "assemble_result",
           "register_simulator", "REGRET_KINDS"]

#: The two regret notions recorded.
REGRET_KINDS = ("pseudo", "realised")

F = TypeVar("F", bound=Callable[..., Any])


def log_checkpoints(horizon: int, count: int = 200) -> NDArray[np.int64]:
    """About ``count`` log-spaced rounds in [1, T], always including T.

    >>> log_checkpoints(1000, 5).tolist()
    [1, 6, 32, 178, 1000]
    """
    horizon = check_positive_int(horizon, "horizon")
    count = check_positive_int(count, "count")
    points = np.unique(np.round(np.geomspace(1, horizon, count)).astype(np.int64))
    return points if points[-1] == horizon else np.append(points, horizon)


def _check_checkpoints(checkpoints: Any, horizon: int) -> NDArray[np.int64]:
    if isinstance(checkpoints, (int, np.integer)) and not isinstance(checkpoints, bool):
        return log_checkpoints(horizon, check_positive_int(
            checkpoints, "checkpoints", maximum=MAX_CHECKPOINTS,
            instead="regret curves are recorded at every checkpoint of every run"))
    if isinstance(checkpoints, (str, bytes)) or not hasattr(checkpoints, "__len__"):
        raise value_error("checkpoints", checkpoints,
                          f"a count, or increasing integer rounds in [1, horizon={horizon}]")
    if len(checkpoints) > MAX_CHECKPOINTS:
        raise value_error("checkpoints", f"<{len(checkpoints)} rounds>",
                          f"at most {MAX_CHECKPOINTS} rounds")
    points = np.asarray(checkpoints)
    if (points.ndim != 1 or points.size == 0 or not np.issubdtype(points.dtype, np.integer)
            or points[0] < 1 or points[-1] > horizon or np.any(np.diff(points) <= 0)):
        raise value_error("checkpoints", checkpoints,
                          f"a count, or increasing integer rounds in [1, horizon={horizon}]")
    points = points.astype(np.int64)
    return points if points[-1] == horizon else np.append(points, horizon)


def _frozen(array: NDArray) -> NDArray:
    array.setflags(write=False)
    return array


@dataclass(frozen=True, eq=False)
class SimulationResult:
    """Regret curves of ``runs`` independent runs at ``checkpoints`` (rounds), and what produced them.

    ``pseudo_regret`` and ``realised_regret`` have shape ``(runs, len(checkpoints))``
    (cumulative regret at each checkpoint), ``pulls`` shape ``(runs, K)``.
    """

    algorithm: str
    environment: str
    horizon: int
    runs: int
    seed: Any
    checkpoints: NDArray[np.int64] = field(repr=False)
    pseudo_regret: NDArray[np.float64] = field(repr=False)
    realised_regret: NDArray[np.float64] = field(repr=False)
    pulls: NDArray[np.int64] = field(repr=False)
    guarantee: BanditGuarantee | None
    seconds: float
    per_user: bool = False
    #: Per-run communication cost C(T) when the algorithm counts it (DP-DPE: reals or bits).
    communication_cost: NDArray[np.float64] | None = field(default=None, repr=False)
    #: The algorithm's mode (``"sound"``: calibrated to the request; ``"paper"``: printed constants).
    mode: str | None = None

    @property
    def claim_met(self) -> bool:
        """The run's guarantee is within the requested (ε, δ) (True for a non-private run)."""
        return True if self.guarantee is None else self.guarantee.claim_met

    @property
    def requested(self) -> Any:
        """The (ε, δ) asked for (``None`` for a non-private run or when not recorded)."""
        return None if self.guarantee is None else self.guarantee.requested

    def __post_init__(self) -> None:
        check_record(self)
        check_seed(self.seed)

    def regret(self, kind: str = "pseudo") -> NDArray[np.float64]:
        """Per-run cumulative regret curves of the given kind (``pseudo`` or ``realised``)."""
        kind = check_choice(kind, "kind", REGRET_KINDS)
        return self.pseudo_regret if kind == "pseudo" else self.realised_regret

    def mean_regret(self, kind: str = "pseudo") -> NDArray[np.float64]:
        return self.regret(kind).mean(axis=0)

    def standard_error(self, kind: str = "pseudo") -> NDArray[np.float64]:
        """Standard error of the mean curve: sample std (ddof = 1) / √runs (0 for one run)."""
        curves = self.regret(kind)
        if self.runs < 2:
            return np.zeros(curves.shape[1])
        return curves.std(axis=0, ddof=1) / np.sqrt(self.runs)

    def time_average_regret(self, kind: str = "pseudo") -> NDArray[np.float64]:
        """Mean over runs of ``Reg(t)/t`` at the checkpoints (the y-axis of Chowdhury & Zhou 2023, Fig. 1)."""
        return self.mean_regret(kind) / self.checkpoints

    def final_regret(self, kind: str = "pseudo") -> NDArray[np.float64]:
        """Each run's cumulative regret at T."""
        return self.regret(kind)[:, -1]

    def summary(self) -> dict[str, Any]:
        """JSON-ready numbers: final (time-average) regrets of both kinds, guarantee, time."""
        out: dict[str, Any] = {"algorithm": self.algorithm, "environment": self.environment,
                               "horizon": self.horizon, "runs": self.runs}
        for kind, prefix in (("pseudo", ""), ("realised", "realised_")):
            final = self.final_regret(kind)
            spread = float(final.std(ddof=1)) if self.runs > 1 else 0.0
            out[f"final_{prefix}time_average_regret"] = float(final.mean()) / self.horizon
            out[f"final_{prefix}regret"] = float(final.mean())
            out[f"final_{prefix}regret_std"] = spread
            out[f"final_{prefix}time_average_regret_std"] = spread / self.horizon
        approx = None if self.guarantee is None else self.guarantee.approx_dp
        requested = self.requested
        out.update(epsilon=None if approx is None else approx.epsilon,
                   delta=None if approx is None else approx.delta,
                   requested_epsilon=None if requested is None else requested.epsilon,
                   requested_delta=None if requested is None else requested.delta,
                   claim_met=self.claim_met, mode=self.mode,
                   model=None if self.guarantee is None else self.guarantee.model,
                   seconds=self.seconds)
        if self.communication_cost is not None:
            out["communication_cost"] = float(np.mean(self.communication_cost))
        return out


def _segment_lengths(start: int, size: int, checkpoints: NDArray[np.int64], cursor: int
                     ) -> tuple[list[int], int]:
    """Lengths of the pieces of rounds (start, start + size] cut at the checkpoints inside it."""
    end = start + size
    if cursor >= len(checkpoints) or checkpoints[cursor] > end:  # no checkpoint inside: one piece
        return [size], cursor
    stop = int(np.searchsorted(checkpoints, end, side="right"))
    cuts = [int(c) - start for c in checkpoints[cursor:stop]]
    if not cuts or cuts[-1] != size:
        cuts.append(size)
    return [b - a for a, b in zip([0, *cuts[:-1]], cuts)], stop


def _piece_sums(environment: Any, arm: int, lengths: list[int], rng: np.random.Generator,
                individual: bool) -> tuple[list[float], NDArray | None]:
    if individual:
        values = environment.rewards(arm, int(sum(lengths)), rng=rng)
        starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
        return [float(s) for s in np.add.reduceat(values, starts)], values
    return [environment.reward_sum(arm, n, rng=rng) for n in lengths], None


def _run_once(algorithm: Any, source: Any, horizon: int, checkpoints: NDArray[np.int64],
              per_user: bool, seed: np.random.SeedSequence) -> tuple[NDArray, NDArray, NDArray, Any]:
    """One run: (pseudo-regret, realised regret at checkpoints, pulls per arm, communication).

    An algorithm with ``needs_environment = True`` (the linear ones) gets the
    environment in ``start``: its policy reads the public action vectors, and
    DP-DPE's simulated clients draw their local averages from it; the server
    side never reads θ*. ``communication`` is the policy's
    ``communication_cost`` attribute at the end of the run, if it has one.
    """
    instance_seed, run_seed = seed.spawn(2)
    environment = source(np.random.default_rng(instance_seed)) if _is_family(source) else source
    rng = np.random.default_rng(run_seed)
    gaps, best = environment.gaps, environment.best_arm
    individual = per_user or not environment.binary
    if getattr(algorithm, "needs_environment", False):  # linear algorithms: public actions, clients
        policy = algorithm.start(n_arms=environment.n_arms, horizon=horizon, per_user=per_user,
                                 environment=environment)
    else:
        policy = algorithm.start(n_arms=environment.n_arms, horizon=horizon, per_user=per_user)
    pseudo_out, realised_out = np.zeros(len(checkpoints)), np.zeros(len(checkpoints))
    pulls = np.zeros(environment.n_arms, dtype=np.int64)
    t, pseudo, realised, cursor = 0, 0.0, 0.0, 0
    while t < horizon:
        batch = policy.next_batch()
        if batch is None:
            break
        size = min(batch.size, horizon - t)
        lengths, stop = _segment_lengths(t, size, checkpoints, cursor)
        sums, values = _piece_sums(environment, batch.arm, lengths, rng, individual)
        gap, done = float(gaps[batch.arm]), 0
        for length, piece in zip(lengths, sums):
            done += length
            if batch.arm != best:
                realised += environment.reward_sum(best, length, rng=rng) - piece
            if cursor < stop and checkpoints[cursor] == t + done:
                pseudo_out[cursor] = pseudo + done * gap
                realised_out[cursor] = realised
                cursor += 1
        pseudo += size * gap
        pulls[batch.arm] += size
        t += size
        if size == batch.size:
            total = sum(sums)
            rewards = RewardBatch(size=size, total=int(total) if environment.binary else total,
                                  values=values, binary=bool(environment.binary))
            policy.update(batch, rewards, rng=rng)
    pseudo_out[cursor:], realised_out[cursor:] = pseudo, realised  # a policy that stopped early
    return pseudo_out, realised_out, pulls, getattr(policy, "communication_cost", None)


def _is_family(source: Any) -> bool:
    """A random-instance generator (``InstanceFamily`` or any family with ``draws_instances``)."""
    return isinstance(source, InstanceFamily) or getattr(source, "draws_instances", False) is True


#: Environment type → the simulator that runs it in place of :func:`simulate` (see
#: :func:`register_simulator`).
_SIMULATORS: dict[type, Callable[..., SimulationResult]] = {}


def register_simulator(*environment_types: type) -> Callable[[F], F]:
    """Decorator: :func:`simulate` hands an environment of these types to the decorated simulator.

    For environments the batch-and-arm loop of :func:`simulate` does not fit
    (contexts that change every round): the registered simulator takes the
    same arguments as :func:`simulate` and returns a :class:`SimulationResult`.
    :mod:`dpverify.bandits.contextual.simulate` registers
    :func:`~dpverify.bandits.contextual.simulate_contextual` for its instances
    and families (importing any contextual environment imports it).
    Look-ups follow the environment type's MRO, so subclasses are covered.
    """
    if not environment_types or not all(isinstance(kind, type) for kind in environment_types):
        raise DpverifyTypeError(f"environment_types={shown(environment_types)} must be one or "
                                f"more environment types")

    def register(simulator: F) -> F:
        _SIMULATORS.update(dict.fromkeys(environment_types, simulator))
        return simulator

    return register


def _registered_simulator(environment: Any) -> Callable[..., SimulationResult] | None:
    return next((_SIMULATORS[kind] for kind in type(environment).__mro__ if kind in _SIMULATORS),
                None)


def _describe(source: Any) -> str:
    if _is_family(source):
        return source.describe()
    return f"{type(source).__name__}(K={source.n_arms})"


#: Largest T when every reward of a batch is materialised (non-binary rewards, per_user=True).
MAX_INDIVIDUAL_HORIZON = 10**8


def simulate(algorithm: Any, environment: Any, horizon: int, *, runs: int = 1, seed: Any = None,
             n_jobs: int = 1, executor: Any = None, scheduler: str | None = None,
             progress: bool = False, per_user: bool = False,
             checkpoints: int | Sequence[int] = 200, cache_dir: Any = None,
             cache: bool = False) -> SimulationResult:
    """Run ``algorithm`` ``runs`` times for ``horizon`` rounds and collect regret curves.

    Parameters
    ----------
    algorithm
        Any of the 24 algorithms (:func:`dpverify.bandits.make_algorithm`).
    environment
        A bandit instance (:mod:`dpverify.bandits.environments`, or a linear one),
        or an :class:`~dpverify.bandits.environments.InstanceFamily` to draw a fresh
        instance per run (the papers average over 20 random instances); for the
        contextual algorithms a contextual instance or family
        (:func:`~dpverify.bandits.contextual.simulate_contextual` runs them).
    horizon
        T, known to the algorithm in advance.
    runs, seed
        Number of independent runs and the seed of ``SeedSequence(seed).spawn(runs)``
        (``None``: fresh entropy, recorded in the result's ``seed``).
    n_jobs, executor, scheduler
        Where the runs go (:mod:`dpverify.execution`): ``n_jobs`` local
        spawn workers (``-1``: every core), any ``concurrent.futures.Executor``
        (e.g. a Dask client's), or a Dask scheduler address / ``"local"``.
        The result does not depend on them.
    progress
        Show a tqdm bar over runs.
    per_user
        Run every user's randomizer and the secure aggregation / shuffler
        (slow, auditable) instead of the exact aggregate laws.
    checkpoints
        Number of log-spaced checkpoints, or the rounds themselves (T is always added).
    cache_dir, cache
        With ``cache=True``, runs already in the result store
        (:mod:`dpverify.bandits.store`; ``cache_dir`` or its default location)
        are read instead of simulated, and new runs are added. Needs a seed.

    Returns
    -------
    SimulationResult

    Examples
    --------
    >>> from dpverify.bandits.environments import BernoulliBandit
    >>> from dpverify.bandits.mab import make_algorithm
    >>> result = simulate(make_algorithm("dist-dp-se", epsilon=1.0), BernoulliBandit((0.3, 0.7)),
    ...                   10_000, runs=4, seed=1)
    >>> result.final_regret().shape, result.guarantee.per_batch
    ((4,), PureDP(epsilon=1.0))
    >>> bool(np.all(np.diff(result.pseudo_regret, axis=1) >= 0))
    True
    """
    simulator = _registered_simulator(environment)
    if simulator is not None:  # e.g. contextual instances (register_simulator)
        return simulator(algorithm, environment, horizon, runs=runs, seed=seed, n_jobs=n_jobs,
                         executor=executor, scheduler=scheduler, progress=progress,
                         per_user=per_user, checkpoints=checkpoints, cache_dir=cache_dir,
                         cache=cache)
    horizon = check_horizon(horizon)
    runs = check_runs(runs)
    resolve_jobs(n_jobs)
    check_flag(progress, "progress")
    check_flag(per_user, "per_user")
    check_flag(cache, "cache")
    if cache_dir is not None and not isinstance(cache_dir, (str, os.PathLike)):
        raise value_error("cache_dir", cache_dir, "a directory path or None")
    check_has(algorithm, "algorithm", ("start", "guarantee"),
              "a bandit algorithm (e.g. dpverify.bandits.mab.make_algorithm(...))")
    check_seed(seed)
    points = _check_checkpoints(checkpoints, horizon)
    if not (_is_family(environment) or hasattr(environment, "gaps")):
        raise value_error("environment", environment, "a bandit instance or an InstanceFamily")
    if _is_family(environment):
        binary = getattr(environment, "rewards", None) == "bernoulli"
    else:
        binary = bool(getattr(environment, "binary", False))
    if per_user or not binary:
        check_horizon(horizon, maximum=MAX_INDIVIDUAL_HORIZON,
                      instead="non-binary rewards (and per_user=True) hold every reward of a "
                              "batch in memory (8 bytes each, batches up to T/2); use Bernoulli "
                              "rewards, whose batch sums are drawn exactly")
    root = np.random.SeedSequence(seed)
    seeds = root.spawn(runs)
    start = time.perf_counter()
    outcomes = run_seeded(_run_once, (algorithm, environment, horizon, points, per_user), seeds,
                          n_jobs=n_jobs, executor=executor, scheduler=scheduler,
                          progress=progress, label=getattr(algorithm, "name", "runs"),
                          cache_dir=cache_dir, cache=cache and seed is not None)
    seconds = time.perf_counter() - start
    return assemble_result(algorithm, environment, horizon, seed if seed is not None else root.entropy,
                           points, outcomes, seconds=seconds, per_user=per_user)


@renamed_parameters(outcomes="records")
def assemble_result(algorithm: Any, environment: Any, horizon: int, seed: Any,
                    checkpoints: NDArray[np.int64], records: Sequence[tuple], *, seconds: float,
                    per_user: bool = False) -> SimulationResult:
    """The :class:`SimulationResult` of per-run records ``(pseudo, realised, pulls, communication)``.

    ``records[i]`` is run ``i``'s (as returned by one seeded run, e.g. from a
    result store); ``seed`` is recorded as given.
    """
    n_arms = getattr(environment, "n_arms", None) or environment.actions  # linear: k actions
    costs = [o[3] for o in records]
    return SimulationResult(
        algorithm=getattr(algorithm, "name", type(algorithm).__name__),
        environment=_describe(environment), horizon=horizon, runs=len(records),
        seed=seed, checkpoints=_frozen(np.asarray(checkpoints)),
        pseudo_regret=_frozen(np.stack([o[0] for o in records])),
        realised_regret=_frozen(np.stack([o[1] for o in records])),
        pulls=_frozen(np.stack([o[2] for o in records])),
        guarantee=algorithm.guarantee(n_arms=n_arms, horizon=horizon),
        seconds=seconds, per_user=per_user, mode=getattr(algorithm, "mode", None),
        communication_cost=None if any(c is None for c in costs) else _frozen(
            np.asarray(costs, dtype=float)))


def run_seeded(run_once: Any, arguments: tuple, seeds: list[np.random.SeedSequence], *,
               n_jobs: Any = 1, executor: Any = None, scheduler: str | None = None,
               progress: bool = False, label: str = "runs", cache_dir: Any = None,
               cache: bool = False) -> list[Any]:
    """``[run_once(*arguments, seed) for seed in seeds]``, in order, on :func:`dpverify.execution.run_tasks`.

    The outcomes do not depend on where the runs go (each run has its own
    spawned seed and they are reassembled in order); a tqdm bar counts the
    runs. With ``cache=True`` every run is looked up in (and added to) the
    result store (:mod:`dpverify.bandits.store`), keyed by ``run_once``'s
    name, the arguments and the run's seed.
    """
    tasks = [(*arguments, seed) for seed in seeds]
    store = open_store(cache_dir, cache)
    configs = [] if store is None else [
        {"task": f"{run_once.__module__}.{run_once.__qualname__}", "arguments": arguments,
         "seed": seed} for seed in seeds]
    outcomes, _ = run_cached(run_once, tasks, configs, store, n_jobs=n_jobs, executor=executor,
                             scheduler=scheduler, progress=progress, label=label)
    return outcomes
