"""Exact audits: the true ε (or δ) of a pair of finite pmfs, with no sampling.

For mechanisms whose output laws on the neighbouring pair are finite and known
exactly (randomized response, shuffled counts, sparse-vector answer patterns,
M_LDP bits), these give the value the statistical audit estimates from below;
the tests check ``audit(...).epsilon_lower_bound <= exact_epsilon(...)``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import mpmath

from dpverify._deprecation import renamed_parameters
from dpverify._numeric import round_up, working_precision
from dpverify._validation import check_delta, check_epsilon, shown, value_error
from dpverify.errors import DpverifyTypeError
from dpverify.mechanisms.privacy_maps import pmf_pair_profile

__all__ = ["exact_epsilon", "exact_delta"]


def _aligned(p: Any, q: Any) -> tuple[list[Any], list[Any]]:
    """Two pmfs on the same outcomes: sequences of equal length, or dicts (missing = 0)."""
    if isinstance(p, Mapping) and isinstance(q, Mapping):
        outcomes = sorted(set(p) | set(q), key=repr)
        return [p.get(o, 0) for o in outcomes], [q.get(o, 0) for o in outcomes]
    for name, pmf in (("pmf", p), ("pmf_prime", q)):
        if isinstance(pmf, (str, bytes, Mapping)) or not isinstance(pmf, Sequence) and not hasattr(
                pmf, "__len__"):
            raise DpverifyTypeError(f"{name}={shown(pmf)} must be a sequence of probabilities or "
                                    f"a dict (both pmf and pmf_prime)")
    p, q = list(p), list(q)
    if len(p) != len(q) or not p:
        raise value_error("pmf_prime", f"<{len(q)} values>", f"a pmf of the same non-zero length "
                                                             f"as pmf ({len(p)})")
    return p, q


def _mp(value: Any) -> mpmath.mpf:
    if isinstance(value, Fraction):
        return mpmath.mpf(value.numerator) / value.denominator
    return mpmath.mpf(value)


@renamed_parameters(p="pmf", q="pmf_prime")
def exact_epsilon(pmf: Any, pmf_prime: Any, *, delta: float = 0.0) -> float:
    """The smallest ε with both orders of the pair (p, q) (ε, δ)-indistinguishable.

    Parameters
    ----------
    pmf, pmf_prime
        The output pmfs p on ``x`` and q on ``x'``: equal-length sequences (floats,
        Fractions or mpmath numbers, taken as exact) or dicts outcome → mass.
    delta
        δ in [0, 1).

    Returns
    -------
    float
        For ``delta = 0`` the largest log-ratio ``max_o |ln(p(o)/q(o))|``
        (``inf`` if one pmf charges an outcome the other does not); for
        ``delta > 0`` the smallest ε with ``max(H_{e^ε}(p‖q), H_{e^ε}(q‖p))
        <= δ``, where ``H_{e^ε}(p‖q) = Σ_o (p(o) − e^ε q(o))_+`` is the
        hockey-stick divergence (via
        :func:`dpverify.mechanisms.pmf_pair_profile`, to 1e-12 relative).

    Notes
    -----
    **Rounded up**, so a check ``statistical lower bound <= exact_epsilon``
    is never failed by rounding.

    Examples
    --------
    Randomized response with keep probability 3/4 is ln 3-DP:

    >>> round(exact_epsilon([0.75, 0.25], [0.25, 0.75]), 12)
    1.098612288668
    >>> exact_epsilon([0.5, 0.5, 0.0], [0.5, 0.25, 0.25])
    inf
    """
    p, q = _aligned(pmf, pmf_prime)
    delta = check_delta(delta, "delta")
    if delta > 0:
        return max(pmf_pair_profile(p, q).epsilon_for_delta(delta),
                   pmf_pair_profile(q, p).epsilon_for_delta(delta))
    pmf_pair_profile(p, q)  # validates both pmfs
    with working_precision():
        worst = mpmath.mpf(0)
        for a, b in zip(map(_mp, p), map(_mp, q)):
            if (a > 0) != (b > 0):
                return math.inf
            if a > 0:
                worst = max(worst, abs(mpmath.log(a) - mpmath.log(b)))
        return round_up(worst, relative_error=1e-40)


@renamed_parameters(p="pmf", q="pmf_prime")
def exact_delta(pmf: Any, pmf_prime: Any, *, epsilon: float) -> float:
    """``max(H_{e^ε}(p‖q), H_{e^ε}(q‖p))``: the exact δ(ε) of the pair, rounded up.

    ``pmf`` and ``pmf_prime`` are the output pmfs p on ``x`` and q on ``x'``, as in
    :func:`exact_epsilon`.

    >>> round(exact_delta([0.75, 0.25], [0.25, 0.75], epsilon=0.0), 12)
    0.5
    """
    p, q = _aligned(pmf, pmf_prime)
    epsilon = check_epsilon(epsilon, "epsilon")
    return max(pmf_pair_profile(p, q).delta_for_epsilon(epsilon),
               pmf_pair_profile(q, p).delta_for_epsilon(epsilon))
