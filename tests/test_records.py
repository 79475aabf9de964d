"""The builders of regelverk.records make the very records the constructors make."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import pytest

from regelverk.engine import Event, Outcome, Ruling
from regelverk.records import builder
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
    values = [getattr(record, f.name) for f in dataclasses.fields(record)]
    built = builder(type(record))(*values)
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


def test_a_vandatta_scratch_table_freezes_back_to_the_state_it_copies() -> None:
    """Table.of and Table.freeze list the fields by position: every field must come back
    (but ``vetoable``, which every action clears, and which random legal play never sets)."""
    import random

    from regelverk.vandatta.rules import Table

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
