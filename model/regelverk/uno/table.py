"""The scratch record of one action: a mutable copy of a state, private to one call.

:func:`table_of` copies a state onto a :class:`Table`, which lives only inside one call of
:func:`regelverk.uno.actions._apply_unchecked` and is frozen into a new :class:`UnoState` at the
end: the state passed in is never changed. The record holds the state's own tuples and replaces
(never changes) those an action touches, so an action copies only what it changes. This module
is mechanics only: the record, recording events, the game's seeded shuffles and the shuffle
itself; what the rules do with the cards is in :mod:`regelverk.uno.actions`.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterator, Sequence
from typing import TypeVar

from regelverk.cards import Colour, UnoCard
from regelverk.engine import Event
from regelverk.records import builder, positional
from regelverk.uno.options import (
    UnoOptions,
)
from regelverk.uno.rules import (
    Readings,
    card_code,
    readings,
)
from regelverk.uno.state import (
    Direction,
    Phase,
    UnoState,
    WildDrawFour,
)

__all__ = ["Table", "build_event", "game_rng", "shuffle", "table_of", "taken"]


def game_rng(seed: int, number: int) -> random.Random:
    """The generator of the game's shuffle number ``number`` (no global random state)."""
    return random.Random(f"uno/{seed}/{number}")


_T = TypeVar("_T")


def _walk(rng: random.Random, cards: list[_T]) -> Iterator[int]:
    """Shuffle ``cards`` in place exactly as ``rng.shuffle(cards)`` does, yielding each place as
    the walk settles it: the same Fisher-Yates walk from the last place down, each place's
    partner drawn by the same rejection sampling of ``rng.getrandbits`` that
    :class:`random.Random` uses, written out here so that a deal does not pay a method call per
    card (the tests hold the two equal)."""
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        size = i + 1
        bits = size.bit_length()
        j = getrandbits(bits)
        while j >= size:
            j = getrandbits(bits)
        cards[i], cards[j] = cards[j], cards[i]
        yield i


def shuffle(rng: random.Random, cards: list[_T]) -> None:
    """Shuffle ``cards`` in place exactly as ``rng.shuffle(cards)`` does: :func:`_walk`'s walk
    taken in one go, the generator run out in C (the tests hold the two equal to
    :meth:`random.Random.shuffle`)."""
    deque(_walk(rng, cards), maxlen=0)


def taken(rng: random.Random, deck: Sequence[_T]) -> Iterator[_T]:
    """The cards of ``deck`` in the order ``pack.pop()`` takes them after ``shuffle(rng, pack)``,
    each place shuffled only as its card is taken: the last place of the walk is settled by its
    first step, and no later step moves it. Taking every card draws the same bits, in the same
    order, as the whole shuffle."""
    pack = list(deck)
    for i in _walk(rng, pack):
        yield pack[i]
    if pack:
        yield pack[0]


build_event = builder(Event)
"""A new :class:`~regelverk.engine.Event` from its fields in declaration order (the table's
events and the actions' own)."""
_build_state = positional(UnoState)
"""A new :class:`UnoState` from its fields in declaration order (see :mod:`regelverk.records`)."""


class Table:
    """A scratch record of a state for the length of one action (see the module docstring).

    ``hands`` is a list of the hands' tuples; ``pile`` is the draw pile's tuple (its first card
    drawn next); ``discard`` the discard pile's tuple. Changes replace a tuple, never alter it.
    """

    __slots__ = (
        "after",
        "colour",
        "dealer",
        "direction",
        "discard",
        "drawn",
        "events",
        "exposed",
        "hand_number",
        "hands",
        "n",
        "options",
        "pending_draw",
        "phase",
        "pile",
        "players",
        "results",
        "rules",
        "scores",
        "seed",
        "shuffles",
        "turn",
        "wd4",
        "winners",
    )

    options: UnoOptions
    rules: Readings
    players: tuple[str, ...]
    n: int
    dealer: int
    hands: list[tuple[UnoCard, ...]]
    pile: tuple[UnoCard, ...]
    discard: tuple[UnoCard, ...]
    colour: Colour | None
    turn: int
    direction: Direction
    phase: Phase
    after: int | None
    pending_draw: int
    drawn: UnoCard | None
    wd4: WildDrawFour | None
    exposed: int | None
    scores: tuple[int, ...]
    results: tuple[tuple[int, ...], ...]
    winners: tuple[int, ...]
    hand_number: int
    seed: int
    shuffles: int
    events: list[Event]

    def freeze(self) -> UnoState:
        return _build_state(
            self.options,
            self.players,
            self.dealer,
            tuple(self.hands),
            self.pile,
            self.discard,
            self.colour,
            self.turn,
            self.direction,
            self.phase,
            self.after,
            self.pending_draw,
            self.drawn,
            self.wd4,
            self.exposed,
            self.scores,
            self.results,
            self.winners,
            self.hand_number,
            self.seed,
            self.shuffles,
        )

    def rng(self) -> random.Random:
        """The generator of the next shuffle."""
        self.shuffles += 1
        return game_rng(self.seed, self.shuffles)

    def name(self, seat: int) -> str:
        return self.players[seat]

    def say(
        self,
        kind: str,
        text: str,
        clauses: Sequence[str],
        player: int | None = None,
        cards: Sequence[UnoCard] = (),
    ) -> None:
        """Record an event; ``clauses`` may name a clause twice (the event names it once)."""
        self.events.append(
            build_event(
                kind=kind,
                text=text,
                clauses=tuple(dict.fromkeys(clauses)) if len(clauses) > 1 else tuple(clauses),
                player=None if player is None else self.players[player],
                cards=tuple(map(card_code, cards)) if cards else (),
            )
        )


def table_of(state: UnoState) -> Table:
    """A new scratch record of ``state``. Filled by this function rather than an ``__init__``:
    in Python 3.11 calling a class whose ``__init__`` is written in Python costs about as much
    again as calling a function."""
    t = _new_table(Table)
    t.options = state.options
    t.rules = readings(t.options)
    t.players = state.players
    t.n = len(state.players)
    t.dealer = state.dealer
    t.hands = list(state.hands)
    t.pile = state.draw_pile
    t.discard = state.discard
    t.colour = state.colour
    t.turn = state.turn
    t.direction = state.direction
    t.phase = state.phase
    t.after = state.after
    t.pending_draw = state.pending_draw
    t.drawn = state.drawn
    t.wd4 = state.wild_draw_four
    t.exposed = state.exposed
    t.scores = state.scores
    t.results = state.results
    t.winners = state.winners
    t.hand_number = state.hand_number
    t.seed = state.seed
    t.shuffles = state.shuffles
    t.events = []
    return t


_new_table = Table.__new__
"""An empty :class:`Table` (:func:`table_of` fills it): ``object.__new__`` itself, asked of the
class so that a compiled build, where ``Table`` may be an extension type, gets its own."""
