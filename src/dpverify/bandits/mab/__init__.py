"""K-armed bandit algorithms: batched elimination of Tenenbaum et al. 2021 and Chowdhury & Zhou 2023, and DP-SE.

:func:`make_algorithm` builds one by its CLI name:

============== ================================================================ ================
name           algorithm                                                        guarantee
============== ================================================================ ================
se             Chowdhury & Zhou Alg. 1, non-private (exact sums)                none
ae             Tenenbaum et al. arm elimination, non-private, batches 2^t       none
sdp-ae         Tenenbaum et al. SDP-AE (fixed m = ⌈σ²⌉), shuffled M_sum         (ε, δ)-SDP
vb-sdp-ae      Tenenbaum et al. VB-SDP-AE (m^t = 2^t), shuffled M_sum           (ε, δ)-SDP
dist-dp-se     Chowdhury & Zhou Thm 1: Pólya + SecAgg                           ε-DP (distributed)
dist-rdp-se    Chowdhury & Zhou Thm 2: Skellam + SecAgg (s = 10)                RDP → (ε, δ)
dist-cdp-se    Chowdhury & Zhou Thm 4: discrete Gaussian + SecAgg (s = 10)      zCDP → (ε, δ)
shuffle-dp-se  Chowdhury & Zhou Thm 3: relaxed SecAgg by shuffling (simulated)  ε-DP (shuffle)
cdp-se         Chowdhury & Zhou Thm 5: central discrete Laplace                 ε-DP (central)
ldp-se         Chowdhury & Zhou Thm 6: local discrete Laplace                   ε-DP (local)
dp-se          Sajed & Sheffet 2019: central Laplace                            ε-DP (central)
============== ================================================================ ================
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from dpverify._validation import check_choice, value_error
from dpverify.bandits.mab._deployment import calibrated_privatizer, secure_aggregation_plans
from dpverify.bandits.mab.batched_elimination import (
    BatchedEliminationPolicy,
    BatchedSuccessiveElimination,
    cdp_se,
    dist_cdp_se,
    dist_dp_se,
    dist_rdp_se,
    ldp_se,
    shuffle_dp_se,
    successive_elimination,
)
from dpverify.bandits.mab.dp_se import DPSE, DPSEPolicy
from dpverify.bandits.mab.shuffle_elimination import (
    ShuffleArmElimination,
    ShuffleEliminationPolicy,
    arm_elimination,
    sdp_ae,
    vb_sdp_ae,
)
from dpverify.errors import DpverifyTypeError

__all__ = [
    "BatchedSuccessiveElimination",
    "BatchedEliminationPolicy",
    "ShuffleArmElimination",
    "ShuffleEliminationPolicy",
    "DPSE",
    "DPSEPolicy",
    "successive_elimination",
    "arm_elimination",
    "sdp_ae",
    "vb_sdp_ae",
    "dist_dp_se",
    "dist_rdp_se",
    "dist_cdp_se",
    "shuffle_dp_se",
    "cdp_se",
    "ldp_se",
    "make_algorithm",
    "ALGORITHM_NAMES",
    "calibrated_privatizer",
    "secure_aggregation_plans",
]


def _chowdhury(factory: Callable[..., Any]) -> Callable[..., Any]:
    def build(epsilon: float, delta: float, **options: Any) -> Any:
        return factory(epsilon, delta=delta, **options)

    return build


_BUILDERS: dict[str, Callable[..., Any]] = {
    "se": lambda epsilon, delta, **options: successive_elimination(**options),
    "ae": lambda epsilon, delta, **options: arm_elimination(**options),
    "sdp-ae": lambda epsilon, delta, **options: sdp_ae(epsilon, delta, **options),
    "vb-sdp-ae": lambda epsilon, delta, **options: vb_sdp_ae(epsilon, delta, **options),
    "dist-dp-se": _chowdhury(dist_dp_se),
    "dist-rdp-se": _chowdhury(dist_rdp_se),
    "dist-cdp-se": _chowdhury(dist_cdp_se),
    "shuffle-dp-se": _chowdhury(shuffle_dp_se),
    "cdp-se": _chowdhury(cdp_se),
    "ldp-se": _chowdhury(ldp_se),
    "dp-se": lambda epsilon, delta, **options: DPSE(epsilon, **options),
}

#: Algorithm names accepted by :func:`make_algorithm` and ``dpverify simulate --algorithm``.
ALGORITHM_NAMES = tuple(_BUILDERS)

_PRIVATE = frozenset(ALGORITHM_NAMES) - {"se", "ae"}


def make_algorithm(name: str, *, epsilon: float | None = None, delta: float = 1e-6,
                   **options: Any) -> Any:
    """The algorithm called ``name`` (see the module table) at privacy level (ε, δ).

    ``delta`` is the δ of Tenenbaum et al. 2021, or the δ at which an RDP / zCDP guarantee is
    reported; pure-DP algorithms ignore it. ``options`` go to the constructor
    (``batch_base``, ``failure_probability``, ``scale_factor``, ``protocol``, ``batch_size``, …).

    >>> make_algorithm("dist-rdp-se", epsilon=0.5, batch_base=4).name
    'Dist-RDP-SE (s=10)'
    >>> make_algorithm("se").guarantee(n_arms=2, horizon=10).model
    'none'
    """
    name = check_choice(name, "name", ALGORITHM_NAMES)
    if name in _PRIVATE and epsilon is None:
        raise value_error("epsilon", None, "given for a private algorithm")
    try:
        return _BUILDERS[name](epsilon, delta, **options)
    except TypeError as error:  # an option this algorithm does not take: name it
        unknown = re.search(r"unexpected keyword argument '(\w+)'", str(error))
        if unknown is None or unknown.group(1) not in options:
            raise
        option = unknown.group(1)
        raise DpverifyTypeError(f"{option}={options[option]!r} is not an option of algorithm "
                                f"{name!r}") from None
