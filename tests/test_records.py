"""The records of regelverk.records: a record behaves as the frozen dataclass it stands for
(its text, equality and hash), and its builder makes the very record the constructor makes."""

from __future__ import annotations

import ast
import copy
import dataclasses
import inspect
import math
import pickle
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import regelverk
from regelverk.engine import Event, Outcome, Ruling
from regelverk.records import builder, record
from regelverk.registry import Clause, Locator, Registry, rulebook_registry
from regelverk.uno import GAME as UNO
from regelverk.uno.state import UnoState
from regelverk.vandatta import GAME as VANDATTA
from regelverk.vandatta.state import State as VandattaState
from regelverk.viggo import GAME as VIGGO
from regelverk.viggo.state import ViggoState


@pytest.mark.parametrize(
    "record",
    [
        UNO.deal(UNO.options("uno"), ["A", "B", "C"], 5),
        VIGGO.deal(VIGGO.options("viggo"), ["A", "B", "C", "D"], 5),
        VANDATTA.deal(VANDATTA.options("vvv8"), ["A", "B", "C", "D"], 5),  # has a field "record"
        Event(kind="k", text="t", clauses=("UNO-CALL-UNO",), player="A", cards=("R5",)),
        # generic to the type checker only: a plain record at run time, filled as a draft
        Outcome(state=1, events=(Event(kind="k", text="t", clauses=("UNO-CALL-UNO",)),)),
        # a generic record (its base is Generic): filled through its slot descriptors
        Ruling(allowed=True, message="m", clauses=("UNO-CALL-UNO",), events=(), state=1),
    ],
)
def test_a_built_record_equals_the_constructed_one_and_stays_frozen(
    record: UnoState | ViggoState | VandattaState | Event | Outcome[int] | Ruling[int],
) -> None:
    values = {f.name: getattr(record, f.name) for f in dataclasses.fields(record)}
    built = builder(type(record))(**values)
    assert built == record and hash(built) == hash(record) and repr(built) == repr(record)
    first = dataclasses.fields(record)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(built, first, None)


def test_an_outcome_is_a_plain_record_at_run_time_and_generic_for_the_type_checker() -> None:
    assert Outcome.__bases__ == (object,) and Ruling.__bases__ != (object,)
    typed = Outcome[int]
    assert typed(state=1, events=()) == Outcome(state=1, events=())


def test_only_frozen_slotted_records_without_post_init_get_a_builder() -> None:
    @dataclass(frozen=True)
    class Loose:
        x: int

    @dataclass(frozen=True, slots=True)
    class Checked:
        x: int

        def __post_init__(self) -> None:
            assert self.x > 0

    with pytest.raises(TypeError, match="frozen, slotted"):
        builder(Loose)
    with pytest.raises(TypeError, match="__post_init__"):
        builder(Checked)

    @dataclass(frozen=True, slots=True)
    class Positional:
        x: int

    with pytest.raises(TypeError, match="not keyword-only"):
        builder(Positional)


def test_a_builder_takes_its_fields_by_name_only() -> None:
    """A builder's call names every field, as the constructor's does: a value given by position
    (where two fields of one type could be swapped unseen) is refused."""

    @dataclass(frozen=True, slots=True, kw_only=True)
    class Span:
        low: int
        high: int

    build = builder(Span)
    assert build(high=5, low=2) == Span(low=2, high=5)
    with pytest.raises(TypeError, match="positional"):
        build(2, 5)  # type: ignore[call-arg]


def test_a_vandatta_scratch_table_freezes_back_to_the_state_it_copies() -> None:
    """Table.of and Table.freeze list the fields by position: every field must come back
    (but ``vetoable``, which every action clears, and which random legal play never sets)."""
    import random

    from regelverk.vandatta.table import Table

    for book in VANDATTA.rulebooks:
        state = VANDATTA.deal(VANDATTA.options(book), ["A", "B", "C", "D"], 5)
        chooser = random.Random(2)
        for _ in range(200):
            if VANDATTA.is_over(state):
                break
            again = Table.of(state).freeze()
            assert state.vetoable is None and again == state
            for field in dataclasses.fields(state):
                assert getattr(again, field.name) == getattr(state, field.name), field.name
            state = VANDATTA.apply(state, chooser.choice(VANDATTA.legal_actions(state))).state


@record
class Pair:
    left: int
    right: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class PairTwin:
    left: int
    right: tuple[str, ...] = ()


@record
class Hidden:
    shown: float | None
    secret: str = dataclasses.field(default="", repr=False, compare=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class HiddenTwin:
    shown: float | None
    secret: str = dataclasses.field(default="", repr=False, compare=False)


@record
class Nothing:
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class NothingTwin:
    pass


@record
class Built:
    """A record with a default factory and a field ``__post_init__`` fills."""

    parts: tuple[int, ...] = dataclasses.field(default_factory=tuple)
    size: int = dataclasses.field(init=False, repr=False, compare=False)
    mark: str = dataclasses.field(init=False, default="-")

    def __post_init__(self) -> None:
        object.__setattr__(self, "size", len(self.parts))


@dataclass(frozen=True, slots=True, kw_only=True)
class BuiltTwin:
    parts: tuple[int, ...] = dataclasses.field(default_factory=tuple)
    size: int = dataclasses.field(init=False, repr=False, compare=False)
    mark: str = dataclasses.field(init=False, default="-")

    def __post_init__(self) -> None:
        object.__setattr__(self, "size", len(self.parts))


@record
class Child(Pair):
    extra: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class ChildTwin(PairTwin):
    extra: bool = False


TWINS: tuple[tuple[type[Any], type[Any]], ...] = (
    (Pair, PairTwin),
    (Hidden, HiddenTwin),
    (Nothing, NothingTwin),
    (Built, BuiltTwin),
    (Child, ChildTwin),
)

_texts = st.text(max_size=4)
_floats = st.floats(allow_nan=True, allow_infinity=True) | st.none()


def _values(kind: type[Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Keyword arguments for a record of ``kind`` (small ranges, so that equal ones occur)."""
    pair = {"left": st.integers(-2, 2), "right": st.lists(_texts, max_size=2).map(tuple)}
    fields: dict[type[Any], dict[str, st.SearchStrategy[Any]]] = {
        Pair: pair,
        Hidden: {"shown": _floats | st.sampled_from([0.0, -0.0, 1.0]), "secret": _texts},
        Nothing: {},
        Built: {"parts": st.lists(st.integers(0, 2), max_size=2).map(tuple)},
        Child: {**pair, "extra": st.booleans()},
    }
    return st.fixed_dictionaries(fields[kind])


@st.composite
def _two_of_a_kind(draw: st.DrawFn) -> tuple[type[Any], type[Any], dict[str, Any], dict[str, Any]]:
    kind, twin = draw(st.sampled_from(TWINS))
    return kind, twin, draw(_values(kind)), draw(_values(kind))


def _finite(values: dict[str, Any]) -> bool:
    return all(not isinstance(v, float) or math.isfinite(v) for v in values.values())


@given(_two_of_a_kind())
def test_a_record_shows_compares_and_hashes_as_its_dataclass_does(
    case: tuple[type[Any], type[Any], dict[str, Any], dict[str, Any]],
) -> None:
    kind, twin, one, other = case
    made, made_twin = kind(**one), twin(**one)
    assert repr(made) == repr(made_twin).replace(twin.__qualname__, kind.__qualname__, 1)
    assert (made == kind(**other)) is (made_twin == twin(**other))
    assert (made != kind(**other)) is (made_twin != twin(**other))
    assert hash(made) == hash(made_twin)
    if made == kind(**other):
        assert hash(made) == hash(kind(**other))
    if _finite(one) and kind in (Pair, Nothing, Child):  # the text makes an equal record
        assert eval(repr(made), {kind.__qualname__: kind, "inf": math.inf}) == made
    assert made == kind(**one) == dataclasses.replace(made)
    assert [f.name for f in dataclasses.fields(made)] == [f.name for f in dataclasses.fields(twin)]
    assert dataclasses.asdict(made) == dataclasses.asdict(made_twin)
    fields = dataclasses.fields(twin)  # as tuples, so that a NaN equals itself, as in __eq__
    assert tuple(getattr(made, f.name) for f in fields) == tuple(
        getattr(made_twin, f.name) for f in fields
    )
    assert made == copy.copy(made)
    unpickled = pickle.loads(pickle.dumps(made))
    if _finite(one):  # a NaN read back is another float object, equal to no other NaN
        assert unpickled == made
    assert repr(unpickled) == repr(made)
    assert str(inspect.signature(kind)) == str(inspect.signature(twin))


@given(_values(Pair))
def test_a_record_equals_only_a_record_of_its_very_type(values: dict[str, Any]) -> None:
    pair, child, twin = Pair(**values), Child(**values), PairTwin(**values)
    assert pair not in (child, twin) and child != pair
    assert pair.__eq__(values) is NotImplemented
    assert {pair, Pair(**values)} == {pair}


def test_a_record_is_frozen_slotted_and_keyword_only() -> None:
    pair = Pair(left=1)
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'left'"):
        pair.left = 2  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'left'"):
        del pair.left
    with pytest.raises(AttributeError):
        object.__setattr__(pair, "other", 1)
    with pytest.raises(TypeError):
        Pair(1)  # type: ignore[call-arg]
    assert vars(Pair)["__slots__"] == ("left", "right") and vars(Child)["__slots__"] == ("extra",)
    assert builder(Pair)(left=3, right=("x",)) == Pair(left=3, right=("x",))
    assert builder(Child)(left=3, right=("x",), extra=True) == Child(
        left=3, right=("x",), extra=True
    )
    params = Pair.__dataclass_params__  # type: ignore[attr-defined]
    assert dataclasses.is_dataclass(Pair) and params.frozen and params.eq and params.init


@pytest.mark.parametrize(
    "given",
    [{}, {"right": ()}, {"left": 1, "wrong": 2}, {"left": 1, "size": 2}],
)
def test_a_record_refuses_the_arguments_its_dataclass_refuses(given: dict[str, Any]) -> None:
    for kind in (Pair, PairTwin) if "size" not in given else (Built, BuiltTwin):
        with pytest.raises(TypeError) as refused:
            kind(**{k: v for k, v in given.items() if kind in (Pair, PairTwin) or k != "left"})
        said = str(refused.value).replace("Twin", "")
        if kind in (Pair, Built):
            mine = said
        else:
            assert said == mine


def test_a_record_keeps_the_methods_its_class_writes() -> None:
    @record
    class Loud:
        x: int

        def __repr__(self) -> str:
            return "loud"

        def __eq__(self, other: object) -> bool:
            return True

        def __hash__(self) -> int:
            return 7

    @record
    class Unhashable:
        x: int
        __hash__ = None  # type: ignore[assignment]

    assert repr(Loud(x=1)) == "loud" and Loud(x=1) == 3 and hash(Loud(x=2)) == 7
    with pytest.raises(TypeError):
        hash(Unhashable(x=1))


def test_the_model_records_are_records() -> None:
    registry = rulebook_registry("uno")
    clause = registry.clause("UNO-WIN-GAME-500")
    assert type(clause).__eq__ is type(Locator(seed="s", section=1, paragraph=1)).__eq__
    assert clause == registry.clause("UNO-WIN-GAME-500") and hash(clause) == hash(clause)
    again = Registry(rulebooks=registry.rulebooks, comparison=(), glossary=())
    assert again == registry and "_index" not in repr(again)
    assert isinstance(clause, Clause) and repr(clause).startswith("Clause(id='UNO-WIN-GAME-500'")


_POSITIONAL_ALIASES = {("UnoState", "draw_pile"): "pile", ("UnoState", "wild_draw_four"): "wd4"}
"""Fields a positional call reads under another name: UNO's table keeps the draw pile as
``pile`` and the challengeable Wild Draw Four as ``wd4``."""


def _positional_calls() -> Iterator[tuple[str, int, str, list[ast.expr]]]:
    """Every call of a positional builder in the model: file, line, record, arguments."""
    root = Path(regelverk.__file__).parent
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        bound = {
            node.targets[0].id: node.value.args[0].id
            for node in tree.body
            if isinstance(node, ast.Assign)
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Name)
            and node.value.func.id == "positional"
            and isinstance(node.value.args[0], ast.Name)
        }
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in bound
            ):
                yield path.name, node.lineno, bound[node.func.id], node.args


def _read_name(arg: ast.expr) -> str | None:
    """The name an argument reads (``self.hands``, ``tuple(self.hands)`` and ``hands`` read
    ``hands``); ``None`` for a constant."""
    if isinstance(arg, ast.Call) and len(arg.args) == 1:
        return _read_name(arg.args[0])
    if isinstance(arg, ast.Attribute):
        return arg.attr
    if isinstance(arg, ast.Name):
        return arg.id
    return None


def test_every_positional_builder_call_gives_each_field_in_its_place() -> None:
    """The positional builders (:func:`regelverk.records.positional`, the fenced fast path)
    are not checked field by field by mypy: here each call's arguments must read the field of
    their position, by name, and be as many as the record's fields."""
    records = {
        "State": VandattaState,
        "UnoState": UnoState,
        "ViggoState": ViggoState,
    }
    calls = list(_positional_calls())
    assert {kind for _, _, kind, _ in calls} == set(records), calls
    for where, line, kind, args in calls:
        fields = [f.name for f in dataclasses.fields(records[kind])]
        assert len(args) == len(fields), f"{where}:{line}"
        for arg, field in zip(args, fields, strict=True):
            read = _read_name(arg)
            wanted = _POSITIONAL_ALIASES.get((kind, field), field)
            assert read in (None, wanted), f"{where}:{line}: {field} is given {read}"
