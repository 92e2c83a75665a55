"""One paper's claims as a self-contained HTML page (figures embedded), and the index of the pages.

The same content as the Markdown report (:func:`dpverify.claims.report.render_markdown`):
a summary table of counts per kind and verdict, the verdict table, then per
claim its location, the paper's words, the check, the verdict, the reason,
the numbers, the derivation and the figure (a ``data:`` URI, so one file
holds everything).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from dpverify.claims._text import formatted
from dpverify.claims._types import CLAIM_KINDS, RELEASED_CODE, VERDICTS, ClaimResult

__all__ = ["html_page", "html_index", "counts_table"]

_STYLE = """
body{font-family:system-ui,sans-serif;max-width:62rem;margin:2rem auto;padding:0 1rem;line-height:1.45;color:#222}
table{border-collapse:collapse;margin:.6rem 0;font-size:.92rem}td,th{border:1px solid #ccc;padding:.25rem .5rem;vertical-align:top}
th{background:#f3f3f3}blockquote{border-left:4px solid #bbb;margin:.5rem 0;padding:.2rem .8rem;color:#444;background:#fafafa}
pre{background:#f6f6f6;padding:.6rem;overflow-x:auto;font-size:.85rem}.v{font-weight:600;padding:0 .3rem;border-radius:3px}
.holds,.not-refuted{background:#dff3df}.fails,.refuted{background:#f8d8d8}.holds-under-a-stated-correction{background:#fdf0c8}
.not-checkable{background:#e6e6e6}.finding{background:#dde8f8}img{max-width:100%}.scope{color:#555;font-size:.9rem}
"""


def _verdict(verdict: str) -> str:
    return f'<span class="v {verdict.replace(" ", "-")}">{escape(verdict)}</span>'


def _value(value: Any) -> str:
    return escape(formatted(value, markdown=False))


def _rows(rows: Sequence[Mapping[str, Any]]) -> str:
    columns = list(dict.fromkeys(k for row in rows for k in row))
    head = "".join(f"<th>{escape(str(c))}</th>" for c in columns)
    body = "".join("<tr>" + "".join(f"<td>{_value(row.get(c, ''))}</td>" for c in columns) + "</tr>"
                   for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def _numbers(numbers: Mapping[str, Any]) -> str:
    items, tables = [], []
    for key, value in numbers.items():
        if isinstance(value, (list, tuple)) and value and all(isinstance(v, Mapping) for v in value):
            tables.append(f"<p><em>{escape(key)}</em>:</p>" + _rows(value))
        elif isinstance(value, Mapping):
            items.append(f"<li>{escape(key)}: " + ", ".join(f"{escape(str(k))} = {_value(v)}"
                                                             for k, v in value.items()) + "</li>")
        else:
            items.append(f"<li>{escape(key)}: {_value(value)}</li>")
    return (f"<ul>{''.join(items)}</ul>" if items else "") + "".join(tables)


def counts_table(results: Sequence[ClaimResult]) -> str:
    head = "<tr><th>kind</th>" + "".join(f"<th>{_verdict(v)}</th>" for v in VERDICTS) + "</tr>"
    body = ""
    for kind in CLAIM_KINDS:
        row = [sum(r.claim.kind == kind and r.evidence.verdict == v for r in results) for v in VERDICTS]
        if any(row):
            body += f"<tr><td>{kind}</td>" + "".join(f"<td>{n or ''}</td>" for n in row) + "</tr>"
    return f"<table>{head}{body}</table>"


def html_page(title: str, preset: str, results: Sequence[ClaimResult], rules: str,
              figures: Mapping[str, str]) -> str:
    """The page: ``figures`` maps claim keys to image URIs (``data:`` URIs for one self-contained file)."""
    parts = [f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>Claims of "
             f"{escape(title)}</title><style>{_STYLE}</style></head><body>",
             f"<h1>Claims of {escape(title)}</h1><p>Preset: <b>{escape(preset)}</b>; "
             f"{len(results)} claims. <a href='index.html'>All papers</a></p>", counts_table(results),
             "<table><tr><th>claim</th><th>kind</th><th>source</th><th>statement</th><th>check</th>"
             "<th>verdict</th></tr>"]
    for r in results:
        c = r.claim
        parts.append(f"<tr><td><a href='#{escape(c.key)}'>{escape(c.key)}</a></td><td>{c.kind}</td>"
                     f"<td>{escape(c.source)}</td><td>{escape(c.statement)}</td><td>{c.technique}</td>"
                     f"<td>{_verdict(r.evidence.verdict)}"
                     + (" (this preset; the authoritative result is named below)" if r.evidence.authority else "")
                     + "</td></tr>")
    parts.append(f"</table><p class='scope'>{escape(rules)}</p>")
    for r in results:
        c, e = r.claim, r.evidence
        parts.append(f"<h2 id='{escape(c.key)}'>{escape(c.key)}</h2><p><b>{escape(c.source)}</b> "
                     f"({c.kind}) — {escape(c.statement)}</p>")
        if c.quote and c.kind == RELEASED_CODE:
            parts.append(f"<p>The code:</p><pre>{escape(c.quote)}</pre>")
        elif c.quote:
            parts.append(f"<p>The paper:</p><blockquote>{escape(c.quote)}</blockquote>")
        scope = "inside the claim's hypotheses" if e.inside_hypotheses else \
            "<b>outside the claim's hypotheses</b> (see the reason)"
        parts.append(f"<p class='scope'>Check: {c.technique}, {scope}.</p><p>Verdict: "
                     f"{_verdict(e.verdict)}</p><p>{escape(e.reason)}</p>")
        if e.authority:
            parts.append(f"<p><em>Authoritative</em>: {escape(e.authority)}</p>")
        if e.numbers:
            parts.append("<p>Numbers:</p>" + _numbers(e.numbers))
        if e.derivation:
            parts.append(f"<p>Derivation:</p><pre>{escape(e.derivation)}</pre>")
        if e.figure is not None and c.key in figures:
            parts.append(f"<img alt='{escape(str(e.figure.get('title', c.key)))}' "
                         f"src='{figures[c.key]}'>")
    parts.append("</body></html>")
    return "\n".join(parts)


def html_index(preset: str, entries: Sequence[tuple[str, str, Sequence[ClaimResult]]], rules: str) -> str:
    """The index page: per paper (file name, title, results) its counts per kind and verdict."""
    parts = ["<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>The papers' claims"
             f"</title><style>{_STYLE}</style></head><body><h1>The papers' claims</h1>"
             f"<p>Preset: <b>{escape(preset)}</b>.</p><p class='scope'>{escape(rules)}</p>"]
    for name, title, results in entries:
        parts.append(f"<h2><a href='{escape(name)}'>{escape(title)}</a></h2>" + counts_table(results))
    parts.append("</body></html>")
    return "\n".join(parts)
