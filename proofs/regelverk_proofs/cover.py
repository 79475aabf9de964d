"""Covering arrays of option values for the bindings: every pair of values in a few rows.

A binding whose rules depend on many options cannot play every combination (Viggo has over
twenty options, most with two or three readings). It can play a set of option sets in which
every pair of values of two different options appears together at least once: a mistake that
shows only when two readings meet is then met. :func:`pairwise` builds such a set greedily and
deterministically; a pair that no valid option set can hold (the options' own validation
refuses every set with it) is reported, not silently dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Generic, TypeVar

__all__ = ["Cover", "pairwise"]

T = TypeVar("T")

Pair = tuple[tuple[int, int], tuple[int, int]]
"""Two (option index, value index) entries, the lower option first."""


@dataclass(frozen=True, slots=True)
class Cover(Generic[T]):
    """Option sets covering every pair of values, and the pairs no valid set can hold."""

    rows: tuple[T, ...]
    pairs: int
    """Pairs of values of two different options there are."""
    impossible: tuple[str, ...]
    """Pairs that every option set holding them is refused (named ``a=x, b=y``)."""


def _pairs(sizes: Sequence[int]) -> set[Pair]:
    return {
        ((a, x), (b, y))
        for a, b in combinations(range(len(sizes)), 2)
        for x in range(sizes[a])
        for y in range(sizes[b])
    }


def _gain(row: Mapping[int, int], option: int, value: int, open_pairs: set[Pair]) -> int:
    """How many open pairs choosing ``value`` for ``option`` covers beside ``row``."""
    gained = 0
    for other, chosen in row.items():
        a, b = sorted(((option, value), (other, chosen)))
        if (a, b) in open_pairs:
            gained += 1
    return gained


def _row_for(seed: Pair, sizes: Sequence[int], open_pairs: set[Pair]) -> dict[int, int]:
    """A row holding ``seed``, each other option's value chosen to cover most open pairs (the
    first value on a tie)."""
    (a, x), (b, y) = seed
    row = {a: x, b: y}
    for option in range(len(sizes)):
        if option in row:
            continue
        row[option] = max(
            range(sizes[option]), key=lambda v: (_gain(row, option, v, open_pairs), -v)
        )
    return row


def pairwise(
    values: Sequence[tuple[str, Sequence[object]]],
    build: Callable[[dict[str, object]], T],
) -> Cover[T]:
    """Option sets in which every pair of values of two different options of ``values`` (name,
    its values; the first value the default) appears. ``build`` makes an option set from a
    mapping of names to values and raises ``ValueError`` for a combination the options
    refuse; a refused row is retried with the other options at their defaults, and a pair
    refused even then is reported in :attr:`Cover.impossible`."""
    sizes = [len(v) for _, v in values]
    all_pairs = _pairs(sizes)
    open_pairs = set(all_pairs)
    rows: list[T] = []
    impossible: list[str] = []

    def made(row: Mapping[int, int]) -> T | None:
        try:
            return build({values[i][0]: values[i][1][v] for i, v in row.items()})
        except ValueError:
            return None

    while open_pairs:
        seed = min(open_pairs)
        row = _row_for(seed, sizes, open_pairs)
        built = made(row)
        if built is None:
            (a, x), (b, y) = seed
            row = dict.fromkeys(range(len(sizes)), 0) | {a: x, b: y}
            built = made(row)
        if built is None:
            (a, x), (b, y) = seed
            impossible.append(f"{values[a][0]}={values[a][1][x]}, {values[b][0]}={values[b][1][y]}")
            open_pairs.discard(seed)
            continue
        rows.append(built)
        for a, b in combinations(sorted(row), 2):
            open_pairs.discard(((a, row[a]), (b, row[b])))
    return Cover(rows=tuple(rows), pairs=len(all_pairs), impossible=tuple(impossible))
