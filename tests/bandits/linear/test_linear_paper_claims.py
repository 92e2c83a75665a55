"""The papers' qualitative claims at quick scale (Hanna et al. 2022, §6; Li, Zhou & Ji 2022, §7).

Every comparison uses common random numbers (same seeds, hence the same
instances) and enough runs that the asserted gap is several standard errors
wide at the observed values (recorded in the comments; they are our
simulations, not the papers' numbers). Claims that do NOT reproduce are
strict xfails carrying the numbers, so that a change that makes them hold is
noticed.
"""

from __future__ import annotations

import numpy as np
import pytest

from dpverify.bandits.linear import NON_PRIVATE_LINEAR_ALGORITHMS, make_linear_algorithm
from dpverify.bandits.linear.environments import LinearInstanceFamily
from dpverify.bandits.simulate import simulate


def _final(name, family, horizon, runs, seed=3, **options):
    private = name not in NON_PRIVATE_LINEAR_ALGORITHMS
    if name == "dpe-fixedu":
        options.update(horizon=horizon, dimension=family.d)
    epsilon = options.pop("epsilon", 1.0 if name.startswith("hanna") else 10.0)
    algorithm = make_linear_algorithm(name, epsilon=epsilon if private else None, **options)
    result = simulate(algorithm, family, horizon, runs=runs, seed=seed)
    return result.final_regret(), result


def _mean_se(values):
    return float(values.mean()), float(values.std(ddof=1) / np.sqrt(len(values)))


# ---------------------------------------------------------------------- Hanna et al. 2022

HANNA = LinearInstanceFamily("sphere", dimension=2, n_arms=10)


@pytest.mark.slow
def test_hanna_shuffled_close_to_central_and_both_far_below_local():
    # observed (T = 1e5, 30 runs, ε = 1, paper mode): central ≈ 7.3e3, shuffled ≈ 1.0e4,
    # local ≈ 1.8e4, non-private ≈ 6.1e3 (standard errors ≈ 7–12 %)
    central, _ = _final("hanna-central", HANNA, 10 ** 5, 30)
    shuffled, _ = _final("hanna-shuffled", HANNA, 10 ** 5, 30)
    local, _ = _final("hanna-local", HANNA, 10 ** 5, 30)
    nonprivate, _ = _final("hanna-nonprivate", HANNA, 10 ** 5, 30)
    assert local.mean() > 1.4 * shuffled.mean() and local.mean() > 1.8 * central.mean()
    assert shuffled.mean() < 1.8 * central.mean()
    assert central.mean() < 1.5 * nonprivate.mean()  # "(almost) for free"


@pytest.mark.slow
def test_hanna_regret_decreases_with_epsilon_towards_nonprivate():
    small, _ = _final("hanna-local", HANNA, 10 ** 5, 20, epsilon=0.3)
    large, _ = _final("hanna-local", HANNA, 10 ** 5, 20, epsilon=3.0)
    nonprivate, _ = _final("hanna-nonprivate", HANNA, 10 ** 5, 20)
    assert small.mean() > 1.5 * large.mean() > nonprivate.mean()


@pytest.mark.slow
def test_hanna_core_set_beats_no_core_set():
    # observed (K = 1000, d = 2, T = 1e5, 10 runs): core set ≈ 1.67e4 ± 5e2 vs no core set
    # ≈ 3.94e4 ± 3e2. At T = 1e6 the gap nearly closes (5.9e4 vs 6.5e4) and at the paper's
    # T = 1e7 it reverses (test below).
    family = LinearInstanceFamily("sphere", dimension=2, n_arms=1000)
    core, _ = _final("hanna-central", family, 10 ** 5, 6)
    whole, _ = _final("hanna-central", family, 10 ** 5, 6, core_set=False)
    mean_core, se_core = _mean_se(core)
    mean_whole, se_whole = _mean_se(whole)
    assert mean_whole - mean_core > 4 * np.hypot(se_core, se_whole)
    assert mean_whole > 1.5 * mean_core


@pytest.mark.xfail(strict=True, reason=(
    "does not reproduce at Hanna et al.'s Fig. 3(b) T = 1e7 (K = 1000, d = 2, ε = 1, paper mode): "
    "full reproduction (20 runs) gives Reg(T)/T = 0.0291 with the core set vs 0.0223 without "
    "(non-private 0.0291). The 2-point core set sits at the ends of the active arc (largest "
    "gaps), while the full-support design also plays near-optimal actions; the extra Laplace "
    "terms only delay elimination to batch ~10, which matters less at large T"))
@pytest.mark.slow
def test_hanna_core_set_beats_no_core_set_at_the_papers_horizon():
    family = LinearInstanceFamily("sphere", dimension=2, n_arms=1000)
    core, _ = _final("hanna-central", family, 10 ** 7, 4)
    whole, _ = _final("hanna-central", family, 10 ** 7, 4, core_set=False)
    assert whole.mean() > 1.2 * core.mean()


# ---------------------------------------------------------------------- Li, Zhou & Ji 2022 (DP-DPE)

SMALL = LinearInstanceFamily("dpdpe", dimension=5, n_arms=100)


@pytest.mark.slow
def test_dpdpe_ordering_dpe_below_cdp_below_ldp():
    # observed (k = 100, d = 5, T = 1e5, 20 runs, ε = 10, δ = 0.25, paper mode):
    # DPE ≈ 5.2e3, CDP ≈ 1.9e4, LDP ≈ 8.8e4 (LDP never eliminates within T)
    dpe, _ = _final("dpe", SMALL, 10 ** 5, 20)
    cdp, _ = _final("dpdpe-central", SMALL, 10 ** 5, 20)
    ldp, _ = _final("dpdpe-local", SMALL, 10 ** 5, 20)
    assert dpe.mean() < cdp.mean() < ldp.mean() / 2


@pytest.mark.slow
def test_dpe_beats_dpe_fixedu_at_equal_communication():
    # observed (DP-DPE §7 setting k = 1000, d = 20, T = 1e5, 10 runs): DPE ≈ 1.64e4 (C = 8.4e3 reals),
    # DPE-FixedU (U = 39) ≈ 2.40e4 (C = 9.5e3 reals); standard errors ≈ 3e2
    family = LinearInstanceFamily("dpdpe", dimension=20, n_arms=1000)
    dpe, dpe_result = _final("dpe", family, 10 ** 5, 10)
    fixed, fixed_result = _final("dpe-fixedu", family, 10 ** 5, 10)
    mean_dpe, se_dpe = _mean_se(dpe)
    mean_fixed, se_fixed = _mean_se(fixed)
    assert mean_fixed - mean_dpe > 5 * np.hypot(se_dpe, se_fixed)
    ratio = fixed_result.communication_cost.mean() / dpe_result.communication_cost.mean()
    assert 0.8 < ratio < 1.25  # about equal communication (reals)


@pytest.mark.xfail(strict=True, reason=(
    "does not reproduce: Li, Zhou & Ji's Fig. 2(b) shows CDP-DPE ≈ SDP-DPE ≈ DPE at ε = 10, δ = 0.25; "
    "with |y| <= B = 1, σ_nc = 2B√(2 s ln 5)/(ε|U_l|) and σ_n = 2σ_nc√d the CDP width only "
    "allows elimination from phase ~10, and SDP's Eq. (22) constants give noise ~250x the "
    "central one (at the paper's last phase). Observed at the full setting (T = 1e6, 10 runs): DPE 3.7e4, "
    "CDP 3.4e5, SDP = LDP 6.2e5 (no elimination)"))
@pytest.mark.slow
def test_cdp_and_sdp_close_to_dpe():
    dpe, _ = _final("dpe", SMALL, 10 ** 5, 20)
    cdp, _ = _final("dpdpe-central", SMALL, 10 ** 5, 20)
    sdp, _ = _final("dpdpe-shuffle", SMALL, 10 ** 5, 20)
    assert cdp.mean() < 1.5 * dpe.mean() and sdp.mean() < 1.5 * cdp.mean()
