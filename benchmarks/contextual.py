"""Contextual-bandit benchmark (Garcelon et al. 2022): one run at T = 10^6, d = 5, K = 10, target < 60 s each.

Run on demand: ``python benchmarks/contextual.py [--horizon 1000000] [--dim 5]``.

Each cell runs in a forked child with a time limit (``_forked.run_forked``):
SBLB at Cor. 8's parameters (ε = 0.001, Thm 5's derived l — longer than T,
so no release happens — and the printed l ≈ 400, which releases every few
hundred users), the fixed-batch variant (printed l), LDP LinUCB (ε0 = 1, one
release per user) and LinUCB. The accounting (batch length search, Prop. 13,
composition) is done before the timed run. Also times the per-user path
(every user's M_LDP bits drawn) at T = 10^5 for comparison.
"""

from __future__ import annotations

import argparse

from _forked import run_forked

from dpverify.bandits.contextual import (
    SBLB,
    ContextualInstanceFamily,
    LDPLinUCB,
    LinUCB,
    simulate_contextual,
)

TIME_LIMIT_SECONDS = 120.0
TARGET_SECONDS = 60.0


def _cases() -> list[tuple[str, object]]:
    return [("SBLB (Cor. 8, derived l)", SBLB(0.001)),
            ("SBLB (Cor. 8, printed l)", SBLB(0.001, batch_form="printed")),
            ("SBLB fixed-batch (printed l)", SBLB(0.001, batch_form="printed", fixed_batch=True)),
            ("LDP LinUCB (eps0 = 1)", LDPLinUCB(1.0)),
            ("LinUCB", LinUCB())]


def _row(label: str, algorithm, horizon: int, dim: int, arms: int, per_user: bool) -> None:
    family = ContextualInstanceFamily(n_arms=arms, dimension=dim)
    algorithm.guarantee(horizon=horizon, dimension=dim)  # accounting outside the timed run
    length = (algorithm.parameters(horizon=horizon, dimension=dim).batch_length
              if hasattr(algorithm, "parameters") else 1)

    def one_run() -> float:
        result = simulate_contextual(algorithm, family, horizon, runs=1, seed=0, per_user=per_user)
        return float(result.final_regret()[0]) / horizon

    status, value, seconds = run_forked(one_run, seconds=TIME_LIMIT_SECONDS)
    verdict = "" if status != "ok" else ("ok" if seconds < TARGET_SECONDS else "SLOW")
    shown = f"{value:.4f}" if status == "ok" else status
    print(f"| {label}{' (per-user)' if per_user else ''} | {length} | {horizon} | {seconds:.2f} "
          f"| {shown} | {verdict} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--horizon", type=int, default=10 ** 6)
    parser.add_argument("--dim", type=int, default=5)
    parser.add_argument("--arms", type=int, default=10)
    args = parser.parse_args()
    print(f"\n## One run, T = {args.horizon}, d = {args.dim}, K = {args.arms} "
          f"(target < {TARGET_SECONDS:g} s)")
    print("| algorithm | l | T | seconds | Reg(T)/T | |\n|---|---|---|---|---|---|")
    for label, algorithm in _cases():
        _row(label, algorithm, args.horizon, args.dim, args.arms, per_user=False)
    for label, algorithm in _cases()[1:4]:
        _row(label, algorithm, args.horizon // 10, args.dim, args.arms, per_user=True)


if __name__ == "__main__":
    main()
