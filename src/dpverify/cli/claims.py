"""``dpverify claims``: check the papers' claims; write one report per paper (Markdown, HTML or JSON) and an index."""

from __future__ import annotations

import argparse
from typing import Any

from dpverify.cli._core import rename_option
from dpverify.errors import DpverifyValueError

HELP = "check the five papers' claims; write a report per paper (md, html or json)"
DESCRIPTION = ("Run every registered claim of the named papers (default: all five) — symbolic "
               "(sympy), numeric (exact accountants), statistical (audits) and empirical "
               "(simulations) — and write <paper>.md (or .html, one self-contained file, or .json) into "
               "--out with an index: counts per kind and verdict, the verdict table, then each "
               "claim's quoted statement, check, numbers, derivation and figure. Kinds: paper claim, "
               "derived consequence, released code. Verdicts: holds, fails, holds under a stated "
               "correction, not checkable, not refuted, refuted (rates), finding (consequences and "
               "code). Figures need matplotlib; without it the reports say so.")
EXAMPLES = (
    "dpverify claims --out reports/",
    "dpverify claims garcelon tenenbaum --preset full --out reports/ --json",
    "dpverify claims --format html --out reports/",
)

#: = dpverify.claims.PAPERS (repeated so that ``configure`` imports nothing heavy).
PAPERS = ("garcelon", "hanna", "tenenbaum", "chowdhury", "dpdpe")


def configure(claims: argparse.ArgumentParser) -> None:
    claims.add_argument("papers", nargs="*", metavar="PAPER",
                        help="papers to check: " + ", ".join(PAPERS) + " (default: all)")
    claims.add_argument("--out", default=".", help="directory of the reports")
    claims.add_argument("--preset", choices=("quick", "full"), default="quick",
                        help="run-size preset: quick (seconds per paper) or full (longer simulations, "
                             "larger grids)")
    rename_option(claims, "--scale", "--preset")
    claims.add_argument("--format", choices=("md", "html", "json"), default="md",
                        help="report format: md (Markdown + PNG figures), html (one self-contained "
                             "file per paper) or json")
    claims.add_argument("--json", action="store_true", help="print one JSON object")
    claims.set_defaults(handler=_claims_command, describe=_describe,
                        context=lambda args: {"preset": args.preset, "out": args.out})


def _claims_command(args: argparse.Namespace) -> dict[str, Any]:
    from dpverify.claims import (  # deferred: keeps CLI start-up light
        check_paper,
        write_index,
        write_report,
    )

    unknown = [paper for paper in args.papers if paper not in PAPERS]
    if unknown:  # argparse's choices cannot be used with nargs="*" and no default on Python 3.11
        raise DpverifyValueError(f"PAPER={unknown[0]!r} must be one of {', '.join(PAPERS)}")
    papers = list(dict.fromkeys(args.papers or PAPERS))
    reports, files = [], []
    for paper in papers:
        report = check_paper(paper, preset=args.preset)
        files += [str(path) for path in write_report(report, args.out, report_format=args.format)]
        reports.append(report)
    if args.format != "json":
        files.append(str(write_index(reports, args.out, report_format=args.format)))
    return {"papers": [report.as_dict() for report in reports], "files": files}


def _describe(result: dict[str, Any]) -> str:
    lines = []
    for paper in result["papers"]:
        lines.append(f"{paper['paper']} ({paper['seconds']:.1f} s):")
        width = max(len(c["key"]) for c in paper["claims"])
        lines += [f"  {c['key']:<{width}}  {c['verdict']}" for c in paper["claims"]]
    return "\n".join(lines + [f"wrote {len(result['files'])} files to {result['out']}"])
