"""Hypothesis strategies shared by the state machines: whole options objects.

:func:`whole_options` draws every field of a rulebook's options at once, each from its domain in
:mod:`regelverk.optionspace` (every reading, both switch values, the stated counts and limits),
shrinking towards the preset (the first value of every domain). A drawn combination the options
type refuses (:class:`~regelverk.engine.OptionError`) is settled by construction, never by a
filter that may starve: the refused fields go back to the preset's values one at a time, in
field order, until the options are accepted (the preset always is); :func:`settled` counts how
often that happened. :func:`option_sets` (a few fields changed) and :func:`playable` (every value
the engine accepts alone) remain for the tests that vary a few options by name.
"""

from __future__ import annotations

import dataclasses
import enum
from collections import Counter
from functools import cache
from typing import Any

from hypothesis import strategies as st

from regelverk.engine import OptionError, with_options
from regelverk.games import game_for
from regelverk.optionspace import domains

__all__ = ["SETTLED", "option_sets", "playable", "refused", "settle", "whole_options"]

SETTLED: Counter[str] = Counter()
"""How often each rulebook's drawn options needed settling back towards the preset."""


def settle(rulebook: str, values: dict[str, Any]) -> Any:
    """The options of ``rulebook`` with every field of ``values``; where the combination is
    refused, the changed fields go back to the preset's values one by one until it is not."""
    preset = game_for(rulebook).options(rulebook)
    changes = {name: value for name, value in values.items() if value != getattr(preset, name)}
    while True:
        try:
            return with_options(preset, changes)
        except OptionError:
            SETTLED[rulebook] += 1
            changes.pop(next(iter(changes)))


def whole_options(rulebook: str) -> st.SearchStrategy[Any]:
    """An options object of ``rulebook`` with every field drawn from its domain."""
    table = domains(game_for(rulebook).options(rulebook))
    fields = {name: st.sampled_from(values) for name, values in table.items()}
    return st.fixed_dictionaries(fields).map(lambda values: settle(rulebook, values))


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


def option_sets(rulebook: str, most: int = 4) -> st.SearchStrategy[dict[str, Any]]:
    """Changes to ``rulebook``'s preset: up to ``most`` fields, each set to a value the engine
    plays alone; a combination the engine refuses is settled as :func:`settle` does."""
    table = playable(rulebook)
    if not table:  # an options type with no reading or switch yet: the preset alone
        return st.just({})
    change = st.sampled_from(sorted(table)).flatmap(
        lambda name: st.tuples(st.just(name), st.sampled_from(table[name]))
    )
    return (
        st.lists(change, max_size=most, unique_by=lambda pair: pair[0])
        .map(dict)
        .map(lambda changes: _settled_changes(rulebook, changes))
    )


def _settled_changes(rulebook: str, changes: dict[str, Any]) -> dict[str, Any]:
    """``changes`` less the ones :func:`settle` had to take back."""
    options = settle(rulebook, changes)
    kept = {}
    for name, value in changes.items():
        current = getattr(options, name)
        if (current.value if isinstance(current, enum.Enum) else current) == value:
            kept[name] = value
    return kept
