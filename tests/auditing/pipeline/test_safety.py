"""The engine's contract probe: no silent false negative for samplers that share state or ignore rng.

Each sampler below is Laplace(1/2), i.e. 2-DP, claimed 1-DP. Drawn in two threads
without the probe, the first two mix the sides and the audit certifies far less
than the truth (checked here, so the tests can fail); with the probe the audit
draws them in one thread and flags the violation.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from dpverify.auditing import audit
from dpverify.auditing._pipeline.outputs import CategoryCodes
from dpverify.auditing._pipeline.run import audit_from_draw
from dpverify.auditing._pipeline.safety import choose_threads
from dpverify.errors import AuditWarning

_STATE: dict = {}


def shared_state(data, size, rng):
    """A plain function keeping its input in module state across a GIL-releasing draw."""
    _STATE["data"] = data
    noise = rng.laplace(0.0, 0.5, size)
    return _STATE["data"] + noise


class StatefulSampler:
    """State on ``self``: the bug of the issue."""

    def __call__(self, data, size, rng):
        self.data = data
        noise = rng.laplace(0.0, 0.5, size)
        return self.data + noise


def ignores_rng(data, size, rng):
    return data + np.random.laplace(0.0, 0.5, size)


def _unprobed_threaded_bound(sampler) -> float:
    sequence = np.random.SeedSequence(1).spawn(2)
    generators = [np.random.default_rng(child) for child in sequence]
    data = (0.0, 1.0)
    report = audit_from_draw(lambda side, size: sampler(data[side], size, generators[side]),
                             epsilon=1.0, delta=0.0, samples=1_000_000, confidence=0.95,
                             events="auto", progress=False, start=0.0, threads=True)
    return report.epsilon_lower_bound


@pytest.mark.parametrize("sampler", [shared_state, StatefulSampler()])
def test_two_threads_without_the_probe_miss_the_violation(sampler) -> None:
    """The failure the probe exists for (so the tests below can fail): well below the true 2.

    (How far below depends on the threads' scheduling; the probed audits below reach > 1.9.)
    """
    assert _unprobed_threaded_bound(sampler) < 1.8


def test_the_concurrency_probe_catches_shared_state_every_time() -> None:
    for _ in range(10):
        with pytest.warns(AuditWarning, match="shares mutable state"):
            assert choose_threads(shared_state, (0.0, 1.0), "auto", CategoryCodes()) is False


@pytest.mark.parametrize("sampler, threads, message", [
    (shared_state, "auto", "shares mutable state"),
    (StatefulSampler(), True, "shares mutable state"),
    (ignores_rng, "auto", "ignores its rng"),
])
def test_misbehaving_samplers_warn_loudly_and_are_still_flagged(sampler, threads, message) -> None:
    with pytest.warns(AuditWarning, match=message):
        report = audit(sampler, 0.0, 1.0, epsilon=1.0, samples=300_000, seed=1, threads=threads)
    assert report.violation and report.epsilon_lower_bound > 1.9


def test_callable_objects_are_drawn_in_one_thread_by_default() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", AuditWarning)
        report = audit(StatefulSampler(), 0.0, 1.0, epsilon=1.0, samples=300_000, seed=1)
    assert report.violation and report.epsilon_lower_bound > 1.9


def test_a_deterministic_sampler_is_warned_about() -> None:
    def fixed_seed(data, size, rng):
        return data + np.random.default_rng(0).laplace(0.0, 1.0, size)

    with pytest.warns(AuditWarning, match="identical outputs"):
        audit(fixed_seed, 0.0, 1.0, epsilon=1.0, samples=20_000, seed=1)


def test_threads_do_not_change_the_report() -> None:
    def laplace(data, size, rng):
        return data + rng.laplace(0.0, 1.0, size)

    one, two = (audit(laplace, 0.0, 1.0, epsilon=1.0, samples=100_000, seed=4, threads=t)
                for t in (False, True))
    assert (one.epsilon_lower_bound, one.p_hat, one.p_prime_hat) == (
        two.epsilon_lower_bound, two.p_hat, two.p_prime_hat)


@pytest.mark.parametrize("threads", ["yes", 1, None])
def test_bad_threads_is_a_type_error(threads) -> None:
    with pytest.raises(TypeError, match="threads"):
        audit(lambda d, n, rng: rng.random(n), 0, 1, epsilon=1.0, samples=1000, threads=threads)
