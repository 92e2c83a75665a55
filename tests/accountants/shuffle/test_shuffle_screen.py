"""The "clearly fails" screen of the shuffle searches: a proven lower bound on the true ε.

Its total variation is checked against the exact histogram laws (brute force, mpmath at 50
digits), and its "fails" against the exact shuffled binary-RR ε, which every sound bound is at
least; the searches it speeds up give the same answers.
"""

from __future__ import annotations

import time

import mpmath
import pytest

from dpverify.accountants.shuffle import min_batch_size, shuffled_binary_rr_epsilon
from dpverify.accountants.shuffle._screen import _mode_probability, _report_probabilities, clearly_fails
from dpverify.errors import CalibrationError
from dpverify.mechanisms.randomized_response import BinaryRandomizedResponse, RandomizedResponse


def _exact_total_variation(a: mpmath.mpf, b: mpmath.mpf, n: int) -> mpmath.mpf:
    """TV of the counts of report 1: Bin(n − 1, b) + Bern(a) against + Bern(b), by brute force."""
    others = [mpmath.binomial(n - 1, k) * b**k * (1 - b) ** (n - 1 - k) for k in range(n)]

    def law(last: mpmath.mpf) -> list[mpmath.mpf]:
        return [(others[k] if k < n else 0) * (1 - last) + (others[k - 1] if k else 0) * last for k in range(n + 1)]

    return sum(abs(x - y) for x, y in zip(law(a), law(b))) / 2


@pytest.mark.parametrize(
    "randomizer", [None, BinaryRandomizedResponse(0.3), RandomizedResponse(categories=5, epsilon=2.0)]
)
@pytest.mark.parametrize("n", [1, 2, 7, 60])
def test_total_variation_is_the_brute_force_one(randomizer, n) -> None:
    with mpmath.workdps(50):
        a, b = _report_probabilities(0.8, randomizer)
        closed = (a - b) * _mode_probability(n - 1, b)
        assert abs(closed - _exact_total_variation(a, b, n)) <= mpmath.mpf("1e-40")


@pytest.mark.parametrize("p", [0.05, 0.3, 0.538, 0.9])
@pytest.mark.parametrize("n", [1, 10, 1000])
@pytest.mark.parametrize("delta", [1e-6, 1e-2])
@pytest.mark.parametrize("target", [1e-300, 1e-3, 0.05])
def test_a_fail_is_below_the_exact_binary_rr_epsilon(p, n, delta, target) -> None:
    """Soundness: "fails" only where the exact shuffled ε exceeds the target."""
    randomizer = BinaryRandomizedResponse(p)
    if clearly_fails(0.0, n, delta, randomizer, target):
        assert shuffled_binary_rr_epsilon(p, n, delta) > target


def test_it_screens_what_it_should_and_nothing_more() -> None:
    assert clearly_fails(1.0, 10**7, 1e-6, None, 1e-300)  # TV ≈ 1.3e-4 > δ
    assert not clearly_fails(1.0, 10**12, 1e-6, None, 1e-300)  # TV ≈ 4e-7 < δ: cannot tell
    assert not clearly_fails(0.0, 10, 1e-6, None, 1e-300)  # ε0 = 0: nothing leaks
    assert not clearly_fails(1.0, 10, 1e-6, None, 1.0)  # e^t − 1 > 1 >= TV
    assert not clearly_fails(1.0, 2**62, 1e-6, None, 1e-300)  # the largest n: no error


@pytest.mark.parametrize("randomizer", [None, RandomizedResponse(categories=4, epsilon=1.0)])
def test_min_batch_size_below_every_true_epsilon_fails_fast(randomizer) -> None:
    """``plan shuffle --local-epsilon 1 --epsilon 1e-300`` spent 12-20 s (4 s CPU idle) in the
    numerical bound at each n up to 10^7; the screen proves those fail (budget below ~30x the
    idle time, for loaded runners)."""
    start = time.process_time()
    with pytest.raises(CalibrationError, match="no batch size"):
        min_batch_size(1.0, 1e-300, 1e-6, bound="best", randomizer=randomizer)
    assert time.process_time() - start < 5


@pytest.mark.parametrize("randomizer", [None, RandomizedResponse(categories=4, epsilon=1.0)])
def test_min_batch_size_at_an_ordinary_budget_is_unchanged(randomizer, monkeypatch) -> None:
    """The screen only removes work: with it switched off the answer is the same."""
    import dpverify.accountants.shuffle._bounds as bounds

    with_screen = min_batch_size(1.0, 0.3, 1e-6, bound="best", randomizer=randomizer)
    monkeypatch.setattr(bounds, "clearly_fails", lambda *args: False)
    assert min_batch_size(1.0, 0.3, 1e-6, bound="best", randomizer=randomizer) == with_screen
