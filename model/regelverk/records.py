"""The frozen records of the model: how they are declared (:func:`record`), and a quicker way
to build the ones the engines make on every action (:func:`builder`).

:func:`record` makes a class a frozen, slotted, keyword-only dataclass whose ``__repr__``,
``__eq__`` and ``__hash__`` are three functions shared by every record, reading each class's
field names from the class, instead of three small programs that :mod:`dataclasses` writes out as
source and compiles for each class (compiling them is a large part of what importing the model
costs a one-shot command such as ``regelverk ask``). They behave as the dataclass's own: the
same text, equality of the very same type field by field, the hash of the compared fields.

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
import reprlib
from collections.abc import Callable
from operator import attrgetter
from typing import Any, TypeVar, dataclass_transform

__all__ = ["builder", "record"]

R = TypeVar("R")

_SHOWN, _COMPARED, _HASHED = "__record_shown__", "__record_compared__", "__record_hashed__"
"""The class attributes the shared methods read: the names of the fields a record shows in its
text, and the functions giving the tuple of the values it compares and hashes."""


def _values(names: tuple[str, ...]) -> Callable[[object], tuple[Any, ...]]:
    """A function giving the tuple of the values of the fields ``names`` of a record."""
    if len(names) > 1:
        tuple_of: Callable[[object], tuple[Any, ...]] = attrgetter(*names)
        return tuple_of
    if names:
        one = attrgetter(names[0])
        return lambda made: (one(made),)
    return lambda made: ()


@reprlib.recursive_repr()
def _repr(self: object) -> str:
    """``Name(field=value, ...)``, as a dataclass shows itself."""
    shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in getattr(self, _SHOWN))
    return f"{type(self).__qualname__}({shown})"


def _eq(self: object, other: object) -> object:
    """Equal to a record of the very same type whose compared fields are equal."""
    if other.__class__ is self.__class__:
        values = getattr(self.__class__, _COMPARED)
        return bool(values(self) == values(other))
    return NotImplemented


def _hash(self: object) -> int:
    """The hash of the tuple of the compared fields' values, as a frozen dataclass's."""
    return hash(getattr(self.__class__, _HASHED)(self))


@dataclass_transform(
    frozen_default=True, kw_only_default=True, field_specifiers=(dataclasses.field,)
)
def record(cls: type[R]) -> type[R]:
    """``cls`` as a frozen, slotted, keyword-only dataclass with the shared ``__repr__``,
    ``__eq__`` and ``__hash__`` (a method the class writes itself is kept, as a dataclass
    keeps it).

    >>> @record
    ... class Point:
    ...     x: int
    ...     y: int = 0
    >>> Point(x=1), Point(x=1) == Point(x=1, y=0), hash(Point(x=1)) == hash((1, 0))
    (Point(x=1, y=0), True, True)
    """
    own = cls.__dict__
    explicit_hash = own.get("__hash__", None) is not None or (
        "__hash__" in own and "__eq__" not in own
    )
    made = dataclasses.dataclass(frozen=True, slots=True, kw_only=True, repr=False, eq=False)(cls)
    fields = dataclasses.fields(made)  # type: ignore[arg-type]
    setattr(made, _SHOWN, tuple(f.name for f in fields if f.repr))
    setattr(made, _COMPARED, staticmethod(_values(tuple(f.name for f in fields if f.compare))))
    hashed = tuple(f.name for f in fields if (f.compare if f.hash is None else f.hash))
    setattr(made, _HASHED, staticmethod(_values(hashed)))
    for name, method in (("__repr__", _repr), ("__eq__", _eq)):
        if name not in own:
            setattr(made, name, method)
    if not explicit_hash:
        made.__hash__ = _hash  # type: ignore[method-assign]
    return made


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
