"""The mark that ties code to the clauses it implements: ``@implements("ID", ...)``.

The lowest layer of the package beside :mod:`regelverk.errors`: the card and engine modules
mark their functions with it, and :mod:`regelverk.trace` reads the marks back (by parsing the
source, not by importing it) to link each clause to its code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

__all__ = ["CLAUSES_ATTRIBUTE", "implements"]

F = TypeVar("F", bound=Callable[..., object])

CLAUSES_ATTRIBUTE = "__regelverk_clauses__"
"""The attribute under which a marked function or class keeps its clause ids."""


def implements(*ids: str) -> Callable[[F], F]:
    """Mark a function or class as implementing the clauses ``ids``.

    The ids are checked against ``spec/`` when the trace is computed and by the test suite, so a
    citation of an id that does not exist cannot go unnoticed.
    """
    if not ids or not all(isinstance(i, str) and i for i in ids):
        raise ValueError("implements() needs one or more clause ids")

    def mark(target: F) -> F:
        setattr(target, CLAUSES_ATTRIBUTE, (*getattr(target, CLAUSES_ATTRIBUTE, ()), *ids))
        return target

    return mark
