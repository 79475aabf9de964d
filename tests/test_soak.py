"""Every option value of every family is played by random legal moves with every invariant
checked after every step: a short sample of ``bench/soak.py`` (which plays more seeds, more
player counts and longer games)."""

from __future__ import annotations

import dataclasses
import enum
import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from regelverk.engine import OptionError, with_options
from regelverk.games import game_for
from regelverk.registry import RULEBOOKS


def _soak() -> ModuleType:
    path = Path(__file__).resolve().parent.parent / "bench" / "soak.py"
    spec = importlib.util.spec_from_file_location("soak", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SOAK = _soak()


@pytest.mark.parametrize("rulebook", RULEBOOKS)
def test_the_soak_reaches_every_value_of_every_option(rulebook: str) -> None:
    preset = game_for(rulebook).options(rulebook)
    named = {name for name, _ in SOAK.settings(rulebook)}
    for field in dataclasses.fields(preset):
        current = getattr(preset, field.name)
        if isinstance(current, enum.Enum):
            for value in type(current):
                assert value is current or f"{field.name}={value.value}" in named
        elif isinstance(current, bool):
            assert f"{field.name}={not current}" in named


@pytest.mark.clause(
    "VA-EIGHT-TURNS-PILE", "V8-PEN-VETO-RIGHT", "UNO-PLAY-MATCH", "VG-PLAY-PASS-NOT-FINAL"
)
@pytest.mark.parametrize("rulebook", RULEBOOKS)
def test_every_option_value_plays_without_breaking_an_invariant(rulebook: str) -> None:
    preset = game_for(rulebook).options(rulebook)
    played, refused = 0, list[str]()
    for name, overrides in SOAK.settings(rulebook):
        try:
            options = with_options(preset, overrides)
        except OptionError as error:
            refused.append(str(error))
            continue
        players = SOAK.SMALLEST[rulebook] + played % 2
        taken, problems = SOAK.play_one(rulebook, options, players, seed=played, steps=250)
        assert taken > 0, name
        assert problems == [], (name, problems)
        played += 1
    assert played > 0
    assert refused == [], refused
