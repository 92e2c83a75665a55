"""min_noise_multiplier's training-loop form: dataset_size, batch_size and epochs (issue 15, §2)."""

from __future__ import annotations

import pytest

from dpverify.accountants.calibrate import min_noise_multiplier


@pytest.mark.slow
def test_epochs_form_equals_steps_form():
    by_epochs = min_noise_multiplier(epsilon=3.0, delta=1e-5, dataset_size=6000, batch_size=60, epochs=2,
                                     method="rdp")
    by_steps = min_noise_multiplier(epsilon=3.0, delta=1e-5, sampling_probability=0.01, steps=200, method="rdp")
    assert by_epochs == by_steps


@pytest.mark.parametrize("kwargs, name", [
    ({"dataset_size": 100, "batch_size": 200, "epochs": 1}, "batch_size"),
    ({"sampling_probability": 0.1, "epochs": 1}, "epochs"),
    ({"sampling_probability": 0.1}, "steps"),
    ({"sampling_probability": 0.1, "steps": 3, "dataset_size": 10, "batch_size": 1},
     "sampling_probability"),
    ({"dataset_size": 10, "batch_size": 1, "epochs": 1, "steps": 3}, "steps"),
])
def test_inconsistent_schedules_name_the_parameter(kwargs, name):
    with pytest.raises(ValueError, match=name):
        min_noise_multiplier(epsilon=1.0, delta=1e-5, **kwargs)
