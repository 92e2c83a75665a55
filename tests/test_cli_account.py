"""``dpverify account dp-sgd`` and ``dpverify account compose`` (issue 15)."""

from __future__ import annotations

import json

import pytest

from dpverify.accountants.accountant import PrivacyAccountant
from dpverify.accountants.events import PoissonSampledEvent, SelfComposedEvent, event_to_dict
from dpverify.cli import main
from dpverify.mechanisms import Gaussian, Laplace


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
    assert PrivacyAccountant("pld").compose(event).get_epsilon(1e-5) <= 2.0


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
    (["account", "dp-sgd", "--sampling-probability", "0.1", "--epochs", "0.01", "--noise-multiplier", "1",
      "--delta", "1e-5"], "--epochs"),
    (["account", "compose", "/nonexistent/spec.json", "--delta", "1e-5"], "spec"),
])
def test_bad_input_exits_2(capsys, argv, fragment) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert fragment in capsys.readouterr().err
