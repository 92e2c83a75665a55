"""Run a paper's claims and write its report: Markdown (verdict table first), figures, JSON data.

:func:`check_paper` runs every claim of one paper at a scale and returns a
:class:`PaperReport`; :func:`render_markdown` turns it into the report (claims
table with verdicts, then per claim its evidence, derivation and figure);
:func:`write_report` writes ``<paper>.md`` and one PNG per figure (when
matplotlib is installed — the report says so when it is not).
"""

from __future__ import annotations

import importlib
import math
import numbers
import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dpverify._deprecation import renamed_parameters
from dpverify._record_validation import check_record
from dpverify._validation import (
    check_choice,
    check_instance,
    check_text,
    shown,
    value_error,
)
from dpverify.claims._types import SCALES, VERDICTS, Claim, ClaimResult
from dpverify.errors import DpverifyTypeError

__all__ = ["PAPERS", "PAPER_TITLES", "claims_of", "check_paper", "PaperReport", "render_markdown",
           "write_report", "plain"]

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


@dataclass(frozen=True)
class PaperReport:
    """The results of one paper's claims at one scale."""

    paper: str
    scale: str
    results: tuple[ClaimResult, ...]
    seconds: float

    def __post_init__(self) -> None:
        check_record(self)

    def verdicts(self) -> dict[str, str]:
        """``{claim key: verdict}``."""
        return {r.claim.key: r.evidence.verdict for r in self.results}

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready data: the paper, the scale, the seconds and every claim's result."""
        return {"paper": self.paper, "title": PAPER_TITLES[self.paper], "scale": self.scale,
                "seconds": self.seconds, "claims": [plain(r.as_dict()) for r in self.results]}


@renamed_parameters(keys="claim_keys")
def check_paper(paper: str, *, scale: str = "quick",
                claim_keys: Sequence[str] | None = None) -> PaperReport:
    """Run the claims of ``paper`` (all, or those in ``claim_keys``) at ``scale`` ("quick" or "full").

    Checks use fixed seeds: the same scale gives the same verdicts and numbers.
    """
    scale = check_choice(scale, "scale", SCALES)
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
        evidence = claim.check(scale)
        results.append(ClaimResult(claim, evidence, time.perf_counter() - begin))
    return PaperReport(paper, scale, tuple(results), time.perf_counter() - start)


def plain(value: Any) -> Any:
    """``value`` with numpy / mpmath numbers as floats or ints and tuples as lists (for JSON)."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (bool, str)) or value is None:
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    try:
        return float(value)
    except (TypeError, ValueError):
        return str(value)


def _format(value: Any) -> str:
    value = plain(value)
    if isinstance(value, bool) or value is None:
        return str(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return f"{value:.6g}" if math.isfinite(value) else str(value)
    if isinstance(value, list):
        return "(" + ", ".join(_format(v) for v in value) + ")"
    return str(value).replace("|", "\\|")


def _table(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    columns = list(dict.fromkeys(k for row in rows for k in row))
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(_format(row.get(c, "")) for c in columns) + " |" for row in rows]
    return lines


def _numbers(numbers_: Mapping[str, Any]) -> list[str]:
    lines = []
    for key, value in numbers_.items():
        if isinstance(value, (list, tuple)) and value and all(isinstance(v, Mapping) for v in value):
            lines += ["", f"*{key}*:", ""] + _table(value) + [""]
        elif isinstance(value, Mapping):
            lines.append(f"- {key}: " + ", ".join(f"{k} = {_format(v)}" for k, v in value.items()))
        else:
            lines.append(f"- {key}: {_format(value)}")
    return lines


def render_markdown(report: PaperReport, *, figures: Mapping[str, str] | None = None,
                    figure_note: str | None = None) -> str:
    """The report as Markdown: title, verdict table, then evidence per claim.

    ``figures`` maps claim keys to image file names (relative to the report);
    ``figure_note`` (e.g. "matplotlib is not installed") is printed where a
    claim has a figure that was not drawn.
    """
    check_instance(report, "report", PaperReport, "a PaperReport (from check_paper)")
    if figures is not None and not isinstance(figures, Mapping):
        raise DpverifyTypeError(f"figures={shown(figures)} must be None or a mapping claim key "
                                f"-> image file name")
    if figure_note is not None:
        check_text(figure_note, "figure_note")
    figures = dict(figures or {})
    counts = {v: sum(r.evidence.verdict == v for r in report.results) for v in VERDICTS}
    lines = [f"# Claims of {PAPER_TITLES[report.paper]}", "",
             f"Scale: **{report.scale}**; {len(report.results)} claims checked in "
             f"{report.seconds:.1f} s; " + ", ".join(f"{n} {v}" for v, n in counts.items() if n) + ".",
             "", "| claim | source | statement | check | verdict |", "|---|---|---|---|---|"]
    for r in report.results:
        c = r.claim
        lines.append(f"| [{c.key}](#{c.key}) | {c.source} | {_format(c.statement)} | {c.kind} | "
                     f"**{r.evidence.verdict}** |")
    lines += ["", "Verdicts: *holds* (as printed), *fails* (as printed, no correction offered), "
              "*holds after correction* (the printed claim fails; the stated correction holds), "
              "*not checkable* (the reason says why). Statistical checks use fixed seeds: audits hold "
              "with confidence 0.999; a regret bound is refuted only when the simulated mean exceeds it "
              "by more than 4 standard errors (false failure <= 3.2e-5 per horizon), an order bound's "
              "rate only when its implied constant more than doubles by that margin.", ""]
    for r in report.results:
        c, e = r.claim, r.evidence
        lines += [f"## {c.key}", "", f"**{c.source}** — {c.statement}", "",
                  f"Check: {c.kind} ({r.seconds:.2f} s). Verdict: **{e.verdict}**.", "", e.reason, ""]
        if e.numbers:
            lines += ["Numbers:", ""] + _numbers(e.numbers) + [""]
        if e.derivation:
            lines += ["Derivation:", "", "```", e.derivation, "```", ""]
        if e.figure is not None:
            if c.key in figures:
                lines += [f"![{e.figure.get('title', c.key)}]({figures[c.key]})", ""]
            elif figure_note:
                lines += [f"*Figure not drawn: {figure_note}; the data are in the numbers above and "
                          "in the JSON output.*", ""]
    return "\n".join(lines)


def _draw(figure: Mapping[str, Any], path: Path) -> None:
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
    fig.savefig(path, dpi=110)
    plt.close(fig)


def write_report(report: PaperReport, out_dir: str | Path) -> list[Path]:
    """Write ``<paper>.md`` and its figures (``<paper>-<claim>.png``) into ``out_dir``; return the paths.

    Without matplotlib the report is written without figures and says so.
    """
    check_instance(report, "report", PaperReport, "a PaperReport (from check_paper)")
    if not isinstance(out_dir, (str, os.PathLike)):
        raise DpverifyTypeError(f"out_dir={shown(out_dir)} must be a directory path")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    try:
        import matplotlib  # deferred: optional (dpverify[plots])  # noqa: F401
        note = None
    except ImportError:
        note = "matplotlib is not installed (pip install 'dpverify[plots]')"
    written, figures = [], {}
    if note is None:
        for r in report.results:
            if r.evidence.figure is not None:
                name = f"{report.paper}-{r.claim.key}.png"
                _draw(r.evidence.figure, out / name)
                figures[r.claim.key] = name
                written.append(out / name)
    path = out / f"{report.paper}.md"
    path.write_text(render_markdown(report, figures=figures, figure_note=note) + "\n", encoding="utf-8")
    return [path] + written
