"""Linear contextual bandits with shuffle-model privacy: Garcelon et al. 2022's SBLB and its baselines.

* :mod:`~dpverify.bandits.contextual.environment` — K-armed linear contextual
  instances (contexts on the positive-orthant sphere, Bernoulli rewards in [0, 1]);
* :mod:`~dpverify.bandits.contextual.parameters` — p ↔ ε0, λ_j (Eq. 8),
  β_j (Eq. 7), Thm 5's batch length, Cor. 7/8 (:func:`sblb_parameters`);
* :mod:`~dpverify.bandits.contextual.reports` — the shuffler's release (Z, U):
  per-user path and exact-law fast path, debiasing;
* :mod:`~dpverify.bandits.contextual.sblb` — SBLB (Alg. 1) and Alg. 4;
* :mod:`~dpverify.bandits.contextual.linucb` — LinUCB (OFUL) and LDP LinUCB;
* :mod:`~dpverify.bandits.contextual.simulate` — :func:`simulate_contextual`.

>>> from dpverify.bandits.contextual import SBLB, ContextualInstanceFamily, simulate_contextual
>>> result = simulate_contextual(SBLB(0.002, batch_form="printed"),
...                              ContextualInstanceFamily(n_arms=5, dimension=2), 5000, seed=0)
>>> result.guarantee.model
'shuffle'
"""

from dpverify._validation import check_choice, value_error
from dpverify.bandits.contextual.environment import (
    CONTEXT_GENERATORS,
    ContextualInstanceFamily,
    ContextualLinearBandit,
)
from dpverify.bandits.contextual.linucb import LDPLinUCB, LinUCB
from dpverify.bandits.contextual.parameters import SBLBParameters, sblb_parameters
from dpverify.bandits.contextual.sblb import SBLB
from dpverify.bandits.contextual.simulate import simulate_contextual

__all__ = [
    "CONTEXT_GENERATORS",
    "ContextualLinearBandit",
    "ContextualInstanceFamily",
    "SBLB",
    "LinUCB",
    "LDPLinUCB",
    "SBLBParameters",
    "sblb_parameters",
    "simulate_contextual",
    "CONTEXTUAL_ALGORITHMS",
    "make_contextual_algorithm",
]

#: Algorithm names of :func:`make_contextual_algorithm` (and of ``dpverify simulate``).
CONTEXTUAL_ALGORITHMS = ("sblb", "sblb-fixed-batch", "linucb", "ldp-linucb")


def make_contextual_algorithm(name: str, *, epsilon: float | None = None, delta: float = 1e-6,
                              **options):
    """Build a contextual algorithm by name.

    ``sblb`` / ``sblb-fixed-batch``: central target (ε, δ) (SBLB's options:
    regime, batch_form, strict, batch_length, radius_scale, …); ``ldp-linucb``: ε is
    the local ε0; ``linucb``: non-private (ε must be None).

    >>> make_contextual_algorithm("sblb-fixed-batch", epsilon=0.001).name
    'sblb-fixed-batch'
    """
    name = check_choice(name, "name", CONTEXTUAL_ALGORITHMS)
    if name == "linucb":
        if epsilon is not None:
            raise value_error("epsilon", epsilon, "None for the non-private linucb")
        return LinUCB(**options)
    if epsilon is None:
        raise value_error("epsilon", epsilon, f"a positive number for {name}")
    if name == "ldp-linucb":
        return LDPLinUCB(epsilon, delta, **options)
    return SBLB(epsilon, delta, fixed_batch=name == "sblb-fixed-batch", **options)
