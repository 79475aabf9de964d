"""The option space: every field of every family has a domain, and the covering arrays built
over those domains really hold every pair or triple of values (checked exhaustively)."""

from __future__ import annotations

import dataclasses
import enum

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regelverk.books import RULEBOOKS
from regelverk.games import game_for
from regelverk.optionspace import (
    NUMERIC_DOMAINS,
    build,
    combinations,
    covered,
    covering_array,
    domains,
    missing_tuples,
)


@settings(max_examples=150, deadline=None)
@given(
    sizes=st.lists(st.integers(min_value=1, max_value=4), min_size=1, max_size=7).map(tuple),
    strength=st.integers(min_value=1, max_value=3),
)
def test_a_covering_array_holds_every_tuple_of_its_strength(
    sizes: tuple[int, ...], strength: int
) -> None:
    rows = covering_array(sizes, strength)
    assert all(len(row) == len(sizes) for row in rows)
    assert all(0 <= v < size for row in rows for v, size in zip(row, sizes, strict=True))
    assert list(missing_tuples(sizes, strength, rows)) == []
    assert covering_array(sizes, strength) == rows  # deterministic


def test_missing_tuples_finds_a_tuple_no_row_holds() -> None:
    rows = [(0, 0, 0), (1, 1, 1)]
    assert not covered((2, 2, 2), 2, rows)
    assert ((0, 0), (1, 1)) in set(missing_tuples((2, 2, 2), 2, rows))
    assert covered((2, 2, 2), 1, rows)


def test_a_covering_array_is_smaller_than_the_product() -> None:
    rows = covering_array((3,) * 10, 2)
    assert covered((3,) * 10, 2, rows)
    assert 9 <= len(rows) <= 20 < 3**10


@pytest.mark.parametrize("rulebook", RULEBOOKS)
def test_every_option_has_a_domain_with_the_presets_value_first(rulebook: str) -> None:
    preset = game_for(rulebook).options(rulebook)
    table = domains(preset)
    assert list(table) == [f.name for f in dataclasses.fields(preset)]
    for name, values in table.items():
        current = getattr(preset, name)
        assert values[0] == current
        assert len(set(values)) == len(values) >= 2, name
        if isinstance(current, enum.Enum):
            assert set(values) == set(type(current))
        elif isinstance(current, bool):
            assert set(values) == {True, False}
        else:
            assert set(NUMERIC_DOMAINS[type(preset).__name__, name]) <= set(values)


@pytest.mark.parametrize("rulebook", RULEBOOKS)
def test_every_value_in_a_domain_is_accepted_alone(rulebook: str) -> None:
    preset = game_for(rulebook).options(rulebook)
    for name, values in domains(preset).items():
        for value in values:
            plain = value.value if isinstance(value, enum.Enum) else value
            assert getattr(build(preset, {name: plain}), name) == value


@pytest.mark.parametrize("rulebook", RULEBOOKS)
def test_the_pairwise_rows_of_a_family_cover_every_pair(rulebook: str) -> None:
    preset = game_for(rulebook).options(rulebook)
    table = domains(preset)
    sizes = tuple(len(v) for v in table.values())
    rows = covering_array(sizes, 2)
    assert covered(sizes, 2, rows)
    overrides = combinations(preset, 2)
    assert overrides[0] == {} and len(overrides) == len(rows)
    print(f"{rulebook}: {len(sizes)} options, pairwise array of {len(rows)} rows")


@pytest.mark.parametrize("rulebook", ["viggo", "uno"])
def test_the_triple_rows_of_the_smaller_families_cover_every_triple(rulebook: str) -> None:
    preset = game_for(rulebook).options(rulebook)
    sizes = tuple(len(v) for v in domains(preset).values())
    rows = covering_array(sizes, 3)
    assert covered(sizes, 3, rows)
    print(f"{rulebook}: {len(sizes)} options, strength-3 array of {len(rows)} rows")
