"""RDP → (ε, δ)-DP conversions (private; re-exported by :mod:`dpverify.accountants.rdp`).

Two conversions, both minimised over the orders of the curve:

* ``"mironov"`` — Mironov 2017, Prop. 3: ``ε = ε(α) + log(1/δ)/(α - 1)``.
* ``"tight"`` — Balle et al. 2020, Thm. 21, which is Canonne, Kamath & Steinke
  2020, Prop. 12 solved for ε:
  ``ε = ε(α) + log((α-1)/α) - (log δ + log α)/(α - 1)``; it is below Mironov's
  at every order. It is complemented by the Bretagnolle–Huber bound on total
  variation, ``TV <= sqrt(1 - e^{-KL})`` with ``KL <= ε(α)``, which gives ε = 0
  whenever ``δ >= sqrt(1 - e^{-ε(α)})``.

Proofs and the argument for each are in ``docs/proofs/rdp_conversions.md``.
"""

from __future__ import annotations

import math

import mpmath

from dpverify._numeric import round_up, working_precision
from dpverify._validation import check_choice, check_delta, check_epsilon, value_error
from dpverify.errors import DpverifyTypeError
from dpverify.guarantees import ApproxDP, RDPCurve

__all__ = ["rdp_to_dp", "rdp_to_dp_delta"]

_METHODS = ("tight", "mironov")
_MPMATH_SLACK = 1e-30


def _finite_points(curve: object) -> list[tuple[float, float]]:
    """Return the curve's ``(α, ε(α))`` pairs with finite ε (floats; converted to mpmath exactly
    where used)."""
    if not isinstance(curve, RDPCurve):
        raise DpverifyTypeError(f"curve={curve!r} must be an RDPCurve, not {type(curve).__name__}")
    return [(a, e) for a, e in zip(curve.orders, curve.epsilons) if not math.isinf(e)]


def _epsilon_at(alpha: mpmath.mpf, rdp: mpmath.mpf, log_delta: mpmath.mpf,
                method: str) -> mpmath.mpf:
    """ε of the (ε, δ)-DP guarantee implied by ``D_α <= rdp`` (mpmath, exact formula)."""
    mironov = rdp - log_delta / (alpha - 1)
    if method == "mironov":
        return mironov
    tight = rdp + mpmath.log1p(-1 / alpha) - (log_delta + mpmath.log(alpha)) / (alpha - 1)
    return min(tight, mironov)


def _log_delta_at(alpha: mpmath.mpf, rdp: mpmath.mpf, epsilon: mpmath.mpf,
                  method: str) -> mpmath.mpf:
    """log δ of the (ε, δ)-DP guarantee implied by ``D_α <= rdp`` (mpmath, exact formula)."""
    mironov = (alpha - 1) * (rdp - epsilon)
    if method == "mironov":
        return mironov
    tight = mironov - mpmath.log(alpha) + (alpha - 1) * mpmath.log1p(-1 / alpha)
    return min(tight, mironov)


#: Orders evaluated in mpmath: the few best by a float pre-screen (any subset is sound:
#: every candidate is a valid ε; the float values pick the minimum to ~1e-15).
_CANDIDATES = 4


def _float_epsilons(curve: RDPCurve, delta: float, method: str) -> list[float]:
    """Float estimates of every order's ε (a pre-screen only; ``inf`` where the curve is)."""
    alpha = [a for a, e in zip(curve.orders, curve.epsilons) if not math.isinf(e)]
    rdp = [e for e in curve.epsilons if not math.isinf(e)]
    log_delta = math.log(delta)
    out = []
    for a, e in zip(alpha, rdp):
        mironov = e - log_delta / (a - 1)
        tight = e + math.log1p(-1 / a) - (log_delta + math.log(a)) / (a - 1)
        out.append(mironov if method == "mironov" else min(tight, mironov))
    return out


def _promising(curve: RDPCurve, points: list, estimates: list[float]) -> list:
    """The points whose float estimate is among the :data:`_CANDIDATES` smallest."""
    if len(points) <= _CANDIDATES:
        return points
    order = sorted(range(len(points)), key=estimates.__getitem__)[:_CANDIDATES]
    return [points[i] for i in sorted(order)]


def _total_variation_bound(points: list[tuple[float, float]]) -> mpmath.mpf:
    """Bretagnolle–Huber: ``δ(0) = TV <= sqrt(1 - exp(-KL))`` with ``KL <= min_α ε(α)``."""
    smallest = mpmath.mpf(min(rdp for _, rdp in points))
    return mpmath.sqrt(-mpmath.expm1(-smallest))


def rdp_to_dp(curve: RDPCurve, *, delta: float, method: str = "tight") -> ApproxDP:
    """Convert an RDP curve to an (ε, δ)-DP guarantee for the given δ.

    Parameters
    ----------
    curve
        The RDP curve (orders with ``inf`` values are skipped).
    delta
        Target δ, in (0, 1).
    method
        ``"tight"`` (default): Balle et al. 2020 Thm. 21 / Canonne–Kamath–Steinke
        2020 Prop. 12, with the Bretagnolle–Huber total-variation bound;
        ``"mironov"``: Mironov 2017 Prop. 3.

    Returns
    -------
    ApproxDP
        ``(ε, delta)`` with ε the minimum over the orders, clipped at 0, rounded up.

    Raises
    ------
    ValueError
        If ``delta`` is not in (0, 1), ``method`` is unknown, or every value of
        the curve is ``inf``.
    TypeError
        If ``curve`` is not an RDPCurve.

    Notes
    -----
    .. math::

        ε_{\\text{tight}} &= \\min_α\\; ε(α) + \\log\\frac{α-1}{α} - \\frac{\\log δ + \\log α}{α-1},\\\\
        ε_{\\text{mironov}} &= \\min_α\\; ε(α) + \\frac{\\log(1/δ)}{α-1}.

    With ``"tight"``, ε = 0 is returned when ``δ >= sqrt(1 - exp(-min_α ε(α)))``
    (Bretagnolle–Huber, since ``KL <= D_α``). Asoodeh et al. 2021 give the
    optimal conversion from a single order; its improvement over the formula
    used here is small and it has no closed form, so it is not used.

    **Soundness**: every candidate is a valid ε at its order, evaluated in
    mpmath and rounded up; the minimum of valid ε's is valid. Same
    neighbouring relation as the curve. See ``docs/proofs/rdp_conversions.md``.

    References
    ----------
    I. Mironov, "Rényi differential privacy", CSF 2017, Prop. 3.
    B. Balle, G. Barthe, M. Gaboardi, J. Hsu, T. Sato, "Hypothesis testing
    interpretations and Rényi differential privacy", AISTATS 2020, Thm. 21.
    C. Canonne, G. Kamath, T. Steinke, "The discrete Gaussian for differential
    privacy", NeurIPS 2020, arXiv:2004.00010, Prop. 12.
    S. Asoodeh, J. Liao, F. Calmon, O. Kosut, L. Sankar, "A better bound gives
    a hundred rounds", ISIT 2021.

    Examples
    --------
    >>> from dpverify.accountants.rdp import gaussian_rdp
    >>> guarantee = rdp_to_dp(gaussian_rdp(1.0), delta=1e-5)
    >>> round(guarantee.epsilon, 4), guarantee.delta
    (4.7285, 1e-05)
    """
    delta = check_delta(delta, "delta", allow_zero=False)
    method = check_choice(method, "method", _METHODS)
    with working_precision():
        points = _finite_points(curve)
        if not points:
            raise value_error("curve", curve, "finite at one order at least",
                              "an RDP curve that is inf everywhere gives no (epsilon, delta) bound")
        log_delta = mpmath.log(delta)
        best = min(_epsilon_at(mpmath.mpf(a), mpmath.mpf(rdp), log_delta, method)
                   for a, rdp in _promising(curve, points, _float_epsilons(curve, delta, method)))
        if method == "tight" and mpmath.mpf(delta) >= _total_variation_bound(points):
            best = mpmath.mpf(0)
        epsilon = round_up(max(best, 0), relative_error=_MPMATH_SLACK)
    return ApproxDP(epsilon=epsilon, delta=delta)


def rdp_to_dp_delta(curve: RDPCurve, *, epsilon: float, method: str = "tight") -> float:
    """Return an upper bound on δ such that the curve implies (ε, δ)-DP.

    Parameters
    ----------
    curve
        The RDP curve (orders with ``inf`` values are skipped).
    epsilon
        Target ε, in [0, inf).
    method
        ``"tight"`` (default) or ``"mironov"``, as in :func:`rdp_to_dp`.

    Returns
    -------
    float
        δ in [0, 1], rounded up (1.0 if the curve is ``inf`` everywhere).

    Raises
    ------
    ValueError, TypeError
        If an argument is invalid (the message names it).

    Notes
    -----
    .. math::

        δ_{\\text{tight}} &= \\min_α\\; \\frac{e^{(α-1)(ε(α) - ε)}}{α}
                              \\left(1 - \\frac{1}{α}\\right)^{α-1}
                              \\quad\\text{(CKS 2020, Prop. 12)},\\\\
        δ_{\\text{mironov}} &= \\min_α\\; e^{(α-1)(ε(α) - ε)}
                              \\quad\\text{(Mironov 2017, Prop. 3)}.

    ``"tight"`` also takes the minimum with the Bretagnolle–Huber bound
    ``sqrt(1 - exp(-min_α ε(α)))`` on ``δ(0) >= δ(ε)``.

    **Soundness**: every candidate is a valid δ; evaluated in mpmath (in log
    space, no overflow) and rounded up.

    Examples
    --------
    >>> from dpverify.accountants.rdp import gaussian_rdp
    >>> round(rdp_to_dp_delta(gaussian_rdp(1.0), epsilon=4.7285), 7)
    1e-05
    """
    epsilon = check_epsilon(epsilon, "epsilon")
    method = check_choice(method, "method", _METHODS)
    with working_precision():
        points = _finite_points(curve)
        if not points:
            return 1.0
        log_delta = min(_log_delta_at(mpmath.mpf(a), mpmath.mpf(rdp), mpmath.mpf(epsilon), method)
                        for a, rdp in points)
        delta = mpmath.exp(log_delta)
        if method == "tight":
            delta = min(delta, _total_variation_bound(points))
        return min(1.0, round_up(delta, relative_error=_MPMATH_SLACK))
