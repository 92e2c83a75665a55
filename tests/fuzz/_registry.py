"""Which public names exist, and which fuzz row covers each (one rows module per package).

The public surface is every non-underscore package of dpverify and its
``__all__``. Package ``dpverify.a.b`` has its rows in ``tests/fuzz/rows_a_b.py``
(``rows_dpverify.py`` for the top level), which defines ``ROWS`` (name -> Row,
with extra dotted names such as ``"Cls.method"`` welcome) and ``NOT_FUZZED``
(name -> reason, for constants and structural types only).
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType
from typing import Any

import dpverify
from fuzz._harness import Row


def fuzzed_in_parent(module: ModuleType, parent: ModuleType,
                     other_reason: str | None = None) -> dict[str, str]:
    """``NOT_FUZZED`` entries for the names of ``module.__all__`` that are the same objects as
    ``parent``'s (fuzzed by the parent's rows), by identity: a name that stops being the same
    object gets a "no fuzz row" failure, unless ``other_reason`` covers the rest."""
    reasons = {}
    for name in module.__all__:
        if name in parent.__all__ and getattr(parent, name) is getattr(module, name):
            reasons[name] = f"the same object as {parent.__name__}.{name}, fuzzed there"
        elif other_reason is not None:
            reasons[name] = other_reason
    return reasons


# Packages whose public surface is fuzzed through another harness (the CLI: argv rows).
SEPARATE_HARNESS = {"dpverify.cli"}


def public_packages() -> list[str]:
    names = ["dpverify"]
    for info in pkgutil.walk_packages(dpverify.__path__, "dpverify."):
        parts = info.name.split(".")
        if info.ispkg and not any(p.startswith("_") for p in parts):
            names.append(info.name)
    return sorted(names)


def rows_module_name(package: str) -> str:
    tail = package.removeprefix("dpverify").lstrip(".").replace(".", "_")
    return f"fuzz.rows_{tail or 'dpverify'}"


def _rows_module(package: str) -> ModuleType | None:
    try:
        return importlib.import_module(rows_module_name(package))
    except ModuleNotFoundError as exc:
        if exc.name == rows_module_name(package):
            return None
        raise


def load_rows() -> dict[str, Row]:
    rows: dict[str, Row] = {}
    for package in public_packages():
        module = _rows_module(package)
        if module is None or package in SEPARATE_HARNESS:
            continue
        for name, row in module.ROWS.items():
            rows[f"{package}:{name}"] = row
    return rows


def load_cli_rows() -> dict[str, Any]:
    from fuzz.rows_cli import CLI_ROWS

    return {f"cli:{name}": row for name, row in CLI_ROWS.items()}


def cli_commands() -> list[str]:
    """Every runnable (sub-)command of ``dpverify``, e.g. ``"account gaussian"``."""
    import argparse

    from dpverify.cli import build_parser

    found: list[str] = []

    def walk(parser: argparse.ArgumentParser, prefix: list[str]) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    walk(sub, [*prefix, name])
                return
        found.append(" ".join(prefix))

    walk(build_parser(), [])
    return found


def missing_cli_rows() -> list[str]:
    from fuzz.rows_cli import CLI_ROWS

    return [f"dpverify {command} has no fuzz row: add \"{command}\": CliRow((<a cheap valid "
            f"command line as strings>)) to CLI_ROWS in tests/fuzz/rows_cli.py"
            for command in cli_commands() if command not in CLI_ROWS]


def missing_rows() -> list[str]:
    """One instruction per public name without a fuzz row (empty when all are covered)."""
    problems: list[str] = []
    for package in public_packages():
        if package in SEPARATE_HARNESS:
            continue
        exported = getattr(importlib.import_module(package), "__all__", None)
        if exported is None:
            problems.append(f"{package} has no __all__: declare its public names")
            continue
        module = _rows_module(package)
        path = "tests/fuzz/" + rows_module_name(package).split(".")[1] + ".py"
        if module is None:
            problems.append(
                f"{package} has no fuzz rows: create {path} with MODULE = {package}, "
                f"ROWS = {{name: Row(callable, {{valid keyword arguments}})}} and "
                f"NOT_FUZZED = {{constant name: reason}} (copy tests/fuzz/rows_testing.py)")
            continue
        rows, exempt = module.ROWS, getattr(module, "NOT_FUZZED", {})
        for name in exported:
            if name not in rows and name not in exempt:
                problems.append(
                    f"{package}.{name} has no fuzz row: add "
                    f"\"{name}\": Row({package.rsplit('.', 1)[-1]}.{name}, {{<valid keyword "
                    f"arguments of a cheap call>}}) to ROWS in {path}"
                    + (" (or, for a constant, a reason in NOT_FUZZED)"
                       if not callable(getattr(importlib.import_module(package), name)) else ""))
        for name in rows:
            if "." not in name and name not in exported:
                problems.append(f"{path}: ROWS[{name!r}] is not in {package}.__all__ "
                                f"(renamed or removed? use a dotted name for extra rows)")
    return problems
