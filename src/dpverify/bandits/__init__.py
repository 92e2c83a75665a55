"""Private bandit algorithms: environments, privatizers, batched policies, simulator, experiments.

Data flows ``mechanisms + accountants → privatizers → mab → simulate →
experiments → plots / cli``. The batch-oriented policy protocol every
algorithm follows is in :mod:`dpverify.bandits._policy`.
"""

from dpverify.bandits._policy import BanditAlgorithm, BanditGuarantee, Batch, Policy, RewardBatch

__all__ = ["BanditAlgorithm", "BanditGuarantee", "Batch", "Policy", "RewardBatch"]
