"""DP-SGD accounting: ε of Poisson-subsampled Gaussian steps, and the noise multiplier for a budget.

Each step of DP-SGD releases a sum over a Poisson sample (rate q) of records
clipped to ℓ2 norm 1, plus ``N(0, σ²)`` noise; the relation is add/remove.
:func:`dp_sgd_epsilon` bounds ε after ``steps`` such steps, by PLD (pessimistic
connect-the-dots grid) or RDP (rigorous float moments, tight conversion);
:func:`min_noise_multiplier` is its inverse, the smallest σ meeting (ε, δ),
returned as the verified passing end of a bracket
(:func:`~dpverify.accountants.calibrate._search.root_passing`).

The PLD grid is scaled to the mechanism: ``value_discretization_interval=None``
means 1/:data:`POINTS_PER_STANDARD_DEVIATION` of the standard deviation of one
step's privacy loss. Connect-the-dots keeps ``E[e^{−L}]`` and adds a variance of
about ``h²/6`` per step, so ε exceeds its exact value by a relative
``≈ 0.09 (σ_L/h)²``, independently of the number of steps (measured over
σ ∈ [0.8, 2], q ∈ [0.004, 0.05], 500–14,062 steps: 0.9e-4 at 30 points,
0.6e-5 at 100). 30 points keep ε within ~1e-4 of exact, within 1e-4 of
dp_accounting's PLD at its default 1e-4 grid, at a third of the cost of
100 points (``PrivacyLossDistribution.from_subsampled_gaussian``'s default).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Sequence

import mpmath
import numpy as np

from dpverify._numeric import working_precision
from dpverify._validation import (
    check_choice,
    check_delta,
    check_epsilon,
    check_increasing_sequence,
    check_positive,
    check_positive_int,
    value_error,
)
from dpverify.accountants._subsampled_gaussian_float import log_moments_upper_float
from dpverify.accountants.calibrate._noise_multiplier_search import clt_noise_seed, training_schedule
from dpverify.accountants.calibrate._search import naming, request, root_passing
from dpverify.accountants.pld.distribution import (
    DP_SGD_POINTS_PER_STANDARD_DEVIATION,
    MAX_SELF_COMPOSITIONS,
    PrivacyLossDistribution,
    dp_sgd_interval,
)
from dpverify.accountants.rdp.curves import (
    DEFAULT_ORDERS,
    SMALLEST_SAMPLED_SIGMA,
    rdp_to_dp,
    scale_rdp,
    subsampled_gaussian_rdp,
)
from dpverify.errors import CalibrationError, DpverifyValueError
from dpverify.guarantees import RDPCurve

__all__ = ["POINTS_PER_STANDARD_DEVIATION", "NOISE_MULTIPLIER_RTOL", "default_interval", "training_schedule",
           "dp_sgd_epsilon", "min_noise_multiplier"]

#: Default PLD grid: h = (standard deviation of one step's loss) / this (see the module notes).
POINTS_PER_STANDARD_DEVIATION = DP_SGD_POINTS_PER_STANDARD_DEVIATION
#: Relative precision of :func:`min_noise_multiplier` (the returned σ is within it of the smallest).
NOISE_MULTIPLIER_RTOL = 1e-4
#: The default PLD grid spacing for noise multiplier σ and rate q (see the module notes): the
#: one grid of every DP-SGD answer, the accountant's included.
default_interval = dp_sgd_interval


def _epsilon(sigma: float, delta: float, sampling_probability: float, steps: int, method: str,
             orders: Sequence[float] | None, value_discretization_interval: float | None) -> float:
    """ε of ``steps`` subsampled Gaussian steps (arguments already validated)."""
    if method == "rdp":
        step = subsampled_gaussian_rdp(sigma, sampling_probability, orders=orders)
        return rdp_to_dp(scale_rdp(step, steps), delta=delta).epsilon
    interval = value_discretization_interval
    if interval is None:
        interval = default_interval(sigma, sampling_probability)
    pld = PrivacyLossDistribution.from_subsampled_gaussian(
        sigma, sampling_probability, value_discretization_interval=interval)
    return pld.self_compose(steps).epsilon_for_delta(delta)


def _check_options(method: str, orders: Sequence[float] | None,
                   value_discretization_interval: float | None, steps: int) -> tuple[str, tuple | None]:
    method = check_choice(method, "method", ("pld", "rdp"))
    if method == "pld":  # the PLD's own limit, named by this function's parameter
        check_positive_int(steps, "steps", maximum=MAX_SELF_COMPOSITIONS,
                           instead="the PLD's loss window outgrows its FFT grid; use method='rdp' "
                                   "(its cost does not depend on steps)")
    if value_discretization_interval is not None:
        check_positive(value_discretization_interval, "value_discretization_interval")
    if orders is not None:
        orders = check_increasing_sequence(orders, "orders", low=1.0, low_closed=False)
    return method, orders


#: Orders on each side of the best one that the RDP search evaluates (see :func:`_rdp_seed`).
_ORDERS_AROUND_BEST = 8


def _rdp_seed(seed: float, epsilon: float, delta: float, q: float, steps: int,
              orders: Sequence[float], excess: Callable[..., float], described: str) -> float:
    """The RDP answer on the orders around the best one: a close seed for the full search.

    ε on a subset of the orders, estimated in floats (:func:`_float_epsilon`), costs a
    fraction of the full grid's rigorous evaluation. The integer
    orders at the seed, then the full curve at each new σ (its ε is kept in
    ``excess``'s memo for the verification), pick the best order; the subset
    around it is solved by :func:`root_passing`; repeated (at most 3 times)
    until the best order at the new σ lies inside the subset. The full search
    that follows then typically needs one more evaluation: σ / (1 + rtol) fails.
    """
    if len(orders) <= 2 * _ORDERS_AROUND_BEST + 1 or q >= 1.0:
        return seed
    log_delta = math.log(delta)
    integers = tuple(a for a in orders if float(a).is_integer()) or tuple(orders)
    sigma, chosen = seed, ()
    for attempt in range(3):
        grid = integers if attempt == 0 else orders   # first guess: the cheap integer orders
        curve = scale_rdp(subsampled_gaussian_rdp(sigma, q, orders=grid), steps)
        if attempt:
            excess(sigma, curve)
        estimates = [e + math.log1p(-1 / a) - (log_delta + math.log(a)) / (a - 1)
                     for a, e in zip(curve.orders, curve.epsilons)]
        best = grid[min(range(len(estimates)), key=estimates.__getitem__)]
        if chosen and chosen[0] < best < chosen[-1]:
            break
        index = orders.index(best)
        chosen = tuple(orders[max(0, index - _ORDERS_AROUND_BEST):index + _ORDERS_AROUND_BEST + 1])

        def subset_excess(level: float, subset: tuple[float, ...] = chosen) -> float:
            return _float_epsilon(level, delta, q, steps, subset) - epsilon

        try:   # (a subset can be infeasible: its largest order too small for δ)
            sigma = root_passing(subset_excess, sigma, rtol=NOISE_MULTIPLIER_RTOL / 8,
                                 described=described, max_evaluations=20)
        except CalibrationError:
            return seed
        sigma *= 1 + 1e-7   # float estimates: land just above the rigorous root
    return sigma


def _float_epsilon(sigma: float, delta: float, q: float, steps: int,
                   orders: tuple[float, ...]) -> float:
    """A float estimate of the RDP ε on a few orders (a search guide only, never reported): the
    moments of :func:`~dpverify.accountants._subsampled_gaussian_float.log_moments_upper_float`
    and the tight conversion, without rounding or the mpmath fallback (``inf`` where it fails)."""
    alphas = np.asarray(orders)
    with np.errstate(all="ignore"):
        rdp = steps * log_moments_upper_float(q, min(sigma, 1e12), orders) / (alphas - 1)
        values = rdp + np.log1p(-1 / alphas) - (math.log(delta) + np.log(alphas)) / (alphas - 1)
    values = values[np.isfinite(values)]
    return float(values.min()) if len(values) else math.inf


def dp_sgd_epsilon(*, noise_multiplier: float, delta: float,
                   sampling_probability: float | None = None, steps: int | None = None,
                   method: str = "pld", orders: Sequence[float] | None = None,
                   value_discretization_interval: float | None = None,
                   epochs: float | None = None, dataset_size: int | None = None,
                   batch_size: int | None = None) -> float:
    """ε at ``delta`` of ``steps`` Poisson-subsampled Gaussian steps (DP-SGD, add/remove relation).

    Keyword arguments only, named as in :func:`min_noise_multiplier` (its inverse), so
    that ε and δ cannot be swapped by position. Give ``sampling_probability`` and
    ``steps``, or the training-loop view ``dataset_size``, ``batch_size`` and
    ``epochs`` (or ``steps``), read as :func:`min_noise_multiplier` reads them.

    Parameters
    ----------
    noise_multiplier : float
        σ, the noise standard deviation over the clipping norm, > 0.
    delta : float
        Target δ in (0, 1).
    sampling_probability : float
        Poisson sampling rate q in (0, 1].
    steps : int
        Number of steps.
    epochs, dataset_size, batch_size
        The schedule as a training loop states it: ``q = batch_size / dataset_size``,
        ``steps = ⌈epochs · dataset_size / batch_size⌉`` (computed exactly).
    method : {"pld", "rdp"}
        ``"pld"``: a pessimistic connect-the-dots PLD self-composed by one FFT
        (grid: see the module notes; an explicit ``value_discretization_interval``
        is honoured). ``"rdp"``: the Rényi curve at ``orders`` (default
        :data:`~dpverify.accountants.rdp.curves.DEFAULT_ORDERS`, fractional orders
        included, evaluated in floats with a proven error bound) and the tight
        RDP → (ε, δ) conversion.

    Returns
    -------
    float
        An upper bound on ε, rounded up. The forward twin of
        :func:`min_noise_multiplier` (same accounting, same defaults). At q =
        256/60000, 14,062 steps, σ = 1.1, δ = 1e-5: 2.38185 by PLD in ~0.03 s
        of CPU (exact ≈ 2.38163; dp_accounting's PLD at its default grid
        2.38169), 2.59656 by RDP.

    Notes
    -----
    **Soundness:** PLD with pessimistic discretisation and rigorous float error
    bounds (``docs/proofs/pld.md``), or the RDP curve of Mironov, Talwar & Zhang
    2019 converted by :func:`~dpverify.accountants.rdp.curves.rdp_to_dp`; rounded up.

    **One answer.** The PLD is discretised on
    :func:`~dpverify.accountants.pld.dp_sgd_interval` (1/30 of one step's loss
    standard deviation), as :class:`~dpverify.accountants.accountant.ledger.PrivacyAccountant`
    and the CLI's ``account dp-sgd`` and ``plan dp-sgd`` do: all report this
    number for the same steps. It is an upper bound on the exact ε (about 1e-4
    relative above it); the RDP answer is a looser upper bound.

    Examples
    --------
    >>> sigma = min_noise_multiplier(epsilon=1.0, delta=1e-5, sampling_probability=0.01,
    ...                              steps=100, method="rdp")
    >>> dp_sgd_epsilon(noise_multiplier=sigma, delta=1e-5, sampling_probability=0.01,
    ...                steps=100, method="rdp") <= 1.0
    True
    >>> dp_sgd_epsilon(noise_multiplier=1.1, delta=1e-5, dataset_size=60000, batch_size=256,
    ...                epochs=1) == dp_sgd_epsilon(noise_multiplier=1.1, delta=1e-5,
    ...                                            sampling_probability=256 / 60000, steps=235)
    True
    """
    sigma = check_positive(noise_multiplier, "noise_multiplier")
    delta = check_delta(delta, allow_zero=False)
    sampling_probability, steps = training_schedule(sampling_probability, steps, epochs,
                                                     dataset_size, batch_size)
    method, orders = _check_options(method, orders, value_discretization_interval, steps)
    if method == "rdp":
        smallest = math.sqrt(min(DEFAULT_ORDERS if orders is None else orders) / 2) / math.sqrt(
            sys.float_info.max)
        if sigma < smallest:
            raise value_error("noise_multiplier", sigma, f">= {smallest:.3g} for method='rdp'",
                              "below it every Rényi ε of one step, α/(2σ²), exceeds the float "
                              "range (no privacy)")
    with naming(request(noise_multiplier=sigma, delta=delta,
                        sampling_probability=sampling_probability, steps=steps, method=method)):
        return _epsilon(sigma, delta, sampling_probability, steps, method, orders,
                        value_discretization_interval)


def _check_noise_needed(delta: float, sampling_probability: float, steps: int,
                        given: str = "") -> None:
    """Refuse a DP-SGD calibration whose budget holds with no noise at all.

    With Poisson sampling a given record takes part in some step with probability
    ``1 − (1 − q)^T``; otherwise both neighbouring runs have the same law, so the
    total variation between them is at most that, and ``(0, δ)``-DP holds with
    any noise (even none) once it is ``<= δ``. No smallest σ > 0 exists then.
    """
    with working_precision():
        participation = -mpmath.expm1(steps * mpmath.log1p(-mpmath.mpf(sampling_probability)))
        if participation * (1 + mpmath.mpf(10) ** -30) <= delta:
            raise DpverifyValueError(
                f"{given}sampling_probability={sampling_probability!r}; with steps={steps} it "
                f"samples a given record at all with probability 1 - (1 - q)^steps = "
                f"{mpmath.nstr(participation, 3)} <= delta={delta!r}: every noise multiplier, "
                f"even 0, meets (epsilon, delta), so there is no smallest one to calibrate "
                f"(sampling_probability must exceed about delta/steps = {delta / steps:.3g})")


def _unsampled_rdp_noise(epsilon: float, delta: float, steps: int, order: float) -> float:
    """σ at which ``steps`` unsampled Gaussians meet ε through order ``order`` alone (a
    float estimate: ``steps·α/(2σ²) + log((α−1)/α) − (log δ + log α)/(α − 1) = ε``), or inf."""
    conversion = math.log1p(-1 / order) - (math.log(delta) + math.log(order)) / (order - 1)
    room = epsilon - conversion
    return math.sqrt(steps * order / 2) / math.sqrt(room) if room > 0 else math.inf


def _zero_epsilon_seed(meets_at_smallest_order: Callable[[float], bool]) -> float:
    """Seed for a target below every order's conversion term: only ε = 0 meets it, which
    :func:`~dpverify.accountants.rdp.curves.rdp_to_dp` gives when the smallest order's value is below
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


def min_noise_multiplier(*, epsilon: float, delta: float,
                         sampling_probability: float | None = None,
                         steps: int | None = None, method: str = "pld",
                         orders: Sequence[float] | None = None,
                         value_discretization_interval: float | None = None,
                         epochs: float | None = None, dataset_size: int | None = None,
                         batch_size: int | None = None) -> float:
    """Smallest noise multiplier σ for ``steps`` Poisson-subsampled Gaussian steps (DP-SGD).

    Keyword arguments only, named as in :func:`dp_sgd_epsilon` (its forward twin).
    Give either ``sampling_probability`` and ``steps``, or the training-loop
    view ``dataset_size``, ``batch_size`` (expected) and ``epochs`` or ``steps``:
    then ``q = batch_size / dataset_size`` and ``steps = ⌈epochs ·
    dataset_size / batch_size⌉`` (computed exactly; TF-Privacy's
    ``compute_dp_sgd_privacy`` and ``plan dp-sgd`` count so; Opacus's
    ``get_noise_multiplier`` rounds down, one step fewer when the product is
    fractional).

    Each candidate σ is evaluated exactly as :func:`dp_sgd_epsilon` does
    (``method``, ``orders``, ``value_discretization_interval`` as there). The
    search starts from the central-limit (Gaussian DP) approximation, brackets
    the answer by growing steps, narrows it with scipy's ``toms748`` and
    returns the smallest evaluated σ that met the budget, next to an
    evaluated σ within :data:`NOISE_MULTIPLIER_RTOL` below it that failed
    (finishing by :func:`~dpverify._numeric.bisect_passing` if needed):
    typically 6–9 evaluations. At q = 256/60000, 14,062 steps, ε = 3, δ =
    1e-5: σ = 0.96854 by PLD, 1.01402 by RDP.

    Refused (``ValueError`` naming ``sampling_probability``) when a record takes
    part in some step with probability ``1 − (1 − q)^T <= δ``: then every σ, even 0,
    meets (ε, δ) (the two runs differ in total variation by at most that), so no
    smallest σ > 0 exists. With ``method="rdp"``, a target below every order's
    conversion term is met only through ε = 0 (the total-variation bound of
    :func:`~dpverify.accountants.rdp.curves.rdp_to_dp`) and is seeded from the smallest
    order alone; one so large that the answer lies below 1e-60 starts from the
    unsampled Gaussian's answer (the curve there, see
    :func:`~dpverify.accountants.rdp.curves.subsampled_gaussian_rdp`).

    Soundness: the returned σ is verified to meet (ε, δ) under ``method``
    (``"pld"`` or ``"rdp"``); it is within 1e-4 relative of the smallest such σ
    (for a bound monotone in σ). The search is bounded (σ in (1e-300, 1e12),
    at most 60 evaluations before the bisection) and otherwise refused with a
    :class:`~dpverify.errors.CalibrationError` naming the arguments.

    >>> sigma = min_noise_multiplier(epsilon=1.0, delta=1e-5, sampling_probability=0.01, steps=100,
    ...                              method="rdp")
    >>> 0.5 < sigma < 1.5
    True
    """
    epsilon = check_epsilon(epsilon, allow_zero=False)
    delta = check_delta(delta, allow_zero=False)
    sampling_probability, steps = training_schedule(sampling_probability, steps, epochs,
                                                     dataset_size, batch_size)
    method, orders = _check_options(method, orders, value_discretization_interval, steps)

    memo: dict[float, float] = {}

    def excess(sigma: float, curve: RDPCurve | None = None) -> float:
        """Bound minus budget at σ (memoised; ``curve``: the full RDP curve, already computed)."""
        if sigma not in memo:
            memo[sigma] = (rdp_to_dp(curve, delta=delta).epsilon if curve is not None
                           else _epsilon(sigma, delta, sampling_probability, steps, method,
                                         orders, value_discretization_interval)) - epsilon
        return memo[sigma]

    described = request(epsilon=epsilon, delta=delta, sampling_probability=sampling_probability,
                        steps=steps, method=method)
    _check_noise_needed(delta, sampling_probability, steps,
                        "" if dataset_size is None else
                        f"dataset_size={dataset_size!r} and batch_size={batch_size!r} give ")
    grid = DEFAULT_ORDERS if orders is None else orders
    tiny = _unsampled_rdp_noise(epsilon, delta, steps, grid[0]) if method == "rdp" else math.inf
    floor = min(math.log1p(-1 / a) - (math.log(delta) + math.log(a)) / (a - 1) for a in grid)
    try:
        if tiny < SMALLEST_SAMPLED_SIGMA:
            # the curve is the unsampled Gaussian's there (subsampled_gaussian_rdp): start at
            # its answer for the smallest order, which dominates at such ε
            seed = tiny
        elif method == "rdp" and epsilon < floor:
            # below every order's conversion term only ε = 0 (total variation) meets the target
            seed = _zero_epsilon_seed(lambda sigma: _epsilon(
                sigma, delta, sampling_probability, steps, method, grid[:1], None) <= 0)
        else:
            seed = clt_noise_seed(epsilon, delta, sampling_probability, steps)
            if method == "rdp":
                seed = _rdp_seed(seed, epsilon, delta, sampling_probability, steps, grid, excess,
                                 described)
        return root_passing(excess, seed, rtol=NOISE_MULTIPLIER_RTOL, described=described)
    except CalibrationError as error:
        raise CalibrationError(f"no noise multiplier meets epsilon={epsilon!r}, "
                               f"delta={delta!r}: {error}") from error
