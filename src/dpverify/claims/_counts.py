"""Lower bounds on ε of shuffled Laplace reports from one post-processed count (Hanna et al. 2022, Alg. 3).

The analyser of the printed Alg. 3 sees the shuffled multiset of the users'
reports ``r + Lap(1/ε0)``; any count of them is post-processing, so the exact
δ(ε) of a count over one neighbouring pair is a lower bound on the
algorithm's. Line 8's ε0 = f^{-1}_{n,δ}(ε) is Eq. (10) solved as printed (no
validity cap).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import optimize, stats

from dpverify._validation import (
    check_delta,
    check_finite,
    check_in_range,
    check_positive,
    check_positive_int,
)

__all__ = ["MAX_COUNT_USERS", "count_epsilon_lower_bound", "fmt_inverse", "printed_alg3_lower_bound"]


#: Largest batch :func:`count_epsilon_lower_bound` evaluates (its work and memory grow with it).
MAX_COUNT_USERS = 10 ** 6


def count_epsilon_lower_bound(local_epsilon: float, users: int, delta: float, *, threshold: float,
                              others: float) -> float:
    """A rigorous lower bound on ε(δ) of n shuffled reports ``r + Lap(1/ε0)``, from one post-processed count.

    The analyser of Hanna et al.'s Alg. 3 (printed: Lap(1/ε0^{(i)}) per reward)
    sees the shuffled multiset of reports; the number Y of reports above
    ``threshold`` is a function of it. Neighbours: one user's reward −1 vs +1,
    the other n − 1 rewards all equal to ``others`` (−1 or +1). Then
    ``Y = Bin(n − 1, q_o) + Ber(q_±)`` with ``q_r = P(r + Lap(1/ε0) > c)``, and
    ``δ_Y(ε) = Σ_y (P(y) − e^ε Q(y))_+`` (both orders) is a lower bound on the
    mechanism's δ(ε) (post-processing). Returns the largest ε (bisection, 60
    steps) with ``δ_Y(ε) > delta``, which the mechanism's ε at δ exceeds (0 when
    none). The pmfs are float (scipy); each term is taken with a relative
    margin of 1e-9 against their rounding. ``users`` <= ``MAX_COUNT_USERS``.

    >>> round(count_epsilon_lower_bound(3.5037, 10**4, 1e-6, threshold=-0.75, others=1.0), 2)
    1.51
    """
    n = check_positive_int(users, "users", maximum=MAX_COUNT_USERS)
    local_epsilon = check_positive(local_epsilon, "local_epsilon")
    delta = check_delta(delta, allow_zero=False)
    threshold = check_finite(threshold, "threshold")
    others = check_in_range(others, "others", -1.0, 1.0)
    b = 1 / local_epsilon

    def above(reward: float) -> float:  # P(reward + Lap(b) > threshold)
        gap = threshold - reward
        return 0.5 * math.exp(-gap / b) if gap >= 0 else 1 - 0.5 * math.exp(gap / b)

    q_plus, q_minus = above(1.0), above(-1.0)
    rest = stats.binom.pmf(np.arange(n), n - 1, above(others))
    first = np.zeros(n + 1)
    second = np.zeros(n + 1)
    first[1:] += rest * q_plus
    first[:-1] += rest * (1 - q_plus)
    second[1:] += rest * q_minus
    second[:-1] += rest * (1 - q_minus)

    def delta_at(epsilon: float) -> float:
        weight = math.exp(epsilon)
        return max(np.clip(p * (1 - 1e-9) - weight * q * (1 + 1e-9), 0, None).sum()
                   for p, q in ((first, second), (second, first)))

    if not delta_at(0.0) > delta:
        return 0.0
    low, high = 0.0, 2 * float(local_epsilon) + 1
    for _ in range(60):
        middle = (low + high) / 2
        low, high = (middle, high) if delta_at(middle) > delta else (low, middle)
    return low


def fmt_inverse(epsilon: float, users: int, delta: float) -> float:
    """Line 8's f^{-1}_{n,δ}(ε) as printed: Eq. (10) solved for ε0 with no validity cap (brentq)."""
    def excess(local: float) -> float:
        e = math.exp(local)
        inner = (e - 1) / (e + 1) * (8 * math.sqrt(e * math.log(4 / delta) / users) + 8 * e / users)
        return math.log1p(inner) - epsilon
    return float(optimize.brentq(excess, 1e-9, 60.0, xtol=1e-12))


def printed_alg3_lower_bound(users: int, *, epsilon: float = 1.0, delta: float = 1e-6) -> dict[str, float]:
    """The printed Alg. 3 at one batch: ε0 = f^{-1}_{n,δ}(ε) from line 8 (no validity cap), the best count bound.

    The thresholds −1, −0.75, …, 4 and both choices of the other users'
    rewards are tried; every one gives a valid lower bound, the largest is returned.
    """
    local = fmt_inverse(epsilon, users, delta)
    best, where = 0.0, (0.0, 0.0)
    for threshold in np.arange(-1.0, 4.01, 0.25):
        for others in (-1.0, 1.0):
            value = count_epsilon_lower_bound(local, users, delta, threshold=float(threshold), others=others)
            if value > best:
                best, where = value, (float(threshold), others)
    return {"users": users, "local_epsilon": local, "epsilon_lower_bound": best, "threshold": where[0],
            "others": where[1], "claimed_epsilon": epsilon}
