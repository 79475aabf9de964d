"""Hypothesis strategies shared by the state machines: option sets that reach every value of
every option a rulebook's engine plays.

:func:`playable` lists, for each option field of a rulebook's preset, every value the engine
accepts when it is the only change (``tests/test_strategies.py`` checks that this is every
value); :func:`option_sets` draws a preset and changes a few of its fields to playable values,
keeping only combinations the engine accepts.
"""

from __future__ import annotations

import dataclasses
import enum
from functools import cache
from typing import Any

from hypothesis import strategies as st

from regelverk.engine import OptionError, with_options
from regelverk.games import game_for

__all__ = ["option_sets", "playable", "refused"]


def _values(current: object) -> list[Any]:
    if isinstance(current, bool):
        return [True, False]
    if isinstance(current, enum.Enum):
        return [member.value for member in type(current)]
    return []


@cache
def _split(rulebook: str) -> tuple[dict[str, tuple[Any, ...]], dict[str, str]]:
    preset = game_for(rulebook).options(rulebook)
    accepted: dict[str, tuple[Any, ...]] = {}
    refusals: dict[str, str] = {}
    for field in dataclasses.fields(preset):
        good = []
        for value in _values(getattr(preset, field.name)):
            try:
                with_options(preset, {field.name: value})
            except OptionError as error:
                refusals[f"{field.name}={value}"] = str(error)
            else:
                good.append(value)
        if good:
            accepted[field.name] = tuple(good)
    return accepted, refusals


def playable(rulebook: str) -> dict[str, tuple[Any, ...]]:
    """Each enum or switch option of ``rulebook``'s preset with every value its engine plays."""
    return _split(rulebook)[0]


def refused(rulebook: str) -> dict[str, str]:
    """Each ``field=value`` the engine refuses as a single change, with its reason."""
    return _split(rulebook)[1]


def _accepted(rulebook: str, changes: dict[str, Any]) -> bool:
    try:
        with_options(game_for(rulebook).options(rulebook), changes)
    except OptionError:
        return False
    return True


def option_sets(rulebook: str, most: int = 4) -> st.SearchStrategy[dict[str, Any]]:
    """Changes to ``rulebook``'s preset: up to ``most`` fields, each set to a value the engine
    plays; every playable value of every field can be drawn."""
    table = playable(rulebook)
    change = st.sampled_from(sorted(table)).flatmap(
        lambda name: st.tuples(st.just(name), st.sampled_from(table[name]))
    )
    return (
        st.lists(change, max_size=most, unique_by=lambda pair: pair[0])
        .map(dict)
        .filter(lambda changes: _accepted(rulebook, changes))
    )
