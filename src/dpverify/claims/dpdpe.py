"""DP-DPE (Li, Zhou & Ji 2022, distributed phased elimination with global rewards): the claims and their checks.

Thm 1/8's classical Gaussian at the experiments' ε = 10 (exact δ), Eq. (22)'s
shuffle constants (exact binomial accountant: a borrowed lemma checked), Thm
9's error order (sympy against the protocol's exact variance), Fig. 2's
"SDP ≈ CDP" (the noise ratio at the paper's last phase), the ordering of the
models, and Thms 4–6's explicit regret bounds against simulated regret.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np

import dpverify.claims.regret_bounds as regret_bounds
import dpverify.claims.symbolic as symbolic
from dpverify._numeric import round_up
from dpverify.bandits.linear import make_linear_algorithm
from dpverify.bandits.linear.environments import LinearInstanceFamily
from dpverify.bandits.linear.privatizers import CentralGaussianAverage
from dpverify.bandits.simulate import simulate
from dpverify.claims._simulations import bound_figure, explicit_verdict, rate_verdict, regret_rows
from dpverify.claims._types import CORRECTED, FAILS, HOLDS, Claim, Evidence
from dpverify.mechanisms import (
    VectorSummation,
    binomial_noise_delta,
    vector_summation_parameters,
)

__all__ = ["CLAIMS", "shuffle_protocol_delta"]

PAPER = "dpdpe"


def _classical_gaussian(scale: str) -> Evidence:
    rows = []
    for epsilon, delta in ((0.1, 1e-5), (0.5, 1e-5), (0.9, 0.25), (10.0, 0.25)):
        guarantee = CentralGaussianAverage(epsilon, delta).guarantee(1)
        rows.append({"epsilon": epsilon, "claimed_delta": delta, "exact_delta": guarantee.delta})
    paper = rows[-1]
    below_one = all(r["exact_delta"] <= r["claimed_delta"] for r in rows if r["epsilon"] < 1)
    return Evidence(FAILS,
                    "σ = Δ√(2 ln(1.25/δ))/ε is proven only for ε < 1 (where the exact δ is below the "
                    f"claim on the grid: {below_one}); at the experiments' ε = 10, δ = 0.25 the exact "
                    f"δ(10) of the noise added is {paper['exact_delta']:.3g}: the claim proves nothing",
                    {"rows": rows})


def shuffle_protocol_delta(epsilon: float, delta: float, *, users: int, dimension: int) -> dict:
    """Li, Zhou & Ji 2022, Alg. 2 with Eq. (22)'s constants: a rigorous δ at the claimed ε, and one real pair's.

    Per coordinate, the shuffler's view is a count: a fixed part, the users'
    rounding bits and ``Bin(|U| b, p)``; one user moves its own count by at
    most g. By joint convexity and post-processing, every neighbouring pair is
    at most :func:`~dpverify.mechanisms.binomial_noise_delta` with
    sensitivity g (exact, rounded up); basic composition over the s
    coordinates gives ``δ_total <= s δ_1(ε/s)``. The pair ``y = ±Δ e_1`` moves
    one coordinate by exactly g: its δ is ``δ_1(ε)`` (a lower bound).

    >>> row = shuffle_protocol_delta(10.0, 0.25, users=2353, dimension=4)
    >>> row["delta_upper"] <= 0.25
    True
    """
    params = vector_summation_parameters(epsilon, delta, users=users, dimension=dimension)
    trials = params.trials * users
    per_coordinate = binomial_noise_delta(trials, mpmath.mpf(epsilon) / dimension,
                                          probability=params.probability, sensitivity=params.precision)
    return {"epsilon": epsilon, "delta": delta, "users": users, "s": dimension, "g": params.precision,
            "b": params.trials, "p": params.probability,
            "delta_upper": round_up(dimension * per_coordinate, relative_error=1e-30),
            "delta_single_pair_at_epsilon_over_100": float(binomial_noise_delta(
                trials, mpmath.mpf(epsilon) / 100, probability=params.probability,
                sensitivity=params.precision))}


def _eq22_privacy(scale: str) -> Evidence:
    grid = [(10.0, 0.25, 2353, 4)] if scale == "quick" else [(10.0, 0.25, 2353, 4),
                                                            (10.0, 0.25, 2353, 60), (5.0, 0.1, 500, 8)]
    rows = [shuffle_protocol_delta(e, d, users=u, dimension=s) for e, d, u, s in grid]
    ok = all(r["delta_upper"] <= r["delta"] for r in rows)
    first = rows[0]
    return Evidence(HOLDS if ok else FAILS,
                    "Eq. (22)'s constants (Cheu et al. 2021 [R], primary text not read) checked with the "
                    f"exact binomial accountant: at ε = 10, δ = 0.25, |U| = 2353, s = 4 the protocol is "
                    f"(10, δ)-DP with δ <= {first['delta_upper']:.3g} (every pair, basic composition over "
                    "coordinates), and even at ε/100 one coordinate has δ = "
                    f"{first['delta_single_pair_at_epsilon_over_100']:.3g}: the constants hold with a "
                    "large margin (hence the noise of the next claim)", {"rows": rows})


def _thm9_variance(scale: str) -> Evidence:
    derivation = symbolic.dpdpe_shuffle_variance()
    rows = []
    for epsilon, delta, users, s in ((10.0, 0.25, 2353, 60), (1.0, 1e-6, 1000, 4), (5.0, 0.1, 300, 8)):
        protocol = VectorSummation.from_privacy(epsilon, delta, users=users, dimension=s, norm_bound=1.0)
        library = (2 / (protocol.precision * users)) ** 2 * users * protocol.trials * \
            protocol.probability * (1 - protocol.probability)
        derived = float(derivation.evaluate(norm_bound=1.0, users=users, dimension=s, epsilon=epsilon,
                                            delta=delta, p=protocol.probability))
        rows.append({"epsilon": epsilon, "delta": delta, "users": users, "s": s,
                     "library_noise_variance": library, "sympy_noise_variance": derived})
    agree = all(abs(r["library_noise_variance"] - r["sympy_noise_variance"])
                <= 1e-6 * r["sympy_noise_variance"] for r in rows)
    return Evidence(CORRECTED if agree else FAILS,
                    "Thm 9 prints σ_ns² = O(Δ ln(s/δ)/(ε²|U|²)); Eq. (22)'s constants give "
                    "116640 Δ² ln(4s/δ) ln(2/δ)(1 − p)/(ε²|U|²) = O(Δ² ln²(s/δ)/(ε²|U|²)) (sympy), which "
                    "matches the library's exact variance of the protocol's noise"
                    + ("" if agree else " — IT DOES NOT"), {"rows": rows},
                    derivation=derivation.text())


def _sdp_close_to_cdp(scale: str) -> Evidence:
    epsilon, delta, users, s, bound = 10.0, 0.25, 2353, 60, 1.0
    protocol = VectorSummation.from_privacy(epsilon, delta, users=users, dimension=s,
                                            norm_bound=bound * math.sqrt(s))
    sdp_sd = math.sqrt(protocol.variance_proxy())
    central = CentralGaussianAverage(epsilon, delta)
    cdp_sd = central.noise_sd(users, s)
    return Evidence(FAILS,
                    f"at the paper's last phase (|U| = {users}, s = {s}, ε = 10, δ = 0.25, B = 1) "
                    f"Eq. (22)'s protocol adds noise of sd {sdp_sd:.3g} per coordinate against the "
                    f"central Gaussian's {cdp_sd:.3g} (×{sdp_sd / cdp_sd:.0f}): with the printed "
                    "constants SDP-DPE cannot track CDP-DPE (strict xfail "
                    "tests/bandits/linear/test_linear_paper_claims.py::test_cdp_and_sdp_close_to_dpe)",
                    {"sdp_sd": sdp_sd, "cdp_sd": cdp_sd, "ratio": sdp_sd / cdp_sd})


def _final(name: str, family, T: int, runs: int) -> float:
    epsilon = None if name == "dpe" else 10.0
    result = simulate(make_linear_algorithm(name, epsilon=epsilon), family, T, runs=runs, seed=3)
    return float(result.final_regret().mean())


def _ordering(scale: str) -> Evidence:
    T, runs = (10 ** 5, 6) if scale == "quick" else (10 ** 6, 10)
    family = LinearInstanceFamily("dpdpe", dimension=5, n_arms=100)
    means = {name: _final(name, family, T, runs) for name in ("dpe", "dpdpe-central", "dpdpe-local")}
    ok = means["dpe"] < means["dpdpe-central"] < means["dpdpe-local"]
    return Evidence(HOLDS if ok else FAILS,
                    f"k = 100, d = 5, T = {T}, ε = 10, δ = 0.25 (paper mode), {runs} runs: DPE "
                    f"{means['dpe']:.3g} < CDP {means['dpdpe-central']:.3g} < LDP {means['dpdpe-local']:.3g}",
                    {"final_regret": means, "horizon": T, "runs": runs},
                    figure={"kind": "bar", "title": f"dpdpe Fig. 2(a) ordering at T = {T}",
                            "labels": list(means), "values": list(means.values())})


def _bound_check(name: str, bound_of_t, theorem: str):
    def check(scale: str) -> Evidence:
        horizons, runs = ([10 ** 4, 10 ** 5], 10) if scale == "quick" else ([10 ** 4, 10 ** 5, 10 ** 6], 20)
        family = LinearInstanceFamily("dpdpe", dimension=2, n_arms=10)
        epsilon = None if name == "dpe" else 10.0
        rows = regret_rows(make_linear_algorithm(name, epsilon=epsilon), family, horizons, runs=runs,
                           seed=8, bound=bound_of_t)
        ok = explicit_verdict(rows)
        vacuous = all(r["bound"] >= 2 * r["horizon"] for r in rows)
        return Evidence(HOLDS if ok else FAILS,
                        f"{theorem} (k = 10, d = 2, α = 0.8, σ = 0.1): the bound is "
                        + ", ".join(f"{r['bound']:.3g} vs simulated {r['mean']:.3g} ± {r['se']:.2g}"
                                    for r in rows)
                        + f" at T = {', '.join(str(r['horizon']) for r in rows)}"
                        + (" (vacuous: above the trivial 2T)" if vacuous else ""),
                        {"rows": rows, "vacuous": vacuous},
                        figure=bound_figure(f"dpdpe {theorem} vs simulated regret", rows,
                                            label=theorem))
    return check


def _thm7_rate(scale: str) -> Evidence:
    horizons, runs = ([10 ** 4, 10 ** 5, 10 ** 6], 4) if scale == "quick" else \
        ([10 ** 4, 10 ** 5, 10 ** 6, 10 ** 7], 10)
    instance = LinearInstanceFamily("dpdpe", dimension=2, n_arms=10)(np.random.default_rng(0))  # one instance: small se
    rows = regret_rows(make_linear_algorithm("dpdpe-shuffle", epsilon=10.0), instance, horizons, runs=runs,
                       seed=8,
                       bound=lambda T: regret_bounds.dpdpe_thm7(T, dimension=2, n_arms=10, epsilon=10.0, delta=0.25,
                                                                constant=1.0))
    ok, constants = rate_verdict(rows)
    return Evidence(HOLDS if ok else FAILS,
                    "Thm 7's σ_ns constant C is unspecified: with C = 1 the implied constant of Eq. (80) is "
                    + ", ".join(f"{c:.3g}" for c in constants)
                    + f" at T = {', '.join(str(r['horizon']) for r in rows)}"
                    + " (SDP-DPE, one instance, k = 10, d = 2, ε = 10)"
                    + ("" if ok else ": the regret grows faster than the bound — with Eq. (22)'s noise "
                       "SDP-DPE never eliminates, its regret is linear"),
                    {"rows": rows, "implied_constants": constants},
                    figure=bound_figure("dpdpe Thm 7 (C = 1) × max implied constant vs SDP-DPE", rows,
                                        label="Thm 7", scale=max(constants)))


CLAIMS = (
    Claim(PAPER, "thm1-gaussian", "Thm 1 / Thm 8 (Dwork & Roth)",
          "σ_nc = 2B√(2 s ln(1.25/δ))/(ε|U|) makes the release (ε, δ)-DP (experiments: ε = 10)",
          "numeric", _classical_gaussian),
    Claim(PAPER, "eq22-privacy", "Alg. 2, Eq. (22), Thm 3/9 (Cheu et al. 2021 [R])",
          "the shuffled vector average with Eq. (22)'s (g, b, p) is (ε, δ)-SDP", "numeric", _eq22_privacy),
    Claim(PAPER, "thm9-variance", "Thm 9", "the protocol's error is O(Δ ln(s/δ)/(ε²|U|²))", "symbolic",
          _thm9_variance),
    Claim(PAPER, "fig2-sdp", "§7, Fig. 2(b)", "SDP-DPE ≈ CDP-DPE ≈ DPE ('privacy for free')", "numeric",
          _sdp_close_to_cdp),
    Claim(PAPER, "fig2-order", "§7, Fig. 2(a)", "regret: DPE < CDP-DPE < LDP-DPE", "empirical", _ordering),
    Claim(PAPER, "thm4-bound", "Thm 4, Eq. (39)", "E[R(T)] of DPE is at most Eq. (39)", "statistical",
          _bound_check("dpe", lambda T: regret_bounds.dpdpe_thm4(T, dimension=2, n_arms=10), "Thm 4")),
    Claim(PAPER, "thm5-bound", "Thm 5, Eq. (52)", "E[R(T)] of CDP-DPE is at most Eq. (52)", "statistical",
          _bound_check("dpdpe-central", lambda T: regret_bounds.dpdpe_thm5(T, dimension=2, n_arms=10, epsilon=10.0,
                                                                           delta=0.25), "Thm 5")),
    Claim(PAPER, "thm6-bound", "Thm 6, Eq. (66)", "E[R(T)] of LDP-DPE is at most Eq. (66)", "statistical",
          _bound_check("dpdpe-local", lambda T: regret_bounds.dpdpe_thm6(T, dimension=2, n_arms=10, epsilon=10.0,
                                                                         delta=0.25), "Thm 6")),
    Claim(PAPER, "thm7-rate", "Thm 7, Eq. (80)", "E[R(T)] of SDP-DPE is at most Eq. (80) for some C",
          "empirical", _thm7_rate),
)
