"""Model-based audits: lower bounds that hold *under a stated noise model*, labelled as such.

Some violations cannot be certified by counting at any practical size: the
classical Gaussian σ = √(2 ln(1.25/δ))/ε used at a large ε breaks its claim
only on events of probability near δ. When the user states the noise family,
far fewer samples suffice: :func:`audit_model` estimates the family's one free
parameter with an **exact** confidence bound (or interval) and maps it through
the family's exact privacy curve —

=========================  =================================  ======================================
family                     parameter, exact bound             ε lower bound at the claimed δ
=========================  =================================  ======================================
``"gaussian"``             σ: Σ(y − ȳ)² / σ² ~ χ²(n − 2)      ε(δ) of N(0, σ_high²) at sensitivity Δ
                           (both sides, own means)            (Balle & Wang 2018, exact, mpmath)
``"laplace"``              b: Σ|y − m| is stochastically      Δ/b_high + 2 ln(1 − δ)
                           larger than Γ(n, b) for any
                           fixed m (Anderson); m = the
                           median of a held-out prefix
``"randomized_response"``  q = P[report = truth]:             ln((q_low − δ)(k − 1)/(1 − q_low))
                           Clopper–Pearson on both sides
``"discrete_laplace"``     t: ties of output pairs within     a bound on δ_t(ε) valid over the
                           a side, Bin(pairs, τ(t)), τ the    whole interval of t (tail events
                           collision probability: a two-      monotone in t); no centre needed
                           sided Clopper–Pearson interval
``"discrete_gaussian"``    σ: the same, τ(σ)                  the same, over the interval of σ
``"binomial"``             min(p, 1 − p), ``trials``          the same, over the interval of p
                           stated: the same, τ(p)
=========================  =================================  ======================================

(the integer families: :mod:`dpverify.auditing._model_discrete`).

The bound holds with probability ``>= confidence`` **if** the outputs on
``x`` are ``f(x) + noise`` with the stated family (Gaussian/Laplace, with the
stated sensitivity ``|f(x) − f(x')| = Δ``; the integer families with an
integer ``f`` and integer Δ) or are k-ary randomized response of ``x`` —
the report says so. If the model is wrong, the bound means
nothing: use :func:`~dpverify.auditing.audit` for a model-free bound.

:func:`weakest_profile` gives the privacy curve of the weakest mechanism of a
family that meets (ε, δ), for :func:`~dpverify.auditing.audit_curve`.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np
from scipy import stats

from dpverify._numeric import bisect_passing, round_down, working_precision
from dpverify._record_validation import check_record
from dpverify._validation import (
    check_callable,
    check_choice,
    check_confidence,
    check_delta,
    check_epsilon,
    check_int_at_least,
    check_positive,
    check_seed,
    value_error,
)
from dpverify.auditing._model_checks import check_family_on_both_sides
from dpverify.auditing._model_discrete import (
    DISCRETE_FAMILIES,
    MAX_BINOMIAL_TRIALS,
    count_ties,
    delta_function,
    interval_epsilon_lower,
    parameter_interval,
)
from dpverify.auditing._pipeline.arguments import check_audit_samples
from dpverify.auditing._pipeline.engine import checked_output
from dpverify.auditing._pipeline.sampler import Sampler, prepare_draw
from dpverify.auditing.estimators import clopper_pearson_lower
from dpverify.errors import AuditError
from dpverify.guarantees import ApproxDP, PrivacyProfile, PureDP
from dpverify.mechanisms import BinomialNoise, DiscreteGaussian, DiscreteLaplace
from dpverify.mechanisms.continuous import (
    gaussian_delta,
    gaussian_privacy_profile,
    laplace_privacy_profile,
)
from dpverify.mechanisms.privacy_maps import privacy_map

__all__ = ["audit_model", "ModelAuditReport", "MODEL_FAMILIES", "weakest_profile"]

MODEL_FAMILIES = ("gaussian", "laplace", "randomized_response", *DISCRETE_FAMILIES)
#: Share of each side's samples held out to fix the Laplace model's centre.
_CENTRE_FRACTION = 0.01


@dataclass(frozen=True)
class ModelAuditReport:
    """The result of :func:`audit_model`: a lower bound valid only under the stated model.

    ``parameter_bound`` is the one-sided confidence bound on the family's
    parameter (σ or b upper, q lower); ``estimate`` its point estimate;
    ``epsilon_lower_bound`` the family's exact ε(δ) at that bound, rounded
    down; ``model`` the stated model in words.
    """

    guarantee: PureDP | ApproxDP
    family: str
    model: str
    parameter: str
    estimate: float
    parameter_bound: float
    sensitivity: float | None
    epsilon_lower_bound: float
    violation: bool
    samples: int
    confidence: float
    seconds: float

    def __post_init__(self) -> None:
        check_record(self)
        # None only for the randomized-response model (it has no sensitivity)
        if self.sensitivity is not None or self.family != "randomized_response":
            check_positive(self.sensitivity, "sensitivity")

    @property
    def mode(self) -> str:
        return f"model: {self.model}"

    def __str__(self) -> str:
        verdict = ("VIOLATION under the stated model" if self.violation
                   else "no violation found under the stated model")
        side = ">=" if self.family == "randomized_response" else "<="
        return "\n".join([
            f"MODEL-BASED audit of an (eps={self.guarantee.epsilon!r}, "
            f"delta={getattr(self.guarantee, 'delta', 0.0)!r}) claim: {verdict}",
            f"  model                {self.model}",
            f"  {self.parameter:<21}{self.estimate:.6g} (exact bound {side} "
            f"{self.parameter_bound:.6g})",
            f"  epsilon lower bound  {self.epsilon_lower_bound:.6g}  (confidence "
            f"{self.confidence:g}; valid ONLY if the model holds)",
            f"  samples per side     {self.samples}",
            f"  time                 {self.seconds:.3f} s"])

    def to_dict(self) -> dict[str, Any]:
        return {"mode": self.mode, "family": self.family, "model": self.model,
                "claimed_epsilon": self.guarantee.epsilon,
                "claimed_delta": getattr(self.guarantee, "delta", 0.0),
                "parameter": self.parameter, "estimate": self.estimate,
                "parameter_bound": self.parameter_bound, "sensitivity": self.sensitivity,
                "epsilon_lower_bound": self.epsilon_lower_bound
                if math.isfinite(self.epsilon_lower_bound) else "inf",
                "violation": self.violation, "samples": self.samples,
                "confidence": self.confidence, "seconds": self.seconds}


def gaussian_epsilon_lower(mu: float, delta: float) -> float:
    """The largest verified ε with ``δ_Gauss(μ; ε) >= δ`` (so ``<= ε*(δ)``), rounded down.

    ``δ_Gauss(μ; ε) = Φ(μ/2 − ε/μ) − e^ε Φ(−μ/2 − ε/μ)`` (Balle & Wang 2018,
    Thm 8), ``μ = Δ/σ``, evaluated exactly (mpmath) by
    :func:`dpverify.mechanisms.continuous.gaussian_delta`.
    """
    if delta <= 0:
        return math.inf
    with working_precision():
        def above(epsilon: float) -> bool:
            return gaussian_delta(mpmath.mpf(mu), mpmath.mpf(epsilon)) >= delta

        if not above(0.0):
            return 0.0
        high = 1.0
        while above(high):
            high *= 2
        return round_down(bisect_passing(above, 0.0, high, rtol=1e-12))


#: Largest μ = Δ/σ the Gaussian model evaluates δ at (see :func:`_gaussian`).
_LARGEST_MU = 1e100


def _rows(values: np.ndarray) -> np.ndarray:
    return np.asarray(values, dtype=np.float64).reshape(len(values), -1)


def _gaussian(sides: list[np.ndarray], alpha: float, sensitivity: float,
              delta: float) -> tuple[float, float, float]:
    squares = sum(float(np.sum((s - s.mean(axis=0)) ** 2)) for s in sides)
    dof = sum(s.size - s.shape[1] for s in sides)
    estimate = math.sqrt(squares / dof)
    # P[χ²(dof) <= q_α] = α: σ² <= squares / q_α with probability 1 − α
    sigma_high = math.sqrt(squares / float(stats.chi2.ppf(alpha, dof))) * (1 + 1e-12)
    # ε*(δ) grows with μ = Δ/σ, so μ capped at the largest value gaussian_delta evaluates
    # (1e100, ε ≈ 5e199) still gives a lower bound
    mu = sensitivity / sigma_high if sigma_high > 0 else math.inf
    return estimate, sigma_high, gaussian_epsilon_lower(min(mu, _LARGEST_MU), delta)


def _laplace(sides: list[np.ndarray], alpha: float, sensitivity: float,
             delta: float) -> tuple[float, float, float]:
    total, count = 0.0, 0
    for side in sides:
        held = max(1, int(len(side) * _CENTRE_FRACTION))
        centre = np.median(side[:held], axis=0)
        total += float(np.sum(np.abs(side[held:] - centre)))
        count += side[held:].size
    estimate = total / count
    # Σ|y − m| >=_st Γ(count, b) for a fixed m; P[Γ(count, 1) <= g_α] = α
    scale_high = total / float(stats.gamma.ppf(alpha, count)) * (1 + 1e-12)
    bound = sensitivity / scale_high + 2 * math.log1p(-delta)
    return estimate, scale_high, max(0.0, round_down(bound * (1 - 1e-12)))


def _randomized_response(sides: list[np.ndarray], data: tuple[Any, Any], alpha: float,
                         categories: int, delta: float) -> tuple[float, float, float]:
    truthful, total = 0, 0
    for side, value in zip(sides, data):
        truthful += int(np.count_nonzero(side[:, 0] == np.asarray(value, dtype=np.float64)))
        total += len(side)
    estimate = truthful / total
    low = float(clopper_pearson_lower(truthful, total, failure_probability=alpha))
    if low <= delta or low >= 1:
        return estimate, low, 0.0 if low <= delta else math.inf
    bound = math.log((low - delta) * (categories - 1) / (1 - low))
    return estimate, low, max(0.0, round_down(bound * (1 - 1e-12)))


def _integer_family(sides: list[np.ndarray], family: str, alpha: float, sensitivity: int,
                    delta: float, trials: int | None) -> tuple[float, float, float]:
    ties, pairs = count_ties(sides)
    estimate, low, high = parameter_interval(family, ties, pairs, alpha, trials)
    if math.isinf(high):
        return estimate, high, 0.0 if delta > 0 or family == "discrete_laplace" else math.inf
    return estimate, high, interval_epsilon_lower(family, low, high, sensitivity, delta, trials)


def audit_model(sampler: Sampler, x: Any, x_prime: Any, *, family: str, epsilon: float,
                delta: float = 0.0, sensitivity: float | None = None, categories: int = 2,
                trials: int | None = None, samples: int = 1_000_000, confidence: float = 0.95,
                seed: Any = None, threads: Any = "auto") -> ModelAuditReport:
    """Lower-bound ε assuming the stated noise family; the report says it is model-based.

    Parameters
    ----------
    sampler, x, x_prime
        As in :func:`~dpverify.auditing.audit`.
    family
        ``"gaussian"`` or ``"laplace"`` (outputs ``f(data) + noise``, scalar
        or i.i.d. per coordinate), ``"randomized_response"`` (outputs are
        the input category reported truthfully with probability ``q``), or
        an integer family — ``"discrete_laplace"``, ``"discrete_gaussian"``,
        ``"binomial"`` (scalar outputs: an integer ``f(data)`` plus
        ``DiscreteLaplace(t)``, ``DiscreteGaussian(σ)`` or ``Bin(trials, p)``
        noise; any constant offset of the binomial is part of ``f``).
    epsilon, delta
        The claim.
    sensitivity
        ``|f(x) − f(x')|`` (ℓ2 for Gaussian, ℓ1 for Laplace; a positive
        integer for the integer families); required for every noise family.
    categories
        ``k`` of k-ary randomized response (>= 2).
    trials
        The binomial model's number of trials (1 to 10^7); binomial only.
    samples
        Outputs per side (>= 100).
    confidence
        Probability that the parameter bound holds.
    seed, threads
        As in :func:`~dpverify.auditing.audit`.

    Returns
    -------
    ModelAuditReport
        ``violation`` when the model's ε at the claimed δ, evaluated at the
        parameter's confidence bound, exceeds the claim.

    Raises
    ------
    AuditError
        The stated family fails on either input: each side's pair differences
        (or, for randomized response, its truthful rate) are tested against
        the family at the pooled estimate, and a side whose χ² p-value is
        below 10⁻⁶ is refused with the test's numbers
        (:mod:`dpverify.auditing._model_checks`).

    Examples
    --------
    The classical Gaussian σ at ε = 10, δ = 10⁻³ (valid only for ε < 1) is
    not (10, 10⁻³)-DP: its exact ε at that δ is 11.03.

    >>> from dpverify.accountants.calibrate import classical_gaussian_sigma
    >>> sigma = classical_gaussian_sigma(10.0, 1e-3)
    >>> report = audit_model(lambda d, n, rng: d + rng.normal(0, sigma, n), 0.0, 1.0,
    ...                      family="gaussian", sensitivity=1.0, epsilon=10.0, delta=1e-3,
    ...                      samples=100_000, seed=1)
    >>> report.violation, 10.0 < report.epsilon_lower_bound < 11.04
    (True, True)

    An integer count with discrete Laplace noise of scale 1 claimed as
    ε = 0.5 (it is 1-DP; the centre f(x) is never needed):

    >>> from scipy import stats
    >>> def count(d, n, rng):
    ...     return d + stats.dlaplace.rvs(1.0, size=n, random_state=rng)
    >>> report = audit_model(count, 3, 4, family="discrete_laplace", sensitivity=1,
    ...                      epsilon=0.5, samples=100_000, seed=2)
    >>> report.violation, 0.5 < report.epsilon_lower_bound <= 1.0
    (True, True)
    """
    start = time.perf_counter()
    family = check_choice(family, "family", MODEL_FAMILIES)
    epsilon = check_epsilon(epsilon, "epsilon")
    delta = check_delta(delta, "delta")
    samples = check_audit_samples(samples, minimum=100)
    confidence = check_confidence(confidence)
    if not 1 - confidence < 1:  # the quantile at 1 - confidence would be infinite
        raise value_error("confidence", confidence, "at least 1e-15 (1 - confidence < 1 in floats)")
    check_callable(sampler, "sampler", "a callable sampler(data, size, rng)")
    check_seed(seed)
    categories = check_int_at_least(categories, "categories", 2)
    if family != "randomized_response":
        if sensitivity is None:
            raise value_error("sensitivity", sensitivity, "a positive number",
                              f"family={family!r} needs the stated |f(x) - f(x')|")
        sensitivity = check_positive(sensitivity, "sensitivity")
    if family in DISCRETE_FAMILIES:
        if sensitivity != int(sensitivity):
            raise value_error("sensitivity", sensitivity, "a positive integer",
                              f"family={family!r} shifts an integer query")
        sensitivity = int(sensitivity)
    if family == "binomial":
        if trials is None:
            raise value_error("trials", trials, "a positive integer",
                              "family='binomial' needs the stated number of trials")
        trials = check_int_at_least(trials, "trials", 1, maximum=MAX_BINOMIAL_TRIALS)
    elif trials is not None:
        raise value_error("trials", trials, "None unless family='binomial'")
    draw, threaded = prepare_draw(sampler, x, x_prime, seed, threads, samples)
    # the audit pipeline's own output check: numbers, one per requested sample (first axis)
    sides = [_rows(checked_output(draw(side, samples), samples, None)) for side in (0, 1)]
    for name, side in zip(("x", "x'"), sides):
        if not np.all(np.isfinite(side)):
            raise AuditError(f"the sampler returned non-finite outputs on {name}")
    alpha = 1 - confidence
    if family == "gaussian":
        estimate, bound, lower = _gaussian(sides, alpha, sensitivity, delta)
        model = f"outputs are f(data) + N(0, sigma^2) per coordinate, |f(x) - f(x')|_2 = {sensitivity!r}"
        parameter = "sigma"
    elif family == "laplace":
        estimate, bound, lower = _laplace(sides, alpha, sensitivity, delta)
        model = f"outputs are f(data) + Lap(b) per coordinate, |f(x) - f(x')|_1 = {sensitivity!r}"
        parameter = "scale b"
    elif family == "randomized_response":
        estimate, bound, lower = _randomized_response(sides, (x, x_prime), alpha, categories,
                                                      delta)
        model = f"{categories}-ary randomized response of the input category"
        parameter = "P[report = truth]"
    else:
        estimate, bound, lower = _integer_family(sides, family, alpha, sensitivity, delta, trials)
        noise = {"discrete_laplace": "DiscreteLaplace(t)", "discrete_gaussian":
                 "DiscreteGaussian(sigma)", "binomial": f"Bin({trials}, p)"}[family]
        model = (f"outputs are an integer f(data) + {noise} noise, |f(x) - f(x')| = "
                 f"{sensitivity!r}")
        parameter = {"discrete_laplace": "scale t", "discrete_gaussian": "sigma",
                     "binomial": "min(p, 1 - p)"}[family]
    check_family_on_both_sides(family, sides, trials=trials, data=(x, x_prime))
    guarantee = PureDP(epsilon) if delta == 0 else ApproxDP(epsilon, delta)
    return ModelAuditReport(guarantee=guarantee, family=family, model=model, parameter=parameter,
                            estimate=estimate, parameter_bound=bound, sensitivity=sensitivity,
                            epsilon_lower_bound=lower, violation=lower > epsilon,
                            samples=samples, confidence=confidence,
                            seconds=time.perf_counter() - start)


def weakest_profile(family: str, epsilon: float, delta: float = 0.0, *,
                    sensitivity: float = 1.0) -> Any:
    """The privacy curve of the least noisy mechanism of ``family`` that is (ε, δ)-DP.

    ``"gaussian"``: σ = :func:`~dpverify.accountants.calibrate.analytic_gaussian_sigma`;
    ``"laplace"``: b = Δ/(ε − 2 ln(1 − δ)) (the inverse of the Laplace
    profile); ``"discrete_laplace"``, ``"discrete_gaussian"``: the smallest
    scale t or σ (verified by bisection, :func:`~dpverify._numeric.bisect_passing`)
    whose exact profile has δ(ε) <= δ, at an integer Δ; ``"binomial"``: the
    binomial mechanism Bin(N, 1/2) with the fewest trials
    (:func:`~dpverify.accountants.calibrate.min_binomial_trials`). Audit an
    implementation against the whole curve with
    ``audit_curve(sampler, x, x_prime, profile=weakest_profile(...))``: a
    mechanism of that family meeting the claim cannot violate it anywhere.

    >>> weakest_profile("laplace", 1.0).delta_for_epsilon(1.0)
    0.0
    >>> weakest_profile("discrete_laplace", 1.0).delta_for_epsilon(1.0)
    0.0
    """
    family = check_choice(family, "family", ("gaussian", "laplace", *DISCRETE_FAMILIES))
    epsilon = check_epsilon(epsilon, "epsilon", allow_zero=False)
    delta = check_delta(delta, "delta")
    sensitivity = check_positive(sensitivity, "sensitivity")
    if family in ("gaussian", "discrete_gaussian", "binomial") and delta == 0:
        raise value_error("delta", delta, f"> 0 for the {family} family",
                          "it is not epsilon-DP for any finite epsilon")
    if family in DISCRETE_FAMILIES:
        if sensitivity != int(sensitivity):
            raise value_error("sensitivity", sensitivity, "a positive integer",
                              f"family={family!r} shifts an integer query")
        return _weakest_integer_profile(family, epsilon, delta, int(sensitivity))
    if family == "gaussian":
        # dpverify.accountants loads the PLD machinery (scipy.signal, ~0.35 s), which
        # `import dpverify.auditing` should not pay for
        from dpverify.accountants.calibrate import analytic_gaussian_sigma  # deferred: heavy

        return gaussian_privacy_profile(analytic_gaussian_sigma(epsilon, delta,
                                                                sensitivity=sensitivity),
                                        sensitivity=sensitivity)
    scale = sensitivity / (epsilon - 2 * math.log1p(-delta))
    if not math.isfinite(scale):
        raise value_error("epsilon", epsilon, "large enough for a finite Laplace scale",
                          f"sensitivity={sensitivity!r} / epsilon overflows")
    return laplace_privacy_profile(scale, sensitivity=sensitivity)


def _weakest_integer_profile(family: str, epsilon: float, delta: float, sensitivity: int) -> Any:
    """:func:`weakest_profile` of the integer families (exact profiles, verified calibration)."""
    if family == "binomial":
        # dpverify.accountants is heavy to import (see weakest_profile)
        from dpverify.accountants.calibrate import min_binomial_trials  # deferred: heavy

        mechanism: Any = BinomialNoise(min_binomial_trials(epsilon, delta,
                                                           sensitivity=sensitivity))
    else:
        def meets(parameter: float) -> bool:
            delta_of = delta_function(family, parameter, sensitivity)
            return bool(delta_of(mpmath.mpf(epsilon)) <= delta)

        high = sensitivity / epsilon  # the pure-DP scale, or a start for sigma
        while not meets(high):
            high *= 2
            if high > 1e90:
                raise value_error("epsilon", epsilon, "large enough for a finite noise scale")
        low = high / 2
        while meets(low) and low > 1e-90:
            low /= 2
        parameter = bisect_passing(meets, low, high, rtol=1e-10) if not meets(low) else low
        mechanism = DiscreteLaplace(parameter) if family == "discrete_laplace" else \
            DiscreteGaussian(parameter)
    return privacy_map(mechanism, sensitivity=sensitivity, target=PrivacyProfile)
