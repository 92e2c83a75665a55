"""The papers' claims, checked: a registry of claims with symbolic, numeric, statistical and empirical checks.

For each of the five papers (:data:`PAPERS`), ``dpverify.claims.<paper>.CLAIMS``
lists the claims a reader relies on — location (theorem, equation, figure),
statement, the paper's words quoted, the kind of claim (*paper claim*,
*derived consequence*, *released code*) and the technique of its check — and
each check returns :class:`Evidence`: a verdict (paper claims: *holds*,
*fails*, *holds under a stated correction*, *not checkable*; rate claims: *not
refuted*, *refuted*; consequences and code: *finding*), the reason and the
numbers behind it, whether the check stayed inside the claim's hypotheses,
which result is authoritative, the sympy derivation where there is one, and
a figure.

* :mod:`dpverify.claims.symbolic` — the papers' algebra re-derived with sympy;
* :mod:`dpverify.claims.regret_bounds` — every regret theorem as a function;
* :func:`check_paper` / :func:`write_report` / :func:`write_index` — run a
  paper's claims, write its report (Markdown with figures, self-contained
  HTML, or JSON) and the index (``dpverify claims``).

>>> report = check_paper("tenenbaum", claim_keys=["cor32-batch"])
>>> report.verdicts()
{'cor32-batch': 'holds under a stated correction'}
"""

from __future__ import annotations

from dpverify.claims._types import (
    CHECK_KINDS,
    CLAIM_KINDS,
    CONSEQUENCE,
    CORRECTED,
    FAILS,
    FINDING,
    HOLDS,
    NOT_CHECKABLE,
    NOT_REFUTED,
    PAPER_CLAIM,
    REFUTED,
    RELEASED_CODE,
    SCALES,
    VERDICTS,
    VERDICTS_BY_KIND,
    Claim,
    ClaimResult,
    Evidence,
)
from dpverify.claims.report import (
    PAPER_TITLES,
    PAPERS,
    REPORT_FORMATS,
    PaperReport,
    check_paper,
    claims_of,
    render_markdown,
    write_index,
    write_report,
)

__all__ = [
    "HOLDS",
    "FAILS",
    "CORRECTED",
    "NOT_CHECKABLE",
    "NOT_REFUTED",
    "REFUTED",
    "FINDING",
    "VERDICTS",
    "PAPER_CLAIM",
    "CONSEQUENCE",
    "RELEASED_CODE",
    "CLAIM_KINDS",
    "VERDICTS_BY_KIND",
    "CHECK_KINDS",
    "SCALES",
    "Claim",
    "ClaimResult",
    "Evidence",
    "PAPERS",
    "PAPER_TITLES",
    "PaperReport",
    "check_paper",
    "claims_of",
    "REPORT_FORMATS",
    "render_markdown",
    "write_report",
    "write_index",
]
