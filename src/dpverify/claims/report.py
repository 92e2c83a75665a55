"""Run a paper's claims and write its report: Markdown or self-contained HTML, figures, JSON data.

:func:`check_paper` runs every claim of one paper at a preset and returns a
:class:`PaperReport`; :func:`render_markdown` turns it into the report (counts
per kind and verdict, the verdict table, then per claim its quoted statement,
evidence, derivation and figure); :func:`write_report` writes it as Markdown
(``<paper>.md`` and one PNG per figure, when matplotlib is installed — the
report says so when it is not), one self-contained HTML file or JSON;
:func:`write_index` writes the index of several papers' reports.
"""

from __future__ import annotations

import base64
import importlib
import io
import json
import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dpverify._deprecation import renamed_parameters, renamed_property
from dpverify._record_validation import check_record
from dpverify._validation import (
    check_choice,
    check_instance,
    check_text,
    shown,
    value_error,
)
from dpverify.claims._html import html_index, html_page
from dpverify.claims._text import formatted, markdown_table, plain
from dpverify.claims._types import (
    CLAIM_KINDS,
    RELEASED_CODE,
    SCALES,
    VERDICTS,
    Claim,
    ClaimResult,
    Evidence,
)
from dpverify.errors import DpverifyTypeError

__all__ = ["PAPERS", "PAPER_TITLES", "REPORT_FORMATS", "VERDICT_RULES", "claims_of", "check_paper",
           "PaperReport", "render_markdown", "write_report", "write_index", "plain"]

#: The five papers, by the short names the CLI takes.
PAPERS = ("garcelon", "hanna", "tenenbaum", "chowdhury", "dpdpe")
PAPER_TITLES = {
    "garcelon": "Garcelon et al. 2022, Privacy Amplification via Shuffling for Linear Contextual Bandits",
    "hanna": "Hanna et al. 2022, Differentially Private Stochastic Linear Bandits: (Almost) for Free",
    "tenenbaum": "Tenenbaum et al. 2021, Differentially Private Multi-Armed Bandits in the Shuffle Model",
    "chowdhury": "Chowdhury & Zhou 2023, Distributed Differential Privacy in Multi-Armed Bandits",
    "dpdpe": "Li, Zhou & Ji 2022, Global Reward Maximization with Partial Feedback via Differentially "
             "Private Distributed Linear Bandits (DP-DPE)",
}


def claims_of(paper: str) -> tuple[Claim, ...]:
    """The registered claims of ``paper`` (one of :data:`PAPERS`), imported on demand.

    >>> [claim.key for claim in claims_of("tenenbaum")][:2]
    ['cor32-batch', 'msum']
    """
    paper = check_choice(paper, "paper", PAPERS)
    return importlib.import_module(f"dpverify.claims.{paper}").CLAIMS


@renamed_parameters(scale="preset")
@dataclass(frozen=True)
class PaperReport:
    """The results of one paper's claims at one run-size preset."""

    paper: str
    preset: str
    results: tuple[ClaimResult, ...]
    seconds: float

    scale = renamed_property("scale", "preset")

    def __post_init__(self) -> None:
        check_record(self)

    def verdicts(self) -> dict[str, str]:
        """``{claim key: verdict}``."""
        return {r.claim.key: r.evidence.verdict for r in self.results}

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready data: the paper, the preset, the seconds and every claim's result."""
        return {"paper": self.paper, "title": PAPER_TITLES[self.paper], "preset": self.preset,
                "seconds": self.seconds, "claims": [plain(r.as_dict()) for r in self.results]}


@renamed_parameters(keys="claim_keys", scale="preset")
def check_paper(paper: str, *, preset: str = "quick",
                claim_keys: Sequence[str] | None = None) -> PaperReport:
    """Run the claims of ``paper`` (all, or those in ``claim_keys``) at ``preset`` ("quick" or "full").

    Checks use fixed seeds: the same preset gives the same verdicts and numbers.
    """
    preset = check_choice(preset, "preset", SCALES)
    claims = claims_of(paper)
    keys = claim_keys
    if keys is not None:
        if isinstance(keys, (str, bytes)) or not isinstance(keys, (list, tuple, set, frozenset)) \
                or not all(isinstance(k, str) for k in keys):
            raise DpverifyTypeError(f"claim_keys={shown(keys)} must be None or a sequence of "
                                    f"claim keys (strings)")
        unknown = set(keys) - {c.key for c in claims}
        if unknown:
            raise value_error("claim_keys", sorted(unknown),
                              f"claim keys of {paper}: {', '.join(c.key for c in claims)}")
        claims = tuple(c for c in claims if c.key in set(keys))
    start = time.perf_counter()
    results = []
    for claim in claims:
        begin = time.perf_counter()
        evidence = claim.check(preset)
        results.append(ClaimResult(claim, evidence, time.perf_counter() - begin))
    return PaperReport(paper, preset, tuple(results), time.perf_counter() - start)


def _numbers(numbers_: Mapping[str, Any]) -> list[str]:
    lines = []
    for key, value in numbers_.items():
        if isinstance(value, (list, tuple)) and value and all(isinstance(v, Mapping) for v in value):
            lines += ["", f"*{key}*:", ""] + markdown_table(value) + [""]
        elif isinstance(value, Mapping):
            lines.append(f"- {key}: " + ", ".join(f"{k} = {formatted(v)}" for k, v in value.items()))
        else:
            lines.append(f"- {key}: {formatted(value)}")
    return lines


#: How the verdicts are decided (printed under every report's summary).
VERDICT_RULES = (
    "Kinds: a *paper claim* is a theorem, lemma, equation or figure as printed; a *derived "
    "consequence* is something this toolkit derives from the paper's statements (reported as a "
    "*finding*, never as the paper failing); *released code* is the authors' public code. "
    "Verdicts of paper claims: *holds* (as printed), *fails* (as printed), *holds under a stated "
    "correction* (the correction is written out with the line that supports it), *not checkable* "
    "(the reason says why); a rate or order claim, which no finite run can prove, is *not refuted* "
    "or *refuted*. Statistical checks use fixed seeds: audits hold with confidence 0.999; an "
    "explicit regret bound is refuted only when the simulated mean exceeds it by more than 4 "
    "standard errors (false refutation <= 3.2e-5 per horizon); an order bound's rate only when its "
    "implied constant grows more than twofold beyond that margin (the power: a rate off by a "
    "factor that grows less than twofold over the horizons shown is not detected). A check marked "
    "*outside the hypotheses* left the claim's stated range; *authoritative* names the result that "
    "decides a claim when it is not the quick check shown.")


def _counts(results: Sequence[ClaimResult]) -> list[str]:
    lines = ["| kind | " + " | ".join(VERDICTS) + " |", "|---|" + "---|" * len(VERDICTS)]
    for kind in CLAIM_KINDS:
        row = [sum(r.claim.kind == kind and r.evidence.verdict == v for r in results) for v in VERDICTS]
        if any(row):
            lines.append(f"| {kind} | " + " | ".join(str(n) if n else "" for n in row) + " |")
    return lines


def _scope(evidence: Evidence) -> str:
    return "inside the claim's hypotheses" if evidence.inside_hypotheses else \
        "**outside the claim's hypotheses** (see the reason)"


def render_markdown(report: PaperReport, *, figures: Mapping[str, str] | None = None,
                    figure_note: str | None = None) -> str:
    """The report as Markdown: title, counts per kind and verdict, verdict table, then each claim.

    Each claim: its location and quoted statement, kind, how it was checked
    (and whether inside its hypotheses), the verdict, the reason, the numbers,
    the derivation and the figure. ``figures`` maps claim keys to image
    references (file names relative to the report, or ``data:`` URIs);
    ``figure_note`` (e.g. "matplotlib is not installed") is printed where a
    claim has a figure that was not drawn. Timings are left to the JSON
    output, so the same preset renders the same text.
    """
    check_instance(report, "report", PaperReport, "a PaperReport (from check_paper)")
    if figures is not None and not isinstance(figures, Mapping):
        raise DpverifyTypeError(f"figures={shown(figures)} must be None or a mapping claim key "
                                f"-> image file name")
    if figure_note is not None:
        check_text(figure_note, "figure_note")
    figures = dict(figures or {})
    lines = [f"# Claims of {PAPER_TITLES[report.paper]}", "",
             f"Preset: **{report.preset}**; {len(report.results)} claims.", ""] + _counts(report.results)
    lines += ["", "| claim | kind | source | statement | check | verdict |", "|---|---|---|---|---|---|"]
    for r in report.results:
        c = r.claim
        note = " (this preset; the authoritative result is named below)" if r.evidence.authority else ""
        lines.append(f"| [{c.key}](#{c.key}) | {c.kind} | {formatted(c.source)} | {formatted(c.statement)} "
                     f"| {c.technique} | **{r.evidence.verdict}**{note} |")
    lines += ["", VERDICT_RULES, ""]
    for r in report.results:
        c, e = r.claim, r.evidence
        lines += [f"## {c.key}", "", f"**{c.source}** ({c.kind}) — {c.statement}", ""]
        if c.quote and c.kind == RELEASED_CODE:
            lines += ["The code:", "", "```python", c.quote, "```", ""]
        elif c.quote:
            lines += ["The paper:", "", "> " + c.quote.replace("\n", "\n> "), ""]
        lines += [f"Check: {c.technique}, {_scope(e)}. Verdict: **{e.verdict}**.", "", e.reason, ""]
        if e.authority:
            lines += [f"*Authoritative*: {e.authority}", ""]
        if e.numbers:
            lines += ["Numbers:", ""] + _numbers(e.numbers) + [""]
        if e.derivation:
            lines += ["Derivation:", "", "```text", e.derivation, "```", ""]
        if e.figure is not None:
            if c.key in figures:
                lines += [f"![{e.figure.get('title', c.key)}]({figures[c.key]})", ""]
            elif figure_note:
                lines += [f"*Figure not drawn: {figure_note}; the data are in the numbers above and "
                          "in the JSON output.*", ""]
    return "\n".join(lines)


def _draw(figure: Mapping[str, Any], path: Path | io.BytesIO) -> None:
    import matplotlib  # deferred: optional (dpverify[plots])

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # deferred: optional (dpverify[plots])

    fig, ax = plt.subplots(figsize=(5.5, 3.8))
    if figure.get("kind") == "bar":
        ax.bar(list(figure["labels"]), list(figure["values"]))
        ax.set_ylabel("final regret")
        ax.tick_params(axis="x", labelrotation=20)
    else:
        errors = figure.get("errors", {})
        for label, ys in figure["series"].items():
            if label in errors:
                ax.errorbar(figure["x"], ys, yerr=errors[label], marker="o", label=label, capsize=3)
            else:
                ax.plot(figure["x"], ys, marker="s", linestyle="--", label=label)
        if figure.get("log"):
            ax.set_xscale("log")
            ax.set_yscale("log")
        ax.set_xlabel(figure.get("xlabel", ""))
        ax.set_ylabel(figure.get("ylabel", ""))
        ax.legend()
    ax.set_title(figure.get("title", ""), fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110, format="png", metadata={"Software": None})
    plt.close(fig)


#: Report formats of :func:`write_report`.
REPORT_FORMATS = ("md", "html", "json")


def _figure_bytes(figure: Mapping[str, Any]) -> bytes:
    buffer = io.BytesIO()
    _draw(figure, buffer)
    return buffer.getvalue()


def _matplotlib_note() -> str | None:
    try:
        import matplotlib  # deferred: optional (dpverify[plots])  # noqa: F401
    except ImportError:
        return "matplotlib is not installed (pip install 'dpverify[plots]')"
    return None


def _out(out_dir: str | Path) -> Path:
    if not isinstance(out_dir, (str, os.PathLike)):
        raise DpverifyTypeError(f"out_dir={shown(out_dir)} must be a directory path")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    return out


def write_report(report: PaperReport, out_dir: str | Path, *, report_format: str = "md") -> list[Path]:
    """Write the report of one paper into ``out_dir``; return the paths written.

    ``report_format``: ``"md"`` writes ``<paper>.md`` and one ``<paper>-<claim>.png``
    per figure; ``"html"`` one self-contained ``<paper>.html`` (figures
    embedded as ``data:`` URIs); ``"json"`` ``<paper>.json`` (every number and
    figure series, the seconds each check took). Without matplotlib the
    Markdown and HTML reports are written without figures and say so.
    """
    check_instance(report, "report", PaperReport, "a PaperReport (from check_paper)")
    report_format = check_choice(report_format, "report_format", REPORT_FORMATS)
    out = _out(out_dir)
    if report_format == "json":
        path = out / f"{report.paper}.json"
        path.write_text(json.dumps(report.as_dict(), indent=1, ensure_ascii=False) + "\n",
                        encoding="utf-8")
        return [path]
    note = _matplotlib_note()
    drawn = {} if note is not None else {r.claim.key: _figure_bytes(r.evidence.figure)
                                         for r in report.results if r.evidence.figure is not None}
    if report_format == "html":
        uris = {key: "data:image/png;base64," + base64.b64encode(data).decode("ascii")
                for key, data in drawn.items()}
        path = out / f"{report.paper}.html"
        path.write_text(html_page(PAPER_TITLES[report.paper], report.preset, report.results,
                                  VERDICT_RULES + (f" Figures not drawn: {note}." if note else ""),
                                  uris) + "\n", encoding="utf-8")
        return [path]
    written, figures = [], {}
    for key, data in drawn.items():
        name = f"{report.paper}-{key}.png"
        (out / name).write_bytes(data)
        figures[key] = name
        written.append(out / name)
    path = out / f"{report.paper}.md"
    path.write_text(render_markdown(report, figures=figures, figure_note=note) + "\n", encoding="utf-8")
    return [path] + written


def write_index(paper_reports: Sequence[PaperReport], out_dir: str | Path, *,
                report_format: str = "md") -> Path:
    """Write the index of the papers' reports (``index.md`` or ``index.html``): counts per kind and verdict.

    The reports themselves are written by :func:`write_report` (same ``report_format``).
    """
    report_format = check_choice(report_format, "report_format", ("md", "html"))
    reports = paper_reports
    if not isinstance(reports, (list, tuple)) or not all(isinstance(r, PaperReport) for r in reports):
        raise DpverifyTypeError(f"paper_reports={shown(reports)} must be a list of PaperReport")
    out = _out(out_dir)
    if report_format == "html":
        text = html_index(reports[0].preset if reports else "quick",
                          [(f"{r.paper}.html", PAPER_TITLES[r.paper], r.results) for r in reports],
                          VERDICT_RULES)
    else:
        lines = ["# The papers' claims", "",
                 "Each of the five papers' claims, checked by `dpverify claims` (regenerate this "
                 "folder with `python -m dpverify.cli claims --out docs/claims`).", "", VERDICT_RULES, ""]
        for r in reports:
            lines += [f"## [{PAPER_TITLES[r.paper]}]({r.paper}.md)", "",
                      f"Preset: {r.preset}; {len(r.results)} claims.", ""] + _counts(r.results) + [""]
        text = "\n".join(lines)
    path = out / f"index.{report_format}"
    path.write_text(text.rstrip() + "\n", encoding="utf-8")
    return path
