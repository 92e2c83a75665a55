"""``dpverify plan`` and the honest-ε behaviour of ``dpverify simulate`` / ``shuffle`` (issue 14)."""

from __future__ import annotations

import json

import pytest

from dpverify.cli import main


def _strict(text: str) -> dict:
    def refuse(token: str) -> None:
        raise ValueError(f"non-RFC 8259 token {token}")

    return json.loads(text, parse_constant=refuse)


def _run(capsys, *argv: str, status: int = 0) -> tuple[dict, str]:
    assert main([*argv, "--json"]) == status
    captured = capsys.readouterr()
    return _strict(captured.out), captured.err


def test_plan_dist_rdp_se_sound_meets_epsilon_one(capsys) -> None:
    out, err = _run(capsys, "plan", "dist-rdp-se", "--epsilon", "1", "--delta", "1e-6",
                    "--horizon", "1e5", "--n-arms", "10")
    assert out["claim_met"] is True and out["guarantee"]["epsilon"] <= 1.0 and not err
    assert out["mode"] == "sound" and out["schedule"][0]["precision_g"] >= 1
    assert {"algorithm", "requested", "guarantee", "parameters", "schedule", "notes"} <= set(out)


def test_plan_paper_mode_claim_fails_exits_1_with_a_warning(capsys) -> None:
    out, err = _run(capsys, "plan", "hanna-shuffled", "--epsilon", "1", "--horizon", "1e5",
                    "--dimension", "3", "--n-arms", "20", "--mode", "paper", status=1)
    assert out["claim_met"] is False and err.startswith("warning:") and "epsilon=1" in err


@pytest.mark.slow
def test_plan_infeasible_sblb_says_why(capsys) -> None:
    out, err = _run(capsys, "plan", "sblb", "--epsilon", "1", "--horizon", "1e4", "--dimension", "2",
                    "--n-arms", "3", status=1)
    assert out["infeasible"] and "exceeds the horizon" in err


@pytest.mark.slow
def test_plan_sblb_within_budget_is_labelled_with_its_reason_and_says_where_it_fits(capsys) -> None:
    """Issue 30 §5: the total is inside the budget, so the label is not "claim NOT met" but the
    reason (a batch longer than the horizon); the plan says from where Cor. 8 releases a batch,
    and accepts --batch-form printed as `simulate` does."""
    from dpverify.bandits.contextual.parameters import cor8_first_release_log10_horizon

    argv = ["plan", "sblb", "--epsilon", "1", "--horizon", "1e6", "--dimension", "5", "--n-arms",
            "10"]
    assert main(argv) == 1
    text, err = capsys.readouterr()
    assert "claim NOT met" not in text and "within the budget, but not deployable: " in text
    assert "is within the requested" in err and err.startswith("warning: ")
    first = cor8_first_release_log10_horizon(dimension=5, shuffle_delta=1e-6 / 3)
    assert first is not None and first > 18 and f"from T ~ 10^{first:g}" in text
    printed, _ = _run(capsys, *argv, "--batch-form", "printed", status=1)
    assert printed["parameters"]["batch_form"] == "printed"
    assert printed["parameters"]["flip_probability"] == printed["parameters"][
        "randomization_probability_p"] / 2


def test_cor8_first_release_agrees_with_the_claims_report() -> None:
    """d = 1, delta0 = 1e-6: the claims report's first_release_horizon (22.0), and a larger
    dimension needs a longer horizon."""
    from dpverify.bandits.contextual.parameters import cor8_first_release_log10_horizon
    from dpverify.claims.garcelon import first_release_horizon

    assert cor8_first_release_log10_horizon(dimension=1, shuffle_delta=1e-6) == \
        first_release_horizon() == 22.0
    assert cor8_first_release_log10_horizon(dimension=5, shuffle_delta=1e-6) > 22.0


def test_plan_hanna_shuffled_notes_a_batch_capped_at_fmt_validity(capsys) -> None:
    """Hanna batch 7 at T = 1e6: ε0 stops at ln(N/(16 ln(2/δ))), so the batch spends less."""
    import math

    out, _ = _run(capsys, "plan", "hanna-shuffled", "--epsilon", "1", "--horizon", "1e6",
                  "--dimension", "5", "--n-arms", "100")
    capped = [record for record in out["schedule"] if "note" in record]
    assert capped, "no batch noted"
    for record in capped:
        limit = math.log(record["users_at_least"] / (16 * math.log(2 / 1e-6)))
        assert record["per_batch"]["epsilon"] < 1.0
        assert record["local_epsilon_0"] == pytest.approx(limit, rel=1e-6)
        assert "validity limit" in record["note"]
    uncapped = [record for record in out["schedule"] if "note" not in record]
    assert all(record["per_batch"]["epsilon"] == pytest.approx(1.0, rel=1e-6)
               or record["local_epsilon_0"] == 1.0 for record in uncapped)


def test_plan_rdp_per_batch_curves_read_per_batch(capsys) -> None:
    assert main(["plan", "dist-rdp-se", "--epsilon", "1", "--delta", "1e-6", "--horizon", "1e5",
                 "--n-arms", "10"]) == 0
    text = capsys.readouterr().out
    rows = [line for line in text.splitlines() if "RDP epsilon(order" in line][1:]
    assert len(rows) > 2 and len(set(row.split("RDP ")[1] for row in rows)) > 1


def test_plan_human_sheet_has_parameters_schedule_and_notes(capsys) -> None:
    assert main(["plan", "dpdpe-central", "--epsilon", "10", "--horizon", "1e5"]) == 0
    text = capsys.readouterr().out
    assert "parameters" in text and "schedule (" in text and "notes" in text
    assert "noise_multiplier_sigma_over_sensitivity" in text


def test_simulate_hanna_shuffled_sound_meets_and_paper_warns(capsys) -> None:
    argv = ["simulate", "--algorithm", "hanna-shuffled", "--epsilon", "1", "--horizon", "3000"]
    sound, err = _run(capsys, *argv)
    assert sound["guarantee_epsilon"] <= 1.0 and sound["claim_met"] is True and not err
    paper, err = _run(capsys, *argv, "--mode", "paper", status=1)
    assert paper["claim_met"] is False and "warning:" in err
    assert paper["requested"] == {"type": "approx-dp", "epsilon": 1.0, "delta": 1e-6}


@pytest.mark.slow
def test_simulate_dist_rdp_se_sound_total_at_most_one(capsys) -> None:
    out, _ = _run(capsys, "simulate", "--algorithm", "dist-rdp-se", "--epsilon", "1",
                  "--delta", "1e-6", "--horizon", "2000")
    assert out["guarantee_epsilon"] <= 1.0 and out["claim_met"] is True


@pytest.mark.slow
def test_plan_dp_sgd_meets_the_budget_and_agrees_with_dp_accounting(capsys) -> None:
    """σ is verified forward, and dp-accounting's PLD accountant (google/differential-privacy:
    python/dp_accounting, used as an oracle) puts its own calibrated σ within 0.5% of ours:
    its ε at 0.995σ exceeds the budget and at 1.005σ meets it."""
    dp_accounting = pytest.importorskip("dp_accounting")
    from dp_accounting.pld import pld_privacy_accountant

    out, _ = _run(capsys, "plan", "dp-sgd", "--dataset-size", "1000", "--batch-size", "10",
                  "--steps", "100", "--epsilon", "1", "--delta", "1e-5")
    sigma = out["noise_multiplier"]
    assert out["claim_met"] and out["guarantee"]["epsilon"] <= 1.0 and out["steps"] == 100

    def peer_epsilon(noise: float) -> float:
        event = dp_accounting.SelfComposedDpEvent(
            dp_accounting.PoissonSampledDpEvent(0.01, dp_accounting.GaussianDpEvent(noise)), 100)
        accountant = pld_privacy_accountant.PLDAccountant()
        accountant.compose(event)
        return accountant.get_epsilon(1e-5)

    assert peer_epsilon(sigma * 0.995) > 1.0 > peer_epsilon(sigma * 1.005)
    forward, _ = _run(capsys, "plan", "dp-sgd", "--dataset-size", "1000", "--batch-size", "10",
                      "--steps", "100", "--noise-multiplier", str(sigma), "--delta", "1e-5")
    assert forward["guarantee"]["epsilon"] == out["guarantee"]["epsilon"]


@pytest.mark.slow
def test_plan_gaussian_laplace_shuffle_and_secure_aggregation(capsys) -> None:
    from dpverify.accountants import shuffled_binary_rr_delta

    gaussian, _ = _run(capsys, "plan", "gaussian", "--epsilon", "1", "--delta", "1e-5",
                       "--count", "10")
    assert gaussian["claim_met"] and gaussian["guarantee"]["epsilon"] <= 1.0
    laplace, _ = _run(capsys, "plan", "laplace", "--epsilon", "1", "--count", "10")
    assert laplace["scale_b"] >= 10.0 and laplace["claim_met"]
    rr, _ = _run(capsys, "plan", "shuffle", "--epsilon", "0.5", "--delta", "1e-6", "--users", "2000",
                 "--randomizer", "binary-rr")
    assert shuffled_binary_rr_delta(rr["randomization_probability"], 2000, 0.5) <= 1e-6
    assert rr["flip_probability"] == rr["randomization_probability"] / 2
    smallest, _ = _run(capsys, "plan", "shuffle", "--epsilon", "0.5", "--delta", "1e-6",
                       "--local-epsilon", "2")
    assert smallest["users"] > 1
    secagg, _ = _run(capsys, "plan", "secure-aggregation", "--epsilon", "1", "--delta", "1e-6",
                     "--users", "1000")
    assert [row["protocol"] for row in secagg["protocols"]] == ["polya", "skellam",
                                                                 "discrete-gaussian"]
    assert all(row["guarantee"]["epsilon"] <= 1.0 for row in secagg["protocols"])


def test_plan_bad_input_exits_2_naming_the_option(capsys) -> None:
    with pytest.raises(SystemExit) as info:
        main(["plan", "dist-dp-se", "--epsilon", "-1", "--horizon", "100"])
    assert info.value.code == 2 and "--epsilon" in capsys.readouterr().err
    with pytest.raises(SystemExit) as info:
        main(["plan", "shuffle", "--epsilon", "1", "--delta", "1e-6"])
    assert info.value.code == 2 and "--users" in capsys.readouterr().err


def test_plan_internal_error_exits_3(capsys, monkeypatch) -> None:
    from dpverify.bandits import registry

    def broken(*args, **kwargs):
        raise RuntimeError("injected")

    monkeypatch.setattr(registry, "plan_deployment", broken)
    with pytest.raises(SystemExit) as info:
        main(["plan", "dist-dp-se", "--epsilon", "1", "--horizon", "100"])
    assert info.value.code == 3 and "injected" in capsys.readouterr().err


@pytest.mark.slow
def test_shuffle_best_bound_includes_the_exact_binary_rr_value(capsys) -> None:
    from dpverify.accountants import shuffled_binary_rr_epsilon
    from dpverify.mechanisms.randomized_response import BinaryRandomizedResponse

    out, _ = _run(capsys, "shuffle", "--local-epsilon", "2", "--users", "2000", "--delta", "1e-6",
                  "--randomizer", "binary-rr", "--bound", "best")
    randomizer = BinaryRandomizedResponse.from_epsilon(2.0)
    exact = shuffled_binary_rr_epsilon(randomizer.randomization_probability, 2000, 1e-6)
    assert exact <= out["epsilon"] <= exact * (1 + 1e-9)



def test_plan_shuffle_binary_rr_says_both_probabilities(capsys) -> None:
    """p replaces the bit by a fair coin, so the bit flips w.p. p/2: the text says both (issue 30 §4)."""
    from dpverify.mechanisms.randomized_response import BinaryRandomizedResponse

    assert main(["plan", "shuffle", "--epsilon", "0.5", "--delta", "1e-6", "--local-epsilon", "2",
                 "--randomizer", "binary-rr"]) == 0
    text = capsys.readouterr().out
    p = BinaryRandomizedResponse.from_epsilon(2.0).randomization_probability  # 2/(e^2 + 1)
    assert f"randomization probability p = {p:.4g}"[:-1] in text
    assert "flips with probability p/2 = " in text
    law = BinaryRandomizedResponse(p).law_on(0).probabilities
    assert float(law[1]) == p / 2  # the law itself: P[output 1 | input 0] = p/2
