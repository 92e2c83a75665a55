"""Every public import path of dpverify 0.1 keeps working.

``public_import_paths.json`` was written from the source tree before the house-v3 moves
(2026-11-28): each public module (no ``_`` in its dotted path) and the public names it
defined (its ``__all__``, or its public top-level definitions). Moving code into
subpackages must leave each ``from <module> import <name>`` working.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

PATHS = json.loads((Path(__file__).parent / "public_import_paths.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("module", sorted(PATHS))
def test_public_module_still_imports_with_its_names(module: str) -> None:
    imported = importlib.import_module(module)
    missing = [name for name in PATHS[module] if not hasattr(imported, name)]
    assert not missing, f"{module} lost {missing}"


def test_the_inventory_is_not_empty() -> None:
    assert len(PATHS) > 100 and sum(map(len, PATHS.values())) > 700
