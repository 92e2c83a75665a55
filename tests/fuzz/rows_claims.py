"""Fuzz rows for :mod:`dpverify.claims` (the papers' claims and their checks)."""

from __future__ import annotations

import dataclasses

import dpverify.claims as MODULE
from fuzz._harness import Row

_REPORT = MODULE.check_paper("hanna", claim_keys=["alg3-sdp"])
_RESULT = _REPORT.results[0]


def _fields(value):
    return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}


_TEXT = {"paper": "text", "key": "text", "source": "text", "statement": "text", "kind": "text",
         "reason": "text", "verdict": "text", "derivation": "any", "figure": "any",
         "numbers": "any"}

ROWS = {
    "Claim": Row(MODULE.Claim, lambda: _fields(_RESULT.claim), kinds=_TEXT),
    "ClaimResult": Row(MODULE.ClaimResult, lambda: _fields(_RESULT),
                       kinds={"seconds": "positive"}),
    "Evidence": Row(MODULE.Evidence, lambda: _fields(_RESULT.evidence), kinds=_TEXT),
    "PaperReport": Row(MODULE.PaperReport, lambda: _fields(_REPORT),
                       kinds={**_TEXT, "preset": "text", "seconds": "positive"}),
    "check_paper": Row(MODULE.check_paper, {"paper": "hanna", "preset": "quick",
                                            "keys": ["alg3-sdp"]},
                       avoid={"keys": (None,)}),  # None checks every claim: minutes of work
    "claims_of": Row(MODULE.claims_of, {"paper": "hanna"}),
    "render_markdown": Row(MODULE.render_markdown, {"report": _REPORT},
                           kinds={"figures": "any", "figure_note": "any"}),
    "write_report": Row(MODULE.write_report, {"report": _REPORT, "out_dir": "reports"},
                        kinds={"out_dir": "text"}),
    "write_index": Row(MODULE.write_index, {"paper_reports": [_REPORT], "out_dir": "reports"},
                       kinds={"out_dir": "text"}),
}
NOT_FUZZED = {
    "HOLDS": "a verdict string constant",
    "FAILS": "a verdict string constant",
    "CORRECTED": "a verdict string constant",
    "NOT_CHECKABLE": "a verdict string constant",
    "NOT_REFUTED": "a verdict string constant",
    "REFUTED": "a verdict string constant",
    "FINDING": "a verdict string constant",
    "PAPER_CLAIM": "a claim-kind string constant",
    "CONSEQUENCE": "a claim-kind string constant",
    "RELEASED_CODE": "a claim-kind string constant",
    "CLAIM_KINDS": "a tuple constant",
    "VERDICTS_BY_KIND": "a dict constant",
    "REPORT_FORMATS": "a tuple constant",
    "VERDICTS": "a tuple constant",
    "CHECK_KINDS": "a tuple constant",
    "SCALES": "a tuple constant",
    "PAPERS": "a tuple constant",
    "PAPER_TITLES": "a dict constant",
}
