"""Frozen records built from a draft: the quickest way this engine makes its states and events.

A frozen, slotted dataclass must step round its own frozen ``__setattr__`` to fill each slot,
so its ``__init__`` (one ``object.__setattr__`` per field) and even
:func:`regelverk.records.builder` (one slot descriptor call per field) cost more than the rules
of an ordinary move when a state has some thirty fields. :func:`sealer` makes, once per record
type, a function that fills a *draft*, an instance of a plain twin class with the very same
slots and no rules of its own, by ordinary attribute stores, and then turns the draft into the
record by giving it the record's class (Python allows that between classes of one slot
layout). The draft is local to that function and never seen by anyone: what leaves it is an
ordinary, frozen record, equal to the one the constructor builds and just as immutable.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["sealer"]

R = TypeVar("R")


def sealer(cls: type[R]) -> Callable[..., R]:
    """A function ``seal(*values)`` returning the ``cls`` whose fields, in declaration order,
    are ``values``; ``cls`` must be a frozen, slotted dataclass directly on ``object``, without
    ``__post_init__``, whose slots are its fields. It checks nothing, as the generated
    ``__init__`` of such a record checks nothing either.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True, slots=True, kw_only=True)
    ... class Point:
    ...     x: int
    ...     y: int = 0
    >>> seal = sealer(Point)
    >>> seal(1, 2) == Point(x=1, y=2), seal(1, 2)
    (True, Point(x=1, y=2))
    """
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__} is not a frozen, slotted dataclass")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} has a __post_init__, which a sealer would skip")
    names = [field.name for field in dataclasses.fields(cls)]  # type: ignore[arg-type]
    if cls.__bases__ != (object,) or tuple(cls.__dict__["__slots__"]) != tuple(names):
        raise TypeError(f"{cls.__name__}'s slots are not exactly its fields on object")
    draft = type(f"_{cls.__name__}Draft", (object,), {"__slots__": tuple(names)})
    # The helper names start with two underscores and end with one, as no field's name does.
    made, new, twin, kind = "__made_", "__new_", "__twin_", "__cls_"
    if {made, new, twin, kind} & set(names):
        raise TypeError(f"{cls.__name__} has a field named like the sealer's own helpers")
    scope: dict[str, Any] = {new: object.__new__, twin: draft, kind: cls}
    lines = [f"def seal({', '.join(names)}):", f"    {made} = {new}({twin})"]
    lines += [f"    {made}.{name} = {name}" for name in names]
    lines += [f"    {made}.__class__ = {kind}", f"    return {made}"]
    exec("\n".join(lines), scope)  # straight-line code over the field names, nothing else
    seal: Callable[..., R] = scope["seal"]
    seal.__doc__ = f"A {cls.__name__} from every field's value, in declaration order."
    seal(*(None for _ in names))  # the class change is allowed for this layout, or TypeError now
    return seal
