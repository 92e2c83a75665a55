"""Privacy maps of the local randomizers: binary/k-ary randomized response and Garcelon et al. 2022's M_LDP.

Imported lazily by :mod:`dpverify.mechanisms.privacy_maps`; the first map
registered for a type is its default.

**Neighbouring and sensitivity.** A local randomizer is run by one user on
one input, and its guarantee is local DP: the bound holds for *every* pair of
inputs in its domain (Garcelon et al. 2022, Def. 2). So

* ``neighbouring="replace-one"`` (the default) means "one user's input replaced
  by any other"; ``"add-remove"`` and ``"replace-special"`` raise
  :class:`~dpverify.errors.UnsupportedError` (whether a report is sent at all is
  visible);
* ``sensitivity`` is accepted and ignored: every pair of inputs is already
  covered, so no query sensitivity can make the bound larger. (For M_LDP the
  number of randomized bits that may differ between two inputs is at most all
  ``m d (d+3)/2`` of them, which is what the map charges.)
"""

from __future__ import annotations

import mpmath

from dpverify._numeric import round_up, working_precision
from dpverify.guarantees import PrivacyProfile, PureDP
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
    _local_only(mechanism, neighbouring)
    return PureDP(binary_rr_epsilon(mechanism.randomization_probability))


@register_privacy_map(BinaryRandomizedResponse, PrivacyProfile)
def _binary_rr_profile(mechanism: BinaryRandomizedResponse, *, sensitivity: float,
                       neighbouring: Neighbouring) -> PrivacyProfile:
    """Exact profile of the only pair of inputs (0, 1); the two orders are mirror images."""
    _local_only(mechanism, neighbouring)
    return pmf_pair_profile(mechanism.law_on(1).probabilities, mechanism.law_on(0).probabilities,
                            description=f"{mechanism!r}, inputs 1 vs 0")


@register_privacy_map(RandomizedResponse, PureDP)
def _kary_rr_pure(mechanism: RandomizedResponse, *, sensitivity: float,
                  neighbouring: Neighbouring) -> PureDP:
    """ε: the largest ratio ``(e^ε/(e^ε + k − 1)) / (1/(e^ε + k − 1))`` over any two inputs.

    **Soundness:** exact (tight); the stored ε is the float the law is built from.
    """
    _local_only(mechanism, neighbouring)
    return PureDP(mechanism.epsilon)


@register_privacy_map(RandomizedResponse, PrivacyProfile)
def _kary_rr_profile(mechanism: RandomizedResponse, *, sensitivity: float,
                     neighbouring: Neighbouring) -> PrivacyProfile:
    """Exact profile of inputs (0, 1); every ordered pair of distinct inputs is a relabelling."""
    _local_only(mechanism, neighbouring)
    return pmf_pair_profile(mechanism.law_on(0).probabilities, mechanism.law_on(1).probabilities,
                            description=f"{mechanism!r}, inputs 0 vs 1")


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
