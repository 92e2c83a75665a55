"""Citations users can follow: no docstring, comment or message cites an internal code.

The five papers are cited by author and year with a section, algorithm (line),
equation, theorem or appendix number (``Chowdhury & Zhou 2023, Alg. 1 l. 18–30``;
the list is in the README's "References"), and a pitfall of a paper is said in
plain words. What users do not have, and this test refuses:

* the developers' map of the papers and its section codes: ``CATALOGUE``,
  ``A2.7``, ``B6-5``, ``000.3``, ``table A2.7``, ``(E3)``, ``seed 003``;
* its pitfall numbers: ``trap T3-1``, ``T-H1``, ``T-T7``, ``T3-9``, ``T21``;
* its evidence tags ``[C]``, ``[D]``, ``[R,C]``, ``[C,D]`` (``[R]``, "reconstructed
  from a secondary source", is dpverify's own tag, defined in the README);
* in docstrings, comments and prose, a paper's short name used as its citation
  (``chowdhury Alg. 1``, ``dpdpe §7``, ``hanna trap``): the short names stay what
  the command line, experiment and module names use.

Scanned: the comments and string literals of every module of ``src/dpverify``
(docstrings and messages alike), ``README.md``, ``CHANGELOG.md``, ``docs/`` (Markdown
and reStructuredText) and the notebooks' Markdown cells. The public name
``dpverify.auditing.examples.CATALOGUE`` (the auditor's examples) is code, not a
citation, and is not flagged.
"""

from __future__ import annotations

import ast
import io
import json
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "dpverify"

#: Internal codes, anywhere in the scanned text.
CODE = re.compile(r"""
      (?<![.\w`])(?<!import\ )CATALOGUE(?![\w`\[.])  # the developers' map (not the public name)
    | \b[Tt]raps?\s+(?:[A-Z]{1,2}\d|[A-Z]-[A-Z]\d|\d) # "trap T3-1", "trap B6-5", "trap T-H8", "trap 6"
    | \bT\d{1,2}-\d{1,2}\b                           # T3-1
    | \bT-[A-Z]\d{1,2}\b                             # T-T1, T-H10
    | \bT\d{1,2}\b                                   # T4, T21
    | \b[A-E]\d(?:\.\d+|-\d+)\b                      # A2.7, B2.4, B6-5
    | \btable\s+[A-E]\d\b                            # table A2.7
    | \((?:[A-E]\d(?:,\s*)?)+\)                      # (E3), (A1)
    | \b00[0-4]\.\d\b                                # 000.3, 002.5
    | \bseed\s+00[0-4]\b                             # seed 003
    | (?<![\w\]'])\[(?:[CDSXU?](?:\s*,\s*[RCDSXU?])*  # [C], [D], [C,D] (not P[S], P'[S])
                  |R(?:\s*,\s*[CDSXU?])+)\]          # [R,C]
    """, re.VERBOSE)

#: A paper's short name used as its citation: "chowdhury Alg. 1", "dpdpe's Eq. (22)".
SHORT_NAME = re.compile(r"""
    (?<![\w/`.'"-])(?:chowdhury|hanna|tenenbaum|garcelon|dpdpe)(?:'s)?   # not a quoted name
    (?:\s+(?:et\ al\.|&\ zhou))?\s+(?:\d{4},?\s+)?
    (?:Alg(?:orithm)?\b|Thm\b|Theorem\b|Lemma\b|Lem\.|Eqs?\.|Prop\.|Cor\.|Fig\.|App\.|Appendix\b
       |Sec\.|Section\b|§|Remark\b|Assumption\b|Def\.|Table\b|fn\.|footnote\b|traps?\b
       |public\ code|reference\ code|[A-E]\d)
    """, re.VERBOSE)


def _python_texts(path: Path) -> list[tuple[int, str, bool]]:
    """``(line, text, prose)`` of every comment and string literal; prose = comment or docstring."""
    source = path.read_text(encoding="utf-8")
    docstrings = {node.value.lineno for node in ast.walk(ast.parse(source))
                  if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
                  and isinstance(node.value.value, str)}
    found = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            found.append((token.start[0], token.string, True))
        elif token.type == tokenize.STRING and token.string.strip("\"'") != "CATALOGUE":
            prose = token.start[0] in docstrings
            for offset, line in enumerate(token.string.split("\n")):
                found.append((token.start[0] + offset, line, prose))
    return found


def _markdown_texts(text: str) -> list[tuple[int, str, bool]]:
    """``(line, text, prose)`` of a Markdown / reST text; fenced blocks are not prose."""
    found, fenced = [], False
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        found.append((number, line, not fenced))
    return found


def _documents() -> list[tuple[str, list[tuple[int, str, bool]]]]:
    documents = [(str(path.relative_to(ROOT)), _python_texts(path))
                 for path in sorted(PACKAGE.rglob("*.py"))]
    pages = [ROOT / "README.md", ROOT / "CHANGELOG.md",
             *sorted(p for p in (ROOT / "docs").rglob("*") if p.suffix in (".md", ".rst")
                     and "_build" not in p.parts)]
    documents += [(str(path.relative_to(ROOT)), _markdown_texts(path.read_text(encoding="utf-8")))
                  for path in pages]
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for index, cell in enumerate(cells):
            if cell["cell_type"] == "markdown":
                documents.append((f"{path.relative_to(ROOT)} (cell {index})",
                                  _markdown_texts("".join(cell["source"]))))
    return documents


def offences(texts: list[tuple[int, str, bool]]) -> list[tuple[int, str]]:
    """``(line, match)`` of every internal code, and of every short-name citation in prose."""
    found = []
    for number, text, prose in texts:
        for match in CODE.finditer(text):
            found.append((number, match.group()))
        if prose:
            found.extend((number, match.group()) for match in SHORT_NAME.finditer(text))
    return found


@pytest.mark.slow
def test_no_internal_codes_in_docstrings_messages_or_docs() -> None:
    bad = [f"{name}:{line}: {match!r}" for name, texts in _documents()
           for line, match in offences(texts)]
    assert not bad, (
        "internal citation codes users cannot follow; cite the paper by author and year with "
        "its section / algorithm / equation / theorem (README, 'References') and say a "
        "pitfall in plain words:\n  " + "\n  ".join(bad))


#: Lines as they were before issue 24 (one per kind of code): each must be caught.
OLD = [
    "(Goryczka & Xiong 2015, Thm 5.1 / chowdhury Thm 1; CATALOGUE 003 T3-3).",
    "CATALOGUE 003 trap T3-1: the public reference code uses scale (1 − β)/β,",
    "implicit; CATALOGUE B6 trap 6). Validity as in dpdpe Thm 3 (the stricter",
    "``Δ2`` with ``‖y_u‖₂ <= Δ2`` (a norm bound, not a sensitivity; dpdpe trap B6-5).",
    "(strict ``>``, CATALOGUE T3-9). Exact whenever the noisy total lies in",
    "(CATALOGUE T-T1); this protocol is our reading of its §2.1",
    "and the privatizer's (σ, h) from table A2.7. The run stops exactly at T",
    "Tail constants (table A2.7 [C,D]): σ = 2/ε + √2/(sε), h = 1/(sε).",
    "CATALOGUE A2.7 [R,C]: the garbled \"g = εn\" is ``⌈ε√n⌉`` as in the code.",
    "``Cheu et al. 2019, binary RR sum (E3) [R]``",
    "of l, CATALOGUE T5). Both are tuning quantities of the algorithm",
    "(T21; irrelevant to the first actions, which tie).",
    "is removed (strict, T-T6). The run exits exactly at T pulls (T-T7): the",
    "``|C_i|`` in place of \"Bd\" (T-H7); max over 𝒜_i (T-H5).",
    "Trap T3-1: Gamma scale (1 − β)/β is",
    "(Cheu et al. 2019's protocol, CATALOGUE E3 [D]).",
    "the proof needs, CATALOGUE 000.3). Evaluated in mpmath.",
    "\"through garcelon's restatement [R, CATALOGUE E4]; the primary text\"",
    "[D]: σ = √2/ε + √2/(sε), h = 0.",
    "\"\"\"Per phase = total (fresh clients each phase: parallel composition; dpdpe B1).",
    "with a fresh instance per run (seed 003's protocol).",
]
#: The citations that replaced them: none may be caught.
NEW = [
    "(Goryczka & Xiong 2015, Thm 5.1 / Chowdhury & Zhou 2023, Fact 1 and Thm 1).",
    "The authors' public code uses scale (1 − β)/β, the inverse of footnote 3,",
    "(strict ``>``, as in Alg. 1 l. 28). Exact whenever the noisy total lies in",
    "Chowdhury & Zhou 2023, Alg. 1 l. 18–30. All arithmetic is on Python",
    "Tenenbaum et al. 2021, §2.1; Li, Zhou & Ji 2022, Eq. (22); Hanna et al. 2022, App. A.1",
    "Garcelon et al. 2022, Prop. 4/12, proved in App. B.2; Thm 5's Eq. (3)",
    "[R] Constants as printed by Li, Zhou & Ji (Alg. 2, Eq. 22)",
    "``dpverify claims garcelon tenenbaum``, ``hanna2022-fig3b``, ``dpdpe-central``",
    "from dpverify.auditing.examples import CATALOGUE; ``CATALOGUE[name]``",
    "``H_{e^ε} >= P[S] − e^ε P'[S]``; **Assumption A1**; 20 000 points; ε = 0.001",
    "the auditor's catalogue; (see [Contextual bandits](#contextual-bandits-sblb))",
]


@pytest.mark.parametrize("line", OLD)
def test_the_old_citations_are_caught(line: str) -> None:
    assert offences([(1, line, True)]), line


@pytest.mark.parametrize("line", NEW)
def test_author_year_citations_are_not_caught(line: str) -> None:
    assert not offences([(1, line, True)]), offences([(1, line, True)])
