"""The scratch table: a mutable copy of a state, private to one call of ``apply``.

This is mechanics only: copying a state onto a table, recording events, a seeded random
generator, taking cards from a hand, counting who is present, clearing what belongs to one deal,
and freezing the table into the next state. What the rules do with the cards on it (drawing,
rebuilding the talon, the draws for an ace, turning the pile away) is in
:mod:`regelverk.vandatta.talon` and the other rule topics, as functions of a table.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from regelverk.cards import Card, Suit
from regelverk.engine import Event
from regelverk.records import builder, positional
from regelverk.vandatta.options import VandattaOptions
from regelverk.vandatta.state import PenaltySet, Phase, Record, Restart, State

__all__ = ["Table"]

RESTART_NONE = Restart.NONE

_STATE = positional(State)
"""Builds a :class:`State` from every field's value, in declaration order."""
_EVENT = builder(Event)
"""Builds an :class:`~regelverk.engine.Event` from kind, text, clauses, player and cards."""


@dataclass(slots=True)
class Table:
    """A mutable scratch copy of a state, private to one call of ``apply``.

    It is built from a frozen state, changed step by step while the action is carried out, and
    frozen into a new state by :meth:`freeze`; no table ever escapes ``apply``.
    """

    base: State
    options: VandattaOptions
    players: tuple[str, ...]
    hands: list[tuple[Card, ...]]
    penalties: list[tuple[PenaltySet, ...]]
    stock: list[Card]
    pile: list[Card]
    turned: list[Card]
    record: Record
    away: frozenset[int]
    benched: frozenset[int]
    joining: frozenset[int]
    short_deal: bool
    early: tuple[Card, ...]
    phase: Phase
    deal_number: int
    dealer: int | None
    named_suit: Suit | None
    turn: int
    draws: int
    restart: Restart
    free_lead: bool
    calls: frozenset[int]
    false_calls: frozenset[int]
    vetoed: frozenset[int]
    previous: int | None
    talon_passes: int
    shuffles: int
    idle: int
    active_at_start: int
    winner: int | None
    loser: int | None
    events: list[Event] = field(default_factory=list)
    drawn_deal: bool = False
    vetoable: tuple[int, tuple[Card, ...]] | None = None
    may_veto: frozenset[int] = frozenset()

    @classmethod
    def of(cls, state: State) -> Table:
        """A scratch copy of ``state``: every field stored in turn on a new table (quicker than
        passing them all to the constructor), the zones as lists, no events yet."""
        table = object.__new__(cls)
        table.base = state
        table.options = state.options
        table.players = state.players
        table.hands = list(state.hands)
        table.penalties = list(state.penalties)
        table.stock = list(state.stock)
        table.pile = list(state.pile)
        table.turned = list(state.turned)
        table.record = state.record
        table.away = state.away
        table.benched = state.benched
        table.joining = state.joining
        table.short_deal = state.short_deal
        table.early = state.early
        table.phase = state.phase
        table.deal_number = state.deal_number
        table.dealer = state.dealer
        table.named_suit = state.named_suit
        table.turn = state.turn
        table.draws = state.draws
        table.restart = state.restart
        table.free_lead = state.free_lead
        table.calls = state.calls
        table.false_calls = state.false_calls
        table.vetoed = state.vetoed
        table.previous = state.previous
        table.talon_passes = state.talon_passes
        table.shuffles = state.shuffles
        table.idle = state.idle
        table.active_at_start = state.active_at_start
        table.winner = state.winner
        table.loser = state.loser
        table.events = []
        table.drawn_deal = False
        table.vetoable = None
        table.may_veto = frozenset()
        return table

    def freeze(self) -> State:
        """The new frozen state (built by :data:`_STATE`, every field by position in declaration
        order: the fenced fast path of :func:`~regelverk.records.positional`)."""
        base = self.base
        return _STATE(
            self.options,
            self.players,
            base.seed,
            base.decks,
            self.phase,
            self.deal_number,
            self.dealer,
            tuple(self.hands),
            tuple(self.penalties),
            tuple(self.stock),
            tuple(self.pile),
            self.early,
            tuple(self.turned),
            self.named_suit,
            self.turn,
            self.draws,
            self.restart,
            self.free_lead,
            self.calls,
            self.false_calls,
            self.vetoed,
            self.away,
            self.benched,
            self.short_deal,
            self.joining,
            self.previous,
            self.talon_passes,
            self.shuffles,
            self.idle,
            self.active_at_start,
            self.winner,
            self.loser,
            self.record,
            self.vetoable,
            self.may_veto,
        )

    def name(self, seat: int) -> str:
        """A seat's player name."""
        return self.players[seat]

    def say(
        self,
        kind: str,
        text: str,
        clauses: tuple[str, ...],
        seat: int | None = None,
        cards: tuple[Card, ...] = (),
    ) -> None:
        """Record an event."""
        self.events.append(
            _EVENT(
                kind=kind,
                text=text,
                clauses=clauses,
                player=None if seat is None else self.players[seat],
                cards=tuple([c.code for c in cards]) if cards else (),
            )
        )

    def rng(self, purpose: str) -> random.Random:
        """A fresh random generator for one operation, seeded from the match seed."""
        self.shuffles += 1
        return random.Random(f"{self.base.seed}:{self.deal_number}:{purpose}:{self.shuffles}")

    def take_from_hand(self, seat: int, cards: tuple[Card, ...]) -> None:
        """Remove cards (a multiset) from a hand; the caller has checked they are there."""
        hand = list(self.hands[seat])
        for card in cards:
            hand.remove(card)
        self.hands[seat] = tuple(hand)

    def active(self) -> int:
        """Players taking part and present."""
        if not self.away and not self.benched and not self.record.out:
            return len(self.players)
        return sum(
            1
            for s in range(len(self.players))
            if s not in self.record.out and s not in self.away and s not in self.benched
        )

    def new_deal_fields(self) -> None:
        """Reset what belongs to one deal."""
        self.named_suit = None
        self.draws = 0
        self.restart = RESTART_NONE
        self.free_lead = False
        self.calls = frozenset()
        self.false_calls = frozenset()
        self.vetoed = frozenset()
        self.previous = None
        self.talon_passes = 0
        self.idle = 0
        self.winner = None
        self.loser = None
        self.drawn_deal = False
        self.short_deal = False
