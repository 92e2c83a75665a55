"""tests/ mirrors src/dpverify: a test module per public module, or a stated reason (issue 24).

A public module is a file of ``src/dpverify`` with no ``_`` at the start of any
part of its dotted path (``__init__`` and ``__main__`` excluded). Its mirrored
test module is in the mirrored directory: ``dpverify/a/b/c.py`` ->
``tests/a/b/test_c.py`` or ``tests/a/b/test_b_c.py`` (the package-prefixed name
keeps basenames unique: pytest imports test modules by basename, in its default
``prepend`` import mode, since tests/ has no ``__init__.py``). A thin
re-export module (docstring, imports, ``__all__`` and at most a ``__getattr__``
for renamed names) needs no test: what it re-exports is tested where it lives.

Otherwise the module is in :data:`REASONS` with one line naming where it is
tested (an existing ``tests/...py`` file). An entry whose module is gone, is
now a thin re-export or has its mirrored test fails as stale. Also checked:
test module basenames are unique, and every test file cited in src/, docs/ and
README.md exists.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "dpverify"
TESTS = ROOT / "tests"

#: Public modules without a mirrored test module, and where they are tested instead.
REASONS: dict[str, str] = {
    "dpverify.bandits.experiments.chowdhury":
        "experiment definitions only; tests/bandits/experiments/test_registry.py checks "
        "chowdhury2023-fig1..4 against the paper's settings",
    "dpverify.bandits.experiments.hanna":
        "experiment definitions only; tests/bandits/experiments/test_registry.py checks "
        "hanna2022-fig3b, tests/bandits/linear/test_linear_cli.py the hanna figures' registration",
    "dpverify.bandits.experiments.tenenbaum":
        "experiment definitions only; tests/bandits/experiments/test_registry.py checks "
        "tenenbaum2021-scaling's ε grid and its privacy cost over AE",
    "dpverify.claims.dpdpe":
        "its CLAIMS run in tests/claims/test_claims_report.py (one quick run of all five papers "
        "shared by a module fixture; test_dpdpe_classical_gaussian_at_epsilon_ten)",
    "dpverify.claims.garcelon":
        "its CLAIMS run in tests/claims/test_claims_report.py (one quick run of all five papers "
        "shared by a module fixture; test_garcelon_thm5_..., test_garcelon_prop13_...)",
    "dpverify.claims.hanna":
        "its CLAIMS run in tests/claims/test_claims_report.py (one quick run of all five papers "
        "shared by a module fixture; test_hanna_laplace_algorithms_are_two_epsilon_dp_as_printed)",
    "dpverify.claims.tenenbaum":
        "its CLAIMS run in tests/claims/test_claims_report.py (one quick run of all five papers "
        "shared by a module fixture; test_tenenbaum_batch_size_is_sigma_squared)",
    "dpverify.accountants.dominating_pairs": "dominating_pair of every mechanism is checked where the PLD "
                                               "subsamples it: tests/accountants/pld/test_subsampling.py",
    "dpverify.accountants.rdp.subsampling_pairs": "poisson_subsampled_pair_rdp beside the other subsampled RDP "
                                                  "curves: tests/accountants/rdp/test_rdp_subsampling.py",
    "dpverify.auditing.curves": "audit_curve and claimed_delta_curve beside audit(), whose samplers they share: "
                                "tests/auditing/test_audit.py",
    "dpverify.auditing.planning": "samples_to_certify and the certifying split with the sequential audit that "
                                  "plans by them: tests/auditing/test_sequential.py",
}

_MODULE_HOOKS = {"__all__", "__getattr__"}
_TEST_FILE = r"tests/[\w/]+\.py"


def public_modules() -> dict[str, Path]:
    """Dotted name -> file of every public module of dpverify."""
    modules = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if path.stem in ("__init__", "__main__") or any(p.startswith("_") for p in parts):
            continue
        modules[".".join(parts)] = path
    return modules


def is_thin_reexport(path: Path) -> bool:
    """The module body is a docstring, imports, ``__all__`` (and a ``__getattr__`` hook) only."""
    body = ast.parse(path.read_text(encoding="utf-8")).body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]

    def allowed(node: ast.stmt) -> bool:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            return True
        targets = (node.targets if isinstance(node, ast.Assign)
                   else [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign)) else [])
        return bool(targets) and all(isinstance(t, ast.Name) and t.id in _MODULE_HOOKS
                                     for t in targets)

    return bool(body) and all(allowed(node) for node in body)


def mirrored_tests(module: str) -> list[Path]:
    """Where the test of ``module`` may be: ``test_<module>.py``, ``test_<package>_<module>.py``."""
    parts = module.split(".")[1:]
    directory, name = TESTS.joinpath(*parts[:-1]), parts[-1]
    candidates = [directory / f"test_{name}.py"]
    if len(parts) > 1:
        candidates.append(directory / f"test_{parts[-2]}_{name}.py")
    return candidates


def _has_mirrored_test(module: str) -> bool:
    return any(candidate.is_file() for candidate in mirrored_tests(module))


@pytest.mark.slow
def test_every_public_module_has_a_mirrored_test_module_or_a_reason() -> None:
    missing = [f"{module}: {' or '.join(str(c.relative_to(ROOT)) for c in mirrored_tests(module))}"
               for module, path in public_modules().items()
               if not is_thin_reexport(path) and not _has_mirrored_test(module)
               and module not in REASONS]
    assert not missing, ("public modules without a mirrored test module (write one, or add a "
                         "one-line reason naming where they are tested to REASONS):\n  "
                         + "\n  ".join(missing))


def test_every_reason_is_current_and_names_an_existing_test_file() -> None:
    modules = public_modules()
    problems = []
    for module, reason in REASONS.items():
        if module not in modules:
            problems.append(f"{module}: no such public module")
        elif is_thin_reexport(modules[module]):
            problems.append(f"{module}: a thin re-export now, it needs no reason")
        elif _has_mirrored_test(module):
            problems.append(f"{module}: has its mirrored test now")
        else:
            named = re.findall(_TEST_FILE, reason)
            if not named:
                problems.append(f"{module}: the reason names no tests/...py file")
            problems += [f"{module}: {name} does not exist" for name in named
                         if not (ROOT / name).is_file()]
    assert not problems, "stale or unfounded REASONS entries:\n  " + "\n  ".join(problems)


def test_test_module_basenames_are_unique() -> None:
    """Without ``__init__.py`` in tests/, two ``test_x.py`` in different directories clash."""
    places = defaultdict(list)
    for path in TESTS.rglob("test_*.py"):
        places[path.name].append(str(path.relative_to(ROOT)))
    clashes = {name: paths for name, paths in places.items() if len(paths) > 1}
    assert not clashes, f"test modules sharing a basename: {clashes}"


def test_thin_reexport_detection(tmp_path) -> None:
    """The exemption is not vacuous: a docstring-imports-``__all__`` body is thin, code is not."""
    thin = tmp_path / "thin.py"
    thin.write_text('"""Moved: see dpverify.x.y."""\n\nfrom __future__ import annotations\n\n'
                    'from dpverify.x.y import A, b\n\n__all__ = ["A", "b"]\n'
                    '__getattr__ = renamed_attributes(__name__, {})\n')
    assert is_thin_reexport(thin)
    thin.write_text(thin.read_text() + "\nLIMIT = 3\n")
    assert not is_thin_reexport(thin)
    assert not is_thin_reexport(PACKAGE / "errors.py")
    assert not is_thin_reexport(PACKAGE / "bandits" / "experiments" / "registry.py")  # a dict


def test_test_files_cited_in_the_code_and_docs_exist() -> None:
    """Docstrings, messages and docs that point at a test file point at one that exists."""
    cited = []
    for path in [*PACKAGE.rglob("*.py"), *(ROOT / "docs").rglob("*.md"), ROOT / "README.md"]:
        text = path.read_text(encoding="utf-8")
        cited += [f"{path.relative_to(ROOT)}: {name}" for name in re.findall(_TEST_FILE, text)
                  if not (ROOT / name).is_file()]
    assert not cited, "citations of test files that do not exist:\n  " + "\n  ".join(cited)
