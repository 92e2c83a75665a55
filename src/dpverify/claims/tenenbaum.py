"""tenenbaum et al. 2021 (shuffle-model MAB, SDP-AE / VB-SDP-AE): the claims and their checks.

Cor. 3.2's batch size (sympy: ⌈σ²⌉, not the printed ⌈σ⌉), the M_sum whose
Appendix C is missing (not checkable as printed; our noise-bit stand-in
checked exactly), Thm 3.3 vs Cor. 3.2 (VB-SDP-AE beats SDP-AE at small ε),
and Thm 3.1's rate with both batch readings against simulated regret.
"""

from __future__ import annotations

import math

from dpverify.accountants.shuffle_papers import (
    tenenbaum_batch_size,
    tenenbaum_msum_sigma,
    tenenbaum_noise_bits,
)
from dpverify.bandits.environments import BernoulliBandit
from dpverify.bandits.mab import make_algorithm
from dpverify.bandits.simulate import simulate
from dpverify.claims import regret_bounds, symbolic
from dpverify.claims._simulations import bound_figure, rate_verdict, regret_rows
from dpverify.claims._types import CORRECTED, FAILS, HOLDS, NOT_CHECKABLE, Claim, Evidence

__all__ = ["CLAIMS"]

PAPER = "tenenbaum"


def _batch_size(scale: str) -> Evidence:
    derivation = symbolic.tenenbaum_batch_size()
    sigma = tenenbaum_msum_sigma(1.0, 1e-6)
    squared, printed = tenenbaum_batch_size(sigma), tenenbaum_batch_size(sigma, reading="printed")
    return Evidence(CORRECTED,
                    "Cor. 3.2 prints m = ⌈σ⌉ but its bound needs the privacy term σ² log T/(mΔ) no "
                    "larger than log T/Δ, i.e. m = ⌈σ²⌉ (sympy, below). At ε = 1, δ = 1e-6 with the "
                    f"noise-bit M_sum (σ = {sigma:.4g}): m = {squared} (derived) vs {printed} (printed)",
                    {"sigma": sigma, "m_derived": squared, "m_printed": printed},
                    derivation=derivation.text())


def _msum(scale: str) -> Evidence:
    epsilon, delta = 1.0, 1e-6
    bits = tenenbaum_noise_bits(epsilon, delta)
    return Evidence(NOT_CHECKABLE,
                    "M_sum is defined in an Appendix C that is not in the paper's text (T-T1), and "
                    "σ_{ε,δ}'s constant is unstated. Our stand-in (N fair coins shuffled with the "
                    f"reward bits) needs N = {bits} coins for (ε, δ) = ({epsilon}, {delta}) by the "
                    "exact binomial accountant; the paper's own construction cannot be checked",
                    {"noise_bits": bits, "sigma": math.sqrt(bits) / 2})


def _vb_beats_fixed(scale: str) -> Evidence:
    T, runs = (10 ** 5, 3) if scale == "quick" else (10 ** 6, 5)
    env = BernoulliBandit((0.25, 0.75))
    vb = simulate(make_algorithm("vb-sdp-ae", epsilon=0.01, delta=1e-6), env, T, runs=runs, seed=2)
    fixed = simulate(make_algorithm("sdp-ae", epsilon=0.01, delta=1e-6), env, T, runs=runs, seed=2)
    vb_max, fixed_min = float(vb.final_regret().max()), float(fixed.final_regret().min())
    ok = vb_max < fixed_min
    return Evidence(HOLDS if ok else FAILS,
                    f"2 arms (Δ = 1/2), ε = 0.01, δ = 1e-6, T = {T}, {runs} runs: VB-SDP-AE's worst run "
                    f"{vb_max:.4g} vs SDP-AE's best {fixed_min:.4g} (additive kσ log T vs Σ Δ_a σ²)",
                    {"vb_max": vb_max, "fixed_min": fixed_min, "T": T, "runs": runs})


def _rate(reading: str):
    def check(scale: str) -> Evidence:
        horizons, runs = ([10 ** 4, 10 ** 5, 10 ** 6], 6) if scale == "quick" else \
            ([10 ** 4, 10 ** 5, 10 ** 6, 10 ** 7], 10)
        gaps = [0.0, 0.5]
        epsilon, delta = 0.1, 1e-6
        algorithm = make_algorithm("sdp-ae", epsilon=epsilon, delta=delta, batch_reading=reading)
        rows = regret_rows(algorithm, BernoulliBandit((0.25, 0.75)), horizons, runs=runs, seed=4,
                           bound=lambda T: regret_bounds.tenenbaum_cor32(gaps, T, epsilon=epsilon,
                                                                         delta=delta, constant=1.0))
        ok, constants = rate_verdict(rows)
        return Evidence(HOLDS if ok else FAILS,
                        f"SDP-AE with m from the {reading} reading, 2 arms (Δ = 1/2), ε = {epsilon}: the "
                        "implied constant of Cor. 3.2's O(Σ log T/Δ_a + Δ_a log(1/δ)/ε²) is "
                        + ", ".join(f"{c:.3g}" for c in constants)
                        + f" at T = {', '.join(str(r['T']) for r in rows)}",
                        {"rows": rows, "implied_constants": constants, "reading": reading},
                        figure=bound_figure(f"tenenbaum Cor. 3.2 × max implied C ({reading} m)", rows,
                                            label="Cor. 3.2 bound", scale=max(constants)))
    return check


CLAIMS = (
    Claim(PAPER, "cor32-batch", "Cor. 3.2", "SDP-AE with m = ⌈σ_{ε,δ}⌉ has regret "
          "O(Σ log T/Δ_a + k log(1/δ)/ε²)", "symbolic", _batch_size),
    Claim(PAPER, "msum", "§2.1, Appendix C", "M_sum is (ε, δ)-SDP with σ_{ε,δ} = O(√log(1/δ)/ε) error",
          "numeric", _msum),
    Claim(PAPER, "thm33-vs-cor32", "Thm 3.3 vs Cor. 3.2",
          "VB-SDP-AE's additive kσ log T beats SDP-AE's k log(1/δ)/ε² at small ε", "empirical",
          _vb_beats_fixed),
    Claim(PAPER, "cor32-rate", "Cor. 3.2 (m = ⌈σ²⌉)", "the regret grows as O(Σ log T/Δ_a + Δ_a log(1/δ)/ε²)",
          "empirical", _rate("squared")),
    Claim(PAPER, "cor32-printed-rate", "Cor. 3.2 as printed (m = ⌈σ⌉)",
          "the regret grows as O(Σ log T/Δ_a + Δ_a log(1/δ)/ε²)", "empirical", _rate("printed")),
)
