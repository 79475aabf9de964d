"""The builders of regelverk.records make the very records the constructors make."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import pytest

from regelverk.engine import Event
from regelverk.records import builder
from regelverk.uno import GAME as UNO
from regelverk.uno.state import UnoState
from regelverk.viggo import GAME as VIGGO
from regelverk.viggo.state import ViggoState


@pytest.mark.parametrize(
    "record",
    [
        UNO.deal(UNO.options("uno"), ["A", "B", "C"], 5),
        VIGGO.deal(VIGGO.options("viggo"), ["A", "B", "C", "D"], 5),
        Event(kind="k", text="t", clauses=("UNO-CALL-UNO",), player="A", cards=("R5",)),
    ],
)
def test_a_built_record_equals_the_constructed_one_and_stays_frozen(
    record: UnoState | ViggoState | Event,
) -> None:
    values = [getattr(record, f.name) for f in dataclasses.fields(record)]
    built = builder(type(record))(*values)
    assert built == record and hash(built) == hash(record) and repr(built) == repr(record)
    first = dataclasses.fields(record)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(built, first, None)


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
