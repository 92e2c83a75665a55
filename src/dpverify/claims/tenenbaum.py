"""Tenenbaum et al. 2021 (shuffle-model MAB, SDP-AE / VB-SDP-AE): the claims and their checks.

Cor. 3.2's batch size (sympy: ⌈σ²⌉, not the printed ⌈σ⌉), the M_sum whose
Appendix C is missing (not checkable as printed; our noise-bit stand-in
checked exactly), Thm 3.1's privacy (disjoint batches) and its proof
sketch's σ for σ², Thm 3.3 vs Cor. 3.2 (VB-SDP-AE beats SDP-AE at small ε),
Cor. 3.4 against Thm 3.3, the doubling trick of footnote 10 (squaring form),
and Thm 3.1's rate with both batch readings against simulated regret.
"""

from __future__ import annotations

import math

import numpy as np
import sympy as sp

import dpverify.claims.regret_bounds as regret_bounds
import dpverify.claims.symbolic as symbolic
from dpverify.accountants.shuffle_papers import (
    tenenbaum_batch_size,
    tenenbaum_msum_sigma,
    tenenbaum_noise_bits,
)
from dpverify.auditing import audit
from dpverify.bandits import RewardBatch
from dpverify.bandits.environments import BernoulliBandit, ClippedGaussianBandit
from dpverify.bandits.mab import make_algorithm
from dpverify.bandits.mab.tenenbaum_extensions import DoublingTrick, real_valued
from dpverify.bandits.privatizers import ShuffledNoisyBits
from dpverify.bandits.simulate import simulate
from dpverify.claims._simulations import Z_MARGIN, bound_figure, rate_power, rate_verdict, regret_rows
from dpverify.claims._types import (
    CORRECTED,
    FAILS,
    HOLDS,
    NOT_CHECKABLE,
    NOT_REFUTED,
    REFUTED,
    Claim,
    Evidence,
)

__all__ = ["CLAIMS", "restart_log_sums"]

PAPER = "tenenbaum"


def _batch_size(preset: str) -> Evidence:
    derivation = symbolic.tenenbaum_batch_size()
    sigma = tenenbaum_msum_sigma(1.0, 1e-6)
    squared, printed = tenenbaum_batch_size(sigma), tenenbaum_batch_size(sigma, reading="printed")
    return Evidence(CORRECTED,
                    "Cor. 3.2 prints m = ⌈σ⌉ but its bound needs the privacy term σ² log T/(mΔ) no "
                    "larger than log T/Δ, i.e. m = ⌈σ²⌉ (sympy, below). At ε = 1, δ = 1e-6 with the "
                    f"noise-bit M_sum (σ = {sigma:.4g}): m = {squared} (derived) vs {printed} (printed)",
                    {"sigma": sigma, "m_derived": squared, "m_printed": printed},
                    derivation=derivation.text())


def _msum(preset: str) -> Evidence:
    epsilon, delta = 1.0, 1e-6
    bits = tenenbaum_noise_bits(epsilon, delta)
    privatizer = ShuffledNoisyBits(epsilon, delta)

    def draw(data, size, rng):
        rewards = RewardBatch(size=len(data), total=int(sum(data)), binary=True)
        return np.round(privatizer.sample_estimates(rewards, size=size, rng=rng)).astype(np.int64)

    samples = 50_000 if preset == "quick" else 400_000
    report = audit(draw, [0, 1, 0, 1, 1], [1, 1, 0, 1, 1], epsilon=epsilon, delta=delta,
                   samples=samples, confidence=0.999, seed=9)
    return Evidence(NOT_CHECKABLE,
                    "M_sum is defined in an Appendix C that is not in the paper's text, and "
                    "σ_{ε,δ}'s constant is unstated. Our stand-in (N fair coins shuffled with the "
                    f"reward bits) needs N = {bits} coins for (ε, δ) = ({epsilon}, {delta}) by the "
                    "exact binomial accountant (audited on neighbouring batches at confidence 0.999: "
                    f"ε >= {report.epsilon_lower_bound:.3g}, "
                    + ("no violation" if not report.violation else "A VIOLATION") + "); the paper's own "
                    "construction cannot be checked",
                    {"noise_bits": bits, "sigma": math.sqrt(bits) / 2,
                     "stand_in_audit_lower_bound": report.epsilon_lower_bound,
                     "stand_in_violation": report.violation})


def _vb_beats_fixed(preset: str) -> Evidence:
    T, runs = (10 ** 5, 3) if preset == "quick" else (10 ** 6, 5)
    env = BernoulliBandit((0.25, 0.75))
    vb = simulate(make_algorithm("vb-sdp-ae", epsilon=0.01, delta=1e-6), env, T, runs=runs, seed=2)
    fixed = simulate(make_algorithm("sdp-ae", epsilon=0.01, delta=1e-6), env, T, runs=runs, seed=2)
    vb_max, fixed_min = float(vb.final_regret().max()), float(fixed.final_regret().min())
    ok = vb_max < fixed_min
    return Evidence(NOT_REFUTED if ok else REFUTED,
                    f"2 arms (Δ = 1/2), ε = 0.01, δ = 1e-6, T = {T}, {runs} runs: VB-SDP-AE's worst run "
                    f"{vb_max:.4g} vs SDP-AE's best {fixed_min:.4g} (additive kσ log T vs Σ Δ_a σ²)",
                    {"vb_max": vb_max, "fixed_min": fixed_min, "horizon": T, "runs": runs})


def _final(reading: str, epsilon: float, T: int, runs: int) -> tuple[float, float]:
    algorithm = make_algorithm("sdp-ae", epsilon=epsilon, delta=1e-6, batch_reading=reading)
    final = simulate(algorithm, BernoulliBandit((0.25, 0.75)), T, runs=runs, seed=4).final_regret()
    return float(final.mean()), float(final.std(ddof=1) / math.sqrt(runs))


def _readings(preset: str) -> Evidence:
    T, runs, epsilons = (10 ** 5, 4, (0.3, 0.1)) if preset == "quick" else (10 ** 6, 10, (1.0, 0.3, 0.1))
    rows = []
    for epsilon in epsilons:
        squared, printed = _final("squared", epsilon, T, runs), _final("printed", epsilon, T, runs)
        sigma = tenenbaum_msum_sigma(epsilon, 1e-6)
        rows.append({"epsilon": epsilon, "m_squared": tenenbaum_batch_size(sigma),
                     "m_printed": tenenbaum_batch_size(sigma, reading="printed"),
                     "regret_squared": squared[0], "regret_printed": printed[0],
                     "ratio": printed[0] / squared[0]})
    ok = all(r["regret_squared"] < r["regret_printed"] for r in rows)
    return Evidence(CORRECTED if ok else FAILS,
                    "correction: m = ⌈σ²⌉ (cor32-batch). "
                    f"SDP-AE on 2 arms (Δ = 1/2), T = {T}, {runs} runs: the printed m = ⌈σ⌉ costs "
                    + ", ".join(f"×{r['ratio']:.2g} at ε = {r['epsilon']:g}" for r in rows)
                    + " the regret of m = ⌈σ²⌉ (the symbolic claim shows the printed m breaks the bound "
                    "by a factor up to √log T/(2Δ))",
                    {"rows": rows, "horizon": T, "runs": runs},
                    figure={"kind": "bound", "title": f"Tenenbaum et al. 2021, SDP-AE at T = {T}: m = ⌈σ²⌉ vs ⌈σ⌉",
                            "x": [r["epsilon"] for r in rows], "xlabel": "ε", "ylabel": "final regret",
                            "log": True,
                            "series": {"m = ⌈σ²⌉ (derived)": [r["regret_squared"] for r in rows],
                                       "m = ⌈σ⌉ (printed)": [r["regret_printed"] for r in rows]}})


def _rate(preset: str) -> Evidence:
    horizons, runs = ([10 ** 4, 10 ** 5, 10 ** 6], 6) if preset == "quick" else \
        ([10 ** 4, 10 ** 5, 10 ** 6, 10 ** 7], 10)
    # two arms at gap 1/2: the worse arm is eliminated before T = 1e4, the regret is then flat. With
    # small gaps (six arms, gaps 0.05–0.25) the runs up to 1e6 are still eliminating (regret 1.3e3,
    # 1.2e4, 4.6e4 at ε = 0.3): the implied constant grows through the burn-in, which says nothing
    # about an O(log T) rate with an unspecified constant
    env, epsilon, delta = BernoulliBandit((0.25, 0.75)), 0.1, 1e-6
    rows = regret_rows(make_algorithm("sdp-ae", epsilon=epsilon, delta=delta), env, horizons, runs=runs,
                       seed=4, bound=lambda T: regret_bounds.tenenbaum_cor32(env.gaps, T, epsilon=epsilon,
                                                                             delta=delta, constant=1.0))
    ok, constants = rate_verdict(rows)
    return Evidence(NOT_REFUTED if ok else REFUTED,
                    f"SDP-AE (m = ⌈σ²⌉), 2 arms (Δ = 1/2), ε = {epsilon}: the implied constant of "
                    "Cor. 3.2's O(Σ log T/Δ_a + Δ_a log(1/δ)/ε²) is " + ", ".join(f"{c:.3g}" for c in constants)
                    + f" at T = {', '.join(str(r['horizon']) for r in rows)}. Power: " + rate_power(rows, runs)
                    + (". The simulated regret is the same at every T: the worse arm is eliminated before "
                       "the first horizon in every run, so this instance tests the constant, not the growth "
                       "in T; with small gaps the horizons one can run are still in the burn-in, where the "
                       "implied constant grows whatever the rate"
                       if max(r["mean"] for r in rows) <= 1.001 * min(r["mean"] for r in rows) else ""),
                    {"rows": rows, "implied_constants": constants},
                    figure=bound_figure("Tenenbaum et al. 2021, Cor. 3.2 × max implied C vs SDP-AE", rows,
                                        label="Cor. 3.2 bound", scale=max(constants)))


def _real_rewards(preset: str) -> Evidence:
    T, runs = (10 ** 5, 16) if preset == "quick" else (10 ** 6, 40)
    # six arms, gaps 0.05 to 0.25: elimination times vary from run to run (with two far-apart arms
    # both runs eliminate at the same phase every time and the comparison could not fail)
    means = (0.3, 0.35, 0.4, 0.45, 0.5, 0.55)
    real = simulate(real_valued(make_algorithm("vb-sdp-ae", epsilon=1.0)), ClippedGaussianBandit(means),
                    T, runs=runs, seed=5).final_regret()
    binary = simulate(make_algorithm("vb-sdp-ae", epsilon=1.0),
                      BernoulliBandit(ClippedGaussianBandit(means).reward_means), T, runs=runs,
                      seed=5).final_regret()
    r, b = float(np.mean(real)), float(np.mean(binary))
    se = math.hypot(float(np.std(real, ddof=1)), float(np.std(binary, ddof=1))) / math.sqrt(runs)
    ok = abs(r - b) <= Z_MARGIN * se + 0.1 * b
    return Evidence(NOT_REFUTED if ok else REFUTED,
                    "footnote 12 (real rewards need a real summation M_sum): randomized rounding at the "
                    "user (b = Ber(r)) keeps the binary M_sum's (ε, δ) and turns R_a into Ber(μ_a). "
                    f"VB-SDP-AE, ε = 1, six arms (gaps 0.05–0.25), T = {T}, {runs} runs: regret on "
                    f"clipped-Gaussian rewards {r:.4g} vs {b:.4g} on the Bernoulli instance with the same "
                    f"means (difference within {Z_MARGIN:g} standard errors ({Z_MARGIN * se:.3g}) plus 10%: "
                    "'similar guarantees' read as the same regret to that margin). The regrets take few "
                    "distinct values: elimination happens at the end of a phase, and phases double",
                    {"regret_real": r, "regret_bernoulli": b, "se_difference": se, "horizon": T, "runs": runs})


def restart_log_sums(horizon: int, *, first_horizon: int = 1024) -> dict[str, float]:
    """Σ_k log T_k over the restarts a run of ``horizon`` rounds reaches, for both doubling schedules.

    Geometric doubling restarts at T_k = T_0 2^k, squaring at T_k = T_0^(2^k)
    (Besson & Kaufmann 2018 for log T regret); each epoch's instance-dependent
    bound is C Σ log T_k/Δ (and C kσ log T_k). Returns both sums over log T.

    >>> row = restart_log_sums(10 ** 12)
    >>> round(row["squaring_over_log_T"], 3), round(row["geometric_over_log_T"], 1)
    (1.756, 19.4)
    """
    T, t0 = int(horizon), int(first_horizon)
    geometric, squaring = [], []
    guess = t0
    while True:
        geometric.append(math.log(guess))
        if guess >= T:
            break
        guess *= 2
    guess = t0
    while True:
        squaring.append(math.log(guess))
        if guess >= T:
            break
        guess = guess * guess
    log_t = math.log(T)
    return {"horizon": T, "geometric_restarts": len(geometric), "squaring_restarts": len(squaring),
            "geometric_over_log_T": sum(geometric) / log_t, "squaring_over_log_T": sum(squaring) / log_t}


def _doubling(preset: str) -> Evidence:
    sums = [restart_log_sums(T) for T in (10 ** 4, 10 ** 6, 10 ** 9, 10 ** 12, 10 ** 18)]
    bounded = all(r["squaring_over_log_T"] <= 4 for r in sums)
    horizons, runs = ([10 ** 4, 10 ** 5, 10 ** 6], 4) if preset == "quick" else ([10 ** 4, 10 ** 5, 10 ** 6,
                                                                                  10 ** 7], 10)
    env = BernoulliBandit((0.25, 0.75))
    rows = []
    for T in horizons:
        known = simulate(make_algorithm("vb-sdp-ae", epsilon=1.0), env, T, runs=runs, seed=6)
        doubling = simulate(DoublingTrick(make_algorithm("vb-sdp-ae", epsilon=1.0), first_horizon=1024),
                            env, T, runs=runs, seed=6)
        k, d = float(known.final_regret().mean()), float(doubling.final_regret().mean())
        rows.append({"horizon": T, "known_horizon": k, "geometric_doubling": d, "ratio": d / k})
    return Evidence(HOLDS if bounded else FAILS,
                    "footnote 10 says 'roughly the same results'. With the squaring doubling trick "
                    "(restart at T_k = T_0^(2^k)) the epochs' bounds sum to Σ_k log T_k <= 2 log T_K <= 4 "
                    "log T (the last guess is below T²), so Thm 3.1/3.3's O(Σ log T/Δ_a) and kσ log T terms "
                    "hold with a constant at most 4 times larger, and the √(kT log T) bounds within a "
                    "constant too (sums over T = 1e4…1e18 with T_0 = 1024: Σ log T_k / log T = "
                    + ", ".join(f"{r['squaring_over_log_T']:.3g}" for r in sums) + "). Geometric doubling "
                    "(T_0·2^k) would lose a log T factor (Σ log T_k / log T = "
                    + ", ".join(f"{r['geometric_over_log_T']:.3g}" for r in sums) + "). Simulated with the "
                    "geometric form (the library's DoublingTrick), VB-SDP-AE at ε = 1: regret ratio "
                    "doubling/known " + ", ".join(f"{r['ratio']:.3g}" for r in rows)
                    + f" at T = {', '.join(str(r['horizon']) for r in rows)}: the ratio grows with T, as the "
                    "geometric form's extra log T predicts",
                    {"restart_sums": sums, "simulated_geometric": rows},
                    figure={"kind": "bound", "title": "Tenenbaum et al. 2021, footnote 10: known T vs geometric doubling",
                            "x": [r["horizon"] for r in rows], "xlabel": "T", "ylabel": "final regret",
                            "log": True, "series": {"known T": [r["known_horizon"] for r in rows],
                                                    "geometric doubling": [r["geometric_doubling"] for r in rows]}})


def _thm31_privacy(preset: str) -> Evidence:
    epsilon, delta = 1.0, 1e-6
    algorithm = make_algorithm("sdp-ae", epsilon=epsilon, delta=delta)
    stand_in = algorithm.guarantee(n_arms=2, horizon=10 ** 4).per_batch
    return Evidence(HOLDS,
                    "each user belongs to exactly one batch (fresh users per batch, Alg. 1 line 6), so a "
                    "neighbouring sequence (one user changed) changes one batch's input; the batches "
                    "chosen later depend on earlier outputs only by post-processing, and the changed "
                    "batch's output is (ε, δ)-SDP: adaptive parallel composition gives (ε, δ) overall. "
                    "This rests on M_sum being (ε, δ)-SDP (the msum claim: not checkable as the paper "
                    f"leaves it; the noise-bit stand-in used here is ({stand_in.epsilon:g}, "
                    f"{stand_in.delta:.3g})-DP per batch)",
                    {"epsilon": epsilon, "delta": delta, "stand_in_epsilon": stand_in.epsilon,
                     "stand_in_delta": stand_in.delta})


def _thm31_sketch(preset: str) -> Evidence:
    sigma, m, k, log_t, T = sp.symbols("sigma m k logT T", positive=True)
    printed = sp.sqrt((1 + sigma / m) * k * log_t / T)
    from_theorem = sp.sqrt((1 + sigma ** 2 / m) * k * log_t / T)
    ratio = sp.simplify(from_theorem / printed)
    value = float(ratio.subs({sigma: math.sqrt(80) / 2, m: 20}))
    return Evidence(CORRECTED,
                    "the proof sketch splits the arms at β = Θ(√((1 + σ/m) k log T/T)), but the "
                    "distribution-independent bound it proves, √((1 + σ²/m) kT log T) + mk, needs β with "
                    "σ²/m (the theorem's own statement). Correction: β = Θ(√((1 + σ²/m) k log T/T)); "
                    f"the two differ by the factor {sp.sstr(ratio)} (at σ = √80/2, m = 20: {value:.3g}). "
                    "A typo in the sketch; the theorem's statement is unaffected",
                    {"ratio_at_sigma_sqrt20_m20": value}, derivation=f"β(σ²)/β(σ) = {sp.sstr(ratio)}")


def _cor34(preset: str) -> Evidence:
    log_t, log_delta, epsilon, k = sp.symbols("logT log1/delta epsilon k", positive=True)
    sigma = sp.sqrt(log_delta) / epsilon
    from_theorem = k * sigma * log_t
    printed = k * sp.sqrt(log_delta * log_t) / epsilon
    ratio = sp.simplify(from_theorem / printed)
    rows = [{"horizon": T, "missing_factor_sqrt_log_T": math.sqrt(math.log(T))} for T in (10 ** 4, 10 ** 6, 10 ** 8)]
    return Evidence(CORRECTED,
                    "substituting σ_(ε,δ) = O(√log(1/δ)/ε) into Thm 3.3's kσ log T gives "
                    f"k√log(1/δ) log T/ε; Cor. 3.4 (and the abstract) print k√(log(1/δ) log T)/ε, smaller "
                    f"by the factor {sp.sstr(ratio)}. Correction: O(Σ log T/Δ_a + k√log(1/δ) log T/ε), as "
                    "Thm 3.3 gives (nothing in the sketch removes a √log T)",
                    {"rows": rows}, derivation=f"(kσ log T)/(k√(log(1/δ) log T)/ε) = {sp.sstr(ratio)}")


CLAIMS = (
    Claim(PAPER, "cor32-batch", "§3, Cor. 3.2", "SDP-AE with m = ⌈σ_(ε,δ)⌉ has regret "
          "O(Σ log T/Δ_a + k log(1/δ)/ε²)", "symbolic", _batch_size,
          quote="Corollary 3.2. SDP-AE with a batch size of m = ⌈σ_{ε,δ}⌉ = Θ(log(1/δ)/ε²) is (ε, δ)-SDP "
                "and has a distribution-dependent regret of O(Σ_{a:Δa>0}(log T/Δ_a + Δ_a log(1/δ)/ε²))"),
    Claim(PAPER, "msum", "§2.1 and footnote 14 (Appendix C)",
          "M_sum is (ε, δ)-SDP with σ_(ε,δ) = O(√log(1/δ)/ε) error", "numeric", _msum,
          quote="For completeness, in Appendix C we give a complete description and a proof of such a "
                "mechanism M_sum. […] M_sum's error distribution is sub-Gaussian with variance "
                "σ²_{ε,δ} = O(log(1/δ)/ε²)"),
    Claim(PAPER, "thm31-privacy", "§3, Thm 3.1 (privacy part)", "SDP-AE is (ε, δ)-SDP", "numeric",
          _thm31_privacy,
          quote="The privacy is trivial, since each batch we use the (ε, δ)-SDP mechanism M_sum."),
    Claim(PAPER, "thm31-sketch", "§3, proof sketch of Thm 3.1",
          "the arms are split at β = Θ(√((1 + σ/m) k log T/T))", "symbolic", _thm31_sketch,
          quote="we split this sum based on if the arm a has Δ_a < β where β = Θ(√((1 + σ_{ε,δ}/m) k log T "
                "/ T)) or not"),
    Claim(PAPER, "thm33-vs-cor32", "§3, Thm 3.3 vs Cor. 3.2",
          "VB-SDP-AE's additive kσ log T beats SDP-AE's k log(1/δ)/ε² at small ε", "empirical",
          _vb_beats_fixed,
          quote="observe that using a large batch size increases the regret a lot for arms which are very "
                "suboptimal. […] Theorem 3.3. The algorithm VB-SDP-AE is (ε, δ)-SDP, and has a "
                "distribution-dependent regret of O((Σ_{a:Δa>0} log T/Δ_a) + kσ_{ε,δ} log T)"),
    Claim(PAPER, "cor34", "§3, Cor. 3.4; abstract", "VB-SDP-AE's regret is O(Σ log T/Δ_a + k√(log(1/δ) log T)/ε)",
          "symbolic", _cor34,
          quote="Corollary 3.4. VB-SDP-AE is (ε, δ)-SDP and has a distribution-dependent regret of "
                "O((Σ_{a:Δa>0} log T/Δ_a) + k√(log(1/δ) log T)/ε)"),
    Claim(PAPER, "cor32-rate", "§3, Cor. 3.2 (m = ⌈σ²⌉)",
          "the regret grows as O(Σ log T/Δ_a + Δ_a log(1/δ)/ε²)", "empirical", _rate,
          quote="O(Σ_{a:Δa>0}(log T/Δ_a + Δ_a log(1/δ)/ε²))"),
    Claim(PAPER, "cor32-readings", "§3, Cor. 3.2 (m = ⌈σ⌉ as printed)",
          "SDP-AE with the printed batch size attains Cor. 3.2's regret", "empirical", _readings,
          quote="SDP-AE with a batch size of m = ⌈σ_{ε,δ}⌉ […] has a distribution-dependent regret of "
                "O(Σ_{a:Δa>0}(log T/Δ_a + Δ_a log(1/δ)/ε²))"),
    Claim(PAPER, "fn12-real-rewards", "§2, footnote 12", "the algorithms extend to rewards in [0, 1] with a "
          "real summation mechanism", "empirical", _real_rewards,
          quote="our algorithms and proofs naturally extend to the real [0, 1] reward setting, by replacing "
                "our private binary summation mechanism (defined later, see Appendix C) with a private "
                "summation mechanism for real numbers in [0, 1] with similar guarantees."),
    Claim(PAPER, "fn10-doubling", "§2, footnote 10", "T need not be known: the doubling trick keeps the bounds",
          "numeric", _doubling,
          quote="In this paper, we assume that T is known apriori. Otherwise, we can apply standard doubling "
                "arguments to get roughly the same results."),
)
