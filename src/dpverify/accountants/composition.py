"""Composition theorems for pure and approximate differential privacy.

Three ways to bound the privacy of running several (ε, δ)-DP mechanisms on the
same data, from loosest to tightest:

* :func:`basic_composition` — the parameters add up (any mix of guarantees);
* :func:`advanced_composition` — Dwork–Rothblum–Vadhan: ε grows like √k;
* :func:`optimal_composition` — Kairouz–Oh–Viswanath: the exact optimal bound
  for k mechanisms with the same (ε, δ), with :func:`optimal_composition_delta`
  giving its δ at a chosen ε.

All three hold for *adaptive* composition (each mechanism may be chosen after
seeing the previous outputs), under whatever neighbouring relation the parts
are private for (the same one for all of them). Composed ε and δ are upper
bounds, computed exactly (rationals) or in mpmath and rounded up.
For other guarantee types use the matching accountant: ``compose_zcdp`` for
:class:`~dpverify.guarantees.ZCDP`, ``compose_rdp`` for
:class:`~dpverify.guarantees.RDPCurve`, the PLD accountant for privacy profiles.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from fractions import Fraction

import mpmath

from dpverify._deprecation import renamed_parameters
from dpverify._numeric import bisect_passing, round_up, working_precision
from dpverify._validation import (
    check_delta,
    check_epsilon,
    check_nonempty_items,
    check_positive_int,
    check_probability,
    value_error,
)
from dpverify.accountants._kfold_randomized_response import optimal_delta, optimal_epsilon
from dpverify.errors import DpverifyTypeError, UnsupportedError
from dpverify.guarantees import ZCDP, ApproxDP, PrivacyProfile, PureDP, RDPCurve

__all__ = [
    "basic_composition",
    "advanced_composition",
    "optimal_composition",
    "optimal_composition_delta",
    "max_step_epsilon",
]

#: Relative error bound of the mpmath evaluation of the advanced-composition formula.
_FORMULA_RELATIVE_ERROR = 1e-40

_OTHER_ACCOUNTANTS = {
    ZCDP: "compose ZCDP guarantees with dpverify.accountants.zcdp.compose_zcdp",
    RDPCurve: "compose RDPCurve guarantees with dpverify.accountants.rdp.compose_rdp",
    PrivacyProfile: "compose privacy profiles with the PLD accountant (dpverify.accountants.pld)",
}


def _checked_guarantees(guarantees: Iterable[PureDP | ApproxDP]) -> tuple[PureDP | ApproxDP, ...]:
    """Return the guarantees as a non-empty tuple of PureDP/ApproxDP values."""
    items = check_nonempty_items(guarantees, "guarantees", single=(PureDP, ApproxDP),
                                 example="[PureDP(0.5), ApproxDP(0.1, 1e-6)]")
    for position, item in enumerate(items):
        if isinstance(item, (PureDP, ApproxDP)):
            continue
        hint = _OTHER_ACCOUNTANTS.get(type(item))
        if hint is not None:
            raise UnsupportedError(
                f"basic_composition composes PureDP and ApproxDP guarantees only; "
                f"guarantees[{position}] is {type(item).__name__}: {hint}")
        raise DpverifyTypeError(
            f"guarantees[{position}]={item!r} must be a PureDP or ApproxDP guarantee, "
            f"not {type(item).__name__}")
    return items


def _finite_epsilon(value: Fraction | mpmath.mpf, what: str) -> float:
    """Round a composed ε up to a float, refusing an overflow to infinity."""
    exact = isinstance(value, Fraction)
    epsilon = round_up(value, relative_error=0.0 if exact else _FORMULA_RELATIVE_ERROR)
    if not math.isfinite(epsilon):
        raise value_error("epsilon", float(mpmath.mpf(value.numerator) / value.denominator)
                          if exact else value, "small enough for a finite composed epsilon", what)
    return epsilon


def basic_composition(guarantees: Iterable[PureDP | ApproxDP]) -> PureDP | ApproxDP:
    """Compose pure and approximate DP guarantees by adding their parameters.

    Parameters
    ----------
    guarantees
        A non-empty sequence of :class:`PureDP` and :class:`ApproxDP` values
        (they may differ from one another).

    Returns
    -------
    PureDP or ApproxDP
        ``PureDP(Σ ε_i)`` if every part is pure, else ``ApproxDP(Σ ε_i, Σ δ_i)``.

    Raises
    ------
    UnsupportedError
        For a ZCDP, RDPCurve or PrivacyProfile part; the message names the
        accountant that composes it.
    TypeError
        If ``guarantees`` is not a sequence of guarantees.
    ValueError
        If ``guarantees`` is empty, if ``Σ δ_i >= 1`` (a vacuous guarantee)
        or if ``Σ ε_i`` overflows.

    Notes
    -----
    .. math:: ε = \\sum_i ε_i, \\qquad δ = \\sum_i δ_i

    (Dwork, Kenthapadi, McSherry, Mironov and Naor 2006; Dwork and Roth 2014,
    Thm. 3.16). Pure parts count as δ_i = 0.

    **Soundness**: upper bound, for adaptive composition of mechanisms that are
    private under the same neighbouring relation. The sums are exact (the
    floats are added as rationals) and rounded up to floats.

    References
    ----------
    .. [1] C. Dwork and A. Roth, "The Algorithmic Foundations of Differential
       Privacy", Found. Trends Theor. Comput. Sci. 9 (2014), Thm. 3.16.

    Examples
    --------
    >>> basic_composition([PureDP(0.5), PureDP(0.25)])
    PureDP(epsilon=0.75)
    >>> basic_composition([PureDP(0.5), ApproxDP(epsilon=1.0, delta=1e-6)])
    ApproxDP(epsilon=1.5, delta=1e-06)
    """
    items = _checked_guarantees(guarantees)
    epsilon = _finite_epsilon(sum(Fraction(g.epsilon) for g in items), "the parts' epsilons add up")
    if all(isinstance(g, PureDP) for g in items):
        return PureDP(epsilon)
    exact_delta = sum(Fraction(g.delta) for g in items if isinstance(g, ApproxDP))
    delta = round_up(exact_delta)
    if not delta < 1:
        raise value_error("guarantees", items, "of total delta below 1",
                          f"the deltas add up to {float(exact_delta)!r}: the composition is vacuous")
    return ApproxDP(epsilon=epsilon, delta=delta)


@renamed_parameters(k="count")
def advanced_composition(epsilon: float, delta: float, count: int, *,
                         delta_slack: float) -> ApproxDP:
    """Advanced composition of k (ε, δ)-DP mechanisms (Dwork–Rothblum–Vadhan).

    Parameters
    ----------
    epsilon, delta
        The guarantee (ε, δ) of each of the ``count`` mechanisms; ε >= 0 finite,
        δ in [0, 1).
    count
        Number of mechanisms k, an integer >= 1.
    delta_slack
        The extra failure probability δ' in (0, 1) traded for the √k growth.

    Returns
    -------
    ApproxDP
        ``(ε', k δ + δ')`` with ε' as below.

    Raises
    ------
    ValueError, TypeError
        For invalid arguments (naming the parameter), if ``k δ + δ' >= 1``
        (vacuous) or if ε' overflows.

    Notes
    -----
    .. math::

        ε' = ε \\sqrt{2 k \\ln(1/δ')} + k ε (e^{ε} - 1), \\qquad
        δ_{total} = k δ + δ'

    (Dwork, Rothblum and Vadhan 2010, Thm. III.3; Dwork and Roth 2014,
    Thm. 3.20). This is the form cited by the bandit papers; some later
    statements halve the second term. It does not always beat
    :func:`basic_composition` (``k ε``): for large ε or small k compare both.
    :func:`optimal_composition` with ``target_delta = k δ + δ'`` is never larger.

    **Soundness**: upper bound, for *adaptive* composition of k mechanisms
    that are (ε, δ)-DP under the same neighbouring relation. ε' is evaluated
    in mpmath and rounded up (allowing a 1e-40 relative evaluation error);
    ``k δ + δ'`` is computed exactly and rounded up.

    References
    ----------
    .. [1] C. Dwork, G. N. Rothblum and S. Vadhan, "Boosting and Differential
       Privacy", FOCS 2010.
    .. [2] C. Dwork and A. Roth, "The Algorithmic Foundations of Differential
       Privacy" (2014), Thm. 3.20.

    Examples
    --------
    >>> g = advanced_composition(0.1, 1e-6, 100, delta_slack=1e-6)
    >>> round(g.epsilon, 6), round(g.delta, 12)
    (6.308231, 0.000101)
    """
    epsilon, delta, k = _check_homogeneous(epsilon, delta, count)
    delta_slack = check_probability(delta_slack, "delta_slack", open_low=True, open_high=True)
    exact_delta = k * Fraction(delta) + Fraction(delta_slack)
    total_delta = round_up(exact_delta)
    if not total_delta < 1:
        raise value_error("delta_slack", delta_slack, f"below 1 - count*delta = {1 - k * delta!r}",
                          "count*delta + delta_slack >= 1 would be a vacuous guarantee")
    with working_precision():
        eps = mpmath.mpf(epsilon)
        value = (eps * mpmath.sqrt(2 * k * mpmath.log(1 / mpmath.mpf(delta_slack)))
                 + k * eps * mpmath.expm1(eps))
        total_epsilon = _finite_epsilon(value, "count*epsilon*(exp(epsilon) - 1) overflows")
    return ApproxDP(epsilon=total_epsilon, delta=total_delta)


MAX_OPTIMAL_COMPOSITIONS = 10**6
"""Largest k of the exact optimal composition (its sum has k + 1 terms)."""
MAX_STEP_EPSILON_COMPOSITIONS = 10**4
"""Largest ``count`` of :func:`max_step_epsilon` (about 30 optimal compositions of count terms:
seconds at 10^4)."""
_MANY_COMPOSITIONS = ("for more compositions use advanced_composition (closed form) or the PLD "
                      "accountant: PrivacyLossDistribution.from_approx_dp(epsilon, delta)"
                      ".self_compose(k)")


def _check_homogeneous(epsilon: float, delta: float, count: int, *,
                       maximum: int | None = None) -> tuple[float, float, int]:
    """Validate the (ε, δ, count) of a homogeneous composition (count at most ``maximum``)."""
    if maximum is None:
        count = check_positive_int(count, "count")
    else:
        count = check_positive_int(count, "count", maximum=maximum, instead=_MANY_COMPOSITIONS)
    return check_epsilon(epsilon, "epsilon"), check_delta(delta, "delta"), count


@renamed_parameters(k="count")
def optimal_composition(epsilon: float, delta: float, count: int, *,
                        target_delta: float) -> ApproxDP:
    """Exact optimal k-fold composition of (ε, δ)-DP (Kairouz–Oh–Viswanath).

    Returns the smallest ε_g such that *every* adaptive composition of ``count`` = k
    (ε, δ)-DP mechanisms is (ε_g, target_delta)-DP; no smaller ε_g is valid
    for all such compositions.

    Parameters
    ----------
    epsilon, delta
        The guarantee (ε, δ) of each mechanism; ε >= 0 finite, δ in [0, 1).
    count
        Number of mechanisms k, an integer >= 1 (fast up to k ~ 10^5 and beyond).
    target_delta
        The composed δ, in (0, 1) and at least ``1 - (1 - δ)^k``.

    Returns
    -------
    ApproxDP
        ``ApproxDP(ε_g, target_delta)``, ε_g rounded up.

    Raises
    ------
    ValueError, TypeError
        For invalid arguments (naming the parameter), or if
        ``target_delta < 1 - (1 - δ)^k``: then no finite ε_g exists.

    Notes
    -----
    The composition is dominated by k-fold binary randomized response
    (Kairouz, Oh and Viswanath 2015, Thm. 3.3), whose δ at ``ε_g`` is

    .. math::

        δ_{total}(ε_g) = 1 - (1-δ)^k \\left(1 - δ_{RR}(ε_g)\\right), \\quad
        δ_{RR}(ε_g) = \\sum_{i=0}^{k} \\binom{k}{i}
        \\left[p^{k-i} q^{i} - e^{ε_g} p^{i} q^{k-i}\\right]_+,

    with ``p = e^ε/(1+e^ε)``, ``q = 1/(1+e^ε)``. At ``ε_g = (k-2i)ε`` this
    is KOV's ``δ_i``; between these grid points ``δ_RR = A - e^{ε_g} B`` is
    linear in ``e^{ε_g}``. The grid segment holding the answer is located in
    numpy log-space, confirmed by an integer bisection on mpmath evaluations of
    both neighbouring grid points, and ``A - e^{ε_g} B = 1 - (1-δ_t)/(1-δ)^k``
    is then solved in closed form. The sums run over the positive terms only,
    with a binomial recurrence and a rigorous tail bound; k = 10^5 takes well
    under a second. Proof note: ``docs/proofs/optimal_composition.md``.

    Optimal composition of *different* (ε_i, δ_i) is #P-hard (Murtagh and
    Vadhan 2016); compose those with :func:`basic_composition` or a PLD.

    **Soundness**: upper bound, exact up to rounding, for *adaptive*
    homogeneous composition under the parts' neighbouring relation. Sums are
    upper bounds (tail bound added), the closed-form root is rounded up and
    the returned float is re-checked (``δ_total <= target_delta`` with a 1e-30
    relative margin) before it is returned.

    References
    ----------
    .. [1] P. Kairouz, S. Oh and P. Viswanath, "The Composition Theorem for
       Differential Privacy", ICML 2015 (IEEE Trans. Inf. Theory 63, 2017), Thm. 3.3.
    .. [2] J. Murtagh and S. Vadhan, "The Complexity of Computing the Optimal
       Composition of Differential Privacy", TCC 2016.

    Examples
    --------
    >>> g = optimal_composition(0.1, 1e-6, 100, target_delta=2e-4)
    >>> round(g.epsilon, 6), g.delta
    (3.755203, 0.0002)
    >>> optimal_composition(0.5, 1e-3, 1, target_delta=1e-3).epsilon  # k = 1: (ε, δ) itself
    0.5
    """
    epsilon, delta, k = _check_homogeneous(epsilon, delta, count,
                                           maximum=MAX_OPTIMAL_COMPOSITIONS)
    target_delta = check_probability(target_delta, "target_delta", open_low=True, open_high=True)
    return ApproxDP(epsilon=optimal_epsilon(epsilon, delta, k, target_delta), delta=target_delta)


@renamed_parameters(k="count")
def optimal_composition_delta(epsilon: float, delta: float, count: int, *,
                              target_epsilon: float) -> float:
    """Exact optimal δ of k-fold composition of (ε, δ)-DP at a given ε (Kairouz–Oh–Viswanath).

    Parameters
    ----------
    epsilon, delta
        The guarantee (ε, δ) of each mechanism; ε >= 0 finite, δ in [0, 1).
    count
        Number of mechanisms k, an integer >= 1.
    target_epsilon
        The composed ε at which δ is wanted, >= 0 and finite.

    Returns
    -------
    float
        ``δ_total(target_epsilon)`` (see :func:`optimal_composition`), rounded up.

    Raises
    ------
    ValueError, TypeError
        For invalid arguments, naming the parameter.

    Notes
    -----
    At the grid points ``target_epsilon = (k - 2i)ε`` this equals
    Kairouz–Oh–Viswanath's (2015, Thm. 3.3)

    .. math::

        1 - (1-δ)^k (1-δ_i), \\quad δ_i = \\frac{\\sum_{l=0}^{i-1} \\binom{k}{l}
        \\left(e^{(k-l)ε} - e^{(k-2i+l)ε}\\right)}{(1+e^{ε})^k}.

    **Soundness**: upper bound on the δ of every adaptive composition of k
    (ε, δ)-DP mechanisms (same neighbouring relation), tight for k-fold
    randomized response; evaluated as a sum of positive terms in mpmath with a
    tail bound, and rounded up (1e-30 relative margin).

    References
    ----------
    .. [1] P. Kairouz, S. Oh and P. Viswanath, "The Composition Theorem for
       Differential Privacy", ICML 2015, Thm. 3.3.

    Examples
    --------
    >>> round(optimal_composition_delta(0.1, 1e-6, 100, target_epsilon=3.0), 8)
    0.00146126
    """
    epsilon, delta, k = _check_homogeneous(epsilon, delta, count,
                                           maximum=MAX_OPTIMAL_COMPOSITIONS)
    target_epsilon = check_epsilon(target_epsilon, "target_epsilon")
    return optimal_delta(epsilon, delta, k, target_epsilon)


@renamed_parameters(k="count")
def max_step_epsilon(total_epsilon: float, total_delta: float, count: int, *,
                     step_delta: float = 0.0) -> float:
    """Largest per-step ε such that ``count`` (ε, ``step_delta``)-DP steps are (total ε, δ)-DP.

    The inverse of :func:`optimal_composition` in ε (monotone: a larger per-step
    ε never composes to a smaller total), found by
    :func:`~dpverify._numeric.bisect_passing`, which returns the verified
    passing end: ``optimal_composition(result, step_delta, k, target_delta=total_delta)``
    is at most ``total_epsilon``.

    >>> step = max_step_epsilon(1.0, 1e-6, 10)
    >>> optimal_composition(step, 0.0, 10, target_delta=1e-6).epsilon <= 1.0
    True
    """
    total_epsilon = check_epsilon(total_epsilon, "total_epsilon", allow_zero=False)
    total_delta = check_delta(total_delta, "total_delta", allow_zero=False)
    k = check_positive_int(count, "count", maximum=MAX_STEP_EPSILON_COMPOSITIONS,
                           instead="each step of the search is an optimal composition of count "
                                   "terms; for more steps invert advanced_composition (closed form)")
    step_delta = check_delta(step_delta, "step_delta")
    if not 1 - (1 - step_delta) ** k < total_delta:
        raise value_error("total_delta", total_delta, f"above 1 − (1 − step_delta)^count = "
                          f"{1 - (1 - step_delta) ** k!r}")

    def meets(epsilon: float) -> bool:
        return optimal_composition(epsilon, step_delta, k, target_delta=total_delta).epsilon \
            <= total_epsilon

    if meets(total_epsilon):
        return total_epsilon
    return bisect_passing(meets, total_epsilon, 0.0, rtol=1e-10, atol=1e-300)
