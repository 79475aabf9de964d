"""A quicker way to build the frozen records the engines make on every action.

A frozen dataclass's ``__init__`` fills each field with ``object.__setattr__`` (it must step
round its own frozen ``__setattr__``), which costs more than the record's rules when a state has
twenty fields and an action makes a new one. :func:`builder` makes, once per record type, a
function that fills a new instance's slots straight through their slot descriptors, in field
order, before anyone can see it: the same record the constructor builds (it compares equal and
is just as frozen afterwards), for the hot paths of ``apply`` only. It takes every field,
positionally, in the order the dataclass declares them; it checks nothing, as the generated
``__init__`` of a record without ``__post_init__`` checks nothing either.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["builder"]

R = TypeVar("R")


def builder(cls: type[R]) -> Callable[..., R]:
    """A function ``build(*values)`` returning the ``cls`` whose fields, in declaration order,
    are ``values``; ``cls`` must be a frozen, slotted dataclass without ``__post_init__``.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True, slots=True, kw_only=True)
    ... class Point:
    ...     x: int
    ...     y: int = 0
    >>> build = builder(Point)
    >>> build(1, 2) == Point(x=1, y=2), build(1, 2)
    (True, Point(x=1, y=2))
    """
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__} is not a frozen, slotted dataclass")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} has a __post_init__, which a builder would skip")
    names = [field.name for field in dataclasses.fields(cls)]  # type: ignore[arg-type]
    scope: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    scope |= {f"_set_{name}": cls.__dict__[name].__set__ for name in names}
    lines = [f"def build({', '.join(names)}):", "    record = _new(_cls)"]
    lines += [f"    _set_{name}(record, {name})" for name in names]
    lines.append("    return record")
    exec("\n".join(lines), scope)  # straight-line code over the field names, nothing else
    build: Callable[..., R] = scope["build"]
    build.__doc__ = f"A {cls.__name__} from every field's value, in declaration order."
    return build
