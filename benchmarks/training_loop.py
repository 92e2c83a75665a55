"""Training-loop benchmark: the accountant queried inside a DP-SGD loop, dpverify beside its peers.

Run on demand (not part of the test suite)::

    python benchmarks/training_loop.py                 # every row, 120 s per cell
    python benchmarks/training_loop.py --budget 30     # a quicker look (cells stop at 30 s)

DP-SGD at q = 256/60000, σ = 1.1, δ = 1e-5 and 14,062 steps, side by side. (14,062 is 60 epochs
counted as Opacus counts them, ⌊E/q⌋ = ⌊14,062.5⌋: ``steps = int(epochs / sample_rate)``,
``opacus/accountants/utils.py`` line 54. dpverify's own count from epochs, in ``account dp-sgd``,
``plan dp-sgd`` and ``min_noise_multiplier``, is ⌈E·N/B⌉ = 14,063, as TF-Privacy's
``tensorflow_privacy/privacy/analysis/compute_dp_sgd_privacy_lib.py`` line 584; see
``docs/guide/dp-sgd.md``. Here every tool is given the step count itself.)

* a loop of 14,062 steps with ``get_epsilon`` after **every** step, and after every 100th;
* a 60-σ epoch schedule (σ from 0.8 to 2.0, 234 steps each, added epoch by epoch in each
  tool's way of composing n identical steps): one query at the end;
* "how many more steps fit ε = 3": dpverify's ``remaining_steps`` after 1,000 steps; the
  peers by the same bracketing over the count (doubling, then bisection), each count on a
  fresh accountant given its steps at once.

Tools: dpverify's ``PrivacyAccountant`` (PLD and RDP), dp_accounting's ``PLDAccountant`` and
``RdpAccountant`` (one composition per step, as a loop would call them), and Opacus's RDP
analysis module (``accountants/analysis/rdp.py``, its default orders; loaded by file path
because ``import opacus`` needs torch: ``pip install --no-deps opacus``), whose
``RDPAccountant`` recomputes ``compute_rdp`` from its history at each query.

A cell stops once it has used ``--budget`` seconds of CPU and reports how far it got; its
amortised time per query is over the queries it made (the queries of a loop grow costlier
with the step count, so a stopped cell's extrapolation is a lower bound). Each row gives
the last ε, the queries made, the wall and CPU time (this process's: on a shared machine
the CPU time is the comparable one) and the amortised CPU milliseconds per query. Peer libraries are imported only here and in tests.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable

import numpy as np
from accounting import _opacus_installed, _opacus_rdp_analysis  # Opacus's RDP module, without torch

from dpverify.accountants.accountant import PrivacyAccountant

RATE = 256 / 60000
SIGMA = 1.1
DELTA = 1e-5
STEPS = 14_062
SCHEDULE = [float(s) for s in np.linspace(0.8, 2.0, 60)]
EPOCH_STEPS = 234
BUDGET_EPSILON = 3.0
OPACUS_ORDERS = [1 + x / 10.0 for x in range(1, 100)] + list(range(12, 64))


# ---------------------------------------------------------------------------- one accountant API
class _Loop:
    """What a training loop needs of an accountant: add one step, ask ε; and ``steps(σ, n)``,
    n steps at once (a known schedule: each tool's own way to compose n identical steps)."""

    def __init__(self, step: Callable[[float], None], epsilon: Callable[[], float],
                 steps: Callable[[float, int], None] | None = None) -> None:
        self.step, self.epsilon = step, epsilon
        self.steps = steps or (lambda sigma, count: [step(sigma) for _ in range(count)])


def _dpverify(method: str) -> _Loop:
    accountant = PrivacyAccountant(method)
    return _Loop(lambda sigma: accountant.step(noise_multiplier=sigma, sample_rate=RATE),
                 lambda: accountant.get_epsilon(DELTA))


def _dp_accounting(kind: str) -> _Loop:
    import dp_accounting
    from dp_accounting.pld import pld_privacy_accountant
    from dp_accounting.rdp import rdp_privacy_accountant

    accountant = (pld_privacy_accountant.PLDAccountant() if kind == "pld"
                  else rdp_privacy_accountant.RdpAccountant())

    def event(sigma: float):
        return dp_accounting.PoissonSampledDpEvent(RATE, dp_accounting.GaussianDpEvent(sigma))

    return _Loop(lambda sigma: accountant.compose(event(sigma)), lambda: accountant.get_epsilon(DELTA),
                 lambda sigma, count: accountant.compose(event(sigma), count))


def _opacus() -> _Loop:
    """Opacus's ``RDPAccountant``: a history of (σ, q, steps) runs, ``compute_rdp`` per run at each query."""
    analysis = _opacus_rdp_analysis()
    history: list[list] = []

    def steps(sigma: float, count: int = 1) -> None:
        if history and history[-1][0] == sigma:
            history[-1][2] += count
        else:
            history.append([sigma, RATE, count])

    def epsilon() -> float:
        rdp = sum(analysis.compute_rdp(q=q, noise_multiplier=s, steps=n, orders=OPACUS_ORDERS)
                  for s, q, n in history)
        return float(analysis.get_privacy_spent(orders=OPACUS_ORDERS, rdp=rdp, delta=DELTA)[0])

    return _Loop(steps, epsilon, steps)


def _tools() -> list[tuple[str, Callable[[], _Loop]]]:
    tools = [("dpverify PLD", lambda: _dpverify("pld")), ("dpverify RDP", lambda: _dpverify("rdp")),
             ("dp_accounting PLDAccountant", lambda: _dp_accounting("pld")),
             ("dp_accounting RdpAccountant", lambda: _dp_accounting("rdp"))]
    if _opacus_installed():
        tools.append(("Opacus RDP (analysis/rdp.py)", _opacus))
    return tools


# ---------------------------------------------------------------------------- the rows
def _row(name: str, epsilon: float, queries: int, seconds: tuple[float, float], finished: bool) -> str:
    wall, cpu = seconds
    per = 1000 * cpu / max(queries, 1)
    note = "" if finished else "  (stopped at the budget)"
    return (f"| {name:<30} | {epsilon:9.5f} | {queries:>7} | {wall:8.2f} | {cpu:7.2f} | {per:9.2f} |"
            f"{note}")


_HEADER = ["| tool                           |   ε       | queries | wall (s) | CPU (s) | CPU ms/query |",
           "|--------------------------------|-----------|---------|----------|---------|--------------|"]


class _Clock:
    """Wall and CPU seconds since it was made (CPU: this process, so other load does not count)."""

    def __init__(self) -> None:
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def __call__(self) -> tuple[float, float]:
        return time.perf_counter() - self.wall, time.process_time() - self.cpu


def query_loop(every: int, budget: float) -> list[str]:
    rows = [f"\n### {STEPS} steps, a query after every {'' if every == 1 else f'{every}th '}step",
            *_HEADER]
    for name, make in _tools():
        loop, queries, epsilon, finished = make(), 0, math.nan, True
        clock = _Clock()
        for i in range(1, STEPS + 1):
            loop.step(SIGMA)
            if i % every == 0:
                epsilon, queries = loop.epsilon(), queries + 1
            if clock()[1] > budget:
                finished = False
                break
        rows.append(_row(name, epsilon, queries, clock(), finished))
    return rows


def schedule(budget: float) -> list[str]:
    rows = [f"\n### a {len(SCHEDULE)}-σ epoch schedule ({EPOCH_STEPS} steps each), composed and one query",
            *_HEADER]
    for name, make in _tools():
        clock = _Clock()   # composing and the query: a peer may compose when told, we when asked
        loop = make()
        for sigma in SCHEDULE:
            loop.steps(sigma, EPOCH_STEPS)
        epsilon = loop.epsilon()
        rows.append(_row(name, epsilon, 1, clock(), True))
    return rows


def _bracketing(make: Callable[[], _Loop], done: int, budget: float) -> tuple[int, int, bool]:
    """The peers' remaining-steps: doubling, then bisection on fresh accountants; (m, queries, finished)."""
    clock, queries = _Clock(), 0

    def meets(more: int) -> bool:
        nonlocal queries
        loop = make()
        loop.steps(SIGMA, done + more)
        queries += 1
        return loop.epsilon() <= BUDGET_EPSILON

    if not meets(1):
        return 0, queries, True
    low, high = 1, 2
    while meets(high):
        low, high = high, 2 * high
        if clock()[1] > budget:
            return low, queries, False
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if meets(middle) else (low, middle)
        if clock()[1] > budget:
            return low, queries, False
    return low, queries, True


def remaining(budget: float, done: int = 1000) -> list[str]:
    rows = [f"\n### steps that fit ε = {BUDGET_EPSILON} after {done} steps (m; queries)",
            "| tool                           |   m       | queries | wall (s) | CPU (s) |",
            "|--------------------------------|-----------|---------|----------|---------|"]
    for method in ("pld", "rdp"):
        accountant = PrivacyAccountant(method)
        for _ in range(done):
            accountant.step(noise_multiplier=SIGMA, sample_rate=RATE)
        clock = _Clock()
        m = accountant.remaining_steps(epsilon=BUDGET_EPSILON, delta=DELTA, noise_multiplier=SIGMA,
                                       sample_rate=RATE)
        wall, cpu = clock()
        rows.append(f"| {'dpverify ' + method.upper() + ' remaining_steps':<30} | {m:>9} | "
                    f"{'':>7} | {wall:8.2f} | {cpu:7.2f} |")
    for name, make in _tools()[2:]:
        clock = _Clock()
        m, queries, finished = _bracketing(make, done, budget)
        wall, cpu = clock()
        note = "" if finished else "  (stopped at the budget)"
        rows.append(f"| {name + ' bracketing':<30} | {m:>9} | {queries:>7} | {wall:8.2f} | "
                    f"{cpu:7.2f} |{note}")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--budget", type=float, default=120.0,
                        help="CPU seconds after which a cell stops (default 120)")
    parser.add_argument("--only", choices=("every-step", "every-100", "schedule", "remaining"),
                        help="run one table")
    args = parser.parse_args()
    tables = {"every-step": lambda: query_loop(1, args.budget),
              "every-100": lambda: query_loop(100, args.budget),
              "schedule": lambda: schedule(args.budget),
              "remaining": lambda: remaining(args.budget)}
    for name, table in tables.items():
        if args.only in (None, name):
            print("\n".join(table()), flush=True)


if __name__ == "__main__":
    main()
