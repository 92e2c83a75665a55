"""Renamed parameters and names keep working for one release, with a warning.

dpverify's public vocabulary (``dpverify.vocabulary``) gives each word one meaning.
When a parameter or a public name is renamed to fit it, the old spelling stays
accepted for one release:

* :func:`renamed_parameters` wraps a function (or a class's ``__init__``): an old
  keyword is translated to the new one with a :class:`DeprecationWarning` that names
  the new one; giving both is a :class:`TypeError`. ``inspect.signature`` shows the
  new names only (through ``__wrapped__``), and the renames are listed in the
  wrapper's ``__renamed_parameters__`` for the vocabulary test.
* :func:`renamed_attributes` builds a module ``__getattr__`` (PEP 562) that serves a
  renamed public name under its old spelling, with the same warning.
* :func:`renamed_property` serves a renamed attribute (a dataclass field, say) of a
  class under its old spelling, read-only, with the same warning.

Standard library only: it sits below every other module of dpverify.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

__all__ = ["renamed_parameters", "renamed_attributes", "renamed_property",
           "warn_renamed_attribute"]

F = TypeVar("F", bound=Callable[..., Any])


def _translate(qualname: str, renames: Mapping[str, str], kwargs: dict[str, Any]) -> None:
    for old, new in renames.items():
        if old not in kwargs:
            continue
        if new in kwargs:
            raise TypeError(f"{qualname}() got both {old!r} (the deprecated name) and {new!r}; "
                            f"pass {new!r} only")
        warnings.warn(f"{qualname}(): the parameter {old!r} is deprecated and will be removed "
                      f"in the next release; use {new!r}", DeprecationWarning, stacklevel=3)
        kwargs[new] = kwargs.pop(old)


def renamed_parameters(**renames: str) -> Callable[[F], F]:
    """Accept each ``old=new`` keyword under its old name for one release.

    Decorates a function, or a class (its ``__init__`` is wrapped).

    Examples
    --------
    >>> import warnings
    >>> @renamed_parameters(eps0="local_epsilon")
    ... def f(*, local_epsilon):
    ...     return local_epsilon
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     f(eps0=1.0), caught[0].category.__name__
    (1.0, 'DeprecationWarning')
    >>> f(eps0=1.0, local_epsilon=2.0)
    Traceback (most recent call last):
    ...
    TypeError: f() got both 'eps0' (the deprecated name) and 'local_epsilon'; pass 'local_epsilon' only
    """
    for old, new in renames.items():
        if old == new or not new.isidentifier():
            raise ValueError(f"renamed_parameters: cannot rename {old!r} to {new!r}")

    def decorate(target: F) -> F:
        if isinstance(target, type):
            target.__init__ = decorate(target.__init__)  # type: ignore[misc]
            target.__renamed_parameters__ = {  # type: ignore[attr-defined]
                **getattr(target, "__renamed_parameters__", {}), **renames}
            return target
        qualname = target.__qualname__.removesuffix(".__init__")

        @functools.wraps(target)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            _translate(qualname, renames, kwargs)
            return target(*args, **kwargs)

        wrapper.__renamed_parameters__ = {  # type: ignore[attr-defined]
            **getattr(target, "__renamed_parameters__", {}), **renames}
        return wrapper  # type: ignore[return-value]

    return decorate


def warn_renamed_attribute(module: str, old: str, new: str, *, stacklevel: int = 2) -> None:
    """The :class:`DeprecationWarning` of a renamed module attribute ``module.old``."""
    warnings.warn(f"{module}.{old} is deprecated and will be removed in the next release; use "
                  f"{module}.{new}", DeprecationWarning, stacklevel=stacklevel + 1)


def renamed_attributes(module: str, renames: Mapping[str, tuple[str, Any]]
                       ) -> Callable[[str], Any]:
    """A module ``__getattr__`` serving ``old -> (new_name, value)`` with a warning.

    Use as ``__getattr__ = renamed_attributes(__name__, {"Event": ("OutputEvent",
    OutputEvent)})``; old names are not listed in ``__all__``.
    """

    def __getattr__(name: str) -> Any:
        if name in renames:
            new, value = renames[name]
            warn_renamed_attribute(module, name, new, stacklevel=3)
            return value
        raise AttributeError(f"module {module!r} has no attribute {name!r}")

    __getattr__.__renamed_attributes__ = dict(renames)  # type: ignore[attr-defined]
    return __getattr__


def renamed_property(old: str, new: str) -> property:
    """A read-only property ``old`` returning attribute ``new``, with a warning.

    Use in a class body as ``epsilon_0 = renamed_property("epsilon_0", "local_epsilon")``.
    """

    def getter(self: Any) -> Any:
        warnings.warn(f"{type(self).__name__}.{old} is deprecated and will be removed in the "
                      f"next release; use .{new}", DeprecationWarning, stacklevel=2)
        return getattr(self, new)

    return property(getter, doc=f"Deprecated alias of :attr:`{new}` (one release).")
