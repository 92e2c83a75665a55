"""Hanna et al. 2022 (private linear bandits "almost for free"): the claims and their checks.

Alg. 1 / 2 / 3's privacy (Lap(1/ε) on rewards in [−1, 1] is 2ε-DP: App. A.1's Eq. (12) takes sensitivity 1),
Eq. (10)'s inverse and validity region (sympy against the library's
calibration), Lemma 4's Laplace MGF step, Lemma 1's ζ-net on a continuous
action set (the sphere), "privacy almost for free" and Fig. 3(b)'s core set,
and Thm 1's rate against simulated regret.
"""

from __future__ import annotations

import math

import numpy as np
import sympy as sp

import dpverify.claims.regret_bounds as regret_bounds
import dpverify.claims.symbolic as symbolic
from dpverify._deprecation import renamed_parameters
from dpverify.accountants.shuffle_papers import hanna_local_epsilons
from dpverify.auditing import audit
from dpverify.bandits import RewardBatch
from dpverify.bandits.design import net_size_bound, sphere_net
from dpverify.bandits.linear import make_linear_algorithm
from dpverify.bandits.linear.environments import LinearBandit, LinearInstanceFamily
from dpverify.bandits.linear.privatizers import LaplaceSum, LocalLaplaceSum, ShuffledLaplaceSum
from dpverify.bandits.simulate import simulate
from dpverify.claims._simulations import bound_figure, rate_verdict, regret_rows
from dpverify.claims._types import CORRECTED, FAILS, HOLDS, Claim, Evidence

__all__ = ["CLAIMS", "net_bandit", "discretisation_gap"]

PAPER = "hanna"
REWARDS = np.array([-1.0, 1.0, -1.0, 1.0, 1.0, -1.0])


def _sampler(privatizer):
    def draw(data, size, rng):
        values = np.asarray(data, dtype=float)
        batch = RewardBatch(size=values.size, total=float(values.sum()), values=values)
        return privatizer.sample_estimates(batch, size=size, rng=rng)
    return draw


def _laplace_claim(kind, local: bool):
    def check(scale: str) -> Evidence:
        samples = 50_000 if scale == "quick" else 200_000
        prime = REWARDS.copy()
        prime[0] = 1.0  # one user's reward in [−1, 1] changed: the sum moves by 2
        data = (REWARDS[:1], prime[:1]) if local else (REWARDS, prime)
        reports = {mode: audit(_sampler(kind(1.0, mode)), *data, epsilon=1.0, samples=samples,
                               confidence=0.999, seed=11) for mode in ("paper", "sound")}
        paper, sound = reports["paper"], reports["sound"]
        true_level = kind(1.0, "paper").guarantee(6).epsilon
        ok = paper.violation and not sound.violation
        return Evidence(CORRECTED if ok else FAILS,
                        f"as printed (Lap(1/ε), rewards in [−1, 1], sensitivity 2) the mechanism is "
                        f"{true_level:g}ε-DP at claimed ε = 1: the audit (confidence 0.999) certifies "
                        f"ε >= {paper.epsilon_lower_bound:.3g}; with Lap(2/ε) (sound mode) it is ε-DP and "
                        f"the audit finds no violation (lower bound {sound.epsilon_lower_bound:.3g})",
                        {"claimed_epsilon": 1.0, "true_epsilon_paper_mode": true_level,
                         "audit_lower_bound_paper": paper.epsilon_lower_bound,
                         "audit_lower_bound_sound": sound.epsilon_lower_bound, "samples": samples})
    return check


def _shuffled(scale: str) -> Evidence:
    rows = []
    for users in (10 ** 3, 10 ** 4, 10 ** 5):
        paper = ShuffledLaplaceSum(1.0, 1e-6).guarantee(users)
        sound = ShuffledLaplaceSum(1.0, 1e-6, mode="sound").guarantee(users)
        rows.append({"users": users, "paper_epsilon": paper.epsilon, "sound_epsilon": sound.epsilon})
    ok = all(r["sound_epsilon"] <= 1.0 for r in rows) and any(r["paper_epsilon"] > 1.0 for r in rows)
    return Evidence(CORRECTED if ok else FAILS,
                    "each batch's randomizer r + Lap(1/ε0) is 2ε0-LDP (not ε0), so FMT's bound at "
                    "2ε0 exceeds the claimed ε = 1 (δ = 1e-6); with Lap(2/ε0) it meets it",
                    {"rows": rows})


def _eq10(scale: str) -> Evidence:
    derivation = symbolic.hanna_shuffle_inverse()
    rows = []
    for n in (10 ** 3, 10 ** 4, 10 ** 5, 10 ** 6):
        library = hanna_local_epsilons([n], 1.0, 1e-6)[0]
        derived = derivation.evaluate(epsilon=1.0, n=n, delta=1e-6)
        rows.append({"users": n, "library_local_epsilon": library, "sympy_local_epsilon": derived})
    agree = all(r["sympy_local_epsilon"] is not None
                and abs(r["library_local_epsilon"] - r["sympy_local_epsilon"])
                <= 1e-6 * r["sympy_local_epsilon"] for r in rows)
    return Evidence(HOLDS if agree else FAILS,
                    "Eq. (10) is FMT 2021's bound; its inverse is the root u > 1 of a quartic in "
                    "u = e^{ε0/2} (sympy), capped by the validity region ε0 <= ln(n/(16 ln(2/δ))). "
                    "The library's calibration agrees with the sympy root at ε = 1, δ = 1e-6",
                    {"rows": rows}, derivation=derivation.text())


def _lemma4(scale: str) -> Evidence:
    x = sp.symbols("x", positive=True)  # x = λ² b²
    laplace, claimed = 1 / (1 - x), sp.exp(x / 2)
    series = sp.series(laplace - claimed, x, 0, 3).removeO()
    at_half = float((laplace - claimed).subs(x, sp.Rational(1, 4)))
    text = (f"Laplace MGF 1/(1 − λ²b²) − e^(λ²b²/2) = {sp.sstr(series)} + O(x³) with x = λ²b²: "
            f"positive for every small x > 0; at b = 1, λ = 1/2: {float(laplace.subs(x, 0.25)):.4f} vs "
            f"{float(claimed.subs(x, 0.25)):.4f}")
    return Evidence(FAILS, "Lemma 4's step (c) bounds the Laplace MGF by a Gaussian one with variance "
                    "proxy b², which is false (it needs 2b² at least); the confidence widths γ_i are "
                    "optimistic", {"difference_at_b1_lambda_half": at_half}, derivation=text)


@renamed_parameters(d="dimension")
def net_bandit(dimension: int, zeta: float, theta) -> LinearBandit:
    """Hanna et al. 2022, Lemma 1, on the unit sphere: the bandit whose actions are a ζ-net of ``S^{d−1}``
    (d = ``dimension``).

    :func:`~dpverify.bandits.design.sphere_net` gives the net (every unit vector
    within ζ of a net point); the algorithms run on it unchanged.

    >>> net_bandit(2, 0.1, [0.6, 0.8]).n_arms
    32
    """
    return LinearBandit(sphere_net(dimension, zeta), np.asarray(theta, dtype=float))


def discretisation_gap(environment: LinearBandit) -> float:
    """``max_{‖a‖=1} ⟨θ, a⟩ − max_{a ∈ net} ⟨θ, a⟩ = ‖θ‖ − max_net ⟨θ, a⟩`` (exact, per round).

    >>> round(discretisation_gap(net_bandit(2, 0.1, [1.0, 0.0])), 12)
    0.0
    """
    theta = np.asarray(environment.theta, dtype=float)
    return float(np.linalg.norm(theta) - np.max(environment.actions @ theta))


def _zeta_net(scale: str) -> Evidence:
    T = 10 ** 4 if scale == "quick" else 10 ** 5
    zeta = 1 / math.sqrt(T)  # ζ = 1/T is infeasible to play (up to (3T)^d actions); the gap is still <= Tζ²/2
    rng = np.random.default_rng(19)
    thetas = rng.normal(size=(4, 2))
    thetas /= np.linalg.norm(thetas, axis=1, keepdims=True)
    rows = []
    for theta in thetas:
        env = net_bandit(2, zeta, theta)
        gap = discretisation_gap(env)
        result = simulate(make_linear_algorithm("hanna-central", epsilon=1.0, mode="sound"), env, T,
                          runs=2, seed=3)
        rows.append({"net_size": env.n_arms, "gap_per_round": gap, "T_gap": T * gap,
                     "lemma_allowance_T_zeta": T * zeta,
                     "regret_on_net": float(result.final_regret().mean())})
    ok = all(r["T_gap"] <= min(r["lemma_allowance_T_zeta"], 0.5 + 1e-9) for r in rows)
    paper_size = net_size_bound(2, 1 / 10 ** 6)
    return Evidence(HOLDS if ok else FAILS,
                    f"playing a ζ-net of the sphere with ζ = 1/√T (T = {T}) costs T·(‖θ‖ − max_net ⟨θ,a⟩) "
                    f"<= {max(r['T_gap'] for r in rows):.3g} extra regret (on the sphere a chord ζ loses at "
                    "most ζ²/2 per round, so ζ = 1/√T already adds <= 1/2); Lemma 1's prescribed ζ = 1/T "
                    f"is not playable (its size bound at T = 1e6, d = 2: {paper_size:.3g} actions)",
                    {"rows": rows, "paper_net_size_bound": paper_size, "zeta": zeta, "horizon": T})


def _family_final(name: str, family, T: int, runs: int, **options) -> tuple[float, float]:
    result = simulate(make_linear_algorithm(name, **options), family, T, runs=runs, seed=3)
    final = result.final_regret()
    return float(final.mean()), float(final.std(ddof=1) / math.sqrt(runs))


def _for_free(scale: str) -> Evidence:
    T, runs = (10 ** 4, 10) if scale == "quick" else (10 ** 5, 30)
    family = LinearInstanceFamily("sphere", dimension=2, n_arms=10)
    results = {name: _family_final(name, family, T, runs, **({} if name == "hanna-nonprivate"
                                                             else {"epsilon": 1.0}))
               for name in ("hanna-nonprivate", "hanna-central", "hanna-shuffled", "hanna-local")}
    mean = {k: v[0] for k, v in results.items()}
    ok = mean["hanna-local"] > max(mean["hanna-central"], mean["hanna-shuffled"])
    return Evidence(HOLDS if ok else FAILS,
                    f"K = 10, d = 2, T = {T}, ε = 1 (paper mode), {runs} runs: central "
                    f"{mean['hanna-central']:.3g}, shuffled {mean['hanna-shuffled']:.3g}, local "
                    f"{mean['hanna-local']:.3g}, non-private {mean['hanna-nonprivate']:.3g}",
                    {"final_regret": results, "horizon": T, "runs": runs},
                    figure={"kind": "bar", "title": f"hanna §6: final regret at T = {T}",
                            "labels": list(mean), "values": list(mean.values())})


def _core_set(scale: str) -> Evidence:
    T, runs = (2 * 10 ** 4, 4) if scale == "quick" else (10 ** 7, 4)  # full: the paper's horizon
    family = LinearInstanceFamily("sphere", dimension=2, n_arms=1000)
    core = _family_final("hanna-central", family, T, runs, epsilon=1.0)
    whole = _family_final("hanna-central", family, T, runs, epsilon=1.0, core_set=False)
    return Evidence(HOLDS if core[0] < whole[0] else FAILS,
                    f"K = 1000, d = 2, T = {T}: core set {core[0]:.3g} ± {core[1]:.2g} vs whole active "
                    f"set {whole[0]:.3g} ± {whole[1]:.2g}"
                    + (" (quick scale; the paper's T = 1e7 runs at full scale, where the order reverses "
                       "— strict xfail in tests/bandits/linear/test_linear_paper_claims.py)"
                       if T < 10 ** 7 else " at the paper's horizon"),
                    {"core": core, "whole": whole, "horizon": T, "runs": runs})


def _rate_claim(algorithm: str, bound, theorem: str, **options):
    def check(scale: str) -> Evidence:
        horizons, runs = ([10 ** 3, 10 ** 4, 5 * 10 ** 4], 8) if scale == "quick" else \
            ([10 ** 4, 10 ** 5, 10 ** 6], 20)
        rows = regret_rows(make_linear_algorithm(algorithm, mode="sound", **options),
                           LinearInstanceFamily("sphere", dimension=2, n_arms=10), horizons, runs=runs, seed=7, bound=bound)
        ok, constants = rate_verdict(rows)
        return Evidence(HOLDS if ok else FAILS,
                        f"{theorem}'s constant C is unspecified; {algorithm} (sound mode, K = 10, d = 2): "
                        "the implied C = mean regret / bound(C = 1) is "
                        + ", ".join(f"{c:.3g}" for c in constants)
                        + f" at T = {', '.join(str(r['horizon']) for r in rows)}"
                        + (" (not growing: the rate holds)" if ok else " (growing: the rate is refuted)"),
                        {"rows": rows, "implied_constants": constants},
                        figure=bound_figure(f"hanna {theorem} × max implied C vs simulated regret", rows,
                                            label=f"{theorem} bound", scale=max(constants)))
    return check


CLAIMS = (
    Claim(PAPER, "alg1-dp", "Thm 1 / App. A.1, Alg. 1", "Alg. 1 (Lap(1/ε) on reward sums) is ε-DP",
          "statistical", _laplace_claim(LaplaceSum, local=False)),
    Claim(PAPER, "alg2-ldp", "Thm 2, Alg. 2", "Alg. 2 (r + Lap(1/ε0)) is ε0-LDP", "statistical",
          _laplace_claim(LocalLaplaceSum, local=True)),
    Claim(PAPER, "alg3-sdp", "Thm 3 / App. C.1, Alg. 3", "Alg. 3 is (ε, δ)-DP through FMT's Eq. (10)",
          "numeric", _shuffled),
    Claim(PAPER, "eq10-inverse", "Eq. (10), Alg. 3 line 8",
          "ε0^{(i)} = f^{-1}_{n_i,δ}(ε) is well defined where FMT applies", "symbolic", _eq10),
    Claim(PAPER, "lemma4-mgf", "Lemma 4 step (c)", "E e^{λ Lap(b)} <= e^{λ²b²/2}", "symbolic", _lemma4),
    Claim(PAPER, "lemma1-net", "Lemma 1, Eq. (19)",
          "on a continuous action set, a ζ-net (ζ = 1/T) adds at most 1 to the regret", "empirical",
          _zeta_net),
    Claim(PAPER, "for-free", "§6, Fig. 2",
          "central and shuffled follow the non-private regret; local is worse",
          "empirical", _for_free),
    Claim(PAPER, "core-set", "§6, Fig. 3(b)",
          "the core set beats the whole active set (K = 1000, d = 2, T = 10^7)", "empirical",
          _core_set),
    Claim(PAPER, "thm1-rate", "Thm 1, Eqs. (6)/(20)", "R_T <= C(d√(T log T) + d² log²T/ε)", "empirical",
          _rate_claim("hanna-central", lambda T: regret_bounds.hanna_thm1(T, epsilon=1.0, constant=1.0, dimension=2),
                      "Thm 1", epsilon=1.0)),
    Claim(PAPER, "thm2-rate", "Thm 2, Eqs. (8)/(34)", "R_T <= C(1 + 1/ε0) d√(dT log T)", "empirical",
          _rate_claim("hanna-local", lambda T: regret_bounds.hanna_thm2(T, local_epsilon=1.0, dimension=2, constant=1.0),
                      "Thm 2", epsilon=1.0)),
    Claim(PAPER, "thm3-rate", "Thm 3, Eqs. (11)/(42)", "R_T <= C(d√(T log T) + (d log T)^{3/2}√log(1/δ)/ε)",
          "empirical",
          _rate_claim("hanna-shuffled", lambda T: regret_bounds.hanna_thm3(T, epsilon=1.0, delta=1e-6,
                                                                           constant=1.0, dimension=2),
                      "Thm 3", epsilon=1.0)),
)
