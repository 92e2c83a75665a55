"""Search helpers of :func:`dpverify.accountants.calibrate.min_noise_multiplier` (DP-SGD).

Seeds only: every answer of the calibration is verified afterwards by the
passing-end bracket of :mod:`dpverify.accountants.calibrate`, so nothing here
affects soundness, only speed. Also the training-loop view of a schedule
(``dataset_size``, ``batch_size``, ``epochs``).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from dpverify._validation import check_positive, check_positive_int, check_probability, value_error
from dpverify.accountants.pld import PrivacyLossDistribution
from dpverify.accountants.rdp import rdp_to_dp, scale_rdp, subsampled_gaussian_rdp
from dpverify.errors import CalibrationError

__all__ = ["rdp_noise_seed", "pld_noise_seed", "training_schedule"]


def rdp_noise_seed(epsilon: float, delta: float, q: float, steps: int,
                    orders: tuple[float, ...]) -> float:
    """A close estimate of the smallest RDP noise multiplier (a seed for the verified search).

    A full-curve evaluation finds the best order at the current σ; ``toms748``
    solves ε(σ) = ``epsilon`` on the 50 orders around it (cheap); repeated
    until σ moves by less than 0.1%. Any failure returns 1.0 (the verified
    search does not depend on the seed).
    """
    from scipy.optimize import toms748

    def epsilon_on(sigma: float, chosen: tuple[float, ...]) -> float:
        curve = scale_rdp(subsampled_gaussian_rdp(sigma, q, orders=chosen), steps)
        return rdp_to_dp(curve, delta=delta).epsilon - epsilon

    def best_orders(sigma: float) -> tuple[float, ...]:
        curve = scale_rdp(subsampled_gaussian_rdp(sigma, q, orders=orders), steps)
        values = [e + math.log1p(-1 / a) - (math.log(delta) + math.log(a)) / (a - 1)
                  for a, e in zip(curve.orders, curve.epsilons)]
        best = int(np.argmin(values))
        chosen = orders[max(0, best - 25):best + 25]
        # a target below 1e-3 may be met only through ε = 0, which the total-variation bound of
        # rdp_to_dp gives from the smallest order's value: keep that order in the subset
        return (orders[0], *chosen) if epsilon < 1e-3 and best > 25 else chosen

    floor = min(math.log1p(-1 / a) - (math.log(delta) + math.log(a)) / (a - 1) for a in orders)
    try:
        if epsilon < floor:
            return _zero_epsilon_seed(lambda sigma: epsilon_on(sigma, orders[:1]) <= 0)
        sigma = 1.0
        for _ in range(4):
            chosen = best_orders(sigma)
            low = high = sigma
            ratio = 1.5
            # 1.5x steps within [1e-4, 1e5]; beyond (where the search used to give up) the
            # ratio squares at each step, up to the ends of the noise range [1e-300, 1e12]
            if epsilon_on(sigma, chosen) > 0:
                while epsilon_on(high, chosen) > 0:
                    low, high = high, high * ratio
                    ratio = ratio ** 2 if high > 1e5 else ratio
                    if high > 1e12:
                        return 1.0
            else:
                while epsilon_on(low, chosen) <= 0:
                    low, high = low / ratio, low
                    ratio = ratio ** 2 if low < 1e-4 else ratio
                    if low < 1e-300:
                        return 1.0
            while high > 1.6 * low:   # only after squared ratios: narrow on the logarithm
                middle = math.sqrt(low) * math.sqrt(high)
                low, high = (low, middle) if epsilon_on(middle, chosen) <= 0 else (middle, high)
            root = float(toms748(lambda s: epsilon_on(s, chosen), low, high, rtol=1e-7))
            if abs(root - sigma) <= 1e-3 * root:
                return root * (1 + 2e-5)
            sigma = root
        return sigma * (1 + 2e-5)
    except (ValueError, ArithmeticError, CalibrationError):
        return 1.0


def _zero_epsilon_seed(meets_at_smallest_order: Callable[[float], bool]) -> float:
    """Seed for a target below every order's conversion term: only ε = 0 meets it, which
    :func:`~dpverify.accountants.rdp.rdp_to_dp` gives when the smallest order's value is below
    ``−log(1 − δ²)`` (total variation), so the search needs that one order. Bracketed by
    squaring ratios from 1.0 up to 1e12, then bisected on the logarithm to 1e-7 relative."""
    low, high, ratio = 1.0, 2.0, 2.0
    while not meets_at_smallest_order(high):
        low, high, ratio = high, high * ratio, ratio * ratio
        if high > 1e12:
            return 1.0
    while high > low * (1 + 1e-7):
        middle = math.sqrt(low) * math.sqrt(high)
        if middle in (low, high):
            break
        low, high = (low, middle) if meets_at_smallest_order(middle) else (middle, high)
    return high * (1 + 2e-5)


def pld_noise_seed(epsilon: float, delta: float, q: float, steps: int, rdp_sigma: float) -> float:
    """A close estimate of the smallest PLD noise multiplier (a seed for the verified search).

    ``toms748`` on a PLD 3x coarser than the default (cheap; every grid is an
    upper bound, so its root is a little above the default grid's), seeded by
    the RDP answer (PLD needs less noise), then one Newton step on the
    default grid. Any failure returns the RDP answer.
    """
    from scipy.optimize import toms748

    from dpverify.accountants._pld_losses import SubsampledGaussian

    def epsilon_at(sigma: float, coarse: bool) -> float:
        interval = (SubsampledGaussian(sigma, q).loss_std() / 30) if coarse else None
        pld = PrivacyLossDistribution.from_subsampled_gaussian(
            sigma, q, value_discretization_interval=interval)
        return pld.self_compose(steps).epsilon_for_delta(delta) - epsilon

    try:
        high, low = rdp_sigma * 1.001, rdp_sigma * 0.9
        while epsilon_at(low, True) <= 0:
            high, low = low, low * 0.8
            if low < 1e-3:
                return rdp_sigma
        if epsilon_at(high, True) > 0:
            return rdp_sigma
        root = float(toms748(lambda s: epsilon_at(s, True), low, high, rtol=1e-6))
        step = root * 1e-3
        slope = (epsilon_at(root + step, True) - epsilon_at(root, True)) / step
        gap = epsilon_at(root, False)          # <= 0 usually: the default grid is tighter
        if slope < 0 and math.isfinite(gap):
            root = root - gap / slope
        return root * (1 + 3e-5)
    except (ValueError, ArithmeticError, CalibrationError):
        return rdp_sigma


def training_schedule(sampling_probability: float | None, steps: int | None,
                       epochs: float | None, dataset_size: int | None,
                       batch_size: int | None) -> tuple[float, int]:
    """(q, steps) from either (q, steps) or (dataset_size, batch_size, epochs | steps)."""
    if dataset_size is not None or batch_size is not None:
        if sampling_probability is not None:
            raise value_error("sampling_probability", sampling_probability,
                              "omitted when dataset_size and batch_size are given")
        dataset_size = check_positive_int(dataset_size, "dataset_size")
        batch_size = check_positive_int(batch_size, "batch_size")
        if batch_size > dataset_size:
            raise value_error("batch_size", batch_size, f"at most dataset_size ({dataset_size})")
        sampling_probability = batch_size / dataset_size
    elif epochs is not None:
        raise value_error("epochs", epochs, "given with dataset_size and batch_size")
    if sampling_probability is None:
        raise value_error("sampling_probability", None,
                          "given (or dataset_size and batch_size)")
    sampling_probability = check_probability(sampling_probability, "sampling_probability",
                                             open_low=True)
    if (steps is None) == (epochs is None):
        raise value_error("steps", steps, "given, or epochs instead (exactly one of them)")
    if epochs is not None:
        epochs = check_positive(epochs, "epochs")
        steps = math.floor(epochs * dataset_size / batch_size)
        if steps < 1:
            raise value_error("epochs", epochs, "large enough for one step")
    return sampling_probability, check_positive_int(steps, "steps")
