"""The state of a Vändåtta match, and the actions a player takes.

Seats are numbered clockwise from 0: the player on a seat's left is the next seat. The stock
(talon, mitthögen) is a tuple whose *last* card is the top; the pile is a tuple whose last card is
the card on top. Every zone is a tuple, every state is frozen and hashable.

>>> from regelverk.vandatta.state import Play
>>> from regelverk.cards import parse_cards
>>> Play(player=0, cards=parse_cards("9S"))
Play(player=0, cards=(Card.parse('9S'),), suit=None, call=False)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from regelverk.cards import Card, Suit
from regelverk.vandatta.options import VandattaOptions

__all__ = [
    "Action",
    "Deal",
    "Draw",
    "LeapDay",
    "NameSuit",
    "Pass",
    "PenaltySet",
    "Phase",
    "Play",
    "Record",
    "Restart",
    "State",
]


class Phase(enum.Enum):
    """Where the match stands."""

    READY = "ready"
    """A deal is due: the next action deals it."""
    START_SUIT = "start-suit"
    """vvv8's start eight: the dealer names the starting suit (V8-START-EIGHT-DEALER-NAMES-SUIT)."""
    PLAY = "play"
    """The deal is being played; ``turn`` is the spelförare."""
    DEAL_OVER = "deal-over"
    """The deal has ended; the next deal (or, in vvv8, the leap day) is due."""
    MATCH_OVER = "match-over"
    """The match has ended: nothing more happens."""

    def __repr__(self) -> str:
        return f"Phase.{self.name}"


class Restart(enum.Enum):
    """Whether the spelförare is playing again in the same turn, and why."""

    NONE = "none"
    """An ordinary turn."""
    ACE = "ace"
    """He laid an ace and plays again on it (V8-ACE-SAME-PLAYER-AGAIN, VA-ACE-SAME-PLAYER-AGAIN)."""
    EIGHT = "eight"
    """vandatta: he laid an eight, turned the pile, named a suit and restarts on it."""

    def __repr__(self) -> str:
        return f"Restart.{self.name}"


@dataclass(frozen=True, slots=True, kw_only=True)
class PenaltySet:
    """Face-down penalty cards in front of a player, unusable until released.

    vvv8's "Brott och straff" (V8-PEN-CARDS-FACE-DOWN-IN-FRONT) puts them here; the engine of
    this issue never creates one, but every invariant and the position format count them.
    ``release_after`` is the number of the owner's own turns that must end before the cards join
    his hand.
    """

    cards: tuple[Card, ...]
    release_after: int = 1


@dataclass(frozen=True, slots=True, kw_only=True)
class Record:
    """The match record across deals: official wins and losses (vvv8), points (vandatta)."""

    deals: int = 0
    """Deals finished (won, drawn or void)."""
    official: int = 0
    """Deals with an official winner and loser."""
    wins: tuple[int, ...] = ()
    """Official wins per seat."""
    losses: tuple[int, ...] = ()
    """Official losses per seat."""
    points: tuple[int, ...] = ()
    """Running card points per seat."""
    out: frozenset[int] = frozenset()
    """Seats that have reached the points limit and dropped out (VA-AMB-OVER-100)."""
    champions: tuple[int, ...] = ()
    """The match's winners, once it has ended."""


@dataclass(frozen=True, slots=True, kw_only=True)
class State:
    """A position of a Vändåtta match, as the referee sees it (every card visible)."""

    options: VandattaOptions
    players: tuple[str, ...]
    seed: int
    decks: int
    phase: Phase
    deal_number: int
    """Deals begun so far (1 during the first deal)."""
    dealer: int | None
    hands: tuple[tuple[Card, ...], ...]
    penalties: tuple[tuple[PenaltySet, ...], ...]
    """Each seat's face-down penalty cards (vvv8 §3), a zone of its own."""
    stock: tuple[Card, ...]
    """The face-down talon; the last card is the top."""
    pile: tuple[Card, ...]
    """The face-up pile; the last card is the one to play on."""
    turned: tuple[Card, ...] = ()
    """vandatta: piles turned away by eights, set aside (VA-EIGHT-TURNS-PILE)."""
    named_suit: Suit | None = None
    turn: int = 0
    """The spelförare (or, in START_SUIT, förhand waiting for the dealer)."""
    draws: int = 0
    """Cards the spelförare has drawn in this turn (or since his last restart)."""
    restart: Restart = Restart.NONE
    calls: frozenset[int] = frozenset()
    """Standing going-out calls: vvv8's utgång for the caller's next turn; vandatta's LAPPEN."""
    away: frozenset[int] = frozenset()
    """Seats temporarily away (vvv8's presence rules; the next issue)."""
    previous: int | None = None
    """The last spelförare before the current one."""
    talon_passes: int = 0
    """Times the talon has run out in this deal (V8-TALON-DRAWN-ONE-DECK)."""
    shuffles: int = 0
    """Random operations in this deal, so that each takes its own seed."""
    idle: int = 0
    """Consecutive turns in which nobody could lay or draw (VA-WIN-BLOCKED-DEAL-VOID)."""
    active_at_start: int = 0
    """Active players when the deal began (V8-LOSS-OFFICIAL-NEEDS-THREE)."""
    winner: int | None = None
    loser: int | None = None
    record: Record = Record()

    def seat(self, name: str) -> int:
        """The seat of a player by name; ``ValueError`` if nobody has that name."""
        return self.players.index(name)

    @property
    def top(self) -> Card | None:
        """The card to play on, if any."""
        return self.pile[-1] if self.pile else None

    @property
    def in_deal(self) -> tuple[int, ...]:
        """Seats taking part in the current deal (not dropped out of the match)."""
        return tuple(s for s in range(len(self.players)) if s not in self.record.out)


@dataclass(frozen=True, slots=True, kw_only=True)
class Deal:
    """Deal the next deal: the draw for the deal (vvv8, first deal), shuffle, cut, deal, start."""

    def __repr__(self) -> str:
        return "Deal()"


@dataclass(frozen=True, slots=True, kw_only=True)
class NameSuit:
    """vvv8: the dealer names the starting suit on a start eight (``None``: he names none)."""

    player: int
    suit: Suit | None


@dataclass(frozen=True, slots=True, kw_only=True)
class Play:
    """Lay one or more cards, bottom first; ``suit`` is named with an eight.

    ``call`` is the going-out call said with the play (vvv8's utgång, only on a play that ends
    the turn; vandatta's LAPPEN is made by the engine when due, and ``call`` may confirm it).
    """

    player: int
    cards: tuple[Card, ...]
    suit: Suit | None = None
    call: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Draw:
    """Draw one card from the stock (``call`` only where the draw ends the turn)."""

    player: int
    call: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Pass:
    """End the turn without laying a card, after the draws the rules require."""

    player: int
    call: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class LeapDay:
    """vvv8: a leap day has come; the scoring closes and the champion is named."""

    def __repr__(self) -> str:
        return "LeapDay()"


Action = Deal | NameSuit | Play | Draw | Pass | LeapDay
"""Every action of the engine."""
