"""Privatizers: the (randomizer, secure computation, analyser) of one batch, built from mechanisms.

A bandit algorithm never adds noise itself (STYLE rule 9): after each batch
it hands the batch's rewards to a privatizer and gets back the analyser's
estimate of their sum. Every privatizer has

* ``privatize_sum(rewards, *, rng, per_user=False)`` — the estimate; with
  ``per_user=True`` every user's randomizer and the secure aggregation /
  shuffler run message by message (the auditable path), otherwise the
  aggregate noise is drawn from its exact law (same law, fast);
* ``guarantee(n)`` — the per-batch guarantee for ``n`` users, through
  :func:`dpverify.mechanisms.privacy_map` and :mod:`dpverify.accountants`;
* ``estimate_error_law(n)`` — an :class:`ErrorLaw` for confidence widths;
* ``name`` and ``model`` (the trust model the guarantee holds in).

Privatizers (Thms 1–6 of Chowdhury & Zhou 2023, §2.1 of Tenenbaum et al. 2021):

==========================================  =============================  ====================
privatizer                                  paper                          guarantee per batch
==========================================  =============================  ====================
:class:`PolyaSecureAggregation`             Thm 1 (Dist-DP-SE)             pure ε (distributed)
:class:`SkellamSecureAggregation`           Thm 2 (Dist-RDP-SE)            RDP (distributed)
:class:`DiscreteGaussianSecureAggregation`  Thm 4 (Dist-CDP-SE)            zCDP (distributed)
:class:`PolyaShuffle`                       Thm 3 (simulated)              pure ε (shuffle)
:class:`CentralDiscreteLaplace`             Thm 5 (CDP-SE)                 pure ε (central)
:class:`LocalDiscreteLaplace`               Thm 6 (LDP-SE)                 pure ε (local)
:class:`CentralLaplace`                     Sajed & Sheffet 2019 (DP-SE)   pure ε (central)
:class:`ShuffledNoisyBits`                  M_sum, reading (a)             (ε, δ) (shuffle)
:class:`ShuffledRandomizedResponse`         M_sum, reading (b)             (ε, δ) (shuffle)
:class:`NonPrivate`                         baseline                       none
==========================================  =============================  ====================
"""

from dpverify.bandits.privatizers._base import ErrorLaw, Privatizer, as_approx_dp, worst_case_guarantee
from dpverify.bandits.privatizers._baselines import CentralLaplace, NonPrivate
from dpverify.bandits.privatizers._central_local import CentralDiscreteLaplace, LocalDiscreteLaplace
from dpverify.bandits.privatizers._protocol import (
    ProtocolParameters,
    distributed_cdp_parameters,
    distributed_dp_parameters,
    distributed_rdp_parameters,
)
from dpverify.bandits.privatizers._secure_aggregation import (
    DiscreteGaussianSecureAggregation,
    PolyaSecureAggregation,
    PolyaShuffle,
    SkellamSecureAggregation,
)
from dpverify.bandits.privatizers._shuffled_bits import ShuffledNoisyBits, ShuffledRandomizedResponse

__all__ = [
    "Privatizer",
    "ErrorLaw",
    "ProtocolParameters",
    "NonPrivate",
    "CentralLaplace",
    "PolyaSecureAggregation",
    "SkellamSecureAggregation",
    "DiscreteGaussianSecureAggregation",
    "PolyaShuffle",
    "CentralDiscreteLaplace",
    "LocalDiscreteLaplace",
    "ShuffledNoisyBits",
    "ShuffledRandomizedResponse",
    "distributed_dp_parameters",
    "distributed_rdp_parameters",
    "distributed_cdp_parameters",
    "worst_case_guarantee",
    "as_approx_dp",
]
