"""Private bandit algorithms: environments, privatizers, batched policies, simulator, experiments.

Data flows ``mechanisms + accountants → privatizers → mab → simulate →
experiments → plots / cli``. The batch-oriented policy protocol every
algorithm follows is in :mod:`dpverify.bandits._policy`; the names most users
need are re-exported here (the function :func:`~dpverify.bandits.simulate.simulate`
stays in its module, so that ``dpverify.bandits.simulate`` remains the module):

>>> from dpverify.bandits import BernoulliBandit, make_algorithm
>>> from dpverify.bandits.simulate import simulate
>>> result = simulate(make_algorithm("dist-dp-se", epsilon=1.0), BernoulliBandit((0.4, 0.6)),
...                   5000, runs=2, seed=0)
>>> result.guarantee.per_batch
PureDP(epsilon=1.0)
"""

from dpverify.bandits._policy import BanditAlgorithm, BanditGuarantee, Batch, Policy, RewardBatch
from dpverify.bandits.environments import (
    BernoulliBandit,
    CategoricalBandit,
    ClippedGaussianBandit,
    InstanceFamily,
    instance_family,
)
from dpverify.bandits.experiments import EXPERIMENTS, reproduce
from dpverify.bandits.mab import ALGORITHM_NAMES, make_algorithm
from dpverify.bandits.simulate import SimulationResult

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
    "make_algorithm",
    "SimulationResult",
    "EXPERIMENTS",
    "reproduce",
]
