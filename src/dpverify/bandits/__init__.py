"""Private bandit algorithms: environments, privatizers, batched policies, simulator, experiments.

Data flows ``mechanisms + accountants → privatizers → mab / linear / contextual →
plan (no simulation) / simulate → experiments → plots / cli``. The batch-oriented
policy protocol every algorithm follows is in :mod:`dpverify.bandits._policy`;
the names most users need are re-exported here (the function
:func:`~dpverify.bandits.simulate.simulate` stays in its module, so that
``dpverify.bandits.simulate`` remains the module). :func:`make_algorithm` builds
any of the 24 algorithms (:mod:`dpverify.bandits.registry`), sound by default.
The re-exports are lazy (PEP 562): ``import dpverify.bandits`` imports none of
the algorithms, environments or experiments until one of their names is used.


>>> from dpverify.bandits import BernoulliBandit, make_algorithm
>>> from dpverify.bandits.simulate import simulate
>>> algorithm = make_algorithm("dist-rdp-se", epsilon=1.0, delta=1e-6)
>>> plan = algorithm.plan(horizon=5000, n_arms=2)
>>> plan.claim_met, plan.guarantee.epsilon <= 1.0
(True, True)
>>> result = simulate(algorithm, BernoulliBandit((0.4, 0.6)), 5000, runs=2, seed=0)
>>> result.claim_met, result.guarantee.approx_dp == plan.guarantee
(True, True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dpverify._lazy import lazy_exports

if TYPE_CHECKING:  # the static view of the lazy re-exports below
    from dpverify.bandits._policy import (
        BanditAlgorithm,
        BanditGuarantee,
        Batch,
        Policy,
        RewardBatch,
    )
    from dpverify.bandits.environments import (
        BernoulliBandit,
        CategoricalBandit,
        ClippedGaussianBandit,
        InstanceFamily,
        instance_family,
    )
    from dpverify.bandits.experiments import EXPERIMENTS, reproduce
    from dpverify.bandits.mab import ALGORITHM_NAMES
    from dpverify.bandits.plan import DeploymentPlan
    from dpverify.bandits.registry import (
        ALGORITHM_FAMILIES,
        ALL_ALGORITHM_NAMES,
        NON_PRIVATE_ALGORITHMS,
        make_algorithm,
        plan_deployment,
    )
    from dpverify.bandits.simulate import SimulationResult

#: Where each re-exported name lives (imported on first use: ``import dpverify.bandits``
#: alone, as ``dpverify plan --help`` needs it, loads no environment, algorithm or experiment).
_EXPORTS = {
    **dict.fromkeys(("BanditAlgorithm", "BanditGuarantee", "Batch", "Policy", "RewardBatch"),
                    "dpverify.bandits._policy"),
    **dict.fromkeys(("BernoulliBandit", "ClippedGaussianBandit", "CategoricalBandit",
                     "InstanceFamily", "instance_family"), "dpverify.bandits.environments"),
    **dict.fromkeys(("ALL_ALGORITHM_NAMES", "ALGORITHM_FAMILIES", "NON_PRIVATE_ALGORITHMS",
                     "make_algorithm", "plan_deployment"), "dpverify.bandits.registry"),
    "ALGORITHM_NAMES": "dpverify.bandits.mab",
    "DeploymentPlan": "dpverify.bandits.plan",
    "SimulationResult": "dpverify.bandits.simulate",
    "EXPERIMENTS": "dpverify.bandits.experiments",
    "reproduce": "dpverify.bandits.experiments",
}

__all__ = [
    "BanditAlgorithm",
    "BanditGuarantee",
    "Batch",
    "Policy",
    "RewardBatch",
    "BernoulliBandit",
    "ClippedGaussianBandit",
    "CategoricalBandit",
    "InstanceFamily",
    "instance_family",
    "ALGORITHM_NAMES",
    "ALL_ALGORITHM_NAMES",
    "ALGORITHM_FAMILIES",
    "NON_PRIVATE_ALGORITHMS",
    "make_algorithm",
    "plan_deployment",
    "DeploymentPlan",
    "SimulationResult",
    "EXPERIMENTS",
    "reproduce",
]

__getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS, submodules=True)
