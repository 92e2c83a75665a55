"""The papers' claims, checked: a registry of claims with symbolic, numeric, statistical and empirical checks.

For each of the five papers (:data:`PAPERS`), ``dpverify.claims.<paper>.CLAIMS``
lists the claims a reader relies on — source (theorem, equation, figure),
statement, kind of check — and each check returns :class:`Evidence`: a verdict
(*holds*, *fails*, *holds after correction*, *not checkable*), the reason and
the numbers behind it, the sympy derivation where there is one, and a figure.

* :mod:`dpverify.claims.symbolic` — the papers' algebra re-derived with sympy;
* :mod:`dpverify.claims.regret_bounds` — every regret theorem as a function;
* :func:`check_paper` / :func:`write_report` — run a paper's claims, write its
  Markdown report with figures (``dpverify claims``).

>>> report = check_paper("tenenbaum", claim_keys=["cor32-batch"])
>>> report.verdicts()
{'cor32-batch': 'holds after correction'}
"""

from __future__ import annotations

from dpverify.claims._types import (
    CHECK_KINDS,
    CORRECTED,
    FAILS,
    HOLDS,
    NOT_CHECKABLE,
    SCALES,
    VERDICTS,
    Claim,
    ClaimResult,
    Evidence,
)
from dpverify.claims.report import (
    PAPER_TITLES,
    PAPERS,
    PaperReport,
    check_paper,
    claims_of,
    render_markdown,
    write_report,
)

__all__ = [
    "HOLDS",
    "FAILS",
    "CORRECTED",
    "NOT_CHECKABLE",
    "VERDICTS",
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
    "render_markdown",
    "write_report",
]
