"""``dpverify account``: gaussian, laplace, calibrate, and dp-sgd and compose (issue 15)."""

from __future__ import annotations

import json

import pytest

from dpverify.accountants.accountant import PrivacyAccountant
from dpverify.accountants.events import PoissonSampledEvent, SelfComposedEvent, event_to_dict
from dpverify.cli import main
from dpverify.mechanisms import Gaussian, Laplace
from dpverify.mechanisms.continuous import gaussian_privacy_profile


def _json(capsys, *argv: str) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_dp_sgd_epsilon_equals_the_accountant(capsys) -> None:
    out = _json(capsys, "account", "dp-sgd", "--sampling-probability", "0.01", "--epochs", "2",
                "--noise-multiplier", "1.0", "--delta", "1e-5", "--method", "rdp")
    assert out["steps"] == 200
    event = SelfComposedEvent(PoissonSampledEvent(Gaussian(sigma=1.0), 0.01), 200)
    assert out["epsilon"] == PrivacyAccountant("rdp").compose(event).get_epsilon(1e-5)


def test_dp_sgd_calibration_meets_the_budget(capsys) -> None:
    out = _json(capsys, "account", "dp-sgd", "--sampling-probability", "0.05", "--steps", "20",
                "--epsilon", "2", "--delta", "1e-5")
    event = SelfComposedEvent(PoissonSampledEvent(Gaussian(sigma=out["noise_multiplier"]), 0.05), 20)
    reached = PrivacyAccountant("pld").compose(event).get_epsilon(1e-5)
    assert out["epsilon"] == reached <= out["epsilon_budget"] == 2.0   # the ε reached, and the request


def test_dp_sgd_sizes_fraction_and_rate_forms_give_one_answer(capsys) -> None:
    """--dataset-size/--batch-size, a fraction rate and plan dp-sgd: the same steps and ε, which
    the accountant and dp_sgd_epsilon report too (issue 30, §2)."""
    common = ["--epochs", "3", "--noise-multiplier", "1.2", "--delta", "1e-5"]
    sizes = _json(capsys, "account", "dp-sgd", "--dataset-size", "6000", "--batch-size", "64", *common)
    fraction = _json(capsys, "account", "dp-sgd", "--sampling-probability", "64/6000", *common)
    plan = _json(capsys, "plan", "dp-sgd", "--dataset-size", "6000", "--batch-size", "64", *common)
    assert sizes["steps"] == fraction["steps"] == plan["steps"] == 282      # ceil(3 · 6000 / 64)
    assert sizes["epsilon"] == fraction["epsilon"] == plan["guarantee"]["epsilon"]
    accountant = PrivacyAccountant("pld")
    for _ in range(282):
        accountant.step(noise_multiplier=1.2, sample_rate=64 / 6000)
    assert accountant.get_epsilon(1e-5) == sizes["epsilon"]
    main(["account", "dp-sgd", "--dataset-size", "6000", "--batch-size", "64", *common])
    assert capsys.readouterr().out.startswith("282 DP-SGD steps at q=0.0106667")


def test_sixty_epochs_of_256_in_60000_are_14063_steps_in_both_commands(capsys) -> None:
    """Steps from epochs are ⌈E·N/B⌉ = ⌈14,062.5⌉ in account and plan dp-sgd alike (TF-Privacy's
    count; Opacus's get_noise_multiplier takes ⌊E/q⌋ = 14,062): docs/guide/dp-sgd.md."""
    common = ["--dataset-size", "60000", "--batch-size", "256", "--epochs", "60",
              "--noise-multiplier", "1.1", "--delta", "1e-5", "--method", "rdp"]
    account = _json(capsys, "account", "dp-sgd", *common)
    plan = _json(capsys, "plan", "dp-sgd", *common)
    assert account["steps"] == plan["steps"] == 14063
    assert account["epsilon"] == plan["guarantee"]["epsilon"]


def test_compose_spec_side_by_side(capsys, tmp_path) -> None:
    spec = {"delta": 1e-6, "history": [
        {"event": event_to_dict(Gaussian(sigma=5.0)), "count": 10},
        {"event": event_to_dict(Laplace(scale=10.0)), "count": 2}]}
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(spec))
    out = _json(capsys, "account", "compose", str(path), "--method", "all")
    by_method = out["by_method"]
    assert by_method["pld"] <= by_method["rdp"] <= by_method["zcdp"]
    assert out["epsilon"] == by_method["pld"]


def test_compose_spec_without_replacement_and_repeat_and_select(capsys, tmp_path) -> None:
    """Events the accountant gained in issue 15 (v2): a fixed-size batch under replace-one (PLD) and
    repeat-and-select (RDP) go through the JSON spec like any other."""
    from dpverify.accountants.events import RepeatAndSelectEvent, SampledWithoutReplacementEvent

    batch = SampledWithoutReplacementEvent(Gaussian(sigma=1.5), 64, 6400)
    spec = {"delta": 1e-5, "neighbouring": "replace-one",
            "history": [{"event": event_to_dict(batch), "count": 100}]}
    path = tmp_path / "wor.json"
    path.write_text(json.dumps(spec))
    expected = PrivacyAccountant("pld", neighbouring="replace-one").compose(batch, 100).get_epsilon(1e-5)
    assert _json(capsys, "account", "compose", str(path))["epsilon"] == pytest.approx(expected, rel=1e-9)
    tuning = RepeatAndSelectEvent(Gaussian(sigma=5.0), 10.0, 1.0)
    path.write_text(json.dumps({"delta": 1e-6, "method": "rdp", "event": event_to_dict(tuning)}))
    expected = PrivacyAccountant("rdp").compose(tuning).get_epsilon(1e-6)
    assert _json(capsys, "account", "compose", str(path))["epsilon"] == pytest.approx(expected, rel=1e-9)


@pytest.mark.parametrize("argv, fragment", [
    (["account", "dp-sgd", "--sampling-probability", "1.5", "--steps", "3", "--noise-multiplier", "1",
      "--delta", "1e-5"], "--sampling-probability 1.5 must be in (0, 1]"),
    (["account", "dp-sgd", "--sampling-probability", "0.1", "--epochs", "-1", "--noise-multiplier", "1",
      "--delta", "1e-5"], "--epochs"),
    (["account", "dp-sgd", "--sampling-probability", "256/0", "--epochs", "1", "--noise-multiplier",
      "1", "--delta", "1e-5"], "fraction"),
    (["account", "dp-sgd", "--dataset-size", "100", "--epochs", "1", "--noise-multiplier", "1",
      "--delta", "1e-5"], "--batch-size"),
    (["account", "dp-sgd", "--dataset-size", "100", "--batch-size", "200", "--epochs", "1",
      "--noise-multiplier", "1", "--delta", "1e-5"], "--batch-size"),
    (["account", "compose", "/nonexistent/spec.json", "--delta", "1e-5"], "spec"),
])
def test_bad_input_exits_2(capsys, argv, fragment) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert fragment in capsys.readouterr().err


@pytest.mark.parametrize("method", ["pld", "rdp", "analytic"])
def test_account_gaussian_json(capsys, method: str) -> None:
    out = _json(capsys, "account", "gaussian", "--sigma", "1", "--count", "1e3",
                "--delta", "1e-5", "--method", method)
    exact = gaussian_privacy_profile(1 / 1000 ** 0.5).epsilon_for_delta(1e-5)
    assert out["method"] == method and out["delta"] == 1e-5 and out["count"] == 1000
    assert exact <= out["epsilon"] <= exact * 1.05


def test_account_laplace_pure_and_pld(capsys) -> None:
    pure = _json(capsys, "account", "laplace", "--scale", "10", "--count", "10")
    assert pure["epsilon"] == 1.0 and pure["method"] == "pure"
    approx = _json(capsys, "account", "laplace", "--scale", "10", "--count", "100",
                   "--delta", "1e-6")
    assert approx["method"] == "pld" and approx["epsilon"] < 10.0


@pytest.mark.slow
def test_account_calibrate(capsys) -> None:
    out = _json(capsys, "account", "calibrate", "--epsilon", "1", "--delta", "1e-5",
                "--count", "100", "--method", "rdp")
    assert out["sigma"] > 10 * 3.73 and out["epsilon"] == 1.0


def test_human_readable_line(capsys) -> None:
    assert main(["account", "gaussian", "--sigma", "2", "--delta", "1e-6"]) == 0
    line = capsys.readouterr().out
    assert line.startswith("1 x gaussian with sigma=2: (epsilon=2.25411, delta=1e-06)-DP")
    assert "method=pld" in line


@pytest.mark.parametrize("argv, fragment", [
    (["account", "gaussian", "--sigma", "-1", "--delta", "1e-5"], "--sigma -1.0 must be in (0, inf)"),
    (["account", "gaussian", "--sigma", "1", "--delta", "2"], "--delta 2.0 must be in (0, 1)"),
    (["account", "gaussian", "--sigma", "nan", "--delta", "1e-5"],
     "argument --sigma: 'nan' must be a finite number"),
    (["account", "gaussian", "--sigma", "1", "--delta", "1e-5", "--count", "0"],
     "argument --count: '0' must be an integer >= 1"),
    (["account", "gaussian", "--sigma", "1", "--delta", "1e-5", "--count", "inf"],
     "argument --count: 'inf' must be an integer >= 1"),
])
def test_bad_input_exits_2_with_a_message(capsys, argv: list[str], fragment: str) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert fragment in capsys.readouterr().err
