"""Names a package exports without importing the modules that define them until first used.

An engine family's ``__init__`` re-exports its engine (``GAME``) and types; with
:func:`exports` as its module ``__getattr__`` (PEP 562), importing the package (as reading its
``book`` descriptor does) loads none of them, and ``from regelverk.uno import GAME`` still
works. The type checker reads the same names from the package's ``TYPE_CHECKING`` imports.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping

__all__ = ["exports"]


def exports(package: str, where: Mapping[str, str]) -> Callable[[str], object]:
    """A module ``__getattr__`` for ``package``: the name ``n`` is read from the submodule
    ``where[n]`` when first asked for."""

    def attribute(name: str) -> object:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{module}"), name)

    return attribute
