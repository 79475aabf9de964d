"""Every reading the ambiguity register lists is one the engine plays.

The register is walked entry by entry: each ambiguity's ``option`` must be a field of its
rulebook's options, each of its readings a value of that field that the engine accepts, and a
seeded game under that reading must run by random legal moves with every invariant holding after
every step.
"""

from __future__ import annotations

import dataclasses
import enum
import random
from typing import Any

import pytest

from regelverk.books import RULEBOOKS
from regelverk.engine import with_options
from regelverk.games import game_for
from regelverk.registry import default_registry

REGISTRY = default_registry()
STEPS = 300

CASES = [
    pytest.param(rulebook, entry.id, entry.option, reading.name, id=f"{entry.id}={reading.name}")
    for rulebook in RULEBOOKS
    for entry in REGISTRY.rulebook(rulebook).ambiguities
    for reading in entry.readings
]


def _options(rulebook: str, option: str, reading: str) -> Any:
    preset = game_for(rulebook).options(rulebook)
    names = {field.name for field in dataclasses.fields(preset)}
    assert option in names, f"{option} is not an option of the {rulebook} engine"
    current = getattr(preset, option)
    assert isinstance(current, enum.Enum), f"{option} is not a choice of readings"
    assert reading in {member.value for member in type(current)}, f"{option} has no {reading}"
    return with_options(preset, {option: reading})


def test_the_register_has_readings_to_walk() -> None:
    assert len(CASES) > 250


@pytest.mark.parametrize(("rulebook", "entry", "option", "reading"), CASES)
def test_every_registered_reading_plays(
    rulebook: str, entry: str, option: str, reading: str
) -> None:
    game = game_for(rulebook)
    options = _options(rulebook, option, reading)
    players = 4 if rulebook != "vvv8" else 5
    seed = sum(map(ord, f"{entry}={reading}"))
    state = game.deal(options, [f"P{n}" for n in range(1, players + 1)], seed)
    chooser = random.Random(seed)
    taken = 0
    for taken in range(STEPS):
        if game.is_over(state):
            break
        legal = game.legal_actions(state)
        assert legal, f"{entry}={reading}: no legal action in a game that is not over"
        state = game.apply(state, chooser.choice(legal)).state
        assert list(game.problems(state)) == [], (entry, reading, taken)
    assert taken > 0
