"""Privacy loss distributions (PLDs): pessimistic discretised privacy losses, composed by FFT.

Public modules:

* ``distribution`` — :class:`PrivacyLossDistribution` (its ``from_*`` constructors,
  composition, ``epsilon_for_delta`` / ``delta_for_epsilon``), :func:`compose_plds`;
* ``subsampling`` — Poisson subsampling (add/remove) of any mechanism with a finite
  dominating pair (:mod:`dpverify.accountants.dominating_pairs`);
* ``subsampling_wor`` — sampling without replacement (a batch of m of n, replace-one);
* ``truncated_poisson`` — the Gaussian on a Poisson sample capped at B records;
* ``mixture_gaussian`` — Gaussian noise on a query whose sensitivity is random;
* ``tradeoff`` — the trade-off (f-DP) curve of a PLD, conservative.

The engine is private: ``_constructors`` (the ``from_*`` class methods), ``_losses``
(each mechanism's discretised loss), ``_grid`` (loss grids, connect-the-dots, δ(ε) and
ε(δ)), ``_fft`` (composition by FFT with a float-error bound) and ``_compose``
(composition plans, tilted recomputation). Soundness: ``docs/proofs/pld.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dpverify._lazy import lazy_exports

if TYPE_CHECKING:  # the static view of the lazy re-exports below
    from dpverify.accountants.pld._constructors import (
        DEFAULT_TAIL_MASS_TRUNCATION,  # noqa: F401
        DEFAULT_VALUE_DISCRETIZATION_INTERVAL,  # noqa: F401
        POINTS_PER_EPSILON,  # noqa: F401
        POINTS_PER_STANDARD_DEVIATION,  # noqa: F401
    )
    from dpverify.accountants.pld.distribution import (
        MAX_SELF_COMPOSITIONS,  # noqa: F401
        PrivacyLossDistribution,
        compose_plds,
        delta_for_epsilon,
        dp_sgd_interval,
        epsilon_for_delta,
    )
    from dpverify.accountants.pld.mixture_gaussian import mixture_gaussian_pld
    from dpverify.accountants.pld.subsampling import poisson_subsampled_pld
    from dpverify.accountants.pld.subsampling_wor import (
        without_replacement_gaussian_pld,
        without_replacement_pld,
    )
    from dpverify.accountants.pld.tradeoff import tradeoff_curve, true_positive_rate
    from dpverify.accountants.pld.truncated_poisson import truncated_poisson_gaussian_pld

#: Where each re-exported name lives, imported on first use (a Gaussian's PLD loads no subsampling or mechanism modules).
_EXPORTS = {
    **dict.fromkeys(("DEFAULT_TAIL_MASS_TRUNCATION",
                     "DEFAULT_VALUE_DISCRETIZATION_INTERVAL", "POINTS_PER_EPSILON",
                     "POINTS_PER_STANDARD_DEVIATION"),
                    "dpverify.accountants.pld._constructors"),
    **dict.fromkeys(("MAX_SELF_COMPOSITIONS", "PrivacyLossDistribution", "compose_plds",
                     "delta_for_epsilon", "dp_sgd_interval", "epsilon_for_delta"),
                    "dpverify.accountants.pld.distribution"),
    "mixture_gaussian_pld": "dpverify.accountants.pld.mixture_gaussian",
    "poisson_subsampled_pld": "dpverify.accountants.pld.subsampling",
    **dict.fromkeys(("without_replacement_gaussian_pld", "without_replacement_pld"),
                    "dpverify.accountants.pld.subsampling_wor"),
    **dict.fromkeys(("tradeoff_curve", "true_positive_rate"),
                    "dpverify.accountants.pld.tradeoff"),
    "truncated_poisson_gaussian_pld": "dpverify.accountants.pld.truncated_poisson",
}

# ``__all__`` lists the names ``dpverify.accountants`` exports from this family. The names
# marked above are the other public names of the 0.1 module of this path, importable from here
# as before and documented in the public module that defines them.
__all__ = [
    "PrivacyLossDistribution",
    "compose_plds",
    "dp_sgd_interval",
    "epsilon_for_delta",
    "delta_for_epsilon",
    "poisson_subsampled_pld",
    "without_replacement_pld",
    "without_replacement_gaussian_pld",
    "mixture_gaussian_pld",
    "tradeoff_curve",
    "true_positive_rate",
    "truncated_poisson_gaussian_pld",
]

__getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS, submodules=True)
