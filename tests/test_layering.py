"""The data flow of ARCHITECTURE.md, enforced: lower layers never import higher ones.

Ranks: top-level modules (errors, guarantees, execution, ...) 0 < mechanisms 1 <
accountants 2 < auditing 3 < testing 4 < bandits 5 < claims 6 < cli 7. A module may import
dpverify modules of its own rank or lower. Among the top-level modules the order
is errors, _deprecation, vocabulary < _lazy (its deprecated renames), _validation < _numeric < guarantees, neighbouring; the package
``__init__`` re-exports top-level modules only (so ``import dpverify`` stays light).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "dpverify"

RANKS = {"mechanisms": 1, "accountants": 2, "auditing": 3, "testing": 4, "bandits": 5, "claims": 6,
         "cli": 7}
TOP_LEVEL_ORDER = {"errors": 0, "_deprecation": 0, "vocabulary": 0, "_lazy": 1, "_validation": 1, "_numeric": 1, "guarantees": 2,
                   "neighbouring": 2, "execution": 2, "__init__": 3}


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts)


def _dpverify_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    package = _module_name(path).rsplit(".", 1)[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "dpverify")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                found.add(f"{base}.{node.module}" if node.module else base)
            elif node.module and node.module.split(".")[0] == "dpverify":
                found.add(node.module)
    return found


def _rank(module: str) -> tuple[int, int]:
    parts = module.split(".")
    if len(parts) == 1:  # "dpverify" itself
        return 0, TOP_LEVEL_ORDER["__init__"]
    head = parts[1]
    if head in RANKS:
        return RANKS[head], 0
    return 0, TOP_LEVEL_ORDER.get(head, 2)


SOURCES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.slow
@pytest.mark.parametrize("path", SOURCES, ids=lambda p: _module_name(p))
def test_imports_point_down_the_stack(path: Path) -> None:
    importer = _module_name(path)
    own = _rank(importer)
    for imported in _dpverify_imports(path):
        target = _rank(imported)
        if own[0] == 0 and target[0] == 0:
            assert target[1] < own[1] or importer == imported, (
                f"{importer} imports {imported}: top-level modules only import earlier ones")
        else:
            assert target[0] <= own[0], (
                f"{importer} (layer {own[0]}) imports {imported} (layer {target[0]})")


def test_package_init_imports_no_subpackage() -> None:
    imported = _dpverify_imports(PACKAGE / "__init__.py")
    assert imported, "the package __init__ should re-export the guarantee types"
    assert all(_rank(m)[0] == 0 for m in imported), imported


def test_the_checker_sees_a_violation(tmp_path: Path) -> None:
    """The parser is not vacuous: a mechanisms module importing accountants is caught."""
    bad = PACKAGE / "mechanisms" / "continuous.py"
    imports = _dpverify_imports(bad) | {"dpverify.accountants.rdp"}
    assert any(_rank(m)[0] > _rank(_module_name(bad))[0] for m in imports)


def test_claims_sit_between_bandits_and_cli() -> None:
    """claims may import bandits; bandits may not import claims; cli may import claims."""
    assert _rank("dpverify.bandits.simulate")[0] < _rank("dpverify.claims.report")[0]
    assert _rank("dpverify.claims.report")[0] < _rank("dpverify.cli.claims")[0]


#: Modules that must never import the experiments (figures come from result tables only).
PLOTTING = ("dpverify.bandits.plots",)


@pytest.mark.parametrize("module", PLOTTING)
def test_plotting_never_imports_experiments(module: str) -> None:
    path = PACKAGE.parent / (module.replace(".", "/") + ".py")
    imported = _dpverify_imports(path)
    assert not any(m == "dpverify.bandits.experiments" or m.startswith("dpverify.bandits.experiments.")
                   for m in imported), f"{module} imports the experiments: {sorted(imported)}"
