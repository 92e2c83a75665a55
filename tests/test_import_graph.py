"""The import graph of ``src/dpverify``: no circles, no reaching into private modules.

Three rules of ARCHITECTURE.md, enforced on the parsed source (function-level imports
included, so a circle cannot hide behind an import inside a function):

* **No import circles.** The module graph (package ``__init__`` modules are nodes too;
  ``from pkg import name`` is an edge to ``pkg`` and, when ``name`` is a submodule, to
  it) has no strongly connected component of more than one module.
* **Private means private.** A module may import a ``_private`` module only from inside
  the package that owns it (``dpverify.accountants.pld._grid`` from
  ``dpverify.accountants.pld.*``); what other packages need is public.
* **Function-level imports say why.** An import inside a function is allowed only to
  defer a heavy or optional import, and its first line carries a ``# deferred: <why>``
  comment.
"""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "dpverify"
SOURCES = sorted(PACKAGE.rglob("*.py"))


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


MODULES = {module_name(p): p for p in SOURCES}


def _absolute(path: Path, node: ast.ImportFrom) -> str:
    module = module_name(path)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    if not node.level:
        return node.module or ""
    for _ in range(node.level - 1):
        package = package.rsplit(".", 1)[0]
    return f"{package}.{node.module}" if node.module else package


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _in_function(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    while node in parents:
        node = parents[node]
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return True
    return False


def imports_of(path: Path) -> list[tuple[ast.stmt, list[str], bool]]:
    """Each import statement of ``path``: (node, dpverify modules it loads, in a function?)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parents = _parents(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(path, node)
            targets = [base] + [f"{base}.{alias.name}" for alias in node.names
                                if f"{base}.{alias.name}" in MODULES]
        else:
            continue
        local = [t for t in targets if t in MODULES]
        found.append((node, local, _in_function(node, parents)))
    return found


def import_graph() -> dict[str, set[str]]:
    return {name: {t for _, targets, _ in imports_of(path) for t in targets if t != name}
            for name, path in MODULES.items()}


def strongly_connected_components(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative; components of one node are left out."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


@pytest.mark.slow
def test_no_import_circles() -> None:
    circles = strongly_connected_components(import_graph())
    assert not circles, "import circles (module-level SCCs):\n" + "\n".join(map(str, circles))


def test_the_circle_finder_sees_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert strongly_connected_components(graph) == [["a", "b", "c"]]


def _owner_of_private(module: str) -> str | None:
    parts = module.split(".")
    for i, part in enumerate(parts):
        if part.startswith("_"):
            return ".".join(parts[:i])
    return None


@pytest.mark.slow
def test_private_modules_stay_inside_their_package() -> None:
    crossings = []
    for importer, path in MODULES.items():
        for _, targets, _ in imports_of(path):
            for target in targets:
                owner = _owner_of_private(target)
                if owner is not None and not (importer == owner or importer.startswith(owner + ".")):
                    crossings.append(f"{importer} -> {target}")
    assert not crossings, "imports of another package's private module:\n" + "\n".join(crossings)


def _comments(path: Path) -> dict[int, str]:
    tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
    return {tok.start[0]: tok.string for tok in tokens if tok.type == tokenize.COMMENT}


@pytest.mark.slow
def test_function_level_imports_say_why_they_are_deferred() -> None:
    undocumented = []
    for name, path in MODULES.items():
        comments = None
        for node, _, in_function in imports_of(path):
            if not in_function:
                continue
            comments = comments if comments is not None else _comments(path)
            lines = range(node.lineno, (node.end_lineno or node.lineno) + 1)
            if not any("deferred:" in comments.get(line, "") for line in lines):
                undocumented.append(f"{name}:{node.lineno}")
    assert not undocumented, ("function-level imports without a '# deferred: <why>' comment:\n"
                              + "\n".join(undocumented))
