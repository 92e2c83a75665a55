"""Hanna et al. 2022 (private linear bandits "almost for free"): the claims and their checks.

Alg. 1 / 2 / 3's privacy (Lap(1/ε) on rewards in [−1, 1] is 2ε-DP: App. A.1's
Eq. (12) takes sensitivity 1), with an exact lower bound for the printed
Alg. 3 (a post-processed count of the shuffled reports); Eq. (10)'s inverse
and FMT's validity region, which Alg. 3 line 8 does not apply; the abstract's
rates against the theorems; Lemma 4's Laplace MGF step; Lemma 1's ζ-net on a
continuous action set (the sphere); "privacy almost for free" against the
non-private regret, Fig. 2's ε → ∞ limit and Fig. 3(b)'s core set; and the
theorems' rates against simulated regret.
"""

from __future__ import annotations

import math

import numpy as np
import sympy as sp

import dpverify.claims.regret_bounds as regret_bounds
import dpverify.claims.symbolic as symbolic
from dpverify._deprecation import renamed_parameters
from dpverify.accountants.shuffle_papers import hanna_local_epsilons, hanna_shuffle_epsilon
from dpverify.auditing import audit
from dpverify.bandits import RewardBatch
from dpverify.bandits.design import net_size_bound, sphere_net
from dpverify.bandits.linear import make_linear_algorithm
from dpverify.bandits.linear.environments import LinearBandit, LinearInstanceFamily
from dpverify.bandits.linear.privatizers import LaplaceSum, LocalLaplaceSum, ShuffledLaplaceSum
from dpverify.bandits.simulate import simulate
from dpverify.claims._counts import count_epsilon_lower_bound, fmt_inverse, printed_alg3_lower_bound
from dpverify.claims._simulations import (
    Z_MARGIN,
    bound_figure,
    horizon_verdict,
    rate_power,
    rate_verdict,
    regret_rows,
)
from dpverify.claims._types import (
    CORRECTED,
    FAILS,
    HOLDS,
    NOT_REFUTED,
    REFUTED,
    Claim,
    Evidence,
)

__all__ = ["CLAIMS", "net_bandit", "discretisation_gap", "count_epsilon_lower_bound",
           "printed_alg3_lower_bound"]

PAPER = "hanna"
REWARDS = np.array([-1.0, 1.0, -1.0, 1.0, 1.0, -1.0])


def _sampler(privatizer):
    def draw(data, size, rng):
        values = np.asarray(data, dtype=float)
        batch = RewardBatch(size=values.size, total=float(values.sum()), values=values)
        return privatizer.sample_estimates(batch, size=size, rng=rng)
    return draw


def _laplace_claim(kind, local: bool):
    def check(preset: str) -> Evidence:
        samples = 50_000 if preset == "quick" else 200_000
        prime = REWARDS.copy()
        prime[0] = 1.0  # one user's reward in [−1, 1] changed: the sum moves by 2
        data = (REWARDS[:1], prime[:1]) if local else (REWARDS, prime)
        reports = {mode: audit(_sampler(kind(1.0, mode)), *data, epsilon=1.0, samples=samples,
                               confidence=0.999, seed=11) for mode in ("paper", "sound")}
        paper, sound = reports["paper"], reports["sound"]
        true_level = kind(1.0, "paper").guarantee(6).epsilon
        ok = paper.violation and not sound.violation
        return Evidence(CORRECTED if ok else FAILS,
                        "Assumption 1.4 allows |r_t| <= 1, so one user's reward moves a sum by up to 2; "
                        "App. A.1's Eq. (12) bounds the change by 1. As printed (Lap(1/ε)) the mechanism is "
                        f"{true_level:g}ε-DP at claimed ε = 1: the audit (confidence 0.999) certifies "
                        f"ε >= {paper.epsilon_lower_bound:.3g}. Correction: Lap(2/ε) (sensitivity 2, as "
                        "Assumption 1.4 requires) is ε-DP; its audit finds no violation (lower bound "
                        f"{sound.epsilon_lower_bound:.3g})",
                        {"claimed_epsilon": 1.0, "true_epsilon_paper_mode": true_level,
                         "audit_lower_bound_paper": paper.epsilon_lower_bound,
                         "audit_lower_bound_sound": sound.epsilon_lower_bound, "samples": samples})
    return check


def _shuffled(preset: str) -> Evidence:
    uppers = []
    for users in (10 ** 3, 10 ** 4, 10 ** 5):
        capped = hanna_local_epsilons([users], 1.0, 1e-6)[0]
        try:
            hanna_shuffle_epsilon(2 * capped, users, 1e-6)
            applies = True
        except ValueError:
            applies = False
        uppers.append({"users": users, "capped_local_epsilon": capped, "fmt_applies_at_2x": applies,
                       "upper_bound_lap_1_over_eps0": ShuffledLaplaceSum(1.0, 1e-6).guarantee(users).epsilon,
                       "upper_bound_lap_2_over_eps0": ShuffledLaplaceSum(1.0, 1e-6, mode="sound").guarantee(users).epsilon})
    lowers = [printed_alg3_lower_bound(n) for n in ((10 ** 3, 10 ** 4) if preset == "quick"
                                                    else (10 ** 3, 10 ** 4, 10 ** 5))]
    shown = [r for r in lowers if r["epsilon_lower_bound"] > 1.0]
    ok = bool(shown) and all(r["upper_bound_lap_2_over_eps0"] <= 1.0 for r in uppers)
    first = shown[0] if shown else lowers[-1]
    small = lowers[0]
    return Evidence(CORRECTED if ok else FAILS,
                    "each batch's randomizer r + Lap(1/ε0) is 2ε0-LDP, not ε0 (rewards in [−1, 1]), so "
                    "line 8's ε0 = f^(-1)(ε) does not give (ε, δ). Shown rigorously where it fails: at "
                    f"n = {first['users']} users, ε = 1, δ = 1e-6 (ε0 = {first['local_epsilon']:.4g} from "
                    "line 8), the number of shuffled reports above "
                    f"{first['threshold']:g} (the other rewards all {first['others']:+g}) has an exact "
                    f"ε(δ) >= {first['epsilon_lower_bound']:.4g} > 1, a lower bound on the algorithm's ε by "
                    f"post-processing. Not shown at n = {small['users']}: line 8 gives ε0 = "
                    f"{small['local_epsilon']:.3g} (outside FMT's validity region: fmt-cap), the best count "
                    f"gives only {small['epsilon_lower_bound']:.3g}, and the only upper bound is the local "
                    f"level 2ε0 = {2 * small['local_epsilon']:.3g}: neither proves nor excludes a violation. "
                    "Correction: Lap(2/ε0) with ε0 capped at FMT's validity region (the library's sound mode) "
                    "meets ε = 1 at every n (upper_bound_lap_2_over_eps0); with Lap(1/ε0) the upper bound "
                    "is FMT's at 2ε0 where it applies, else the local level 2ε0 (fmt_applies_at_2x)",
                    {"lower_bounds": lowers, "upper_bounds": uppers})


def _eq10(preset: str) -> Evidence:
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


def _lemma4(preset: str) -> Evidence:
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


def _zeta_net(preset: str) -> Evidence:
    T = 10 ** 4 if preset == "quick" else 10 ** 5
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


def _family_runs(name: str, family, T: int, runs: int, **options) -> np.ndarray:
    """Final regret per run; the same seed gives every algorithm the same instances (paired runs)."""
    return np.asarray(simulate(make_linear_algorithm(name, **options), family, T, runs=runs,
                               seed=3).final_regret(), dtype=float)


def _family_final(name: str, family, T: int, runs: int, **options) -> tuple[float, float]:
    final = _family_runs(name, family, T, runs, **options)
    return float(final.mean()), float(final.std(ddof=1) / math.sqrt(runs))


#: Our reading of Fig. 2's "closely following the non-private regret": within this factor of it.
CLOSE_FACTOR = 1.5


def _for_free(preset: str) -> Evidence:
    T, runs = (10 ** 6, 10) if preset == "quick" else (10 ** 6, 30)  # Fig. 2's horizon (seconds per run)
    family = LinearInstanceFamily("sphere", dimension=2, n_arms=10)
    finals = {name: _family_runs(name, family, T, runs, **({} if name == "hanna-nonprivate" else {"epsilon": 1.0}))
              for name in ("hanna-nonprivate", "hanna-central", "hanna-shuffled", "hanna-local")}
    results = {k: (float(v.mean()), float(v.std(ddof=1) / math.sqrt(runs))) for k, v in finals.items()}
    mean = {k: v[0] for k, v in results.items()}
    base = finals["hanna-nonprivate"]
    ratios = {k: mean[k] / mean["hanna-nonprivate"] for k in ("hanna-central", "hanna-shuffled", "hanna-local")}
    # paired runs (same instances): refuted when regret − CLOSE_FACTOR × non-private regret is positive
    # beyond Z_MARGIN standard errors of its mean over the runs
    excess = {k: finals[k] - CLOSE_FACTOR * base for k in ("hanna-central", "hanna-shuffled")}
    low = {k: float(v.mean() - Z_MARGIN * v.std(ddof=1) / math.sqrt(runs)) for k, v in excess.items()}
    agrees = max(low.values()) <= 0 and mean["hanna-local"] > max(mean["hanna-central"], mean["hanna-shuffled"])
    verdict, inside = horizon_verdict(agrees, 10 ** 6, T)
    return Evidence(verdict,
                    f"K = 10, d = 2, T = {T}, ε = 1 (paper mode), {runs} runs: regret relative to the "
                    f"non-private algorithm ({mean['hanna-nonprivate']:.3g}): central ×{ratios['hanna-central']:.3g}, "
                    f"shuffled ×{ratios['hanna-shuffled']:.3g}, local ×{ratios['hanna-local']:.3g}. Read: "
                    f"'closely following' = within ×{CLOSE_FACTOR} of the non-private regret at ε = 1, the "
                    "level the paper calls 'perhaps the most common case' (§1), and local the worst; "
                    "paper mode (Lap(1/ε), which favours the private algorithms: they are 2ε-DP). Paired "
                    f"runs (same instances): regret − {CLOSE_FACTOR} × non-private is at least "
                    f"{low['hanna-central']:.3g} (central) and {low['hanna-shuffled']:.3g} (shuffled) within "
                    f"{Z_MARGIN:g} standard errors (positive: beyond the reading)"
                    + ("" if inside else f"; Fig. 2 is at T = 1e6, so this run at T = {T} can only say whether "
                       "it contradicts the figure"),
                    {"final_regret": results, "ratio_to_nonprivate": ratios, "excess_low_end": low,
                     "horizon": T, "runs": runs,
                     "close_factor": CLOSE_FACTOR},
                    figure={"kind": "bar", "title": f"Hanna et al. 2022, §6: final regret at T = {T}",
                            "labels": list(mean), "values": list(mean.values())},
                    inside_hypotheses=inside,
                    authority=None if inside else "the full preset (T = 1e6, Fig. 2's horizon: "
                                                  "dpverify claims hanna --preset full)")


def _fig2_limit(preset: str) -> Evidence:
    T, runs = (10 ** 5, 6) if preset == "quick" else (10 ** 6, 10)
    family = LinearInstanceFamily("sphere", dimension=2, n_arms=10)
    base = _family_final("hanna-nonprivate", family, T, runs)[0]
    rows = []
    for epsilon in (1.0, 10.0, 100.0):
        row = {"epsilon": epsilon}
        for name in ("hanna-central", "hanna-shuffled", "hanna-local"):
            row[name] = _family_final(name, family, T, runs, epsilon=epsilon)[0] / base
        rows.append(row)
    last = rows[-1]
    agrees = all(abs(last[name] - 1) <= 0.2 for name in ("hanna-central", "hanna-shuffled", "hanna-local"))
    verdict, inside = horizon_verdict(agrees, 10 ** 6, T)
    return Evidence(verdict,
                    f"regret relative to the non-private algorithm ({base:.4g}) at ε = 1, 10, 100 (T = {T}, "
                    f"{runs} runs, paper mode): central " + ", ".join(f"×{r['hanna-central']:.3g}" for r in rows)
                    + "; shuffled " + ", ".join(f"×{r['hanna-shuffled']:.3g}" for r in rows)
                    + "; local " + ", ".join(f"×{r['hanna-local']:.3g}" for r in rows)
                    + ". Convergence read as within 20% of the non-private regret at ε = 100",
                    {"rows": rows, "nonprivate": base, "horizon": T, "runs": runs},
                    inside_hypotheses=inside,
                    authority=None if inside else "the full preset, at Fig. 2's T = 1e6")


def _core_set(preset: str) -> Evidence:
    T, runs = (2 * 10 ** 4, 4) if preset == "quick" else (10 ** 7, 4)  # full: the paper's horizon
    family = LinearInstanceFamily("sphere", dimension=2, n_arms=1000)
    core = _family_final("hanna-central", family, T, runs, epsilon=1.0)
    whole = _family_final("hanna-central", family, T, runs, epsilon=1.0, core_set=False)
    agrees = core[0] < whole[0]
    verdict, inside = horizon_verdict(agrees, 10 ** 7, T)
    test = ("tests/bandits/linear/test_linear_paper_claims.py::"
            "test_hanna_core_set_beats_no_core_set_at_the_papers_horizon")
    return Evidence(verdict,
                    f"K = 1000, d = 2, ε = 1, T = {T}, {runs} runs: core set {core[0]:.3g} ± {core[1]:.2g} vs "
                    f"whole active set {whole[0]:.3g} ± {whole[1]:.2g}"
                    + (f" — not contradicted at T = {T}, which is not the figure's horizon" if not inside else ""),
                    {"core": core, "whole": whole, "horizon": T, "runs": runs},
                    inside_hypotheses=inside,
                    authority=None if inside else (
                        "the paper's horizon T = 1e7 (full preset). There the order reverses: a 20-run "
                        "reproduction gives Reg(T)/T = 0.0291 with the core set vs 0.0223 without "
                        f"(non-private 0.0291); the strict-xfail test {test} pins it. At T = 1e7 the "
                        "claim is refuted"))


def _rate_claim(algorithm: str, bound, theorem: str, **options):
    def check(preset: str) -> Evidence:
        horizons, runs = ([10 ** 3, 10 ** 4, 5 * 10 ** 4], 8) if preset == "quick" else \
            ([10 ** 4, 10 ** 5, 10 ** 6], 20)
        rows = regret_rows(make_linear_algorithm(algorithm, mode="sound", **options),
                           LinearInstanceFamily("sphere", dimension=2, n_arms=10), horizons, runs=runs, seed=7,
                           bound=bound)
        ok, constants = rate_verdict(rows)
        return Evidence(NOT_REFUTED if ok else REFUTED,
                        f"{theorem}'s constant C is unspecified; {algorithm} (sound mode, K = 10, d = 2): "
                        "the implied C = mean regret / bound(C = 1) is "
                        + ", ".join(f"{c:.3g}" for c in constants)
                        + f" at T = {', '.join(str(r['horizon']) for r in rows)}"
                        + (" (not growing beyond the test's margin)" if ok else " (growing: the rate is refuted)")
                        + ". Power: " + rate_power(rows, runs),
                        {"rows": rows, "implied_constants": constants},
                        figure=bound_figure(f"Hanna et al. 2022, {theorem} × max implied C vs simulated regret", rows,
                                            label=f"{theorem} bound", scale=max(constants)))
    return check


def _fmt_cap(preset: str) -> Evidence:
    rows = []
    for users in (10 ** 3, 10 ** 4, 10 ** 5):
        printed = fmt_inverse(1.0, users, 1e-6)
        cap = math.log(users / (16 * math.log(2 / 1e-6)))
        rows.append({"users": users, "line8_local_epsilon": printed, "fmt_validity_cap": cap,
                     "cap_binds": printed > cap, "library_local_epsilon": hanna_local_epsilons([users], 1.0, 1e-6)[0]})
    binds = [r for r in rows if r["cap_binds"]]
    return Evidence(CORRECTED if binds else HOLDS,
                    "Eq. (10) is Feldman, McMillan & Talwar 2021's bound, valid only for ε0 <= ln(n/(16 ln(2/δ))); "
                    "Alg. 3 line 8 takes ε0 = f^(-1)_(n,δ)(ε) without that condition. At ε = 1, δ = 1e-6 the "
                    "cap binds at "
                    + (", ".join(f"n = {r['users']} (line 8: {r['line8_local_epsilon']:.3g} > cap "
                                 f"{r['fmt_validity_cap']:.3g})" for r in binds) if binds else "no n checked")
                    + ": there Eq. (10) does not apply and the batch has only its local guarantee. "
                    "Correction: ε0 = min(f^(-1)_(n,δ)(ε), ln(n/(16 ln(2/δ)))), as the library's "
                    "calibration does",
                    {"rows": rows})


def _abstract(preset: str) -> Evidence:
    rows = []
    for T in (10 ** 4, 10 ** 6, 10 ** 8):
        for epsilon in (1.0, 0.01):
            headline = math.sqrt(T) + 1 / epsilon
            thm1 = math.sqrt(T * math.log(T)) + math.log(T) ** 2 / epsilon
            rows.append({"horizon": T, "epsilon": epsilon, "thm1_over_headline": thm1 / headline,
                         "log2_T": math.log(T) ** 2,
                         "thm3_epsilon_limit": math.sqrt(math.log(1e6) / T)})
    ok = all(r["thm1_over_headline"] <= r["log2_T"] for r in rows)
    return Evidence(CORRECTED if ok else FAILS,
                    "central: Thm 1's √(T log T) + log²T/ε is within a log²T factor of √T + 1/ε (rows), as "
                    "Õ allows. Shuffled: Thm 3 proves its rate only 'for ε = O(√(log(1/δ)/T))' (at δ = 1e-6, "
                    "T = 1e6: ε of order 0.0037), a condition the abstract drops. Correction: the abstract's "
                    "shuffled rate holds for ε = O(√(log(1/δ)/T)), as Thm 3 states; and both rates are for "
                    "the algorithms with Lap(2/ε) (the printed ones are 2ε-DP: alg1-dp, alg3-sdp)",
                    {"rows": rows})


CLAIMS = (
    Claim(PAPER, "alg1-dp", "§3, Thm 1; App. A.1, Eq. (12); Alg. 1 line 8",
          "Alg. 1 (Lap(1/ε) on reward sums) is ε-DP", "statistical", _laplace_claim(LaplaceSum, local=False),
          quote="r̂_ia ← r̄_ia + z_ia ∀a ∈ C_i, where z_ia is an independent noise that follows Lap(1/ε). "
                "[…] Theorem 1. Algorithm 1 is ε-differentially private. [App. A.1:] ‖r̄ − r̄′‖₁ <= "
                "max |r_k − r′_k| <= 1 (12)"),
    Claim(PAPER, "alg2-ldp", "§4, Thm 2, Alg. 2", "Alg. 2 (r + Lap(1/ε0)) is ε0-LDP", "statistical",
          _laplace_claim(LocalLaplaceSum, local=True),
          quote="Theorem 2. Algorithm 2 is ε0-LDP."),
    Claim(PAPER, "alg3-sdp", "§5, Thm 3; App. C.1; Alg. 3 line 8",
          "Alg. 3 is (ε, δ)-DP through FMT's Eq. (10)", "numeric", _shuffled,
          quote="To ensure that the output of batch i is (ε, δ)-DP, it is sufficient to add to each reward "
                "noise Lap(1/ε0^(i)), where ε0^(i) ← f^(-1)_(n_i,δ)(ε) […] Theorem 3. Algorithm 3 is "
                "(ε, δ)-differentially private."),
    Claim(PAPER, "eq10-inverse", "§5, Eq. (10); Alg. 3 line 8",
          "ε0^(i) = f^(-1)_(n_i,δ)(ε) is well defined where FMT applies", "symbolic", _eq10,
          quote="f_{n,δ}(ε0) = log(1 + (e^{ε0} − 1)/(e^{ε0} + 1) (8√(e^{ε0} log(4/δ))/√n + 8e^{ε0}/n)). (10)"),
    Claim(PAPER, "fmt-cap", "§5, Eq. (10); Alg. 3 line 8",
          "line 8's ε0 = f^(-1)(ε) is inside FMT's validity region", "numeric", _fmt_cap,
          quote="8: ε0^(i) ← f^(-1)_(n_i,δ)(ε)"),
    Claim(PAPER, "abstract-rates", "Abstract; §3 Thm 1, Eq. (6); §5 Thm 3, Eq. (11)",
          "central and shuffled: regret Õ(√T + 1/ε)", "symbolic", _abstract,
          quote="In the central model, […] we achieve a regret of Õ(√T + 1/ε) […] In the shuffled model, "
                "we also achieve regret of Õ(√T + 1/ε). [Thm 3:] Moreover, for ε = O(√(log(1/δ)/T)) it "
                "achieves a regret R_T <= C(√(T log T) + √(log(1/δ)) log^{3/2}T/ε)"),
    Claim(PAPER, "lemma4-mgf", "App. B, Lemma 4 (proof, step (c))",
          "E e^(λ Lap(s)) <= e^(λ²s²/2) for the Laplace scale s = 1/b", "symbolic", _lemma4,
          quote="(c) <= ∏_i e^{λ² l_i²/(2b²)} / e^{λt} ∀ 0 <= λ <= b/c […] Step (c) follows from the fact "
                "that z_i is sub-exponential random variable with proxy l_i²/(2b²)."),
    Claim(PAPER, "lemma1-net", "§3, Lemma 1; Alg. 1 line 2",
          "on a continuous action set, a ζ-net (ζ = 1/T) adds at most 1 to the regret", "empirical",
          _zeta_net,
          quote="For any set A ⊆ {x ∈ R^d | ‖x‖₂ <= 1} that spans R^d, there is a set N_ζ ⊆ A (ζ-net) "
                "with cardinality at most (3/ζ)^d + d such that N_ζ spans R^d […] Let A_1 be a ζ-net for "
                "A as in Lemma 1, with ζ = 1/T."),
    Claim(PAPER, "for-free", "§6, Fig. 2 (T = 10^6)",
          "central and shuffled closely follow the non-private regret; local is worse",
          "empirical", _for_free,
          quote="As predicted from the theoretical analysis, Algorithms 1 (central) and 3 (shuffled) offer "
                "privacy (almost) for free, closely following the non-private regret. [§1:] Note that for "
                "ε ≈ 1 (perhaps the most common case) the dominant term O(√(T log T)) matches the regret of "
                "the best known algorithms for the non-private case"),
    Claim(PAPER, "fig2-limit", "§6, Fig. 2 (T = 10^6)",
          "all three algorithms converge to the non-private regret as ε → ∞", "empirical", _fig2_limit,
          quote="Figure 2 shows that the regret achieved by all three algorithms, Algorithm 1 (central "
                "model), Algorithm 2 (local model), and Algorithm 3 (shuffled model) converges to the regret "
                "of non-private stochastic linear bandit algorithms as ε → ∞ (ε0 → ∞), albeit at different "
                "rates."),
    Claim(PAPER, "core-set", "App. D, Fig. 3(b) (K = 1000, T = 10^7)",
          "the core set beats the whole active set (K = 1000, d = 2, T = 10^7)", "empirical", _core_set,
          quote="We find that, as expected from our theoretical analysis, using a core set enables to "
                "achieve performance very close to that of a non-private batched algorithm that adds no "
                "noise. In contrast, using (and adding noise to) the entire action space significantly "
                "degrades the performance."),
    Claim(PAPER, "thm1-rate", "§3, Thm 1, Eq. (6); App. A, Eq. (20)", "R_T <= C(d√(T log T) + d² log²T/ε)",
          "empirical",
          _rate_claim("hanna-central", lambda T: regret_bounds.hanna_thm1(T, epsilon=1.0, constant=1.0, dimension=2),
                      "Thm 1", epsilon=1.0),
          quote="R_T <= C(√(T log T) + log²T/ε), (6) with probability at least 1 − 1/T, where C is a "
                "constant that does not depend on ε, T."),
    Claim(PAPER, "thm2-rate", "§4, Thm 2, Eq. (8); App. B, Eq. (34)", "R_T <= C(1 + 1/ε0) d√(dT log T)",
          "empirical",
          _rate_claim("hanna-local", lambda T: regret_bounds.hanna_thm2(T, local_epsilon=1.0, dimension=2, constant=1.0),
                      "Thm 2", epsilon=1.0),
          quote="R_T <= C(1 + 1/ε0)(d√(dT log T)), (8)"),
    Claim(PAPER, "thm3-rate", "§5, Thm 3, Eq. (11); App. C, Eq. (42)",
          "R_T <= C(d√(T log T) + (d log T)^(3/2)√log(1/δ)/ε)", "empirical",
          _rate_claim("hanna-shuffled", lambda T: regret_bounds.hanna_thm3(T, epsilon=1.0, delta=1e-6,
                                                                           constant=1.0, dimension=2),
                      "Thm 3", epsilon=1.0),
          quote="R_T <= C(√(T log T) + √(log(1/δ)) log^{3/2}T/ε), (11)"),
)
