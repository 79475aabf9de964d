"""The frozen records of the model: how they are declared (:func:`record`), and a quicker way
to build the ones the engines make on every action (:func:`builder`).

:func:`record` makes a class a frozen, slotted, keyword-only dataclass whose methods
(``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, the frozen ``__setattr__`` and
``__delattr__``, and the pickling pair) are functions shared by every record, reading each
class's fields from the class, instead of small programs that :mod:`dataclasses` writes out as
source and compiles for each class: compiling them was about a third of what a one-shot command
such as ``regelverk ask`` spent importing the model. They behave as the dataclass's own: the
same text, equality of the very same type field by field, the hash of the compared fields, the
same defaults and errors; :func:`dataclasses.fields`, :func:`dataclasses.replace` and the
rest see a frozen dataclass. The price is a shared ``__init__`` that takes its arguments as a
dictionary: a record costs about half again as much to make as with a generated one. That is
right for the records made a few hundred times per command (the spec's entries, the options),
not for the states ``apply`` makes, which keep their generated ``__init__`` (and
:func:`builder`).

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
from collections.abc import Callable, Mapping
from operator import attrgetter
from typing import Any, NamedTuple, NoReturn, ParamSpec, TypeVar, dataclass_transform

__all__ = ["builder", "positional", "record"]

R = TypeVar("R")
P = ParamSpec("P")

_PLAN, _SHOWN, _COMPARED, _HASHED, _NAMES = (
    "__record_plan__",
    "__record_shown__",
    "__record_compared__",
    "__record_hashed__",
    "__record_fields__",
)
"""The class attributes the shared methods read: how ``__init__`` fills each field, the names
of the fields a record shows in its text, the functions giving the tuple of the values it
compares and hashes, and the names of all its fields."""


class _Plan(NamedTuple):
    """How the shared ``__init__`` fills a record's fields."""

    required: frozenset[str]
    """The fields whose value must be given."""
    allowed: frozenset[str]
    """The fields a value may be given for."""
    defaults: tuple[tuple[str, Any], ...]
    """Each field with a default value, and the value."""
    factories: tuple[tuple[str, Callable[[], Any]], ...]
    """Each field with a default factory, and the factory."""
    complete: bool
    """Whether a value for every field ``__init__`` takes fills every field (no field outside
    ``__init__`` takes a default)."""
    post_init: bool
    """Whether the record has a ``__post_init__`` to run."""


class _Factory:
    """Shows as ``<factory>`` in a signature, as a dataclass's field with a default factory."""

    def __repr__(self) -> str:
        return "<factory>"


def _values(names: tuple[str, ...]) -> Callable[[object], tuple[Any, ...]]:
    """A function giving the tuple of the values of the fields ``names`` of a record."""
    if len(names) > 1:
        tuple_of: Callable[[object], tuple[Any, ...]] = attrgetter(*names)
        return tuple_of
    if names:
        one = attrgetter(names[0])
        return lambda made: (one(made),)
    return lambda made: ()


def _init(self: Any, /, **given: Any) -> None:
    """Fill every field from its keyword argument, else from its default (or default factory),
    then run ``__post_init__`` if the record has one: a dataclass's ``__init__``."""
    plan: _Plan = getattr(self.__class__, _PLAN)
    fill = object.__setattr__
    if plan.complete and given.keys() == plan.allowed:
        for name, value in given.items():
            fill(self, name, value)
    else:
        if not (plan.required <= given.keys() and plan.allowed >= given.keys()):
            _refuse(self.__class__, plan, given)
        for name, value in given.items():
            fill(self, name, value)
        for name, default in plan.defaults:
            if name not in given:
                fill(self, name, default)
        for name, factory in plan.factories:
            if name not in given:
                fill(self, name, factory())
    if plan.post_init:
        self.__post_init__()


def _refuse(kind: type[Any], plan: _Plan, given: Mapping[str, Any]) -> NoReturn:
    """The :class:`TypeError` of a call that misses a required field or names no field, in
    the words Python uses for a generated ``__init__``."""
    missing = [repr(name) for name in getattr(kind, _NAMES) if name in plan.required - given.keys()]
    if missing:
        listed = (
            " and ".join(missing)
            if len(missing) < 3
            else ", ".join(missing[:-1]) + ", and " + missing[-1]
        )
        plural = "s" if len(missing) > 1 else ""
        raise TypeError(
            f"{kind.__qualname__}.__init__() missing {len(missing)} required keyword-only "
            f"argument{plural}: {listed}"
        )
    stray = next(name for name in given if name not in plan.allowed)
    raise TypeError(f"{kind.__qualname__}.__init__() got an unexpected keyword argument {stray!r}")


def _setattr(self: object, name: str, value: object) -> None:
    """A record's fields cannot be assigned (a frozen dataclass's ``__setattr__``)."""
    kind = type(self)
    if _PLAN in kind.__dict__ or name in getattr(kind, _NAMES):
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
    object.__setattr__(self, name, value)


def _delattr(self: object, name: str) -> None:
    """Nor deleted."""
    kind = type(self)
    if _PLAN in kind.__dict__ or name in getattr(kind, _NAMES):
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
    object.__delattr__(self, name)


def _getstate(self: object) -> list[Any]:
    """The values of the fields, in order, for pickling and copying."""
    return [getattr(self, name) for name in getattr(self, _NAMES)]


def _setstate(self: object, state: list[Any]) -> None:
    for name, value in zip(getattr(self, _NAMES), state, strict=True):
        object.__setattr__(self, name, value)


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


def _plan(fields: tuple[dataclasses.Field[Any], ...], post_init: bool) -> _Plan:
    """How ``__init__`` fills these fields (a field outside ``__init__`` without a default is
    left to ``__post_init__``)."""
    missing = dataclasses.MISSING
    defaults = tuple((f.name, f.default) for f in fields if f.default is not missing)
    factories = tuple(
        (f.name, f.default_factory) for f in fields if f.default_factory is not missing
    )
    allowed = frozenset(f.name for f in fields if f.init)
    filled_anyway = any(
        not f.init and (f.default is not missing or f.default_factory is not missing)
        for f in fields
    )
    return _Plan(
        required=frozenset(
            f.name
            for f in fields
            if f.init and f.default is missing and f.default_factory is missing
        ),
        allowed=allowed,
        defaults=defaults,
        factories=factories,
        complete=not filled_anyway,
        post_init=post_init,
    )


class _Signature:
    """The signature of a record's constructor, made when first asked for (by ``help``,
    :func:`inspect.signature` or Hypothesis's ``builds``), not when the class is made."""

    def __get__(self, made: object, kind: type[Any]) -> Any:
        import inspect

        factory = _Factory()
        return inspect.Signature(
            [
                inspect.Parameter(
                    f.name,
                    inspect.Parameter.KEYWORD_ONLY,
                    default=(
                        f.default
                        if f.default is not dataclasses.MISSING
                        else factory
                        if f.default_factory is not dataclasses.MISSING
                        else inspect.Parameter.empty
                    ),
                    annotation=f.type,
                )
                for f in dataclasses.fields(kind)
                if f.init
            ],
            return_annotation=None,
        )


@dataclass_transform(
    frozen_default=True, kw_only_default=True, field_specifiers=(dataclasses.field,)
)
def record(cls: type[R]) -> type[R]:
    """``cls`` as a frozen, slotted, keyword-only dataclass whose methods are shared by every
    record (a method the class writes itself is kept, as a dataclass keeps it).

    >>> @record
    ... class Point:
    ...     x: int
    ...     y: int = 0
    >>> Point(x=1), Point(x=1) == Point(x=1, y=0), hash(Point(x=1)) == hash((1, 0))
    (Point(x=1, y=0), True, True)
    """
    own = dict(cls.__dict__)
    if "__slots__" in own:
        raise TypeError(f"{cls.__name__} already specifies __slots__")
    for name in ("__setattr__", "__delattr__"):
        if name in own:
            raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}")
    explicit_hash = own.get("__hash__") is not None or ("__hash__" in own and "__eq__" not in own)
    bases = cls.__mro__[1:-1]
    frozen_base = any(
        getattr(getattr(base, "__dataclass_params__", None), "frozen", False) for base in bases
    )
    # The dataclass machinery reads the fields; it writes no method (but the two a frozen
    # dataclass must have when a base is one, which are replaced below).
    dataclasses.dataclass(init=False, repr=False, eq=False, frozen=frozen_base, kw_only=True)(cls)
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    names = tuple(f.name for f in fields)
    every = cls.__dataclass_fields__  # type: ignore[attr-defined]
    if len(every) != len(fields) and any("InitVar" in str(f.type) for f in every.values()):
        raise TypeError(f"{cls.__name__} has an InitVar, which a record does not take")
    body = {k: v for k, v in cls.__dict__.items() if k not in names}
    body.pop("__dict__", None)
    body.pop("__weakref__", None)
    inherited = {slot for base in bases for slot in base.__dict__.get("__slots__", ())}
    hashed = tuple(f.name for f in fields if (f.compare if f.hash is None else f.hash))
    body |= {
        "__slots__": tuple(name for name in names if name not in inherited),
        _PLAN: _plan(fields, hasattr(cls, "__post_init__")),
        _NAMES: names,
        _SHOWN: tuple(f.name for f in fields if f.repr),
        _COMPARED: staticmethod(_values(tuple(f.name for f in fields if f.compare))),
        _HASHED: staticmethod(_values(hashed)),
        "__init__": own.get("__init__", _init),
        "__repr__": own.get("__repr__", _repr),
        "__eq__": own.get("__eq__", _eq),
        "__hash__": own["__hash__"] if explicit_hash else _hash,
        "__setattr__": _setattr,
        "__delattr__": _delattr,
        "__getstate__": own.get("__getstate__", _getstate),
        "__setstate__": own.get("__setstate__", _setstate),
    }
    if body["__init__"] is _init:
        body["__signature__"] = _Signature()
    metaclass: type[Any] = type(cls)
    made: type[R] = metaclass(cls.__name__, cls.__bases__, body)
    made.__qualname__ = cls.__qualname__
    params = made.__dataclass_params__  # type: ignore[attr-defined]
    params.init = params.repr = params.eq = params.frozen = True
    return made


# The helper names start with two underscores and end with one, which no field name the
# generated parameters could shadow does (a field named ``record`` once shadowed ``record``).
_MADE, _NEW, _KIND, _TWIN = "__made_", "__new_", "__cls_", "__twin_"


def builder(cls: Callable[P, R]) -> Callable[P, R]:
    """A function ``build(**values)`` returning the ``cls`` whose fields are ``values``,
    without the checks and ``object.__setattr__`` calls of the frozen constructor; ``cls`` must
    be a frozen, slotted, keyword-only dataclass without ``__post_init__``.

    The builder has the constructor's signature (keyword-only, typed: ``P``), so the type
    checker reads every call as a call of ``cls`` itself: a misspelt, missing or swapped field
    fails ``mypy``. Measured gain: Vändåtta's 35-field state is built in about 2.0 µs this way
    against 4.4 µs by its constructor (timeit, CPython 3.11, keyword calls both). For the one
    state each family builds at every step, see :func:`positional`.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True, slots=True, kw_only=True)
    ... class Point:
    ...     x: int
    ...     y: int = 0
    >>> build = builder(Point)
    >>> build(x=1, y=2) == Point(x=1, y=2), build(x=1, y=2), type(build(x=1, y=2)) is Point
    (True, Point(x=1, y=2), True)
    """
    build: Callable[P, R] = _generated(cls, by_name=True)
    return build


def positional(cls: type[R]) -> Callable[..., R]:
    """The fenced fast path of :func:`builder`: ``build(*values)``, every field by position in
    declaration order, not typed field by field.

    Only for the state each engine family builds at every step (Vändåtta's and UNO's
    ``Table.freeze``, Viggo's ``_in_trick``): naming 35 fields costs CPython a search of the
    parameter names per argument, about 2.0 µs a call against 0.9 µs by position (timeit,
    Vändåtta's state), some 7% of a random Vändåtta step and 9-14% of a Viggo or UNO step
    (``bench/README.md``). In place of the type checker, ``tests/test_records.py`` reads
    every call of a positional builder in the model and checks that each argument is the
    field of its position (by the attribute or name it reads).

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True, slots=True, kw_only=True)
    ... class Point:
    ...     x: int
    ...     y: int = 0
    >>> positional(Point)(1, 2) == Point(x=1, y=2)
    True
    """
    return _generated(cls, by_name=False)


def _generated(cls: object, *, by_name: bool) -> Callable[..., Any]:
    """The straight-line function behind :func:`builder` (``by_name``) and :func:`positional`."""
    if not isinstance(cls, type):
        raise TypeError(f"{cls!r} is not a class")
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__} is not a frozen, slotted dataclass")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} has a __post_init__, which a builder would skip")
    fields = dataclasses.fields(cls)
    if not all(field.kw_only for field in fields):
        raise TypeError(f"{cls.__name__} is not keyword-only: its builder's calls could not be")
    names = [field.name for field in fields]
    if {_MADE, _NEW, _KIND, _TWIN} & set(names) or any(f"__set_{n}_" in names for n in names):
        raise TypeError(f"{cls.__name__} has a field named like the builder's own helpers")
    scope: dict[str, Any] = {_NEW: object.__new__, _KIND: cls}
    lines = [f"def build({'*, ' if by_name else ''}{', '.join(names)}):"]
    if cls.__bases__ == (object,) and tuple(cls.__dict__["__slots__"]) == tuple(names):
        scope[_TWIN] = type(f"_{cls.__name__}Draft", (), {"__slots__": tuple(names)})
        lines.append(f"    {_MADE} = {_NEW}({_TWIN})")
        lines += [f"    {_MADE}.{name} = {name}" for name in names]
        lines.append(f"    {_MADE}.__class__ = {_KIND}")
    else:
        scope |= {f"__set_{name}_": getattr(cls, name).__set__ for name in names}
        lines.append(f"    {_MADE} = {_NEW}({_KIND})")
        lines += [f"    __set_{name}_({_MADE}, {name})" for name in names]
    lines.append(f"    return {_MADE}")
    exec("\n".join(lines), scope)  # straight-line code over the field names, nothing else
    build: Callable[..., Any] = scope["build"]
    how = "each named" if by_name else "in declaration order"
    build.__doc__ = f"A {cls.__name__} from every field's value, {how}."
    if _TWIN in scope:
        build(**dict.fromkeys(names))  # the class change is allowed for this layout, or fail now
    return build
