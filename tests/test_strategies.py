"""The option strategies of the state machines reach every value of every option, and the
engines play every one of them (no reading is refused when the options are made)."""

from __future__ import annotations

import dataclasses
import enum

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import option_sets, playable, refused

from regelverk.books import RULEBOOKS
from regelverk.engine import with_options
from regelverk.games import game_for


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


@pytest.mark.parametrize("rulebook", RULEBOOKS)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_whole_options_draw_every_field_from_its_domain(rulebook: str, data: st.DataObject) -> None:
    from strategies import whole_options

    from regelverk.optionspace import domains

    options = data.draw(whole_options(rulebook))
    assert type(options) is type(game_for(rulebook).options(rulebook))
    for name, values in domains(game_for(rulebook).options(rulebook)).items():
        assert getattr(options, name) in values, name


def test_a_refused_combination_is_settled_towards_the_preset() -> None:
    """A coffee break seating one player is refused when the options are made; settling takes
    the changed fields back one by one until the options are accepted."""
    from strategies import SETTLED, settle

    from regelverk.engine import OptionError

    with pytest.raises(OptionError, match="coffee_break_max_players must be None or from 2"):
        with_options(game_for("vvv8").options("vvv8"), {"coffee_break_max_players": 1})
    before = SETTLED["vvv8"]
    options = settle("vvv8", {"coffee_break_max_players": 1, "hand_size": 2})
    assert SETTLED["vvv8"] > before
    assert options.coffee_break_max_players != 1
