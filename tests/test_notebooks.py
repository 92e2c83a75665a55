"""The notebooks are committed executed, listed on the site (docs/notebooks.md), and re-executed by CI.

Re-executing them is CI's second command (``.ci/run``: ``pytest --nbmake notebooks/``,
under the per-notebook time limit of ``notebooks/conftest.py``); these checks are
the cheap part that runs with the test suite: a notebook committed without its
outputs, with an error in them, or run out of order, fails here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def _code_cells(path: Path) -> list[dict]:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    return [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]


def test_there_are_notebooks() -> None:
    assert len(NOTEBOOKS) >= 3


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[path.stem for path in NOTEBOOKS])
def test_notebook_is_committed_executed_in_order_without_errors(path: Path) -> None:
    cells = _code_cells(path)
    assert cells, f"{path.name} has no code cells"
    counts = [cell.get("execution_count") for cell in cells]
    assert counts == list(range(1, len(cells) + 1)), (
        f"{path.name}: execution counts {counts}; re-run it top to bottom in a fresh kernel "
        "and commit the outputs")
    errors = [output for cell in cells for output in cell.get("outputs", [])
              if output.get("output_type") == "error"]
    assert not errors, f"{path.name} has error outputs: {[e.get('ename') for e in errors]}"
    assert any(cell.get("outputs") for cell in cells), f"{path.name} has no outputs"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[path.stem for path in NOTEBOOKS])
def test_stored_outputs_carry_no_warnings_and_no_machine_paths(path: Path) -> None:
    """The site shows the stored outputs: no deprecation or audit warning, no ``/work/...`` path.

    A warning in a stored output means the notebook calls a deprecated name or
    an audit it documents warns; a path is the committer's machine.
    """
    streams = ["".join(output.get("text", "")) for cell in _code_cells(path)
               for output in cell.get("outputs", []) if output.get("name") == "stderr"]
    warnings = [text for text in streams if re.search(r"\w+Warning: ", text)]
    assert not warnings, f"{path.name} stores warnings: {[text[:200] for text in warnings]}"
    text = path.read_text(encoding="utf-8")
    assert not re.search(r"/(work|home|root|Users)/[\w.-]+/", text), (
        f"{path.name} stores a path of the machine it ran on")


def test_the_site_lists_every_notebook() -> None:
    """docs/notebooks.md (the site's notebooks page) has a row for every notebook."""
    page = (ROOT / "docs" / "notebooks.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"`(\d\d_[\w]+\.ipynb)`", page))
    assert listed == {path.name for path in NOTEBOOKS}


def test_ci_runs_the_readme_tests_then_the_docs_build_and_the_notebooks() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    test_command = next(line for line in readme.splitlines()
                        if line.startswith("python3 -m venv") and "[test]" in line)
    lines = [line for line in ci.splitlines() if line and not line.startswith("#")]
    assert test_command in lines
    after = lines[lines.index(test_command) + 1:]
    assert any("sphinx" in line and " -W " in line for line in after)
    assert any("--nbmake" in line and "notebooks/" in line for line in after)
