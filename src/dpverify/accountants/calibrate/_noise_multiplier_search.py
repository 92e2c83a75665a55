"""Search helpers of :func:`dpverify.accountants.calibrate.dp_sgd.min_noise_multiplier` (DP-SGD).

The seed only: every answer of the calibration is verified afterwards by the
passing-end bracket of :mod:`dpverify.accountants.calibrate._search`, so nothing
here affects soundness, only speed. Also the training-loop view of a schedule
(``dataset_size``, ``batch_size``, ``epochs``).
"""

from __future__ import annotations

import math
from fractions import Fraction

from scipy.special import ndtr

from dpverify._validation import (
    MAX_INTEGER,
    check_positive,
    check_positive_int,
    check_probability,
    value_error,
)

__all__ = ["clt_noise_seed", "training_schedule"]


def clt_noise_seed(epsilon: float, delta: float, q: float, steps: int) -> float:
    """The noise multiplier of the central-limit approximation: a seed for the verified search.

    ``steps`` Poisson-subsampled Gaussian steps are close to μ-GDP with
    ``μ = q √(steps (e^{1/σ²} − 1))`` (Bu, Dong, Long & Su 2020, Thm 1; Dong, Roth & Su
    2022, Thm 3.4); μ-GDP meets (ε, δ) iff ``Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2) <= δ``
    (Dong, Roth & Su 2022, Cor. 2.13). Solving both in floats gives σ within a few percent of
    the PLD answer in the DP-SGD regime (small q, many steps). Any failure returns 1.0:
    the verified search does not depend on the seed.
    """
    def excess(mu: float) -> float:
        return float(ndtr(-epsilon / mu + mu / 2)
                     - math.exp(epsilon) * ndtr(-epsilon / mu - mu / 2) - delta)

    try:
        low, high = 1e-6, 1e3          # δ(μ) increases with μ: bisect on a log scale
        if not excess(low) < 0 < excess(high):
            return 1.0
        for _ in range(60):
            middle = math.sqrt(low * high)
            low, high = (middle, high) if excess(middle) < 0 else (low, middle)
        ratio = high / (q * math.sqrt(steps))
        sigma = 1 / math.sqrt(math.log1p(ratio * ratio))
        return sigma if 1e-4 < sigma < 1e6 else 1.0
    except (ValueError, ArithmeticError):
        return 1.0


def training_schedule(sampling_probability: float | None, steps: int | None,
                      epochs: float | None, dataset_size: int | None,
                      batch_size: int | None) -> tuple[float, int]:
    """(q, steps) from (q, steps), (q, epochs) or (dataset_size, batch_size, epochs | steps).

    ``q = batch_size / dataset_size`` and ``steps = ⌈epochs / q⌉ = ⌈epochs ·
    dataset_size / batch_size⌉``, in exact rationals: the sizes as integers, a float
    ``epochs`` or ``q`` as the shortest decimal that reads back as it (so ``epochs=3``
    at ``q=0.3`` is 10 steps, where the float quotient 10.000000000000002 would round
    up to 11).
    """
    rate = None
    if dataset_size is not None or batch_size is not None:
        if sampling_probability is not None:
            raise value_error("sampling_probability", sampling_probability,
                              "omitted when dataset_size and batch_size are given")
        dataset_size = check_positive_int(dataset_size, "dataset_size")
        batch_size = check_positive_int(batch_size, "batch_size")
        if batch_size > dataset_size:
            raise value_error("batch_size", batch_size, f"at most dataset_size ({dataset_size})")
        sampling_probability, rate = batch_size / dataset_size, Fraction(batch_size, dataset_size)
    if sampling_probability is None:
        raise value_error("sampling_probability", None,
                          "given (or dataset_size and batch_size)")
    sampling_probability = check_probability(sampling_probability, "sampling_probability",
                                             open_low=True)
    if (steps is None) == (epochs is None):
        raise value_error("steps", steps, "given, or epochs instead (exactly one of them)")
    if epochs is not None:
        epochs = check_positive(epochs, "epochs")
        exact = _decimal(epochs) / (rate if rate is not None else _decimal(sampling_probability))
        steps = math.ceil(exact)
        if steps > MAX_INTEGER:   # name what the caller typed, not the derived count
            raise value_error("epochs", epochs, f"small enough for at most {MAX_INTEGER} steps",
                              f"steps = ceil(epochs / sampling_probability) would be {steps:.3g}")
    return sampling_probability, check_positive_int(steps, "steps")


def _decimal(value: float) -> Fraction:
    """The shortest decimal that reads back as the float ``value``, exactly."""
    return Fraction(repr(float(value)))
