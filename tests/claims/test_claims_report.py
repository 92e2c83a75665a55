"""``dpverify claims`` for all five papers at quick scale, and the known verdicts it must reach.

One run of the CLI (module fixture) writes the five reports and prints the
JSON the assertions read. The known cases (issue 19): hanna Alg. 1/2 are 2ε-DP
as printed; garcelon's Thm 5 needs 2 − 2p, not the printed 1 − 2p, and SBLB
with its constants releases nothing below T ≈ 10^22; Prop. 13 claims 69 where
the exact shuffled RR gives at most 0.2; dpdpe's classical Gaussian at ε = 10
has exact δ ≈ 0.79; tenenbaum's m is ⌈σ²⌉, not ⌈σ⌉; chowdhury's public code
inverts the Pólya scale and shares one Laplace draw across arms. Every
statistical check inside uses fixed seeds (audits at confidence 0.999).
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from dpverify.claims import CORRECTED, FAILS, HOLDS, NOT_CHECKABLE, check_paper, write_report
from dpverify.cli import main


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("claims")
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        status = main(["claims", "--out", str(out), "--json"])
    result = json.loads(buffer.getvalue())
    claims = {(c["paper"], c["key"]): c for paper in result["papers"] for c in paper["claims"]}
    return status, out, result, claims


@pytest.mark.slow
def test_all_five_papers_report(run) -> None:
    status, out, result, _ = run
    assert status == 0
    assert [p["paper"] for p in result["papers"]] == ["garcelon", "hanna", "tenenbaum", "chowdhury", "dpdpe"]
    for paper in result["papers"]:
        text = (out / f"{paper['paper']}.md").read_text(encoding="utf-8")
        table, first_section = text.index("| claim | source |"), text.index("\n## ")
        assert table < first_section  # the verdict table comes first
        for claim in paper["claims"]:
            assert f"| **{claim['verdict']}** |" in text and f"## {claim['key']}" in text
    assert any(name.endswith(".png") for name in result["files"])


def test_hanna_laplace_algorithms_are_two_epsilon_dp_as_printed(run) -> None:
    claims = run[3]
    for key in ("alg1-dp", "alg2-ldp"):
        claim = claims[("hanna", key)]
        assert claim["verdict"] == CORRECTED
        assert claim["numbers"]["true_epsilon_paper_mode"] == 2.0
        assert claim["numbers"]["audit_lower_bound_paper"] > 1.0  # the audit certifies the violation
        assert claim["numbers"]["audit_lower_bound_sound"] <= 1.0


def test_garcelon_thm5_two_minus_two_p_and_no_release_below_1e22(run) -> None:
    claims = run[3]
    condition = claims[("garcelon", "thm5-condition")]
    assert condition["verdict"] == CORRECTED
    assert "derived: -2*p + 2 + 2*sqrt(2)*sqrt(log2)*sqrt(p)/sqrt(l)" in condition["derivation"]
    assert "printed: -2*p + 1 + 2*sqrt(2)*sqrt(log2)/sqrt(l)" in condition["derivation"]
    assert condition["numbers"]["per_batch_epsilon_at_printed_l"] > condition["numbers"]["needed"]
    releases = claims[("garcelon", "sblb-releases")]
    assert releases["verdict"] == FAILS
    assert releases["numbers"]["first_release_log10_T_derived"] == 22.0


def test_garcelon_prop13_against_the_exact_shuffled_rr(run) -> None:
    claim = run[3][("garcelon", "prop13-per-batch")]
    row = claim["numbers"]["rows"][0]
    assert (row["batch_length"], row["randomization_probability"], row["dimension"]) == (200, 0.5, 1)
    assert row["prop13"] == pytest.approx(69.05, abs=0.01)
    assert row["exact_upper"] < 0.21 and claim["verdict"] == HOLDS  # valid, ~340x loose


def test_dpdpe_classical_gaussian_at_epsilon_ten(run) -> None:
    claim = run[3][("dpdpe", "thm1-gaussian")]
    assert claim["verdict"] == FAILS
    paper = claim["numbers"]["rows"][-1]
    assert (paper["epsilon"], paper["claimed_delta"]) == (10.0, 0.25)
    assert paper["exact_delta"] == pytest.approx(0.79, abs=0.01)


def test_tenenbaum_batch_size_is_sigma_squared(run) -> None:
    claim = run[3][("tenenbaum", "cor32-batch")]
    assert claim["verdict"] == CORRECTED
    numbers = claim["numbers"]
    assert numbers["m_derived"] == 20 and numbers["m_printed"] == 5  # σ = √80/2: ⌈σ²⌉ = 20, ⌈σ⌉ = 5


def test_chowdhury_public_code_fails(run) -> None:
    claims = run[3]
    polya = claims[("chowdhury", "code-polya")]
    assert polya["verdict"] == FAILS
    assert polya["numbers"]["epsilon_delivered"] == pytest.approx(8.565, abs=1e-3)
    assert polya["numbers"]["variance_ratio"] == pytest.approx(424, rel=0.01)
    shared = claims[("chowdhury", "code-dp-se")]
    assert shared["verdict"] == FAILS and shared["numbers"]["audit_epsilon_lower_bound"] > 3.0


def test_every_verdict_has_a_reason_and_not_checkable_says_why(run) -> None:
    for claim in run[3].values():
        assert claim["reason"]
        if claim["verdict"] == NOT_CHECKABLE:
            assert "not" in claim["reason"]


def test_report_without_matplotlib_says_so(tmp_path, monkeypatch) -> None:
    import builtins

    real_import = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name.split(".")[0] == "matplotlib":
            raise ImportError("no matplotlib")
        return real_import(name, *args, **kwargs)

    report = check_paper("garcelon", claim_keys=["cor8-regret"])
    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    paths = write_report(report, tmp_path)
    assert paths == [tmp_path / "garcelon.md"]
    assert "matplotlib is not installed" in paths[0].read_text(encoding="utf-8")


def test_unknown_paper_or_key_is_refused(tmp_path, capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["claims", "nobody", "--out", str(tmp_path)])
    assert exit_info.value.code == 2
    with pytest.raises(ValueError, match="keys"):
        check_paper("garcelon", claim_keys=["no-such-claim"])
    with pytest.raises(ValueError, match="paper"):
        check_paper("nobody")
    with pytest.raises(ValueError, match="scale"):
        check_paper("garcelon", scale="huge")


def test_markdown_has_the_derivation_and_numbers(run) -> None:
    text = Path(run[1], "tenenbaum.md").read_text(encoding="utf-8")
    assert "Derivation:" in text and "ceiling(sigma**2)" in text


@pytest.mark.slow
def test_mslr_claim_runs_on_a_local_copy(tmp_path, monkeypatch) -> None:
    """With DPVERIFY_MSLR set, fig1-mslr builds the K-means instance and simulates (tiny file here)."""
    import numpy as np

    rng = np.random.default_rng(4)
    lines = []
    for row in range(400):
        label = int(rng.integers(0, 5))
        values = rng.normal(size=3) + label
        lines.append(f"{label} qid:{row // 10} " + " ".join(f"{i + 1}:{v:.4f}" for i, v in enumerate(values)))
    path = tmp_path / "train.txt"
    path.write_text("\n".join(lines) + "\n", encoding="ascii")
    import dpverify.claims.chowdhury as chowdhury
    from dpverify.bandits import mslr

    monkeypatch.setenv("DPVERIFY_MSLR", str(path))
    monkeypatch.setattr(chowdhury, "mslr_instance",
                        lambda p, **options: mslr.mslr_instance(p, **{**options, "features": 3}))
    evidence = next(c for c in chowdhury.CLAIMS if c.key == "fig1-mslr").check("quick")
    assert evidence.verdict in (HOLDS, FAILS) and evidence.numbers["runs"] == 3
