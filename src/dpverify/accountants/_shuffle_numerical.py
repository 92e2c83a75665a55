"""Numerical shuffle-amplification bounds: FMT's clones and the variation ratio.

Both bounds are the hockey-stick divergence of one "clone" pair, computed with
an added error bound by :mod:`dpverify.accountants._clone_kernel`; only the
clone probability ``ρ`` differs:

* ``fmt_numerical_*``: Feldman, McMillan and Talwar (FOCS 2021), Thm 3.2 and
  Sec. 3 ("hiding among the clones"): any ε0-LDP randomizer, replace-one
  neighbours, ``ρ = e^{-ε0}``;
* ``variation_ratio_*``: Wang et al., "Unified, Tight and Fast Privacy
  Amplification in the Shuffle Model of Differential Privacy", with the
  (p, β, q) parameters of binary randomized response, ``p = q = e^{ε0}``,
  ``β = tanh(ε0/2)``, hence ``α = β/(p-1) = 1/(e^{ε0}+1)``, clone weights
  ``r = αp/q = 1/(e^{ε0}+1)`` for each of the two values and no third
  component (``1 - α - αp = 0``): ``ρ = 2/(e^{ε0}+1)``.
"""

from __future__ import annotations

import mpmath

from dpverify._numeric import bisect_passing, round_up, working_precision
from dpverify._validation import check_delta, check_epsilon, check_positive_int, value_error
from dpverify.accountants._clone_kernel import clone_delta_upper
from dpverify.errors import UnsupportedError

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
    n = check_positive_int(n, "n")
    if n > MAX_USERS:
        raise value_error("n", n, f"at most {MAX_USERS} for the numerical bounds",
                          "use a closed-form bound (e.g. 'fmt2021') for larger batches")
    return n


def _check_common(local_epsilon: float, n: int) -> tuple[float, int]:
    return check_epsilon(local_epsilon, "local_epsilon"), check_users(n)


def _fmt_rho(local_epsilon: float) -> mpmath.mpf:
    with working_precision(30):
        return mpmath.exp(-mpmath.mpf(local_epsilon))


def _binary_rr_rho(local_epsilon: float) -> mpmath.mpf:
    with working_precision(30):
        return 2 / (mpmath.exp(mpmath.mpf(local_epsilon)) + 1)


def _epsilon_search(local_epsilon: float, n: int, delta: float, rho: mpmath.mpf) -> float:
    """Smallest ε (to :data:`EPSILON_RTOL`, passing end) with ``δ_upper(ε) <= delta``."""
    def passes(epsilon: float) -> bool:
        return clone_delta_upper(local_epsilon, n, epsilon, rho) <= delta

    if local_epsilon == 0.0 or passes(0.0):  # a 0-LDP randomizer's output ignores its input
        return 0.0
    # ε0 always passes: the privacy loss of the pair never exceeds ε0.
    return round_up(bisect_passing(passes, 0.0, local_epsilon, rtol=EPSILON_RTOL,
                                   atol=1e-15))


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
    all added, see :mod:`dpverify.accountants._clone_kernel`.

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
    return _epsilon_search(local_epsilon, n, delta, _fmt_rho(local_epsilon))


def _check_randomizer(randomizer: str) -> None:
    if randomizer != "binary-rr":
        raise UnsupportedError(
            f"randomizer={randomizer!r}: the variation-ratio bound is offered only for "
            "'binary-rr'; for k-ary RR (k > 2) and generic ε0-LDP randomizers the "
            "reduction lumps the victim's third component with the other users' "
            "outputs, which is not a proven post-processing (see issue 4); use "
            "fmt_numerical_* instead"
        )


def variation_ratio_delta(local_epsilon: float, n: int, epsilon: float, *,
                          randomizer: str = "binary-rr") -> mpmath.mpf:
    """Upper bound on δ(ε) of shuffled binary randomized response, variation-ratio bound.

    The (p, β, q) reduction of Wang et al. with ``p = q = e^{ε0}`` and total
    variation ``β = tanh(ε0/2)``: the clone pair of :func:`fmt_numerical_delta`
    with clone probability ``ρ = 2/(e^{ε0}+1)`` instead of ``e^{-ε0}``.

    Parameters
    ----------
    local_epsilon
        ε0 = ln((2 - f)/f) > 0 of binary RR with flip probability f.
    n, epsilon
        As in :func:`fmt_numerical_delta`.
    randomizer
        Only ``"binary-rr"`` (see Notes); anything else raises UnsupportedError.

    Notes
    -----
    **Soundness** (why binary RR only): binary RR's report is, exactly, a fair
    coin with probability ``2/(e^{ε0}+1)`` and the input bit otherwise. So
    every other user is independently a clone of the victim's "0" output or of
    its "1" output with probability ``1/(e^{ε0}+1)`` each, and otherwise reports
    its own bit; the shuffled multiset is a post-processing of the clone counts
    and the victim's report (the own-bit users form a data-dependent set
    independent of the victim). The pair is therefore dominating, and this is
    an upper bound, replace-one neighbours, for all n >= 1. For k-ary RR and
    generic randomizers the paper's reduction lumps the victim's third
    component with the others' outputs; that step is not a post-processing in
    general (FMT 2023's erratum restricts the same "stronger clone" statement),
    so it is refused here.

    Examples
    --------
    >>> variation_ratio_delta(2.0, 10**4, 0.1) <= fmt_numerical_delta(2.0, 10**4, 0.1)
    True
    """
    local_epsilon, n = _check_common(local_epsilon, n)
    epsilon = check_epsilon(epsilon)
    _check_randomizer(randomizer)
    return clone_delta_upper(local_epsilon, n, epsilon, _binary_rr_rho(local_epsilon))


def variation_ratio_epsilon(local_epsilon: float, n: int, delta: float, *,
                            randomizer: str = "binary-rr") -> float:
    """Upper bound on ε of shuffled binary randomized response, variation-ratio bound.

    Smallest ε with :func:`variation_ratio_delta` ``<= delta`` (bisection to
    1e-5 relative, passing end, rounded up). Soundness as there.

    Examples
    --------
    >>> 0.0094 < variation_ratio_epsilon(2.0, 10**6, 1e-6) < 0.0097
    True
    """
    local_epsilon, n = _check_common(local_epsilon, n)
    delta = check_delta(delta, allow_zero=False)
    _check_randomizer(randomizer)
    return _epsilon_search(local_epsilon, n, delta, _binary_rr_rho(local_epsilon))

