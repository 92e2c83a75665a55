"""Privacy maps of the local randomizers: binary/k-ary randomized response and Garcelon et al. 2022's M_LDP.

Imported lazily by :mod:`dpverify.mechanisms.privacy_maps`; the first map
registered for a type is its default.

**Neighbouring and sensitivity.** A local randomizer is run by one user on
one input, and its guarantee is local DP: the bound holds for *every* pair of
inputs in its domain (Garcelon et al. 2022, Def. 2). So

* ``neighbouring="replace-one"`` (the default) means "one user's input replaced
  by any other"; ``"add-remove"`` raises :class:`~dpverify.errors.UnsupportedError`
  (whether a report is sent at all is visible);
* for randomized response (binary and k-ary), ``"replace-special"`` means "one user's
  input replaced by a special record whose randomizer outputs a uniform value" (as
  dp_accounting's ``REPLACE_SPECIAL`` for ``RandomizedResponseDpEvent``): the pair is the
  output law on an input against the uniform law, in both orders. It is smaller than the
  replace-one pair (every input against every other); M_LDP refuses it;
* ``sensitivity`` is accepted and ignored: every pair of inputs is already
  covered, so no query sensitivity can make the bound larger. (For M_LDP the
  number of randomized bits that may differ between two inputs is at most all
  ``m d (d+3)/2`` of them, which is what the map charges.)
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import mpmath

from dpverify._numeric import round_up, working_precision
from dpverify.guarantees import PrivacyProfile, PureDP, RDPCurve
from dpverify.mechanisms._lattice import CONVERSION_ORDERS
from dpverify.mechanisms.encoding import LocalPrivatizer
from dpverify.mechanisms.privacy_maps import pmf_pair_profile, register_privacy_map
from dpverify.mechanisms.randomized_response import BinaryRandomizedResponse, RandomizedResponse
from dpverify.neighbouring import Neighbouring

__all__ = ["binary_rr_epsilon"]

#: Relative error allowance for mpmath's log at the working precision (50 digits).
_LOG_ERROR = 1e-45


def _local_only(mechanism: object, neighbouring: Neighbouring) -> None:
    Neighbouring.require(neighbouring, [Neighbouring.REPLACE_ONE],
                         f"{type(mechanism).__name__} (a local randomizer: its guarantee is for "
                         f"replacing one input)")


def _replace_relation(mechanism: object, neighbouring: Neighbouring) -> Neighbouring:
    """Randomized response: replace-one, or replace-special (against a uniform output)."""
    return Neighbouring.require(neighbouring, [Neighbouring.REPLACE_ONE,
                                               Neighbouring.REPLACE_SPECIAL],
                                f"{type(mechanism).__name__} (a local randomizer: its guarantee "
                                f"is for replacing one input, by another or by a special record)")


def _rr_ratio(mechanism: BinaryRandomizedResponse | RandomizedResponse) -> tuple[mpmath.mpf, int]:
    """``(r, k)``: the output law on an input is ``(r, 1, …, 1)/(r + k − 1)`` (true value first).

    Binary RR with randomization probability p keeps the bit w.p. ``1 − p/2`` and flips it
    w.p. ``p/2``, so ``r = (2 − p)/p`` and ``k = 2``; k-ary RR has ``r = e^ε``. Evaluated at
    the caller's precision (the inputs are floats, so exact).
    """
    if isinstance(mechanism, BinaryRandomizedResponse):
        p = mpmath.mpf(mechanism.randomization_probability)
        return (2 - p) / p, 2
    return mpmath.exp(mpmath.mpf(mechanism.epsilon)), mechanism.categories


def _rr_renyi(ratio: mpmath.mpf, categories: int, order: float, special: bool) -> mpmath.mpf:
    """``D_α`` of randomized response's worst pair, the larger of its two orders (mpmath).

    Replace-one (Mironov 2017, Prop. 5, k-ary form): ``(1/(α−1)) log((r^α + r^{1−α} + k − 2)/(r + k − 1))``,
    with the sum minus one evaluated as ``(r expm1((α−1) ln r) + expm1((1−α) ln r))/(r + k − 1)``
    (no cancellation at small ε). Replace-special: the law against the uniform one, whose
    ratios are ``k r/(r + k − 1)`` (true value) and ``k/(r + k − 1)`` (the others):
    ``(1/(α−1)) log((1/k)(a^β + (k−1) b^β))`` for ``β = α`` and ``β = 1 − α``, the larger.
    """
    alpha, k, log_r = mpmath.mpf(order), categories, mpmath.log(ratio)
    if not special:
        excess = (ratio * mpmath.expm1((alpha - 1) * log_r) + mpmath.expm1((1 - alpha) * log_r)) / (
            ratio + k - 1)
        return mpmath.log1p(excess) / (alpha - 1)
    a, b = k * ratio / (ratio + k - 1), mpmath.mpf(k) / (ratio + k - 1)
    sums = [(a ** beta + (k - 1) * b ** beta) / k for beta in (alpha, 1 - alpha)]
    return max(mpmath.log(value) for value in sums) / (alpha - 1)


def _rr_rdp(mechanism: BinaryRandomizedResponse | RandomizedResponse,
            neighbouring: Neighbouring) -> RDPCurve:
    """The exact RDP curve at :data:`CONVERSION_ORDERS`, each value rounded up.

    **Soundness:** exact Rényi divergences of the worst pair, evaluated in mpmath with
    ``2 log10(1/ε) + 20`` digits beyond the working precision (the divergence is of order
    ε², so no digit it needs is lost), with a 1e-30 relative allowance, rounded up.
    """
    special = _replace_relation(mechanism, neighbouring) is Neighbouring.REPLACE_SPECIAL
    with working_precision():
        ratio, k = _rr_ratio(mechanism)
        level = float(mpmath.log(ratio))
        extra = 20 + (int(2 * math.log10(1 / level)) if 0 < level < 1 else 0)
        values = []
        with mpmath.workdps(mpmath.mp.dps + extra):
            ratio, _ = _rr_ratio(mechanism)
            for order in CONVERSION_ORDERS:
                value = mpmath.mpf(0) if level == 0 else _rr_renyi(ratio, k, order, special)
                values.append(round_up(max(value, mpmath.mpf(0)), relative_error=1e-30))
    return RDPCurve(CONVERSION_ORDERS, tuple(values))


def _special_pure(mechanism: BinaryRandomizedResponse | RandomizedResponse) -> PureDP:
    """Replace-special ε: the log of the larger ratio, ``max(k r/(r + k − 1), (r + k − 1)/k)``."""
    with working_precision():
        ratio, k = _rr_ratio(mechanism)
        worst = max(k * ratio / (ratio + k - 1), (ratio + k - 1) / k)
        return PureDP(round_up(mpmath.log(worst), relative_error=_LOG_ERROR))


def _special_profile(mechanism: BinaryRandomizedResponse | RandomizedResponse,
                     law: Any, categories: int) -> PrivacyProfile:
    """The law on one input against the uniform law, in both orders (their pointwise max)."""
    uniform = [Fraction(1, categories)] * categories
    first = pmf_pair_profile(law, uniform)
    second = pmf_pair_profile(uniform, law)
    return PrivacyProfile(lambda epsilon: max(first.curve(epsilon), second.curve(epsilon)),
                          description=f"{mechanism!r}, an input vs the special (uniform) record",
                          relative_error=1e-40)


def binary_rr_epsilon(randomization_probability: float, *, bits: int = 1) -> float:
    """``bits · ln((2 − p)/p)`` rounded up: the exact ε of ``bits`` independent binary RRs.

    **Soundness:** computed in mpmath from the float ``p`` actually used
    (a dyadic rational, so exact input) and rounded up, with a relative
    allowance for mpmath's log; an upper bound on the exact ε, and equal to it
    up to that rounding.

    >>> binary_rr_epsilon(0.5)  # ln 3
    1.0986122886681098
    """
    with working_precision():
        p = mpmath.mpf(randomization_probability)
        return round_up(bits * mpmath.log((2 - p) / p), relative_error=_LOG_ERROR)


@register_privacy_map(BinaryRandomizedResponse, PureDP)
def _binary_rr_pure(mechanism: BinaryRandomizedResponse, *, sensitivity: float,
                    neighbouring: Neighbouring) -> PureDP:
    """ε0 = ln((2 − p)/p): the ratio of ``P[out = x | x] = 1 − p/2`` to ``P[out = x | 1 − x] = p/2``.

    **Soundness:** exact (tight), rounded up; local DP over both inputs.
    """
    if _replace_relation(mechanism, neighbouring) is Neighbouring.REPLACE_SPECIAL:
        return _special_pure(mechanism)
    return PureDP(binary_rr_epsilon(mechanism.randomization_probability))


@register_privacy_map(BinaryRandomizedResponse, PrivacyProfile)
def _binary_rr_profile(mechanism: BinaryRandomizedResponse, *, sensitivity: float,
                       neighbouring: Neighbouring) -> PrivacyProfile:
    """Exact profile of the only pair of inputs (0, 1); the two orders are mirror images.

    Replace-special: an input against a fair coin, both orders (input 0 and 1 mirror).
    """
    if _replace_relation(mechanism, neighbouring) is Neighbouring.REPLACE_SPECIAL:
        return _special_profile(mechanism, mechanism.law_on(1).probabilities, 2)
    return pmf_pair_profile(mechanism.law_on(1).probabilities, mechanism.law_on(0).probabilities,
                            description=f"{mechanism!r}, inputs 1 vs 0")


@register_privacy_map(RandomizedResponse, PureDP)
def _kary_rr_pure(mechanism: RandomizedResponse, *, sensitivity: float,
                  neighbouring: Neighbouring) -> PureDP:
    """ε: the largest ratio ``(e^ε/(e^ε + k − 1)) / (1/(e^ε + k − 1))`` over any two inputs.

    **Soundness:** exact (tight); the stored ε is the float the law is built from.
    """
    if _replace_relation(mechanism, neighbouring) is Neighbouring.REPLACE_SPECIAL:
        return _special_pure(mechanism)
    return PureDP(mechanism.epsilon)


@register_privacy_map(RandomizedResponse, PrivacyProfile)
def _kary_rr_profile(mechanism: RandomizedResponse, *, sensitivity: float,
                     neighbouring: Neighbouring) -> PrivacyProfile:
    """Exact profile of inputs (0, 1); every ordered pair of distinct inputs is a relabelling.

    Replace-special: input 0 against the uniform law, both orders (every input is a relabelling).
    """
    if _replace_relation(mechanism, neighbouring) is Neighbouring.REPLACE_SPECIAL:
        return _special_profile(mechanism, mechanism.law_on(0).probabilities,
                                mechanism.categories)
    return pmf_pair_profile(mechanism.law_on(0).probabilities, mechanism.law_on(1).probabilities,
                            description=f"{mechanism!r}, inputs 0 vs 1")


@register_privacy_map(BinaryRandomizedResponse, RDPCurve)
def _binary_rr_rdp(mechanism: BinaryRandomizedResponse, *, sensitivity: float,
                   neighbouring: Neighbouring) -> RDPCurve:
    """Exact RDP curve of the bit's two laws (or of a law against a fair coin, replace-special)."""
    return _rr_rdp(mechanism, neighbouring)


@register_privacy_map(RandomizedResponse, RDPCurve)
def _kary_rr_rdp(mechanism: RandomizedResponse, *, sensitivity: float,
                 neighbouring: Neighbouring) -> RDPCurve:
    """Exact RDP curve of k-ary RR (:func:`dpverify.accountants.randomized_response_rdp`'s
    values at these orders), or of a law against the uniform one (replace-special)."""
    return _rr_rdp(mechanism, neighbouring)


@register_privacy_map(LocalPrivatizer, PureDP)
def _mldp_pure(mechanism: LocalPrivatizer, *, sensitivity: float,
               neighbouring: Neighbouring) -> PureDP:
    """Garcelon et al. 2022, Prop. 4/12: ``N · ln((2 − p)/p)`` with ``N = m d (d+3)/2`` randomized bits.

    Re-derivation: given the encoded bits, each randomized bit has likelihood
    ratio at most ``(1 − p/2)/(p/2) = (2 − p)/p`` between any two encoded
    values, and the ``N`` bits are randomized independently (mirrored entries
    reuse the same bits, so are not counted twice), so for every output ``o``
    and encodings ``c, c'``: ``P[o | c] <= ((2 − p)/p)^N P[o | c']``. The
    encoders' randomness is a mixture over ``c``, and
    ``Σ_c P[c|x] P[o|c] <= max_c P[o|c] <= ((2−p)/p)^N min_c' P[o|c'] <=
    ((2−p)/p)^N P[o|x']``. With the printed ``p = 2/(exp(2ε0/(m d (d+3)))
    + 1)``, ``(2 − p)/p = exp(2ε0/(m d (d+3)))`` and ``N`` bits give exactly ε0.

    **Soundness:** an upper bound on the exact ε (which is smaller: the
    diagonal entries of ``z̃`` lie in [½, 1] and the off-diagonal ones in
    [¼, ¾], so not every bit can flip between two inputs). Computed from the
    float ``p`` in use (``p`` was rounded up, so this is at most ε0 up to the
    final upward rounding) and rounded up.
    """
    _local_only(mechanism, neighbouring)
    return PureDP(binary_rr_epsilon(mechanism.randomization_probability, bits=mechanism.number_of_bits))
