"""A reference DP-SGD in numpy and its classic bugs, with canaries, for audits of training runs.

:func:`train_dp_sgd` trains a logistic regression (``architecture="logistic"``) or a
network with one hidden tanh layer (``architecture="hidden_layer"``, ``hidden_units``
wide; :mod:`dpverify.auditing._dp_sgd_networks`) on a fixed synthetic data set
with DP-SGD (Abadi et al. 2016, Alg. 1): at each of ``steps`` steps every record
joins the batch independently with probability q (Poisson sampling), each
example's gradient is clipped to ℓ2 norm C, the clipped gradients are summed
and ``N(0, σ²C²)`` noise is added to the **sum** in every coordinate; the model
moves by ``learning_rate`` times the noisy sum over the expected batch size
``q · dataset_size`` (a public constant, whatever the canaries).
Its claimed ε (:attr:`DPSGDConfig.claimed_epsilon`) comes from dpverify's own
DP-SGD accountant, :func:`~dpverify.accountants.calibrate.dp_sgd_epsilon` (PLD,
add/remove), for every variant: each bug below is a training loop that *claims*
the reference's ε but does not meet it.

Canaries (``m`` records, each in the training set or not as the ``included``
mask says; the auditor draws the mask) own one model coordinate each, which
no data record touches:

* ``canary_type="gradient"`` — white-box **Dirac gradient canaries** (Nasr et
  al. 2023, "Tight auditing of differentially private machine learning"):
  canary i's per-example gradient is ``canary_gradient_norm · e_i`` at its own
  coordinate (clipped like any example);
* ``canary_type="input"`` — black-box **input canaries**: a data-like input
  with its label flipped (mislabelled) and a rare feature of its own (value
  ``canary_feature`` at its coordinate, which adds ``canary_feature · θ_i`` to the
  logit, after the hidden layer if there is one); its gradient is the model's.

A :class:`TrainingRun` keeps the final model and, per canary, statistics of
the noisy sums released at its coordinate over the steps (a white-box
adversary sees every step's update, as in Nasr et al. 2023's strongest threat
model): their total, range and sums by position in a period.
:mod:`dpverify.auditing.dp_sgd_variants` scores canaries from them and lists the
variants.

Bugs (``bug=``), each seen in real training code:

* ``"noise_on_mean"`` — noise σC/B (the mean's scale, B the expected batch
  size) added to the sum of clipped gradients, which needs σC;
* ``"no_clipping"`` — per-example gradients summed without clipping;
* ``"clipping_after_aggregation"`` — the batch gradient (the mean, as autograd
  returns it) clipped to C, then the mean's noise σC/B added;
* ``"shuffled_batches"`` — the data shuffled once into fixed batches of
  B = round(qn) records, cycled every epoch, and accounted as Poisson sampling
  at q;
* ``"canary_in_every_batch"`` — the canaries appended to every batch instead of
  sampled;
* ``"noise_reused"`` — one noise vector drawn at the first step and added at
  every step.

Simulation only: float noise (``numpy.random.Generator.normal``), meant for
audits, not for deployment.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

import numpy as np

from dpverify._validation import (
    check_choice,
    check_delta,
    check_positive,
    check_positive_int,
    check_probability,
    check_rng,
    shown,
    value_error,
)
from dpverify.accountants.calibrate.dp_sgd import dp_sgd_epsilon
from dpverify.auditing._dp_sgd_networks import (
    ARCHITECTURES,
    data_block_size,
    initial_data_block,
    logits,
    per_example_gradients,
)
from dpverify.errors import DpverifyTypeError

__all__ = ["BUGS", "CANARY_TYPES", "ARCHITECTURES", "MAX_WORK", "DATA_SEED", "DPSGDConfig",
           "TrainingRun", "synthetic_data", "input_canaries", "canary_logits", "train_dp_sgd"]

#: The bugs :func:`train_dp_sgd` can reproduce, and what each does.
BUGS: dict[str, str] = {
    "noise_on_mean": "noise sigma*C/B (the mean's scale) added to the sum of clipped gradients",
    "no_clipping": "per-example gradients summed without clipping",
    "clipping_after_aggregation": "the batch mean gradient clipped to C, then noise sigma*C/B",
    "shuffled_batches": "fixed-size batches of data shuffled once, accounted as Poisson sampling",
    "canary_in_every_batch": "the canaries appended to every batch instead of Poisson-sampled",
    "noise_reused": "one noise vector drawn at the first step and added at every step",
}
#: The kinds of canaries: white-box Dirac gradients, black-box mislabelled inputs.
CANARY_TYPES = ("gradient", "input")
#: Largest ``steps × (dataset_size + parameters + canaries)`` a run may cost (about a minute;
#: ``parameters``: of the data block, ``dimension`` for logistic regression).
MAX_WORK = 2 * 10**9

#: Seed of the fixed synthetic data set and of the input canaries (the data are not random
#: across runs: only the inclusion mask and the training's own draws are).
DATA_SEED = 20231127


@dataclass(frozen=True)
class DPSGDConfig:
    """The reference DP-SGD's hyperparameters, the data set's size, and the bug (if any).

    Parameters
    ----------
    noise_multiplier : float
        σ > 0: the noise's standard deviation over the clipping norm.
    sampling_probability : float
        Poisson sampling rate q in (0, 1).
    steps : int
        Number of training steps T >= 1.
    clipping_norm : float
        C > 0, the ℓ2 norm each example's gradient is clipped to.
    learning_rate : float
        η > 0: the model moves by ``η · (noisy sum) / (q · dataset_size)``.
    delta : float
        The δ in (0, 1) of the claim.
    dataset_size : int
        Number of (non-canary) training records, >= 1.
    dimension : int
        Number of features of the data, >= 1.
    bug : str or None
        One of :data:`BUGS`, or ``None`` for the reference DP-SGD.
    canary_gradient_norm : float
        Norm > 0 of each Dirac gradient canary before clipping (the adversary picks it).
    canary_feature : float
        Value > 0 of an input canary's own feature.
    architecture : str
        ``"logistic"`` (logistic regression) or ``"hidden_layer"`` (one hidden tanh
        layer): :data:`ARCHITECTURES`.
    hidden_units : int
        Width h >= 1 of the hidden layer (``architecture="hidden_layer"`` only).

    >>> DPSGDConfig(steps=100).claimed_epsilon > 0
    True
    >>> DPSGDConfig(architecture="hidden_layer", hidden_units=4, dimension=3).data_parameters
    21
    """

    noise_multiplier: float = 1.5
    sampling_probability: float = 0.01
    steps: int = 3000
    clipping_norm: float = 1.0
    learning_rate: float = 1.0
    delta: float = 1e-5
    dataset_size: int = 10_000
    dimension: int = 8
    bug: str | None = None
    canary_gradient_norm: float = 100.0
    canary_feature: float = 100.0
    architecture: str = "logistic"
    hidden_units: int = 16

    def __post_init__(self) -> None:
        check_positive(self.noise_multiplier, "noise_multiplier")
        check_probability(self.sampling_probability, "sampling_probability", open_low=True)
        if not self.sampling_probability < 1:
            raise value_error("sampling_probability", self.sampling_probability, "in (0, 1)")
        check_positive_int(self.steps, "steps")
        check_positive(self.clipping_norm, "clipping_norm")
        check_positive(self.learning_rate, "learning_rate")
        check_delta(self.delta, allow_zero=False)
        check_positive_int(self.dataset_size, "dataset_size")
        check_positive_int(self.dimension, "dimension")
        if self.bug is not None:
            check_choice(self.bug, "bug", BUGS)
        check_positive(self.canary_gradient_norm, "canary_gradient_norm")
        check_positive(self.canary_feature, "canary_feature")
        check_choice(self.architecture, "architecture", ARCHITECTURES)
        check_positive_int(self.hidden_units, "hidden_units")

    @property
    def data_parameters(self) -> int:
        """Parameters of the data block: ``dimension``, or ``h·dimension + 2h + 1`` with a hidden layer."""
        return data_block_size(self.architecture, self.dimension, self.hidden_units)

    @functools.cached_property
    def claimed_epsilon(self) -> float:
        """ε at :attr:`delta` by dpverify's DP-SGD accountant (PLD, add/remove), rounded up."""
        return dp_sgd_epsilon(noise_multiplier=self.noise_multiplier, delta=self.delta,
                              sampling_probability=self.sampling_probability, steps=self.steps)


@dataclass(frozen=True)
class TrainingRun:
    """What one training run releases, as the canary scores need it.

    ``released[t]`` below is the noisy aggregate of step t at the canaries'
    coordinates over the clipping norm (the update the model takes there, on the
    sum's scale): a white-box adversary reads it from consecutive models.

    Attributes
    ----------
    parameters : numpy.ndarray
        The final model: the data block (:attr:`DPSGDConfig.data_parameters`), then one
        weight per canary.
    update_sums : numpy.ndarray
        ``Σ_t released[t]`` per canary.
    update_maxima, update_minima : numpy.ndarray
        ``max_t`` and ``min_t`` of ``released[t]`` per canary.
    update_sums_by_position : numpy.ndarray
        ``(period, m)``: ``Σ_{t ≡ p mod period} released[t]``.
    period : int
        The steps per epoch of a run on fixed batches (``"shuffled_batches"``),
        else ``round(1/q)`` (the steps of one expected pass).
    accuracy : float
        The final model's accuracy on the (non-canary) training data.
    """

    parameters: np.ndarray = field(repr=False)
    update_sums: np.ndarray = field(repr=False)
    update_maxima: np.ndarray = field(repr=False)
    update_minima: np.ndarray = field(repr=False)
    update_sums_by_position: np.ndarray = field(repr=False)
    period: int
    accuracy: float


@functools.cache
def synthetic_data(dataset_size: int, dimension: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The fixed synthetic data set: ``(features, labels, true_weights)``.

    Features are standard normal over ``sqrt(dimension)`` (norm about 1); labels
    are Bernoulli(sigmoid(4·⟨x, w*⟩)) for a fixed unit vector w*. Drawn from
    :data:`DATA_SEED`, so every run trains on the same records.

    >>> features, labels, _ = synthetic_data(5, 3)
    >>> features.shape, labels.shape
    ((5, 3), (5,))
    """
    rng = np.random.default_rng(DATA_SEED)
    weights = rng.normal(size=dimension)
    weights /= np.linalg.norm(weights)
    features = rng.normal(size=(dataset_size, dimension)) / math.sqrt(dimension)
    labels = (rng.random(dataset_size) < _sigmoid(4 * features @ weights)).astype(float)
    for array in (features, labels, weights):
        array.setflags(write=False)
    return features, labels, weights


def input_canaries(canaries: int, dimension: int) -> tuple[np.ndarray, np.ndarray]:
    """The black-box canaries' data features and (flipped) labels: ``(features, labels)``.

    Each is a data-like input labelled against the true model (label 1 where
    ⟨x, w*⟩ < 0): a mislabelled example. Drawn from :data:`DATA_SEED` + 1.
    """
    _, _, weights = synthetic_data(1, dimension)
    rng = np.random.default_rng(DATA_SEED + 1)
    features = rng.normal(size=(canaries, dimension)) / math.sqrt(dimension)
    return features, (features @ weights < 0).astype(float)


def canary_logits(config: DPSGDConfig, parameters: np.ndarray) -> np.ndarray:
    """The logit of each input canary under the model ``parameters`` (of a run of ``config``):
    the data block's logit of its features plus ``canary_feature`` times its own weight."""
    size = config.data_parameters
    features, _ = input_canaries(len(parameters) - size, config.dimension)
    return (logits(config.architecture, parameters[:size], features, config.hidden_units)
            + config.canary_feature * parameters[size:])


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 0.5 * (1 + np.tanh(0.5 * z))


def _check_included(included: object) -> np.ndarray:
    mask = np.asarray(included)
    if mask.dtype != bool or mask.ndim != 1:
        raise DpverifyTypeError(f"included={shown(included)} must be a 1-dimensional numpy array "
                                "of booleans (one per canary)")
    return mask


class _Batches:
    """Which records each step uses: Poisson sampling, or fixed shuffled batches (the bug)."""

    def __init__(self, config: DPSGDConfig, included: np.ndarray, rng: np.random.Generator):
        self.q, self.bug, self.rng = config.sampling_probability, config.bug, rng
        self.n_data, self.included = config.dataset_size, included
        self.period = max(1, round(1 / self.q))
        if self.bug == "shuffled_batches":
            members = np.concatenate([np.arange(self.n_data),
                                      self.n_data + np.flatnonzero(included)])
            order = rng.permutation(members)
            size = max(1, round(self.q * len(order)))
            self.period = len(order) // size  # drop_last: the records past it never train
            self.fixed = order[:self.period * size].reshape(self.period, size)

    def at(self, step: int) -> tuple[np.ndarray, np.ndarray]:
        """``(data indices, canary indices)`` of the batch of ``step``."""
        if self.bug == "shuffled_batches":
            batch = self.fixed[step % self.period]
            return batch[batch < self.n_data], batch[batch >= self.n_data] - self.n_data
        data = np.flatnonzero(self.rng.random(self.n_data) < self.q)
        if self.bug == "canary_in_every_batch":
            return data, np.flatnonzero(self.included)
        sampled = self.rng.random(len(self.included)) < self.q
        return data, np.flatnonzero(sampled & self.included)


def train_dp_sgd(config: DPSGDConfig, included: np.ndarray, *, canary_type: str = "gradient",
                 rng: np.random.Generator) -> TrainingRun:
    """Train the reference DP-SGD (or its ``config.bug``) with the ``included`` canaries.

    Parameters
    ----------
    config : DPSGDConfig
        Hyperparameters, data size and bug.
    included : numpy.ndarray
        Boolean, one entry per canary: True puts the canary in the training set.
    canary_type : {"gradient", "input"}
        White-box Dirac gradient canaries or black-box mislabelled input canaries.
    rng : numpy.random.Generator
        Every draw of the run (sampling, shuffling, noise) comes from it.

    Returns
    -------
    TrainingRun

    Work is ``steps × (dataset_size + parameters + canaries)``, refused above
    :data:`MAX_WORK`.

    >>> run = train_dp_sgd(DPSGDConfig(steps=20, dataset_size=100), np.ones(4, dtype=bool),
    ...                    rng=np.random.default_rng(0))
    >>> run.parameters.shape, run.update_sums.shape
    ((12,), (4,))
    """
    if not isinstance(config, DPSGDConfig):
        raise DpverifyTypeError(f"config={config!r} must be a DPSGDConfig")
    mask = _check_included(included)
    canary_type = check_choice(canary_type, "canary_type", CANARY_TYPES)
    rng = check_rng(rng)
    work = config.steps * (config.dataset_size + config.data_parameters + len(mask))
    if work > MAX_WORK:
        raise value_error("steps", config.steps, f"at most {MAX_WORK} / (dataset_size + "
                          f"parameters + canaries) = {MAX_WORK // (work // config.steps)}",
                          "fewer steps, records or canaries")
    return _Trainer(config, mask, canary_type, rng).run()


class _Trainer:
    """One run of the training loop (state: the model and the canaries' statistics)."""

    def __init__(self, config: DPSGDConfig, included: np.ndarray, canary_type: str,
                 rng: np.random.Generator):
        self.config, self.rng, self.canary_type = config, rng, canary_type
        self.features, self.labels, _ = synthetic_data(config.dataset_size, config.dimension)
        # d: the data block's size (the model's parameters a data record's gradient touches)
        self.m, self.d = len(included), config.data_parameters
        self.canary_features, self.canary_labels = input_canaries(self.m, config.dimension)
        self.batches = _Batches(config, included, rng)
        self.theta = np.concatenate([initial_data_block(config.architecture, config.dimension,
                                                        config.hidden_units), np.zeros(self.m)])
        # a public constant: normalising by the actual training set's size would let the
        # updates' scale reveal how many canaries are in
        self.expected_batch = config.sampling_probability * config.dataset_size
        self.reused_noise: np.ndarray | None = None

    def per_example(self, data: np.ndarray, canaries: np.ndarray) -> tuple[np.ndarray, ...]:
        """Per-example gradients: data rows (data block), canary rows' data block and own value."""
        config, theta_data = self.config, self.theta[:self.d]
        architecture, hidden = config.architecture, config.hidden_units
        x, y = self.features[data], self.labels[data]
        residual = _sigmoid(logits(architecture, theta_data, x, hidden)) - y
        data_rows = per_example_gradients(architecture, theta_data, x, residual, hidden)
        if self.canary_type == "gradient":
            canary_rows = np.zeros((len(canaries), self.d))
            own = np.full(len(canaries), config.canary_gradient_norm)
        else:
            cx, feature = self.canary_features[canaries], config.canary_feature
            logit = logits(architecture, theta_data, cx, hidden) + feature * self.theta[self.d + canaries]
            residual = _sigmoid(logit) - self.canary_labels[canaries]
            canary_rows = per_example_gradients(architecture, theta_data, cx, residual, hidden)
            own = residual * feature
        return data_rows, canary_rows, own

    def aggregate(self, data: np.ndarray, canaries: np.ndarray) -> np.ndarray:
        """The step's noisy aggregate on the sum's scale (length dimension + m)."""
        config = self.config
        c, sigma = config.clipping_norm, config.noise_multiplier
        data_rows, canary_rows, own = self.per_example(data, canaries)
        if config.bug not in ("no_clipping", "clipping_after_aggregation"):
            data_rows = data_rows * _clip_factors(np.linalg.norm(data_rows, axis=1), c)[:, None]
            factors = _clip_factors(np.hypot(np.linalg.norm(canary_rows, axis=1), own), c)
            canary_rows, own = canary_rows * factors[:, None], own * factors
        total = np.zeros(self.d + self.m)
        total[:self.d] = data_rows.sum(axis=0) + canary_rows.sum(axis=0)
        total[self.d + canaries] = own
        scale = sigma * c
        if config.bug == "clipping_after_aggregation":
            mean = total / max(1, len(data) + len(canaries))
            # the clipped mean with noise σC/B, written on the sum's scale (times B): noise σC
            norm = np.sqrt(np.sum(mean * mean))  # (not BLAS: its threads stall on 2 cores)
            total = self.expected_batch * mean * _clip_factors(norm, c)
        elif config.bug == "noise_on_mean":
            scale = sigma * c / self.expected_batch
        if config.bug == "noise_reused":
            if self.reused_noise is None:
                self.reused_noise = self.rng.normal(0.0, scale, self.d + self.m)
            return total + self.reused_noise
        return total + self.rng.normal(0.0, scale, self.d + self.m)

    def run(self) -> TrainingRun:
        config, m = self.config, self.m
        sums, maxima, minima = np.zeros(m), np.full(m, -np.inf), np.full(m, np.inf)
        by_position = np.zeros((self.batches.period, m))
        step_size = config.learning_rate / self.expected_batch
        for step in range(config.steps):
            noisy = self.aggregate(*self.batches.at(step))
            self.theta -= step_size * noisy
            released = noisy[self.d:] / config.clipping_norm
            sums += released
            np.maximum(maxima, released, out=maxima)
            np.minimum(minima, released, out=minima)
            by_position[step % self.batches.period] += released
        predictions = logits(config.architecture, self.theta[:self.d], self.features,
                             config.hidden_units) > 0
        accuracy = float(np.mean(predictions == (self.labels > 0.5)))
        return TrainingRun(self.theta, sums, maxima, minima, by_position, self.batches.period,
                           accuracy)


def _clip_factors(norms: np.ndarray, clipping_norm: float) -> np.ndarray:
    """``min(1, C/‖g‖)`` (1 for a zero gradient)."""
    return np.minimum(1.0, clipping_norm / np.maximum(norms, 1e-300))
