"""The option strategies of the state machines reach every value of every option, and the
engines play every one of them (no reading is refused when the options are made)."""

from __future__ import annotations

import dataclasses
import enum

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import option_sets, playable, refused

from regelverk.engine import with_options
from regelverk.games import game_for
from regelverk.registry import RULEBOOKS


@pytest.mark.parametrize("rulebook", RULEBOOKS)
def test_every_value_of_every_option_is_playable(
    rulebook: str,
) -> None:
    preset = game_for(rulebook).options(rulebook)
    table, refusals = playable(rulebook), refused(rulebook)
    for field in dataclasses.fields(preset):
        current = getattr(preset, field.name)
        if isinstance(current, enum.Enum):
            values = [m.value for m in type(current)]
        elif isinstance(current, bool):
            values = [True, False]
        else:
            continue
        for value in values:
            assert value in table.get(field.name, ()) or f"{field.name}={value}" in refusals
    assert refusals == {}, refusals


@pytest.mark.parametrize("rulebook", RULEBOOKS)
@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_the_drawn_option_sets_are_ones_the_engine_accepts(
    rulebook: str, data: st.DataObject
) -> None:
    changes = data.draw(option_sets(rulebook))
    options = with_options(game_for(rulebook).options(rulebook), changes)
    for name, value in changes.items():
        current = getattr(options, name)
        assert (current.value if isinstance(current, enum.Enum) else current) == value
