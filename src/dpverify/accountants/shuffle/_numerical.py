"""Numerical shuffle-amplification bounds: FMT's clones and the variation ratio.

Both bounds are the hockey-stick divergence of one "clone" pair, computed with
an added error bound by :mod:`dpverify.accountants.shuffle._clone_kernel`; only the
clone probability ``ρ`` differs:

* ``fmt_numerical_*``: Feldman, McMillan and Talwar (FOCS 2021), Thm 3.2 and
  Sec. 3 ("hiding among the clones"): any ε0-LDP randomizer, replace-one
  neighbours, ``ρ = e^{-ε0}``;
* ``variation_ratio_*``: Wang et al., "Unified, Tight and Fast Privacy
  Amplification in the Shuffle Model of Differential Privacy", with the
  (p, β, q) parameters of k-ary randomized response, ``p = q = e^{ε0}``,
  ``β = (e^{ε0} − 1)/(e^{ε0} + k − 1)`` (binary: ``tanh(ε0/2)``), hence
  clone weights ``1/(e^{ε0} + k − 1)`` for each of the two values,
  ``ρ = 2/(e^{ε0} + k − 1)``, and the victim's third component (weight
  ``(k − 2)/(e^{ε0} + k − 1)``, the same under both inputs) factored out.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

import mpmath

from dpverify._numeric import regula_falsi_passing, round_up, working_precision
from dpverify._validation import (
    check_delta,
    check_epsilon,
    check_int_at_least,
    check_positive_int,
    value_error,
)
from dpverify.accountants.shuffle._clone_kernel import clone_delta_upper

__all__ = [
    "fmt_numerical_delta",
    "fmt_numerical_epsilon",
    "variation_ratio_delta",
    "variation_ratio_epsilon",
]

#: Relative tolerance of the ε searches (the passing end is returned).
EPSILON_RTOL = 1e-5


#: Largest batch the numerical bounds accept: their arrays grow linearly with n
#: (about 8·n bytes), so 10^7 users take ~100 MB; the closed forms cover larger n.
MAX_USERS = 10**7


def check_users(n: int) -> int:
    """Validate the batch size of a numerical bound: an integer in [1, MAX_USERS]."""
    n = check_positive_int(n, "users")
    if n > MAX_USERS:
        raise value_error("users", n, f"at most {MAX_USERS} for the numerical bounds",
                          "use a closed-form bound (e.g. 'fmt2021') for larger batches")
    return n


def _check_common(local_epsilon: float, n: int) -> tuple[float, int]:
    return check_epsilon(local_epsilon, "local_epsilon"), check_users(n)


def _fmt_rho(local_epsilon: float) -> mpmath.mpf:
    with working_precision(30):
        return mpmath.exp(-mpmath.mpf(local_epsilon))


def _randomized_response_rho(local_epsilon: float, k: int) -> mpmath.mpf:
    """Clone probability 2/(e^{ε0} + k − 1) of k-ary randomized response (k = 2: binary)."""
    with working_precision(30):
        return 2 / (mpmath.exp(mpmath.mpf(local_epsilon)) + k - 1)


def _randomized_response_weight(local_epsilon: float, k: int) -> mpmath.mpf:
    """(e^{ε0} + 1)/(e^{ε0} + k − 1): the victim's mass on its two informative values.

    Rounded up (it multiplies an upper bound on δ).
    """
    with working_precision(30):
        growth = mpmath.exp(mpmath.mpf(local_epsilon))
        return (growth + 1) / (growth + k - 1) * (1 + mpmath.mpf(10) ** -25)


def _epsilon_search(local_epsilon: float, n: int, delta: float,
                    delta_upper: Callable[[float], mpmath.mpf]) -> float:
    """Smallest ε (to :data:`EPSILON_RTOL`, passing end) with ``delta_upper(ε) <= delta``.

    ``delta_upper`` is non-increasing in ε and ε0 always passes (the privacy
    loss of the clone pair never exceeds ε0). A bracket ``[lo, hi]`` (``lo``
    fails, ``hi`` passes) is found by dividing ε0 by 8, then narrowed by
    :func:`~dpverify._numeric.regula_falsi_passing` on
    ``ln δ_upper(e^x) − ln δ`` in ``x = ln ε`` (about ten evaluations where
    bisection on ``[0, ε0]`` takes 25). The returned ε has been evaluated and
    meets δ.
    """
    if local_epsilon == 0.0:  # a 0-LDP randomizer's output ignores its input
        return 0.0
    target = mpmath.log(delta)

    @functools.cache  # the bracket ends are evaluated once
    def excess(log_epsilon: float) -> float:
        # exp(log(ε0)) may fall an ulp below ε0, where δ is not yet 0: ε0 itself always passes
        at_top = log_epsilon >= math.log(local_epsilon)
        value = delta_upper(local_epsilon if at_top else math.exp(log_epsilon))
        if not value > 0:
            return -math.inf
        gap = mpmath.log(value) - target  # its sign is the verdict: keep it through float()
        return float(gap) if gap <= 0 else max(float(gap), math.ulp(0.0))

    hi, lo = local_epsilon, local_epsilon / 8
    while excess(math.log(lo)) <= 0:
        if lo < 1e-12:
            return 0.0 if delta_upper(0.0) <= delta else round_up(lo)
        hi, lo = lo, lo / 8
    log_epsilon = regula_falsi_passing(excess, math.log(lo), math.log(hi), atol=EPSILON_RTOL,
                                       rtol=0.0)
    return round_up(math.exp(log_epsilon))


def fmt_numerical_delta(local_epsilon: float, n: int, epsilon: float) -> mpmath.mpf:
    """Upper bound on δ(ε) after shuffling n ε0-LDP reports (FMT's numerical bound).

    .. math::

        δ(ε) = \\sum_{c=0}^{n-1} \\binom{n-1}{c} e^{-cε_0}(1-e^{-ε_0})^{n-1-c}
               D_{e^{ε}}(P_c \\,\\|\\, Q_c),

    with ``P_c = (A + Δ, c - A + 1 - Δ)``, ``Q_c = (A + 1 - Δ, c - A + Δ)``,
    ``A ~ Bin(c, 1/2)``, ``Δ ~ Bern(e^{ε0}/(e^{ε0}+1))``.

    Parameters
    ----------
    local_epsilon
        ε0 > 0 of every local randomizer (any ε0-LDP randomizer).
    n
        Number of users whose reports are shuffled, n >= 1.
    epsilon
        ε >= 0 at which δ is wanted.

    Returns
    -------
    mpmath.mpf
        An upper bound on FMT's δ(ε); 0 for ε >= ε0.

    Notes
    -----
    Feldman, McMillan, Talwar (FOCS 2021), Thm 3.2 / Sec. 3 ("clones").
    **Soundness**: upper bound, replace-one neighbours, valid for every n >= 1
    and ε0 > 0 (no regime condition). The c-window's Chernoff mass, the
    geometric bounds on the inner tails, the grouping of ``c`` (``D_c`` is
    non-increasing in ``c`` by post-processing) and a counted float error are
    all added, see :mod:`dpverify.accountants.shuffle._clone_kernel`.

    Examples
    --------
    >>> float(fmt_numerical_delta(2.0, 10**4, 0.2)) < 1e-6
    True
    """
    local_epsilon, n = _check_common(local_epsilon, n)
    epsilon = check_epsilon(epsilon)
    return clone_delta_upper(local_epsilon, n, epsilon, _fmt_rho(local_epsilon))


def fmt_numerical_epsilon(local_epsilon: float, n: int, delta: float) -> float:
    """Upper bound on ε after shuffling n ε0-LDP reports, FMT's numerical bound.

    The smallest ε with :func:`fmt_numerical_delta` ``<= delta``, by
    :func:`~dpverify._numeric.bisect_passing` on ``[0, ε0]`` to 1e-5 relative;
    the passing end is returned, rounded up.

    Notes
    -----
    **Soundness**: upper bound (the returned ε has been evaluated and meets δ),
    replace-one neighbours, rounded up; valid for all n >= 1, ε0 > 0, δ in (0, 1).

    Examples
    --------
    >>> 0.0129 < fmt_numerical_epsilon(2.0, 10**6, 1e-6) < 0.0131
    True
    """
    local_epsilon, n = _check_common(local_epsilon, n)
    delta = check_delta(delta, allow_zero=False)
    rho = _fmt_rho(local_epsilon)
    return _epsilon_search(local_epsilon, n, delta,
                           lambda e: clone_delta_upper(local_epsilon, n, e, rho))


def variation_ratio_delta(local_epsilon: float, n: int, epsilon: float, *,
                          k: int = 2) -> mpmath.mpf:
    """Upper bound on δ(ε) of shuffled k-ary randomized response, variation-ratio bound.

    The (p, β, q) reduction of Wang et al. for k-ary RR (k = 2: binary), with
    ``p = q = e^{ε0}`` and ``β = (e^{ε0} − 1)/(e^{ε0} + k − 1)``:

    .. math::

        δ(ε) \\le \\frac{e^{ε_0} + 1}{e^{ε_0} + k - 1}\\,
            D_{\\mathrm{clone}}\\bigl(ε_0, n, ε;\\ ρ = \\tfrac{2}{e^{ε_0} + k - 1}\\bigr)

    with ``D_clone`` the clone pair of :func:`fmt_numerical_delta` (there
    ``ρ = e^{-ε0}``).

    Parameters
    ----------
    local_epsilon
        ε0 of the randomized response (binary: ln((2 − f)/f) for randomization probability f).
    n, epsilon
        As in :func:`fmt_numerical_delta`.
    k
        Number of values of the randomized response, >= 2.

    Notes
    -----
    **Soundness** (why randomized response only): k-ary RR outputs each of
    the values 0 and 1 with probability at least ``1/(e^{ε0} + k − 1)``
    whatever its input. So every other user is independently a clone of the
    value 0 or of the value 1 with that probability each, and otherwise
    draws from a law that depends only on its own input; the shuffled
    multiset is a post-processing of the clone counts, the victim's report
    and those independent draws. For neighbouring victim inputs 0 and 1, the
    victim reports one of the other k − 2 values with the same probability
    ``t = (k − 2)/(e^{ε0} + k − 1)`` under both, so the view is a mixture
    with a common part of weight t, and by joint convexity of the
    hockey-stick divergence δ is at most ``1 − t`` times the divergence of
    the informative part, where the victim reports 0 w.p.
    ``e^{ε0}/(e^{ε0} + 1)``: the clone pair. Upper bound, replace-one
    neighbours, all n >= 1. For generic ε0-LDP randomizers the paper's
    reduction lumps the victim's third component with the others' outputs,
    which is not a post-processing in general (FMT 2023's erratum restricts
    the same "stronger clone" statement): use :func:`fmt_numerical_delta`.

    Examples
    --------
    >>> variation_ratio_delta(2.0, 10**4, 0.1) <= fmt_numerical_delta(2.0, 10**4, 0.1)
    True
    """
    local_epsilon, n = _check_common(local_epsilon, n)
    epsilon = check_epsilon(epsilon)
    k = check_int_at_least(k, "k", 2)
    with working_precision():
        return _randomized_response_weight(local_epsilon, k) * clone_delta_upper(
            local_epsilon, n, epsilon, _randomized_response_rho(local_epsilon, k))


def variation_ratio_epsilon(local_epsilon: float, n: int, delta: float, *, k: int = 2) -> float:
    """Upper bound on ε of shuffled k-ary randomized response, variation-ratio bound.

    Smallest ε with :func:`variation_ratio_delta` ``<= delta`` (search to
    1e-5 relative, passing end, rounded up). Soundness as there.

    Examples
    --------
    >>> 0.0094 < variation_ratio_epsilon(2.0, 10**6, 1e-6) < 0.0097
    True
    """
    local_epsilon, n = _check_common(local_epsilon, n)
    delta = check_delta(delta, allow_zero=False)
    k = check_int_at_least(k, "k", 2)
    weight, rho = _randomized_response_weight(local_epsilon, k), _randomized_response_rho(local_epsilon, k)
    return _epsilon_search(local_epsilon, n, delta,
                           lambda e: weight * clone_delta_upper(local_epsilon, n, e, rho))
