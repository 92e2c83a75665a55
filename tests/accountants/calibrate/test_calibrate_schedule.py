"""The training-loop form of DP-SGD's schedule: dataset_size, batch_size and epochs (issue 15, §2;
issue 30, §2: one schedule, keyword-only, for dp_sgd_epsilon and min_noise_multiplier)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dpverify.accountants.calibrate import dp_sgd_epsilon, min_noise_multiplier
from dpverify.accountants.calibrate.dp_sgd import training_schedule


@pytest.mark.slow
def test_epochs_form_equals_steps_form():
    by_epochs = min_noise_multiplier(epsilon=3.0, delta=1e-5, dataset_size=6000, batch_size=60, epochs=2,
                                     method="rdp")
    by_steps = min_noise_multiplier(epsilon=3.0, delta=1e-5, sampling_probability=0.01, steps=200, method="rdp")
    assert by_epochs == by_steps


@pytest.mark.parametrize("kwargs, name", [
    ({"dataset_size": 100, "batch_size": 200, "epochs": 1}, "batch_size"),
    ({"sampling_probability": 0.1, "epochs": -1}, "epochs"),
    ({"sampling_probability": 0.1, "epochs": 1e300}, "epochs"),
    ({"sampling_probability": 0.1}, "steps"),
    ({"sampling_probability": 0.1, "steps": 3, "dataset_size": 10, "batch_size": 1},
     "sampling_probability"),
    ({"dataset_size": 10, "batch_size": 1, "epochs": 1, "steps": 3}, "steps"),
])
def test_inconsistent_schedules_name_the_parameter(kwargs, name):
    with pytest.raises(ValueError, match=name):
        min_noise_multiplier(epsilon=1.0, delta=1e-5, **kwargs)


@pytest.mark.parametrize("function", [dp_sgd_epsilon, min_noise_multiplier])
def test_positional_calls_are_refused(function):
    """ε and δ cannot be swapped by position: both functions take keywords only."""
    with pytest.raises(TypeError, match="positional"):
        function(1.0, 1e-5, sampling_probability=0.01, steps=10)


@pytest.mark.parametrize("schedule, expected", [
    ((None, None, 60, 60000, 256), (256 / 60000, 14063)),      # ceil(14062.5), as plan dp-sgd
    ((256 / 60000, None, 60, None, None), (256 / 60000, 14063)),  # the same from the rate
    ((0.3, None, 3, None, None), (0.3, 10)),                   # not 11: 3/0.3 is read exactly
    ((None, None, 2, 6000, 60), (0.01, 200)),
    ((0.01, 123, None, None, None), (0.01, 123)),
])
def test_training_schedule_counts_ceil_of_epochs_over_rate_exactly(schedule, expected):
    assert training_schedule(*schedule) == expected


@given(st.integers(1, 10**6), st.integers(1, 10**6), st.integers(1, 100))
def test_size_and_rate_forms_agree(size, batch, epochs):
    size, batch = max(size, batch), min(size, batch)
    by_sizes = training_schedule(None, None, epochs, size, batch)
    assert by_sizes[1] == -(-epochs * size // batch)     # ceil(E N / B) in integers
    assert training_schedule(batch / size, None, epochs, None, None)[1] in (by_sizes[1],
                                                                           by_sizes[1] + 1)


def test_dp_sgd_epsilon_takes_the_training_loop_form():
    by_sizes = dp_sgd_epsilon(noise_multiplier=1.0, delta=1e-5, dataset_size=6000, batch_size=60,
                              epochs=2, method="rdp")
    assert by_sizes == dp_sgd_epsilon(noise_multiplier=1.0, delta=1e-5, sampling_probability=0.01,
                                      steps=200, method="rdp")
