"""SBLB's parameters (Garcelon et al. 2022): p ↔ ε0, λ_j (Eq. 8), β_j (Eq. 7), the batch length l, Cor. 7/8.

Parameter names: ``local_epsilon`` is ε0, ``bits`` is m (bits per matrix entry),
``randomization_probability`` is p (garcelon's randomizer R_p replaces each bit by a
fair coin with probability p, so a bit flips with probability p/2), ``shuffle_delta``
is δ0, ``regularization`` is λ (or λ_j), ``context_bound`` is L, ``theta_bound`` is S,
``samples`` is t and ``failure_probability`` is the δ of the event E_δ.

* :func:`randomization_probability` / :func:`local_epsilon` — Prop. 4/12:
  ``p = 2/(exp(2ε0/(m d (d+3))) + 1)`` and its inverse
  ``ε0 = (m d (d+3)/2) ln(2/p − 1)`` (``m d (d+3)/2`` randomized bits).
* :func:`regularizer` — Eq. (8): ``λ_j = √(8 t ln(2t/δ))/m + 2√(8 t ln(2t/δ))/((1−p)√m) + λ``.
* :func:`confidence_radius` — Eq. (7), verbatim (the proofs, e.g. Eq. (37), use other forms).
* :func:`batch_length` — the smallest l meeting Thm 5: ``l p >= 14 log(8mT/δ0)``
  and Eq. (3), printed (``1 − 2p``) or re-derived (``2 − 2p``, ``√(2p ·)``) form
  (through :func:`dpverify.accountants.shuffle_papers.min_shuffler_batch_length`).
* :func:`sblb_parameters` — the parameter choices of Cor. 7 and Cor. 8 as a
  frozen :class:`SBLBParameters`.

``t`` in λ_j and β_j is the number of samples actually aggregated (a multiple
of l, which equals the update time only when rounds are counted from 1). Both are tuning
quantities of the algorithm (not privacy
bounds), computed in float.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import mpmath

from dpverify._deprecation import renamed_attributes, renamed_parameters, renamed_property
from dpverify._numeric import round_up, working_precision
from dpverify._record_validation import check_record
from dpverify._validation import (
    MAX_FORMULA_INTEGER,
    check_choice,
    check_delta,
    check_epsilon,
    check_failure_probability,
    check_flag,
    check_nonnegative,
    check_positive,
    check_positive_int,
    check_probability,
    value_error,
)
from dpverify.accountants.shuffle_papers import garcelon_batch_length_ok, min_shuffler_batch_length
from dpverify.bandits.contextual.environment import MAX_DIMENSION
from dpverify.mechanisms.encoding import mldp_randomization_probability

__all__ = [
    "randomization_probability",
    "local_epsilon",
    "number_of_bits",
    "regularizer",
    "confidence_radius",
    "batch_length",
    "cor8_epsilon_limit",
    "cor8_first_release_log10_horizon",
    "SBLBParameters",
    "sblb_parameters",
    "REGIMES",
    "BATCH_FORMS",
]

#: Parameter regimes of :func:`sblb_parameters`.
REGIMES = ("cor7", "cor8")
#: Forms of Thm 5's Eq. (3): as printed (``1 − 2p``) or re-derived from its proof (``2 − 2p``).
BATCH_FORMS = ("printed", "derived")


@renamed_parameters(m="bits", d="dimension")
def number_of_bits(bits: int, dimension: int) -> int:
    """``m d (d+3)/2``: the randomized bits of one M_LDP report (Alg. 2), m = ``bits`` per entry.

    >>> number_of_bits(1, 5)
    20
    """
    m = check_positive_int(bits, "bits", maximum=MAX_FORMULA_INTEGER)
    d = check_positive_int(dimension, "dimension", maximum=MAX_FORMULA_INTEGER)
    return m * d * (d + 3) // 2


@renamed_parameters(epsilon_0="local_epsilon", m="bits", d="dimension")
def randomization_probability(local_epsilon: float, *, bits: int, dimension: int) -> float:
    """Prop. 4/12: ``p = 2/(exp(2ε0/(m d (d+3))) + 1)``, rounded up (so M_LDP is at most ε0-LDP).

    Returns garcelon's p, the randomization probability (a bit flips w.p. p/2):
    :func:`dpverify.mechanisms.encoding.mldp_randomization_probability`.

    >>> round(randomization_probability(1.0, bits=1, dimension=1), 6)
    0.755081
    """
    local_epsilon = check_epsilon(local_epsilon, "local_epsilon", allow_zero=False)
    return mldp_randomization_probability(local_epsilon, bits=bits, dimension=dimension)


@renamed_parameters(p="randomization_probability", m="bits", d="dimension")
def local_epsilon(randomization_probability: float, *, bits: int, dimension: int) -> float:
    """Prop. 4/12 inverted: ``ε0 = (m d (d+3)/2) ln(2/p − 1)``, rounded up (the LDP level of p).

    >>> round(local_epsilon(randomization_probability(1.0, bits=2, dimension=3), bits=2, dimension=3), 9)
    1.0
    """
    p = check_probability(randomization_probability, "randomization_probability", open_low=True)
    reports = number_of_bits(bits, dimension)
    with working_precision():
        return round_up(reports * mpmath.log(2 / mpmath.mpf(p) - 1), relative_error=1e-40)


def _log_term(t: float, delta: float) -> float:
    return t * math.log(2 * t / delta) if t > 0 else 0.0


@renamed_parameters(t="samples", delta="failure_probability", m="bits",
                    p="randomization_probability", lam="regularization")
def regularizer(samples: float, *, failure_probability: float, bits: int,
                randomization_probability: float, regularization: float) -> float:
    """Eq. (8): ``λ_j = √(8 t ln(2t/δ))/m + 2√(8 t ln(2t/δ))/((1−p)√m) + λ``.

    t = ``samples`` aggregated so far; ``λ_j = λ`` (``regularization``) at t = 0 (the
    limit); δ = ``failure_probability`` (of the event E_δ). The regularizer of Ṽ after an
    update is ``2λ_j − λ`` (Alg. 1's increments ``2(λ_{j+1} − λ_j)`` from ``Ṽ_0 = λ I``,
    the reading consistent with Eqs. (6) and (11)).

    >>> regularizer(0, failure_probability=0.1, bits=1, randomization_probability=0.5,
    ...             regularization=2.0)
    2.0
    >>> round(regularizer(100, failure_probability=0.1, bits=1, randomization_probability=0.5,
    ...                   regularization=0.0), 4)  # 5 √(800 ln 2000)
    389.8949
    """
    t = check_nonnegative(samples, "samples")
    delta = check_failure_probability(failure_probability)
    m = check_positive_int(bits, "bits", maximum=MAX_FORMULA_INTEGER)
    p = check_probability(randomization_probability, "randomization_probability",
                          open_high=True)
    lam = check_positive(regularization, "regularization") if regularization != 0 else 0.0
    root = math.sqrt(8 * _log_term(t, delta))
    return root / m + 2 * root / ((1 - p) * math.sqrt(m)) + lam


@renamed_parameters(t="samples", delta="failure_probability", d="dimension", L="context_bound",
                    S="theta_bound", m="bits", p="randomization_probability",
                    lam_t="regularization")
def confidence_radius(samples: float, *, failure_probability: float, sigma: float,
                      dimension: int, context_bound: float, theta_bound: float, bits: int,
                      randomization_probability: float, regularization: float) -> float:
    """Eq. (7), verbatim (``d log(3 + tL²/λ_j)`` outside σ's root, where Eq. (37) has it inside):

    .. math::

        β_j = σ\\sqrt{8\\log(2t/δ)} + d\\log(3 + tL^2/λ_j) + S\\sqrt{3λ_j}
              + \\frac{d}{\\sqrt{λ_j}}\\Big(2\\sqrt{p(1 - p/2)\\,t m\\log(2t/δ)}
              + \\frac{8\\log(2t/δ)}{3} + \\frac{\\sqrt 8}{m}\\sqrt{t\\log(2t/δ)}\\Big)

    with t = ``samples``, δ = ``failure_probability``, d = ``dimension``, L =
    ``context_bound``, S = ``theta_bound``, m = ``bits``, p = ``randomization_probability``
    and λ_j = ``regularization`` (Eq. 8 at t). Undefined at t = 0 (log 0; the paper does not
    define β_0): callers use t = 1 for β_0. SBLB's first actions do not depend on β_0 anyway
    (θ̃_0 = 0 and all contexts of the instances here have norm L, so every arm ties).

    >>> round(confidence_radius(1, failure_probability=0.5, sigma=0.5, dimension=1,
    ...                         context_bound=1, theta_bound=1, bits=1,
    ...                         randomization_probability=0.5, regularization=1), 4)
    13.2525
    """
    t = check_positive(samples, "samples")
    delta = check_failure_probability(failure_probability)
    sigma = check_nonnegative(sigma, "sigma")
    d = check_positive_int(dimension, "dimension", maximum=MAX_FORMULA_INTEGER)
    m = check_positive_int(bits, "bits", maximum=MAX_FORMULA_INTEGER)
    L = check_positive(context_bound, "context_bound")
    S = check_nonnegative(theta_bound, "theta_bound")
    p = check_probability(randomization_probability, "randomization_probability")
    lam_t = check_positive(regularization, "regularization")
    log = math.log(2 * t / delta)
    noise = (2 * math.sqrt(p * (1 - p / 2) * t * m * log) + 8 * log / 3
             + math.sqrt(8) / m * math.sqrt(t * log))
    return (sigma * math.sqrt(8 * log) + d * math.log(3 + t * L * L / lam_t)
            + S * math.sqrt(3 * lam_t) + d / math.sqrt(lam_t) * noise)


@renamed_parameters(delta0="shuffle_delta", T="horizon", m="bits", d="dimension",
                    p="randomization_probability", form="batch_form")
def batch_length(epsilon: float, shuffle_delta: float, *, horizon: int, bits: int,
                 dimension: int, randomization_probability: float,
                 batch_form: str = "derived") -> int:
    """Thm 5: the smallest shuffler batch length l with ``l p >= 14 log(8mT/δ0)`` and Eq. (3).

    δ0 = ``shuffle_delta``, T = ``horizon``, m = ``bits``, p = ``randomization_probability``.
    ``batch_form="derived"`` (default) uses the re-derived ``2 − 2p + 2√(2p log(2mT/δ0)/l)``,
    ``"printed"`` the paper's ``1 − 2p + 2√(2 log(2mT/δ0)/l)`` (weaker than what the proof of Thm 5 needs).
    The derived form needs a longer batch (its condition is stronger in p).

    >>> sizes = dict(horizon=10**8, bits=1, dimension=1, randomization_probability=0.5)
    >>> printed = batch_length(0.5, 1e-6, **sizes, batch_form="printed")
    >>> derived = batch_length(0.5, 1e-6, **sizes)
    >>> printed <= derived
    True
    """
    batch_form = check_choice(batch_form, "batch_form", BATCH_FORMS)
    return min_shuffler_batch_length(epsilon, shuffle_delta, horizon=horizon, bits=bits,
                                     dimension=dimension,
                                     randomization_probability=randomization_probability,
                                     variant=batch_form)


@renamed_parameters(T="horizon")
def cor8_epsilon_limit(horizon: int) -> float:
    """Cor. 8's requirement ``ε <= 1/(27 T^{1/4})`` (so that ``ε^{2/3}T^{1/6} <= 1/9``, p >= 8/9).

    >>> round(cor8_epsilon_limit(10**4), 6)
    0.003704
    """
    return 1 / (27 * check_positive_int(horizon, "horizon", maximum=MAX_FORMULA_INTEGER) ** 0.25)


def cor8_first_release_log10_horizon(*, dimension: int, shuffle_delta: float,
                                     batch_form: str = "derived", bits: int = 1,
                                     max_log10: float = 60.0) -> float | None:
    """log10 of the first T = 10^{k/4} at which Cor. 8, at its largest ε, completes a shuffler batch.

    At ``ε = 1/(27 T^{1/4})`` (Cor. 8's largest, so ``p = 1 − ε^{2/3}T^{1/6} = 8/9``) a batch
    completes when Thm 5's smallest batch length is at most T, i.e. when ``l = T`` passes
    :func:`~dpverify.accountants.shuffle_papers.garcelon_batch_length_ok` (``batch_form``).
    The grid 10^{k/4} (k >= 16) is scanned upwards: the value returned passes and the grid
    point below it, if scanned, does not. ``None`` if no T up to ``10^max_log10`` passes. The horizons
    are exact integers (they may exceed what a plan or a simulation accepts).

    >>> cor8_first_release_log10_horizon(dimension=1, shuffle_delta=1e-6)
    22.0
    """
    dimension = check_positive_int(dimension, "dimension", maximum=MAX_DIMENSION)
    bits = check_positive_int(bits, "bits")
    shuffle_delta = check_delta(shuffle_delta, "shuffle_delta", allow_zero=False)
    form = check_choice(batch_form, "batch_form", BATCH_FORMS)
    for k in range(16, int(4 * max_log10) + 1):
        T = int(10 ** (k / 4))
        epsilon = cor8_epsilon_limit(T)
        if garcelon_batch_length_ok(T, epsilon, shuffle_delta, horizon=T, bits=bits,
                                    dimension=dimension, randomization_probability=8 / 9,
                                    variant=form):
            return k / 4
    return None


@renamed_parameters(delta0="shuffle_delta", epsilon_0="local_epsilon",
                    p="randomization_probability", m="bits", lam="regularization",
                    L="context_bound", S="theta_bound", form="batch_form")
@dataclass(frozen=True, slots=True)
class SBLBParameters:
    """Every parameter of one SBLB deployment (Alg. 1), and where it came from.

    ``epsilon``/``delta``: the central (JDP) target; ``shuffle_delta``: Thm 5's δ0
    (= δ, as Cor. 7); ``local_epsilon``: ε0, the LDP level of each report;
    ``randomization_probability``: p, the probability that a bit is replaced by a fair
    coin (= :func:`randomization_probability` of ε0); ``bits``: m, bits per entry;
    ``batch_length``: l (Thm 5); ``regularization``: λ; ``eta``: η of the det trigger;
    ``context_bound`` (L), ``theta_bound`` (S), ``sigma``: Assumption 3's bounds;
    ``batch_form``: the form of Thm 5's Eq. (3) l comes from.
    """

    regime: str
    epsilon: float
    delta: float
    shuffle_delta: float
    horizon: int
    dimension: int
    local_epsilon: float
    randomization_probability: float
    bits: int
    batch_length: int
    regularization: float
    eta: float
    context_bound: float
    theta_bound: float
    sigma: float
    batch_form: str

    # the old spellings, read-only, for one release
    delta0 = renamed_property("delta0", "shuffle_delta")
    epsilon_0 = renamed_property("epsilon_0", "local_epsilon")
    p = renamed_property("p", "randomization_probability")
    m = renamed_property("m", "bits")
    lam = renamed_property("lam", "regularization")
    L = renamed_property("L", "context_bound")
    S = renamed_property("S", "theta_bound")
    form = renamed_property("form", "batch_form")

    def __post_init__(self) -> None:
        check_record(self)

    @property
    def shuffler_batches(self) -> int:
        """``⌈T/l⌉`` (only ``⌊T/l⌋`` are complete and released)."""
        return -(-self.horizon // self.batch_length)


@renamed_parameters(T="horizon", d="dimension", form="batch_form", L="context_bound",
                    S="theta_bound")
def sblb_parameters(epsilon: float, delta: float, horizon: int, dimension: int,
                    regime: str = "cor8", *, batch_form: str = "derived",
                    context_bound: float = 1.0, theta_bound: float = 1.0, sigma: float = 0.5,
                    strict: bool = True) -> SBLBParameters:
    """SBLB's parameters for a central (ε, δ) target at horizon T in dimension d.

    * ``"cor8"`` (Cor. 8): η = 1/2, λ = √T, m = 1, ``p = 1 − ε^{2/3}T^{1/6}``,
      i.e. ``ε0 = (d(d+3)/2) ln(2/p − 1)``; requires ``ε <= 1/(27 T^{1/4})``
      (checked when ``strict``; otherwise only ``ε^{2/3}T^{1/6} < 1``, p > 0).
      Regret Õ(T^{2/3}/ε^{1/3}).
    * ``"cor7"`` (Cor. 7): ``ε = √(e^{ε0} − 1)`` i.e. ``ε0 = ln(1 + ε²)``, δ0 = δ.
      Cor. 7 leaves η, λ, m unspecified (Eq. 4 is Õ only): we take Cor. 8's
      η = 1/2, λ = √T, m = 1. Regret Õ(T^{3/4}/ε^{1/2}).

    In both, δ0 = δ and l = :func:`batch_length` (``batch_form``); ε0 is recomputed
    from p and p from ε0 (rounded up), so the stored pair is consistent.

    >>> params = sblb_parameters(0.001, 1e-6, 10**5, 2)
    >>> params.bits, params.eta, round(params.regularization, 3)
    (1, 0.5, 316.228)
    >>> round(params.randomization_probability, 6)
    0.931871
    >>> params.batch_length > params.horizon  # Thm 5's constants: no batch completes
    True
    """
    epsilon = check_epsilon(epsilon, allow_zero=False)
    delta = check_delta(delta, allow_zero=False)
    T = check_positive_int(horizon, "horizon", maximum=MAX_FORMULA_INTEGER)
    d = check_positive_int(dimension, "dimension", maximum=MAX_DIMENSION,
                           instead="each user sends m·d(d+3)/2 bits; reduce the dimension")
    regime = check_choice(regime, "regime", REGIMES)
    form = check_choice(batch_form, "batch_form", BATCH_FORMS)
    check_flag(strict, "strict")
    L = check_positive(context_bound, "context_bound")
    S = check_positive(theta_bound, "theta_bound")
    sigma = check_positive(sigma, "sigma")
    m, eta, lam = 1, 0.5, math.sqrt(T)
    if regime == "cor8":
        level = epsilon ** (2 / 3) * T ** (1 / 6)
        if strict and epsilon > cor8_epsilon_limit(T):
            raise value_error("epsilon", epsilon, f"<= 1/(27 T^(1/4)) = {cor8_epsilon_limit(T)!r} "
                              f"at horizon={T}",
                              "Cor. 8's requirement (pass strict=False to go beyond it)")
        if level >= 1:
            raise value_error("epsilon", epsilon, f"< T^(-1/4) = {T ** -0.25!r} at horizon={T}",
                              "Cor. 8's p = 1 - eps^(2/3) T^(1/6) must be positive")
        epsilon_0 = local_epsilon(1 - level, bits=m, dimension=d)
    else:
        epsilon_0 = float(mpmath.log1p(mpmath.mpf(epsilon) ** 2))
    p = randomization_probability(epsilon_0, bits=m, dimension=d)
    if not p < 1:
        raise value_error("epsilon", epsilon, "large enough that p < 1")
    epsilon_0 = local_epsilon(p, bits=m, dimension=d)  # the LDP level of the p used, rounded up
    length = batch_length(epsilon, delta, horizon=T, bits=m, dimension=d,
                          randomization_probability=p, batch_form=form)
    return SBLBParameters(regime=regime, epsilon=epsilon, delta=delta, shuffle_delta=delta,
                          horizon=T, dimension=d, local_epsilon=epsilon_0,
                          randomization_probability=p, bits=m, batch_length=length,
                          regularization=lam, eta=eta, context_bound=L, theta_bound=S,
                          sigma=sigma, batch_form=form)


# 0.1 name, deprecated for one release (p is the randomization probability; a bit flips w.p. p/2).
__getattr__ = renamed_attributes(__name__, {
    "flip_probability": ("randomization_probability", randomization_probability)})
