"""Sound-mode calibration and deployment plans of the K-armed batched algorithms.

In ``mode="sound"`` the privatizer's free noise parameter (its ``epsilon``: the
ε of Chowdhury & Zhou 2023's noise, which sets the Pólya / Skellam / discrete-Gaussian
scale through ``g/ε``) is calibrated so that the run's **total** (ε, δ) —
the worst batch of the schedule, RDP and zCDP converted at the requested δ by
:mod:`dpverify.accountants` — is within the requested (ε, δ)
(:func:`calibrated_privatizer`, through :func:`dpverify._numeric.bisect_passing`:
the returned privatizer has been evaluated and passes). Their Thm 2
with ε = 1 gives a Skellam RDP curve whose (ε, δ = 1e-6) form is ε ≈ 5.24;
the calibrated noise gives at most 1.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from dpverify._deprecation import renamed_parameters
from dpverify._numeric import bisect_passing
from dpverify._validation import (
    _type_error,
    check_delta,
    check_epsilon,
    check_has,
    check_nonempty_items,
    check_positive,
    check_positive_int,
)
from dpverify.bandits.plan import DeploymentPlan, check_request, guarantee_dict, meets_request
from dpverify.bandits.privatizers import (
    DiscreteGaussianSecureAggregation,
    PolyaSecureAggregation,
    SkellamSecureAggregation,
    as_approx_dp,
    worst_case_guarantee,
)
from dpverify.errors import CalibrationError, DpverifyValueError
from dpverify.guarantees import ApproxDP

__all__ = ["calibrated_privatizer", "schedule_approx_dp", "batch_plan", "secure_aggregation_plans"]

#: Relative precision of the calibrated noise ε (the result always passes; this is only how close).
_CALIBRATION_RTOL = 1e-5


def schedule_approx_dp(privatizer: Any, batch_sizes: Sequence[int], delta: float) -> ApproxDP | None:
    """The (ε, δ) form of the worst per-batch guarantee over ``batch_sizes`` (None: non-private)."""
    per_size = [privatizer.guarantee(n) for n in sorted(set(batch_sizes))]
    if per_size[0] is None:
        return None
    return as_approx_dp(worst_case_guarantee(per_size), delta=delta)


def calibrated_privatizer(privatizer: Any, batch_sizes: tuple[int, ...], requested: ApproxDP) -> Any:
    """``privatizer`` with the largest noise ε (least noise) whose schedule meets ``requested``.

    Unchanged when it already meets the request. Otherwise the bracket starts
    at ``ε·ε_req/ε_total(ε)`` (the total is close to proportional to the noise
    ε), is widened by factors 0.9 until one end passes, and is settled by
    :func:`~dpverify._numeric.bisect_passing` (relative precision 1e-5).

    Raises
    ------
    CalibrationError
        When even ``0.9^200`` times the guess does not meet the request.
    """
    check_has(privatizer, "privatizer", ("guarantee", "epsilon"),
              "a privatizer with a noise epsilon (dpverify.bandits.privatizers)")
    sizes = check_nonempty_items(batch_sizes, "batch_sizes", single=(int, float),
                                 example="(2, 4, 8)")
    batch_sizes = tuple(check_positive_int(size, f"batch_sizes[{i}]")
                        for i, size in enumerate(sizes))
    requested = check_request(requested)
    if requested is None:
        raise _type_error("requested", None, "an ApproxDP / PureDP guarantee to calibrate to")
    return _calibrated(privatizer, batch_sizes, requested)


@functools.lru_cache(maxsize=256)
def _calibrated(privatizer: Any, batch_sizes: tuple[int, ...], requested: ApproxDP) -> Any:
    """:func:`calibrated_privatizer` on checked, hashable arguments (cached)."""
    def total(noise_epsilon: float) -> ApproxDP:
        candidate = replace(privatizer, epsilon=noise_epsilon)
        return schedule_approx_dp(candidate, batch_sizes, requested.delta)

    def meets(noise_epsilon: float) -> bool:
        return meets_request(total(noise_epsilon), requested)

    high = privatizer.epsilon
    at_high = total(high)
    if meets_request(at_high, requested):
        return privatizer
    # the total ε is close to proportional to the noise ε: start the bracket at that guess
    low = high * min(1.0, requested.epsilon / at_high.epsilon)
    for _ in range(200):
        if meets(low):
            break
        low *= 0.9
    else:
        raise CalibrationError(f"no noise level of {privatizer.name} meets {requested!r}")
    failing = min(high, low / 0.9)
    while failing < high and meets(failing):
        low, failing = failing, min(high, failing / 0.9)
    if low == failing:
        return replace(privatizer, epsilon=low)
    return replace(privatizer, epsilon=bisect_passing(meets, low, failing, rtol=_CALIBRATION_RTOL))


def batch_plan(*, name: str, mode: str, model: str, horizon: int, n_arms: int | None,
               requested: ApproxDP | None, guarantee: Any, privatizer: Any,
               batch_sizes: Sequence[int], parameters: dict[str, Any], notes: Sequence[str],
               calibration: str = "paper") -> DeploymentPlan:
    """A plan whose schedule has one record per batch size, read from ``privatizer.deployment``."""
    schedule = []
    for index, size in enumerate(batch_sizes, start=1):
        record: dict[str, Any] = {"batch": index, "batch_size": size}
        record.update(privatizer.deployment(size))
        record["per_batch"] = guarantee_dict(privatizer.guarantee(size))
        schedule.append(record)
    return DeploymentPlan(
        algorithm=name, mode=mode, model=model, horizon=horizon, requested=requested,
        guarantee=guarantee.approx_dp, per_batch=guarantee.per_batch, parameters=parameters,
        schedule=schedule, notes=[*notes, guarantee.notes], calibration=calibration,
        instance={"n_arms": n_arms})


@renamed_parameters(tail_probability="failure_probability", bound="value_bound")
def secure_aggregation_plans(epsilon: float, delta: float, *, users: int, value_bound: float = 1.0,
                             failure_probability: float = 1e-6, scale_factor: float = 10.0
                             ) -> list[dict[str, Any]]:
    """Chowdhury & Zhou 2023's three secure-aggregation protocols for one sum of ``users`` values in [0, B] (B: ``value_bound``).

    Each user sends ``x/B`` through the protocol (rewards in [0, 1]) and the
    analyser's estimate is multiplied by B, so the guarantee does not depend on B
    and the error scales with it. Pólya (pure ε, Thm 1) as printed; Skellam
    (Thm 2) and discrete Gaussian (Thm 4) with their noise ε calibrated so that
    the (ε, δ) form of the one release meets the request
    (:func:`calibrated_privatizer`). ``error_sigma`` is B·sd(total noise)/g.
    ``failure_probability`` is the p of the modulus' accuracy τ (the probability
    that the sum wraps around).

    >>> rows = secure_aggregation_plans(1.0, 1e-6, users=1000)
    >>> [row["protocol"] for row in rows], all(row["claim_met"] for row in rows)
    (['polya', 'skellam', 'discrete-gaussian'], True)
    """
    epsilon = check_epsilon(epsilon, allow_zero=False)
    delta = check_delta(delta, allow_zero=False)
    users = check_positive_int(users, "users")
    value_bound = check_positive(value_bound, "value_bound")
    requested = ApproxDP(epsilon, delta)
    candidates = [
        ("polya", PolyaSecureAggregation(epsilon, failure_probability)),
        ("skellam", SkellamSecureAggregation(epsilon, scale_factor, failure_probability)),
        ("discrete-gaussian", DiscreteGaussianSecureAggregation(
            min(epsilon, 0.999), scale_factor, failure_probability))]
    rows = []
    for protocol, privatizer in candidates:
        try:
            privatizer = calibrated_privatizer(privatizer, (users,), requested)
        except DpverifyValueError as error:
            if "sensitivity" not in str(error):
                raise
            raise DpverifyValueError(
                f"epsilon={epsilon}, users={users} and scale_factor={scale_factor} need a "
                f"{protocol} precision beyond the exact discrete profile's range; lower one of "
                f"them ({error})") from error
        deployment = privatizer.deployment(users)
        approx = schedule_approx_dp(privatizer, (users,), delta)
        noise = privatizer.user_noise(privatizer.parameters(users))
        precision = deployment["precision_g"]
        if protocol == "polya":  # Σ Pólya shares = Lap_Z(g/ε): variance 2e^{-1/s}/(1 - e^{-1/s})²
            t = math.exp(-epsilon / precision)
            variance = 2 * t / (1 - t) ** 2
        elif protocol == "skellam":
            variance = 2 * noise.mu * users
        else:
            variance = users * noise.sigma ** 2
        rows.append({"protocol": protocol, **deployment, "value_bound_B": value_bound,
                     "error_sigma": value_bound * math.sqrt(variance) / precision,
                     "guarantee": guarantee_dict(approx), "claim_met": meets_request(approx,
                                                                                   requested)})
    return rows
