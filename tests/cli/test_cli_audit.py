"""``dpverify audit``: the built-in examples; user code (--sampler MODULE:FUNCTION, --x/--x-prime,
--pairs), modes, exit statuses."""

from __future__ import annotations

import json
import sys
import textwrap

import pytest

from dpverify.cli import main

USER_MODULE = '''
import numpy as np

def noisy_count(data, size, rng):
    """Laplace(1): 1-DP for a count."""
    return data + rng.laplace(0.0, 1.0, size)

def noisy_count_buggy(data, size, rng):
    """The twin with half the noise: 2-DP."""
    return data + rng.laplace(0.0, 0.5, size)

def wrong_signature(data, rng):
    return data + rng.laplace(0.0, 1.0)

def svt(queries, size, rng):
    threshold = 0.5 + rng.laplace(0.0, 2.0, (size, 1))
    return np.asarray(queries) + rng.laplace(0.0, 2.0, (size, len(queries))) >= threshold

def gaussian_classical(data, size, rng):
    sigma = (2 * np.log(1.25 / 1e-3)) ** 0.5 / 10.0
    return data + rng.normal(0.0, sigma, size)

def svt_with_cutoff_noise(queries, size, rng):
    """Sparse vector drowned in query noise (Lap(400)): far below its 1-DP claim on these pairs."""
    threshold = 0.5 + rng.laplace(0.0, 2.0, (size, 1))
    return np.asarray(queries) + rng.laplace(0.0, 400.0, (size, len(queries))) >= threshold

def binomial_count(data, size, rng):
    """A count plus Bin(62, 1/4) noise: the claim below is for Bin(62, 1/2)."""
    return data + rng.binomial(62, 0.25, size)

not_callable = 3
'''


@pytest.fixture
def user_module(tmp_path, monkeypatch):
    (tmp_path / "user_mechanisms.py").write_text(textwrap.dedent(USER_MODULE))
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "user_mechanisms"
    sys.modules.pop("user_mechanisms", None)


def _json(capsys, *argv: str) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        status = main(list(argv))
    except SystemExit as exit_info:
        status = exit_info.code
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_a_correct_user_mechanism_exits_0(capsys, user_module) -> None:
    status, out, _ = _run(capsys, "audit", "--sampler", f"{user_module}:noisy_count", "--x", "0",
                          "--x-prime", "1", "--epsilon", "1", "--samples", "2e5", "--seed", "1")
    assert status == 0 and "no violation found" in out and "x=0, x'=1" in out


def test_its_buggy_twin_exits_1(capsys, user_module) -> None:
    status, out, _ = _run(capsys, "audit", "--sampler", f"{user_module}:noisy_count_buggy", "--x",
                          "0", "--x-prime", "1", "--epsilon", "1", "--samples", "2e5", "--seed",
                          "1", "--json")
    result = json.loads(out)
    assert status == 1 and result["violation"] is True and result["epsilon_lower_bound"] > 1.5
    assert result["mechanism"] == f"{user_module}:noisy_count_buggy"


def test_a_wrong_signature_exits_2_naming_the_option_and_the_signature(capsys, user_module):
    status, _, err = _run(capsys, "audit", "--sampler", f"{user_module}:wrong_signature", "--x",
                          "0", "--x-prime", "1", "--epsilon", "1")
    assert status == 2 and "--sampler" in err and "f(data, size, rng)" in err


@pytest.mark.parametrize("spec, fragment", [("no_colon", "package.module:function"),
                                            ("no_such_module_xyz:f", "cannot import"),
                                            ("user_mechanisms:missing", "no attribute"),
                                            ("user_mechanisms:not_callable", "not callable")])
def test_bad_sampler_specs_exit_2(capsys, user_module, spec: str, fragment: str) -> None:
    status, _, err = _run(capsys, "audit", "--sampler", spec, "--x", "0", "--x-prime", "1",
                          "--epsilon", "1")
    assert status == 2 and "--sampler" in err and fragment in err


@pytest.mark.parametrize("argv, fragment", [
    (["--x", "0", "--x-prime", "1"], "--epsilon is required"),
    (["--x", "0", "--epsilon", "1"], "--x and --x-prime"),
    (["--x", "[1,", "--x-prime", "1", "--epsilon", "1"], "not JSON"),
    (["--x", "0", "--x-prime", "1", "--epsilon", "1", "--samples", "10"], "--samples 10"),
    (["--x", "0", "--x-prime", "1", "--epsilon", "1", "--max-samples", "1e6"], "--max-samples"),
    (["--x", "0", "--x-prime", "1", "--epsilon", "1", "--model", "gaussian"], "--sensitivity"),
    (["--x", "0", "--x-prime", "1", "--epsilon", "1", "--model", "binomial", "--sensitivity",
      "1"], "--trials"),
])
def test_bad_user_audits_exit_2(capsys, user_module, argv, fragment) -> None:
    status, _, err = _run(capsys, "audit", "--sampler", f"{user_module}:noisy_count", *argv)
    assert status == 2 and fragment in err, err


@pytest.mark.slow
def test_pairs_file_searches_for_the_worst_pair(capsys, user_module, tmp_path) -> None:
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text("\n".join([
        json.dumps({"x": [1, 1, 1, 1, 1, 1], "x_prime": [2, 1, 1, 1, 1, 1], "name": "one above"}),
        json.dumps([[1, 1, 1, 0, 0, 0], [0, 0, 0, 1, 1, 1]]),
    ]) + "\n")
    status, out, _ = _run(capsys, "audit", "--sampler", f"{user_module}:svt", "--pairs",
                          str(pairs), "--epsilon", "1", "--samples", "2e5", "--seed", "2",
                          "--json")
    result = json.loads(out)
    assert status == 1 and result["method"] == "search" and result["pair"]["name"] == "line 2"


def _pairs_file(tmp_path) -> str:
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text("\n".join([
        json.dumps({"x": [1, 1, 1, 1, 1, 1], "x_prime": [2, 1, 1, 1, 1, 1], "name": "one above"}),
        json.dumps({"x": [1, 1, 1, 0, 0, 0], "x_prime": [0, 0, 0, 1, 1, 1], "name": "half"}),
        json.dumps({"x": [0, 0, 0, 0, 0, 0], "x_prime": [1, 0, 0, 0, 0, 0], "name": "one"}),
    ]) + "\n")
    return str(pairs)


@pytest.mark.slow
def test_pairs_with_samples_auto_certify_the_chosen_pair_sequentially(capsys, user_module,
                                                                      tmp_path) -> None:
    status, out, _ = _run(capsys, "audit", "--sampler", f"{user_module}:svt", "--pairs",
                          _pairs_file(tmp_path), "--epsilon", "1", "--samples", "auto",
                          "--max-samples", "4e6", "--seed", "2", "--json")
    result = json.loads(out)
    assert status == 1 and result["method"] == "search" and result["pair"]["name"] == "half"
    assert result["report"]["mode"] == "sequential"
    assert result["report"]["samples"] <= 4 * 10 ** 6
    assert result["pilot_samples"] == 40_000  # max_samples // 100


@pytest.mark.slow
def test_pairs_with_samples_auto_pass_a_correct_mechanism(capsys, user_module, tmp_path) -> None:
    status, out, _ = _run(capsys, "audit", "--sampler", f"{user_module}:svt_with_cutoff_noise",
                          "--pairs", _pairs_file(tmp_path), "--epsilon", "1", "--samples",
                          "auto", "--max-samples", "1e6", "--seed", "5", "--json")
    result = json.loads(out)
    assert status == 0 and not result["violation"], result
    assert result["report"]["mode"] == "sequential"


def test_binomial_model_from_the_command_line(capsys, user_module) -> None:
    status, out, _ = _run(capsys, "audit", "--sampler", f"{user_module}:binomial_count", "--x",
                          "3", "--x-prime", "4", "--epsilon", "1", "--delta", "1e-5", "--model",
                          "binomial", "--trials", "62", "--sensitivity", "1", "--samples", "2e5",
                          "--seed", "4")
    assert status == 1 and "MODEL-BASED" in out and "Bin(62, p)" in out


def test_sequential_mode_from_the_command_line(capsys, user_module) -> None:
    status, out, _ = _run(capsys, "audit", "--sampler", f"{user_module}:noisy_count_buggy", "--x",
                          "0", "--x-prime", "1", "--epsilon", "1", "--samples", "auto",
                          "--max-samples", "1e6", "--seed", "3", "--json")
    result = json.loads(out)
    assert status == 1 and result["mode"] == "sequential" and result["samples"] <= 10 ** 6


def test_model_mode_is_labelled(capsys, user_module) -> None:
    status, out, _ = _run(capsys, "audit", "--sampler", f"{user_module}:gaussian_classical", "--x",
                          "0", "--x-prime", "1", "--epsilon", "10", "--delta", "1e-3", "--model",
                          "gaussian", "--sensitivity", "1", "--samples", "2e5", "--seed", "4")
    assert status == 1 and "MODEL-BASED" in out and "valid ONLY if the model holds" in out


def test_builtin_examples_and_user_samplers_do_not_mix(capsys, user_module) -> None:
    status, _, err = _run(capsys, "audit", "laplace", "--sampler", f"{user_module}:noisy_count")
    assert status == 2 and "not both" in err
    status, _, err = _run(capsys, "audit")
    assert status == 2 and "--sampler" in err


def test_the_true_epsilon_line_follows_the_delta_given(capsys) -> None:
    status, out, _ = _run(capsys, "audit", "laplace_half_scale", "--delta", "0.5", "--samples",
                          "1e5", "--seed", "1")
    assert status == 0 and "true epsilon of this pair at delta=0.5: 0.613706" in out
    status, out, _ = _run(capsys, "audit", "noisy_max_value", "--delta", "0.1", "--samples",
                          "1e5", "--seed", "1")
    assert "true epsilon" not in out  # unknown at that delta: no line rather than a wrong one


def test_audit_flags_a_buggy_example_with_a_readable_report(capsys) -> None:
    assert main(["audit", "laplace_half_scale", "--samples", "1e5", "--seed", "1"]) == 1
    text = capsys.readouterr().out
    assert text.startswith("laplace_half_scale: ") and "true epsilon of this pair" in text
    assert "VIOLATION" in text and "epsilon lower bound" in text


def test_audit_json_for_a_correct_example(capsys) -> None:
    out = _json(capsys, "audit", "randomized_response", "--samples", "20000", "--seed", "2")
    assert out["command"] == "audit" and out["mechanism"] == "randomized_response"
    assert out["violation"] is False and out["epsilon"] == 1.0 and out["delta"] == 0.0
    assert 0 < out["epsilon_lower_bound"] <= out["true_epsilon"] and out["samples"] == 20000
    assert {"event", "p_hat", "p_lower", "confidence", "method", "seconds"} <= set(out)


def test_audit_claim_override_and_family(capsys) -> None:
    out = _json(capsys, "audit", "laplace_half_scale", "--epsilon", "2.5", "--samples", "2e4",
                "--seed", "3", "--events", "threshold", "--confidence", "0.99")
    assert out["violation"] is False and out["family"] == "threshold"
    assert out["claimed_epsilon"] == 2.5 and out["confidence"] == 0.99


def test_audit_shows_a_progress_bar_on_long_audits(capsys, monkeypatch) -> None:
    """Long audits get a bar on a terminal only (tqdm's disable=None); --progress forces it."""
    from dpverify.cli import audit as cli

    monkeypatch.setattr(cli, "_PROGRESS_SAMPLES", 10)
    assert main(["audit", "laplace", "--samples", "3e5", "--seed", "4", "--progress"]) == 0
    captured = capsys.readouterr()
    assert "certifying" in captured.err and "no violation found" in captured.out
    assert main(["audit", "laplace", "--samples", "3e5", "--seed", "4"]) == 0
    assert "certifying" not in capsys.readouterr().err  # captured stderr is not a terminal
    monkeypatch.setattr(cli, "_PROGRESS_SAMPLES", 10**9)
    assert main(["audit", "laplace", "--samples", "3e5", "--seed", "4"]) == 0
    assert "certifying" not in capsys.readouterr().err
    assert main(["audit", "laplace", "--samples", "3e5", "--seed", "4", "--json"]) == 0
    assert "certifying" not in capsys.readouterr().err


@pytest.mark.parametrize("argv, fragment", [
    (["audit", "laplace", "--samples", "1e4", "--confidence", "1.5"], "--confidence 1.5"),
    (["audit", "laplace", "--samples", "1e4", "--epsilon", "-1"], "--epsilon -1.0"),
    (["audit", "laplace", "--samples", "1e4", "--delta", "1"], "--delta 1.0"),
])
def test_audit_bad_input_exits_2(capsys, argv: list[str], fragment: str) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2 and fragment in capsys.readouterr().err


def test_audit_unknown_mechanism_exits_2(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["audit", "no_such_mechanism"])
    assert exit_info.value.code == 2 and "invalid choice" in capsys.readouterr().err


def test_a_counting_audit_of_the_classical_gaussian_names_what_can_refute_it(capsys,
                                                                           user_module) -> None:
    """ε = 10, δ = 1e-3 (true 10.9): counting finds nothing and says why, in text and JSON."""
    argv = ("audit", "--sampler", "user_mechanisms:gaussian_classical", "--x", "0",
            "--x-prime", "1", "--epsilon", "10", "--delta", "1e-3", "--samples", "300000",
            "--seed", "1")
    status, out, _ = _run(capsys, *argv)
    assert status == 0 and "no violation found" in out
    assert "cannot refute a Gaussian mechanism" in out
    assert "audit_model(sampler, x, x_prime, family='gaussian'" in out
    assert "weakest_profile('gaussian', 10.0, 0.001" in out
    hint = _json(capsys, *argv)["next_step"]
    assert hint["blind_epsilon"] > 10.9 and hint["model_samples"] < 10_000
