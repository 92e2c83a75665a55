"""No global random state anywhere in the package (STYLE rule 13)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "dpverify"
#: Local sources are allowed: a Generator, its bit generators, and a RandomState built on a seeded
#: MT19937 (what diffprivlib's ``random_state=`` takes; ``auditing.adapters`` builds one per chunk).
_LOCAL = r"default_rng|Generator|SeedSequence|PCG64|BitGenerator|MT19937|RandomState\(np\.random\.MT19937\("
FORBIDDEN = re.compile(
    rf"np\.random\.(?!{_LOCAL})\w+\s*\("
    rf"|numpy\.random\.(?!{_LOCAL})\w+\s*\("
    r"|\brandom\.seed\s*\(|^import random\b|^from random import"
)


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: p.name)
def test_no_global_random_state(path: Path) -> None:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        assert not FORBIDDEN.search(line.strip()), f"{path.name}:{number}: {line.strip()}"


def test_pattern_catches_global_calls() -> None:
    for line in ("x = np.random.normal(size=3)", "np.random.seed(0)", "import random"):
        assert FORBIDDEN.search(line), line
    assert not FORBIDDEN.search("rng = np.random.default_rng(seed)")
    assert not FORBIDDEN.search("source = np.random.RandomState(np.random.MT19937(seed))")
    assert FORBIDDEN.search("source = np.random.RandomState(0)")
