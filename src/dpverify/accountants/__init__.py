"""How guarantees combine, convert and calibrate: pure functions on guarantee values.

Modules of every method:

* ``events`` — event values (what a computation released) and their serialisation;
* ``composition`` — basic, advanced and optimal composition of (ε, δ) guarantees
  (its private ``_kfold_randomized_response`` is the exact k-fold RR behind the optimum);
* ``zcdp`` — zero-concentrated DP: composition and conversions;
* ``group`` — group privacy of each guarantee type;
* ``dominating_pairs`` — finite dominating pairs of mechanisms, from which PLD and RDP
  compute subsampling.

Families, one subpackage each (subsampling stays with the family that computes it):

* ``accountant`` — :class:`PrivacyAccountant` (a ledger of events, accounted by PLD, RDP
  or zCDP) and its event translators, dispatched by a registry;
* ``pld`` — privacy loss distributions: the value, its grid, FFT composition and
  constructors, Poisson and without-replacement subsampling, mixtures of Gaussians,
  trade-off curves;
* ``rdp`` — Rényi DP: curves, composition, conversions, subsampled RDP (Poisson, without
  replacement, finite pairs), repeat-and-select;
* ``shuffle`` — amplification by shuffling: the bounds, their inverses, exact shuffled
  binary RR, the papers' own forms (``shuffle.papers``);
* ``calibrate`` — the smallest noise for a budget: Gaussian, Laplace, binomial, discrete
  Gaussian, DP-SGD.

``_subsampled_gaussian_float`` (the subsampled Gaussian's Rényi moments in floats) is
shared by ``rdp`` and ``calibrate``. The modules of 0.1 that moved into a family
(``rdp_subsampling``, ``rdp_subsampling_pairs``, ``repeat_select``, ``subsampling``,
``subsampling_wor``, ``mixture_gaussian``, ``tradeoff``, ``shuffle_papers``,
``calibrate_discrete``, ``dp_sgd``) still import: each re-exports its names from the
new home, which its docstring names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dpverify._lazy import lazy_exports

if TYPE_CHECKING:  # the static view of the lazy re-exports below
    from dpverify.accountants.accountant import (
        ACCOUNTING_METHODS,
        PrivacyAccountant,
        from_dp_accounting,
    )
    from dpverify.accountants.calibrate import (
        analytic_gaussian_sigma,
        dp_sgd_epsilon,
        gaussian_epsilon,
        laplace_epsilon,
        min_discrete_gaussian_sigma,
        min_gaussian_sigma,
        min_laplace_scale,
        min_noise_multiplier,
    )
    from dpverify.accountants.composition import (
        advanced_composition,
        basic_composition,
        optimal_composition,
        optimal_composition_delta,
    )
    from dpverify.accountants.dominating_pairs import dominating_pair
    from dpverify.accountants.events import (
        ComposedEvent,
        ExponentialMechanismEvent,
        MechanismEvent,
        PoissonSampledEvent,
        RepeatAndSelectEvent,
        SampledWithoutReplacementEvent,
        SelfComposedEvent,
        TreeAggregationEvent,
        TruncatedPoissonSampledEvent,
        event_from_dict,
        event_to_dict,
    )
    from dpverify.accountants.group import group_privacy
    from dpverify.accountants.pld import (
        PrivacyLossDistribution,
        compose_plds,
        delta_for_epsilon,
        epsilon_for_delta,
        mixture_gaussian_pld,
        poisson_subsampled_pld,
        tradeoff_curve,
        true_positive_rate,
        without_replacement_gaussian_pld,
        without_replacement_pld,
    )
    from dpverify.accountants.rdp import (
        DEFAULT_ORDERS,
        bounded_range_rdp,
        compose_rdp,
        gaussian_rdp,
        laplace_rdp,
        poisson_subsampled_laplace_rdp,
        poisson_subsampled_pair_rdp,
        poisson_subsampled_rdp,
        pure_dp_rdp,
        randomized_response_rdp,
        rdp_to_dp,
        rdp_to_dp_delta,
        repeat_and_select_rdp,
        scale_rdp,
        subsampled_gaussian_rdp,
        without_replacement_gaussian_rdp,
        without_replacement_rdp,
    )
    from dpverify.accountants.shuffle import (
        amplified_delta,
        amplified_epsilon,
        max_local_epsilon,
        min_batch_size,
        min_randomization_probability,
        shuffled_binary_rr_delta,
        shuffled_binary_rr_epsilon,
    )
    from dpverify.accountants.zcdp import (
        compose_zcdp,
        pure_to_zcdp,
        zcdp_to_dp,
        zcdp_to_dp_delta,
        zcdp_to_rdp,
    )

#: Where each re-exported name lives, imported on first use (``dpverify account ...`` loads only what its calculation uses).
_EXPORTS = {
    **dict.fromkeys(("ACCOUNTING_METHODS", "PrivacyAccountant", "from_dp_accounting"),
                    "dpverify.accountants.accountant"),
    **dict.fromkeys(("analytic_gaussian_sigma", "dp_sgd_epsilon", "gaussian_epsilon",
                     "laplace_epsilon", "min_discrete_gaussian_sigma", "min_gaussian_sigma",
                     "min_laplace_scale", "min_noise_multiplier"),
                    "dpverify.accountants.calibrate"),
    **dict.fromkeys(("advanced_composition", "basic_composition", "optimal_composition",
                     "optimal_composition_delta"),
                    "dpverify.accountants.composition"),
    "dominating_pair": "dpverify.accountants.dominating_pairs",
    **dict.fromkeys(("ComposedEvent", "ExponentialMechanismEvent", "MechanismEvent",
                     "PoissonSampledEvent", "RepeatAndSelectEvent",
                     "SampledWithoutReplacementEvent", "SelfComposedEvent",
                     "TreeAggregationEvent", "TruncatedPoissonSampledEvent", "event_from_dict",
                     "event_to_dict"),
                    "dpverify.accountants.events"),
    "group_privacy": "dpverify.accountants.group",
    **dict.fromkeys(("PrivacyLossDistribution", "compose_plds", "delta_for_epsilon",
                     "epsilon_for_delta", "mixture_gaussian_pld", "poisson_subsampled_pld",
                     "tradeoff_curve", "true_positive_rate",
                     "without_replacement_gaussian_pld", "without_replacement_pld"),
                    "dpverify.accountants.pld"),
    **dict.fromkeys(("DEFAULT_ORDERS", "bounded_range_rdp", "compose_rdp", "gaussian_rdp", "laplace_rdp",
                     "poisson_subsampled_laplace_rdp", "poisson_subsampled_pair_rdp",
                     "poisson_subsampled_rdp", "pure_dp_rdp", "randomized_response_rdp",
                     "rdp_to_dp", "rdp_to_dp_delta", "repeat_and_select_rdp", "scale_rdp",
                     "subsampled_gaussian_rdp", "without_replacement_gaussian_rdp",
                     "without_replacement_rdp"),
                    "dpverify.accountants.rdp"),
    **dict.fromkeys(("amplified_delta", "amplified_epsilon", "max_local_epsilon",
                     "min_batch_size", "min_randomization_probability",
                     "shuffled_binary_rr_delta", "shuffled_binary_rr_epsilon"),
                    "dpverify.accountants.shuffle"),
    **dict.fromkeys(("compose_zcdp", "pure_to_zcdp", "zcdp_to_dp", "zcdp_to_dp_delta",
                     "zcdp_to_rdp"),
                    "dpverify.accountants.zcdp"),
}

__all__ = [
    # accountant objects and events
    "PrivacyAccountant",
    "ACCOUNTING_METHODS",
    "from_dp_accounting",
    "MechanismEvent",
    "ComposedEvent",
    "SelfComposedEvent",
    "PoissonSampledEvent",
    "TruncatedPoissonSampledEvent",
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
    "bounded_range_rdp",
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
    "min_randomization_probability",
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

# 0.1 names, deprecated for one release (a misnomer: p is not the flip probability p/2).
__getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS, submodules=True,
                                    renamed={"min_flip_probability": "min_randomization_probability"})
