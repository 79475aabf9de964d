"""A quicker way to build the frozen records the engines make on every action.

A frozen dataclass's ``__init__`` fills each field with ``object.__setattr__`` (it must step
round its own frozen ``__setattr__``), which costs more than the record's rules when a state has
twenty or thirty fields and an action makes a new one. :func:`builder` makes, once per record
type, a function that fills a new instance before anyone can see it: the same record the
constructor builds (it compares equal and is just as frozen afterwards), for the hot paths of
``apply`` only. It takes every field, positionally, in the order the dataclass declares them;
it checks nothing, as the generated ``__init__`` of a record without ``__post_init__`` checks
nothing either.

Two ways, chosen per record type:

* a record directly on ``object`` whose slots are exactly its fields is filled as a *draft*, an
  instance of a plain twin class with the very same slots and no rules of its own, by ordinary
  attribute stores, and then given the record's class (Python allows that between classes of
  one slot layout). The draft is local to the built function and never seen by anyone. This is
  the quicker way: about a third of the instructions of the other for a thirty-field state;
* any other frozen, slotted record (one with a ``Generic`` base, say) is filled through its
  slot descriptors, one call per field.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["builder"]

R = TypeVar("R")

# The helper names start with two underscores and end with one, which no field name the
# generated parameters could shadow does (a field named ``record`` once shadowed ``record``).
_MADE, _NEW, _KIND, _TWIN = "__made_", "__new_", "__cls_", "__twin_"


def builder(cls: type[R]) -> Callable[..., R]:
    """A function ``build(*values)`` returning the ``cls`` whose fields, in declaration order,
    are ``values``; ``cls`` must be a frozen, slotted dataclass without ``__post_init__``.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True, slots=True, kw_only=True)
    ... class Point:
    ...     x: int
    ...     y: int = 0
    >>> build = builder(Point)
    >>> build(1, 2) == Point(x=1, y=2), build(1, 2), type(build(1, 2)) is Point
    (True, Point(x=1, y=2), True)
    """
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__} is not a frozen, slotted dataclass")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} has a __post_init__, which a builder would skip")
    names = [field.name for field in dataclasses.fields(cls)]  # type: ignore[arg-type]
    if {_MADE, _NEW, _KIND, _TWIN} & set(names) or any(f"__set_{n}_" in names for n in names):
        raise TypeError(f"{cls.__name__} has a field named like the builder's own helpers")
    scope: dict[str, Any] = {_NEW: object.__new__, _KIND: cls}
    lines = [f"def build({', '.join(names)}):"]
    if cls.__bases__ == (object,) and tuple(cls.__dict__["__slots__"]) == tuple(names):
        scope[_TWIN] = type(f"_{cls.__name__}Draft", (), {"__slots__": tuple(names)})
        lines.append(f"    {_MADE} = {_NEW}({_TWIN})")
        lines += [f"    {_MADE}.{name} = {name}" for name in names]
        lines.append(f"    {_MADE}.__class__ = {_KIND}")
    else:
        scope |= {f"__set_{name}_": cls.__dict__[name].__set__ for name in names}
        lines.append(f"    {_MADE} = {_NEW}({_KIND})")
        lines += [f"    __set_{name}_({_MADE}, {name})" for name in names]
    lines.append(f"    return {_MADE}")
    exec("\n".join(lines), scope)  # straight-line code over the field names, nothing else
    build: Callable[..., R] = scope["build"]
    build.__doc__ = f"A {cls.__name__} from every field's value, in declaration order."
    if _TWIN in scope:
        build(*(None for _ in names))  # the class change is allowed for this layout, or fail now
    return build
