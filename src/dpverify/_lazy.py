"""Lazy re-exports for package ``__init__`` modules (PEP 562 ``__getattr__`` / ``__dir__``).

A package that re-exports names from heavy submodules keeps ``import package``
cheap: the names are listed, and a submodule is imported only when one of its
names is first read (then cached in the package's namespace, so later reads
cost nothing). ``from package import name`` works as before. Standard library
only: it sits below every other module of dpverify.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

from dpverify._deprecation import warn_renamed_attribute

__all__ = ["lazy_exports"]


def lazy_exports(package: str, namespace: dict[str, Any], exports: Mapping[str, str],
                 *, submodules: bool = False, renamed: Mapping[str, str] | None = None
                 ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for ``package`` re-exporting ``exports`` (name → module).

    ``namespace`` is the package's ``globals()``. With ``submodules``, any other
    attribute that names a submodule (``package.name``) imports it, as an eager
    ``__init__`` that had imported it would have provided. ``renamed`` maps deprecated
    names to exported ones: reading an old name warns (``dpverify._deprecation``) and
    returns the new one's value, every time.
    """
    renamed = dict(renamed or {})

    def __getattr__(name: str) -> Any:
        if name in renamed:
            new = renamed[name]
            warn_renamed_attribute(package, name, new, stacklevel=2)
            return namespace[new] if new in namespace else __getattr__(new)
        module = exports.get(name)
        if module is not None:
            value = getattr(importlib.import_module(module), name)
        elif submodules and not name.startswith("__"):
            try:
                value = importlib.import_module(f"{package}.{name}")
            except ModuleNotFoundError as error:
                if error.name != f"{package}.{name}":
                    raise
                raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        else:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        namespace[name] = value  # later look-ups skip this function
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(exports))

    return __getattr__, __dir__
