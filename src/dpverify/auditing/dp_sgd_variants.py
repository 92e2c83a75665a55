"""The reference DP-SGD and its six classic bugs as a catalogue, with canary scores for one-run audits.

Each :class:`DPSGDVariant` is a :class:`~dpverify.auditing.dp_sgd.DPSGDConfig`
(the reference's hyperparameters, with or without a bug), the ε it claims (the
reference's, from dpverify's DP-SGD accountant) and the white-box score that
exposes its bug. :meth:`DPSGDVariant.trainer` is the ``train(included, rng) ->
scores`` function a one-run audit calls (Steinke, Nasr & Jagielski 2023): the
auditor draws which canaries are in, the variant trains once and scores every
canary; a score is larger for canaries that look included.

Scores (:data:`SCORES`), all computed from what a run releases:

* ``"sum"`` — the sum over steps of the noisy updates at the canary's own
  coordinate (for Dirac canaries, the final model's weight there);
* ``"range"`` — their range over steps (a reused noise vector cancels in it);
* ``"period"`` — the largest sum over steps at one position in a period (fixed
  batches cycle with the epoch);
* ``"loss"`` — black-box: minus the final model's loss on the input canary.

The catalogue (claims at δ = 1e-5, σ = 1.5, q = 0.01, 3000 steps, C = 1,
10 000 records): the reference ``"dp_sgd"`` and one variant per bug of
:data:`~dpverify.auditing.dp_sgd.BUGS`, each with the white-box score that
exposes it. With 1000 Dirac canaries in one run every bug's bound exceeds the
claimed ε ≈ 1.64 (``tests/auditing/test_dp_sgd_variants.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from dpverify._validation import check_choice, shown
from dpverify.auditing.dp_sgd import (
    BUGS,
    CANARY_TYPES,
    DPSGDConfig,
    TrainingRun,
    canary_logits,
    input_canaries,
    train_dp_sgd,
)
from dpverify.errors import DpverifyTypeError

__all__ = ["SCORES", "DPSGDVariant", "DP_SGD_VARIANTS", "canary_scores", "dp_sgd_variant"]

#: The canary scores and what each reads.
SCORES: dict[str, str] = {
    "sum": "white-box: the sum over steps of the noisy updates at the canary's coordinate",
    "range": "white-box: the range (max - min) over steps of those updates",
    "period": "white-box: the largest sum of those updates at one position of the period",
    "loss": "black-box: minus the final model's loss on the (input) canary",
}


def canary_scores(training_run: TrainingRun, *, config: DPSGDConfig,
                  canary_type: str = "gradient", canary_score: str = "sum") -> np.ndarray:
    """One score per canary of ``training_run`` (larger: looks included); see :data:`SCORES`.

    For input canaries the white-box updates are signed by the canary's label
    (a label-1 canary's gradient at its coordinate is negative), and
    ``"loss"`` needs them (``canary_type="input"``).

    >>> from dpverify.auditing.dp_sgd import train_dp_sgd
    >>> config = DPSGDConfig(steps=10, dataset_size=50)
    >>> run = train_dp_sgd(config, np.array([True, False]), rng=np.random.default_rng(0))
    >>> canary_scores(run, config=config).shape
    (2,)
    """
    if not isinstance(training_run, TrainingRun):
        raise DpverifyTypeError(f"training_run={shown(training_run)} must be a TrainingRun "
                                "(from train_dp_sgd)")
    if not isinstance(config, DPSGDConfig):
        raise DpverifyTypeError(f"config={shown(config)} must be the run's DPSGDConfig")
    canary_type = check_choice(canary_type, "canary_type", CANARY_TYPES)
    score = check_choice(canary_score, "canary_score", SCORES)
    run, m, d = training_run, len(training_run.update_sums), config.dimension
    if score == "range":
        return run.update_maxima - run.update_minima
    if score == "loss":
        if canary_type != "input":
            raise _loss_needs_inputs()
        labels = input_canaries(m, d)[1]
        return -np.logaddexp(0.0, -(2 * labels - 1) * canary_logits(config, run.parameters))
    sign = np.ones(m) if canary_type == "gradient" else 1 - 2 * input_canaries(m, d)[1]
    if score == "sum":
        return sign * run.update_sums
    return (sign * run.update_sums_by_position).max(axis=0)


def _loss_needs_inputs() -> DpverifyTypeError:
    return DpverifyTypeError("canary_score='loss' needs canary_type='input' (a gradient canary "
                             "has no input to evaluate the loss on)")


@dataclass(frozen=True)
class DPSGDVariant:
    """A DP-SGD training loop, correct or with one bug, its claim and the score exposing it."""

    name: str
    description: str
    config: DPSGDConfig
    correct: bool
    canary_score: str

    @property
    def claimed_epsilon(self) -> float:
        """The ε every variant claims: the reference's, by dpverify's DP-SGD accountant."""
        return self.config.claimed_epsilon

    @property
    def delta(self) -> float:
        """The δ of the claim."""
        return self.config.delta

    def trainer(self, *, canary_type: str = "gradient", canary_score: str | None = None
                ) -> Callable[[np.ndarray, np.random.Generator], np.ndarray]:
        """``train(included, rng) -> scores``: train once with the included canaries, score all.

        ``canary_score`` defaults to the variant's white-box score for gradient
        canaries and to ``"loss"`` for input canaries.

        >>> train = dp_sgd_variant("noise_reused").trainer()
        >>> train.__name__
        'train_noise_reused'
        """
        canary_type = check_choice(canary_type, "canary_type", CANARY_TYPES)
        default = self.canary_score if canary_type == "gradient" else "loss"
        chosen = check_choice(canary_score or default, "canary_score", SCORES)
        if chosen == "loss" and canary_type != "input":
            raise _loss_needs_inputs()
        config = self.config

        def train(included: np.ndarray, rng: np.random.Generator) -> np.ndarray:
            run = train_dp_sgd(config, included, canary_type=canary_type, rng=rng)
            return canary_scores(run, config=config, canary_type=canary_type, canary_score=chosen)

        train.__name__ = f"train_{self.name}"
        return train


#: The white-box score that exposes each bug.
_EXPOSED_BY = {"noise_on_mean": "sum", "no_clipping": "sum", "clipping_after_aggregation": "sum",
               "shuffled_batches": "period", "canary_in_every_batch": "sum",
               "noise_reused": "range"}

DP_SGD_VARIANTS: dict[str, DPSGDVariant] = {
    "dp_sgd": DPSGDVariant("dp_sgd", "the reference DP-SGD: Poisson sampling, per-example "
                           "clipping, noise sigma*C on the sum", DPSGDConfig(), True, "sum"),
    **{bug: DPSGDVariant(bug, description, DPSGDConfig(bug=bug), False, _EXPOSED_BY[bug])
       for bug, description in BUGS.items()},
}
"""The reference DP-SGD and its buggy variants by name (the reference first)."""


def dp_sgd_variant(name: str) -> DPSGDVariant:
    """The catalogued DP-SGD variant called ``name``.

    >>> round(dp_sgd_variant("noise_on_mean").claimed_epsilon, 2)
    1.64
    """
    return DP_SGD_VARIANTS[check_choice(name, "name", DP_SGD_VARIANTS)]
