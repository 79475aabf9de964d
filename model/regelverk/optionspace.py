"""The space of option combinations of every game family, and covering arrays over it.

An options object (:class:`~regelverk.vandatta.options.VandattaOptions`,
:class:`~regelverk.viggo.options.ViggoOptions`, :class:`~regelverk.uno.options.UnoOptions`) has
one field per house rule or reading. :func:`domains` gives every field the values the checks
try:

* a reading (an enum field): every member;
* a switch (a bool field): both values;
* any other field (counts, limits, optional counts, words): the small set stated in
  :data:`NUMERIC_DOMAINS`, with the boundary values the rules care about.

In each domain the preset's own value comes first, so row ``0`` of everything below is the
preset. :func:`covering_array` builds, deterministically, a list of combinations in which every
pair (strength 2) or every triple (strength 3) of values of any two or three fields appears in
at least one row: a greedy in-parameter-order construction (IPOG), written here without
dependencies. :func:`combinations` gives the rows as options overrides, and :func:`build` turns
one into an options object through :func:`~regelverk.engine.with_options`, so that a
combination the rules cannot serve is refused there, with its reason.

>>> covering_array((2, 2, 2), 2)
[(0, 0, 0), (0, 1, 1), (1, 0, 1), (1, 1, 0)]
>>> len(covering_array((3, 3, 3, 3), 3)) >= 27
True
"""

from __future__ import annotations

import dataclasses
import enum
import itertools
from collections.abc import Iterator, Mapping, Sequence
from functools import cache
from typing import Any

from regelverk.engine import with_options

__all__ = [
    "NUMERIC_DOMAINS",
    "build",
    "combinations",
    "covered",
    "covering_array",
    "domains",
    "missing_tuples",
]

NUMERIC_DOMAINS: dict[tuple[str, str], tuple[Any, ...]] = {
    # Vändåtta (VandattaOptions)
    ("VandattaOptions", "max_players"): (6, 14),
    ("VandattaOptions", "coffee_break_max_players"): (None, 5, 3),
    ("VandattaOptions", "hand_size"): (7, 1, 2),
    ("VandattaOptions", "max_draws"): (3, 1),
    ("VandattaOptions", "varning_cards"): (None, 2, 3, 4),
    ("VandattaOptions", "penalty_cards"): (3, 0, 1),
    ("VandattaOptions", "min_active_for_result"): (0, 3),
    ("VandattaOptions", "score_limit"): (100, 1, 20),
    ("VandattaOptions", "agreed_calls"): ((), ("sista",)),
    ("VandattaOptions", "stalling_limit_seconds"): (120, 1),
    # Viggo (ViggoOptions)
    ("ViggoOptions", "loss_points"): (53, 1, 10),
    # UNO (UnoOptions)
    ("UnoOptions", "deck"): (108, 112),
    ("UnoOptions", "target_score"): (500, 1, 50),
}
"""The values tried for each field that is neither a reading nor a switch, by options type and
field; the preset's own value is always tried as well (first).

Vändåtta: ``max_players`` 6 (vandatta's deck, VA-SETUP-DECK-AND-PLAYERS) and 14 (what two decks
serve, V8-SETUP-FREE-TIME-PLAYER-LIMIT, the largest allowed); ``coffee_break_max_players`` no cap,
the text's five (V8-SETUP-COFFEE-BREAK-MAX-FIVE) and three, the fewest an official result needs;
``hand_size`` the texts' seven and the smallest hands, one card (the first play may be the last
card, which may be no ace or eight) and two; ``max_draws`` the texts' three and one, the
smallest; ``varning_cards`` every value allowed (none, 2, 3, 4; VA-CALL-VARNING-AGREED-COUNT);
``penalty_cards`` the texts' three, none at all (the boundary) and one; ``min_active_for_result``
none and vvv8's three (V8-LOSS-OFFICIAL-NEEDS-THREE); ``score_limit`` the text's hundred
(VA-SCORING-GAME-WINNER), one (the first points scored reach it) and twenty (a short match that
still sees several deals); ``agreed_calls`` none and one agreed word (V8-CALL-ALTERNATIVE-WORDS);
``stalling_limit_seconds`` the default two minutes and one second, the shortest limit a table
can set (V8-AMB-STALLING-LIMIT; no play moves with time, so only a stall's ruling sees it).

Viggo: ``loss_points`` the text's 53 (VG-LOSS-FIRST-TO-53), one (the first round's points
decide) and ten (a match of a few rounds, ending exactly at or past the limit).

UNO: ``deck`` both packs (UNO-DECK-108, UNO-DECK-112); ``target_score`` the official 500
(UNO-WIN-GAME-500), one (the first hand won ends the game) and fifty (a few hands)."""


def _field_domain(options: object, field: dataclasses.Field[Any]) -> tuple[Any, ...]:
    """The values tried for one field of ``options``, its own value first."""
    current = getattr(options, field.name)
    if isinstance(current, bool):
        return (current, not current)
    if isinstance(current, enum.Enum):
        return (current, *(m for m in type(current) if m is not current))
    stated = NUMERIC_DOMAINS.get((type(options).__name__, field.name))
    if stated is None:
        raise KeyError(
            f"{type(options).__name__}.{field.name} is neither a reading nor a switch and has no "
            "stated values in regelverk.optionspace.NUMERIC_DOMAINS"
        )
    return (current, *(v for v in stated if v != current))


def domains(options: object) -> dict[str, tuple[Any, ...]]:
    """Every field of an options object with the values tried for it, its own value first.

    >>> from regelverk.viggo.options import ViggoOptions
    >>> domains(ViggoOptions())["loss_points"]
    (53, 1, 10)
    >>> domains(ViggoOptions())["club_four_starts"]
    (False, True)
    """
    if not dataclasses.is_dataclass(options) or isinstance(options, type):
        raise TypeError(f"{options!r} is not an options object")
    return {f.name: _field_domain(options, f) for f in dataclasses.fields(options)}


# --- covering arrays ---------------------------------------------------------------------------


class _Step:
    """The t-tuples that add factor ``new`` to each (t-1)-subset of the earlier factors.

    Each subset ``j`` owns a block of cells, one per combination of its values (mixed radix);
    ``open[v]`` holds one byte per cell, 1 while the tuple with value ``v`` of the new factor is
    uncovered. A cell past the last block (always 0) stands for a row that has no value yet on
    one of the subset's factors."""

    def __init__(self, sizes: Sequence[int], order: Sequence[int], new: int, strength: int):
        self.subsets = list(itertools.combinations(order[:new], strength - 1))
        self.offsets: list[int] = []
        total = 0
        for subset in self.subsets:
            self.offsets.append(total)
            width = 1
            for factor in subset:
                width *= sizes[factor]
            total += width
        self.dummy = total
        self.sizes = sizes
        self.factor = order[new]
        self.open = [bytearray([1]) * total + b"\0" for _ in range(sizes[self.factor])]
        self.left = total * sizes[self.factor]

    def cells(self, row: Sequence[int | None]) -> list[int]:
        """The cell of each subset that ``row`` covers (the dummy cell where it has a gap)."""
        found = []
        sizes = self.sizes
        for offset, subset in zip(self.offsets, self.subsets, strict=True):
            code = 0
            for factor in subset:
                value = row[factor]
                if value is None:
                    code = -1
                    break
                code = code * sizes[factor] + value
            found.append(self.dummy if code < 0 else offset + code)
        return found

    def close(self, value: int, cells: Sequence[int]) -> None:
        """Mark the tuples of ``cells`` with ``value`` of the new factor covered."""
        table = self.open[value]
        for cell in cells:
            if table[cell]:
                table[cell] = 0
                self.left -= 1

    def uncovered(self) -> Iterator[tuple[int, int, int]]:
        """Each uncovered tuple as (subset index, cell code within it, value of the new factor)."""
        for value, table in enumerate(self.open):
            start = 0
            while True:
                cell = table.find(1, start)
                if cell < 0:
                    break
                start = cell + 1
                index = _block(self.offsets, cell)
                yield index, cell - self.offsets[index], value

    def decode(self, index: int, code: int) -> list[tuple[int, int]]:
        """The (factor, value) pairs of one subset's cell."""
        pairs = []
        for factor in reversed(self.subsets[index]):
            code, value = divmod(code, self.sizes[factor])
            pairs.append((factor, value))
        return pairs


def _block(offsets: Sequence[int], cell: int) -> int:
    """The index of the block holding ``cell`` (binary search over the block offsets)."""
    low, high = 0, len(offsets) - 1
    while low < high:
        middle = (low + high + 1) // 2
        if offsets[middle] <= cell:
            low = middle
        else:
            high = middle - 1
    return low


def _grow_across(step: _Step, rows: list[list[int | None]]) -> None:
    """Horizontal growth: give each row the value of the new factor covering most open tuples
    (ties to the smaller value)."""
    factor = step.factor
    for row in rows:
        if row[factor] is not None:
            continue
        cells = step.cells(row)
        best, gain = 0, -1
        for value, table in enumerate(step.open):
            here = sum(map(table.__getitem__, cells))
            if here > gain:
                best, gain = value, here
        row[factor] = best
        step.close(best, cells)
        if step.left == 0:
            return


def _fits(row: Sequence[int | None], wanted: Sequence[tuple[int, int]]) -> bool:
    """Whether ``row`` has each wanted value, or no value yet, at each wanted factor."""
    return all(row[factor] is None or row[factor] == value for factor, value in wanted)


def _grow_down(step: _Step, rows: list[list[int | None]], width: int) -> None:
    """Vertical growth: put each tuple still open into the first row with room for it (filling
    gaps), else into a new row of gaps."""
    for index, code, value in list(step.uncovered()):
        if not step.open[value][step.offsets[index] + code]:
            continue
        wanted = [*step.decode(index, code), (step.factor, value)]
        target = next((row for row in rows if _fits(row, wanted)), None)
        if target is None:
            target = [None] * width
            rows.append(target)
        for factor, given in wanted:
            target[factor] = given
        step.close(value, step.cells(target))


@cache
def covering_array(sizes: tuple[int, ...], strength: int) -> list[tuple[int, ...]]:
    """Rows of value indices (``0 <= row[i] < sizes[i]``) covering every ``strength``-tuple.

    Deterministic: the same sizes give the same rows. Factors are taken largest domain first
    (in-parameter order); the first ``strength`` of them start as their full product, each
    further factor is added to every row greedily and then covered by new rows as needed. Gaps
    left at the end take value 0 (the preset's value in :func:`combinations`). A strength at
    least the number of factors gives the full product.
    """
    if any(size < 1 for size in sizes) or strength < 1:
        raise ValueError(f"sizes must be positive and strength at least 1, not {sizes}, {strength}")
    width = len(sizes)
    order = sorted(range(width), key=lambda factor: (-sizes[factor], factor))
    start = order[: min(strength, width)]
    rows: list[list[int | None]] = []
    for values in itertools.product(*(range(sizes[f]) for f in start)):
        row: list[int | None] = [None] * width
        for factor, value in zip(start, values, strict=True):
            row[factor] = value
        rows.append(row)
    for new in range(len(start), width):
        step = _Step(sizes, order, new, strength)
        _grow_across(step, rows)
        _grow_down(step, rows, width)
    return [tuple(0 if v is None else v for v in row) for row in rows]


def missing_tuples(
    sizes: Sequence[int], strength: int, rows: Sequence[Sequence[int]]
) -> Iterator[tuple[tuple[int, int], ...]]:
    """Every ``strength``-tuple of (factor, value) pairs that no row holds (exhaustive)."""
    for factors in itertools.combinations(range(len(sizes)), min(strength, len(sizes))):
        seen = {tuple(row[f] for f in factors) for row in rows}
        for values in itertools.product(*(range(sizes[f]) for f in factors)):
            if values not in seen:
                yield tuple(zip(factors, values, strict=True))


def covered(sizes: Sequence[int], strength: int, rows: Sequence[Sequence[int]]) -> bool:
    """Whether ``rows`` hold every ``strength``-tuple of values of ``sizes``."""
    return next(iter(missing_tuples(sizes, strength, rows)), None) is None


# --- combinations of an options object ---------------------------------------------------------


def _plain(value: Any) -> Any:
    """A value as :func:`~regelverk.engine.with_options` takes it (a reading by its name)."""
    return value.value if isinstance(value, enum.Enum) else value


def combinations(options: object, strength: int) -> list[dict[str, Any]]:
    """The rows of the strength-``strength`` covering array over :func:`domains` of
    ``options``, each as the overrides that differ from ``options`` (row 0 is ``{}``)."""
    table = domains(options)
    names = list(table)
    rows = covering_array(tuple(len(table[n]) for n in names), strength)
    return [
        {name: _plain(table[name][index]) for name, index in zip(names, row, strict=True) if index}
        for row in rows
    ]


def build(options: Any, overrides: Mapping[str, Any]) -> Any:
    """``options`` with ``overrides``: :class:`~regelverk.engine.OptionError` says in one line
    which options the rules cannot serve together, and why."""
    return with_options(options, overrides)
