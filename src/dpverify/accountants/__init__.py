"""How guarantees combine, convert and calibrate: pure functions on guarantee values.

Submodules: ``composition`` (basic, advanced, optimal), ``rdp`` (Rényi DP),
``rdp_subsampling`` (amplification by subsampling in RDP for any
mechanism with an RDP curve), ``zcdp`` (zero-concentrated DP), ``pld`` (privacy loss distributions),
``events`` and ``accountant`` (event values and the ``PrivacyAccountant`` ledger),
``shuffle`` (amplification by shuffling; ``shuffle_papers`` for the papers' own
computations) and ``calibrate`` (smallest noise for a budget).
"""

from dpverify.accountants.accountant import (
    ACCOUNTING_METHODS,
    PrivacyAccountant,
    from_dp_accounting,
)
from dpverify.accountants.calibrate import (
    analytic_gaussian_sigma,
    gaussian_epsilon,
    laplace_epsilon,
    min_gaussian_sigma,
    min_laplace_scale,
    min_noise_multiplier,
    dp_sgd_epsilon,
)
from dpverify.accountants.composition import (
    advanced_composition,
    basic_composition,
    optimal_composition,
    optimal_composition_delta,
)
from dpverify.accountants.events import (
    ComposedEvent,
    ExponentialMechanismEvent,
    MechanismEvent,
    PoissonSampledEvent,
    RepeatAndSelectEvent,
    SampledWithoutReplacementEvent,
    SelfComposedEvent,
    TreeAggregationEvent,
    event_from_dict,
    event_to_dict,
)
from dpverify.accountants.group import group_privacy
from dpverify.accountants.pld import (
    PrivacyLossDistribution,
    compose_plds,
    delta_for_epsilon,
    epsilon_for_delta,
)
from dpverify.accountants.rdp import (
    DEFAULT_ORDERS,
    compose_rdp,
    gaussian_rdp,
    laplace_rdp,
    pure_dp_rdp,
    randomized_response_rdp,
    rdp_to_dp,
    rdp_to_dp_delta,
    scale_rdp,
    subsampled_gaussian_rdp,
)
from dpverify.accountants.shuffle import (
    amplified_delta,
    amplified_epsilon,
    max_local_epsilon,
    min_batch_size,
    min_flip_probability,
    shuffled_binary_rr_delta,
    shuffled_binary_rr_epsilon,
)
from dpverify.accountants.calibrate_discrete import min_discrete_gaussian_sigma
from dpverify.accountants.mixture_gaussian import mixture_gaussian_pld
from dpverify.accountants.rdp_subsampling import (
    poisson_subsampled_laplace_rdp,
    poisson_subsampled_rdp,
    without_replacement_gaussian_rdp,
    without_replacement_rdp,
)
from dpverify.accountants.rdp_subsampling_pairs import poisson_subsampled_pair_rdp
from dpverify.accountants.repeat_select import repeat_and_select_rdp
from dpverify.accountants.subsampling import dominating_pair, poisson_subsampled_pld
from dpverify.accountants.subsampling_wor import (
    without_replacement_gaussian_pld,
    without_replacement_pld,
)
from dpverify.accountants.tradeoff import tradeoff_curve, true_positive_rate
from dpverify.accountants.zcdp import (
    compose_zcdp,
    pure_to_zcdp,
    zcdp_to_dp,
    zcdp_to_dp_delta,
    zcdp_to_rdp,
)

__all__ = [
    # accountant objects and events
    "PrivacyAccountant",
    "ACCOUNTING_METHODS",
    "from_dp_accounting",
    "MechanismEvent",
    "ComposedEvent",
    "SelfComposedEvent",
    "PoissonSampledEvent",
    "SampledWithoutReplacementEvent",
    "TreeAggregationEvent",
    "RepeatAndSelectEvent",
    "ExponentialMechanismEvent",
    "event_to_dict",
    "event_from_dict",
    # amplification by subsampling
    "dominating_pair",
    "poisson_subsampled_pld",
    "without_replacement_pld",
    "without_replacement_gaussian_pld",
    "mixture_gaussian_pld",
    # queries on guarantees
    "group_privacy",
    "tradeoff_curve",
    "true_positive_rate",
    # composition of (ε, δ) guarantees
    "basic_composition",
    "advanced_composition",
    "optimal_composition",
    "optimal_composition_delta",
    # Rényi DP
    "DEFAULT_ORDERS",
    "gaussian_rdp",
    "laplace_rdp",
    "randomized_response_rdp",
    "pure_dp_rdp",
    "subsampled_gaussian_rdp",
    "poisson_subsampled_rdp",
    "poisson_subsampled_laplace_rdp",
    "poisson_subsampled_pair_rdp",
    "without_replacement_rdp",
    "without_replacement_gaussian_rdp",
    "repeat_and_select_rdp",
    "compose_rdp",
    "scale_rdp",
    "rdp_to_dp",
    "rdp_to_dp_delta",
    # zCDP
    "compose_zcdp",
    "pure_to_zcdp",
    "zcdp_to_rdp",
    "zcdp_to_dp",
    "zcdp_to_dp_delta",
    # privacy loss distributions
    "PrivacyLossDistribution",
    "compose_plds",
    "epsilon_for_delta",
    "delta_for_epsilon",
    # amplification by shuffling
    "amplified_epsilon",
    "amplified_delta",
    "max_local_epsilon",
    "min_batch_size",
    "shuffled_binary_rr_epsilon",
    "shuffled_binary_rr_delta",
    "min_flip_probability",
    # calibration
    "analytic_gaussian_sigma",
    "gaussian_epsilon",
    "laplace_epsilon",
    "min_gaussian_sigma",
    "min_laplace_scale",
    "min_noise_multiplier",
    "min_discrete_gaussian_sigma",
    "dp_sgd_epsilon",
]
