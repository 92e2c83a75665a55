"""The reference DP-SGD is faithful (clipping, Poisson sampling, noise σC on the sum) and each bug
leaves its own trace in what a run releases.

Statistical checks use fixed seeds; each states its tolerance in standard errors
(≥ 5, so a false failure has probability < 1e-6 per check). "Noiseless" runs use
σ = 1e-9: the released updates are then the signal to 1e-6.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpverify.accountants.calibrate import dp_sgd_epsilon
from dpverify.auditing.dp_sgd import (
    BUGS,
    MAX_WORK,
    DPSGDConfig,
    TrainingRun,
    input_canaries,
    synthetic_data,
    train_dp_sgd,
)

SMALL = {"steps": 400, "dataset_size": 1000, "sampling_probability": 0.05}
NOISELESS = 1e-9


def _run(bug: str | None = None, *, canaries: int = 200, seed: int = 0, canary_type: str = "gradient",
         **changes) -> tuple[TrainingRun, np.ndarray, DPSGDConfig]:
    config = DPSGDConfig(bug=bug, **{**SMALL, **changes})
    rng = np.random.default_rng(seed)
    included = rng.random(canaries) < 0.5
    return train_dp_sgd(config, included, canary_type=canary_type, rng=rng), included, config


def test_claimed_epsilon_is_the_accountants() -> None:
    config = DPSGDConfig(**SMALL)
    assert config.claimed_epsilon == dp_sgd_epsilon(noise_multiplier=1.5, delta=1e-5,
                                                     sampling_probability=0.05, steps=400)


def test_reference_noise_is_sigma_c_on_the_sum() -> None:
    """Excluded canaries' coordinates see only noise: Σ_t of T draws N(0, σ²) (over C)."""
    run, included, config = _run(canaries=400, clipping_norm=3.0)
    out = run.update_sums[~included] / math.sqrt(config.steps)
    variance = np.mean(out ** 2)
    standard_error = config.noise_multiplier ** 2 * math.sqrt(2 / len(out))
    assert abs(variance - config.noise_multiplier ** 2) < 5 * standard_error


def test_reference_clips_each_example_and_samples_each_step_with_rate_q() -> None:
    """Noiseless: an included canary adds C (its gradient G = 100 C clipped) at Binomial(T, q) steps."""
    run, included, config = _run(noise_multiplier=NOISELESS)
    counts = run.update_sums[included]
    assert np.allclose(counts, np.round(counts), atol=1e-5)
    assert np.allclose(run.update_sums[~included], 0.0, atol=1e-5)
    q, steps = config.sampling_probability, config.steps
    standard_error = math.sqrt(steps * q * (1 - q) / len(counts))
    assert abs(counts.mean() - steps * q) < 5 * standard_error
    assert abs(counts.var() - steps * q * (1 - q)) < 0.5 * steps * q * (1 - q)


def test_reference_clips_data_gradients_too() -> None:
    """Noiseless, one step, C = 1e-3: the data block moves by at most η·(batch size)·C/(q n),
    below 2ηC for a batch under twice its expected size (unclipped, it would move ~0.1)."""
    config = DPSGDConfig(**{**SMALL, "steps": 1, "noise_multiplier": NOISELESS,
                            "clipping_norm": 1e-3, "learning_rate": 1.0})
    run = train_dp_sgd(config, np.zeros(0, dtype=bool), rng=np.random.default_rng(1))
    moved = np.linalg.norm(run.parameters[:config.dimension])
    assert 0 < moved <= 2 * config.learning_rate * config.clipping_norm


def test_noise_on_mean_divides_the_noise_by_the_batch_size() -> None:
    run, included, config = _run("noise_on_mean", canaries=400)
    batch = config.sampling_probability * config.dataset_size
    out = run.update_sums[~included] / math.sqrt(config.steps)
    ratio = np.sqrt(np.mean(out ** 2)) / (config.noise_multiplier / batch)
    assert 0.8 < ratio < 1.2


def test_no_clipping_releases_the_whole_gradient() -> None:
    run, included, config = _run("no_clipping", noise_multiplier=NOISELESS)
    per_step = run.update_maxima[included]
    assert np.allclose(per_step[per_step > 0], config.canary_gradient_norm)


def test_clipping_after_aggregation_bounds_the_mean_not_each_example() -> None:
    """Noiseless: a sampled canary moves its coordinate by up to B·C (the clipped mean × B), > C."""
    run, included, config = _run("clipping_after_aggregation", noise_multiplier=NOISELESS)
    batch = config.sampling_probability * config.dataset_size
    largest = run.update_maxima[included]
    assert largest.max() <= batch * (1 + 1e-9)
    assert np.median(largest) > 2.0  # the reference's largest is 1 (one clipped C)


def test_shuffled_batches_repeat_each_record_once_per_epoch_at_one_position() -> None:
    run, included, config = _run("shuffled_batches", noise_multiplier=NOISELESS)
    records = config.dataset_size + included.sum()
    size = round(config.sampling_probability * records)
    assert run.period == records // size
    visits = np.abs(run.update_sums_by_position[:, included]) > 0.5
    assert set(visits.sum(axis=0)) <= {0, 1}  # one position (0: the dropped remainder)
    assert visits.sum() >= included.sum() - size
    epochs_seen = run.update_sums_by_position[:, included].max(axis=0)
    assert set(np.round(epochs_seen[epochs_seen > 0.5])) <= {config.steps // run.period,
                                                             config.steps // run.period + 1}


def test_canary_in_every_batch_is_in_every_step() -> None:
    run, included, config = _run("canary_in_every_batch", noise_multiplier=NOISELESS)
    assert np.allclose(run.update_sums[included], config.steps)


def test_noise_reused_cancels_in_the_range() -> None:
    run, included, _ = _run("noise_reused")
    assert np.all(run.update_maxima[~included] == run.update_minima[~included])
    reference, _, _ = _run(None)
    assert np.all(reference.update_maxima > reference.update_minima)


def test_input_canaries_are_mislabelled_and_learnt_when_included() -> None:
    features, labels = input_canaries(50, 8)
    _, _, weights = synthetic_data(10, 8)
    assert np.all((features @ weights < 0) == (labels == 1))
    run, included, config = _run("no_clipping", canary_type="input", canaries=100)
    own = run.parameters[config.dimension:] * (2 * input_canaries(100, 8)[1] - 1)
    assert own[included].mean() > own[~included].mean() + 1.0


def test_the_model_learns() -> None:
    run, _, _ = _run(canaries=10)
    assert run.accuracy > 0.65


HIDDEN = {"architecture": "hidden_layer", "hidden_units": 8}


def test_the_hidden_layer_network_learns_and_keeps_the_canary_coordinates() -> None:
    run, _, config = _run(canaries=10, **HIDDEN)
    assert config.data_parameters == 8 * 8 + 2 * 8 + 1 and run.parameters.shape == (81 + 10,)
    assert run.accuracy > 0.65


def test_hidden_layer_clips_and_samples_like_the_reference() -> None:
    """Noiseless, Dirac canaries: an included canary adds C at Binomial(T, q) steps whatever the
    model below the canary coordinates; its per-example gradient is clipped to C."""
    run, included, config = _run(noise_multiplier=NOISELESS, **HIDDEN)
    counts = run.update_sums[included]
    assert np.allclose(counts, np.round(counts), atol=1e-5)
    assert np.allclose(run.update_sums[~included], 0.0, atol=1e-5)
    q, steps = config.sampling_probability, config.steps
    assert abs(counts.mean() - q * steps) < 5 * math.sqrt(q * (1 - q) * steps / counts.size)


def test_hidden_layer_noise_is_sigma_c_on_the_sum() -> None:
    run, included, config = _run(canaries=400, clipping_norm=3.0, **HIDDEN)
    out = run.update_sums[~included] / math.sqrt(config.steps)
    standard_error = config.noise_multiplier ** 2 * math.sqrt(2 / len(out))
    assert abs(np.mean(out ** 2) - config.noise_multiplier ** 2) < 5 * standard_error


def test_hidden_layer_input_canaries_are_learnt_when_included() -> None:
    run, included, config = _run("no_clipping", canary_type="input", canaries=100, **HIDDEN)
    own = run.parameters[config.data_parameters:] * (2 * input_canaries(100, 8)[1] - 1)
    assert own[included].mean() > own[~included].mean() + 1.0


def test_every_bug_runs_with_a_hidden_layer() -> None:
    for bug in BUGS:
        for canary_type in ("gradient", "input"):
            run, _, _ = _run(bug, canaries=5, steps=5, canary_type=canary_type, **HIDDEN)
            assert np.isfinite(run.parameters).all()


def test_same_seed_same_run() -> None:
    first, _, _ = _run("shuffled_batches", seed=3)
    second, _, _ = _run("shuffled_batches", seed=3)
    assert np.array_equal(first.parameters, second.parameters)


def test_every_bug_runs() -> None:
    for bug in BUGS:
        run, _, _ = _run(bug, canaries=5, steps=5)
        assert np.isfinite(run.parameters).all()


@pytest.mark.parametrize("changes, word", [
    ({"noise_multiplier": 0.0}, "noise_multiplier"),
    ({"sampling_probability": 1.0}, "sampling_probability"),
    ({"sampling_probability": float("nan")}, "sampling_probability"),
    ({"steps": 0}, "steps"),
    ({"clipping_norm": -1.0}, "clipping_norm"),
    ({"learning_rate": float("inf")}, "learning_rate"),
    ({"delta": 0.0}, "delta"),
    ({"dataset_size": 0}, "dataset_size"),
    ({"dimension": 1.5}, "dimension"),
    ({"bug": "typo"}, "bug"),
    ({"canary_gradient_norm": 0.0}, "canary_gradient_norm"),
    ({"canary_feature": float("nan")}, "canary_feature"),
    ({"architecture": "cnn"}, "architecture"),
    ({"hidden_units": 0}, "hidden_units"),
])
def test_bad_configuration_is_refused_by_name(changes: dict, word: str) -> None:
    with pytest.raises(ValueError, match=word):
        DPSGDConfig(**changes)


def test_bad_training_arguments_are_refused() -> None:
    rng = np.random.default_rng(0)
    with pytest.raises(TypeError, match="included"):
        train_dp_sgd(DPSGDConfig(**SMALL), [1, 0], rng=rng)
    with pytest.raises(TypeError, match="config"):
        train_dp_sgd({"steps": 3}, np.ones(2, dtype=bool), rng=rng)
    with pytest.raises(ValueError, match="canary_type"):
        train_dp_sgd(DPSGDConfig(**SMALL), np.ones(2, dtype=bool), canary_type="x", rng=rng)
    with pytest.raises(TypeError, match="rng"):
        train_dp_sgd(DPSGDConfig(**SMALL), np.ones(2, dtype=bool), rng=0)
    huge = DPSGDConfig(steps=10**6, dataset_size=10**4)
    with pytest.raises(ValueError, match="steps"):
        train_dp_sgd(huge, np.ones(MAX_WORK // 10**6, dtype=bool), rng=rng)
