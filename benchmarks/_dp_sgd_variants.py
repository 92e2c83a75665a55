"""The DP-SGD variants table of ``benchmarks/auditing.py --only scores``.

Each catalogued DP-SGD variant (:data:`dpverify.auditing.dp_sgd_variants.DP_SGD_VARIANTS`:
the reference and its six bugs, all claiming the reference's ε) trained once with m
canaries and audited in one run by :func:`dpverify.auditing.audit_training` (confidence
0.95, seed 1): white-box Dirac gradient canaries with the variant's own score, and
black-box mislabelled input canaries scored by their loss on the final model. Seconds are
wall-clock for training and audit together.

Standalone: ``python benchmarks/_dp_sgd_variants.py [--canaries 1000 10000]``.
"""

from __future__ import annotations

import argparse
import time
import warnings

from dpverify.auditing import audit_training
from dpverify.auditing.dp_sgd_variants import DP_SGD_VARIANTS


def dp_sgd_variants(canary_counts: list[int], seed: int = 1) -> list[str]:
    """Markdown rows: variant, canaries' type and score, claimed ε, certified bound, m, seconds."""
    rows = ["| variant | canaries (score) | claimed ε | certified bound | flagged | m | seconds |",
            "|---|---|---:|---:|---|---:|---:|"]
    for canaries in canary_counts:
        for name, variant in DP_SGD_VARIANTS.items():
            for canary_type in ("gradient", "input"):
                score = variant.canary_score if canary_type == "gradient" else "loss"
                start = time.perf_counter()
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", RuntimeWarning)
                    report = audit_training(variant.trainer(canary_type=canary_type),
                                            canaries=canaries, epsilon=variant.claimed_epsilon,
                                            delta=variant.delta, seed=seed)
                seconds = time.perf_counter() - start
                flagged = "yes" if report.violation else "no"
                rows.append(f"| {name} | {canary_type} ({score}) | {variant.claimed_epsilon:.4f} | "
                            f"{report.epsilon_lower_bound:.4f} | {flagged} | {canaries} | "
                            f"{seconds:.1f} |")
                print(rows[-1], flush=True)
    return rows


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--canaries", type=float, nargs="+", default=[1e3, 1e4])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    dp_sgd_variants([int(m) for m in args.canaries], args.seed)
