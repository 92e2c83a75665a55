"""The phase lengths of the linear phased eliminations: functions of (T, d, α) alone.

Hanna et al. 2022's batches ``N_i = ⌈q^i⌉``, ``i = 1..M``, and DP-DPE's phases
``(l, h_l, ⌈2^{αl}⌉)``. The algorithms (:mod:`~dpverify.bandits.linear.phased_elimination`,
:mod:`~dpverify.bandits.linear.distributed_phased_elimination`, which re-export
these functions) and their deployment plans (:mod:`dpverify.bandits.linear._deployment`)
both read them here.
"""

from __future__ import annotations

import math

from dpverify._deprecation import renamed_parameters
from dpverify._validation import check_in_range, check_positive_int
from dpverify.bandits.design import design_budget

__all__ = ["batch_base", "batch_count", "nominal_batch_sizes", "phase_schedule"]


def batch_base(horizon: int) -> float:
    """``q = (2T)^{1/ln T}`` (natural log, so e <= q <= e² for T >= 3; Hanna et al. 2022, Alg. 1 l. 3).

    >>> round(batch_base(10 ** 6), 4)
    2.8581
    """
    horizon = check_positive_int(horizon, "horizon")
    if horizon < 3:
        return math.e
    return (2 * horizon) ** (1 / math.log(horizon))


def batch_count(horizon: int) -> int:
    """M = max(⌊ln T⌋ − 1, 1) batches (Hanna et al. 2022's "ln T − 1", Alg. 1 l. 4, rounded down).

    >>> batch_count(10 ** 6), batch_count(10 ** 7)
    (12, 15)
    """
    horizon = check_positive_int(horizon, "horizon")
    return max(int(math.floor(math.log(horizon))) - 1, 1) if horizon > 1 else 1


def nominal_batch_sizes(horizon: int) -> list[int]:
    """The distinct nominal batch sizes N_i = ⌈q^i⌉, i = 1..M.

    >>> nominal_batch_sizes(100)
    [4, 10, 32]
    """
    base = batch_base(horizon)
    return sorted({max(1, math.ceil(base ** i)) for i in range(1, batch_count(horizon) + 1)})


@renamed_parameters(d="dimension", alpha="client_sampling_exponent")
def phase_schedule(horizon: int, dimension: int, client_sampling_exponent: float
                   ) -> list[tuple[int, float, int]]:
    """Nominal ``(l, h_l, ⌈2^{αl}⌉)`` of the phases started before T (``Σ h_{l'} < T``).

    α = ``client_sampling_exponent``: phase l samples ⌈2^{αl}⌉ clients (Li, Zhou & Ji 2022,
    Alg. 1 l. 6).

    >>> [(l, round(h, 2), u) for l, h, u in phase_schedule(10 ** 6, 20, 0.8)][:3]
    [(1, 103.78, 2), (2, 207.55, 4), (3, 415.1, 6)]
    >>> len(phase_schedule(10 ** 6, 20, 0.8))
    14
    """
    horizon = check_positive_int(horizon, "horizon")
    dimension = check_positive_int(dimension, "dimension")
    alpha = check_in_range(client_sampling_exponent, "client_sampling_exponent", 0.0, 1.0,
                           low_closed=False, high_closed=False)
    h1, played, phases = design_budget(dimension), 0.0, []
    l = 1
    while played < horizon:
        h = h1 * 2 ** (l - 1)
        phases.append((l, h, math.ceil(2 ** (alpha * l))))
        played += h
        l += 1
    return phases
