"""Built-in example mechanisms with known true ε: the auditor's catalogue (CLI and tests).

Each :class:`ExampleMechanism` is a vectorised sampler, a neighbouring pair,
the claimed (ε, δ), and the *true* ε of that pair at the claimed δ (closed
form, exact pmfs, or quadrature). Correct examples meet their claim; buggy
ones are classic implementation mistakes:

================================  =======  ================================================================
name                              claim    mechanism
================================  =======  ================================================================
laplace                           1        Laplace(1) noise on a sensitivity-1 query
gaussian                          1,1e-5   Gaussian at the analytic σ (Balle & Wang 2018)
randomized_response               1        4-ary randomized response
noisy_max_exponential             1        report-noisy-max, Exp(2/ε) noise, releases the index
shuffled_binary_rr                1,1e-6   shuffled binary RR count, p = min_randomization_probability
polya_difference                  0.25     sum of 4 Pólya-difference shares (discrete Laplace)
mldp                              2        Garcelon et al.'s M_LDP, d = 1, m = 1
noisy_max_with_value              1        noisy-max index (ε/2) and its value + Lap(2) (ε/2): a record
laplace_half_scale                1        Laplace(1/2): the scale halved
gaussian_half_sigma               1,1e-5   Gaussian at half the analytic σ
noisy_max_value                   1        report-noisy-max releasing the noisy maximum
svt_no_query_noise                1        sparse vector without query noise (LSL 2017, Alg. 5)
svt_no_cutoff                     1        sparse vector answering every query (LSL 2017, Alg. 6)
histogram_wrong_sensitivity       1        Laplace(1/ε) on a histogram under replace-one (Δ1 = 2)
rr_wrong_p                        1        binary RR with p = 1/(e^ε + 1) instead of 2/(e^ε + 1)
mldp_budget_over_d                2        M_LDP splitting ε0 over d, not d(d+3)/2, coordinates
polya_inverted_scale              0.25     Pólya shares with Gamma scale (1 − β)/β (inverted)
noisy_max_value_low_noise         1        the record above with Lap(1/4) on the value: leaks through
                                           the numeric field within each index (mode "plain", mixed events)
shuffle_batch_miscalibrated       1,1e-6   shuffled binary RR on a batch of 50 users with the flip
                                           probability calibrated for 300 (mode "sequential")
gaussian_classical_large_epsilon  10,1e-3  σ = √(2 ln(1.25/δ))/ε at ε = 10, outside the
                                           classical theorem's ε < 1 (mode "model")
laplace_naive_float               1        textbook float Laplace x − b·sgn(u)·ln(1 − 2|u|) (Mironov
                                           2012; mode "float")
================================  =======  ================================================================

``mode`` says how each buggy example is refuted within 10^7 samples per side:
``"plain"`` (:func:`~dpverify.auditing.audit` with default events),
``"sequential"`` (``samples="auto"``), ``"model"``
(:func:`~dpverify.auditing.model.audit_model` with the example's ``model``)
or ``"float"`` (``events="float"``). Note that *every* float sampler here,
the correct ones included, would be refuted by ``events="float"``: the
catalogue's samplers are simulations, not deployable noise.

Training loops are audited from canary scores instead:
:data:`DP_SGD_VARIANTS` (from :mod:`dpverify.auditing.dp_sgd_variants`) is the
reference numpy DP-SGD and six classic bugs of DP-SGD code (noise on the mean's
scale, no per-example clipping, clipping after aggregation, shuffled fixed
batches accounted as Poisson, the canary in every batch, reused noise), each
claiming the reference's ε; one run with 1000 canaries flags each bug.

All samplers are float/numpy simulations (vectorised for speed), as an audit
of a real implementation would run that implementation.

References: Lyu, Su & Li 2017 (sparse vector variants); Garcelon et al. 2022
(M_LDP); Chowdhury & Zhou 2023 (Pólya shares); Cheu et al. 2019 (shuffled RR).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from dpverify._validation import check_choice
from dpverify.accountants.calibrate import analytic_gaussian_sigma, classical_gaussian_sigma
from dpverify.accountants.shuffle import min_randomization_probability
from dpverify.auditing._example_laws import mldp_report_pmf, noisy_max_pmf, svt_pattern_pmf
from dpverify.auditing.dp_sgd_variants import DP_SGD_VARIANTS, dp_sgd_variant
from dpverify.auditing.exact import exact_epsilon
from dpverify.mechanisms.continuous import gaussian_privacy_profile, laplace_privacy_profile
from dpverify.mechanisms.encoding import LocalPrivatizer
from dpverify.mechanisms.protocols import BinarySummation
from dpverify.mechanisms.randomized_response import BinaryRandomizedResponse, RandomizedResponse

__all__ = ["ExampleMechanism", "CATALOGUE", "example", "explore_then_commit", "explore_then_commit_pmf",
           "DP_SGD_VARIANTS", "dp_sgd_variant"]


@dataclass(frozen=True)
class ExampleMechanism:
    """A catalogued mechanism: sampler, neighbouring pair, claim, and the pair's true ε.

    ``exact_pmfs()`` returns the two output pmfs for finite-output examples
    (``None`` otherwise); ``true_epsilon`` is the pair's ε at the claimed δ.
    """

    name: str
    description: str
    sampler: Callable[[Any, int, np.random.Generator], np.ndarray]
    x: Any
    x_prime: Any
    epsilon: float
    delta: float
    correct: bool
    true_epsilon_fn: Callable[[], float] = field(repr=False)
    exact_pmfs_fn: Callable[[], Any] | None = field(default=None, repr=False)
    mode: str = "plain"
    model: dict | None = field(default=None, repr=False)

    @functools.cached_property
    def true_epsilon(self) -> float:
        """The smallest ε making the pair (ε, δ)-DP at the claimed δ."""
        return float(self.true_epsilon_fn())

    def exact_pmfs(self) -> Any:
        """``(p, q)``: the output pmfs on ``x`` and ``x'`` (finite outputs), else ``None``."""
        return None if self.exact_pmfs_fn is None else self.exact_pmfs_fn()

    def true_epsilon_at(self, delta: float) -> float | None:
        """The pair's true ε at another δ, when it is known in closed form or from exact pmfs.

        ``None`` when it is not (the CLI then prints no "true epsilon" line
        rather than the one at the example's own δ).

        >>> example("laplace").true_epsilon_at(0.0)
        1.0
        >>> example("noisy_max_value").true_epsilon_at(0.1) is None
        True
        """
        if delta == self.delta:
            return self.true_epsilon
        pmfs = self.exact_pmfs()
        if pmfs is not None:
            return float(exact_epsilon(*pmfs, delta=delta))
        curve = _CURVES.get(self.name)
        return None if curve is None else float(curve().epsilon_for_delta(delta))


def _laplace(scale: float) -> Callable:
    def sampler(data: Any, size: int, rng: np.random.Generator) -> np.ndarray:
        return data + rng.laplace(0.0, scale, size)
    return sampler


def _gaussian(sigma: float) -> Callable:
    def sampler(data: Any, size: int, rng: np.random.Generator) -> np.ndarray:
        return data + rng.normal(0.0, sigma, size)
    return sampler


@functools.cache
def _analytic_sigma() -> float:
    return analytic_gaussian_sigma(1.0, 1e-5)


def _gaussian_true(sigma_factor: float) -> float:
    return gaussian_privacy_profile(_analytic_sigma() * sigma_factor).epsilon_for_delta(1e-5)


def _gaussian_example(factor: float) -> Callable:
    def sampler(data: Any, size: int, rng: np.random.Generator) -> np.ndarray:
        return data + rng.normal(0.0, _analytic_sigma() * factor, size)
    return sampler


def _k_rr(k: int, epsilon: float) -> tuple[Callable, Callable]:
    mechanism = RandomizedResponse(k, epsilon)

    def sampler(data: Any, size: int, rng: np.random.Generator) -> np.ndarray:
        return mechanism.simulate(data, rng=rng, size=size)
    return sampler, lambda: (mechanism.law_on(0).probabilities, mechanism.law_on(1).probabilities)


def _binary_rr(flip: float) -> tuple[Callable, Callable]:
    mechanism = BinaryRandomizedResponse(flip)

    def sampler(data: Any, size: int, rng: np.random.Generator) -> np.ndarray:
        return mechanism.simulate(data, rng=rng, size=size)
    return sampler, lambda: (mechanism.law_on(1).probabilities, mechanism.law_on(0).probabilities)


def _noisy_max(release_value: bool, epsilon: float = 1.0) -> Callable:
    def sampler(data: Any, size: int, rng: np.random.Generator) -> np.ndarray:
        noisy = np.asarray(data, dtype=float) + rng.exponential(2 / epsilon, (size, len(data)))
        return noisy.max(axis=1) if release_value else np.argmax(noisy, axis=1)
    return sampler


def _svt(queries_scale: float | None, threshold: float = 0.5, epsilon: float = 1.0) -> Callable:
    """Sparse vector answering every query: ⊤ = 1 iff q_i (+ Lap) >= T + Lap(2/ε)."""
    def sampler(data: Any, size: int, rng: np.random.Generator) -> np.ndarray:
        queries = np.asarray(data, dtype=float)
        rho = threshold + rng.laplace(0.0, 2 / epsilon, (size, 1))
        noisy = queries + (0.0 if queries_scale is None else
                           rng.laplace(0.0, queries_scale, (size, len(queries))))
        return (noisy >= rho).astype(np.int8)
    return sampler


def _svt_no_cutoff_pmfs() -> tuple[list[float], list[float]]:
    laws = [svt_pattern_pmf(q, threshold=0.5, threshold_scale=2.0, query_scale=2.0)
            for q in (_SVT_QUERIES, _SVT_QUERIES_PRIME)]
    return list(laws[0].values()), [laws[1][k] for k in laws[0]]


def _histogram(scale: float) -> Callable:
    def sampler(data: Any, size: int, rng: np.random.Generator) -> np.ndarray:
        counts = np.asarray(data, dtype=float)
        return counts + rng.laplace(0.0, scale, (size, len(counts)))
    return sampler


def _polya_shares(shares: int, scale: float, inverted: bool) -> Callable:
    """Sum of ``shares`` users' Pólya differences; ``inverted`` uses Gamma scale (1 − β)/β."""
    beta = math.exp(-1 / scale)
    gamma_scale = (1 - beta) / beta if inverted else beta / (1 - beta)

    def sampler(data: Any, size: int, rng: np.random.Generator) -> np.ndarray:
        rates = rng.gamma(1 / shares, gamma_scale, (2, size, shares))
        draws = rng.poisson(rates).sum(axis=2)
        return data + draws[0] - draws[1]
    return sampler


def _mldp(epsilon_0: float, buggy: bool) -> tuple[LocalPrivatizer, Callable, Callable]:
    """Garcelon et al. 2022's M_LDP with d = m = 1; the bug spreads ε0 over d = 1 entries, not d(d+3)/2 = 2."""
    claimed = epsilon_0 * 2 if buggy else epsilon_0  # LocalPrivatizer divides by d(d+3)/2 = 2
    privatizer = LocalPrivatizer(dimension=1, bits=1, local_epsilon=claimed, context_bound=1.0)

    def sampler(data: Any, size: int, rng: np.random.Generator) -> np.ndarray:
        context, reward = data
        contexts = np.broadcast_to(np.asarray(context, dtype=float), (size, 1))
        b, w = privatizer.simulate(contexts, np.full(size, reward), rng=rng)
        return np.concatenate([b.reshape(size, -1), w.reshape(size, -1)], axis=1)

    pmfs = lambda: (mldp_report_pmf(privatizer, *_MLDP_X),  # noqa: E731
                    mldp_report_pmf(privatizer, *_MLDP_X_PRIME))
    return privatizer, sampler, pmfs


def _shuffled_rr(users: int = 50, others_with_one: int = 24,
                 calibrated_for: int = 50) -> tuple[Callable, Callable]:
    """The count of ones of ``users`` shuffled binary-RR reports; user 1 holds ``data``.

    The randomization probability is ``min_randomization_probability(calibrated_for, 1, 1e-6)``:
    right when ``calibrated_for == users``, too small (too little noise) when
    ε0 was calibrated for more users than the batch holds.
    """
    def sampler(data: Any, size: int, rng: np.random.Generator) -> np.ndarray:
        flip = _shuffled_flip(calibrated_for)
        keep, lie = 1 - flip / 2, flip / 2
        counts = rng.binomial(others_with_one, keep, size)
        counts += rng.binomial(users - 1 - others_with_one, lie, size)
        return counts + (rng.random(size) < (keep if data else lie))

    def pmfs() -> tuple[Any, Any]:
        protocol = BinarySummation(users=users, randomization_probability=_shuffled_flip(calibrated_for))
        return (protocol.count_law(others_with_one + 1, exact=False).probabilities,
                protocol.count_law(others_with_one, exact=False).probabilities)

    return sampler, pmfs


@functools.cache
def _shuffled_flip(users: int = 50) -> float:
    return min_randomization_probability(users, 1.0, 1e-6, rtol=1e-6)


def _noisy_max_with_value(value_scale: float, index_epsilon: float = 0.5) -> Callable:
    """Noisy-max index with Exp(2/ε1) noise, released with its score plus Lap(value_scale)."""
    def sampler(data: Any, size: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        scores = np.asarray(data, dtype=float)
        index = np.argmax(scores + rng.exponential(2 / index_epsilon, (size, len(scores))), axis=1)
        return index, scores[index] + rng.laplace(0.0, value_scale, size)
    return sampler


def _noisy_max_with_value_true(value_scale: float, index_epsilon: float = 0.5) -> float:
    """``max_i ln(P_x(i)/P_x'(i)) + 1/b`` for scores (0, 1) vs (1, 0).

    Given the index ``i`` the value is ``q_i + Lap(b)`` with ``|q_i − q'_i| = 1``,
    whose density ratio reaches ``e^{1/b}`` on a tail; the index ratio is
    exact (:func:`noisy_max_pmf`), so the sup of the joint ratio is the sum.
    """
    first = noisy_max_pmf((0.0, 1.0), index_epsilon / 2)
    second = noisy_max_pmf((1.0, 0.0), index_epsilon / 2)
    ratio = max(math.log(a / b) for a, b in zip(first, second))
    return ratio + 1 / value_scale


def _naive_float_laplace(scale: float) -> Callable:
    """The textbook inverse-CDF float Laplace: ``x − b·sgn(u)·ln(1 − 2|u|)``, u ~ U(−1/2, 1/2)."""
    def sampler(data: Any, size: int, rng: np.random.Generator) -> np.ndarray:
        u = rng.random(size) - 0.5
        return data - scale * np.sign(u) * np.log(1 - 2 * np.abs(u))
    return sampler


@functools.cache
def _classical_sigma() -> float:
    return classical_gaussian_sigma(10.0, 1e-3)


def _classical_gaussian(data: Any, size: int, rng: np.random.Generator) -> np.ndarray:
    return data + rng.normal(0.0, _classical_sigma(), size)


def _classical_curve() -> Any:
    return gaussian_privacy_profile(_classical_sigma())


_SVT_QUERIES = (0.0, 0.0, 0.0, 1.0, 1.0, 1.0)
_SVT_QUERIES_PRIME = (1.0, 1.0, 1.0, 0.0, 0.0, 0.0)
_MLDP_X = ((-0.375,), 1.0)
_MLDP_X_PRIME = ((1.0,), 1.0)


def _from_pmfs(pmfs: Callable, delta: float = 0.0) -> Callable[[], float]:
    return lambda: exact_epsilon(*pmfs(), delta=delta)


def _correct() -> list[ExampleMechanism]:
    entries: list[ExampleMechanism] = []
    add = entries.append
    add(ExampleMechanism("laplace", "Laplace(1) noise, x = 0 vs 1", _laplace(1.0), 0.0, 1.0,
                         1.0, 0.0, True, lambda: 1.0))
    add(ExampleMechanism("gaussian", "Gaussian at the analytic sigma for (1, 1e-5)",
                         _gaussian_example(1.0), 0.0, 1.0, 1.0, 1e-5, True,
                         lambda: _gaussian_true(1.0)))
    rr_sampler, rr_pmfs = _k_rr(4, 1.0)
    add(ExampleMechanism("randomized_response", "4-ary randomized response, eps = 1", rr_sampler,
                         0, 1, 1.0, 0.0, True, _from_pmfs(rr_pmfs), rr_pmfs))
    max_pmfs = lambda: (noisy_max_pmf((0.0, 1.0), 0.5), noisy_max_pmf((1.0, 0.0), 0.5))  # noqa
    add(ExampleMechanism("noisy_max_exponential",
                         "report-noisy-max with Exp(2/eps) noise, scores (0,1) vs (1,0)",
                         _noisy_max(False), (0.0, 1.0), (1.0, 0.0), 1.0, 0.0, True,
                         _from_pmfs(max_pmfs), max_pmfs))
    shuffled_sampler, shuffled_pmfs = _shuffled_rr()
    add(ExampleMechanism("shuffled_binary_rr",
                         "shuffled binary RR count, 50 users, p = min_randomization_probability(50, 1, 1e-6)",
                         shuffled_sampler, 1, 0, 1.0, 1e-6, True,
                         _from_pmfs(shuffled_pmfs, 1e-6), shuffled_pmfs))
    add(ExampleMechanism("polya_difference", "sum of 4 Polya-difference shares (discrete "
                         "Laplace, scale 4)", _polya_shares(4, 4.0, False), 0, 1, 0.25, 0.0,
                         True, lambda: 0.25))
    _, mldp_sampler, mldp_pmfs = _mldp(2.0, buggy=False)
    add(ExampleMechanism("mldp", "Garcelon et al. 2022's M_LDP (d = 1, m = 1, eps0 = 2)", mldp_sampler,
                         _MLDP_X, _MLDP_X_PRIME, 2.0, 0.0, True, _from_pmfs(mldp_pmfs),
                         mldp_pmfs))
    add(ExampleMechanism("noisy_max_with_value", "noisy-max index (Exp(4) noise, eps/2) released "
                         "with its score + Lap(2) (eps/2): a (index, value) record, scores (0,1) "
                         "vs (1,0)", _noisy_max_with_value(2.0), (0.0, 1.0), (1.0, 0.0), 1.0, 0.0,
                         True, lambda: _noisy_max_with_value_true(2.0)))
    return entries


def _buggy() -> list[ExampleMechanism]:
    entries: list[ExampleMechanism] = []
    add = entries.append
    add(ExampleMechanism("laplace_half_scale", "Laplace(1/2) claimed as 1-DP", _laplace(0.5),
                         0.0, 1.0, 1.0, 0.0, False, lambda: 2.0))
    add(ExampleMechanism("gaussian_half_sigma", "Gaussian at half the analytic sigma",
                         _gaussian_example(0.5), 0.0, 1.0, 1.0, 1e-5, False,
                         lambda: _gaussian_true(0.5)))
    add(ExampleMechanism("noisy_max_value", "report-noisy-max releasing the noisy maximum, "
                         "scores (0,0) vs (1,1)", _noisy_max(True), (0.0, 0.0), (1.0, 1.0),
                         1.0, 0.0, False, lambda: math.inf))
    add(ExampleMechanism("svt_no_query_noise", "sparse vector without query noise (LSL Alg. 5), "
                         "queries (0,1) vs (1,0)", _svt(None), (0.0, 1.0), (1.0, 0.0), 1.0,
                         0.0, False, lambda: math.inf))
    add(ExampleMechanism("svt_no_cutoff", "sparse vector answering all 6 queries (LSL Alg. 6)",
                         _svt(2.0), _SVT_QUERIES, _SVT_QUERIES_PRIME, 1.0, 0.0, False,
                         _from_pmfs(_svt_no_cutoff_pmfs), _svt_no_cutoff_pmfs))
    add(ExampleMechanism("histogram_wrong_sensitivity", "Laplace(1) histogram, replace-one "
                         "counts (1,0) vs (0,1)", _histogram(1.0), (1.0, 0.0), (0.0, 1.0), 1.0,
                         0.0, False, lambda: 2.0))
    wrong_sampler, wrong_pmfs = _binary_rr(1 / (math.e + 1))
    add(ExampleMechanism("rr_wrong_p", "binary RR with p = 1/(e + 1), not 2/(e + 1)",
                         wrong_sampler, 1, 0, 1.0, 0.0, False, _from_pmfs(wrong_pmfs), wrong_pmfs))
    _, bug_sampler, bug_pmfs = _mldp(2.0, buggy=True)
    add(ExampleMechanism("mldp_budget_over_d", "M_LDP splitting eps0 = 2 over d = 1 entries "
                         "instead of d(d+3)/2 = 2", bug_sampler, _MLDP_X, _MLDP_X_PRIME, 2.0,
                         0.0, False, _from_pmfs(bug_pmfs), bug_pmfs))
    add(ExampleMechanism("polya_inverted_scale", "Polya shares with the inverted Gamma scale",
                         _polya_shares(4, 4.0, True), 0, 1, 0.25, 0.0, False,
                         lambda: -math.log1p(-math.exp(-0.25))))
    add(ExampleMechanism("noisy_max_value_low_noise", "noisy-max index with its score + Lap(1/4): "
                         "the record leaks through its numeric field", _noisy_max_with_value(0.25),
                         (0.0, 1.0), (1.0, 0.0), 1.0, 0.0, False,
                         lambda: _noisy_max_with_value_true(0.25)))
    batch_sampler, batch_pmfs = _shuffled_rr(calibrated_for=300)
    add(ExampleMechanism("shuffle_batch_miscalibrated", "shuffled binary RR count of a batch of 50 "
                         "users, randomization probability calibrated for 300 users", batch_sampler, 1, 0,
                         1.0, 1e-6, False, _from_pmfs(batch_pmfs, 1e-6), batch_pmfs,
                         mode="sequential"))
    add(ExampleMechanism("gaussian_classical_large_epsilon", "Gaussian at the classical sigma "
                         "sqrt(2 ln(1.25/delta))/eps for (10, 1e-3), outside its eps < 1 range",
                         _classical_gaussian, 0.0, 1.0, 10.0, 1e-3, False,
                         lambda: _classical_curve().epsilon_for_delta(1e-3), mode="model",
                         model={"family": "gaussian", "sensitivity": 1.0}))
    add(ExampleMechanism("laplace_naive_float", "textbook float Laplace(1) by inverse CDF "
                         "(Mironov 2012), x = 0 vs 1", _naive_float_laplace(1.0), 0.0, 1.0, 1.0,
                         0.0, False, lambda: math.inf, mode="float"))
    return entries


def _laplace_curve(scale: float) -> Callable[[], Any]:
    def curve() -> Any:
        return laplace_privacy_profile(scale)
    return curve


def _gaussian_curve(factor: float) -> Callable[[], Any]:
    def curve() -> Any:
        return gaussian_privacy_profile(_analytic_sigma() * factor)
    return curve


#: Examples whose privacy curve is known (their true ε at any δ).
_CURVES: dict[str, Callable[[], Any]] = {
    "laplace": _laplace_curve(1.0), "laplace_half_scale": _laplace_curve(0.5),
    "gaussian": _gaussian_curve(1.0), "gaussian_half_sigma": _gaussian_curve(0.5),
    "gaussian_classical_large_epsilon": _classical_curve,
}

CATALOGUE: dict[str, ExampleMechanism] = {entry.name: entry for entry in _correct() + _buggy()}
"""The built-in examples by name (correct ones first)."""


def example(name: str) -> ExampleMechanism:
    """The catalogued mechanism called ``name``.

    >>> example("laplace_half_scale").true_epsilon
    2.0
    """
    return CATALOGUE[check_choice(name, "name", CATALOGUE)]


# --------------------------------------------------------------------------- interactive


def explore_then_commit(stream: Any, rng: np.random.Generator, *, noise_scale: float = 1.0,
                        explore: int | None = None) -> list[int]:
    """A private explore-then-commit bandit: its transcript (the arms pulled), for audits.

    ``stream[t, k]`` is the reward in [0, 1] of arm ``k`` at round ``t``.
    Rounds ``t < explore`` (default: half the horizon) pull arm ``t mod K``;
    then the arm with the largest Laplace(``noise_scale``)-noised reward sum is
    pulled until the end. A reward changes one arm's sum by at most 1, so the
    commitment (hence the transcript) is ``1/noise_scale``-DP for streams that
    differ in one reward (the Laplace mechanism plus post-processing).

    >>> rng = np.random.default_rng(0)
    >>> explore_then_commit(np.ones((6, 2)), rng)[:3]
    [0, 1, 0]
    """
    rewards = np.asarray(stream, dtype=float)
    horizon, arms = rewards.shape
    explore = horizon // 2 if explore is None else explore
    actions = [t % arms for t in range(explore)]
    totals = np.zeros(arms)
    for t, arm in enumerate(actions):
        totals[arm] += rewards[t, arm]
    best = int(np.argmax(totals + rng.laplace(0.0, noise_scale, arms)))
    return actions + [best] * (horizon - explore)


def explore_then_commit_pmf(stream: Any, *, noise_scale: float = 1.0,
                            explore: int | None = None) -> tuple[float, float]:
    """``(P[commit to arm 0], P[commit to arm 1])`` of :func:`explore_then_commit` with 2 arms.

    The difference ``D`` of two i.i.d. Laplace(b) draws has
    ``P[D > t] = e^{−t/b}(2 + t/b)/4`` for ``t >= 0`` (its density is
    ``(1 + |t|/b) e^{−|t|/b}/(4b)``), and the commitment is arm 0 iff
    ``D > S_1 − S_0``.
    """
    rewards = np.asarray(stream, dtype=float)
    horizon = rewards.shape[0]
    explore = horizon // 2 if explore is None else explore
    sums = [sum(rewards[t, t % 2] for t in range(explore) if t % 2 == arm) for arm in (0, 1)]
    gap = (sums[1] - sums[0]) / noise_scale
    tail = math.exp(-abs(gap)) * (2 + abs(gap)) / 4
    first = tail if gap >= 0 else 1 - tail
    return first, 1 - first
